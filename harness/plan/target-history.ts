import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expectedDurationMs, type ClockMode } from './expected.ts';
import { learnPace, type PastRun, type TargetPace } from './target-pace.ts';
import type { TargetWorkStats } from '../ground/events.ts';

// Earlier runs against the same target, read from a reports directory (the run's --out by
// default, or --history DIR: a CI job's downloaded reports), so the estimate before a run rests on
// this target's own pace (harness/plan/target-pace.ts). The same target: the same base URL, not
// the embedded reference, and the same kind of clock (with or without a control API), whose
// measured durations the pace compares with. Runs at the same depth come first where there are
// any: a depth loads the target in its own way (default's 32 checks at once stretch the sending
// checks more than quick's few do). What cannot be read is passed over: an earlier run's
// damaged report must not stop this one.

/** Earlier runs the pace is learned from, newest first. */
export const HISTORY_RUNS = 3;
/** Run directories looked into at most (newest first) to find them. */
const LOOK_AT_MOST = 20;

/** A run directory's name: its start time first (runId), so names sort by time. */
const RUN_DIR = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d/;

export interface TargetHistory {
  pace?: TargetPace;
  /** One line for the console: what was learned, or why nothing was. */
  said: string;
}

/** What `results.json` holds that the history reads. */
interface PastResults {
  runId?: string;
  depth?: string;
  target?: { baseUrl?: string; embedded?: boolean };
  profile?: { control?: unknown };
  checks?: PastRun['checks'];
  stats?: { targetWork?: TargetWorkStats };
}

/**
 * The pace of this target in the newest runs against it in `dir` (a reports directory, or one
 * run's directory), measured durations taken by `clock`. A directory that does not exist yet (a
 * CI job's first run, before any cache holds one) or holds no run of this target teaches nothing,
 * and the line says so; `given` (--history named it) says which flag it came from.
 */
export async function targetHistory(dir: string, target: Target, given: boolean): Promise<TargetHistory> {
  if (!existsSync(dir)) return { said: `pace: ${given ? `--history ${dir} does not exist (yet)` : `no earlier run against ${target.baseUrl} in ${dir}`}; the estimate rests on the reference's durations` };
  const runs = await pastRunsOf(dir, target);
  const pace = learnPace(runs, (id) => expectedDurationMs({ id }, target.clock), target.depth);
  if (!pace) return { said: `pace: ${runs.length ? `the ${runs.length} earlier run(s) against ${target.baseUrl} in ${dir} passed too few checks` : `no earlier run against ${target.baseUrl} in ${dir}`} to learn from; the estimate rests on the reference's durations` };
  return { pace, said: `pace: learned from ${pace.runs.join(', ')} in ${dir}` };
}

/**
 * What `run` and `plan` learn of a profile's target: from `--history` (`none`: nothing), else from
 * `defaultDir`; never of the embedded reference, whose durations are the measure.
 */
export async function historyOf(o: { embedded: boolean; baseUrl: string | undefined; clock: ClockMode; depth: string; history: string | undefined; defaultDir: string }): Promise<TargetHistory | undefined> {
  if (o.embedded || o.history === 'none' || !o.baseUrl) return undefined;
  return targetHistory(resolve(o.history ?? o.defaultDir), { baseUrl: o.baseUrl, clock: o.clock, depth: o.depth }, o.history !== undefined);
}

/** The run's target, and its depth (earlier runs at the same depth come first). */
export interface Target {
  baseUrl: string;
  clock: ClockMode;
  depth?: string;
}

async function pastRunsOf(dir: string, target: Target): Promise<PastRun[]> {
  const own = await readResults(join(dir, 'results.json'));
  if (own) return sameTarget(own, target) ? [toRun(own)] : [];
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => RUN_DIR.test(n)).sort().reverse().slice(0, LOOK_AT_MOST);
  const runs: PastRun[] = [];
  for (const name of names) {
    const r = await readResults(join(dir, name, 'results.json'));
    if (r && sameTarget(r, target)) runs.push(toRun(r));
    if (runs.filter((x) => x.depth === target.depth).length === HISTORY_RUNS) break;
  }
  const atDepth = runs.filter((r) => r.depth === target.depth);
  return (atDepth.length ? atDepth : runs).slice(0, HISTORY_RUNS);
}

async function readResults(path: string): Promise<PastResults | undefined> {
  try {
    const r = JSON.parse(await readFile(path, 'utf8')) as PastResults;
    return r && typeof r === 'object' && Array.isArray(r.checks) ? r : undefined;
  } catch {
    return undefined; // missing (a load run's directory) or damaged: passed over
  }
}

function sameTarget(r: PastResults, target: Target): boolean {
  const clock: ClockMode = r.profile?.control ? 'control' : 'real';
  return !r.target?.embedded && trimmed(r.target?.baseUrl ?? '') === trimmed(target.baseUrl) && clock === target.clock;
}

function toRun(r: PastResults): PastRun {
  const settle = r.stats?.targetWork?.['mailbox-settle']?.medianMs;
  return { runId: r.runId ?? '?', depth: r.depth ?? '?', checks: r.checks ?? [], ...(typeof settle === 'number' ? { settleMs: settle } : {}) };
}

const trimmed = (url: string) => url.replace(/\/+$/, '');
