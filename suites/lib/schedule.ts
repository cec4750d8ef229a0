import type { CheckContext } from '../../harness/ground/check.ts';
import { skip } from '../../harness/ground/check.ts';
import { targetNow } from './target-clock.ts';

// The schedule of a campaign as the kit writes it: the profile's day numbering, and zones whose
// local time is far from a day's edge, for a window that is open now under any reading of it.

/** What dayNumber() needs of the profile: every check that calls it lists it. */
export const NEEDS_SENDING_DAYS = 'decl:names.sendingDays' as const;

/** The profile's number for a JS weekday (0 = Sunday); skips when the numbering is not declared (NEEDS_SENDING_DAYS). */
export function dayNumber(ctx: CheckContext, jsDay: number): number {
  const n = ctx.profile.names.sendingDays;
  if (!n) skip('needs names.sendingDays in the profile (the numbering of schedule.sendingDays is not shown)');
  if (n === '0-sunday') return jsDay;
  if (n === '1-monday') return jsDay === 0 ? 7 : jsDay;
  return (jsDay + 6) % 7; // 0-monday
}

export const ZONES = [
  'Pacific/Honolulu', 'America/Anchorage', 'America/Los_Angeles', 'America/Denver', 'America/Chicago', 'America/New_York', 'America/Halifax',
  'America/Sao_Paulo', 'Atlantic/South_Georgia', 'Atlantic/Azores', 'Europe/London', 'Europe/Paris', 'Europe/Athens', 'Europe/Moscow', 'Asia/Dubai',
  'Asia/Karachi', 'Asia/Kathmandu', 'Asia/Dhaka', 'Asia/Bangkok', 'Asia/Shanghai', 'Asia/Tokyo', 'Australia/Brisbane', 'Pacific/Noumea', 'Pacific/Auckland', 'Pacific/Kiritimati',
];

/** The local wall time of an instant in a zone. */
export function wall(tz: string, at: Date) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short' })
    .formatToParts(at).map((p) => [p.type, p.value]));
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday!);
  return { y: +parts.year!, mo: +parts.month!, d: +parts.day!, h: +parts.hour!, mi: +parts.minute!, s: +parts.second!, weekday, minute: +parts.hour! * 60 + +parts.minute! };
}

/**
 * The zone of the list nearest local noon among those at least 3 hours from UTC now: a target
 * that read the window in UTC (or its own zone, if that is UTC) would then answer differently.
 */
export function noonZone(now: Date): string {
  const utcMinute = wall('UTC', now).minute;
  const offset = (z: string) => {
    const d = Math.abs(wall(z, now).minute - utcMinute);
    return Math.min(d, 1440 - d);
  };
  return ZONES.filter((z) => offset(z) >= 180)
    .map((z) => ({ z, dist: Math.abs(wall(z, now).minute - 720) }))
    .sort((a, b) => a.dist - b.dist)[0]!.z;
}

/**
 * A schedule open now for sure: every day, every minute, in a zone near local noon at the target's
 * now. Where the minutes run to (1439 or 1440) and whether the end minute is in the window are not
 * stated, so the day's edges are kept hours away. Day numbering: the profile's (NEEDS_SENDING_DAYS).
 */
export async function openNowSchedule(ctx: CheckContext, dailyLimit = 500) {
  const timezone = noonZone(new Date(await targetNow(ctx)));
  const sendingDays = [0, 1, 2, 3, 4, 5, 6].map((d) => dayNumber(ctx, d)).sort((a, b) => a - b);
  return { timezone, sendingDays, sendingMinutesStart: 0, sendingMinutesEnd: 1439, dailyLimit };
}
