import type { Check, Depth } from '../ground/check.ts';
import { expectedDurationMs, expectedOverheadMs, type ClockMode } from './expected.ts';
import { pacedMs, type TargetPace } from './target-pace.ts';

// The one order of a run and how long it takes. Every scheduler (the vitest entry's describe
// blocks, Runner.runAll) runs the phases of runPhases; the estimate simulates the same phases
// with the checks' measured durations, so what is announced is what is run.

export interface RunPhase<C = Check> {
  name: string;
  concurrent: boolean;
  checks: C[];
}

/** What the order needs of a check. */
export type Scheduled = Pick<Check, 'id' | 'solo' | 'last'>;

/**
 * How the run's target keeps time. `control`: a control API whose clock checks move (a check
 * that jumps it must run alone). `real`: the target's own clock; nothing jumps, so no check
 * needs the run to itself and every wait on real time overlaps with the other checks.
 */
export interface ScheduleOptions<C = Scheduled> {
  clock: ClockMode;
  /** What the target sees of a check (expected.ts targetRequests): against real time, the short checks go largest first. */
  requests?: (c: C) => number;
}

/**
 * A check measured to take this long against real time waits on it (mail to arrive, a
 * verification, a minute's gap): it starts first, whatever it sends, so that no such wait begins
 * in the run's last window and outlasts its burst.
 */
export const LONG_CHECK_MS = 2_000;

/**
 * `solo` checks one by one (only where the control clock moves), then the rest concurrently,
 * longest first, then the observers of the whole run. Against real time, where the rate windows
 * bound the run, the checks that do not wait long go by what they send, most first (`requests`):
 * the first window takes the large ones and the small ones fill what the last window leaves, so
 * no large check finds the room it needs split over several workspaces at the end.
 */
export function runPhases<C extends Scheduled>(checks: readonly C[], o: ScheduleOptions<C>): RunPhase<C>[] {
  const alone = (c: C) => isSolo(c) && o.clock === 'control';
  // Longest first (measured durations): a long check started late would run on alone at the end.
  const concurrent = checks.filter((c) => !isLast(c) && !alone(c));
  const bySize = o.clock === 'real' ? o.requests : undefined;
  const key = (c: C, ms: number) => (bySize && ms < LONG_CHECK_MS ? bySize(c) : Infinity);
  const longestFirst = concurrent
    .map((c, i) => ({ c, i, ms: expectedDurationMs(c, o.clock) }))
    .map((x) => ({ ...x, size: key(x.c, x.ms) }))
    .sort((a, b) => (a.size === b.size ? 0 : b.size > a.size ? 1 : -1) || b.ms - a.ms || a.i - b.i);
  return [
    { name: 'checks that run alone', concurrent: false, checks: checks.filter(alone) },
    { name: 'checks', concurrent: true, checks: longestFirst.map((x) => x.c) },
    { name: 'observers of the whole run', concurrent: false, checks: checks.filter(isLast) },
  ];
}

/** Checks that observe the whole run (the envelope of every error seen) run after the others. */
export function isLast(c: Pick<Check, 'last'>): boolean {
  return c.last === true;
}

export function isSolo(c: Pick<Check, 'solo'>): boolean {
  return c.solo === true;
}

/**
 * How long a phase takes: one check after another, or `concurrency` at a time, each check taken
 * by the first slot that frees up, in order (as vitest's concurrent describe does). `busyMs`:
 * slots already taken for that long (checks running now).
 */
export function phaseMs(durations: readonly number[], concurrent: boolean, concurrency: number, busyMs: readonly number[] = []): number {
  if (!concurrent) return durations.reduce((n, d) => n + d, 0) + Math.max(0, ...busyMs);
  const slots = [...busyMs];
  while (slots.length < concurrency) slots.push(0);
  for (const d of durations) {
    let i = 0;
    for (let j = 1; j < slots.length; j++) if (slots[j]! < slots[i]!) i = j;
    slots[i]! += d;
  }
  return Math.max(0, ...slots);
}

export interface RunEstimate {
  /** The whole run: start-up, the phases, and what follows them (clean-up, reports). */
  ms: number;
  /** The phases alone, as simulated from measured durations. */
  checksMs: number;
  /** The least time the rate limit allows for the run's requests. */
  rateFloorMs: number;
  /** Start-up and finish outside the checks (measured). */
  overheadMs: number;
  /** Of it, the finish after the last check (the clean-up). */
  finishMs: number;
  /** What bounds the phases: the checks' own durations, or the rate limit. */
  from: 'durations' | 'rate limit';
}

/**
 * The run's time before it starts: the phases simulated with the checks' measured durations
 * (on this kind of target: with the control clock, or waiting in real time) at `pace` (this
 * target's in earlier runs, target-pace.ts; the order stays the measured one, as the run's), at
 * least the rate limit's floor, plus the measured start-up and finish.
 */
export function estimateRun<C extends Scheduled>(checks: readonly C[], o: ScheduleOptions<C> & { concurrency: number; rateFloorMs: number; depth?: Depth; pace?: TargetPace }): RunEstimate {
  const checksMs = runPhases(checks, o).reduce((n, p) => n + phaseMs(p.checks.map((c) => pacedMs(c.id, expectedDurationMs(c, o.clock), o.pace)), p.concurrent, o.concurrency), 0);
  const { start: measured, finish } = expectedOverheadMs(o.clock, undefined, o.depth);
  // Where the run knows when its checks start (after a first look), that start; else the measured one.
  const start = o.pace?.startMs ?? measured;
  const overheadMs = start + finish;
  const from = o.rateFloorMs > checksMs ? 'rate limit' : 'durations';
  return { ms: Math.max(checksMs, o.rateFloorMs) + overheadMs, checksMs, rateFloorMs: o.rateFloorMs, overheadMs, finishMs: finish, from };
}

/**
 * The share of the pool's windows a run fills before its requests spill into the next window:
 * admission keeps, in the run's last window, each workspace's owed clean-up and a margin free,
 * and puts a check's whole measured count in one workspace, so some room is never used (the
 * staging bench's default runs, which fit two windows, filled about 95 % of them).
 */
export const WINDOW_FILL = 0.95;
