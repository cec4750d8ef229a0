// The reporting window of an analytics request (4.6): whole calendar days in the workspace
// timezone, the time part of a date ignored, the start from its local midnight, the end inclusive
// through its day (default: today, so "now" is always inside), clamped to the retention floor.
// The query names are the handler's (chosen.ts renames the target's names on the way in).
import type { Ctx } from '../request/context.ts';
import type { AnalyticsChoice } from '../switches/choices.ts';
import { isoOf } from '../domain/clock.ts';
import { validationFailed } from '../request/errors.ts';
import { datePart, zonedToUtc, localParts } from '../domain/time.ts';

export interface Window {
  /** The workspace timezone: every day boundary of the request (window and series buckets). */
  tz: string;
  startMs: number;
  /** Last millisecond of the end day (inclusive). */
  endMs: number;
  clamped: boolean;
  retentionDays: number;
  excludeOutOfOffice: boolean;
}

type Ymd = { year: number; month: number; day: number };

/** Local midnight starting the day `ymd` + `plus` days in `tz`. */
const midnight = (d: Ymd, tz: string, plus = 0) => zonedToUtc(d.year, d.month, d.day + plus, 0, tz);

/** The local date of `ms` in `tz`. */
const dayOf = (ms: number, tz: string): Ymd => {
  const p = localParts(ms, tz);
  return { year: p.year, month: p.month, day: p.day };
};

/** The first local midnight retention still covers, by the chosen clamping rule. */
export function retentionFloor(now: number, tz: string, a: AnalyticsChoice): number {
  const back = a.clamping === 'days-before-today' ? a.retentionDays : a.retentionDays - 1;
  return midnight(dayOf(now, tz), tz, -back);
}

export function windowOf(ctx: Ctx): Window {
  const a = ctx.services.choices.analytics;
  // The mutant reads the window's days in UTC, whatever the workspace's timezone.
  const tz = ctx.mutant('anlt-days-in-utc') ? 'UTC' : ctx.workspace.timezone;
  const now = ctx.clock.now();
  const details: string[] = [];
  const date = (name: string): Ymd | null => {
    const raw = ctx.query.get(name);
    if (raw === null || raw === '') return null;
    if (raw.length > 10 && ctx.mutant('anlt-window-time-part-refused')) {
      details.push(`${name}: must be a date YYYY-MM-DD`);
      return null;
    }
    const d = datePart(raw);
    if (!d || Number.isNaN(Date.parse(raw.length === 10 ? `${raw}T00:00:00Z` : raw))) {
      details.push(`${name}: must be an ISO 8601 date`);
      return null;
    }
    return d;
  };
  const s = date('startDate');
  const e = date('endDate');
  if (s && !e && ctx.mutant('anlt-end-required')) details.push('endDate: required with startDate');
  if (a.startRequired && !ctx.query.get('startDate')) details.push('startDate: required');
  const ooo = ctx.query.get('excludeOutOfOffice');
  if (ooo !== null && ooo !== 'true' && ooo !== 'false') details.push('excludeOutOfOffice: must be true or false');
  if (details.length) throw validationFailed(details);
  const endDay = e ?? dayOf(now, tz);
  // The second mutant ends a window without an end at the start of today (today's traffic left out).
  const endMs = midnight(endDay, tz, ctx.mutant('anlt-end-exclusive') || (!e && ctx.mutant('anlt-end-default-start-of-today')) ? 0 : 1) - 1;
  let startMs = s ? midnight(s, tz) : midnight(endDay, tz, -(a.defaultWindowDays - 1));
  const time = /T(\d{2}):(\d{2})/.exec(ctx.query.get('startDate') ?? '');
  if (time && ctx.mutant('anlt-time-part-kept')) startMs += (Number(time[1]) * 60 + Number(time[2])) * 60_000;
  if (startMs > endMs) throw validationFailed(['startDate: must not be after endDate']);
  const rule = ctx.mutant('anlt-clamp-other-rule') ? { ...a, clamping: a.clamping === 'days-before-today' ? 'days-including-today' as const : 'days-before-today' as const } : a;
  const floor = retentionFloor(now, tz, rule);
  if (endMs < floor) throw validationFailed([`endDate: before the ${a.retentionDays}-day analytics retention`]);
  const clamped = startMs < floor;
  // The mutants: a window reaching past retention is cut to the default window; clamped is said of any window longer than it.
  const defaultStart = midnight(dayOf(now, tz), tz, -(a.defaultWindowDays - 1));
  if (clamped) startMs = ctx.mutant('anlt-clamp-to-default-window') ? defaultStart : floor;
  const said = clamped || (startMs < defaultStart && ctx.mutant('anlt-clamped-past-default-window'));
  return { tz, startMs, endMs, clamped: said && !ctx.mutant('anlt-clamp-silent'), retentionDays: a.retentionDays, excludeOutOfOffice: ooo === 'true' };
}

/** The 2.10 `period` object. */
export const periodOf = (w: Window) => ({ start: isoOf(w.startMs)!, end: isoOf(w.endMs)!, clamped: w.clamped, retentionDays: w.retentionDays });
