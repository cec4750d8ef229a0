// The two things the progress line's time left rests on, learned while the run goes.
//
// The pace: how long this target takes against the measured durations, learned apart for two
// kinds of check. Most checks are a few requests: their time is the target's latency, and the
// finished ones say how it compares. A few wait on real time (a minute's sending gap, a mail
// reaching a sink): tens of seconds that are waiting, not latency, so the short checks' pace says
// nothing of them; they all start early and finish late, so until one has finished their measure
// holds, each counted down from its known start.
//
// The rate windows: each workspace holds `perWindow` requests per sliding `windowMs`. What was
// sent frees its room one window after it went, so the requests left are placed as room frees:
// the window's history, not a steady rate, says when the last of them can go.

import { kindOf, WAITS_MS, waits, type Kind } from './target-pace.ts';
import { WINDOW_FILL } from './schedule.ts';

export { WAITS_MS, waits };

/**
 * How much the expectation weighs against what a kind's finished checks showed: as much as this
 * many of them taking their expected time (and never more than PRIOR_MS). A few checks far from
 * their expectation then move the pace most of the way: a target twenty times slower is believed
 * after three checks, not after minutes; one slow check among twenty moves it a little.
 */
const PRIOR_CHECKS = 2;
/** The most the expectation weighs, in expected time: many short checks do not make it heavier. */
const PRIOR_MS: Record<Kind, number> = { short: 30_000, works: 30_000, waiting: 60_000 };
/**
 * The paces the line accepts from what it sees: far wider than a learned pace's (PACE_BOUNDS),
 * since these are this run's own checks on this machine now (a target with a slow control API was
 * seen at 20-30 times the reference's durations).
 */
export const LIVE_BOUNDS = { min: 0.1, max: 50 } as const;
/**
 * A running check that has outlived its expectation has shown it wrong, and how long it has run is
 * then the best sign of how long it takes: a duration known only to exceed t is as likely as not
 * to reach 2 t. So a running check's time left is never less than this share of the time it has
 * run beyond half its expectation: continuous, it rules from three quarters of the expectation on
 * (a check about to end as expected is said to have a quarter of it left at least), and a check
 * running a minute where it was expected to take 2 s is said to have about a minute left, not
 * "~3 s". Replaying a slowed run with its control API, where two checks expected under 3 s took
 * 30 s at the end: 0.5 said 11 s left at half the checks with 22 s left, 1 said 19 s.
 */
export const OVERRUN_SHARE = 1;

/**
 * Against real time (no overrun rule: a check long past its expectation mostly waits for room in a
 * rate window, which the rate bound counts), a running check near or past its expectation is still
 * said to end within this share of it, not at once: a check waiting on real time (a sending gap, a mail
 * reaching a sink, an inbox poll) ends a poll or two after its measure. Staging runs said "~1 s
 * left" for their last 6 s while three such checks, expected at 63-64 s, took 65-70 s.
 */
export const LATE_SHARE = 0.1;

/** A finished check's expected and actual time. */
interface Seen {
  expected: number;
  actual: number;
}

/**
 * Where a check's time may hold waits for room in a rate window (against real time: the rate bound
 * places those apart), a check counts at most this many times its kind's median pace (weighted by
 * expected time): a short check that waited out a window mid-way says little of the others.
 */
export const OUTLIER = 3;

/** Actual over expected time of `seen` (each at most `cap` times their median), the expectation (`prior` times the measure) weighing as PRIOR_CHECKS of them (`prior` where none). */
function damped(seen: readonly Seen[], kind: Kind, cap?: number, prior = 1): number {
  if (seen.length === 0) return prior;
  const most = cap === undefined ? Infinity : cap * weightedMedianRatio(seen);
  let expected = 0;
  let actual = 0;
  for (const x of seen) {
    expected += x.expected;
    actual += Math.min(x.actual, x.expected * most);
  }
  const weight = Math.min(PRIOR_MS[kind], (PRIOR_CHECKS * expected) / seen.length);
  return Math.min(LIVE_BOUNDS.max, Math.max(LIVE_BOUNDS.min, (actual + prior * weight) / (expected + weight)));
}

function weightedMedianRatio(seen: readonly Seen[]): number {
  const sorted = seen.map((x) => ({ r: x.actual / x.expected, w: x.expected })).sort((a, b) => a.r - b.r);
  const half = sorted.reduce((n, x) => n + x.w, 0) / 2;
  let acc = 0;
  for (const x of sorted) {
    acc += x.w;
    if (acc >= half) return x.r;
  }
  return 1;
}

/** A check still running: its expectation and how long it has run (a lower bound of its actual time). */
export interface Running {
  expectedMs: number;
  forMs: number;
  kind?: Kind;
}

/**
 * How this run's checks compare with their expected durations (measured against the reference,
 * or learned from this target's earlier runs: harness/plan/target-pace.ts), by kind: the short
 * checks (the target's latency), those that wait on its work for seconds (a verification, a send
 * reaching a sink: how fast its engine is, which the short ones do not show), and those that wait
 * on real time. Until one of a kind has finished, its expectation holds; checks still running past
 * their expectation count too, at the time they have run so far (they take at least that).
 */
export class Pace {
  private readonly kinds: Record<Kind, Seen[]> = { short: [], works: [], waiting: [] };

  /** `cap`: OUTLIER where the checks' times may hold rate-window waits (against real time). */
  constructor(private readonly cap?: number) {}

  /** A finished check: its expected and actual time (its kind: by its expectation, unless given). */
  add(expectedMs: number, actualMs: number, kind: Kind = kindOf(expectedMs)): void {
    // A waiting check that ended in a fraction of its measure did not wait here (it failed early
    // or took another way): it says nothing of how long waiting takes on this target.
    if (kind === 'waiting' && actualMs < expectedMs / 2) return;
    if (expectedMs > 0) this.kinds[kind].push({ expected: expectedMs, actual: actualMs });
  }

  /** How many finished checks of this kind it has seen. */
  count(kind: Kind): number {
    return this.kinds[kind].length;
  }

  /** Actual over expected time of the finished checks of this kind (of check expected to take `expectedMs`), damped until enough have run. */
  scale(expectedMs: number, running: readonly Running[] = []): number {
    return this.scaleOf(kindOf(expectedMs), running);
  }

  /**
   * The kind's pace: its finished checks' actual over expected time, with the expectation (at
   * `prior` times the measure: what is known of the kind so far) weighing as PRIOR_CHECKS checks of their mean expected time; and the running ones of the kind that have
   * run longer than that pace expects, at the time they have run (a lower bound: a finished-only
   * pace would say "~3 s left" while a slow target's checks run a minute each).
   */
  scaleOf(kind: Kind, running: readonly Running[] = [], prior = 1): number {
    const seen = this.kinds[kind];
    const base = damped(seen, kind, this.cap, prior);
    const overdue = running.filter((r) => (r.kind ?? kindOf(r.expectedMs)) === kind && r.expectedMs > 0 && r.forMs > r.expectedMs * base);
    return overdue.length ? damped([...seen, ...overdue.map((r) => ({ expected: r.expectedMs, actual: r.forMs }))], kind, this.cap, prior) : base;
  }

  /**
   * A check's time left: its expectation at this run's pace (`scale`, else its kind's from the
   * finished checks alone), less what has passed since it started (if it has), and (`overrun`)
   * never less than OVERRUN_SHARE of the time it has run beyond half that expectation.
   */
  leftMs(expectedMs: number, runningForMs = 0, kind: Kind = kindOf(expectedMs), scale = this.scaleOf(kind), overrun = true): number {
    const expected = expectedMs * scale;
    // Continuous: the share of the expectation from (1 - share) of it on, then down to 0 at (1 + share).
    const late = runningForMs > 0 ? Math.min(LATE_SHARE * expected, expected * (1 + LATE_SHARE) - runningForMs) : 0;
    return Math.max(0, expected - runningForMs, overrun ? OVERRUN_SHARE * (runningForMs - expected / 2) : late);
  }

  /** The scales now (what the estimate rests on), with the running checks given. */
  scales(running: readonly Running[] = []): { short: number; works: number; waiting: number } {
    return { short: this.scaleOf('short', running), works: this.scaleOf('works', running), waiting: this.scaleOf('waiting', running) };
  }
}

export { WINDOW_FILL };

/** Requests sent at a time (a check's, counted when it ended). */
export interface Sent {
  at: number;
  requests: number;
}

/**
 * When the last of `left` requests can go, from `now`, through windows holding `capacity` per
 * `windowMs`: what the window holds frees one window after it was sent, and what is sent in the
 * room that frees frees again a window later.
 */
export function windowRoomMs(sent: readonly Sent[], left: number, capacity: number, windowMs: number, now: number): number {
  if (capacity <= 0) return 0;
  const held = sent.filter((s) => s.at > now - windowMs && s.requests > 0).sort((a, b) => a.at - b.at);
  const room = Math.max(0, capacity - held.reduce((n, s) => n + s.requests, 0));
  let rest = left - room;
  if (rest <= 0) return 0;
  // Room freeing, in time order: what the window holds, then what goes now into its room.
  const frees: Sent[] = [...held.map((s) => ({ at: s.at + windowMs, requests: s.requests })), ...(room > 0 ? [{ at: now + windowMs, requests: room }] : [])];
  for (let i = 0; i < frees.length; i++) {
    const f = frees[i]!;
    const used = Math.min(f.requests, rest);
    rest -= used;
    if (rest <= 0) return Math.max(0, f.at - now);
    if (used > 0) frees.push({ at: f.at + windowMs, requests: used });
  }
  return 0; // unreachable: every window frees what the one before it used
}
