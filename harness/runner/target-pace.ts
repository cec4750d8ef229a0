// How this target's checks compare with the durations the kit measured against its reference,
// learned from earlier runs against the same target: the estimate before a run can rest on what
// this target has shown, not on the reference alone.
//
// A target slower than the reference is rarely slower evenly: a slow network adds latency to every
// answer, a slow sending engine or verification stretches the checks that wait for mail, and one
// check may wait far longer than the rest (a reply read on a slow poll). So a check that passed in
// an earlier run at the same depth takes its own time there (the least, over those runs: a wait
// for a rate window or a workspace does not repeat every time). Any other check takes its measured
// time at the pace of its kind (short checks, and those that wait on real time: the kinds the
// progress line tells apart): the weighted median of every passing check's actual over measured
// time, weighted by its measured time, so that the long checks that bound a run weigh most and no
// single check that waited on something else moves it.

/** A check measured at least this long waits on real time (a gap of a minute, a sink arrival). */
export const WAITS_MS = 15_000;

export function waits(expectedMs: number): boolean {
  return expectedMs >= WAITS_MS;
}

/** The paces the estimate accepts: beyond them a run mostly measured something other than the target. */
export const PACE_BOUNDS = { min: 0.25, max: 4 } as const;

/** Short checks an earlier run must have passed before their pace counts (fewer say little of the target). */
const MIN_SHORT_CHECKS = 20;

/** One check of an earlier run, as its results.json has it. */
export interface PastCheck {
  id: string;
  verdict: string;
  durationMs?: number;
}

/** An earlier run against this target. */
export interface PastRun {
  runId: string;
  depth: string;
  checks: readonly PastCheck[];
}

/** Actual over measured time, by kind, in earlier runs against this target. */
export interface TargetPace {
  short: number;
  waiting: number;
  /** The runs it was learned from, newest first. */
  runs: string[];
  /** Passing checks compared, by kind (a kind with none keeps the reference's pace, 1). */
  compared: { short: number; waiting: number };
  /** Check id -> its least duration in the earlier runs at this run's depth (ms). */
  own: Record<string, number>;
}

/**
 * The pace of `runs` (earlier runs against this target) against `measuredMs`, and the checks' own
 * durations in those at `depth`; undefined when they hold too little to learn from.
 */
export function learnPace(runs: readonly PastRun[], measuredMs: (id: string) => number, depth?: string): TargetPace | undefined {
  const short: Ratio[] = [];
  const waiting: Ratio[] = [];
  for (const run of runs)
    for (const c of run.checks) {
      if (c.verdict !== 'pass' || !(c.durationMs! >= 0)) continue;
      const m = measuredMs(c.id);
      if (!(m > 0)) continue;
      const r = { ratio: c.durationMs! / m, weight: m };
      if (!waits(m)) short.push(r);
      // One that ended in a fraction of its measure did not wait here (it took another way).
      else if (r.ratio >= 0.5) waiting.push(r);
    }
  const shortKnown = short.length >= MIN_SHORT_CHECKS;
  const own = ownDurations(runs.filter((r) => r.depth === depth));
  if (!shortKnown && waiting.length === 0 && Object.keys(own).length === 0) return undefined;
  return {
    short: shortKnown ? bounded(weightedMedian(short)) : 1,
    waiting: waiting.length ? bounded(weightedMedian(waiting)) : 1,
    runs: runs.map((r) => r.runId),
    compared: { short: shortKnown ? short.length : 0, waiting: waiting.length },
    own,
  };
}

/** Each check's least duration over `runs`, where it passed. */
function ownDurations(runs: readonly PastRun[]): Record<string, number> {
  const own: Record<string, number> = {};
  for (const run of runs)
    for (const c of run.checks) if (c.verdict === 'pass' && c.durationMs! >= 0) own[c.id] = Math.round(Math.min(own[c.id] ?? Infinity, c.durationMs!));
  return own;
}

/** A check's expected duration on this target: its own in earlier runs, else its measured one at its kind's pace (the measured one without a pace). */
export function pacedMs(id: string, measuredMs: number, pace: Pick<TargetPace, 'short' | 'waiting' | 'own'> | undefined): number {
  if (!pace) return measuredMs;
  return pace.own[id] ?? measuredMs * (waits(measuredMs) ? pace.waiting : pace.short);
}

/** `2 earlier runs against this target (120 checks at their own time there; the others at: short checks 2.45x, ... the reference's time)`. */
export function describePace(p: TargetPace): string {
  const kinds = [p.compared.short ? `short checks ${p.short.toFixed(2)}x` : '', p.compared.waiting ? `checks that wait on real time ${p.waiting.toFixed(2)}x` : ''].filter(Boolean).join(', ');
  const own = Object.keys(p.own).length;
  const others = kinds ? `${kinds} the reference's time` : "the reference's time";
  return `${p.runs.length} earlier run${p.runs.length === 1 ? '' : 's'} against this target (${own ? `${own} checks at their own time there at this depth, the others at ${others}` : others})`;
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
