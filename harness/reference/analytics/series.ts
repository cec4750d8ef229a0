// Time-series buckets (4.6): points at local midnights of the workspace timezone covering the
// window exactly (so points sum to the window's totals), each bucket a day, a week (7 days from
// the window's start) or a calendar month (the first one from the start day). Long windows are
// coarsened, never refined: a window of more days than the chosen `coarsening.day` asked by day
// becomes weeks, one of more days than `coarsening.week` becomes months (choices.ts).
import { localParts, zonedToUtc } from '../domain/time.ts';
import type { LedgerEvent } from './ledger.ts';

export type Interval = 'day' | 'week' | 'month';
export const INTERVALS: readonly Interval[] = ['day', 'week', 'month'];
/** The longest windows (whole days) answered by day and by week (choices.ts AnalyticsChoice.coarsening). */
export interface Coarsening { day: number; week: number }

/** Bucket start instants from `startMs` (a local midnight) through `endMs`. */
export function bucketStarts(startMs: number, endMs: number, interval: Interval, tz: string): number[] {
  const out: number[] = [];
  let t = startMs;
  // bounded: a window is at most a few retention years of days
  while (t <= endMs && out.length < 5000) {
    out.push(t);
    const p = localParts(t + 12 * 3600_000, tz); // noon: the local date of the bucket's day
    t = interval === 'day' ? zonedToUtc(p.year, p.month, p.day + 1, 0, tz)
      : interval === 'week' ? zonedToUtc(p.year, p.month, p.day + 7, 0, tz)
      : zonedToUtc(p.year, p.month + 1, 1, 0, tz);
  }
  return out;
}

/** The interval used: the one asked, coarsened while the window is longer than it answers. */
export function intervalFor(asked: Interval, startMs: number, endMs: number, tz: string, c: Coarsening): Interval {
  const days = bucketStarts(startMs, endMs, 'day', tz).length;
  if (asked === 'day' && days > c.day) asked = 'week';
  if (asked === 'week' && days > c.week) asked = 'month';
  return asked;
}

/** Events per bucket (events are ordered by time and lie within the window). */
export function bucketize(events: LedgerEvent[], starts: number[]): LedgerEvent[][] {
  const out = starts.map((): LedgerEvent[] => []);
  let i = 0;
  for (const e of events) {
    while (i + 1 < starts.length && e.at >= starts[i + 1]!) i++;
    if (starts.length) out[i]!.push(e);
  }
  return out;
}
