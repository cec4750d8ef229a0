// The sending phase: with the control API the clock is driven in steps smaller than the gap and
// every arrival is dated by the step that reached it; without it the run waits in real time and
// the sink dates each message. Either way the phase is bounded (wall time, simulated days, a
// stall) and says why it ended.
import type { StoredMessage } from '../../sinks/index.ts';
import { ArrivalLog } from './arrivals.ts';
import { DAY, dayStartIn, fmtDur, MINUTE, nextDayStartIn } from './calendar.ts';
import type { SendpathRun } from './run-context.ts';
import type { SendpathSetup } from './setup.ts';
import type { SendpathStop } from './types.ts';

export interface SendingOutcome {
  log: ArrivalLog;
  /** messages expected at the sink: leads x steps */
  expected: number;
  stopped: SendpathStop;
  /** target time the phase ended */
  end: number;
  /** with control: seconds per clock step */
  stepS?: number;
  sendingWallMs: number;
}

type Progress = (simulatedMinutes?: number, force?: boolean) => void;
type PhaseEnd = { stopped: SendpathStop; end: number; stepS?: number };

/** Seconds per clock step: a fifth of the gap, at least a minute, yet always below half the gap. */
export function stepSecondsFor(gapMinutes: number): number {
  const gapS = gapMinutes * 60;
  return Math.round(Math.max(gapS / 5, Math.min(60, gapS / 2)));
}

export async function driveSending(run: SendpathRun, setup: SendpathSetup): Promise<SendingOutcome> {
  const { opts, settings } = run;
  const log = new ArrivalLog(opts.sink, setup.boxes, setup.leads, run.tag, settings.steps, setup.timezone);
  const expected = opts.leads * settings.steps;
  const sending0 = Date.now();
  const progress = progressReporter(run, log, expected);
  const phase = setup.control ? await driveSimulatedClock(run, setup, log, expected, progress) : await waitInRealTime(run, setup, log, expected, progress);
  const sendingWallMs = Date.now() - sending0;
  progress(setup.control ? (phase.end - setup.start) / MINUTE : undefined, true);
  return { log, expected, ...phase, sendingWallMs };
}

/** Reports progress to the caller at most every 250 ms, unless forced. */
function progressReporter(run: SendpathRun, log: ArrivalLog, expected: number): Progress {
  let lastProgress = 0;
  return (simulatedMinutes, force = false) => {
    if (!run.opts.onProgress) return;
    const now = Date.now();
    if (!force && now - lastProgress < 250) return;
    lastProgress = now;
    run.opts.onProgress({ sent: log.got.size, expected, ...(simulatedMinutes !== undefined ? { simulatedMinutes } : {}), wallMs: now - run.wall0 });
  };
}

/**
 * Steps the control clock and drains the target's work after each step. A message seen after the
 * drain of the step that reached T is dated T; it left between the previous step's T and T plus
 * the wall time of this step (a control clock may also run with real time).
 */
async function driveSimulatedClock(run: SendpathRun, setup: SendpathSetup, log: ArrivalLog, expected: number, progress: Progress): Promise<PhaseEnd> {
  const control = setup.control!;
  const { start } = setup;
  const stepS = stepSecondsFor(run.settings.gapMinutes);
  let T = start;
  let advancedAt = Date.now();
  const drainAndObserve = async (lo: number) => {
    await control.drain(Math.max(1000, Math.min(30_000, run.wallLeft())));
    const w = Date.now() - advancedAt;
    log.observe(() => ({ at: T, lo, hi: T + w }));
  };
  await drainAndObserve(start);
  for (;;) {
    progress((T - start) / MINUTE);
    const stopped = whySimulationStops(run, setup, log, expected, T);
    if (stopped) return { stopped, end: T, stepS };
    const adv = clockAdvanceSeconds(run, setup, log, T, stepS);
    const lo = T;
    T = (await control.advance(adv)).getTime();
    advancedAt = Date.now();
    setup.budget.shift(adv * 1000);
    await drainAndObserve(lo);
  }
}

/** Why the simulated phase ends at clock T, if it does. */
function whySimulationStops(run: SendpathRun, setup: SendpathSetup, log: ArrivalLog, expected: number, T: number): SendpathStop | undefined {
  const { start } = setup;
  if (log.got.size >= expected) return 'complete';
  if (Date.now() >= run.wallEnd) return 'max-wall';
  if (T - start >= run.settings.maxSimulatedDays * DAY) return 'max-simulated-days';
  if (T - (log.lastArrival ?? start) > DAY + 2 * run.settings.gapMinutes * MINUTE) return 'stalled';
  return undefined;
}

/** Seconds the clock moves next: one step, or a jump when nothing may go before the next day. */
function clockAdvanceSeconds(run: SendpathRun, setup: SendpathSetup, log: ArrivalLog, T: number, stepS: number): number {
  const { start, timezone } = setup;
  const { capPerDay, gapMinutes, maxSimulatedDays } = run.settings;
  // Every mailbox at its cap for today and quiet for a gap: nothing may go until the next
  // day, so the clock jumps to at most one step before it (arrivals of the jump are still
  // dated, and counted for the day, as any step's); the next step then reaches midnight.
  let adv = stepS;
  const today = dayStartIn(T, timezone);
  const allCapped = setup.boxes.every((_, i) => log.sentInDay(i, today) >= capPerDay);
  if (allCapped && T - (log.lastArrival ?? start) >= gapMinutes * MINUTE + stepS * 1000) {
    const jump = Math.ceil((nextDayStartIn(T, timezone) - T) / 1000) - stepS;
    if (jump > stepS) adv = jump;
  }
  return Math.max(1, Math.min(adv, Math.ceil((start + maxSimulatedDays * DAY - T) / 1000)));
}

/** Waits for the sink in real time; a message left between the start of its SMTP transaction and its arrival. */
async function waitInRealTime(run: SendpathRun, setup: SendpathSetup, log: ArrivalLog, expected: number, progress: Progress): Promise<PhaseEnd> {
  const { sink } = run.opts;
  const attemptAt = new Map<string, number>();
  const dateReal = (m: StoredMessage) => {
    if (!attemptAt.has(m.attemptId)) for (const x of sink.attempts({ kind: 'mail', since: setup.start - MINUTE })) attemptAt.set(x.id, x.at);
    const lo = Math.min(attemptAt.get(m.attemptId) ?? m.receivedAt, m.receivedAt);
    return { at: m.receivedAt, lo, hi: m.receivedAt };
  };
  for (;;) {
    log.observe(dateReal);
    progress();
    if (log.got.size >= expected) return { stopped: 'complete', end: Date.now() };
    const left = run.wallLeft();
    if (left <= 0) return { stopped: 'max-wall', end: Date.now() };
    await sink.waitFor((m) => log.isNewOfRun(m), { timeout: Math.max(1, Math.min(1000, left)) }).catch(() => undefined);
  }
}

/** What the reader should know about how the phase ended and what arrived that was not expected. */
export function noteHowSendingEnded(run: SendpathRun, setup: SendpathSetup, s: SendingOutcome): void {
  const { notes, settings } = run;
  const { start } = setup;
  if (s.stopped === 'max-wall') notes.push(`the run reached its wall-clock bound (maxWallMs ${settings.maxWallMs} ms) after ${fmtDur(s.end - start)} of target time`);
  if (s.stopped === 'max-simulated-days') notes.push(`the run reached its bound of ${settings.maxSimulatedDays} simulated days`);
  if (s.stopped === 'stalled') notes.push(`nothing arrived for ${fmtDur(s.end - (s.log.lastArrival ?? start))} of target time (more than a day and two gaps): the run stopped`);
  if (s.log.unexpected > 0) notes.push(`${s.log.unexpected} messages from the run's mailboxes were not an expected (lead, step): another recipient, or a subject without the step marker "${run.tag}-sN"`);
}
