import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectThat, msg } from '../../lib/expect.ts';
import { allLeads, getMailbox, opRequest } from '../resources/lib.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, Driver, awayFromMidnight, contentOf, launchedAtOnce, leadAddresses, minuteOfDay, openSchedule, sendingMailbox, sendingMailboxes, sentBy, workspaceZone, type Arrival, type LaunchOptions, type SendingMailbox, launchBody } from './lib.ts';
import { dayNumber } from '../resources/campaigns.ts';
import { holdEach } from '../../lib/claims.ts';
import { dateIn } from '../../lib/target-clock.ts';
import { expectCoarsenedTraffic } from '../analytics/rules.ts';

// When a campaign sends (2.1 gap and cap, 2.5 schedule and step delays, 3.1 resume, 3.2 paused
// and deleted mailboxes). Time is the control clock's: these checks run alone (solo) because they
// move the target's time, and skip without the control API (real time would take hours).

const FEATURES = ['control', 'sinks', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The follow-up's delay in sendingStarted; a stop is watched past it (WATCH_AFTER_STOP_MINUTES). */
const FOLLOW_UP_HOURS = 1;
const WATCH_AFTER_STOP_MINUTES = 90;

const fmt = (ms: number) => new Date(ms).toISOString();
const stepOf = (a: Arrival) => /Step(\d+)/.exec(a.m.subject ?? '')?.[1];

async function statusView(api: ApiClient, id: string) {
  const r = await api.get(`/v1/campaigns/${id}/status`);
  expect2xx(r, 'GET /v1/campaigns/{id}/status');
  return r;
}

/** Two steps (`Step0`, `Step1` in the subjects), the second `delayHours` after the first. */
function twoSteps(ctx: CheckContext, delayHours: number) {
  return [
    { subject: `Step0 ${ctx.prefix}`, body: '<p>First step</p>' },
    { subject: `Step1 ${ctx.prefix}`, body: '<p>Second step</p>', delayDays: 0, delayHours },
  ];
}

/** The delay of delayedSteps' second step: delayDays 1 and delayHours 2. */
const DELAY_MS = 26 * HOUR;

/** Two steps (`Step0`, `Step1`), the second a day and two hours after the first. */
function delayedSteps(ctx: CheckContext) {
  return [
    { subject: `Step0 ${ctx.prefix}`, body: '<p>First step</p>' },
    { subject: `Step1 ${ctx.prefix}`, body: '<p>Second step</p>', delayDays: 1, delayHours: 2 },
  ];
}

/**
 * A mailbox and a started single-mailbox campaign of two steps (the second FOLLOW_UP_HOURS after
 * the first) whose first step has reached its first lead: from then on the mailbox owes both new
 * leads (first steps) and a thread it started (a follow-up), so a stop must silence both.
 */
async function sendingStarted(ctx: CheckContext, leads: number, gapMinutes: number) {
  const ws = await ctx.workspace();
  const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: gapMinutes, maxEmailsPerDay: 200 });
  const drv = new Driver(ctx, box.sink, sentBy(box));
  await awayFromMidnight(ctx, drv, ['UTC', await workspaceZone(ws)], 120, 4 * 60);
  const addresses = leadAddresses(ctx, leads);
  const c = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: addresses, steps: twoSteps(ctx, FOLLOW_UP_HOURS) });
  const first = await drv.until(() => drv.arrivals().length > 0, { stepMs: MINUTE, horizonMs: 30 * MINUTE, what: 'the first email' });
  expectThat(first, msg`a started campaign sent nothing within 30 minutes of target time (window open, ${leads} leads)`, c.res);
  return { ws, box, drv, c, addresses };
}

/** Of `got`, nothing may have left strictly after `stop` (see expectNothingAfter). */
function nothingFrom(got: Arrival[], stop: number, what: string): void {
  const late = got.filter((a) => a.lo > stop);
  expectThat(late.length === 0, msg`${what}: ${late.length} email(s) were sent after it (first to ${late[0]?.m.envelope.rcptTo.join(', ')}, sent between ${late[0] ? fmt(late[0].lo) : ''} and ${late[0] ? fmt(late[0].hi) : ''})`);
}

/** After `stop` (target time), the check watches `minutes` more: nothing sent after it may arrive. */
async function expectNothingAfter(drv: Driver, stop: number, minutes: number, what: string): Promise<void> {
  await drv.until(() => false, { stepMs: 3 * MINUTE, horizonMs: minutes * MINUTE, what });
  // Left strictly after the stop: an arrival first seen at the stop's own instant may have been in
  // flight when the answer came (the clock did not move between them), and the mailbox's gap keeps
  // a target that ignores the stop from sending again at that same instant.
  nothingFrom(drv.arrivals(), stop, what);
}

/**
 * Creates and launches a campaign of a valid schedule in one request (launchedAtOnce): a 4xx to
 * the create or the start fails (it does not hide the schedule's rules). Its leads are the
 * addresses given (no listing: each request counts at quick).
 */
async function started(ctx: CheckContext, ws: Workspace, o: LaunchOptions): Promise<{ id: string; res: ApiResponse; addresses: string[] }> {
  return launchedAtOnce(ctx, ws, o);
}

/** `started`, or no campaign where the target refuses the create, the launch or the start with a 4xx (a schedule it may refuse). */
async function startedUnlessRefused(ctx: CheckContext, ws: Workspace, o: LaunchOptions): Promise<{ res: ApiResponse; addresses: string[] }> {
  const res = await ws.api.post('/v1/campaigns', { ...launchBody(ctx, o), launch: true });
  if (res.status >= 400 && res.status < 500) return { res, addresses: [] };
  expect2xx(res, 'setup: POST /v1/campaigns with launch true');
  if (res.body?.launched === true) return { res, addresses: o.leads };
  const id = res.body?.campaign?.id;
  expectThat(typeof id === 'string', msg`setup: POST /v1/campaigns answered without campaign.id`, res);
  // Not launched (launchError says why): a start may be refused for the same reason, then nothing is sent either.
  const start = await ws.api.post(`/v1/campaigns/${id}/start`);
  if (start.status >= 400 && start.status < 500) return { res: start, addresses: [] };
  expect2xx(start, 'setup: POST /v1/campaigns/{id}/start');
  return { res, addresses: o.leads };
}

/** A zone whose offset from UTC is not whole hours (and has no DST): a window read in UTC or whole hours off shows. */
const WINDOW_ZONE = 'Asia/Kolkata';
/** The windowed campaign's mailbox gap: two sends fit in its hour, a third would fall 20 minutes after it closes. */
const WINDOW_GAP_MINUTES = 40;

/**
 * The windowed campaign's first day (`got`, its emails then): its sends fall inside [opens, closes)
 * (the schedule's minutes in its own timezone), it begins there, and its third lead (a gap of
 * WINDOW_GAP_MINUTES after the second) waits for the next day's window.
 */
function windowKept(got: Arrival[], opens: number, closes: number, res: ApiResponse): void {
  const where = `the window ${fmt(opens)} .. ${fmt(closes)} (minutes in ${WINDOW_ZONE})`;
  const outside = got.filter((a) => a.hi < opens || a.lo >= closes);
  expectThat(outside.length === 0, msg`nothing should be sent outside ${where}: ${outside.map((a) => `sent between ${fmt(a.lo)} and ${fmt(a.hi)}`).join(', ')}`, res);
  expectThat(got.length >= 1, msg`${where} should see the campaign begin (3 leads, gap ${WINDOW_GAP_MINUTES} minutes), nothing arrived by ${fmt(closes + 30 * MINUTE)}`, res);
}

/** CAMP-SETTINGS-TEXTONLY-BEHAVIOUR: each email of a sendAsTextOnly campaign is text/plain, without an HTML part, and carries its step's text. */
async function textOnlyKept(got: Arrival[], token: string): Promise<void> {
  for (const a of got) {
    const c = await contentOf(a.m);
    expectThat(!c.html, msg`with sendAsTextOnly the email to ${a.m.envelope.rcptTo.join(', ')} should have no HTML part, it has one`);
    expectThat(/^text\/plain/i.test((a.m.header('content-type') ?? 'text/plain').trim()), msg`with sendAsTextOnly the email should be text/plain, Content-Type is ${JSON.stringify(a.m.header('content-type'))}`);
    expectThat(c.text.includes(token), msg`the text part should carry the step's text (${token})`);
  }
}

/** CAMP-SETTINGS-TRACKING-BEHAVIOUR: emails of campaigns with trackOpens and trackClicks false carry no image (open pixel) and their link as written. */
async function untracked(got: Arrival[], url: string): Promise<void> {
  for (const a of got) {
    const c = await contentOf(a.m);
    expectThat(c.html.includes(`href="${url}"`), msg`with trackClicks false the link should stay ${url}; the HTML part of the email to ${a.m.envelope.rcptTo.join(', ')} does not carry it as written`);
    const imgs = c.html.match(/<img\b/gi) ?? [];
    expectThat(imgs.length === 0, msg`with trackOpens false the email should carry no image (open pixel), the one to ${a.m.envelope.rcptTo.join(', ')} carries ${imgs.length}`);
  }
}

/**
 * A zone whose date runs ahead of UTC's for most of the UTC day (UTC+14, no daylight saving): from
 * UTC's 10:00 its date is UTC's next one. A schedule in it shows a target that takes the weekday,
 * or counts dailyLimit, on the UTC date.
 */
const AHEAD_ZONE = 'Pacific/Kiritimati';
const AHEAD_OFFSET = 14 * HOUR;

/**
 * Moves the clock an hour past UTC's next midnight (from `t0`, an hour when AHEAD_ZONE's date is
 * already UTC's next one) and watches two hours there: AHEAD_ZONE's own midnight is hours later.
 */
async function sameZoneDay(drv: Driver, t0: number): Promise<void> {
  const utcMidnight = Date.parse(dateIn(t0 + 24 * HOUR, 'UTC'));
  const zoneMidnight = Date.parse(dateIn(t0 + 24 * HOUR, AHEAD_ZONE)) - AHEAD_OFFSET;
  expectThat(zoneMidnight - utcMidnight >= 4 * HOUR, msg`setup: ${AHEAD_ZONE}'s next midnight (${fmt(zoneMidnight)}) should come hours after UTC's (${fmt(utcMidnight)})`);
  await drv.advance(utcMidnight + HOUR - (await drv.now()));
  await drv.until(() => false, { stepMs: 20 * MINUTE, horizonMs: 2 * HOUR, what: `the hours between UTC's midnight and ${AHEAD_ZONE}'s` });
}

export const TIMING_CHECKS: Check[] = [
  {
    id: 'SEND/sequence',
    title: 'SHOULD send every step to every lead once, in order; campaign metrics.sent and the leads show what was sent',
    clauses: ['CAMP-SEQUENCE-SENT-ONCE', 'CAMP-METRICS-SENT-COUNT', 'LEAD-LASTCONTACTEDAT-SET'],
    level: 'SHOULD',
    features: [...FEATURES],
    solo: true,
    budget: 40,
    async run(ctx) {
      const ws = await ctx.workspace();
      const boxes = await sendingMailboxes(ctx, ws, 2, { sendingGapMinutes: 1 });
      const drv = new Driver(ctx, boxes[0]!.sink, sentBy(...boxes));
      await awayFromMidnight(ctx, drv, ['UTC', await workspaceZone(ws)], 60, 4 * 60);
      const addresses = leadAddresses(ctx, 3);
      const c = await launchedAtOnce(ctx, ws, { accounts: boxes.map((b) => b.id), leads: addresses, steps: twoSteps(ctx, 1) });
      const all = () => addresses.every((a) => drv.to(a).length >= 2);
      await drv.until(all, { stepMs: 2 * MINUTE, horizonMs: 3 * HOUR, what: 'both steps to every lead' });
      await drv.until(() => false, { stepMs: 10 * MINUTE, horizonMs: HOUR, what: 'a quiet hour after the last step' });
      for (const a of addresses) {
        const got = drv.to(a);
        const s0 = got.filter((x) => stepOf(x) === '0');
        const s1 = got.filter((x) => stepOf(x) === '1');
        expectThat(s0.length === 1 && s1.length === 1, msg`${a} should receive each of the 2 steps once within 4 hours (delay 1 h), got step 1 x${s0.length} and step 2 x${s1.length}`, c.res);
        expectThat(s1[0]!.hi >= s0[0]!.lo, msg`step 2 should go to ${a} after step 1: step 2 left before ${fmt(s1[0]!.hi)}, step 1 after ${fmt(s0[0]!.lo)}`);
      }
      const sent = drv.arrivals().filter((x) => stepOf(x) !== undefined && addresses.some((a) => x.m.envelope.rcptTo.includes(a))).length;
      const view = await statusView(ws.api, c.id);
      expectThat(view.body?.metrics?.sent === sent, msg`campaign metrics.sent should count the ${sent} emails that reached the sink, it is ${view.body?.metrics?.sent}`, view);
      // The leads read in one listing, each found by its address.
      const listed = await allLeads(ctx, ws.api, c.id);
      for (const a of addresses) {
        const lead = listed.find((l: any) => String(l?.email).toLowerCase() === a);
        expectThat(lead !== undefined, msg`lead ${a} is no longer listed in campaign ${c.id}`);
        expectThat(typeof lead.lastContactedAt === 'string' && !Number.isNaN(Date.parse(lead.lastContactedAt)), msg`lead ${a} should show lastContactedAt once emailed, got ${JSON.stringify(lead.lastContactedAt)}`);
        expectThat(lead.metrics?.sent === 2, msg`lead ${a} should show metrics.sent 2 after both steps, got ${JSON.stringify(lead.metrics)}`);
      }
    },
  },
  {
    id: 'SEND/sequence-delay',
    title: "MUST keep a step's delay after the step before went to that lead: with the leads' first steps a day apart (a mailbox cap of 1 a day), a second step of delayDays 1 and delayHours 2 goes to each lead no sooner than 26 hours after its own first (an hour's slack for a DST change); a follow-up carries the mailbox's Reply-To, signature and display name too, and its bcc gets a blind copy of it; a long window of the sends' time series asked by day is coarsened, its points spaced by the interval it states (profile: analytics.coarsening)",
    // ANLT-TS-COARSEN: its sends fall on several days, so a long window's points show their interval (expectCoarsenedTraffic).
    clauses: ['CAMP-SEQUENCE-DELAY', 'ACCT-REPLYTO-BEHAVIOUR', 'ANLT-TS-COARSEN', 'ACCT-SIGNATURE-APPENDED', 'ACCT-DISPLAYNAME-SENDER', 'ACCT-BCC-BEHAVIOUR'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 12,
    async run(ctx) {
      const ws = await ctx.workspace();
      // A cap of one campaign email a day sends lead B its first step on the mailbox's next day, at
      // least 3 hours after lead A's (in either zone the target may count a mailbox's day in): a
      // second step timed from the campaign's start or first send reaches B too early.
      // A replyToAddress, a signature and a displayName of its own: a follow-up step is outgoing mail too (2.1).
      const replyTo = `${ctx.prefix}replies-${ctx.seed.toString(36)}@replies.sink.test`.toLowerCase();
      const sig = `Sig-${ctx.prefix}${ctx.seed.toString(36)}`;
      const name = `Fay Sender${ctx.seed.toString(36)}`;
      const bcc = `${ctx.prefix}bcc-${ctx.seed.toString(36)}@bcc.sink.test`.toLowerCase();
      const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1, maxEmailsPerDay: 1, replyToAddress: replyTo, signature: `<p>${sig}</p>`, displayName: name, bcc });
      const drv = new Driver(ctx, box.sink, sentBy(box));
      const zone = await workspaceZone(ws);
      await awayFromMidnight(ctx, drv, ['UTC', zone], 180, 0);
      const [a, b] = leadAddresses(ctx, 2) as [string, string];
      const c = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: [a, b], steps: delayedSteps(ctx) });
      const firstA = await drv.until(() => drv.to(a).length + drv.to(b).length >= 1, { stepMs: MINUTE, horizonMs: 30 * MINUTE, what: 'the first step to a lead' });
      expectThat(firstA, msg`a started campaign did not send its first step within 30 minutes (gap 1 minute)`, c.res);
      const firstB = await drv.until(() => drv.to(a).length >= 1 && drv.to(b).length >= 1, { stepMs: 10 * MINUTE, horizonMs: 26 * HOUR, what: "the first step to the other lead on the mailbox's next day" });
      expectThat(firstB, msg`the first step did not reach both leads within 26 hours (one campaign email a day)`, c.res);
      // The leads are spread: the cap goes up so the second steps wait only for their delay.
      expect2xx(await ws.api.patch(`/v1/accounts/${box.id}`, { maxEmailsPerDay: 20 }), 'setup: PATCH /v1/accounts/{id} maxEmailsPerDay 20');
      // Steps of 20 minutes: a second step that ignores the hours (24 h) or the days (2 h) shows as early.
      await drv.until(() => [a, b].every((x) => drv.to(x).length >= 2), { stepMs: 20 * MINUTE, horizonMs: DELAY_MS + 4 * HOUR, what: 'the second step after its delay' });
      const seen = [a, b].map((x) => ({ a: x, s0: drv.to(x).filter((m) => stepOf(m) === '0'), s1: drv.to(x).filter((m) => stepOf(m) === '1') }));
      // An hour of slack: a day counted in a zone's local time lasts 23 hours across a DST change.
      for (const { a: x, s0, s1 } of seen.filter((v) => v.s0.length && v.s1.length)) {
        expectThat(s1[0]!.hi - s0[0]!.lo >= DELAY_MS - HOUR, msg`the second step (delayDays 1, delayHours 2) went to ${x} less than 25 hours after its own first step: the first left after ${fmt(s0[0]!.lo)}, the second before ${fmt(s1[0]!.hi)}`, c.res);
        const rt = s1[0]!.m.header('reply-to');
        expectThat((rt ?? '').toLowerCase().includes(replyTo), msg`the mailbox's replyToAddress ${replyTo} must be where replies go (Reply-To) on the follow-up step to ${x} too, got Reply-To ${JSON.stringify(rt)}`, c.res);
        const body = await contentOf(s1[0]!.m);
        expectThat(body.html.includes(sig) || body.text.includes(sig), msg`the mailbox's signature (${sig}) must be appended to the follow-up step to ${x} too, it is not in the body`, c.res);
        expectThat((s1[0]!.m.header('from') ?? '').includes(name), msg`the mailbox's displayName "${name}" is the sender display name on the follow-up step to ${x} too, From is ${JSON.stringify(s1[0]!.m.header('from'))}`, c.res);
      }
      // 2.1: a blind copy of every email, the follow-ups too (in the lead's transaction, or a message of its own through the same login).
      const followUps = seen.filter((v) => v.s1.length).length;
      const copies = box.sink.messages((x) => !x.injected && x.session.authUser === box.smtpUser && x.envelope.rcptTo.some((r) => r.toLowerCase() === bcc) && /Step1/.test(x.subject ?? ''));
      expectThat(copies.length >= followUps, msg`the mailbox's bcc ${bcc} must receive a blind copy of each follow-up step: ${followUps} went, ${copies.length} copies were addressed to it (envelope)`, c.res);
      // The leads' first steps went on two days and their second steps later still: sends on several days.
      await expectCoarsenedTraffic(ctx, ws.api, c.id, zone);
      const missing = seen.filter((v) => !v.s1.length).map((v) => v.a);
      // Whether a step goes at all is SEND/sequence's reading: here an absent step proves no delay.
      if (missing.length) skip(`the second step did not reach ${missing.join(', ')} within 4 hours after its delay of 26 hours: the delay cannot be observed there`);
    },
  },
  {
    id: 'SEND/gap-and-cap',
    title: 'MUST keep a mailbox shared by two campaigns to its sendingGapMinutes between any two sends and to maxEmailsPerDay campaign sends a day, follow-up steps included; its mail, the mailbox having no replyToAddress, takes replies to the mailbox itself',
    clauses: ['ACCT-SENDINGGAP-ENFORCED', 'ACCT-MAXEMAILSPERDAY-CAP', 'ACCT-IN-REPLYTO-OMIT-SELF'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 30,
    async run(ctx) {
      const GAP = 10;
      const CAP = 4;
      const ws = await ctx.workspace();
      const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: GAP, maxEmailsPerDay: CAP });
      const drv = new Driver(ctx, box.sink, sentBy(box));
      // Every send of the check falls on one day in any zone the target could count days in.
      await awayFromMidnight(ctx, drv, ['UTC', await workspaceZone(ws)], 60, 3 * 60);
      // Follow-ups count too: A's second step is due at once after its first (2 leads x 2 steps), B has 2 first steps: 6 due.
      const followUp = { subject: `Step1 A ${ctx.prefix}`, body: '<p>A again</p>', delayDays: 0, delayHours: 0 };
      const a = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: leadAddresses(ctx, 2, 'a'), steps: [{ subject: `Step0 A ${ctx.prefix}`, body: '<p>A</p>' }, followUp] });
      const b = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: leadAddresses(ctx, 2, 'b'), steps: [{ subject: `Step0 B ${ctx.prefix}`, body: '<p>B</p>' }] });
      await drv.until(() => false, { stepMs: MINUTE, horizonMs: (GAP * (CAP + 2) + 5) * MINUTE, what: 'the shared mailbox sending' });
      const got = drv.arrivals().sort((x, y) => x.hi - y.hi);
      expectThat(got.length > 0, msg`two started campaigns sharing a mailbox sent nothing in ${GAP * (CAP + 2) + 5} minutes`, a.res, b.res);
      expectThat(got.length <= CAP, msg`maxEmailsPerDay ${CAP}: the mailbox sent ${got.length} campaign emails within ${GAP * (CAP + 2) + 5} minutes of one day (6 due over two campaigns, 2 of them follow-up steps)`, a.res, b.res);
      for (let i = 1; i < got.length; i++) {
        const [p, q] = [got[i - 1]!, got[i]!];
        expectThat(q.hi - p.lo >= GAP * MINUTE, msg`sendingGapMinutes ${GAP}: two sends of the mailbox (to ${p.m.envelope.rcptTo[0]} and ${q.m.envelope.rcptTo[0]}) left at most ${Math.round((q.hi - p.lo) / MINUTE)} minute(s) apart (after ${fmt(p.lo)}, before ${fmt(q.hi)})`);
      }
      // Created without replyToAddress: replies go to the mailbox itself (2.2), so no Reply-To names another address.
      const elsewhere = got.map((x) => x.m.header('reply-to') ?? '').filter((rt) => rt.trim() !== '' && !rt.toLowerCase().includes(box.address.toLowerCase()));
      expectThat(elsewhere.length === 0, msg`the mailbox has no replyToAddress, so replies go to the mailbox itself (${box.address}), yet its emails carry Reply-To ${JSON.stringify(elsewhere[0])}`, a.res, b.res);
      expectThat(got.length >= 2, msg`the shared mailbox sent ${got.length} email(s) in ${GAP * (CAP + 2) + 5} minutes with ${CAP} allowed a day and 6 due: the gap cannot be observed`, a.res, b.res);
    },
  },
  {
    id: 'SEND/slow-ramp',
    title: 'SHOULD ramp the campaign volume of a mailbox with campaignSlowRamp: on its first day in a campaign it sends fewer than a twin mailbox without it, and it keeps sending the next day',
    clauses: ['ACCT-SLOWRAMP-BEHAVIOUR'],
    level: 'SHOULD',
    features: [...FEATURES],
    solo: true,
    budget: 36,
    async run(ctx) {
      // How a ramp grows is the target's choice (declarations.sending may describe it): the kit
      // only compares two mailboxes alike but for campaignSlowRamp, each in a campaign of its own
      // with more leads than the daily cap, over one day and the next.
      const CAP = 30;
      const LEADS = 40;
      const ws = await ctx.workspace();
      const [ramp, twin] = (await sendingMailboxes(ctx, ws, 2, (i) => ({ sendingGapMinutes: 1, maxEmailsPerDay: CAP, campaignSlowRamp: i === 0 })) as [SendingMailbox, SendingMailbox]);
      const drv = new Driver(ctx, ramp.sink, sentBy(ramp, twin));
      // Both days' sending falls on one day in any zone the target could count days in.
      await awayFromMidnight(ctx, drv, ['UTC', await workspaceZone(ws)], 60, 3 * 60);
      const steps = [{ subject: `Step0 ${ctx.prefix}`, body: '<p>Ramp</p>' }];
      const a = await launchedAtOnce(ctx, ws, { accounts: [ramp.id], leads: leadAddresses(ctx, LEADS, 'ramp'), steps });
      await launchedAtOnce(ctx, ws, { accounts: [twin.id], leads: leadAddresses(ctx, LEADS, 'twin'), steps });
      const t0 = await drv.settle();
      await drv.until(() => false, { stepMs: MINUTE, horizonMs: 2 * HOUR, what: 'the first day of both mailboxes in their campaigns' });
      const dayOneEnd = await drv.now();
      const from = (box: { smtpUser: string }) => drv.arrivals((m) => m.session.authUser === box.smtpUser);
      const [first, twinFirst] = [from(ramp).length, from(twin).length];
      if (twinFirst < CAP) skip(`the mailbox without campaignSlowRamp sent ${twinFirst} of its maxEmailsPerDay ${CAP} in 2 hours (gap 1 minute, ${LEADS} leads): the ramp cannot be told from the target's own pace`);
      expectThat(first < twinFirst, msg`with campaignSlowRamp the mailbox should send fewer campaign emails on its first day in a campaign than its twin without it: both sent ${first} of maxEmailsPerDay ${CAP} within 2 hours`, a.res);
      // The next day, at the same time of day.
      await drv.advance(t0 + 24 * HOUR - (await drv.now()));
      await drv.until(() => false, { stepMs: MINUTE, horizonMs: HOUR, what: 'the second day of the slow-ramp mailbox' });
      const second = from(ramp).filter((x) => x.lo >= dayOneEnd).length;
      expectThat(second > 0 && second >= first, msg`a ramp should keep growing: the slow-ramp mailbox sent ${first} campaign email(s) on its first day and ${second} within the first hour of the next (${LEADS - first} leads left, maxEmailsPerDay ${CAP})`, a.res);
    },
  },
  {
    id: 'SEND/window',
    title: "SHOULD send nothing before the schedule's window opens, and begin when it opens, as nextScheduleOpensAt announced",
    clauses: ['CAMP-SCHEDULE-WINDOW', 'CAMP-STATUS-NEXTOPENS-SET'],
    level: 'SHOULD',
    features: [...FEATURES],
    solo: true,
    budget: 24,
    async run(ctx) {
      const ws = await ctx.workspace();
      const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 });
      const drv = new Driver(ctx, box.sink, sentBy(box));
      await awayFromMidnight(ctx, drv, ['UTC'], 60, 5 * 60);
      const now = await drv.now();
      const m = minuteOfDay(now, 'UTC');
      const opens = now - (now % MINUTE) + 120 * MINUTE;
      const schedule = openSchedule(ctx, 'UTC', m + 120, m + 180);
      const c = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: leadAddresses(ctx, 2), steps: [{ subject: `Step0 ${ctx.prefix}`, body: '<p>Window</p>' }], schedule });
      const view = await statusView(ws.api, c.id);
      const announced = Date.parse(view.body?.nextScheduleOpensAt ?? '');
      expectThat(view.body?.isWithinSchedule === false, msg`before its window the campaign should not be within schedule, isWithinSchedule is ${view.body?.isWithinSchedule}`, view);
      expectThat(Math.abs(announced - opens) <= 2 * MINUTE, msg`nextScheduleOpensAt should announce the window opening at ${fmt(opens)} (minute ${m + 120} UTC), got ${JSON.stringify(view.body?.nextScheduleOpensAt)}`, view);
      await drv.until(() => drv.arrivals().length >= 2, { stepMs: 5 * MINUTE, horizonMs: 3 * HOUR, what: 'the window opening' });
      const got = drv.arrivals();
      const early = got.filter((a) => a.hi < opens);
      expectThat(early.length === 0, msg`nothing should be sent before the window opens at ${fmt(opens)}: ${early.length} email(s) arrived before`);
      expectThat(got.length >= 1 && got.every((a) => a.lo <= opens + 60 * MINUTE), msg`the window ${fmt(opens)} to ${fmt(opens + 60 * MINUTE)} should see the 2 leads emailed, ${got.length} arrived (${got.map((a) => fmt(a.hi)).join(', ')})`, view);
    },
  },
  {
    // A composite probe: five campaigns of two mailboxes over two days hold the whole schedule and,
    // on the same emails, the settings that shape them and the count the campaign shows. Each claim
    // names its clause and what it held (holdEach).
    id: 'SEND/schedule-limits',
    title: "SHOULD keep to the whole schedule at the sink, its days those of its own timezone: only inside sendingMinutesStart..End in the schedule's timezone, at most dailyLimit a day (counted again only when that zone's date turns, not UTC's), nothing before startDate or after endDate, nothing on a day outside sendingDays (the weekday of the zone's date, not of UTC's) (a valid schedule refused with a 4xx fails, an endDate already past may be refused); on the same emails, sendAsTextOnly sends text/plain without an HTML part, tracking off sends no open pixel and leaves links as written, and campaign metrics.sent counts the emails the sink saw",
    clauses: ['CAMP-SCHEDULE-WINDOW', 'CAMP-SETTINGS-TEXTONLY-BEHAVIOUR', 'CAMP-SETTINGS-TRACKING-BEHAVIOUR', 'CAMP-METRICS-SENT-COUNT'],
    level: 'SHOULD',
    features: [...FEATURES],
    solo: true,
    budget: 30,
    async run(ctx) {
      const ws = await ctx.workspace();
      // Two mailboxes in one request: the windowed campaign's, with its gap, and one the four other
      // campaigns share (tomorrow it owes three of them up to 7 emails: no slow ramp, so only the
      // schedules bound them).
      const [shared, windowBox] = (await sendingMailboxes(ctx, ws, 2, (i) => ({ sendingGapMinutes: i === 1 ? WINDOW_GAP_MINUTES : 1, maxEmailsPerDay: 200, campaignSlowRamp: false }))) as [SendingMailbox, SendingMailbox];
      const drv = new Driver(ctx, shared.sink, sentBy(shared, windowBox));
      // Today's and tomorrow's observations fall at the same times of day, away from midnight in UTC
      // and the zones of the schedules, at an hour when AHEAD_ZONE's date is already UTC's next one.
      await awayFromMidnight(ctx, drv, ['UTC', WINDOW_ZONE, AHEAD_ZONE], 60, 3 * 60, (t) => dateIn(t, AHEAD_ZONE) !== dateIn(t, 'UTC'));
      const now = await drv.now();
      expectThat(dateIn(now, AHEAD_ZONE) !== dateIn(now, 'UTC'), msg`setup: the target's clock should have been moved to an hour when ${AHEAD_ZONE}'s date is not UTC's, it is ${fmt(now)}`);
      const link = `https://example.com/${ctx.prefix}schedule-${ctx.seed.toString(36)}`;
      const step = [{ subject: `Schedule ${ctx.prefix}`, body: `<p>Schedule, <a href="${link}">read</a></p>` }];
      const plain = `Plain${ctx.seed.toString(36)}`;
      const leads = (tag: string) => leadAddresses(ctx, 3, tag);
      // Open all day in AHEAD_ZONE but for the minutes around its midnight, which the observations keep clear
      // of (whether the end minute is in the window, and whether minutes run to 1439 or 1440, is not stated).
      // Text only: its emails show sendAsTextOnly.
      const capped = await started(ctx, ws, { accounts: [shared.id], leads: leads('cap'), steps: [{ subject: `Schedule ${ctx.prefix}`, body: `<p>${plain} <b>bold</b></p>` }], schedule: openSchedule(ctx, AHEAD_ZONE, 1, 1438, 1), settings: { sendAsTextOnly: true } });
      // Valid schedules: a 4xx to their create or start fails here (started), it does not hide the dates.
      const later = await started(ctx, ws, { accounts: [shared.id], leads: leads('later'), steps: step, schedule: { ...openSchedule(ctx), startDate: fmt(now + 23 * HOUR) } });
      // An endDate already past may be refused (a 4xx): then nothing is sent either.
      const ended = await startedUnlessRefused(ctx, ws, { accounts: [shared.id], leads: leads('ended'), steps: step, schedule: { ...openSchedule(ctx), endDate: fmt(now - 24 * HOUR) } });
      // Its one day is the weekday of AHEAD_ZONE's next date, two days after UTC's date now.
      const tomorrow = new Date(Date.parse(dateIn(now + 24 * HOUR, AHEAD_ZONE))).getUTCDay();
      const dayOff = await started(ctx, ws, { accounts: [shared.id], leads: leads('dayoff'), steps: step, schedule: { ...openSchedule(ctx, AHEAD_ZONE), sendingDays: [dayNumber(ctx, tomorrow)] } });
      // The window opens 30 minutes from now in WINDOW_ZONE, for an hour.
      const local = minuteOfDay(now, WINDOW_ZONE);
      const opens = now - (now % MINUTE) + 30 * MINUTE;
      const windowed = await started(ctx, ws, { accounts: [windowBox.id], leads: leads('window'), steps: step, schedule: openSchedule(ctx, WINDOW_ZONE, local + 30, local + 90) });
      const count = (c: { addresses: string[] }) => c.addresses.reduce((n, a) => n + drv.to(a).length, 0);
      await drv.until(() => false, { stepMs: 10 * MINUTE, horizonMs: 2 * HOUR, what: 'two hours of today' });
      const today = { capped: count(capped), later: count(later), dayOff: count(dayOff) };
      const windowSeen = windowed.addresses.flatMap((a) => drv.to(a));
      // UTC's date has turned, AHEAD_ZONE's has not: still the schedule's first day.
      await sameZoneDay(drv, now);
      const zoneDay = { at: await drv.now(), capped: count(capped), dayOff: count(dayOff) };
      // Tomorrow in both, at the same time of day: the later campaign and the one of tomorrow's day begin.
      await drv.advance(now + 24 * HOUR - (await drv.now()));
      await drv.until(() => count(later) > 0 && count(dayOff) > 0, { stepMs: 10 * MINUTE, horizonMs: 3 * HOUR, what: "tomorrow's sending" });
      const end = await drv.now();
      // Read after the last settle: what the campaign shows of the emails the sink saw by then.
      const status = await statusView(ws.api, capped.id);
      const html = [later, dayOff, windowed].flatMap((c) => c.addresses.flatMap((a) => drv.to(a)));
      await holdEach([
        {
          clause: 'CAMP-SCHEDULE-WINDOW',
          holds: () => {
            expectThat(today.capped === 1, msg`dailyLimit 1 (window open all day, 3 leads): the campaign should send exactly 1 email today, it sent ${today.capped}`, capped.res);
            expectThat(zoneDay.capped === 1, msg`dailyLimit 1 counts the days of ${AHEAD_ZONE}: past UTC's midnight, before ${AHEAD_ZONE}'s, the campaign should still have sent 1 email, it sent ${zoneDay.capped} by ${fmt(zoneDay.at)}`, capped.res);
            expectThat(count(capped) <= 2, msg`dailyLimit 1 over two days: at most 2 emails, the campaign sent ${count(capped)}`, capped.res);
          },
        },
        {
          clause: 'CAMP-SCHEDULE-WINDOW',
          holds: () => {
            expectThat(today.later === 0, msg`startDate ${fmt(now + 23 * HOUR)} is tomorrow: nothing should be sent today, ${today.later} email(s) were`, later.res);
            expectThat(count(later) > 0, msg`past its startDate ${fmt(now + 23 * HOUR)} the campaign should send, nothing arrived by ${fmt(end)}`, later.res);
            expectThat(count(ended) === 0, msg`endDate ${fmt(now - 24 * HOUR)} has passed: nothing should be sent, ${count(ended)} email(s) were by ${fmt(end)}`, ended.res);
          },
        },
        {
          clause: 'CAMP-SCHEDULE-WINDOW',
          holds: () => {
            expectThat(today.dayOff === 0, msg`sendingDays holds only tomorrow in ${AHEAD_ZONE}: nothing should be sent today, ${today.dayOff} email(s) were`, dayOff.res);
            expectThat(zoneDay.dayOff === 0, msg`sendingDays holds only tomorrow in ${AHEAD_ZONE}, whose date has not turned: nothing should be sent, ${zoneDay.dayOff} email(s) were by ${fmt(zoneDay.at)}`, dayOff.res);
            expectThat(count(dayOff) > 0, msg`on its sending day (${AHEAD_ZONE}'s date ${dateIn(now + 24 * HOUR, AHEAD_ZONE)}) the campaign should send, nothing arrived by ${fmt(end)}`, dayOff.res);
          },
        },
        { clause: 'CAMP-SCHEDULE-WINDOW', holds: () => windowKept(windowSeen, opens, opens + 60 * MINUTE, windowed.res) },
        { clause: 'CAMP-SETTINGS-TEXTONLY-BEHAVIOUR', holds: () => textOnlyKept(capped.addresses.flatMap((a) => drv.to(a)), plain) },
        { clause: 'CAMP-SETTINGS-TRACKING-BEHAVIOUR', holds: () => untracked(html, link) },
        {
          clause: 'CAMP-METRICS-SENT-COUNT',
          holds: () => expectThat(status.body?.metrics?.sent === count(capped), msg`campaign metrics.sent should count the ${count(capped)} email(s) of the campaign that reached the sink, it is ${JSON.stringify(status.body?.metrics?.sent)}`, status),
        },
      ]);
    },
  },
  {
    id: 'SEND/resume-continues',
    title: 'MUST continue a resumed campaign where it left off: the remaining steps go out, nothing already sent goes again',
    clauses: ['STATE-CAMP-RESUME-CONTINUES', 'STATE-CAMP-RESUME-FROM-PAUSED', 'SVC-CAMP-START-RESUME-STATUS'],
    level: 'MUST',
    features: [...FEATURES, 'op:campaigns.pause'],
    solo: true,
    budget: 30,
    async run(ctx) {
      const ws = await ctx.workspace();
      const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 });
      const drv = new Driver(ctx, box.sink, sentBy(box));
      // The schedule is open all day in UTC: its minutes are kept clear of UTC's midnight (4 emails stay far below any daily cap).
      await awayFromMidnight(ctx, drv, ['UTC'], 60, 6 * 60);
      const addresses = leadAddresses(ctx, 2);
      const c = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: addresses, steps: twoSteps(ctx, 1) });
      const firstDone = await drv.until(() => addresses.every((a) => drv.to(a).length >= 1), { stepMs: MINUTE, horizonMs: 30 * MINUTE, what: 'the first step to both leads' });
      expectThat(firstDone, msg`a started campaign did not send its first step to 2 leads within 30 minutes (gap 1 minute)`, c.res);
      const paused = await ws.api.request(opRequest(ctx, 'campaigns.pause', { id: c.id }));
      expect2xx(paused, 'pause the campaign (referenced campaigns.pause)');
      await drv.until(() => false, { stepMs: 15 * MINUTE, horizonMs: 2 * HOUR, what: 'the pause' });
      const resumed = await ws.api.post(`/v1/campaigns/${c.id}/resume`);
      expect2xx(resumed, 'POST /v1/campaigns/{id}/resume of the paused campaign');
      await drv.until(() => addresses.every((a) => drv.to(a).length >= 2), { stepMs: 2 * MINUTE, horizonMs: 2 * HOUR, what: 'the second step after the resume' });
      await drv.until(() => false, { stepMs: 10 * MINUTE, horizonMs: HOUR, what: 'a quiet hour' });
      for (const a of addresses) {
        const got = drv.to(a);
        const s0 = got.filter((x) => stepOf(x) === '0').length;
        const s1 = got.filter((x) => stepOf(x) === '1').length;
        expectThat(s0 === 1, msg`after the resume ${a} received step 1 ${s0} times in all: an email already sent must not go again`, resumed);
        expectThat(s1 === 1, msg`after the resume ${a} should receive the remaining step 2 once, got it ${s1} times within 2 hours`, resumed);
      }
    },
  },
  {
    // A composite probe: two mailboxes, one paused and one deleted once each has sent, in one
    // scenario hold what SEND/mailbox-deleted holds with a scenario of its own. Each claim names its
    // clause (holdEach).
    id: 'SEND/mailbox-paused',
    title: 'MUST send nothing more from a mailbox once it is paused (campaigns skip it), and stop sending from a mailbox immediately when it is deleted and remove it: of two mailboxes sending, the one paused and the one deleted send no first step to a new lead and no follow-up in a thread they started, and the deleted one is no longer read',
    clauses: ['STATE-ACCT-PAUSE-SKIPPED', 'STATE-ACCT-DELETE-STOPS-SENDING', 'STATE-ACCT-DELETE-REMOVED'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 24,
    async run(ctx) {
      const ws = await ctx.workspace();
      const [paused, deleted] = (await sendingMailboxes(ctx, ws, 2, { sendingGapMinutes: 10, maxEmailsPerDay: 200 })) as [SendingMailbox, SendingMailbox];
      const drv = new Driver(ctx, paused.sink, sentBy(paused, deleted));
      // The campaign's schedule is open all day in UTC: its minutes are kept clear of UTC's midnight.
      await awayFromMidnight(ctx, drv, ['UTC'], 120, 4 * 60);
      // A campaign of its own for each mailbox, of three leads: each mailbox owes new leads (first
      // steps) and a thread it started (a follow-up) when it stops, whatever order a target takes
      // a campaign's leads in when one of them finds no mailbox.
      const steps = twoSteps(ctx, FOLLOW_UP_HOURS);
      const cs = [await launchedAtOnce(ctx, ws, { accounts: [paused.id], leads: leadAddresses(ctx, 3, 'paused'), steps }), await launchedAtOnce(ctx, ws, { accounts: [deleted.id], leads: leadAddresses(ctx, 3, 'deleted'), steps })];
      const from = (box: SendingMailbox) => drv.arrivals((m) => m.session.authUser === box.smtpUser);
      await drv.until(() => from(paused).length > 0 && from(deleted).length > 0, { stepMs: MINUTE, horizonMs: 30 * MINUTE, what: 'the first email of each mailbox' });
      expectThat(from(paused).length > 0 && from(deleted).length > 0, msg`each of two started campaigns should send within 30 minutes of target time (window open, 3 leads each): the mailboxes sent ${from(paused).length} and ${from(deleted).length}`, ...cs.map((c) => c.res));
      const p = await ws.api.post(`/v1/accounts/${paused.id}/pause`);
      const d = await ws.api.delete(`/v1/accounts/${deleted.id}`);
      // Sent after both answers: sent after the mailboxes stopped (what was in flight left before; the clock did not move between them).
      const stop = await drv.now();
      expect2xx(p, 'POST /v1/accounts/{id}/pause of a sending mailbox');
      expect2xx(d, 'DELETE /v1/accounts/{id} of a sending mailbox');
      await drv.until(() => false, { stepMs: 3 * MINUTE, horizonMs: WATCH_AFTER_STOP_MINUTES * MINUTE, what: 'the mailboxes stopped' });
      // An active mailbox with sent mail is removed like a fresh one (3.2: any -> removed).
      const verification = await ws.api.get(`/v1/accounts/${deleted.id}/verification`);
      const read = ctx.profile.operations['accounts.get'] ? await getMailbox(ctx, ws.api, deleted.id) : undefined;
      const due = `(a follow-up to its first lead was due ${FOLLOW_UP_HOURS} h after that lead's first step)`;
      await holdEach([
        { clause: 'STATE-ACCT-PAUSE-SKIPPED', holds: () => nothingFrom(from(paused), stop, `the mailbox paused at ${fmt(stop)} ${due}`) },
        { clause: 'STATE-ACCT-DELETE-STOPS-SENDING', holds: () => nothingFrom(from(deleted), stop, `the mailbox deleted at ${fmt(stop)} ${due}`) },
        {
          clause: 'STATE-ACCT-DELETE-REMOVED',
          holds: () => {
            expectError(verification, 404, ctx.profile, 'GET verification of the deleted sending mailbox', 'not_found');
            if (read) expectError(read, 404, ctx.profile, 'GET of the deleted sending mailbox', 'not_found');
          },
        },
      ]);
    },
  },
  {
    id: 'SEND/mailbox-deleted',
    title: 'MUST stop sending from a mailbox immediately when it is deleted, and remove it: no first step to a new lead, no follow-up in a thread it started, no read of it',
    clauses: ['STATE-ACCT-DELETE-STOPS-SENDING', 'STATE-ACCT-DELETE-REMOVED'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 26,
    async run(ctx) {
      const { ws, box, drv } = await sendingStarted(ctx, 4, 10);
      const r = await ws.api.delete(`/v1/accounts/${box.id}`);
      // Sent after the answer: sent after the mailbox stopped (what was in flight left before).
      const stop = await drv.now();
      expect2xx(r, 'DELETE /v1/accounts/{id} of the sending mailbox');
      await expectNothingAfter(drv, stop, WATCH_AFTER_STOP_MINUTES, `the mailbox deleted at ${fmt(stop)} (a follow-up to its first lead was due ${FOLLOW_UP_HOURS} h after that lead's first step)`);
      // An active mailbox with sent mail is removed like a fresh one (3.2: any -> removed).
      expectError(await ws.api.get(`/v1/accounts/${box.id}/verification`), 404, ctx.profile, 'GET verification of the deleted sending mailbox', 'not_found');
      if (ctx.profile.operations['accounts.get']) expectError(await getMailbox(ctx, ws.api, box.id), 404, ctx.profile, 'GET of the deleted sending mailbox', 'not_found');
    },
  },
];

