import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expectThat, msg } from '../../lib/expect.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, minuteOfDay, workspaceZone } from '../sending/lib.ts';
import type { ApiClient } from '../../../harness/ground/api-client.ts';
import { addDays, campaignAnalytics, localDate, localMidnight, ok2xx, overview, targetNow, timeseries, trafficCampaign, type Window } from './lib.ts';

// 4.6 reporting windows, proven by what the sink saw rather than by `period` (a SHOULD reading):
// a workspace at least 3 hours from UTC sends its emails close to its own midnight (just after it
// east of UTC, just before it west of it), where its calendar day and the UTC day differ. Then the
// counts of windows given as dates, with time parts, and without an end must all hold those emails,
// and the neighbouring local day none.

const FEATURES = ['control', 'sinks', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;
const MINUTE = 60_000;

/** The zone's offset from UTC in minutes at `ms` (east positive). */
function utcOffsetMinutes(ms: number, zone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{1,2})(?::(\d{2}))?/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
}

/** A workspace of the run whose zone is at least 3 hours from UTC (each try a workspace of its own). */
async function farFromUtc(ctx: CheckContext): Promise<{ ws: Workspace; zone: string; offset: number }> {
  const now = await targetNow(ctx);
  for (let i = 0; i < 4; i++) {
    const ws = await ctx.workspace({ exclusive: true });
    const zone = await workspaceZone(ws);
    const offset = utcOffsetMinutes(now, zone);
    if (Math.abs(offset) >= 180) return { ws, zone, offset };
  }
  skip("no workspace of the run has a timezone at least 3 hours from UTC: a local day cannot be told from the UTC day");
}

const pointsOf = (r: { body?: any }): any[] => (Array.isArray(r.body?.data) ? r.body.data : []);
const seenIn = (points: any[]) => points.map((p) => `${p?.timestamp}: ${p?.sent}`).join(', ') || 'nothing';

/**
 * The day point of a time series by day over `day` and the day beside it holds the n emails. Which
 * instant stands for a day is not stated: its local midnight, or the date at UTC midnight (a label).
 * A time series over the day beside alone holds none of them: its window, asked by the profile's
 * names, takes effect there too.
 */
async function expectDayPoint(ctx: CheckContext, api: ApiClient, id: string, o: { day: string; beside: string; zone: string; n: number; where: string }) {
  const w = o.beside < o.day ? { start: o.beside, end: o.day } : { start: o.day, end: o.beside };
  const ts = await ok2xx(timeseries(ctx, api, id, w, 'day'), `time series by day for ${w.start} .. ${w.end}`);
  const names = [localMidnight(o.day, o.zone), Date.parse(`${o.day}T00:00:00Z`)];
  const points = pointsOf(ts);
  const inDay = points.filter((p) => names.some((at) => Math.abs(Date.parse(p?.timestamp) - at) <= 1000)).reduce((s, p) => s + (p.sent ?? 0), 0);
  expectThat(ts.body?.interval !== 'day' || inDay === o.n, msg`${o.where}: the time series by day over ${w.start} .. ${w.end} must hold them in the point of ${o.day} (timestamp its local midnight ${new Date(names[0]!).toISOString()}, or ${o.day} at UTC midnight), its points hold (timestamp: sent) ${seenIn(points)}`, ts);
  const off = await ok2xx(timeseries(ctx, api, id, { start: o.beside, end: o.beside }, 'day'), `time series by day for ${o.beside}`);
  const offPoints = pointsOf(off);
  const offSent = offPoints.reduce((s, p) => s + (p?.sent ?? 0), 0);
  expectThat(offSent === 0, msg`${o.where}: the time series over the day beside, ${o.beside} .. ${o.beside}, must hold none of them (days are the workspace's, and the window asked is the series' window), its ${offPoints.length} point(s) hold ${offSent} sends: (timestamp: sent) ${seenIn(offPoints.filter((p) => p?.sent))}`, off);
}

export const WINDOW_COUNT_CHECKS: Check[] = [
  {
    id: 'ANLT/window-counts',
    title: "MUST count by whole calendar days of the workspace's timezone: emails sent near its midnight fall in its own day for a window given by dates, with a time part (ignored) or without an end (now), and none in the day beside it; the time series' day point and the overview's day hold them too, the time series of the day beside none",
    // The counts move with the window asked of campaign analytics, by the profile's names: that query's own effect.
    // The time series and the overview are read too: each could cut its days apart from campaign analytics
    // (or read its window by other names: the series of the day beside alone then holds the sends).
    // ANLT-TS-QUERY: the time series over the day beside alone holds none of the sends, so its window takes effect.
    clauses: ['ANLT-WINDOW-ISO-DATES', 'ANLT-WINDOW-WHOLE-DAYS', 'ANLT-WINDOW-TIME-IGNORED', 'ANLT-WINDOW-START-OF-DAY', 'ANLT-WINDOW-END-INCLUSIVE', 'ANLT-WINDOW-END-DEFAULT-NOW', 'ANLT-CAMP-QUERY', 'ANLT-PARAMS-PROFILE', 'ANLT-TS-QUERY'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 48,
    async run(ctx) {
      const { ws, zone, offset } = await farFromUtc(ctx);
      // East of UTC a send just after local midnight is still the day before in UTC; west of it
      // a send just before local midnight is already the next day in UTC.
      const east = offset > 0;
      const at = await targetNow(ctx);
      const wanted = east ? 15 : 23 * 60 + 20;
      // Already in the wanted minute: no move (the control API takes only a positive advance).
      const minutes = (wanted - minuteOfDay(at, zone) + 1440) % 1440;
      if (minutes > 0) await ctx.control!.advance(minutes * 60);
      const day = localDate(await targetNow(ctx), zone);
      // The overview counts the whole workspace: what the day held before the sends is taken off.
      const overviewOf = (what: string) => ok2xx(overview(ctx, ws.api, { start: day, end: day }), `overview for ${day} ${what}`);
      const before = await overviewOf('before the sends');
      const t = await trafficCampaign(ctx, 2, ws);
      if (localDate(await targetNow(ctx), zone) !== day) skip(`the first step took until past midnight in ${zone}: the sends do not all fall on ${day}`);
      const sentIn = async (w: Window, what: string) => (await ok2xx(campaignAnalytics(ctx, ws.api, t.campaignId, w), `analytics ${what}`)).body?.totals?.sent;
      const n = t.sent;
      const where = `${n} email(s) sent ${east ? 'just after' : 'just before'} midnight of ${day} in ${zone} (UTC${offset >= 0 ? '+' : ''}${offset / 60})`;
      // Without an end the window runs to now: asked while the sends are still today's (either side of UTC).
      expectThat((await sentIn({ start: day }, `from ${day} without an end`)) === n, msg`${where}: the window from ${day} without an end (to now, the same day) must count them all`);
      // West of UTC, wait into the next local day so that no window asked ends in the future.
      if (!east) await ctx.control!.advance(2 * 60 * 60);
      const beside = addDays(day, east ? -1 : 1);
      expectThat((await sentIn({ start: day, end: day }, `for ${day}`)) === n, msg`${where}: the window ${day} .. ${day} must count them all (from its local midnight through the end of its day)`);
      expectThat((await sentIn({ start: beside, end: beside }, `for ${beside}`)) === 0, msg`${where}: the window of the day beside it, ${beside}, must count none (days are the workspace's, not UTC's)`);
      // West of UTC the day beside is the next one: the day before must count none too (its end takes effect).
      if (!east) {
        const dayBefore = addDays(day, -1);
        expectThat((await sentIn({ start: dayBefore, end: dayBefore }, `for ${dayBefore}`)) === 0, msg`${where}: the window ${dayBefore} .. ${dayBefore}, ending before the sends, must count none (the window's end takes effect)`);
      }
      expectThat((await sentIn({ start: `${day}T23:50:00`, end: `${day}T00:05:00` }, 'with time parts')) === n, msg`${where}: the window ${day}T23:50:00 .. ${day}T00:05:00 must count them all (the time part is ignored)`);
      const after = await overviewOf('after the sends');
      const [s0, s1] = [before.body?.totals?.sent, after.body?.totals?.sent];
      expectThat(s1 - s0 >= n, msg`${where}: the overview's window ${day} .. ${day} must count them all, its totals.sent went from ${s0} to ${s1} with the sends`, before, after);
      await expectDayPoint(ctx, ws.api, t.campaignId, { day, beside, zone, n, where });
    },
  },
];
