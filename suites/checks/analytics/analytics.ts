import { campaignAnalyticsFor } from '../../../harness/ground/spec-model/schemas/index.ts';
import { createCampaign, walk } from '../../lib/recipes.ts';
import { fillPath } from '../../../harness/ground/operations.ts';
import { skip } from '../../../harness/ground/check.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import type { ApiResponse } from '../../../harness/ground/api-client.ts';
import { expect2xx, expectSchema, expectThat, expectError, msg } from '../../lib/expect.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, workspaceZone } from '../sending/lib.ts';
import { ANSWER_CHECKS } from './answers.ts';
import { RULE_CHECKS } from './rules.ts';
import { WINDOW_COUNT_CHECKS } from './window-counts.ts';
import { DAY, addDays, campaignAnalytics, localDate, localMidnight, ok2xx, overview, targetNow, timeseries, trafficCampaign, type Traffic, type Window } from './lib.ts';

// Analytics (2.10, 4.6) of a campaign with real traffic: the answers' shapes, breakdowns present
// exactly when requested, intervals, and reporting windows cut at local midnight in the
// workspace's timezone. What the numbers must equal is in ledger.ts.

const TRAFFIC = ['sinks', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;

/**
 * Every object of 2.10 in one campaign answer, with the breakdowns requested and only those. The
 * window has a start (4.6 states a default for the end only) and leaves the end to its default.
 */
async function expectBreakdowns(ctx: CheckContext, api: any, id: string, w: Window, extra: [string, string][], requested: ('smtp' | 'sequence' | 'bounce')[], what: string) {
  const r = await ok2xx(campaignAnalytics(ctx, api, id, w, extra), what);
  expectSchema(r, campaignAnalyticsFor(requested), what);
  return r;
}

/** Every email sent was accepted by the sink: a percent delivery rate reads 100 (two decimals' rounding aside). */
function expectDeliveryPercent(totals: any, what: string, res: ApiResponse) {
  const d = totals?.rates?.delivery;
  expectThat(typeof d === 'number' && Math.abs(d - 100) <= 0.5, msg`rates are percent numbers: every email sent was delivered, so the delivery rate of ${what} must read 100, got ${JSON.stringify(d)}${d === 1 ? ' (a fraction of 1)' : ''}`, res);
}

/**
 * The overview's delivery rate on a percent scale, from its own counts (the workspace is shared, so
 * not every email in it need have been delivered): all delivered reads 100; most delivered reads
 * above 1, which no fraction of 1 can.
 */
function expectOverviewPercent(totals: any, res: ApiResponse) {
  const [sent, delivered, d] = [totals.sent, totals.delivered, totals.rates?.delivery];
  if (!(sent > 0 && delivered > 0)) return;
  if (delivered === sent) return expectDeliveryPercent(totals, `the workspace overview's totals (sent ${sent}, delivered ${delivered})`, res);
  if (delivered * 2 >= sent) expectThat(typeof d === 'number' && d > 1 && d <= 100, msg`rates are percent numbers: the workspace overview delivered ${delivered} of ${sent} emails, so its delivery rate must read over 1 (at most 100), got ${JSON.stringify(d)}`, res);
}

/** A bySmtp row is a sending mailbox's (2.10: accountId, email): the campaign's two, by id and address. */
function expectBySmtpRows(t: Traffic, r: ApiResponse) {
  const boxes = new Map(t.mailboxes.map((m) => [m.id, m.address.toLowerCase()]));
  const strange = r.body.bySmtp.filter((row: any) => !boxes.has(row.accountId) || String(row.email).toLowerCase() !== boxes.get(row.accountId));
  expectThat(strange.length === 0, msg`each bySmtp row must name one of the campaign's mailboxes by its id and address (${[...boxes].map(([id, a]) => `${id} ${a}`).join(', ')}), got ${JSON.stringify(strange.map((row: any) => ({ accountId: row.accountId, email: row.email })))}`, r);
}

/**
 * 2.10 gives topCampaigns' fields, not which campaigns make the top: what it lists must be this
 * workspace's campaigns, each row with the campaign's name and what it sent in the window, between
 * what the campaign's own analytics counted over that window just before the overview was read
 * (`before`) and just after (`after`): a send may fall between. Where the profile declares the
 * ranking by sent (analytics.topCampaignsBy), the campaign that sent is left out only behind ones
 * that sent as many.
 */
async function expectTopCampaigns(ctx: CheckContext, t: Traffic, r: ApiResponse, w: Window, before: ApiResponse) {
  const names = new Map(((await walk(ctx.profile, t.ws.api, '/v1/campaigns')) as any[]).map((c) => [c.id, c.name]));
  const rows = r.body.topCampaigns as any[];
  const strangers = rows.filter((c) => !names.has(c.campaignId));
  expectThat(strangers.length === 0, msg`topCampaigns must list campaigns of this workspace, got ${JSON.stringify(strangers.map((c) => c.campaignId))}`, r);
  const misnamed = rows.filter((c) => names.has(c.campaignId) && c.name !== names.get(c.campaignId));
  expectThat(misnamed.length === 0, msg`a topCampaigns row's name must be its campaign's: ${misnamed.map((c) => `${c.campaignId} says ${JSON.stringify(c.name)}, the campaign is ${JSON.stringify(names.get(c.campaignId))}`).join('; ')}`, r);
  const after = await ok2xx(campaignAnalytics(ctx, t.ws.api, t.campaignId, w), "the sending campaign's analytics over the same window, after the overview");
  const [lo, hi] = [before.body?.totals?.sent, after.body?.totals?.sent];
  const row = rows.find((c) => c.campaignId === t.campaignId);
  if (row) expectThat(row.sent >= lo && row.sent <= hi, msg`topCampaigns' row of the sending campaign must carry what it sent in the window ${w.start} .. ${w.end}: its analytics count totals.sent ${lo} just before the overview and ${hi} just after, the row says sent ${JSON.stringify(row.sent)}`, before, r, after);
  else if (ctx.profile.declarations.analytics?.topCampaignsBy === 'sent' && lo > 0) {
    const ahead = rows.filter((c) => c.sent >= lo);
    expectThat(rows.length > 0 && ahead.length === rows.length, msg`topCampaigns ranked by sent (profile: analytics.topCampaignsBy): the campaign ${t.campaignId} sent ${lo} in the window and may be left out only behind campaigns that sent as many, the list holds ${JSON.stringify(rows.map((c) => ({ campaignId: c.campaignId, sent: c.sent })))}`, before, r);
  }
}

export const ANALYTICS_CHECKS: Check[] = [
  {
    id: 'ANLT/campaign-answer',
    title: 'MUST answer campaign analytics with period and totals, and each breakdown (smtp, sequence, bounce) present exactly when requested, repeated or comma-separated',
    clauses: [
      'SVC-ANLT', 'ANLT-CAMP-QUERY', 'ANLT-CAMP-ANSWER', 'ANLT-CAMP-BREAKDOWN-VALUES', 'ANLT-CAMP-BREAKDOWN-REPEAT', 'ANLT-CAMP-BREAKDOWN-COMMA',
      'ANLT-CAMP-BREAKDOWN-PRESENT', 'ANLT-CAMP-BREAKDOWN-ABSENT', 'ANLT-PERIOD-START-END', 'ANLT-PERIOD-CLAMPED', 'ANLT-PERIOD-RETENTIONDAYS',
      'ANLT-TOTALS-COUNTS', 'ANLT-TOTALS-OPENS-CLICKS', 'ANLT-TOTALS-RATES', 'ANLT-BYSMTP-FIELDS', 'ANLT-BYSMTP-TOTALS', 'ANLT-BYSEQUENCE-FIELDS',
      'ANLT-BOUNCE-FIELDS', 'LIMIT-RETENTION', 'ANLT-PARAMS-PROFILE',
    ],
    level: 'MUST',
    features: [...TRAFFIC],
    budget: 40,
    async run(ctx) {
      // Two leads for the two mailboxes: each sends its first email at once, where a third lead would wait a mailbox's gap (a minute).
      const t = await trafficCampaign(ctx, 2);
      const api = t.ws.api;
      const today = localDate(await targetNow(ctx), t.zone);
      const start = addDays(today, -6);
      await expectBreakdowns(ctx, api, t.campaignId, { start }, [], [], 'analytics without breakdown');
      await expectBreakdowns(ctx, api, t.campaignId, { start }, [['breakdown', 'smtp'], ['breakdown', 'bounce']], ['smtp', 'bounce'], 'analytics with breakdown=smtp&breakdown=bounce');
      const all = await expectBreakdowns(ctx, api, t.campaignId, { start }, [['breakdown', 'smtp,sequence,bounce']], ['smtp', 'sequence', 'bounce'], 'analytics with breakdown=smtp,sequence,bounce');
      expectThat(all.body.bySmtp.length > 0 && all.body.bySequence.length > 0, msg`after ${t.sent} campaign emails the breakdowns by mailbox and by step must have entries, got bySmtp ${all.body.bySmtp.length}, bySequence ${all.body.bySequence.length}`, all);
      expectBySmtpRows(t, all);
      // The window and out-of-office parameters, by the profile's names, are accepted.
      const windowed = await ok2xx(campaignAnalytics(ctx, api, t.campaignId, { start, end: today, excludeOutOfOffice: true }), 'analytics with a window and the out-of-office flag (profile names)');
      expectSchema(windowed, campaignAnalyticsFor([]), 'analytics with a window');
    },
  },
  {
    id: 'ANLT/timeseries-answer',
    title: 'MUST answer the time series with period, the interval used (day, week or month) and points carrying every 2.10 field, bounces and unsubscribes included',
    clauses: ['SVC-ANLT', 'ANLT-TS-QUERY', 'ANLT-TS-INTERVAL-ENUM', 'ANLT-TS-ANSWER', 'ANLT-TS-INTERVAL-STATED', 'ANLT-TS-BOUNCES-UNSUBS', 'ANLT-POINT-FIELDS', 'ANLT-PERIOD-START-END', 'ANLT-PERIOD-CLAMPED', 'ANLT-PERIOD-RETENTIONDAYS', 'LIMIT-RETENTION'],
    level: 'MUST',
    features: [...TRAFFIC],
    budget: 36,
    async run(ctx) {
      const t = await trafficCampaign(ctx, 2);
      const today = localDate(await targetNow(ctx), t.zone);
      for (const interval of ['day', 'week', 'month']) {
        const r = await ok2xx(timeseries(ctx, t.ws.api, t.campaignId, { start: addDays(today, -13), end: today, excludeOutOfOffice: false }, interval), `time series with interval=${interval}`);
        expectSchema(r, 'CampaignTimeseries', `time series with interval=${interval}`);
        expectThat(r.body.data.length > 0, msg`a 14-day window holding today's ${t.sent} sends must have points (interval ${interval}), data is empty`, r);
      }
      // Without an end the window still has one: period.end is a timestamp (2.10), as with one.
      const open = await ok2xx(timeseries(ctx, t.ws.api, t.campaignId, { start: addDays(today, -6) }), 'time series without an end');
      expectSchema(open, 'CampaignTimeseries', 'time series without an end');
    },
  },
  {
    id: 'ANLT/timeseries-readings',
    title: 'SHOULD never answer a finer interval than requested, keep a short window at the interval asked, and order points within the period',
    clauses: ['ANLT-TS-COARSEN-ONLY-UP', 'ANLT-TS-POINTS-ORDER'],
    level: 'SHOULD',
    features: [...TRAFFIC],
    budget: 36,
    async run(ctx) {
      const t = await trafficCampaign(ctx, 2);
      const today = localDate(await targetNow(ctx), t.zone);
      const rank = { day: 0, week: 1, month: 2 } as Record<string, number>;
      for (const [asked, days] of [['day', 7], ['week', 28], ['month', 60], ['month', 3]] as const) {
        const r = await ok2xx(timeseries(ctx, t.ws.api, t.campaignId, { start: addDays(today, -(days - 1)), end: today }, asked), `time series of ${days} days by ${asked}`);
        const used = r.body?.interval;
        expectThat(rank[used] !== undefined && rank[used]! >= rank[asked]!, msg`asked for ${asked} over ${days} days, the answer uses ${JSON.stringify(used)}: coarsening only goes up`, r);
        if (days <= 7) expectThat(used === asked, msg`a ${days}-day window should keep the interval asked (${asked}), got ${used}`, r);
        const ts = (r.body?.data ?? []).map((p: any) => Date.parse(p.timestamp));
        const [ps, pe] = [Date.parse(r.body.period.start), Date.parse(r.body.period.end)];
        for (let i = 0; i < ts.length; i++) {
          expectThat(ts[i] >= ps - DAY && ts[i] <= pe, msg`point ${i} at ${r.body.data[i].timestamp} lies outside the period ${r.body.period.start} .. ${r.body.period.end}`, r);
          if (i) expectThat(ts[i] > ts[i - 1], msg`points should ascend by timestamp: ${r.body.data[i - 1].timestamp} then ${r.body.data[i].timestamp}`, r);
        }
      }
    },
  },
  {
    id: 'ANLT/overview-answer',
    title: "MUST answer the workspace overview with period, totals (opens and clicks as { total, uniqueLeads }), activeCampaigns (exactly the campaigns sending: not a draft, not once paused), sendingAccounts and topCampaigns (the workspace's campaigns, each with its name and what it sent in the window), counting the window asked",
    // ANLT-TOTALS-COUNTS, ANLT-TOTALS-OPENS-CLICKS, ANLT-TOTALS-RATES: the overview's totals are read here (the AnalyticsOverview schema), the campaign's in ANLT/campaign-answer.
    // ANLT-PARAMS-PROFILE: the window asked by the profile's names takes effect on the overview (the day before the sends leaves them out).
    // ANLT-CAMP-BREAKDOWN-REPEAT, -PRESENT, ANLT-BYSMTP-FIELDS: the campaign's own analytics it reads asks breakdown=smtp&breakdown=bounce.
    clauses: ['SVC-ANLT', 'ANLT-OV-QUERY', 'ANLT-OV-ANSWER', 'ANLT-OVERVIEW-ACTIVECAMPAIGNS', 'ANLT-OVERVIEW-SENDINGACCOUNTS', 'ANLT-OVERVIEW-TOPCAMPAIGNS', 'ANLT-TOTALS-COUNTS', 'ANLT-TOTALS-OPENS-CLICKS', 'ANLT-TOTALS-RATES', 'ANLT-PERIOD-START-END', 'ANLT-PERIOD-CLAMPED', 'ANLT-PERIOD-RETENTIONDAYS', 'ANLT-PARAMS-PROFILE', 'LIMIT-RETENTION', 'ANLT-CAMP-BREAKDOWN-REPEAT', 'ANLT-CAMP-BREAKDOWN-PRESENT', 'ANLT-BYSMTP-FIELDS'],
    level: 'MUST',
    features: [...TRAFFIC, 'exclusiveWorkspace'],
    budget: 45,
    async run(ctx) {
      // A workspace of its own: what sends there is known, so activeCampaigns is an exact count.
      const ws = await ctx.workspace({ exclusive: true });
      const earlier = ((await walk(ctx.profile, ws.api, '/v1/campaigns')) as any[]).filter((c) => c.status === 'active').length;
      await createCampaign(ctx, ws.api, { leads: 1, steps: 1 }); // a draft: not sending
      // The sends fall on the workspace's days from before the traffic (first) through after it (today).
      const first = localDate(await targetNow(ctx), await workspaceZone(ws));
      const t = await trafficCampaign(ctx, 2, ws);
      const today = localDate(await targetNow(ctx), t.zone);
      const w = { start: addDays(first, -6), end: today, excludeOutOfOffice: false };
      const read = async (what: string) => {
        const r = await ok2xx(overview(ctx, t.ws.api, w), `GET /v1/campaigns/analytics/overview ${what}`);
        expectSchema(r, 'AnalyticsOverview', 'GET /v1/campaigns/analytics/overview');
        return r;
      };
      // The campaign's own analytics, read for topCampaigns' bounds, asks two breakdowns by the
      // repeated parameter: both present, and the mailboxes' rows by id and address (2.10, 4.6).
      const own = await expectBreakdowns(ctx, t.ws.api, t.campaignId, w, [['breakdown', 'smtp'], ['breakdown', 'bounce']], ['smtp', 'bounce'], "the sending campaign's analytics over the overview's window, with breakdown=smtp&breakdown=bounce");
      expectThat(own.body.bySmtp.length > 0, msg`after ${t.sent} campaign emails in the window the breakdown by mailbox must have entries, bySmtp is empty`, own);
      expectBySmtpRows(t, own);
      const r = await read('while one campaign sends');
      // The window asked takes effect: the day before the sends leaves them out. Asked only where
      // retention surely covers that day (retentionDays back from today, today included).
      const eve = addDays(first, -1);
      if (eve < addDays(today, -(r.body.period.retentionDays - 1))) ctx.log(`the day before the sends (${eve}) may lie past the ${r.body.period.retentionDays} days of retention: the overview's window is not compared with it`);
      else {
        const before = await ok2xx(overview(ctx, t.ws.api, { start: eve, end: eve, excludeOutOfOffice: false }), `GET /v1/campaigns/analytics/overview for ${eve}`);
        const counted = r.body.totals.sent - (before.body?.totals?.sent ?? NaN);
        expectThat(counted >= t.sent, msg`the overview must count the window asked: ${t.sent} campaign email(s) were sent from ${first} on, so the window ${addDays(first, -6)} .. ${today} must count at least ${t.sent} more than the window ${eve} .. ${eve} (totals.sent ${r.body.totals.sent} and ${before.body?.totals?.sent})`, r, before);
        // The campaign was made after that day: what topCampaigns says it sent then is nothing.
        const then = ((before.body?.topCampaigns ?? []) as any[]).find((c) => c?.campaignId === t.campaignId);
        expectThat(!then || then.sent === 0, msg`topCampaigns for ${eve} .. ${eve}, before the campaign ${t.campaignId} was made, lists it with sent ${JSON.stringify(then?.sent)}: a row's sent is what the campaign sent in the window asked`, before);
      }
      // Without an end the window still has one, ending now (4.6): start and end are timestamps (2.10).
      // The start is given: 4.6 states no default for it, so a target may require it.
      const open = await ok2xx(overview(ctx, t.ws.api, { start: addDays(first, -6) }), 'GET /v1/campaigns/analytics/overview without an end');
      expectSchema(open, 'AnalyticsOverview', 'GET /v1/campaigns/analytics/overview without an end');
      expectThat(r.body.activeCampaigns === earlier + 1, msg`one campaign of the workspace is sending and one is a draft${earlier ? ` (besides ${earlier} active before)` : ''}: activeCampaigns must be ${earlier + 1}, got ${r.body.activeCampaigns}`, r);
      expectThat(r.body.sendingAccounts >= 2, msg`two mailboxes of the workspace sent today, sendingAccounts is ${r.body.sendingAccounts}`, r);
      await expectTopCampaigns(ctx, t, r, w, own);
      const pause = ctx.profile.operations['campaigns.pause'];
      if (!pause) return;
      expect2xx(await ws.api.request({ method: pause.method, path: fillPath(pause.path, { id: t.campaignId }) }), 'pause the sending campaign (operations.campaigns.pause)');
      const after = await read('once it is paused');
      expectThat(after.body.activeCampaigns === earlier, msg`the campaign that sent is paused: activeCampaigns must be ${earlier}, got ${after.body.activeCampaigns}`, after);
    },
  },
  {
    id: 'ANLT/windows',
    // The window itself is proven by counts (ANLT/window-counts); what `period` says of it is a reading.
    title: "SHOULD report in period the effective window, in whole calendar days of the workspace's timezone: the start at its local midnight, the end through its day, the time part ignored, the end defaulting to now",
    clauses: ['ANLT-WINDOW-PERIOD'],
    level: 'SHOULD',
    features: [],
    budget: 10,
    async run(ctx) {
      const ws = await ctx.workspace();
      const zone = await workspaceZone(ws);
      const { id } = await createCampaign(ctx, ws.api, { steps: 1 });
      const now = await targetNow(ctx);
      const today = localDate(now, zone);
      const [s, e] = [addDays(today, -10), addDays(today, -3)];
      const plain = await ok2xx(campaignAnalytics(ctx, ws.api, id, { start: s, end: e }), `analytics for ${s} .. ${e}`);
      const p = plain.body?.period ?? {};
      const [ps, pe] = [Date.parse(p.start), Date.parse(p.end)];
      const [wantStart, nextMidnight] = [localMidnight(s, zone), localMidnight(addDays(e, 1), zone)];
      expectThat(Math.abs(ps - wantStart) <= 1000, msg`the window ${s} .. ${e} must start at local midnight of ${s} in ${zone} (${new Date(wantStart).toISOString()}), period.start is ${p.start}`, plain);
      expectThat(pe >= nextMidnight - 1000 && pe <= nextMidnight, msg`the window must run through the end of ${e} in ${zone} (to ${new Date(nextMidnight).toISOString()}), period.end is ${p.end}`, plain);
      const timed = await ok2xx(campaignAnalytics(ctx, ws.api, id, { start: `${s}T18:30:00`, end: `${e}T05:15:00` }), `analytics for ${s}T18:30:00 .. ${e}T05:15:00`);
      expectThat(timed.body?.period?.start === p.start && timed.body?.period?.end === p.end, msg`the time part must be ignored: ${s}T18:30:00 .. ${e}T05:15:00 gives period ${JSON.stringify(timed.body?.period)}, the dates alone ${JSON.stringify(p)}`, plain, timed);
      const open = await ok2xx(campaignAnalytics(ctx, ws.api, id, { start: s }), `analytics from ${s} without an end`);
      const oe = Date.parse(open.body?.period?.end);
      expectThat(oe >= now - 60_000 && oe <= localMidnight(addDays(today, 1), zone), msg`without an end the window must run to now (${new Date(now).toISOString()}, through today in ${zone}), period.end is ${open.body?.period?.end}`, open);
    },
  },
  {
    id: 'ANLT/windows-readings',
    title: 'SHOULD refuse a window that is not ISO 8601 or ends before it starts, and clamp one reaching past retentionDays with period.clamped',
    clauses: ['ANLT-WINDOW-INVALID', 'ANLT-RETENTION-CLAMP', 'ANLT-WINDOW-PERIOD'],
    level: 'SHOULD',
    features: [],
    budget: 12,
    async run(ctx) {
      const ws = await ctx.workspace();
      const zone = await workspaceZone(ws);
      const { id } = await createCampaign(ctx, ws.api, { steps: 1 });
      const today = localDate(await targetNow(ctx), zone);
      expectError(await campaignAnalytics(ctx, ws.api, id, { start: 'last tuesday' }), 400, ctx.profile, 'analytics with start "last tuesday"', 'validation_failed');
      expectError(await campaignAnalytics(ctx, ws.api, id, { start: addDays(today, -1), end: addDays(today, -5) }), 400, ctx.profile, 'analytics whose end is before its start', 'validation_failed');
      const short = await ok2xx(campaignAnalytics(ctx, ws.api, id, { start: addDays(today, -4), end: today }), 'a 5-day window');
      expectThat(short.body?.period?.clamped === false, msg`a 5-day window is within retention: clamped should be false, got ${short.body?.period?.clamped}`, short);
      expectThat(Math.abs(Date.parse(short.body?.period?.start) - localMidnight(addDays(today, -4), zone)) <= 1000, msg`period.start should report the effective start (local midnight of ${addDays(today, -4)} in ${zone}), got ${short.body?.period?.start}`, short);
      const days = short.body?.period?.retentionDays;
      expectThat(Number.isInteger(days) && days >= 1, msg`period.retentionDays should be a whole number of days, got ${JSON.stringify(days)}`, short);
      // Otherwise false: a window reaching back days - 1 calendar days (today included) is within retention by any clamping rule.
      if (days >= 2) {
        const edge = addDays(today, -(days - 2));
        const within = await ok2xx(campaignAnalytics(ctx, ws.api, id, { start: edge, end: today }), `a window from ${edge}, within the ${days} days of retention`);
        expectThat(within.body?.period?.clamped === false, msg`a window from ${edge} reaches back less than retentionDays (${days}): clamped should be false, got ${within.body?.period?.clamped}`, within);
      }
      const long = await ok2xx(campaignAnalytics(ctx, ws.api, id, { start: addDays(today, -365 * 30), end: today }), 'a 30-year window');
      expectThat(long.body?.period?.clamped === true, msg`a 30-year window reaches past retentionDays (${days}): clamped should be true, got ${long.body?.period?.clamped}`, long);
      // Clamped to retention: the start moves to retentionDays back, whether counted before today or with it (4.6: the exact rule is not shown).
      const [earliest, latest] = [localMidnight(addDays(today, -(days + 1)), zone), localMidnight(addDays(today, -(days - 1)), zone)];
      const ls = Date.parse(long.body?.period?.start);
      expectThat(ls >= earliest && ls <= latest, msg`a clamped window should start where retention ends, retentionDays (${days}) back: between ${new Date(earliest).toISOString()} and ${new Date(latest).toISOString()} in ${zone}, period.start is ${long.body?.period?.start}`, long);
    },
  },
  {
    id: 'ANLT/ledger',
    title: "SHOULD count what the sink received: totals.sent, one bySmtp entry per sending mailbox adding up, time-series points adding up",
    clauses: ['ANLT-CAMP-TOTALS-MATCH-SENDS', 'ANLT-CAMP-BYSMTP-MAILBOXES', 'ANLT-CAMP-CAMPAIGNID', 'ANLT-TS-SUM-TOTALS', 'ANLT-UNIQUE-LE-TOTAL'],
    level: 'SHOULD',
    features: [...TRAFFIC],
    budget: 40,
    async run(ctx) {
      const t = await trafficCampaign(ctx, 3);
      const today = localDate(await targetNow(ctx), t.zone);
      const w = { start: addDays(today, -6), end: today };
      const a = await ok2xx(campaignAnalytics(ctx, t.ws.api, t.campaignId, w, [['breakdown', 'smtp']]), 'campaign analytics with breakdown=smtp');
      const totals = a.body?.totals ?? {};
      expectThat(a.body?.campaignId === t.campaignId, msg`campaignId should be the campaign asked for (${t.campaignId}), got ${a.body?.campaignId}`, a);
      expectThat(totals.sent === t.sent, msg`totals.sent should be the ${t.sent} campaign emails the sink received in the window, got ${totals.sent}`, a);
      const bySmtp: any[] = a.body?.bySmtp ?? [];
      for (const [id, n] of t.sentBy) {
        const entry = bySmtp.filter((x) => x.accountId === id);
        if (n > 0) expectThat(entry.length === 1 && entry[0].totals?.sent === n, msg`bySmtp should hold one entry for mailbox ${id} with sent ${n} (as seen at the sink), got ${JSON.stringify(entry.map((x) => x.totals?.sent))}`, a);
      }
      const sumSmtp = bySmtp.reduce((n, x) => n + (x.totals?.sent ?? 0), 0);
      expectThat(sumSmtp === totals.sent, msg`bySmtp sent values should add up to totals.sent ${totals.sent}, they add up to ${sumSmtp}`, a);
      for (const k of ['opens', 'clicks']) expectThat((totals[k]?.uniqueLeads ?? 0) <= (totals[k]?.total ?? 0), msg`${k}.uniqueLeads ${totals[k]?.uniqueLeads} should not exceed ${k}.total ${totals[k]?.total}`, a);
      const ts = await ok2xx(timeseries(ctx, t.ws.api, t.campaignId, w, 'day'), 'time series by day over the same window');
      const sumTs = (ts.body?.data ?? []).reduce((n: number, p: any) => n + (p.sent ?? 0), 0);
      expectThat(sumTs === totals.sent, msg`the time series points' sent should add up to totals.sent ${totals.sent} over the same window, they add up to ${sumTs}`, ts, a);
    },
  },
  {
    id: 'ANLT/rates-percent',
    title: 'MUST give rates as percent numbers: a campaign whose every email the sink accepted shows a delivery rate of 100 (not 1), in totals, per mailbox, per step and in the workspace overview',
    clauses: ['ANLT-RATES-PERCENT'],
    level: 'MUST',
    features: [...TRAFFIC],
    budget: 36,
    async run(ctx) {
      // The sink accepts every message and nothing bounces: every email sent was delivered.
      const t = await trafficCampaign(ctx, 2);
      const today = localDate(await targetNow(ctx), t.zone);
      const w = { start: addDays(today, -1), end: today };
      const a = await ok2xx(campaignAnalytics(ctx, t.ws.api, t.campaignId, w, [['breakdown', 'smtp'], ['breakdown', 'sequence']]), 'campaign analytics with breakdown=smtp and sequence');
      const totals = a.body?.totals ?? {};
      if (!(totals.sent > 0)) skip(`the analytics count none of the ${t.sent} campaign emails the sink accepted today (totals.sent ${totals.sent}): no delivery rate to read`);
      expectDeliveryPercent(totals, `totals (sent ${totals.sent}, delivered ${totals.delivered}; the sink accepted all ${t.sent})`, a);
      for (const e of (a.body?.bySmtp ?? []).filter((x: any) => x.totals?.sent > 0)) expectDeliveryPercent(e.totals, `bySmtp entry of mailbox ${e.accountId} (sent ${e.totals.sent})`, a);
      for (const e of (a.body?.bySequence ?? []).filter((x: any) => x.totals?.sent > 0)) expectDeliveryPercent(e.totals, `bySequence entry of step ${e.step} (sent ${e.totals.sent})`, a);
      // The overview rolls up the whole workspace, which other checks share: its scale is read from its own counts.
      const ov = await ok2xx(overview(ctx, t.ws.api, w), 'workspace overview over the same window');
      expectOverviewPercent(ov.body?.totals ?? {}, ov);
    },
  },
  {
    id: 'ANLT/overview-own-workspace',
    title: "SHOULD roll up only the caller's workspace in the overview: a fresh workspace shows nothing of another's traffic",
    clauses: ['ANLT-OV-WORKSPACE'],
    level: 'SHOULD',
    features: [...TRAFFIC, 'control'],
    budget: 40,
    async run(ctx) {
      const t = await trafficCampaign(ctx, 2);
      const fresh = await ctx.workspace({ exclusive: true });
      if (fresh.organizationId === t.ws.organizationId) skip('the run could not lease a second workspace');
      const today = localDate(await targetNow(ctx), t.zone);
      const mine = await ok2xx(overview(ctx, t.ws.api, { start: addDays(today, -1), end: today }), 'overview of the sending workspace');
      expectThat((mine.body?.totals?.sent ?? 0) >= t.sent, msg`the overview of the workspace that sent ${t.sent} emails today shows totals.sent ${mine.body?.totals?.sent}`, mine);
      const theirs = await ok2xx(overview(ctx, fresh.api, { start: addDays(today, -1), end: today }), 'overview of another workspace');
      expectThat(theirs.body?.totals?.sent === 0 && theirs.body?.activeCampaigns === 0 && (theirs.body?.topCampaigns ?? []).length === 0, msg`a workspace without campaigns should show nothing, its overview shows ${JSON.stringify({ sent: theirs.body?.totals?.sent, activeCampaigns: theirs.body?.activeCampaigns, topCampaigns: theirs.body?.topCampaigns?.length })}`, theirs);
    },
  },
  ...ANSWER_CHECKS,
  ...RULE_CHECKS,
  ...WINDOW_COUNT_CHECKS,
];
