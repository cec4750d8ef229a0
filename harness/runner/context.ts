import type { Depth } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';
import type { ControlEndpoint } from '../ground/control-endpoint.ts';

// What the CLI hands to the conformance test worker (through the environment, never a file:
// it holds the control token).
export interface RunContext {
  runId: string;
  baseUrl: string;
  control?: ControlEndpoint;
  /** The run's profile as the CLI resolved it (its poolSize included): the worker never loads it again. */
  profile: Profile;
  depth: Depth;
  seed: number;
  prefix: string;
  /** The checks the CLI chose, in suite order: the worker never selects again. */
  checkIds: string[];
  concurrency: number;
  /** The request budget that chose the checks (depth or --time-budget; none for a selection run whole): the runner holds the run to it. */
  requestBudget?: number;
  eventsPath: string;
  /** --sinks: the HTTP API of a standalone `outreach-conformance sinks` the target can reach. */
  sinksUrl?: string;
  /** Take a first look at the target before any check (a first run against it: harness/runner/runner.ts firstLook). */
  firstLook?: boolean;
}

export const RUN_CONTEXT_ENV = 'OUTREACH_CONFORMANCE_RUN';

export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  const raw = env[RUN_CONTEXT_ENV];
  if (!raw) throw new Error(`${RUN_CONTEXT_ENV} is not set: start a conformance run with "outreach-conformance run", not vitest directly`);
  return JSON.parse(raw) as RunContext;
}
