import type { FirstLookBasis, RunEvent, TargetWorkEvent, TargetWorkStats } from '../ground/events.ts';

// How this target's checks compare with the durations the kit measured against its reference,
// learned from earlier runs against the same target: the estimate before a run can rest on what
// this target has shown, not on the reference alone.
//
// A target slower than the reference is rarely slower evenly: a slow network adds latency to every
// answer, a slow sending engine or verification stretches the checks that wait for mail, and one
// check may wait far longer than the rest (a reply read on a slow poll). So a check that passed in
// an earlier run at the same depth takes its own time there (the least, over those runs: a wait
// for a rate window or a workspace does not repeat every time). Any other check takes its measured
// time at the pace of its kind (KINDS): the weighted median of every passing check's actual over
// measured time, weighted by its measured time, so that the long checks weigh most and no single
// check that waited on something else moves it. What a check waited on the kit itself (room in a
// rate window, a workspace to lease: CheckEndEvent.waitedMs) is not the target's time: the
// estimate counts the windows apart.

/** A check measured at least this long waits on real time (a gap of a minute, a sink arrival). */
export const WAITS_MS = 15_000;
/** A check measured at least this long (and less than WAITS_MS) waits on the target's own work: a verification, a send reaching a sink. */
export const WORKS_MS = 2_000;

/**
 * The kinds of check whose pace is its own: `short` ones are a few answers (their time is the
 * target's latency), `works` ones wait seconds on the target's engine (which its latency does not
 * show), `waiting` ones wait on real time (a sending gap, a poll period).
 */
export type Kind = 'short' | 'works' | 'waiting';
export const KINDS: readonly Kind[] = ['short', 'works', 'waiting'];

export function kindOf(measuredMs: number): Kind {
  return measuredMs >= WAITS_MS ? 'waiting' : measuredMs >= WORKS_MS ? 'works' : 'short';
}

export function waits(expectedMs: number): boolean {
  return kindOf(expectedMs) === 'waiting';
}

/** The paces the estimate accepts: beyond them a run mostly measured something other than the target. */
export const PACE_BOUNDS = { min: 0.25, max: 4 } as const;

/** Passing checks of a kind an earlier run must hold before their pace counts (fewer say little of the target). */
const MIN_CHECKS: Record<Kind, number> = { short: 20, works: 3, waiting: 1 };

/** One check of an earlier run, as its results.json has it. */
export interface PastCheck {
  id: string;
  verdict: string;
  durationMs?: number;
  /** Of durationMs, what it waited on the kit (a rate window's room, a lease): not the target's pace. */
  waitedMs?: number;
}

/** What a check took of the target's own time: its duration less what it waited on the kit. */
export function ownMs(c: Pick<PastCheck, 'durationMs' | 'waitedMs'>): number {
  return Math.max(0, c.durationMs! - (c.waitedMs! > 0 ? c.waitedMs! : 0));
}

/** An earlier run against this target. */
export interface PastRun {
  runId: string;
  depth: string;
  checks: readonly PastCheck[];
  /** How long its mailboxes took to settle (median, results.json stats.targetWork), where it saw any. */
  settleMs?: number;
}

/** Actual over measured time, by kind (1 where a kind was not seen), in earlier runs against this target. */
export type Paces = Record<Kind, number>;

export interface TargetPace extends Paces {
  /** The runs it was learned from, newest first. */
  runs: string[];
  /** Passing checks compared, by kind (0: the kind keeps the reference's pace, 1). */
  compared: Record<Kind, number>;
  /** Check id -> its least duration in the earlier runs at this run's depth (ms). */
  own: Record<string, number>;
  /** How long a mailbox took to settle in those runs (the median of theirs), where they saw any. */
  settleMs?: number;
  /** Where it comes from a first look at the target instead (harness/plan/first-look-pace.ts): what that saw. */
  firstLook?: FirstLookBasis;
  /** Known in the run itself (a first look held its checks until then): from the run's start to its checks' start, in ms. */
  startMs?: number;
}

/**
 * The pace of `runs` (earlier runs against this target) against `measuredMs`, and the checks' own
 * durations in those at `depth`; undefined when they hold nothing to learn from.
 */
export function learnPace(runs: readonly PastRun[], measuredMs: (id: string) => number, depth?: string): TargetPace | undefined {
  const ratios: Record<Kind, Ratio[]> = { short: [], works: [], waiting: [] };
  for (const run of runs)
    for (const c of run.checks) {
      if (c.verdict !== 'pass' || !(c.durationMs! >= 0)) continue;
      const m = measuredMs(c.id);
      if (!(m > 0)) continue;
      const r = { ratio: ownMs(c) / m, weight: m };
      // A waiting check that ended in a fraction of its measure did not wait here (it took another way).
      if (kindOf(m) !== 'waiting' || r.ratio >= 0.5) ratios[kindOf(m)].push(r);
    }
  const known = (k: Kind) => ratios[k].length >= MIN_CHECKS[k];
  const own = ownDurations(runs.filter((r) => r.depth === depth));
  if (!KINDS.some(known) && Object.keys(own).length === 0) return undefined;
  const pace = (k: Kind) => (known(k) ? bounded(weightedMedian(ratios[k])) : 1);
  const compared = (k: Kind) => (known(k) ? ratios[k].length : 0);
  return {
    short: pace('short'),
    works: pace('works'),
    waiting: pace('waiting'),
    runs: runs.map((r) => r.runId),
    compared: { short: compared('short'), works: compared('works'), waiting: compared('waiting') },
    own,
    ...settleOf(runs),
  };
}

function settleOf(runs: readonly PastRun[]): { settleMs?: number } {
  const seen = runs.flatMap((r) => (r.settleMs! > 0 ? [r.settleMs!] : []));
  return seen.length ? { settleMs: median(seen) } : {};
}

/** Each check's least duration over `runs`, where it passed. */
function ownDurations(runs: readonly PastRun[]): Record<string, number> {
  const own: Record<string, number> = {};
  for (const run of runs)
    for (const c of run.checks) if (c.verdict === 'pass' && c.durationMs! >= 0) own[c.id] = Math.round(Math.min(own[c.id] ?? Infinity, ownMs(c)));
  return own;
}

/** A check's expected duration on this target: its own in earlier runs, else its measured one at its kind's pace (the measured one without a pace). */
export function pacedMs(id: string, measuredMs: number, pace: (Paces & Pick<TargetPace, 'own'>) | undefined): number {
  if (!pace) return measuredMs;
  return pace.own[id] ?? measuredMs * pace[kindOf(measuredMs)];
}

const KIND_NAMES: Record<Kind, string> = { short: 'short checks', works: 'checks that wait on its engine', waiting: 'checks that wait on real time' };

/** `2 earlier runs against this target (120 checks at their own time there at this depth, the others at short checks 2.45x, ... the reference's time)`. */
export function describePace(p: TargetPace): string {
  if (p.firstLook) return describeFirstLook(p.firstLook);
  const kinds = KINDS.filter((k) => p.compared[k]).map((k) => `${KIND_NAMES[k]} ${p[k].toFixed(2)}x`).join(', ');
  const own = Object.keys(p.own).length;
  const others = kinds ? `${kinds} the reference's time` : "the reference's time";
  return `${p.runs.length} earlier run${p.runs.length === 1 ? '' : 's'} against this target (${own ? `${own} checks at their own time there at this depth, the others at ${others}` : others})`;
}

/** How a first look's pace sets each check's time (said wherever it is shown). */
export const FIRST_LOOK_MODEL = "each check's measured time with the extra answer time for each of its requests and the extra verification time for each mailbox it waits on";
/** The same with the control API. */
export const FIRST_LOOK_CONTROL_MODEL = "each check's measured time with the extra answer time for each of its requests, the extra round trip for each control call, the extra empty-drain time for each drain and the extra time of a drain with work for each of its drains that ran some";

/** `a first look at this target (answers in 52 ms, the reference's 2 ms; ...)`. */
function describeFirstLook(b: FirstLookBasis): string {
  const answers = `answers in ${b.answerMs} ms, the reference's ${b.reference.answerMs} ms`;
  if (b.drainMs !== undefined) return `a first look at this target and its control API (${answers}; ${describeControlLook(b)}): ${FIRST_LOOK_CONTROL_MODEL}`;
  const settles = b.settleMs === undefined ? 'no mailbox verified in time, so verification at the reference\'s pace' : `a mailbox verified in ${seconds(b.settleMs)}, the reference's ${seconds(b.reference.settleMs ?? 0)}`;
  return `a first look at this target (${answers}; ${settles}): ${FIRST_LOOK_MODEL}`;
}

/** `GET /clock in 3 ms (the reference's 1 ms), an empty drain in 12 ms (4 ms), one with a verification due in 2.1 s (0.3 s)`. */
export function describeControlLook(b: Pick<FirstLookBasis, 'controlMs' | 'drainMs' | 'workDrainMs'> & { reference?: FirstLookBasis['reference'] }): string {
  const ref = (ms: number | undefined) => (ms === undefined || !b.reference ? '' : ` (the reference's ${msOrSeconds(ms)})`);
  const work = b.workDrainMs === undefined ? 'no drain with a verification due (no sinks): drained work at the reference\'s pace' : `a drain with one verification due in ${msOrSeconds(b.workDrainMs)}${ref(b.reference?.workDrainMs)}`;
  return `GET /clock in ${msOrSeconds(b.controlMs ?? 0)}${ref(b.reference?.controlMs)}, an empty drain in ${msOrSeconds(b.drainMs ?? 0)}${ref(b.reference?.drainMs)}, ${work}`;
}

function msOrSeconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : seconds(ms);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

interface Ratio {
  ratio: number;
  weight: number;
}

function weightedMedian(xs: Ratio[]): number {
  const sorted = [...xs].sort((a, b) => a.ratio - b.ratio);
  const half = sorted.reduce((n, x) => n + x.weight, 0) / 2;
  let acc = 0;
  for (const x of sorted) {
    acc += x.weight;
    if (acc >= half) return x.ratio;
  }
  return 1;
}

/** Within PACE_BOUNDS, to two decimals (what reports show). */
function bounded(x: number): number {
  return Math.round(Math.min(PACE_BOUNDS.max, Math.max(PACE_BOUNDS.min, x)) * 100) / 100;
}

/** The target's background work the checks saw (TargetWorkEvent), by kind: how many, and their median (results.json stats.targetWork). */
export function targetWorkStats(events: readonly RunEvent[]): { targetWork?: TargetWorkStats } {
  const byWhat = new Map<TargetWorkEvent['what'], number[]>();
  for (const e of events) if (e.type === 'target-work') byWhat.set(e.what, [...(byWhat.get(e.what) ?? []), e.ms]);
  if (byWhat.size === 0) return {};
  return { targetWork: Object.fromEntries([...byWhat].map(([what, ms]) => [what, { count: ms.length, medianMs: median(ms) }])) };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
