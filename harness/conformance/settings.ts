import { resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { Check, Depth } from '../ground/check.ts';
import { KitError } from '../ground/errors.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import type { Profile } from '../ground/profile-schema.ts';
import type { RunStartEvent } from '../ground/events.ts';
import { SPEC_IDENTITY, compareSpecFile, describeComparison } from '../ground/spec-model/identity.ts';
import { parseDepth, parseTimeBudget } from '../ground/units.ts';
import { effectivePoolSize } from '../plan/planner.ts';
import { loadBaseline } from '../runner/baseline.ts';
import { connectSink } from '../sinks/http-client.ts';
import { signingKey } from './keys.ts';
import { resolveWorkspaceKeys } from './preflight.ts';

// A run's flags settled once, before anything boots: every refusal of a flag, the profile, a key,
// the baseline or the sinks comes from here (exit 2), so a run that cannot finish never starts.

export interface RunFlags {
  profile?: string;
  depth?: string;
  /** "5m": the checks covering the most clauses within the requests the rate limit allows in that time. */
  'time-budget'?: string;
  out?: string;
  only?: string;
  /** Selection (harness/plan/select.ts): a check id pattern, clause ids, spec sections, what failed last time. */
  check?: string;
  clause?: string[];
  section?: string[];
  'rerun-failed'?: boolean;
  /** Earlier runs' reports (a reports directory or one run's) to learn this target's pace from; `none`: the reference's durations alone. */
  history?: string;
  /** A first look at the target whatever the run knows of it (harness/conformance/first-look.ts): the reference's baseline. */
  'first-look'?: boolean;
  seed?: number;
  concurrency?: number;
  mutants?: string[];
  /** Workspaces to provision through the control API (overrides the profile's poolSize). */
  workspaces?: number;
  quiet?: boolean;
  /** A spec file to compare with the one the kit was written from. */
  spec?: string;
  /** Known failures: `{ entries: [{ check, reason, expires? }] }` (harness/runner/baseline.ts). */
  baseline?: string;
  /** The HTTP API of a standalone `outreach-conformance sinks` the target can reach (instead of in-process sinks). */
  sinks?: string;
  /** Show vitest's own runner lines (RUN, the test list, the slowest tests) besides the kit's summary. */
  'vitest-output'?: boolean;
  /** An Ed25519 private key (PEM file, or `env:VAR` holding the PEM): sign an in-toto attestation of the bundle. */
  sign?: string;
}

export interface RunSettings {
  depth: Depth;
  timeBudgetSeconds?: number;
  signWith?: KeyObject;
  /** The profile with the workspaces the run provisions (--workspaces, else its poolSize). */
  profile: Profile;
  spec: RunStartEvent['spec'];
  baseline?: Awaited<ReturnType<typeof loadBaseline>>;
  /** A standalone sinks process's HTTP API (--sinks), checked to answer. */
  sinksUrl?: string;
}

/** The run's settings from its flags, in the order their refusals are met; `all` names the checks a baseline may list. */
export async function settleFlags(flags: RunFlags, all: readonly Check[]): Promise<RunSettings> {
  const depth = parseDepth(flags.depth);
  const timeBudgetSeconds = parseTimeBudget(flags['time-budget']);
  // Zero checks at a time would wait for ever (and estimate NaN minutes): refused before anything starts.
  if (flags.concurrency !== undefined && !(Number.isInteger(flags.concurrency) && flags.concurrency >= 1)) throw new KitError(`--concurrency must be a whole number of at least 1, not ${flags.concurrency}`);
  // A flag's error before anything loads or boots: a run that cannot sign must not start.
  const signWith = flags.sign !== undefined ? await signingKey(flags.sign) : undefined;
  const loaded = await loadProfile(resolve(flags.profile ?? DEFAULT_PROFILE_PATH));
  const poolSize = effectivePoolSize(loaded, depth, flags.workspaces);
  if (!Number.isInteger(poolSize) || poolSize < 2 || poolSize > 200) throw new KitError(`--workspaces must be a whole number from 2 to 200, not ${poolSize}`);
  const profile = { ...loaded, poolSize };
  const spec = await specInfo(flags.spec);
  // Read before anything starts: a bad baseline is the user's to fix, exit 2 naming the field.
  const baseline = flags.baseline !== undefined ? await loadBaseline(resolve(flags.baseline), all.map((c) => c.id), flags.baseline) : undefined;
  // Whether a given spec matches is printed even with --quiet: it changes how to read the run.
  if (spec.file) process.stdout.write(`${describeComparison(spec.file)}\n`);
  const sinksUrl = flags.sinks !== undefined ? await remoteSinksUrl(flags.sinks) : undefined;
  // Every secret resolves before anything boots: an unset or empty variable is exit 2 naming the field.
  resolveWorkspaceKeys(profile);
  return { depth, ...(timeBudgetSeconds !== undefined ? { timeBudgetSeconds } : {}), ...(signWith ? { signWith } : {}), profile, spec, ...(baseline ? { baseline } : {}), ...(sinksUrl ? { sinksUrl } : {}) };
}

/** The spec the kit was written from (a constant of the model) and, with --spec, how a given file compares. */
export async function specInfo(specFile?: string): Promise<RunStartEvent['spec']> {
  const { version, sha256 } = SPEC_IDENTITY;
  if (!specFile) return { version, sha256 };
  try {
    return { version, sha256, file: await compareSpecFile(resolve(specFile)) };
  } catch (e) {
    throw new KitError(`--spec ${specFile} cannot be read: ${(e as Error).message}`);
  }
}

/** --sinks URL: a standalone sinks process that answers its info endpoint; otherwise exit 2 before anything runs. */
async function remoteSinksUrl(url: string): Promise<string> {
  if (!/^https?:\/\/[^/]+/.test(url)) throw new KitError(`--sinks must be the http(s) URL of a running "outreach-conformance sinks" (its HTTP API), not "${url}"`);
  try {
    await connectSink(url);
  } catch (e) {
    throw new KitError(`--sinks ${url}: the mail sinks do not answer GET /sink/v1/info: ${(e as Error).message}`);
  }
  return url.replace(/\/+$/, '');
}
