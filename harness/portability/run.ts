import { randomBytes } from 'node:crypto';
import type { CheckEndEvent, EventSink } from '../ground/events.ts';
import type { Depth } from '../ground/check.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { Runner } from '../runner/runner.ts';
import { selectChecks } from '../plan/eligible.ts';
import { startPortabilityTarget, type PortabilityOptions } from './target.ts';

// One portability run: the whole suite against the reference with one choice set, with or
// without the control API. A correct implementation must pass: 0 failures, 0 errors.

export interface PortabilityResult {
  choices: string;
  control: boolean;
  seed: number;
  /** With a clock edge: the target's clock when the run began (ISO 8601). */
  clockAt?: string;
  results: CheckEndEvent[];
  /** Failures of MUST and PROFILE checks, and errors, one line each (with the seeds to replay). */
  problems: string[];
  /** SHOULD checks that failed: a correct target may depart from a recommended reading. */
  shouldDepartures: string[];
  /** Skips whose reason does not say what is missing. */
  unexplainedSkips: string[];
}

const line = (r: CheckEndEvent) => `${r.verdict} ${r.checkId}: ${r.message}`;
const nullSink: EventSink = { emit: () => {} };

export async function runPortability(
  opts: PortabilityOptions & { seed?: number; depth?: Depth; only?: RegExp; sink?: EventSink },
): Promise<PortabilityResult> {
  const target = await startPortabilityTarget(opts);
  const seed = opts.seed ?? 20261124;
  try {
    const runner = new Runner({
      profile: target.profile,
      baseUrl: target.baseUrl,
      control: target.control,
      depth: opts.depth ?? 'default',
      sink: opts.sink ?? nullSink,
      prefix: `ocp${randomBytes(2).toString('hex')}-`,
      seed,
      ...(target.zones ? { zones: target.zones } : {}),
    });
    const checks = selectChecks(ALL_CHECKS, opts.depth ?? 'default').filter((c) => !opts.only || opts.only.test(c.id));
    await runner.prepare(checks);
    let results: CheckEndEvent[];
    try {
      results = await runner.runAll(checks, 8);
    } finally {
      await runner.finish();
    }
    return {
      choices: target.choicesName,
      control: opts.control,
      seed,
      ...(target.clockAt ? { clockAt: target.clockAt } : {}),
      results,
      problems: results.filter((r) => r.verdict === 'error' || (r.verdict === 'fail' && r.level !== 'SHOULD')).map(line),
      shouldDepartures: results.filter((r) => r.verdict === 'fail' && r.level === 'SHOULD').map(line),
      unexplainedSkips: results.filter((r) => r.verdict === 'skip' && !/\S{3,}/.test(r.message ?? '')).map((r) => r.checkId),
    };
  } finally {
    await target.stop();
  }
}
