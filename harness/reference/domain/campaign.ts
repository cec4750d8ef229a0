// A campaign's record (2.5) and its schedule window (the sending window, start and end dates),
// read by the handlers and the sending engine alike.
import { localParts, zonedToUtc } from './time.ts';

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'active', 'paused', 'stopped', 'completed', 'failed'] as const;

export interface Schedule {
  timezone: string; sendingDays: number[]; sendingMinutesStart: number; sendingMinutesEnd: number;
  dailyLimit: number; startDate: string | null; endDate: string | null;
}
export interface Settings { trackOpens: boolean; trackClicks: boolean; sendAsTextOnly: boolean; stopOnReply: boolean }
export interface Step { id: string; subject: string; body: string; delayDays: number; delayHours: number }
export interface CampaignDoc {
  schedule: Schedule; settings: Settings; sequence: Step[]; accounts: string[];
  /** Mailboxes it listed that were deleted since (no answer shows them; a mutant's stale list reads them). */
  formerAccounts?: string[];
  /** Steps the campaign was created with (no answer shows it; a mutant's stale start condition reads it). */
  stepsAtCreate?: number;
  metrics: { sent: number; opens: number; clicks: number; replies: number };
}
export interface CampaignRow { id: string; org_id: string; name: string; status: string; doc: string; created_at: number; updated_at: number }

/**
 * Is `ms` inside the schedule's sending window? `utc` (mutants only) reads its days and minutes in
 * UTC; `daysInUtc` (mutants only) its weekday alone, from the UTC date.
 */
export function isWithinSchedule(s: Schedule, ms: number, utc = false, daysInUtc = false): boolean {
  if (s.startDate && ms < Date.parse(s.startDate)) return false;
  if (s.endDate && ms >= Date.parse(s.endDate)) return false;
  const p = localParts(ms, utc ? 'UTC' : s.timezone);
  const minute = p.hour * 60 + p.minute;
  const weekday = daysInUtc ? localParts(ms, 'UTC').weekday : p.weekday;
  return s.sendingDays.includes(weekday) && minute >= s.sendingMinutesStart && minute < s.sendingMinutesEnd;
}

/** The next time the sending window opens after `ms` (null when it never does). */
export function nextOpening(s: Schedule, ms: number): number | null {
  let from = ms;
  if (s.startDate && from < Date.parse(s.startDate)) {
    from = Date.parse(s.startDate);
    if (isWithinSchedule(s, from)) return from;
  }
  const p = localParts(from, s.timezone);
  for (let d = 0; d <= 8; d++) {
    const t = windowStart(s, p.year, p.month, p.day + d);
    if (t <= from) continue;
    if (s.endDate && t >= Date.parse(s.endDate)) return null;
    if (isWithinSchedule(s, t)) return t;
  }
  return null;
}

/** Longest a daylight-saving change skips: no zone moves its clock forward by more. */
const LONGEST_GAP_MINUTES = 180;

/**
 * When the window opens on a local date: its start minute there, or, where a daylight-saving change
 * skips that minute (02:30 on a night the clock goes from 02:00 to 03:00), the first instant after
 * the skip (03:00): the window is open from then on that day.
 */
function windowStart(s: Schedule, year: number, month: number, day: number): number {
  const t = zonedToUtc(year, month, day, s.sendingMinutesStart, s.timezone);
  const at = (ms: number) => localParts(ms, s.timezone);
  const skipped = (ms: number) => at(ms).day === at(t).day && at(ms).hour * 60 + at(ms).minute < s.sendingMinutesStart;
  if (!skipped(t)) return t;
  let u = t - (t % 60_000);
  for (let i = 0; i <= LONGEST_GAP_MINUTES && skipped(u); i++) u += 60_000;
  return u;
}
