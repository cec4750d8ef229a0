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
  /** What the time left rested on then (harness/conformance/run-progress.ts TimeLeft). */
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

/** What the line said at its first tick once half the run's time (start to `runEndMs`) had passed, against the time left then. */
export function midwayEstimate(events: readonly RunEvent[], checks: readonly ProgressCheck[], o: EstimateOptions, runEndMs: number): Omit<Halfway, 'scales'> | undefined {
  const start = events.find((e) => e.type === 'run-start');
  if (!start) return undefined;
  const startedAt = Date.parse(start.startedAt);
  const half = (runEndMs - startedAt) / 2;
  const said = timeLeftTrace(events, new RunProgressState(checks, o), startedAt, runEndMs).find((s) => s.atMs >= half);
  if (!said) return undefined;
  const actualLeftMs = Math.max(1, said.actualLeftMs);
  return { atMs: said.atMs, leftMs: said.saidMs, actualLeftMs, error: (said.saidMs - actualLeftMs) / actualLeftMs, from: said.from };
}

/** The time left the progress line said at one moment of a replayed run, against the time that was left. */
export interface SaidLeft {
  /** From the run's start. */
  atMs: number;
  done: number;
  saidMs: number;
  actualLeftMs: number;
  from: TimeLeft['from'];
}

/**
 * What the progress line said every `everyMs` of a replayed run (and at each check's end), against
 * the time that was left: the events in the order the run wrote them, each at its own time (a
 * check's end at its start plus its duration), the line asked between them as its ticks would.
 * Deterministic: every time it reads is in the events.
 */
export function timeLeftTrace(events: readonly RunEvent[], state: RunProgressState, startedAt: number, endAt: number, everyMs = 1000): SaidLeft[] {
  const out: SaidLeft[] = [];
  const begun = new Map<string, number>();
  let clock = startedAt;
  const ask = (now: number) => {
    const said = state.estimate(now);
    if (said) out.push({ atMs: now - startedAt, done: state.done, saidMs: Math.round(said.ms), actualLeftMs: Math.max(0, endAt - now), from: said.from });
  };
  for (const e of events) {
    const sent = sentOf(e);
    const at = sent ? sent.at : e.type === 'check-start' ? Date.parse(e.at) : e.type === 'check-end' ? (begun.get(e.checkId) ?? clock) + e.durationMs : e.type === 'target-work' || e.type === 'first-look' ? Date.parse(e.at) : undefined;
    if (at === undefined) continue;
    // The ticks before this event, once the checks have begun (the line says "preparing" until then).
    for (let t = clock + everyMs; begun.size > 0 && t < at; t += everyMs) ask(t);
    clock = Math.max(clock, at);
    if (sent) state.apply([sent]);
    else state.apply([e as CheckStartEvent | CheckEndEvent]);
    if (e.type === 'check-start') begun.set(e.checkId, at);
    if (e.type === 'check-end') ask(at);
  }
  return out;
}

/**
 * A run's progress events kept as a recording (a test's input: harness/conformance/recorded/): the checks
 * with what the line expected of each (the plan's, after its first look where it took one), the
 * line's options, and the run's check, target-work and first-look events, without exchanges.
 */
export interface Recording {
  type: 'recording';
  /** What the run was (target, depth, machine): said, not read. */
  about: string;
  startedAt: number;
  endAt: number;
  concurrency: number;
  clock: 'control' | 'real';
  finishMs: number;
  checks: { id: string; expectedMs: number; solo?: boolean; last?: boolean }[];
}

/** The recording of a run's events (see Recording): its first line, then the events the line reads. */
export function recordingOf(events: readonly RunEvent[], head: Omit<Recording, 'type'>): string {
  const kept = events.flatMap((e): object[] => {
    if (e.type === 'check-start' || e.type === 'target-work' || e.type === 'first-look') return [e];
    if (e.type !== 'check-end') return [];
    const { title: _t, message: _m, evidence: _e, ...end } = e;
    return [end];
  });
  return [{ type: 'recording', ...head }, ...kept].map((x) => JSON.stringify(x)).join('\n') + '\n';
}

/** A recording read back: its head and its events (after a run-start at its start: what a replay counts from). */
export function readRecording(text: string): { head: Recording; events: RunEvent[] } {
  const [first, ...rest] = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
  const head = first as Recording;
  if (head?.type !== 'recording') throw new Error('not a recording: its first line is no "recording" head');
  const start = { type: 'run-start', startedAt: new Date(head.startedAt).toISOString() } as RunEvent;
  return { head, events: [start, ...(rest as RunEvent[])] };
}
