import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import { CheckFailure, skip } from '../../../harness/ground/check.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { expectError, expectSchema, expectThat, msg } from '../../lib/expect.ts';
import { createCampaign } from '../../lib/recipes.ts';
import { workspaceZone } from '../sending/lib.ts';
import { DAY, addDays, campaignAnalytics, localDate, localMidnight, ok2xx, targetNow, timeseries, weekStart } from './lib.ts';
import { casesAt } from '../../lib/depth.ts';

// Rules of 4.6 whose amounts the spec leaves open, held to the profile: how long a window is
// before the time series coarsens it ("long windows are coarsened automatically (day, then week,
// then month)": how long is not given, declarations.analytics.coarsening) and where a window
// reaching past retention starts ("the exact clamping rule behind period.clamped: not shown",
// declarations.analytics.clamping and retentionDays). Without a declaration, what the MUST says
// on its own is still checked: a long window is answered at the interval the answer states.
// Windows end today (the target's today in the workspace's timezone) and count whole days.

type Interval = 'day' | 'week' | 'month';
const INTERVALS: readonly Interval[] = ['day', 'week', 'month'];
const HOUR = 3_600_000;
/** The shortest distance between two points of one interval (a DST change takes an hour off). */
const MIN_GAP: Record<Interval, number> = { day: DAY - HOUR, week: 7 * DAY - HOUR, month: 28 * DAY - HOUR };

/** How far after a window's start a partial first bucket's point may lie: one whole interval (an hour more for a DST change). */
const MAX_LEN: Record<Interval, number> = { day: DAY + HOUR, week: 7 * DAY + HOUR, month: 31 * DAY + HOUR };

/**
 * Why the points of a time-series answer are not spaced by `interval`, or undefined. Points may
 * be left out (a series without traffic may skip empty buckets) and the first bucket may be
 * partial (a week or month cut by the window's start), so only the distance between two points
 * after the first is held to the interval's shortest length. `startMs`, the window's start: given,
 * a first point more than one interval after it is no partial first bucket, so it is held too.
 */
function spacingProblem(r: ApiResponse, interval: Interval, startMs?: number): string | undefined {
  const data: any[] = Array.isArray(r.body?.data) ? r.body.data : [];
  const ts = data.map((p) => Date.parse(p?.timestamp));
  const bad = data.findIndex((_, i) => Number.isNaN(ts[i]));
  if (bad >= 0) return `point ${bad} has no ISO 8601 timestamp (${JSON.stringify(data[bad]?.timestamp)})`;
  const sorted = [...ts].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i]! - sorted[i - 1]!;
    const partialFirst = i === 1 && (startMs === undefined || sorted[0]! < startMs + MAX_LEN[interval]);
    const min = partialFirst ? DAY - HOUR : MIN_GAP[interval];
    if (gap < min) {
      return `${data.length} points, two of them ${(gap / HOUR).toFixed(1)} hours apart (${new Date(sorted[i - 1]!).toISOString()} and ${new Date(sorted[i]!).toISOString()}), closer than one ${interval}`;
    }
  }
  return undefined;
}

/** The window of `days` whole local days ending today. */
const lastDays = (today: string, days: number) => ({ start: addDays(today, -(days - 1)), end: today });

interface Setup { api: ApiClient; id: string; zone: string; today: string; retentionDays: number }

/** A campaign of a workspace, today in its timezone, and `period.retentionDays` as the target reports it. */
async function setup(ctx: CheckContext): Promise<Setup> {
  const ws = await ctx.workspace();
  const zone = await workspaceZone(ws);
  const { id } = await createCampaign(ctx, ws.api, { steps: 1 });
  const today = localDate(await targetNow(ctx), zone);
  const probe = await ok2xx(timeseries(ctx, ws.api, id, { start: today, end: today }, 'day'), `time series of today (${today}) by day`);
  const retentionDays = probe.body?.period?.retentionDays;
  expectThat(Number.isInteger(retentionDays) && retentionDays >= 1, msg`period.retentionDays must be a whole number of days, got ${JSON.stringify(retentionDays)}`, probe);
  return { api: ws.api, id, zone, today, retentionDays };
}

/**
 * Runs `body`; when it fails and the workspace's date changed meanwhile (a run across local
 * midnight without the control clock), runs it once more on the new date.
 */
async function onOneDay(ctx: CheckContext, body: (s: Setup) => Promise<void>): Promise<void> {
  const s = await setup(ctx);
  try {
    await body(s);
  } catch (e) {
    if (!(e instanceof CheckFailure) || localDate(await targetNow(ctx), s.zone) === s.today) throw e;
    ctx.log(`the date in ${s.zone} changed during the check (${s.today}); running it again`);
    await body({ ...s, today: localDate(await targetNow(ctx), s.zone) });
  }
}

/**
 * ANLT-TS-COARSEN seen with traffic, for a check whose campaign sent on several days: a series that
 * leaves empty buckets out answers points only where there was traffic, so a campaign without it
 * (ANLT/timeseries-coarsened) cannot show points kept one per day under a coarser label. Asked by
 * day over one day more than the declared day length (analytics.coarsening), the answer must state
 * week or month, and its points, the days with sends among them, be spaced by it. Without the
 * declaration, or with the window past retention, it logs why and judges nothing.
 */
export async function expectCoarsenedTraffic(ctx: CheckContext, api: ApiClient, campaignId: string, zone: string): Promise<void> {
  const c = ctx.profile.declarations.analytics?.coarsening;
  if (!c) return ctx.log('declarations.analytics.coarsening is not declared: the time series of the sends is not read for its coarsening');
  const today = localDate(await targetNow(ctx), zone);
  const w = lastDays(today, c.day + 1);
  const what = `time series of the campaign's sends over ${c.day + 1} days (${w.start} .. ${w.end}) by day`;
  const r = await ok2xx(timeseries(ctx, api, campaignId, w, 'day'), what);
  const kept = r.body?.period?.retentionDays;
  if (!(Number.isInteger(kept) && kept >= c.day + 1)) return ctx.log(`${what}: the window reaches past the ${JSON.stringify(kept)} days of retention, its coarsening is not judged`);
  const used = r.body?.interval;
  expectThat(used === 'week' || used === 'month', msg`${what}: longer than the ${c.day} days the profile declares answered by day (analytics.coarsening), the window must be coarsened to week or month, the answer states ${JSON.stringify(used)} with ${r.body?.data?.length ?? 0} point(s)`, r);
  const problem = spacingProblem(r, used, localMidnight(w.start, zone));
  expectThat(problem === undefined, msg`${what}: the answer states interval ${used}, but its points (the campaign sent on several days) are not spaced by it: ${problem}`, r);
}

export const RULE_CHECKS: Check[] = [
  {
    id: 'ANLT/timeseries-coarsening',
    title: 'MUST answer a long window at the interval it states: over the whole retention, asked by day, week or month, the answer states day, week or month and its points are spaced by it',
    // Not ANLT-TS-COARSEN: without the lengths (not given) any answer it states is consistent; see ANLT/timeseries-coarsened.
    clauses: ['ANLT-TS-INTERVAL-STATED'],
    level: 'MUST',
    features: [],
    budget: 8,
    async run(ctx) {
      await onOneDay(ctx, async ({ api, id, today, retentionDays }) => {
        const w = lastDays(today, retentionDays);
        for (const asked of INTERVALS) {
          const what = `time series of the ${retentionDays} days retention allows (${w.start} .. ${w.end}) by ${asked}`;
          const r = await ok2xx(timeseries(ctx, api, id, w, asked), what);
          const used = r.body?.interval;
          expectThat(INTERVALS.includes(used), msg`${what}: the answer must state the interval used (day, week or month), got ${JSON.stringify(used)}`, r);
          const problem = spacingProblem(r, used);
          expectThat(problem === undefined, msg`${what}: the answer states interval ${used}, but its points are not spaced by it: ${problem}`, r);
          // A series that leaves empty buckets out may answer no points at all: then nothing was proven.
          if (!Array.isArray(r.body?.data) || r.body.data.length < 2) skip(`${what}: the answer holds ${r.body?.data?.length ?? 0} point(s) for a campaign without traffic, so the spacing of its interval cannot be seen`);
        }
      });
    },
  },
  {
    // "Long windows are coarsened automatically": how long is not given, so the MUST is held to the
    // lengths the profile declares; a target that declares none, or lengths beyond its retention, is not judged.
    // Its campaign has no traffic: the points of sends on several days are read by SEND/sequence-delay (expectCoarsenedTraffic).
    id: 'ANLT/timeseries-coarsened',
    title: 'MUST coarsen a long window automatically, day then week then month, and state the interval used: asked by day over one day more than the declared day length, the time series answers by week (by week or month where the declared week length is no longer), spaced by it, and past the declared week length by month (profile: analytics.coarsening)',
    // ANLT-TS-INTERVAL-STATED: a coarsened answer is the one whose stated interval can differ from the one asked; its points' spacing shows the one used.
    // ANLT-TS-QUERY, -ANSWER, -INTERVAL-ENUM, -BOUNCES-UNSUBS, ANLT-POINT-FIELDS: the answer it reads (a window and an interval asked) is held to the shape of 2.10.
    clauses: ['ANLT-TS-COARSEN', 'ANLT-TS-INTERVAL-STATED', 'ANLT-TS-QUERY', 'ANLT-TS-ANSWER', 'ANLT-TS-INTERVAL-ENUM', 'ANLT-TS-BOUNCES-UNSUBS', 'ANLT-POINT-FIELDS'],
    level: 'MUST',
    features: ['decl:declarations.analytics.coarsening'],
    budget: 7,
    async run(ctx) {
      const c = ctx.profile.declarations.analytics?.coarsening;
      if (!c) skip('declarations.analytics.coarsening is not declared (the longest window the time series answers by day): which window is long enough to be coarsened is not given, so the coarsening is not checked');
      await onOneDay(ctx, async ({ api, id, today, retentionDays }) => {
        const days = c.day + 1;
        if (days > retentionDays) skip(`the declared coarsening (by day up to ${c.day} days) starts beyond the ${retentionDays} days of retention: no window the target answers is long enough to be coarsened`);
        const w = lastDays(today, days);
        const what = `time series of ${days} days (${w.start} .. ${w.end}) by day`;
        const r = await ok2xx(timeseries(ctx, api, id, w, 'day'), what);
        expectSchema(r, 'CampaignTimeseries', what);
        const used = r.body?.interval;
        expectThat(used === 'week' || used === 'month', msg`${what}: longer than the ${c.day} days the profile declares answered by day (analytics.coarsening), the window must be coarsened to week or month, the answer states ${JSON.stringify(used)} with ${r.body?.data?.length ?? 0} point(s)`, r);
        // "day, then week, then month": a window within the declared week length takes the week step.
        expectThat(days > c.week || used === 'week', msg`${what}: day, then week, then month: a window of ${days} days, within the ${c.week} days the profile declares answered by week, must be coarsened to week, the answer states ${JSON.stringify(used)}`, r);
        const problem = spacingProblem(r, used);
        expectThat(problem === undefined, msg`${what}: the answer states interval ${used}, but its points are not spaced by it: ${problem}`, r);
        // The second step, where retention reaches past the declared week length.
        if (c.week + 1 <= retentionDays && c.week > c.day) {
          const far = lastDays(today, c.week + 1);
          const farWhat = `time series of ${c.week + 1} days (${far.start} .. ${far.end}) by day`;
          const m = await ok2xx(timeseries(ctx, api, id, far, 'day'), farWhat);
          expectThat(m.body?.interval === 'month', msg`${farWhat}: longer than the ${c.week} days the profile declares answered by week, the window must be coarsened on to month, the answer states ${JSON.stringify(m.body?.interval)}`, m);
          const farProblem = spacingProblem(m, 'month');
          expectThat(farProblem === undefined, msg`${farWhat}: the answer states interval month, but its points are not spaced by it: ${farProblem}`, m);
        }
      });
    },
  },
  {
    id: 'ANLT/timeseries-coarsening-profile',
    title: 'the time series keeps a window up to the declared length at the interval asked and coarsens a longer one, day to week to month (profile: analytics.coarsening)',
    clauses: ['ANLT-TS-COARSEN-PROFILE'],
    level: 'PROFILE',
    features: ['decl:declarations.analytics.coarsening'],
    budget: 10,
    async run(ctx) {
      const c = ctx.profile.declarations.analytics?.coarsening;
      if (!c) skip('declarations.analytics.coarsening is not declared (the longest window the time series answers by day and by week): how long a window is before it is coarsened is not checked');
      await onOneDay(ctx, async ({ api, id, today, retentionDays }) => {
        const expected = (asked: Interval, days: number): Interval =>
          asked === 'month' ? 'month' : asked === 'day' && days <= c.day ? 'day' : days <= c.week ? 'week' : 'month';
        const cases: [Interval, number][] = [['day', Math.min(c.day, retentionDays)], ['day', c.day + 1], ['week', Math.min(c.week, retentionDays)], ['week', c.week + 1], ['day', c.week + 1]];
        const seen = new Set<string>();
        let coarsened = 0;
        for (const [asked, days] of cases) {
          if (days > retentionDays || seen.has(`${asked} ${days}`)) continue;
          seen.add(`${asked} ${days}`);
          const want = expected(asked, days);
          if (want !== asked) coarsened++;
          const w = lastDays(today, days);
          const what = `time series of ${days} days (${w.start} .. ${w.end}) by ${asked}`;
          const r = await ok2xx(timeseries(ctx, api, id, w, asked), what);
          expectThat(r.body?.interval === want, msg`${what}: with windows up to ${c.day} days answered by day and up to ${c.week} by week (profile: analytics.coarsening), the answer must be by ${want}, it states ${JSON.stringify(r.body?.interval)}`, r);
          const problem = spacingProblem(r, want);
          expectThat(problem === undefined, msg`${what}: the answer states interval ${want}, but its points are not spaced by it: ${problem}`, r);
        }
        if (coarsened === 0) ctx.log(`no window longer than the declared lengths (day ${c.day}, week ${c.week}) fits in the ${retentionDays} days of retention: only windows kept at the interval asked were checked`);
      });
    },
  },
  {
    id: 'ANLT/clamping-profile',
    title: 'period reports the declared retentionDays, and a window reaching past retention starts where the declared clamping rule puts it, with clamped true (profile: analytics.retentionDays, clamping)',
    clauses: ['ANLT-CLAMP-PROFILE'],
    level: 'PROFILE',
    features: ['decl:declarations.analytics'],
    budget: 9,
    async run(ctx) {
      const a = ctx.profile.declarations.analytics;
      if (!a) skip('declarations.analytics is not declared (retentionDays and the clamping rule): the clamping rule is not checked');
      const back = a.clamping === 'days-before-today' ? a.retentionDays : a.clamping === 'days-including-today' ? a.retentionDays - 1 : undefined;
      if (back === undefined) skip(`declarations.analytics.clamping ${JSON.stringify(a.clamping)} is none the kit can check (it needs days-before-today or days-including-today)`);
      await onOneDay(ctx, async ({ api, id, zone, today }) => {
        const floorDay = addDays(today, -back);
        const floor = localMidnight(floorDay, zone);
        const rule = `retentionDays ${a.retentionDays}, clamping ${a.clamping} (profile): the earliest day reported is ${floorDay}`;
        const at = await ok2xx(campaignAnalytics(ctx, api, id, { start: floorDay, end: today }), `analytics for ${floorDay} .. ${today}`);
        const p = at.body?.period ?? {};
        expectThat(p.retentionDays === a.retentionDays, msg`period.retentionDays must be the declared ${a.retentionDays}, got ${JSON.stringify(p.retentionDays)}`, at);
        expectThat(p.clamped === false, msg`${rule}; a window starting that day is within retention, yet clamped is ${JSON.stringify(p.clamped)}`, at);
        expectThat(Math.abs(Date.parse(p.start) - floor) <= 1000, msg`${rule}; a window starting that day must start at its local midnight in ${zone} (${new Date(floor).toISOString()}), period.start is ${JSON.stringify(p.start)}`, at);
        for (const start of [addDays(floorDay, -1), addDays(today, -365 * 30)]) {
          const r = await ok2xx(campaignAnalytics(ctx, api, id, { start, end: today }), `analytics for ${start} .. ${today}`);
          const q = r.body?.period ?? {};
          expectThat(q.clamped === true, msg`${rule}; a window starting ${start} reaches past it, yet clamped is ${JSON.stringify(q.clamped)}`, r);
          expectThat(Math.abs(Date.parse(q.start) - floor) <= 1000, msg`${rule}; a window starting ${start} must be clamped to local midnight of ${floorDay} in ${zone} (${new Date(floor).toISOString()}), period.start is ${JSON.stringify(q.start)}`, r);
        }
        // The time series states its period too: the same rule holds there.
        const past = addDays(floorDay, -1);
        const ts = await ok2xx(timeseries(ctx, api, id, { start: past, end: today }, 'week'), `time series for ${past} .. ${today}`);
        const tp = ts.body?.period ?? {};
        expectThat(tp.clamped === true && Math.abs(Date.parse(tp.start) - floor) <= 1000, msg`${rule}; the time series of a window starting ${past} must be clamped to local midnight of ${floorDay} (${new Date(floor).toISOString()}), its period is ${JSON.stringify(tp)}`, ts);
      });
    },
  },
  {
    id: 'ANLT/interval-unknown',
    title: 'MUST refuse a time-series interval outside day, week and month with 400 validation_failed, one of them in another case too (DAY, Week)',
    clauses: ['ANLT-TS-INTERVAL-UNKNOWN'],
    level: 'MUST',
    features: [],
    budget: 5,
    // Below default one value outside the enum and one of its values in another case.
    shallowerAt: ['smoke', 'quick'],
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { steps: 1 });
      // The enum's values are exact: the spec says case-insensitive where it means it (4.4 lead search).
      // An empty `interval=` is not sent: whether it is a value or no interval, the spec does not say.
      // A window start: 4.6 states no default for it, so without one a refusal would not be the interval's.
      const w = await weekStart(ctx);
      for (const interval of casesAt(ctx, ['hour', 'year', 'DAY', 'Week'], (i) => i === 'hour' || i === 'DAY')) expectError(await timeseries(ctx, ws.api, id, w, interval), 400, ctx.profile, `time series with interval=${interval}`, 'validation_failed');
    },
  },
  {
    id: 'ANLT/breakdown-unknown',
    title: 'MUST refuse a breakdown value other than smtp, sequence and bounce with 400 validation_failed, alone or beside a known one',
    clauses: ['ANLT-CAMP-BREAKDOWN-UNKNOWN'],
    level: 'MUST',
    features: [],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { steps: 1 });
      const w = await weekStart(ctx); // as in ANLT/interval-unknown
      for (const [query, what] of [[[['breakdown', 'geo']], 'breakdown=geo'], [[['breakdown', 'smtp,geo']], 'breakdown=smtp,geo'], [[['breakdown', 'bounce'], ['breakdown', 'geo']], 'breakdown=bounce&breakdown=geo'], [[['breakdown', 'SMTP']], 'breakdown=SMTP (the values are exact)']] as [[string, string][], string][]) {
        expectError(await campaignAnalytics(ctx, ws.api, id, w, query), 400, ctx.profile, `campaign analytics with ${what}`, 'validation_failed');
      }
    },
  },
];
