// The one injectable clock. Every time-dependent rule of the reference reads it: createdAt
// stamps, rate-limit windows, idempotency-key expiry, revocation grace (mutant), schedules,
// retention. It runs with real time plus an offset that the control API advances
// (POST /clock/advance), and it never goes backwards. It may start at a given instant
// (`reference --clock-start ISO`): real time then runs on from there, as under faketime.

export class Clock {
  private offsetMs: number;
  private last = 0;
  private lastStamp = 0;

  /** `startMs`: the instant the clock reads now (epoch milliseconds); default real time. */
  constructor(startMs?: number) {
    this.offsetMs = startMs === undefined ? 0 : startMs - Date.now();
  }

  /** Current time in epoch milliseconds. */
  now(): number {
    const t = Date.now() + this.offsetMs;
    if (t > this.last) this.last = t;
    return this.last;
  }

  /** Current time as an ISO 8601 string with milliseconds. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /**
   * A creation stamp: the current time, but strictly greater than every stamp given before, so
   * that "newest first" is the order of creation even within one millisecond. Stamps within one
   * millisecond step by a microsecond (answers show whole milliseconds): a batch of 10,000 leads
   * must not push later stamps seconds ahead of the clock (an update stamped with now() would then
   * come before its resource's creation).
   */
  stamp(): number {
    const t = Math.max(this.now(), this.lastStamp + 0.001);
    this.lastStamp = t;
    return t;
  }

  advance(seconds: number): number {
    this.offsetMs += Math.round(seconds * 1000);
    return this.now();
  }
}

export const isoOf = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

/** The instant an ISO 8601 string with a date, a time and a zone names (`--clock-start`), or an error that says why not. */
export function parseClockStart(iso: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(iso) ? Date.parse(iso) : NaN;
  if (!Number.isFinite(ms) || ms < 0 || ms > Date.UTC(9999, 11, 31)) {
    throw new Error(`--clock-start takes an ISO 8601 instant with its zone between 1970 and 9999, e.g. 2026-12-07T23:59:30Z (got "${iso}")`);
  }
  return ms;
}
