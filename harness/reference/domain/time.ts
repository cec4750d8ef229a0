// Calendar helpers in an IANA timezone (schedules, reporting days), all on the injectable clock.
const fmtCache = new Map<string, Intl.DateTimeFormat>();
function fmt(tz: string): Intl.DateTimeFormat {
  let f = fmtCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short',
    });
    fmtCache.set(tz, f);
  }
  return f;
}
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export interface LocalParts { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number }

/** Wall-clock parts of `ms` in `tz`; weekday 0 = Sunday ... 6 = Saturday. */
export function localParts(ms: number, tz: string): LocalParts {
  // Formatting is the costly part of a sending round (every mailbox, every campaign, each drain):
  // the parts of one second in one zone are kept (a bounded memo; the parts never change).
  const key = `${tz}|${Math.floor(ms / 1000)}`;
  const have = partsMemo.get(key);
  if (have) return { ...have };
  const p = Object.fromEntries(fmt(tz).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const parts = {
    year: Number(p.year), month: Number(p.month), day: Number(p.day), hour: Number(p.hour),
    minute: Number(p.minute), second: Number(p.second), weekday: WEEKDAYS.indexOf(p.weekday ?? 'Sun'),
  };
  if (partsMemo.size >= PARTS_MEMO_MAX) partsMemo.clear();
  partsMemo.set(key, parts);
  return { ...parts };
}
const PARTS_MEMO_MAX = 20_000;
const partsMemo = new Map<string, LocalParts>();

/** Offset of `tz` from UTC at `ms`, in ms (local = utc + offset). */
export function tzOffset(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The UTC instant of local wall time (year, month 1-12, day, minuteOfDay) in `tz`. */
export function zonedToUtc(year: number, month: number, day: number, minuteOfDay: number, tz: string): number {
  const guess = Date.UTC(year, month - 1, day) + minuteOfDay * 60_000;
  let t = guess - tzOffset(guess, tz);
  t = guess - tzOffset(t, tz);
  return t;
}

/** Start of the local day containing `ms`. */
export function startOfLocalDay(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  return zonedToUtc(p.year, p.month, p.day, 0, tz);
}

/** Parses the date part (YYYY-MM-DD) of an ISO 8601 string; null when it has none. */
export function datePart(s: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return { year, month, day };
}
