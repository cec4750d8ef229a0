// Time-series buckets (4.6): points at local midnights of the workspace timezone covering the
// window exactly (so points sum to the window's totals), each bucket a day, a week (7 days from
// the window's start) or a calendar month (the first one from the start day). Long windows are
// coarsened, never refined: days beyond MAX_DAY_POINTS become weeks, weeks beyond
// MAX_WEEK_POINTS become months.
import { localParts, zonedToUtc } from '../resources/time.ts';
import type { LedgerEvent } from './ledger.ts';

export type Interval = 'day' | 'week' | 'month';
export const INTERVALS: readonly Interval[] = ['day', 'week', 'month'];
export const MAX_DAY_POINTS = 92;
export const MAX_WEEK_POINTS = 104;

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

/** The interval used: the one asked, coarsened while it gives too many points. */
export function intervalFor(asked: Interval, startMs: number, endMs: number, tz: string): Interval {
  if (asked === 'day' && bucketStarts(startMs, endMs, 'day', tz).length > MAX_DAY_POINTS) asked = 'week';
  if (asked === 'week' && bucketStarts(startMs, endMs, 'week', tz).length > MAX_WEEK_POINTS) asked = 'month';
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
