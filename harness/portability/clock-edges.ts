// The calendar edges a correct target passes at any hour: a run whose target clock starts just
// before a day's, a week's, a month's or a leap year's turn, or a daylight-saving change, in the
// time zone of every workspace of the run. A check that reads a boundary the spec does not state
// (whether a window's end minute is in it, which day a week starts on) fails at one of them.

/** Where the target's clock starts: this long before the edge, so the run crosses it early. */
export const LEAD_MS = 30_000;

export interface ClockEdge {
  name: string;
  /** The zone the edge is in; every workspace of the run is made in it. */
  zone: string;
  /** The first such edge after `now` (epoch ms; later than now by at least LEAD_MS). */
  next(now: number): number;
}

interface Ymd { year: number; month: number; day: number }

const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar date and time of an instant in a zone. */
function partsIn(ms: number, timeZone: string): Ymd & { hour: number; minute: number; second: number } {
  let f = formats.get(timeZone);
  if (!f) formats.set(timeZone, (f = new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })));
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** The zone's offset from UTC at an instant (ms; positive east of Greenwich). */
export function offsetAt(ms: number, timeZone: string): number {
  const p = partsIn(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant local midnight begins a date in a zone (the zones here change offset away from midnight). */
function localMidnight(d: Ymd, timeZone: string): number {
  const wall = Date.UTC(d.year, d.month - 1, d.day);
  let t = wall;
  for (let i = 0; i < 3; i++) t = wall - offsetAt(t, timeZone);
  return t;
}

const addDays = (d: Ymd, n: number): Ymd => {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
};
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The first local midnight after now + LEAD_MS that ends a day `ends` accepts (searched up to 9 years ahead). */
function midnightAfter(now: number, timeZone: string, ends: (d: Ymd) => boolean): number {
  let d: Ymd = partsIn(now, timeZone);
  for (let i = 0; i < 9 * 366; i++, d = addDays(d, 1)) {
    const at = localMidnight(addDays(d, 1), timeZone);
    if (at - now >= LEAD_MS && ends(d)) return at;
  }
  throw new Error(`no such midnight in ${timeZone} within 9 years of ${new Date(now).toISOString()}`);
}

/** The first change of the zone's offset after now + LEAD_MS in the direction given (the second it takes effect). */
function offsetChangeAfter(now: number, timeZone: string, forward: boolean): number {
  const from = now + LEAD_MS;
  for (let t = from; t < from + 2 * 366 * DAY_MS; t += 3_600_000) {
    const a = offsetAt(t, timeZone);
    const b = offsetAt(t + 3_600_000, timeZone);
    if (a === b || b > a !== forward) continue;
    let lo = t;
    let hi = t + 3_600_000;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (offsetAt(mid, timeZone) === a) lo = mid;
      else hi = mid;
    }
    return hi;
  }
  throw new Error(`${timeZone} changes its offset ${forward ? 'forward' : 'back'} nowhere within two years of ${new Date(now).toISOString()}`);
}

const weekday = (d: Ymd) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
const lastOfMonth = (d: Ymd) => addDays(d, 1).day === 1;

/** Pool zones (harness/ground/zones.ts): St John's has a half-hour offset and daylight saving. */
const HALF_HOUR_DST = 'America/St_Johns';

export const CLOCK_EDGES: readonly ClockEdge[] = [
  { name: '23:59:30 UTC', zone: 'UTC', next: (now) => midnightAfter(now, 'UTC', () => true) },
  { name: "23:59:30 in the workspace's zone (UTC+14)", zone: 'Pacific/Kiritimati', next: (now) => midnightAfter(now, 'Pacific/Kiritimati', () => true) },
  { name: 'Sunday to Monday (UTC)', zone: 'UTC', next: (now) => midnightAfter(now, 'UTC', (d) => weekday(d) === 0) },
  { name: 'the last day of a month (UTC+05:45)', zone: 'Asia/Kathmandu', next: (now) => midnightAfter(now, 'Asia/Kathmandu', lastOfMonth) },
  { name: '28 to 29 February in a leap year (UTC)', zone: 'UTC', next: (now) => midnightAfter(now, 'UTC', (d) => d.month === 2 && d.day === 28 && isLeap(d.year)) },
  { name: "daylight saving starts in the workspace's zone (St John's)", zone: HALF_HOUR_DST, next: (now) => offsetChangeAfter(now, HALF_HOUR_DST, true) },
  { name: "daylight saving ends in the workspace's zone (St John's)", zone: HALF_HOUR_DST, next: (now) => offsetChangeAfter(now, HALF_HOUR_DST, false) },
  { name: "midnight in a half-hour zone (St John's, UTC-03:30 or -02:30)", zone: HALF_HOUR_DST, next: (now) => midnightAfter(now, HALF_HOUR_DST, () => true) },
];
