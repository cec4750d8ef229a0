import type { CheckContext } from '../../harness/ground/check.ts';

// The target's time, not the kit's: a target may run ahead or behind this machine (another host,
// faketime, a clock started elsewhere), and its days, minutes and windows follow its own clock.
// With the control API its clock is GET /clock; without it, the Date header of an answer tells
// it to the second (RFC 9110: an origin server with a clock sends one).

/** Of one check: the target's clock minus the kit's (ms), learned once. */
const offsets = new WeakMap<CheckContext, Promise<number>>();

async function learnOffset(ctx: CheckContext): Promise<number> {
  const sent = Date.now();
  const res = await ctx.anonymous.get('/v1/campaigns');
  const received = Date.now();
  const date = Date.parse(res.headers.date ?? '');
  if (!Number.isFinite(date)) {
    ctx.log("the target's answers carry no Date header: its time is taken as this machine's");
    return 0;
  }
  // The header has whole seconds: the middle of its second, against the middle of the exchange.
  return date + 500 - (sent + received) / 2;
}

/** The target's time now (epoch ms): its control clock, or this machine's clock set by the target's Date header. */
export async function targetNow(ctx: CheckContext): Promise<number> {
  if (ctx.control) return (await ctx.control.now()).getTime();
  let offset = offsets.get(ctx);
  if (!offset) offsets.set(ctx, (offset = learnOffset(ctx)));
  return Date.now() + (await offset);
}

/** How far off targetNow() may be without the control API: the Date header's second and a slow exchange. */
export const TARGET_NOW_SLACK_MS = 5_000;

/** The local calendar date of an instant in a zone (YYYY-MM-DD). */
export function dateIn(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

/**
 * Of the zones given, one whose date differs at `from` and at `to`, or undefined: the day turned in
 * between. Where the spec says "a day" and not whose (the 12 test emails of a workspace, a mailbox's
 * daily limit), a count begun before a turn may start again after it under one reading: a check
 * that saw a turn proves nothing either way.
 */
export function dayTurned(from: number, to: number, zones: readonly string[]): string | undefined {
  return zones.find((z) => dateIn(from - TARGET_NOW_SLACK_MS, z) !== dateIn(to + TARGET_NOW_SLACK_MS, z));
}

/**
 * Keeps a check that counts within "a day" clear of the next turn in these zones: with the control
 * API, when one is less than `spanMs` ahead, the clock moves past it first. Answers the target's now.
 */
export async function clearOfDayTurn(ctx: CheckContext, zones: readonly string[], spanMs: number): Promise<number> {
  const now = await targetNow(ctx);
  if (!ctx.control || !dayTurned(now, now + spanMs, zones)) return now;
  // Past every turn within the span: the span's end plus a minute, in whole seconds.
  return (await ctx.control.advance(Math.ceil((spanMs + 2 * TARGET_NOW_SLACK_MS + 60_000) / 1000))).getTime();
}
