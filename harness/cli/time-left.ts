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

import { kindOf, PACE_BOUNDS, WAITS_MS, WORKS_MS, waits, type Kind } from '../runner/target-pace.ts';

export { WAITS_MS, waits };

/** The expected time a kind's finished checks must outweigh before their own pace moves the estimate much. */
const PRIOR_MS: Record<Kind, number> = { short: 30_000, works: 30_000, waiting: 60_000 };

/**
 * How this run's checks compare with their expected durations (measured against the reference,
 * or learned from this target's earlier runs: harness/runner/target-pace.ts), by kind: the short
 * checks (the target's latency), those that wait on its work for seconds (a verification, a send
 * reaching a sink: how fast its engine is, which the short ones do not show), and those that wait
 * on real time. Until one of a kind has finished, its expectation holds.
 */
export class Pace {
  private readonly kinds: Record<Kind, { expected: number; actual: number }> = { short: { expected: 0, actual: 0 }, works: { expected: 0, actual: 0 }, waiting: { expected: 0, actual: 0 } };

  /** A finished check: its expected and actual time (its kind: by its expectation, unless given). */
  add(expectedMs: number, actualMs: number, kind: Kind = kindOf(expectedMs)): void {
    // A waiting check that ended in a fraction of its measure did not wait here (it failed early
    // or took another way): it says nothing of how long waiting takes on this target.
    if (kind === 'waiting' && actualMs < expectedMs / 2) return;
    this.kinds[kind].expected += expectedMs;
    this.kinds[kind].actual += actualMs;
  }

  /** Actual over expected time of the finished checks of this kind (of check expected to take `expectedMs`), damped until enough have run. */
  scale(expectedMs: number): number {
    return this.scaleOf(kindOf(expectedMs));
  }

  scaleOf(kind: Kind): number {
    const { expected, actual } = this.kinds[kind];
    const prior = PRIOR_MS[kind];
    return Math.min(PACE_BOUNDS.max, Math.max(PACE_BOUNDS.min, (actual + prior) / (expected + prior)));
  }

  /** A check's time left: its expectation at this run's pace, less what has passed since it started (if it has). */
  leftMs(expectedMs: number, runningForMs = 0, kind: Kind = kindOf(expectedMs)): number {
    return Math.max(0, expectedMs * this.scaleOf(kind) - runningForMs);
  }

  /** The scales now (what the estimate rests on). */
  get scales(): { short: number; works: number; waiting: number } {
    return { short: this.scale(0), works: this.scale(WORKS_MS), waiting: this.scale(WAITS_MS) };
  }
}

/**
 * The share of the pool's windows a run fills before its requests spill into the next window:
 * admission keeps, in the run's last window, each workspace's owed clean-up and a margin free,
 * and puts a check's whole measured count in one workspace, so some room is never used (the
 * staging bench's default runs, which fit two windows, filled about 95 % of them).
 */
export const WINDOW_FILL = 0.95;

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
