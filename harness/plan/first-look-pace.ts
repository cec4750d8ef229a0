import type { FirstLookBasis, FirstLookMeasure, FirstLookReference } from '../ground/events.ts';
import { PACE_BOUNDS, type TargetPace } from './target-pace.ts';

// The estimate of a first run against a target, made again from a first look at it (the event
// FirstLookEvent): its answer time, its verification time and, with the control API, its control
// round trip and drains, set against the reference's own first look. A slower network adds its
// extra answer time to every request a check sends one after the other; a slower engine adds its
// extra verification time to every mailbox a check waits to see verified; a slower control API
// adds its extra round trip to every control call, its extra empty-drain time to every drain (the
// send path's checks drain once per clock step) and the extra time of a drain that runs work to
// every drain of a check that ran some (a round's pause is paid once for the work it finds, so
// counting the drains, not the items, fits: the slowed reference's send-path checks took 1.5-2.4 s
// more per such drain where one verification's drain took 1.8 s more). So each check is expected
// to take its measured time plus those, for the requests, verifications, control calls, drains and
// working drains it was measured with. A
// prediction, and labelled so: a target whose sending is slow but whose verification is quick
// shows it only as the run goes (the progress line learns it from the checks that finish).

/** What the look measured, and from the run's start to its end, when the checks start. */
export interface FirstLookInput extends FirstLookMeasure {
  startMs: number;
}

export interface FirstLookModel {
  /** The reference's own first look: served alone without the control API, or embedded with it (harness/plan/expected-requests.json firstLook, firstLookControl). */
  reference: FirstLookReference;
  /** How long a mailbox took to settle in the checks' own sight on the reference (the progress line's baseline), where measured. */
  runSettleMs?: number;
  measuredMs(id: string): number;
  /** Requests a check sends, its clean-up included (it runs within the check's time). */
  requestsOf(id: string): number;
  /** Mailboxes it waits to see verified in the target's own time. */
  settlesOf(id: string): number;
  /** With the control API: its drains, those of them that ran work, and its other control calls, as measured. */
  controlOf?(id: string): { drains: number; work: number; calls: number };
}

/** The extra time, in ms, of each thing a check waits on, on this target over the reference (0 where either did not measure it). */
export interface Extras {
  answer: number;
  settle: number;
  call: number;
  drain: number;
  work: number;
}

const diff = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? 0 : a - b);

/** What each request, verification, control call, drain and drain that ran work costs here beyond the reference. */
export function extrasOf(look: FirstLookMeasure, ref: FirstLookReference): Extras {
  // A working drain's cost: a drain with one verification due over an empty one.
  const workOf = (m: FirstLookMeasure | FirstLookReference) => (m.workDrainMs === undefined || m.drainMs === undefined ? undefined : Math.max(0, m.workDrainMs - m.drainMs));
  return { answer: look.answerMs - ref.answerMs, settle: diff(look.settleMs, ref.settleMs), call: diff(look.controlMs, ref.controlMs), drain: diff(look.drainMs, ref.drainMs), work: diff(workOf(look), workOf(ref)) };
}

/** The run's checks paced from a first look: each its own expected time there (TargetPace.own). */
export function firstLookPace(look: FirstLookInput, ids: readonly string[], m: FirstLookModel): TargetPace {
  const x = extrasOf(look, m.reference);
  const own: Record<string, number> = {};
  for (const id of ids) {
    const measured = m.measuredMs(id);
    const c = m.controlOf?.(id) ?? { drains: 0, work: 0, calls: 0 };
    const extra = m.requestsOf(id) * x.answer + m.settlesOf(id) * x.settle + c.calls * x.call + c.drains * x.drain + c.work * x.work;
    own[id] = Math.round(Math.max(measured * PACE_BOUNDS.min, measured + extra));
  }
  const { startMs: _startMs, ...measure } = look;
  const basis: FirstLookBasis = { ...measure, reference: m.reference };
  return {
    short: 1,
    works: 1,
    waiting: 1,
    runs: [],
    compared: { short: 0, works: 0, waiting: 0 },
    own,
    // What the checks' own waits are expected to take now: the progress line's shift counts from it.
    ...(m.runSettleMs !== undefined ? { settleMs: Math.max(0, m.runSettleMs + x.settle) } : {}),
    firstLook: basis,
    startMs: Math.round(look.startMs),
  };
}
