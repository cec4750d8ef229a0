import { randomUUID } from 'node:crypto';
import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectSchema, expectThat, is2xx, snippet, msg } from '../../lib/expect.ts';
import { createCampaign, createMailbox, faker, newKey, requiredCampaignFields, setupCampaignBody, walkPages } from '../../lib/recipes.ts';
import { campaignBody, sequenceStep } from '../../../fixtures/factories/index.ts';
import { campaignCreateResponseFor, campaignListItem, listOf } from '../../../harness/ground/spec-model/schemas/index.ts';
import { targetNow } from '../../lib/target-clock.ts';
import { NEEDS_SENDING_DAYS, ZONES, dayNumber, noonZone, wall } from '../../lib/schedule.ts';
import { campaignWithLeads, control, createTag, expectBusiness400, expectValidation400, leadAddress, op, opRequest, resultPath, setTags, walk } from './lib.ts';
import { belowDefault, casesAt } from '../../lib/depth.ts';

/** Where the day numbering lives (suites/lib/schedule.ts); re-exported for the checks that import it from here. */
export { NEEDS_SENDING_DAYS, dayNumber };

// Part 4.3 (less test-email), 2.5 and 3.1, from the outside.

const ALL_DAYS_JS = [0, 1, 2, 3, 4, 5, 6];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * Two create bodies whose schedule and settings differ in every field ('b' the other of 'a'): a
 * target that kept any default in place of what it was given shows it in at least one of them.
 */
const SECTIONS = {
  a: { timezone: 'Europe/Berlin', days: ALL_DAYS_JS, start: 540, end: 1020, dailyLimit: 40, settings: { trackOpens: true, trackClicks: false, sendAsTextOnly: false, stopOnReply: true } },
  b: { timezone: 'America/New_York', days: [1, 2, 3, 4, 5], start: 600, end: 960, dailyLimit: 25, settings: { trackOpens: false, trackClicks: true, sendAsTextOnly: true, stopOnReply: false } },
} as const;

function fullBody(ctx: CheckContext, accounts: string[], leads: string[], variant: keyof typeof SECTIONS = 'a') {
  const f = faker(ctx);
  const v = SECTIONS[variant];
  return {
    name: `${ctx.prefix}${f.company.catchPhrase()}`.slice(0, 100).trim(),
    schedule: {
      timezone: v.timezone,
      // the days in the profile's numbering (left out when the profile does not declare it)
      ...(ctx.profile.names.sendingDays ? { sendingDays: v.days.map((d) => dayNumber(ctx, d)).sort((a, b) => a - b) } : {}),
      sendingMinutesStart: v.start,
      sendingMinutesEnd: v.end,
      dailyLimit: v.dailyLimit,
    },
    settings: { ...v.settings },
    sequence: [sequenceStep(f, 0), sequenceStep(f, 1)],
    accounts,
    leads,
    launch: false,
  };
}

const DATE_FIELDS = ['startDate', 'endDate'];
/** A start and an end to come, so that the Campaign schema types the answered dates (2.5: timestamps). */
const SCHEDULE_DATES = { startDate: '2031-01-10T09:30:15Z', endDate: '2031-03-01T17:00:00Z' };

/** Where the created campaign's name, schedule or settings are not those given (sendingDays read as a set: 2.5 gives no order). */
function sectionDiffs(c: any, body: ReturnType<typeof fullBody>): string[] {
  const diffs: string[] = [];
  if (c.name !== body.name) diffs.push(`name ${JSON.stringify(c.name)} instead of ${JSON.stringify(body.name)}`);
  for (const [k, v] of Object.entries(body.schedule)) {
    const got = c.schedule?.[k];
    // A timestamp is the same instant in any ISO 8601 writing (its form is the schema's to hold).
    const same = k === 'sendingDays' && Array.isArray(got) ? JSON.stringify([...got].sort((x: number, y: number) => x - y)) === JSON.stringify(v)
      : DATE_FIELDS.includes(k) ? typeof got === 'string' && Date.parse(got) === Date.parse(String(v)) : JSON.stringify(got) === JSON.stringify(v);
    if (!same) diffs.push(`schedule.${k} ${JSON.stringify(got)} instead of ${JSON.stringify(v)}`);
  }
  for (const [k, v] of Object.entries(body.settings)) if (c.settings?.[k] !== v) diffs.push(`settings.${k} ${c.settings?.[k]} instead of ${v}`);
  return diffs;
}

async function statusOf(api: ApiClient, id: string) {
  const r = await api.get(`/v1/campaigns/${id}/status`);
  expect2xx(r, 'GET /v1/campaigns/{id}/status');
  return r;
}

/** Connects a mailbox by Microsoft OAuth (the control API consents) and withdraws its grant: a revoked mailbox. Its id. */
async function revokedOAuthMailbox(ctx: CheckContext, api: ApiClient): Promise<string> {
  const init = await api.post('/v1/accounts/oauth/microsoft/init');
  expect2xx(init, 'setup: POST /v1/accounts/oauth/microsoft/init');
  const consent = await control(ctx).request('POST', '/oauth/microsoft/consent', { state: init.body.state, emailAddress: `${ctx.prefix}${randomUUID().slice(0, 8)}@oauth.example.test` });
  const accountId = consent.body?.accountId;
  if (typeof accountId !== 'string') skip('the control API connected no OAuth mailbox');
  await control(ctx).request('POST', `/accounts/${accountId}/revoke-oauth`);
  return accountId;
}

/** Whether a draft is a "startable state" is a reading (STATE-CAMP-START-FROM-DRAFT, a SHOULD). */
const DRAFT_NOT_STARTABLE =
  'the target answers 409 to starting a draft campaign with leads and a sequence: whether a draft is a startable state is a reading (checked by CAMP-START/from-draft)';

async function started(ctx: CheckContext, api: ApiClient, opts: { leads?: number; steps?: number; body?: Record<string, unknown> } = {}) {
  const res = await api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx, { leads: opts.leads ?? 1, steps: opts.steps ?? 1 })), ...opts.body });
  expect2xx(res, 'setup: POST /v1/campaigns');
  const id = res.body.campaign.id as string;
  const s = await api.post(`/v1/campaigns/${id}/start`);
  if (s.status === 409) skip(DRAFT_NOT_STARTABLE);
  expect2xx(s, 'setup: POST /v1/campaigns/{id}/start');
  return { id, start: s };
}

/**
 * Makes sure the (exclusive) workspace holds no mailbox: a fresh one from the control API holds
 * none; otherwise the referenced accounts.list tells, this run's own mailboxes are deleted, and
 * any other mailbox skips the check (it is not the kit's to delete).
 */
async function withoutMailboxes(ctx: CheckContext, api: ApiClient): Promise<void> {
  const op = ctx.profile.operations['accounts.list'];
  if (!op) {
    if (ctx.control) return;
    skip('needs a workspace without mailboxes: without the control API only the referenced operation accounts.list can tell, and the profile does not declare it (operations.accounts.list)');
  }
  const items = (await walk(ctx.profile, api, op.path, resultPath(op, 'items'))) as { id?: string; emailAddress?: string }[];
  const ours = items.filter((m) => typeof m.emailAddress === 'string' && m.emailAddress.startsWith(ctx.prefix) && typeof m.id === 'string');
  for (const m of ours) expect2xx(await api.delete(`/v1/accounts/${m.id}`), `setup: deleting this run's mailbox ${m.emailAddress}`);
  const others = items.length - ours.length;
  if (others > 0) skip(`needs a workspace without mailboxes: the workspace given holds ${others} mailbox(es) the kit did not create`);
}

async function pause(ctx: CheckContext, api: ApiClient, id: string) {
  const r = await api.request(opRequest(ctx, 'campaigns.pause', { id }));
  if (r.status >= 300) skip(`the campaign could not be paused through the referenced operation (${r.status} ${snippet(r)})`);
  return r;
}

// ---- time zone arithmetic for the schedule window -------------------------------------------

/** The instant of a local wall time in a zone. */
function zoned(tz: string, y: number, mo: number, d: number, minuteOfDay: number): Date {
  const guess = Date.UTC(y, mo - 1, d, Math.floor(minuteOfDay / 60), minuteOfDay % 60);
  let t = guess;
  for (let i = 0; i < 3; i++) {
    const w = wall(tz, new Date(t));
    const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
    t += guess - asUtc;
  }
  return new Date(t);
}

function nextDay(tz: string, at: Date) {
  const w = wall(tz, at);
  const noonNext = zoned(tz, w.y, w.mo, w.d, 720).getTime() + 24 * 3600_000;
  return wall(tz, new Date(noonNext));
}


/** A zone of the list where it is between 04:00 and 20:00 on the same date as in UTC (today is one weekday there and in UTC), or undefined. */
function sameDayZone(now: Date): string | undefined {
  const utc = wall('UTC', now);
  return ZONES.map((z) => ({ z, w: wall(z, now) }))
    .filter(({ w }) => w.d === utc.d && w.minute >= 240 && w.minute <= 1200)
    .sort((a, b) => Math.abs(a.w.minute - 720) - Math.abs(b.w.minute - 720))[0]?.z;
}

/**
 * Starting a campaign with leads and no sequence is refused (400). A target that requires a
 * sequence on create (declarations.campaignRequiredFields) got one step from the setup body: the
 * sequence is emptied by PATCH (4.3 replaces it) before the start.
 */
async function startWithoutSequence(ctx: CheckContext, api: ApiClient, sequenceRequired: boolean): Promise<void> {
  const noSeq = await createCampaign(ctx, api, { leads: 2 });
  if (sequenceRequired) {
    const emptied = await api.patch(`/v1/campaigns/${noSeq.id}`, { sequence: [] });
    if (!is2xx(emptied)) skip(`the profile declares sequence required on campaign create, and PATCH { sequence: [] } was refused (${emptied.status}): no campaign with leads but no sequence can be made`);
  }
  expectBusiness400(await api.post(`/v1/campaigns/${noSeq.id}/start`), ctx, 'starting a campaign with leads but no sequence');
}

export const CAMPAIGN_CHECKS: Check[] = [
  {
    id: 'CAMP-CREATE/shape',
    title: 'MUST create a campaign in one call (schedule with start and end dates, settings, sequence, accounts, leads) as a draft, taking the name, schedule and settings given, answering { campaign, launched, leads, launchError } (also without leads, and with settings defaulted: four booleans)',
    clauses: [
      'CAMP-CREATE-BODY', 'CAMP-CREATE-ANSWER', 'CAMP-CREATE-LEADS-COUNTS', 'CAMP-CREATE-LEADS-STRINGS', 'CAMP-CREATE-LAUNCH-BOOLEAN',
      'STATE-CAMP-CREATE-DRAFT', 'STATE-CAMP-STATES', 'SVC-CAMP-CREATE-ONE-CALL', 'CAMP-ID-UUID', 'RES-ID-UUID', 'RES-TS-ISO8601', 'RES-CAMELCASE', 'CAMP-NAME-STRING', 'CAMP-STATUS-ENUM', 'CAMP-SCHEDULE-FIELDS',
      'CAMP-SETTINGS-FIELDS', 'CAMP-METRICS-FIELDS', 'CAMP-TAGS-ARRAY', 'CAMP-CREATEDAT-TS', 'CAMP-UPDATEDAT-TS', 'CAMP-SEQUENCE-STEPS', 'CAMP-SEQUENCE-MERGE-ACCEPTED',
      'CAMP-ACCOUNTS-UUIDS', 'SVC-REST-JSON',
    ],
    level: 'MUST',
    features: [],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: mid } = await createMailbox(ctx, ws.api);
      const full = fullBody(ctx, [mid], [leadAddress(ctx), leadAddress(ctx)]);
      const body = { ...full, schedule: { ...full.schedule, ...SCHEDULE_DATES } };
      const res = await ws.api.post('/v1/campaigns', body);
      expect2xx(res, 'POST /v1/campaigns with every section');
      expectSchema(res, campaignCreateResponseFor({ launch: false }), 'POST /v1/campaigns');
      const c = res.body.campaign;
      expectThat(c.status === 'draft', msg`a created campaign starts draft, got ${c.status}`, res);
      expectThat(res.body.launched === false, msg`launched must be false without launch`, res);
      expectThat(c.sequence.length === 2 && c.sequence.every((s: any, i: number) => s.subject === body.sequence[i]!.subject && s.body === body.sequence[i]!.body),
        msg`the sequence (with {{merge}} variables) must be stored as given, got ${JSON.stringify(c.sequence).slice(0, 300)}`, res);
      expectThat(JSON.stringify(c.accounts) === JSON.stringify([mid]), msg`accounts must be [${mid}], got ${JSON.stringify(c.accounts)}`, res);
      // Leads in the same call (1): two distinct valid addresses are two leads created.
      const l = res.body.leads;
      expectThat(l?.submitted === 2 && l?.created === 2, msg`the campaign is created with its leads in one call: two distinct leads given must count submitted 2, created 2, got ${JSON.stringify(l)}`, res);
      // The body's name, schedule and settings are taken: a second create with every schedule
      // and settings field the other way round, so that no default can pass for both.
      const other = fullBody(ctx, [mid], [], 'b');
      const res2 = await ws.api.post('/v1/campaigns', other);
      expect2xx(res2, 'POST /v1/campaigns with the other schedule and settings');
      for (const [r, b] of [[res, body], [res2, other]] as const) {
        const diffs = sectionDiffs(r.body?.campaign, b);
        expectThat(diffs.length === 0, msg`the created campaign must take the name, schedule and settings it is given: ${diffs.join('; ')}`, r);
      }
      // A create without leads answers the counts too, and settings not given (or one flag, where the
      // profile requires settings) are answered whole: four booleans, whatever the defaults.
      const { leads: _leads, settings: _settings, ...bare } = await setupCampaignBody(ctx, { steps: 1 });
      const settingsRequired = (ctx.profile.declarations.campaignRequiredFields ?? []).includes('settings');
      const res3 = await ws.api.post('/v1/campaigns', { ...bare, ...(settingsRequired ? { settings: { stopOnReply: true } } : {}) });
      expect2xx(res3, `POST /v1/campaigns without leads and ${settingsRequired ? 'with settings { stopOnReply } alone' : 'without settings'}`);
      expectSchema(res3, campaignCreateResponseFor({ launch: false }), `POST /v1/campaigns without leads and ${settingsRequired ? 'with one settings flag' : 'without settings'}`);
    },
  },
  {
    id: 'CAMP-CREATE/echo',
    title: 'SHOULD store the create sections as given and count leads (submitted = created + duplicates + invalid)',
    clauses: ['CAMP-CREATE-ECHO', 'CAMP-CREATE-LEADS-SUM', 'CAMP-CREATE-LEADS-DUPLICATES', 'CAMP-CREATE-LEADS-INVALID', 'CAMP-CREATE-LEADSCOUNT', 'STATE-CAMP-CREATE-NO-LAUNCH'],
    level: 'SHOULD',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: mid } = await createMailbox(ctx, ws.api);
      const a = leadAddress(ctx);
      const body = fullBody(ctx, [mid], [a, leadAddress(ctx), a, 'not-an-email-address']);
      const res = await ws.api.post('/v1/campaigns', body);
      expect2xx(res, 'POST /v1/campaigns');
      const { campaign: c, leads, launched } = res.body;
      const diffs = sectionDiffs(c, body);
      if (JSON.stringify(c.sequence?.map((s: any) => [s.subject, s.body, s.delayDays, s.delayHours])) !== JSON.stringify(body.sequence.map((s) => [s.subject, s.body, s.delayDays, s.delayHours]))) diffs.push('sequence');
      expectThat(diffs.length === 0, msg`the created campaign differs from its input: ${diffs.join('; ')}`, res);
      expectThat(leads.submitted === 4 && leads.created === 2 && leads.duplicates === 1 && leads.invalid === 1, msg`leads must count submitted 4, created 2, duplicates 1, invalid 1; got ${JSON.stringify(leads)}`, res);
      expectThat(c.metrics.leadsCount === 2, msg`metrics.leadsCount must equal leads.created (2), got ${c.metrics.leadsCount}`, res);
      expectThat(launched === false && c.status === 'draft', msg`without launch the campaign stays draft and launched is false`, res);
    },
  },
  {
    id: 'CAMP-CREATE/leads-limit',
    title: 'MUST take a campaign create with as many leads as the profile declares (declarations.campaignCreateMaxLeads), and refuse one more with 400',
    clauses: ['LIMIT-CAMPAIGN-LEADS-PROFILE'],
    level: 'PROFILE',
    features: ['decl:declarations.campaignCreateMaxLeads'],
    budget: 2,
    async run(ctx) {
      const max = ctx.profile.declarations.campaignCreateMaxLeads;
      if (!max) skip('needs declarations.campaignCreateMaxLeads in the profile (the most leads a campaign create takes)');
      if (max > 50_000) skip(`the declared limit of ${max} leads is more than the kit sends in one request (50,000)`);
      const ws = await ctx.workspace();
      const tag = faker(ctx).string.alphanumeric(6).toLowerCase();
      const leads = (n: number) => Array.from({ length: n }, (_, i) => `${ctx.prefix}cap${tag}-${i}@leads.example.test`);
      const required = await requiredCampaignFields(ctx);
      const body = (n: number) => ({ ...campaignBody(faker(ctx), ctx.prefix), ...required, leads: leads(n) });
      expectValidation400(await ws.api.post('/v1/campaigns', body(max + 1)), ctx, `POST /v1/campaigns with ${max + 1} leads (declared limit ${max})`);
      const ok = await ws.api.post('/v1/campaigns', body(max));
      expect2xx(ok, `POST /v1/campaigns with ${max} leads (the declared limit)`);
      const count = ok.body?.campaign?.metrics?.leadsCount;
      expectThat(count === max, msg`a campaign created with ${max} distinct leads must count them all, metrics.leadsCount is ${count}`, ok);
    },
  },
  {
    id: 'CAMP-CREATE/minimal',
    title: 'MUST accept a campaign without leads (leads optional), counting zero leads; its accounts an array of uuids (none given: an array still)',
    clauses: ['CAMP-CREATE-LEADS-OPTIONAL', 'CAMP-CREATE-LEADS-COUNTS', 'CAMP-ACCOUNTS-UUIDS'],
    level: 'MUST',
    features: [],
    budget: 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const res = await ws.api.post('/v1/campaigns', await setupCampaignBody(ctx));
      expect2xx(res, 'POST /v1/campaigns without leads');
      expectSchema(res, campaignCreateResponseFor({ launch: false }), 'POST /v1/campaigns');
      const l = res.body.leads;
      expectThat(l.submitted === 0 && l.created === 0, msg`no leads were given: ${JSON.stringify(l)}`, res);
    },
  },
  {
    id: 'CAMP-NAME-EMPTY',
    title: 'MUST refuse an empty campaign name with 400 validation_failed, at create and in PATCH',
    clauses: ['CAMP-CREATE-NAME-EMPTY', 'CAMP-NAME-NONEMPTY', 'CAMP-PATCH-NAME-EMPTY', 'ERR-TABLE-400', 'ERR-DETAILS-VALIDATION'],
    level: 'MUST',
    features: [],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      expectValidation400(await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx, { steps: 1 })), name: '' }), ctx, 'POST /v1/campaigns with name ""');
      const { id, res } = await createCampaign(ctx, ws.api);
      expectValidation400(await ws.api.patch(`/v1/campaigns/${id}`, { name: '' }), ctx, 'PATCH /v1/campaigns/{id} with name ""');
      const s = await statusOf(ws.api, id);
      expectThat(s.body.id === id, msg`the campaign must still exist`, s, res);
    },
  },
  {
    id: 'CAMP-CREATE/types',
    title: 'MUST refuse a campaign body whose fields have the wrong type with 400 validation_failed',
    clauses: ['CAMP-CREATE-BODY', 'CAMP-CREATE-LEADS-STRINGS', 'CAMP-CREATE-LAUNCH-BOOLEAN', 'CAMP-SCHEDULE-FIELDS', 'CAMP-SETTINGS-FIELDS', 'CAMP-SEQUENCE-STEPS', 'CAMP-ACCOUNTS-UUIDS', 'ERR-TABLE-400'],
    level: 'MUST',
    features: [],
    budget: 11,
    // Below default one wrong type per clause it claims (the coercions a binder plausibly makes).
    shallowerAt: ['smoke', 'quick'],
    async run(ctx) {
      const ws = await ctx.workspace();
      const base = await setupCampaignBody(ctx, { steps: 1 });
      const step = (base.sequence as Record<string, unknown>[])[0]!;
      // [what, body patch, asked below default too]
      const cases: [string, Record<string, unknown>, boolean][] = [
        ['name 42', { name: 42 }, false],
        ['leads as a string', { leads: 'lead@example.test' }, true],
        ['launch "yes"', { launch: 'yes' }, false],
        // The word "true" is refused by a lenient boolean binder and by one reading only "true"/"false".
        ['launch "true" (the word, a string)', { launch: 'true' }, true],
        ['settings.trackOpens "yes"', { settings: { trackOpens: 'yes' } }, true],
        ['sequence as an object', { sequence: { subject: 'x' } }, false],
        ['sequence[0].delayDays "two"', { sequence: [{ ...step, delayDays: 'two' }] }, true],
        ['accounts ["not-a-uuid"]', { accounts: ['not-a-uuid'] }, true],
        ['schedule.sendingDays ["monday"]', { schedule: { sendingDays: ['monday'] } }, true],
        ['schedule.sendingMinutesStart "9am"', { schedule: { sendingMinutesStart: '9am' } }, false],
      ];
      for (const [what, patch] of casesAt(ctx, cases, ([, , stays]) => stays)) expectValidation400(await ws.api.post('/v1/campaigns', { ...base, ...patch }), ctx, `POST /v1/campaigns with ${what}`);
      // Elements that are not address strings ({ email } objects, the shape the referenced leads.create
      // takes): refused, or counted invalid; never leads.
      const objects = await ws.api.post('/v1/campaigns', { ...base, leads: [{ email: leadAddress(ctx, 'obj') }] });
      if (!is2xx(objects)) expectValidation400(objects, ctx, 'POST /v1/campaigns with leads [{ email }]');
      else expectThat(objects.body?.leads?.created === 0, msg`leads is an array of address strings: an element { email } must be refused or counted invalid, yet the create answered ${JSON.stringify(objects.body?.leads)}`, objects);
    },
  },
  {
    id: 'CAMP-CREATE/launch-scope',
    title: 'MUST answer 403 to a launch: true create by a key holding campaigns:write without campaigns:lifecycle (creating nothing), or campaigns:lifecycle without campaigns:write; with both, 4.3\'s answer (leads counts included)',
    // Also the answer of a create whose launch is asked with the scopes it needs (CAMP-CREATE/shape reads one without launch).
    clauses: ['CAMP-CREATE-LAUNCH-SCOPE', 'CAMP-CREATE-NO-LAUNCH-SCOPE', 'CAMP-CREATE-SCOPE', 'ERR-TABLE-403', 'SCOPE-403-MISSING', 'CAMP-CREATE-ANSWER'],
    level: 'MUST',
    features: ['op:apikeys.create'],
    budget: 10,
    async run(ctx) {
      const ws = await ctx.workspace();
      const writer = await newKey(ws, ctx, ['campaigns:write']);
      const body = await setupCampaignBody(ctx, { steps: 1, leads: 1 });
      // A name of its own: the refused request must leave no campaign behind (a scope asked only where the launch happens, after the insert, would).
      const refusedName = `${body.name} refused ${randomUUID().slice(0, 8)}`;
      const refused = await writer.client.post('/v1/campaigns', { ...body, name: refusedName, launch: true });
      expectError(refused, 403, ctx.profile, 'POST /v1/campaigns launch: true with campaigns:write only', 'permission_denied');
      const plain = await writer.client.post('/v1/campaigns', { ...body, name: `${body.name} 2`, launch: false });
      expect2xx(plain, 'POST /v1/campaigns launch: false with campaigns:write');
      // Without launch true, whether false or left out: a gate reading "unless launch is false" asks the launch scope here.
      const { launch: _launch, ...unlaunched } = body;
      expect2xx(await writer.client.post('/v1/campaigns', { ...unlaunched, name: `${body.name} 2b` }), 'POST /v1/campaigns without launch, with campaigns:write');
      const both = await newKey(ws, ctx, ['campaigns:write', 'campaigns:lifecycle']);
      const launched = await both.client.post('/v1/campaigns', { ...body, name: `${body.name} 3`, launch: true });
      expect2xx(launched, 'POST /v1/campaigns launch: true with campaigns:write and campaigns:lifecycle');
      // The launch may or may not happen (no mailbox here): either way the answer is 4.3's, leads counts included.
      expectSchema(launched, campaignCreateResponseFor({ launch: true }), 'POST /v1/campaigns launch: true with campaigns:write and campaigns:lifecycle');
      // "campaigns:write, plus campaigns:lifecycle": the launch scope does not stand in for campaigns:write.
      const lifecycle = await newKey(ws, ctx, ['campaigns:lifecycle']);
      expectError(await lifecycle.client.post('/v1/campaigns', { ...body, name: `${body.name} 4`, launch: true }), 403, ctx.profile, 'POST /v1/campaigns launch: true with campaigns:lifecycle only (campaigns:write is required as well)', 'permission_denied');
      const left = ((await walk(ctx.profile, ws.api, '/v1/campaigns')) as { name?: unknown }[]).filter((c) => c.name === refusedName);
      expectThat(left.length === 0, msg`POST /v1/campaigns launch: true refused with 403 (campaigns:write only) still created the campaign ${refusedName}`, refused);
    },
  },
  {
    id: 'CAMP-CREATE/launch-fails',
    title: 'MUST still create a campaign whose launch cannot happen, with launched false and launchError giving the reason',
    clauses: ['STATE-CAMP-CREATE-LAUNCH-ATTEMPT', 'STATE-CAMP-CREATE-LAUNCH-FAIL-EXISTS', 'STATE-CAMP-CREATE-LAUNCH-FAIL-FLAG', 'STATE-CAMP-CREATE-LAUNCH-FAIL-REASON', 'CAMP-CREATE-LAUNCHERROR', 'CAMP-CREATE-ANSWER'],
    level: 'MUST',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      // A sequence but no leads: start would answer 400, so the launch cannot happen.
      const res = await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx, { steps: 1 })), launch: true });
      expect2xx(res, 'POST /v1/campaigns launch: true without leads');
      expectSchema(res, campaignCreateResponseFor({ launch: true }), 'POST /v1/campaigns launch: true');
      expectThat(res.body.launched === false, msg`a campaign without leads cannot launch: launched must be false`, res);
      expectThat(typeof res.body.launchError === 'string' && res.body.launchError.length > 0, msg`launchError must give the reason, got ${JSON.stringify(res.body.launchError)}`, res);
      const s = await statusOf(ws.api, res.body.campaign.id);
      expectThat(s.body.id === res.body.campaign.id, msg`the campaign must exist after a failed launch`, s);
    },
  },
  {
    id: 'CAMP-CREATE/launch-ok',
    title: 'SHOULD launch a campaign created with launch: true, leads and a sequence (launched true, no longer draft)',
    clauses: ['STATE-CAMP-CREATE-LAUNCH-OK'],
    level: 'SHOULD',
    features: [],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: mid } = await createMailbox(ctx, ws.api);
      const res = await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx, { steps: 1, leads: 2, accounts: [mid] })), launch: true });
      expect2xx(res, 'POST /v1/campaigns launch: true');
      expectThat(res.body.launched === true, msg`a campaign with leads and a sequence must launch; launched ${res.body.launched}, launchError ${JSON.stringify(res.body.launchError)}`, res);
      const s = await statusOf(ws.api, res.body.campaign.id);
      expectThat(s.body.status !== 'draft', msg`a launched campaign is no longer draft`, s);
    },
  },
  {
    id: 'CAMP-LIST/shape',
    title: 'MUST answer GET /v1/campaigns with { data: [list item], meta } (id, name, status, leadsCount, tags, createdAt)',
    clauses: ['CAMP-LIST-ANSWER', 'CAMP-LISTITEM-FIELDS'],
    level: 'MUST',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      await createCampaign(ctx, ws.api, { leads: 2 });
      const res = await ws.api.get('/v1/campaigns');
      expect2xx(res, 'GET /v1/campaigns');
      expectSchema(res, listOf(campaignListItem), 'GET /v1/campaigns');
    },
  },
  {
    id: 'CAMP-LIST/item-consistent',
    title: "SHOULD list a campaign with the campaign's values (leadsCount = metrics.leadsCount)",
    clauses: ['CAMP-LISTITEM-CONSISTENT'],
    level: 'SHOULD',
    features: ['exclusiveWorkspace'],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      const { id, res } = await createCampaign(ctx, ws.api, { leads: 3 });
      const items = (await walk(ctx.profile, ws.api, '/v1/campaigns')) as any[];
      const item = items.find((x) => x.id === id);
      const c = res.body.campaign;
      expectThat(item && item.name === c.name && item.status === c.status && item.leadsCount === c.metrics.leadsCount && item.createdAt === c.createdAt,
        msg`the list item ${JSON.stringify(item)} differs from the campaign (name ${c.name}, status ${c.status}, leadsCount ${c.metrics.leadsCount}, createdAt ${c.createdAt})`, res);
    },
  },
  {
    id: 'CAMP-LIST/filters',
    title: 'the campaign list pages by cursor and page size (1 to 100; 0 and 101 refused), newest first, a walk ending with hasMore false (no empty page after hasMore true), and filters by one status (a paused campaign under paused) and by tag ids, a filtered page answered { data, meta } too (profile names)',
    // Also the list answer with a started campaign in it (CAMP-LIST/shape lists drafts), and its order; the
    // campaigns it creates are listed as drafts (STATE-CAMP-CREATE-DRAFT: stored so, not only answered so).
    clauses: ['STATE-CAMP-CREATE-DRAFT', 'CAMP-LIST-STATUS-FILTER', 'CAMP-LIST-TAG-FILTER', 'CAMP-LIST-PARAMS-PROFILE', 'PAGE-PARAM-NAMES', 'CAMP-LIST-CURSOR', 'CAMP-LIST-PAGESIZE', 'CAMP-TAGS-ARRAY', 'RES-TAG-ID', 'RES-TAG-NAME', 'RES-TAG-COLOR', 'CAMP-LIST-ANSWER', 'PAGE-NEWEST-FIRST', 'PAGE-SHAPE', 'CAMP-LISTITEM-FIELDS', 'CAMP-STATUS-ENUM', 'STATE-CAMP-STATES', 'PAGE-HASMORE-CONSISTENT'],
    level: 'MUST',
    features: ['control', 'exclusiveWorkspace'],
    budget: 28,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      const n = ctx.profile.names.list;
      const a = await createCampaign(ctx, ws.api, { leads: 1, steps: 1 });
      const b = await createCampaign(ctx, ws.api, { leads: 1, steps: 1 });
      const c = await createCampaign(ctx, ws.api);
      const d = await createCampaign(ctx, ws.api);
      const order = [d.id, c.id, b.id, a.id];
      const st = await ws.api.post(`/v1/campaigns/${b.id}/start`);
      if (st.status === 409) skip(DRAFT_NOT_STARTABLE);
      expect2xx(st, 'setup: starting a campaign');
      const bStatus = st.body.status as string;
      const t1 = await createTag(ctx, ws, 'camp-1');
      const t2 = await createTag(ctx, ws, 'camp-2');
      await setTags(ctx, 'campaigns', c.id, [t1.id]);
      await setTags(ctx, 'campaigns', d.id, [t2.id]);
      // Page size 1 to 100 (4.2): the bounds are taken, the values past them refused.
      for (const size of [0, 101]) expectValidation400(await ws.api.get('/v1/campaigns', { [n.pageSize]: size }), ctx, `GET /v1/campaigns with ${n.pageSize}=${size}`);
      expect2xx(await ws.api.get('/v1/campaigns', { [n.pageSize]: 100 }), `GET /v1/campaigns with ${n.pageSize}=100`);
      // Page size 1 walk: every page holds at most one campaign, every campaign comes once, newest first.
      const pages = await walkPages(ctx.profile, ws.api, '/v1/campaigns', 'data', 1);
      for (const [i, p] of pages.entries()) expectThat(p.items.length <= 1, msg`with ${n.pageSize}=1 page ${i + 1} of the walk${i ? ' (asked with its cursor)' : ''} holds ${p.items.length} campaigns: a page holds at most the page size`, p.res);
      const walked = pages.flatMap((p) => p.items) as any[];
      // The list does not change while it is walked (a workspace of its own): hasMore true promises another page, so none is empty.
      const noEmptyPage = (walk: { items: unknown[]; res: ApiResponse }[], what: string) => {
        const empty = walk.findIndex((p, i) => i > 0 && p.items.length === 0);
        expectThat(empty < 0, msg`${what}: page ${empty} said hasMore true, yet its nextCursor led to an empty page ${empty + 1} (4.1: hasMore tells whether another page exists)`, ...walk.slice(Math.max(0, empty - 1), empty + 1).map((p) => p.res));
      };
      noEmptyPage(pages, `GET /v1/campaigns walked with ${n.pageSize}=1`);
      expectThat(JSON.stringify(walked.map((x) => x.id)) === JSON.stringify(order), msg`a walk with ${n.pageSize}=1 must list the 4 campaigns newest first (${order.join(', ')}), got ${walked.map((x) => x.id).join(', ')}`);
      const byStatus = async (s: string) => {
        const r = await ws.api.get('/v1/campaigns', { [n.status]: s, [n.pageSize]: 100 });
        expect2xx(r, `GET /v1/campaigns?${n.status}=${s}`);
        expectSchema(r, listOf(campaignListItem), `GET /v1/campaigns?${n.status}=${s}`);
        return r;
      };
      // The drafts walked two a page: the filter must hold on the page asked by its cursor too.
      const draftPages = await walkPages(ctx.profile, ws.api, '/v1/campaigns', 'data', 2, { [n.status]: 'draft' });
      for (const p of draftPages) expectSchema(p.res, listOf(campaignListItem), `GET /v1/campaigns?${n.status}=draft`);
      noEmptyPage(draftPages, `GET /v1/campaigns?${n.status}=draft walked with ${n.pageSize}=2`);
      const draftItems = draftPages.flatMap((p) => p.items) as any[];
      const draftIds = draftItems.map((x) => x.id);
      expectThat(draftIds.every((x: string) => x !== b.id) && [a.id, c.id, d.id].every((x) => draftIds.includes(x)) && draftItems.every((x) => x.status === 'draft'),
        msg`${n.status}=draft walked ${n.pageSize}=2 must list exactly the drafts (${[d.id, c.id, a.id].join(', ')}) on every page, got ${JSON.stringify(draftItems.map((x) => `${x.id} (${x.status})`))}`, ...draftPages.map((p) => p.res));
      if (bStatus !== 'draft') {
        const other = await byStatus(bStatus);
        expectThat(other.body.data.length === 1 && other.body.data[0].id === b.id, msg`${n.status}=${bStatus} must list only the started campaign ${b.id}, got ${JSON.stringify(other.body.data.map((x: any) => x.id))}`, other);
      }
      // Paused (the referenced pause; where it is not offered or refused, not asked): listed under paused, no longer under active.
      if (bStatus === 'active' && ctx.profile.operations['campaigns.pause'] && is2xx(await ws.api.request(opRequest(ctx, 'campaigns.pause', { id: b.id })))) {
        const paused = await byStatus('paused');
        expectThat(paused.body.data.length === 1 && paused.body.data[0].id === b.id, msg`${n.status}=paused must list only the campaign paused, ${b.id}, got ${JSON.stringify(paused.body.data.map((x: any) => `${x.id} (${x.status})`))}`, paused);
        const active = await byStatus('active');
        expectThat(active.body.data.length === 0, msg`${n.status}=active must list no campaign once the only active one is paused, got ${JSON.stringify(active.body.data.map((x: any) => `${x.id} (${x.status})`))}`, active);
      }
      // How a value that is no campaign status is answered the spec does not say: refused (400), or
      // matching no campaign. Listing campaigns for it would be the filter ignored.
      const unknown = await ws.api.get('/v1/campaigns', { [n.status]: 'bogus_status' });
      const what = `GET /v1/campaigns?${n.status}=bogus_status (not a campaign status)`;
      if (unknown.status === 400) expectValidation400(unknown, ctx, what);
      else {
        expect2xx(unknown, what);
        expectThat(Array.isArray(unknown.body?.data) && unknown.body.data.length === 0, msg`${what} must match no campaign (or be refused with 400), got ${JSON.stringify(unknown.body?.data?.map?.((x: any) => x.id))}`, unknown);
      }
      const tagged = await ws.api.get('/v1/campaigns', { [n.tags]: t1.id });
      expect2xx(tagged, `GET /v1/campaigns?${n.tags}=<tag id>`);
      expectThat(tagged.body.data.length === 1 && tagged.body.data[0].id === c.id, msg`${n.tags}=<t1> must list only ${c.id}, got ${JSON.stringify(tagged.body.data.map((x: any) => x.id))}`, tagged);
      const tg = tagged.body.data[0].tags;
      expectThat(Array.isArray(tg) && tg.length === 1 && tg[0].id === t1.id && tg[0].name === t1.name && tg[0].color === t1.color, msg`the campaign must carry its tag ${JSON.stringify(t1)}, got ${JSON.stringify(tg)}`, tagged);
      // Walked one a page: the filter must hold on the page asked by its cursor too.
      const both = await walkPages(ctx.profile, ws.api, '/v1/campaigns', 'data', 1, { [n.tags]: `${t1.id},${t2.id}` });
      noEmptyPage(both, `GET /v1/campaigns?${n.tags}=<t1>,<t2> walked with ${n.pageSize}=1`);
      const bothIds = both.flatMap((p) => p.items).map((x: any) => x.id);
      expectThat(JSON.stringify(bothIds) === JSON.stringify([d.id, c.id]), msg`${n.tags}=<t1>,<t2> walked ${n.pageSize}=1 must list the campaigns with at least one of them, newest first (${d.id}, ${c.id}), got ${JSON.stringify(bothIds)}`, ...both.map((p) => p.res));
      // The Campaign object of a tagged campaign (the PATCH answer, a serializer of its own) carries its tags as tag objects too.
      const pc = await ws.api.patch(`/v1/campaigns/${c.id}`, { name: `${ctx.prefix}tagged campaign` });
      expect2xx(pc, 'PATCH /v1/campaigns/{id} of a tagged campaign');
      expectSchema(pc, 'Campaign', 'PATCH /v1/campaigns/{id} of a tagged campaign');
      expectThat(Array.isArray(pc.body?.tags) && pc.body.tags.some((t: any) => t?.id === t1.id), msg`the tagged campaign's PATCH answer must carry its tag ${t1.id}, got ${JSON.stringify(pc.body?.tags)}`, pc);
    },
  },
  {
    id: 'CAMP-LIST/status-filter',
    title: 'MUST list only campaigns in the status asked for (under the profile\'s name): a new draft is listed under draft and never under active',
    clauses: ['CAMP-LIST-STATUS-FILTER', 'PAGE-PARAM-NAMES'],
    level: 'MUST',
    features: [],
    budget: 3,
    async run(ctx) {
      // The cheap half of CAMP-LIST/filters: no started campaign, no exclusive workspace.
      const ws = await ctx.workspace();
      const n = ctx.profile.names.list;
      const draft = await createCampaign(ctx, ws.api);
      const listed = async (s: string) => {
        const r = await ws.api.get('/v1/campaigns', { [n.status]: s, [n.pageSize]: 100 });
        expect2xx(r, `GET /v1/campaigns?${n.status}=${s}`);
        expectSchema(r, listOf(campaignListItem), `GET /v1/campaigns?${n.status}=${s}`);
        const other = r.body.data.filter((x: any) => x.status !== s).map((x: any) => `${x.id} (${x.status})`);
        expectThat(other.length === 0, msg`${n.status}=${s} must list only ${s} campaigns, it lists ${other.slice(0, 3).join(', ')}`, r);
        return r;
      };
      const active = await listed('active');
      expectThat(!active.body.data.some((x: any) => x.id === draft.id), msg`${n.status}=active lists the new draft ${draft.id}`, active);
      const drafts = await listed('draft');
      // Newest first: the new draft is on the first page unless 100 drafts were made since.
      expectThat(drafts.body.data.some((x: any) => x.id === draft.id) || drafts.body.meta?.hasMore === true, msg`${n.status}=draft does not list the new draft ${draft.id}`, drafts);
    },
  },
  {
    id: 'CAMP-LIST/tag-param',
    title: 'SHOULD filter the campaign list by tag ids with `tags`, the name of the mailbox tag filter, when the profile names it so',
    clauses: ['CAMP-LIST-TAG-PARAM'],
    level: 'SHOULD',
    features: ['control'],
    budget: 6,
    async run(ctx) {
      const n = ctx.profile.names.list;
      if (n.tags !== 'tags') skip(`the profile names the campaign tag filter ${JSON.stringify(n.tags)} (names.list.tags): the reading that it is \`tags\`, as on mailboxes, gives way to the declared name`);
      const ws = await ctx.workspace();
      const tagged = await createCampaign(ctx, ws.api);
      const other = await createCampaign(ctx, ws.api);
      const t = await createTag(ctx, ws, 'camp-param');
      await setTags(ctx, 'campaigns', tagged.id, [t.id]);
      const res = await ws.api.get('/v1/campaigns', { tags: t.id, [n.pageSize]: 100 });
      expect2xx(res, 'GET /v1/campaigns?tags=<tag id>');
      const ids = (res.body?.data ?? []).map((x: any) => x.id);
      expectThat(ids.length === 1 && ids[0] === tagged.id, msg`tags=<tag id> should list only the campaign carrying that tag (${tagged.id}, not ${other.id}), got ${JSON.stringify(ids)}`, res);
    },
  },
  {
    id: 'CAMP-PATCH/sections',
    title: 'MUST change only the supplied sections with PATCH /v1/campaigns/{id}; accounts and sequence replace; the answer is the flat campaign (its updatedAt an ISO 8601 timestamp)',
    // The flat campaign's schema and the replaced set hold accounts to an array of uuids in the PATCH answer too.
    // Its updatedAt (rewritten by the PATCH) and createdAt (read back from the store, where the create answer
    // may be the object in memory) are typed as ISO 8601 timestamps there too.
    clauses: ['CAMP-PATCH-FIELDS', 'CAMP-PATCH-PARTIAL', 'CAMP-PATCH-ACCOUNTS-REPLACE', 'CAMP-PATCH-SEQUENCE-REPLACE', 'CAMP-PATCH-FLAT', 'CAMP-ACCOUNTS-UUIDS', 'CAMP-UPDATEDAT-TS', 'CAMP-CREATEDAT-TS', 'RES-TS-ISO8601'],
    level: 'MUST',
    features: [],
    budget: 9,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: m1 } = await createMailbox(ctx, ws.api);
      const { id: m2 } = await createMailbox(ctx, ws.api);
      const created = await ws.api.post('/v1/campaigns', fullBody(ctx, [m1], []));
      expect2xx(created, 'setup: POST /v1/campaigns');
      const c0 = created.body.campaign;
      const id = c0.id;
      const r1 = await ws.api.patch(`/v1/campaigns/${id}`, { name: `${ctx.prefix}renamed` });
      expect2xx(r1, 'PATCH /v1/campaigns/{id} { name }');
      expectSchema(r1, 'Campaign', 'PATCH /v1/campaigns/{id} (the flat campaign)');
      expectThat(r1.body.campaign === undefined && r1.body.id === id, msg`PATCH must answer the campaign itself, not wrapped`, r1);
      expectThat(r1.body.name === `${ctx.prefix}renamed`, msg`name must be changed, got ${r1.body.name}`, r1);
      const same = (k: string) => JSON.stringify(r1.body[k]) === JSON.stringify(c0[k]);
      const changed = ['schedule', 'settings', 'sequence', 'accounts'].filter((k) => !same(k));
      expectThat(changed.length === 0, msg`sections not supplied changed: ${changed.join(', ')}`, r1, created);
      const step = sequenceStep(faker(ctx), 0);
      const r2 = await ws.api.patch(`/v1/campaigns/${id}`, { sequence: [step], accounts: [m2] });
      expect2xx(r2, 'PATCH /v1/campaigns/{id} { sequence, accounts }');
      expectThat(r2.body.sequence?.length === 1 && r2.body.sequence[0].subject === step.subject && r2.body.sequence[0].body === step.body, msg`sequence must be replaced by the one step given, got ${JSON.stringify(r2.body.sequence).slice(0, 200)}`, r2);
      expectThat(JSON.stringify(r2.body.accounts) === JSON.stringify([m2]), msg`accounts must be replaced by [${m2}], got ${JSON.stringify(r2.body.accounts)}`, r2);
      expectThat(r2.body.name === `${ctx.prefix}renamed` && JSON.stringify(r2.body.settings) === JSON.stringify(c0.settings), msg`name and settings changed though not supplied`, r2);
      const settings = { trackOpens: false, trackClicks: true, sendAsTextOnly: true, stopOnReply: false };
      const schedule = { ...fullBody(ctx, [], []).schedule, sendingMinutesStart: 480, sendingMinutesEnd: 600, dailyLimit: 10, timezone: 'America/Chicago' };
      const r3 = await ws.api.patch(`/v1/campaigns/${id}`, { settings, schedule });
      expect2xx(r3, 'PATCH /v1/campaigns/{id} { settings, schedule }');
      const bad = [...Object.entries(settings).filter(([k, v]) => r3.body.settings?.[k] !== v).map(([k]) => `settings.${k}`),
        ...Object.entries(schedule).filter(([k, v]) => JSON.stringify(r3.body.schedule?.[k]) !== JSON.stringify(v)).map(([k]) => `schedule.${k}`)];
      expectThat(bad.length === 0, msg`PATCH did not set ${bad.join(', ')}`, r3);
      expectThat(r3.body.sequence?.length === 1 && JSON.stringify(r3.body.accounts) === JSON.stringify([m2]), msg`sequence or accounts changed though not supplied`, r3);
      // Whether a campaign may be left without steps or mailboxes is not stated: a refusal (400) is a
      // bound the target may set; taken, [] replaces the set like any other list.
      const r5 = await ws.api.patch(`/v1/campaigns/${id}`, { sequence: [] });
      if (r5.status === 400) expectError(r5, 400, ctx.profile, 'PATCH /v1/campaigns/{id} { sequence: [] } refused');
      else {
        expect2xx(r5, 'PATCH /v1/campaigns/{id} { sequence: [] }');
        expectThat(Array.isArray(r5.body.sequence) && r5.body.sequence.length === 0, msg`sequence [] must replace the steps with none, got ${JSON.stringify(r5.body.sequence).slice(0, 200)}`, r5);
      }
      const r4 = await ws.api.patch(`/v1/campaigns/${id}`, { accounts: [] });
      if (r4.status === 400) return expectError(r4, 400, ctx.profile, 'PATCH /v1/campaigns/{id} { accounts: [] } refused');
      expect2xx(r4, 'PATCH /v1/campaigns/{id} { accounts: [] }');
      expectThat(Array.isArray(r4.body.accounts) && r4.body.accounts.length === 0, msg`accounts [] must replace the set with nothing, got ${JSON.stringify(r4.body.accounts)}`, r4);
    },
  },
  {
    id: 'CAMP-PATCH/invalid',
    title: 'MUST refuse a PATCH with wrong types with 400 validation_failed and leave the campaign unchanged',
    clauses: ['CAMP-PATCH-FIELDS', 'ERR-TABLE-400'],
    level: 'MUST',
    features: ['exclusiveWorkspace'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      const { id, res } = await createCampaign(ctx, ws.api, { steps: 1 });
      for (const body of [{ name: 7 }, { sequence: 'x' }, { accounts: ['not-a-uuid'] }, { settings: { stopOnReply: 'no' } }]) {
        expectValidation400(await ws.api.patch(`/v1/campaigns/${id}`, body), ctx, `PATCH /v1/campaigns/{id} ${JSON.stringify(body)}`);
      }
      const items = (await walk(ctx.profile, ws.api, '/v1/campaigns')) as any[];
      expectThat(items.find((x) => x.id === id)?.name === res.body.campaign.name, msg`a refused PATCH changed the campaign name`, res);
    },
  },
  {
    id: 'CAMP-START/refused',
    title: 'MUST refuse to start a campaign without leads (none given, or its only lead contacted and deleted) or without a sequence (none given, or emptied by PATCH) with 400',
    clauses: ['CAMP-START-400', 'STATE-CAMP-START-REQUIRES-LEADS', 'STATE-CAMP-START-REQUIRES-SEQUENCE', 'ERR-BUSINESS-400', 'ERR-BUSINESS-CODE'],
    level: 'MUST',
    features: [],
    uses: ['control:lead-events'],
    budget: 12,
    // Below default the campaign without leads is the one whose only lead was deleted, and the one
    // without a sequence the one whose sequence was emptied by PATCH (where each can be made).
    shallowerAt: ['smoke', 'quick'],
    async run(ctx) {
      const ws = await ctx.workspace();
      // (Contacted through the control API's lead-events extension; lead-history.ts would close an import circle here.)
      const events = ctx.control && ctx.profile.operations['leads.list'] ? (await ctx.control.extensions()).includes('lead-events') : false;
      const sequenceRequired = (ctx.profile.declarations.campaignRequiredFields ?? []).includes('sequence');
      const shallow = belowDefault(ctx);
      if (!shallow || !events) {
        const noLeads = await createCampaign(ctx, ws.api, { steps: 1 });
        expectBusiness400(await ws.api.post(`/v1/campaigns/${noLeads.id}/start`), ctx, 'starting a campaign with a sequence but no leads');
      }
      if (!shallow || sequenceRequired) await startWithoutSequence(ctx, ws.api, sequenceRequired);
      // A sequence emptied by PATCH is no sequence either (a step count kept from create would still say one).
      if (!sequenceRequired) {
        const emptied = await createCampaign(ctx, ws.api, { leads: 1, steps: 1 });
        if (is2xx(await ws.api.patch(`/v1/campaigns/${emptied.id}`, { sequence: [] })))
          expectBusiness400(await ws.api.post(`/v1/campaigns/${emptied.id}/start`), ctx, 'starting a campaign whose sequence was emptied by PATCH');
        else if (shallow) await startWithoutSequence(ctx, ws.api, false);
      }
      // Leads it had, all gone: a contacted lead is only soft-deleted (3.3), and a deleted lead is no lead of the campaign.
      if (!events) return ctx.log('no control lead-events (or no referenced leads.list): a campaign whose contacted lead was deleted is not started');
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 1);
      expect2xx(await control(ctx).request('POST', `/leads/${leads[0]!.id}/events`, { type: 'contacted' }, { allowError: true }), 'setup: control lead event contacted');
      expect2xx(await ws.api.delete(`/v1/campaigns/${cid}/leads/${leads[0]!.id}`), 'setup: DELETE of the contacted lead');
      expectBusiness400(await ws.api.post(`/v1/campaigns/${cid}/start`), ctx, 'starting a campaign whose only lead was contacted and then deleted');
    },
  },
  {
    id: 'CAMP-START/refused-unchanged',
    title: 'SHOULD leave the campaign status unchanged when start is refused',
    clauses: ['STATE-CAMP-START-NO-STATE-CHANGE-ON-400'],
    level: 'SHOULD',
    features: [],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { steps: 1 });
      await ws.api.post(`/v1/campaigns/${id}/start`);
      const s = await statusOf(ws.api, id);
      expectThat(s.body.status === 'draft', msg`a refused start moved the campaign to ${s.body.status}`, s);
    },
  },
  {
    id: 'CAMP-START/ok',
    title: 'MUST start a draft campaign with leads and a sequence: { id, status, success }, the status reported is the campaign status (also for a startDate still to come)',
    // Not STATE-CAMP-START-BEGINS: a status proves no sending; SEND/start-begins reads the sink.
    clauses: ['CAMP-START-ANSWER', 'STATE-CAMP-START-STATUS-REPORTED', 'SVC-CAMP-START-RESUME-STATUS'],
    level: 'MUST',
    features: [],
    budget: 8,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { leads: 2, steps: 1 });
      const res = await ws.api.post(`/v1/campaigns/${id}/start`);
      // 400 is only for "nothing to send" (it has leads and a sequence): a refusal of the draft state is a 409.
      if (res.status === 409) skip(DRAFT_NOT_STARTABLE);
      expect2xx(res, 'POST /v1/campaigns/{id}/start');
      expectSchema(res, 'CampaignLifecycleResponse', 'POST /v1/campaigns/{id}/start');
      expectThat(res.body.id === id && res.body.success === true, msg`start must answer the campaign id and success true, got ${JSON.stringify(res.body)}`, res);
      expectThat(res.body.status !== 'draft', msg`sending begins: the status after start is no longer draft`, res);
      const s = await statusOf(ws.api, id);
      expectThat(s.body.status === res.body.status, msg`start answered status ${res.body.status} but the campaign is ${s.body.status}`, res, s);
      // A campaign that need not send at once (its startDate two months away): whether it is then
      // active or scheduled is the target's; the answer must report the status it really has.
      const startDate = new Date((await targetNow(ctx)) + 60 * 86_400_000).toISOString();
      const body = { ...campaignBody(faker(ctx), ctx.prefix, { leads: 1, steps: 1 }), schedule: { ...fullBody(ctx, [], []).schedule, startDate } };
      const later = await ws.api.post('/v1/campaigns', body);
      expect2xx(later, `setup: POST /v1/campaigns with schedule.startDate ${startDate}`);
      const r2 = await ws.api.post(`/v1/campaigns/${later.body.campaign.id}/start`);
      expect2xx(r2, `POST /v1/campaigns/{id}/start of a campaign whose startDate ${startDate} is still to come`);
      const s2 = await statusOf(ws.api, later.body.campaign.id);
      expectThat(s2.body.status === r2.body?.status, msg`start of a campaign whose startDate is still to come answered status ${r2.body?.status} but the campaign is ${s2.body.status}`, r2, s2);
    },
  },
  {
    id: 'CAMP-RESUME/no-mailbox',
    title: 'MUST refuse to resume a paused campaign with 400 when the workspace has no mailbox (the campaign listed one, deleted since)',
    clauses: ['CAMP-RESUME-400', 'STATE-CAMP-RESUME-NEEDS-MAILBOX', 'ERR-BUSINESS-400', 'ERR-BUSINESS-CODE'],
    level: 'MUST',
    features: ['op:campaigns.pause', 'exclusiveWorkspace'],
    budget: 12, // lists the mailboxes first, and deletes the run's own
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      await withoutMailboxes(ctx, ws.api);
      // The campaign lists a mailbox, deleted once it is paused: the rule is the workspace's, not the campaign's list.
      const { id: mailbox } = await createMailbox(ctx, ws.api);
      const { id } = await started(ctx, ws.api, { body: { accounts: [mailbox] } });
      await pause(ctx, ws.api, id);
      expect2xx(await ws.api.delete(`/v1/accounts/${mailbox}`), 'setup: DELETE /v1/accounts/{id} (the campaign\'s only mailbox)');
      expectBusiness400(await ws.api.post(`/v1/campaigns/${id}/resume`), ctx, 'resuming a paused campaign in a workspace without mailboxes');
      const s = await statusOf(ws.api, id);
      expectThat(s.body.status === 'paused', msg`a refused resume moved the campaign to ${s.body.status}`, s);
    },
  },
  {
    id: 'CAMP-RESUME/unsendable-mailbox',
    title: 'MUST resume a paused campaign when the workspace has a mailbox, even one that cannot send now (failed; with the control API also revoked)',
    clauses: ['CAMP-RESUME-ANSWER', 'STATE-CAMP-RESUME-FROM-PAUSED', 'STATE-CAMP-RESUME-UNSENDABLE-OK', 'SVC-CAMP-START-RESUME-STATUS'],
    level: 'MUST',
    features: ['op:campaigns.pause', 'exclusiveWorkspace'],
    budget: 10,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      // Its servers answer nothing: the mailbox exists but cannot send.
      const { id: mid } = await createMailbox(ctx, ws.api);
      const { id } = await started(ctx, ws.api, { body: { accounts: [mid] } });
      const p = await pause(ctx, ws.api, id);
      expectThat(p.body?.status === 'paused' || (await statusOf(ws.api, id)).body.status === 'paused', msg`setup: the campaign is not paused after pause`, p);
      const res = await ws.api.post(`/v1/campaigns/${id}/resume`);
      expect2xx(res, 'POST /v1/campaigns/{id}/resume with a mailbox that cannot send');
      expectSchema(res, 'CampaignLifecycleResponse', 'POST /v1/campaigns/{id}/resume');
      expectThat(res.body.id === id && res.body.success === true && res.body.status !== 'paused', msg`resume must answer { id, status (no longer paused), success: true }, got ${JSON.stringify(res.body)}`, res);
      const s = await statusOf(ws.api, id);
      expectThat(s.body.status === res.body.status, msg`resume answered ${res.body.status} but the campaign is ${s.body.status}`, res, s);
      // A disconnected mailbox (3.1's first example): the workspace's only mailbox an OAuth one whose
      // grant was withdrawn (the control API withdraws it). Without the control API this half is not asked.
      if (!ctx.control) return;
      await pause(ctx, ws.api, id);
      expect2xx(await ws.api.delete(`/v1/accounts/${mid}`), 'setup: DELETE /v1/accounts/{id} (the mailbox that cannot send)');
      const revoked = await revokedOAuthMailbox(ctx, ws.api);
      const again = await ws.api.post(`/v1/campaigns/${id}/resume`);
      expect2xx(again, `POST /v1/campaigns/{id}/resume when the workspace's only mailbox is revoked (${revoked})`);
      expectThat(again.body?.status !== 'paused', msg`resume with a revoked mailbox only must resume the campaign, it answered status ${again.body?.status}`, again);
    },
  },
  {
    id: 'CAMP-STATUS/shape',
    title: 'MUST answer GET /v1/campaigns/{id}/status with { id, status, isWithinSchedule, metrics, nextScheduleOpensAt } (null when not active)',
    clauses: ['CAMP-STATUS-ANSWER', 'CAMP-STATUS-FIELDS', 'CAMP-STATUS-NEXTOPENS-NULL-INACTIVE', 'CAMP-METRICS-FIELDS', 'SVC-CAMP-START-RESUME-STATUS', 'RES-NULL-WHERE-STATED'],
    level: 'MUST',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { leads: 2 });
      const s = await statusOf(ws.api, id);
      expectSchema(s, 'CampaignStatusView', 'GET /v1/campaigns/{id}/status');
      expectThat(s.body.id === id && s.body.status === 'draft' && s.body.nextScheduleOpensAt === null, msg`a draft campaign: id ${id}, status draft, nextScheduleOpensAt null; got ${JSON.stringify(s.body)}`, s);
    },
  },
  {
    id: 'CAMP-STATUS/consistent',
    title: "SHOULD report the campaign's own status and metrics in the status view",
    clauses: ['CAMP-STATUS-CONSISTENT'],
    level: 'SHOULD',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id, res } = await createCampaign(ctx, ws.api, { leads: 3 });
      const s = await statusOf(ws.api, id);
      const c = res.body.campaign;
      expectThat(s.body.status === c.status && JSON.stringify(s.body.metrics) === JSON.stringify(c.metrics), msg`status view ${JSON.stringify({ status: s.body.status, metrics: s.body.metrics })} differs from the campaign ${JSON.stringify({ status: c.status, metrics: c.metrics })}`, s, res);
    },
  },
  {
    id: 'CAMP-STATUS/window',
    // What the sending window is (minutes after midnight in the timezone, on sendingDays) is a reading.
    title: 'SHOULD compute isWithinSchedule and nextScheduleOpensAt from the schedule (days, minutes, timezone) and the clock',
    clauses: ['CAMP-STATUS-NEXTOPENS-SET', 'CAMP-STATUS-WITHINSCHEDULE-CLOCK', 'CAMP-SCHEDULE-WINDOW'],
    level: 'SHOULD',
    features: ['control', NEEDS_SENDING_DAYS],
    budget: 12,
    async run(ctx) {
      const ws = await ctx.workspace();
      const now = await control(ctx).now();
      const tz = noonZone(now);
      const w = wall(tz, now);
      const m = w.minute;
      if (m < 240 || m > 1200) skip(`no zone of the list is near noon at ${now.toISOString()}`);
      const all = ALL_DAYS_JS.map((d) => dayNumber(ctx, d));
      const tomorrow = nextDay(tz, now);
      const cases: { what: string; schedule: Record<string, unknown>; within: boolean; opens: Date | null }[] = [
        { what: 'every day, now inside the window', schedule: { sendingDays: all, sendingMinutesStart: m - 120, sendingMinutesEnd: m + 120 }, within: true, opens: null },
        { what: 'every day, the window opens in an hour', schedule: { sendingDays: all, sendingMinutesStart: m + 60, sendingMinutesEnd: m + 120 }, within: false, opens: zoned(tz, w.y, w.mo, w.d, m + 60) },
        { what: 'every day, the window closed two hours ago', schedule: { sendingDays: all, sendingMinutesStart: m - 180, sendingMinutesEnd: m - 120 }, within: false, opens: zoned(tz, tomorrow.y, tomorrow.mo, tomorrow.d, m - 180) },
        { what: 'every day but today, in the time window', schedule: { sendingDays: ALL_DAYS_JS.filter((d) => d !== w.weekday).map((d) => dayNumber(ctx, d)), sendingMinutesStart: m - 120, sendingMinutesEnd: m + 120 }, within: false, opens: zoned(tz, tomorrow.y, tomorrow.mo, tomorrow.d, m - 120) },
      ];
      let opensJudged = 0;
      for (const c of cases) {
        const schedule = { timezone: tz, dailyLimit: 50, ...c.schedule };
        const { id } = await started(ctx, ws.api, { body: { schedule } });
        const s = await statusOf(ws.api, id);
        const what = `${c.what} (${tz}, local ${String(w.h).padStart(2, '0')}:${String(w.mi).padStart(2, '0')}, schedule ${JSON.stringify(c.schedule)})`;
        expectSchema(s, 'CampaignStatusView', `GET /v1/campaigns/{id}/status: ${what}`);
        expectThat(s.body.isWithinSchedule === c.within, msg`${what}: isWithinSchedule must be ${c.within}, got ${s.body.isWithinSchedule}`, s);
        if (s.body.status !== 'active') {
          expectThat(s.body.nextScheduleOpensAt === null, msg`${what}: nextScheduleOpensAt must be null when not active`, s);
          continue;
        }
        if (c.opens === null) expectThat(s.body.nextScheduleOpensAt === null, msg`${what}: nextScheduleOpensAt must be null in-window, got ${s.body.nextScheduleOpensAt}`, s);
        else {
          const got = Date.parse(s.body.nextScheduleOpensAt);
          expectThat(Math.abs(got - c.opens.getTime()) <= 60_000, msg`${what}: nextScheduleOpensAt must be ${c.opens.toISOString()}, got ${s.body.nextScheduleOpensAt}`, s);
          opensJudged++;
        }
      }
      // null is all a campaign that is not active shows: a target that never keeps an out-of-window campaign active proves no opening time.
      if (opensJudged === 0) skip('no started campaign outside its window was active, so no nextScheduleOpensAt value could be held to the schedule (isWithinSchedule was)');
    },
  },
  {
    id: 'CAMP-STATUS/window-clock',
    title: 'SHOULD turn isWithinSchedule true when the control clock reaches the window',
    clauses: ['CAMP-STATUS-WITHINSCHEDULE-CLOCK'],
    level: 'SHOULD',
    features: ['control', NEEDS_SENDING_DAYS],
    budget: 5,
    depth: 'full',
    solo: true,
    async run(ctx) {
      const ws = await ctx.workspace();
      const now = await control(ctx).now();
      const tz = noonZone(now);
      const m = wall(tz, now).minute;
      if (m < 240 || m > 1200) skip(`no zone of the list is near noon at ${now.toISOString()}`);
      const { id } = await started(ctx, ws.api, { body: { schedule: { timezone: tz, dailyLimit: 50, sendingDays: ALL_DAYS_JS.map((d) => dayNumber(ctx, d)), sendingMinutesStart: m + 30, sendingMinutesEnd: m + 90 } } });
      const before = await statusOf(ws.api, id);
      expectThat(before.body.isWithinSchedule === false, msg`before the window opens isWithinSchedule must be false`, before);
      await control(ctx).advance(45 * 60);
      const after = await statusOf(ws.api, id);
      expectThat(after.body.isWithinSchedule === true, msg`after the clock moved into the window isWithinSchedule must be true`, after);
      expectThat(after.body.nextScheduleOpensAt === null, msg`in-window nextScheduleOpensAt must be null, got ${after.body.nextScheduleOpensAt}`, after);
    },
  },
  {
    id: 'CAMP-START/from-draft',
    title: 'SHOULD start a draft campaign that has leads and a sequence (a draft is a startable state)',
    clauses: ['STATE-CAMP-START-FROM-DRAFT'],
    level: 'SHOULD',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { leads: 1, steps: 1 });
      expect2xx(await ws.api.post(`/v1/campaigns/${id}/start`), 'POST /v1/campaigns/{id}/start of a draft with leads and a sequence');
    },
  },
  {
    id: 'CAMP-STATUS/always-open',
    title: 'MUST report an active campaign whose window spans every minute of today (numbered as the profile declares) as within schedule, with nextScheduleOpensAt null, and once PATCHed to every day but today as outside it (nextScheduleOpensAt a timestamp), and once paused there with nextScheduleOpensAt null',
    // Also the status view of a started campaign (CAMP-STATUS/shape reads a draft's): its schema is held here, and
    // outside the window too, the one view where nextScheduleOpensAt is set (its written form is read there);
    // the metrics of a started campaign (a live view where a draft's are zeros) are typed there too;
    // so is its nextScheduleOpensAt, the one timestamp only this view writes (an ISO 8601 string, part 2).
    clauses: ['CAMP-STATUS-WITHINSCHEDULE', 'CAMP-STATUS-NEXTOPENS-NULL-INWINDOW', 'CAMP-SCHEDULE-DAYS-PROFILE', 'CAMP-STATUS-ANSWER', 'CAMP-STATUS-FIELDS', 'CAMP-STATUS-NEXTOPENS-NULL-INACTIVE', 'CAMP-METRICS-FIELDS', 'STATE-CAMP-STATES', 'RES-TS-ISO8601'],
    level: 'MUST',
    features: [NEEDS_SENDING_DAYS],
    budget: 7,
    async run(ctx) {
      const ws = await ctx.workspace();
      // Inside the window under any reading of the schedule: from the first minute to the last of
      // today alone, in a zone where it is today in UTC too (whichever clock a target reads the days
      // by) and clear of midnight. Whether the end minute is in the window, and whether minutes run
      // to 1439 or 1440, is not stated. Without such a zone of the list: every day, in one near noon.
      const now = new Date(await targetNow(ctx));
      const zone = sameDayZone(now);
      const timezone = zone ?? noonZone(now);
      const today = wall(timezone, now).weekday;
      const days = zone ? [today] : ALL_DAYS_JS;
      const schedule = { timezone, dailyLimit: 50, sendingDays: days.map((d) => dayNumber(ctx, d)), sendingMinutesStart: 0, sendingMinutesEnd: 1439 };
      const { id } = await started(ctx, ws.api, { body: { schedule } });
      const s = await statusOf(ws.api, id);
      expectSchema(s, 'CampaignStatusView', 'GET /v1/campaigns/{id}/status');
      if (s.body.status !== 'active') skip(`the started campaign is ${s.body.status}, not active: the sending window applies to an active campaign`);
      const what = zone
        ? `every minute of today alone (${WEEKDAYS[today]}, sendingDays ${JSON.stringify(schedule.sendingDays)} as the profile numbers them: names.sendingDays ${ctx.profile.names.sendingDays}; ${timezone})`
        : `every minute of every day (${timezone})`;
      expectThat(s.body.isWithinSchedule === true, msg`a window of ${what}: isWithinSchedule must be true, got ${s.body.isWithinSchedule}`, s);
      expectThat(s.body.nextScheduleOpensAt === null, msg`in-window nextScheduleOpensAt must be null, got ${s.body.nextScheduleOpensAt}`, s);
      // The false half: every day but today, in the zone where it is today in UTC too, is outside the
      // window under any reading of the minutes or of the clock the days are read by.
      if (!zone) return;
      const outside = { ...schedule, sendingDays: ALL_DAYS_JS.filter((d) => d !== today).map((d) => dayNumber(ctx, d)) };
      const patched = await ws.api.patch(`/v1/campaigns/${id}`, { schedule: outside });
      // Whether an active campaign's schedule may be edited is not stated: a refusal leaves the half unasked.
      if (patched.status >= 400 && patched.status < 500) return;
      expect2xx(patched, 'PATCH /v1/campaigns/{id} with a schedule of every day but today');
      const o = await statusOf(ws.api, id);
      expectSchema(o, 'CampaignStatusView', 'GET /v1/campaigns/{id}/status of an active campaign outside its window');
      expectThat(o.body.isWithinSchedule === false, msg`a window of every day but today (${WEEKDAYS[today]}; sendingDays ${JSON.stringify(outside.sendingDays)}; ${timezone}), as PATCHed: isWithinSchedule must be false, got ${o.body.isWithinSchedule}`, o);
      // Not active: paused outside its window, the campaign has no next opening to report (null, 2.5).
      // The pause is a referenced operation: without it, or where it is refused, this half is not asked.
      if (!ctx.profile.operations['campaigns.pause']) return;
      const paused = await ws.api.request(opRequest(ctx, 'campaigns.pause', { id }));
      if (!is2xx(paused)) return;
      const p = await statusOf(ws.api, id);
      expectSchema(p, 'CampaignStatusView', 'GET /v1/campaigns/{id}/status of a paused campaign outside its window');
      if (p.body.status !== 'active') expectThat(p.body.nextScheduleOpensAt === null, msg`a ${p.body.status} campaign (paused outside its window) is not active: nextScheduleOpensAt must be null, got ${JSON.stringify(p.body.nextScheduleOpensAt)}`, p, paused);
    },
  },
];
