import type { CheckEndEvent, CheckStartEvent, RunEvent } from '../ground/events.ts';
import { RunProgressState, sentOf, type EstimateOptions, type TimeLeft } from './run-progress.ts';

// How the progress line's estimate fared: the run's check events replayed through the same
// RunProgressState, stopped when half the checks were done, and the time it then said was left
// set against the time that was left. Deterministic (the events carry every time it reads), so
// results.json can keep it and a bench can compare runs.

export interface Halfway {
  /** When half the checks were done, from the run's start. */
  atMs: number;
  /** The time left the progress line said then (clean-up included). */
  leftMs: number;
  /** The time that was left: from then to the run's end. */
  actualLeftMs: number;
  /** (said - actual) / actual. */
  error: number;
  /** What the time left rested on then (harness/cli/run-progress.ts TimeLeft). */
  from: TimeLeft['from'];
  scales: TimeLeft['scales'];
}

type ProgressCheck = ConstructorParameters<typeof RunProgressState>[0][number];

export function halfwayEstimate(events: readonly RunEvent[], checks: readonly ProgressCheck[], o: EstimateOptions, runEndMs: number): Halfway | undefined {
  const start = events.find((e) => e.type === 'run-start');
  const ends = events.filter((e): e is CheckEndEvent => e.type === 'check-end').length;
  if (!start || ends < 2) return undefined;
  const startedAt = Date.parse(start.startedAt);
  const state = new RunProgressState(checks, o);
  const begun = new Map<string, number>();
  const half = Math.ceil(checks.length / 2);
  for (const e of events) {
    const sent = sentOf(e);
    if (sent) state.apply([sent]);
    if (e.type === 'target-work' || e.type === 'first-look') state.apply([e]);
    if (e.type !== 'check-start' && e.type !== 'check-end') continue;
    state.apply([e as CheckStartEvent | CheckEndEvent]);
    if (e.type === 'check-start') begun.set(e.checkId, Date.parse(e.at));
    else if (state.done >= half) {
      const now = (begun.get(e.checkId) ?? startedAt) + e.durationMs;
      const said = state.estimate(now);
      if (!said) return undefined;
      const actualLeftMs = Math.max(1, runEndMs - now);
      const scales = { short: round2(said.scales.short), works: round2(said.scales.works), waiting: round2(said.scales.waiting) };
      return { atMs: now - startedAt, leftMs: Math.round(said.ms), actualLeftMs, error: (said.ms - actualLeftMs) / actualLeftMs, from: said.from, scales };
    }
  }
  return undefined;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
