import type { FirstLookBasis, FirstLookMeasure } from '../ground/events.ts';
import { PACE_BOUNDS, type TargetPace } from './target-pace.ts';

// The estimate of a first run against a target, made again from a first look at it (the event
// FirstLookEvent): its answer time and its verification time set against the reference's own
// first look. A slower network adds its extra answer time to every request a check sends one after
// the other; a slower engine adds its extra verification time to every mailbox a check waits to
// see verified. So each check is expected to take its measured time plus those, for the requests
// and the verifications it was measured with. A prediction, and labelled so: a target whose
// sending is slow but whose verification is quick shows it only as the run goes (the progress
// line learns it from the checks that finish).

/** What the look measured (no settleMs: the engine keeps the reference's pace), and from the run's start to its end, when the checks start. */
export interface FirstLookInput extends FirstLookMeasure {
  startMs: number;
}

export interface FirstLookModel {
  /** The reference served alone's own first look (harness/runner/expected-requests.json firstLook). */
  reference: { answerMs: number; settleMs: number };
  /** How long a mailbox took to settle in the checks' own sight on the reference (the progress line's baseline), where measured. */
  runSettleMs?: number;
  measuredMs(id: string): number;
  /** Requests a check sends, its clean-up included (it runs within the check's time). */
  requestsOf(id: string): number;
  /** Mailboxes it waits to see verified. */
  settlesOf(id: string): number;
}

/** The run's checks paced from a first look: each its own expected time there (TargetPace.own). */
export function firstLookPace(look: FirstLookInput, ids: readonly string[], m: FirstLookModel): TargetPace {
  const extraAnswerMs = look.answerMs - m.reference.answerMs;
  const extraSettleMs = look.settleMs === undefined ? 0 : look.settleMs - m.reference.settleMs;
  const own: Record<string, number> = {};
  for (const id of ids) {
    const measured = m.measuredMs(id);
    own[id] = Math.round(Math.max(measured * PACE_BOUNDS.min, measured + m.requestsOf(id) * extraAnswerMs + m.settlesOf(id) * extraSettleMs));
  }
  const basis: FirstLookBasis = { answerMs: look.answerMs, ...(look.settleMs !== undefined ? { settleMs: look.settleMs } : {}), reference: m.reference };
  return {
    short: 1,
    works: 1,
    waiting: 1,
    runs: [],
    compared: { short: 0, works: 0, waiting: 0 },
    own,
    // What the checks' own waits are expected to take now: the progress line's shift counts from it.
    ...(m.runSettleMs !== undefined ? { settleMs: Math.max(0, m.runSettleMs + extraSettleMs) } : {}),
    firstLook: basis,
    startMs: Math.round(look.startMs),
  };
}
