// Time as the send-path load reckons it: units, local days in an IANA timezone (the load never
// imports the reference's own), the schedule's window, and when a mailbox may next send.

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The schedule's window: the whole day, its last minute excluded (minute 1439 is the highest start of a minute). */
export const WINDOW = { startMinute: 0, endMinute: 1439 };

const fmtCache = new Map<string, Intl.DateTimeFormat>();
function fmt(tz: string): Intl.DateTimeFormat {
  let f = fmtCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    fmtCache.set(tz, f);
  }
  return f;
}

/** Whether `tz` is an IANA timezone this runtime can reckon days in. */
export function knowsTimezone(tz: string): boolean {
  try {
    fmt(tz).format(0);
    return true;
  } catch {
    return false;
  }
}

function offsetMs(ms: number, tz: string): number {
  const p = Object.fromEntries(fmt(tz).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant local midnight begins the day that holds `ms` in `tz`. */
export function dayStartIn(ms: number, tz: string): number {
  if (tz === 'UTC' || tz === 'Etc/UTC') return Math.floor(ms / DAY) * DAY;
  const localMidnightAsUtc = Math.floor((ms + offsetMs(ms, tz)) / DAY) * DAY;
  let t = localMidnightAsUtc - offsetMs(localMidnightAsUtc, tz);
  t = localMidnightAsUtc - offsetMs(t, tz);
  return t > ms ? dayStartIn(t - 1, tz) : t;
}

/** The start of the local day after the one that holds `ms` (days are 23 to 25 hours long). */
export function nextDayStartIn(ms: number, tz: string): number {
  return dayStartIn(dayStartIn(ms, tz) + 26 * HOUR, tz);
}

export const isoDay = (ms: number, tz: string) => {
  const p = Object.fromEntries(fmt(tz).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
};

/**
 * The earliest instant at or after `t` a mailbox may send: inside the window and under its cap
 * for that day (`sentInDay(dayStart)` counts its sends of that day). Minutes of the window count
 * from local midnight.
 */
export function allowedFrom(t: number, cap: number, tz: string, sentInDay: (dayStart: number) => number, window = WINDOW): number {
  for (let i = 0; i < 1000; i++) {
    const ds = dayStartIn(t, tz);
    const minute = (t - ds) / MINUTE;
    if (minute < window.startMinute) t = ds + window.startMinute * MINUTE;
    else if (minute >= window.endMinute || sentInDay(ds) >= cap) t = nextDayStartIn(t, tz);
    else return t;
  }
  return t;
}

/** A duration as the notes and violations print it. */
export const fmtDur = (ms: number) => (ms >= 2 * HOUR ? `${(ms / HOUR).toFixed(1)} h` : ms >= 2 * MINUTE ? `${(ms / MINUTE).toFixed(1)} min` : `${(ms / SECOND).toFixed(1)} s`);
