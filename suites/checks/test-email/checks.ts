import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { MailSink, StoredMessage } from '../../../harness/sinks/index.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectThat, is2xx, msg } from '../../lib/expect.ts';
import { drainAll } from '../../lib/drain.ts';
import { clearOfDayTurn, dayTurned, targetNow } from '../../lib/target-clock.ts';
import { dailyLimitMayExplain } from '../../lib/test-email-limit.ts';
import { NEEDS_VARIANT_ID, addLeads, createMailbox, faker, listLeads, setupCampaignBody, variantIdOf } from '../../lib/recipes.ts';
import { campaignWithLeads, expectQuotaRefused, expectRejected, expectValidation400, sinkMailbox } from '../resources/lib.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, Driver, contentOf, launch, leadAddresses, sendingMailbox, workspaceZone } from '../sending/lib.ts';
import { NEEDS_MERGE_VARIABLES, mergeVariable } from '../sending/delivery.ts';

// The test email (4.3 "Test email body", part 8): sent from a real mailbox of the workspace, at the
// kit's sinks, to a recipient at the sinks. What arrives is read at the sink, not taken from the
// answer. 4.3 allows 503 upstream_unavailable at any time: a check that needs a delivered test
// email skips when the target answers it (the report shows the skip).

const FEATURES = ['sinks', 'testEmail', 'op:accounts.get', NEEDS_SENDING_MAILBOX, NEEDS_VARIANT_ID] as const;
const ARRIVAL_MS = 15_000;
/** The longest wait for a test email to reach the sink: a full rate window, then the request's own timeout. */
const HOLD_WAIT_MS = 120_000;

interface Sender {
  ws: Workspace;
  sink: MailSink;
  accountId: string;
  address: string;
  smtpUser: string;
  campaignId: string;
  variantId: string;
}

type Step = { subject: string; body: string };

/** How sender() sets the campaign apart from what a test email names. */
interface Apart {
  /** A step before `step`: the variant named is then not the campaign's first. */
  before?: Step;
  /** The campaign sends from another mailbox of the workspace, not the one accountId names. */
  otherMailbox?: boolean;
}

/** A verified mailbox at the sinks and a campaign whose step is `step` (its one step, or as `apart` says). */
async function sender(ctx: CheckContext, step: Step, mailbox: Record<string, unknown> = {}, exclusive = false, apart: Apart = {}): Promise<Sender> {
  return senderIn(ctx, await ctx.workspace({ exclusive }), step, mailbox, apart);
}

/** As sender(), in a workspace already held (another mailbox and campaign beside a sender's). */
async function senderIn(ctx: CheckContext, ws: Workspace, step: Step, mailbox: Record<string, unknown> = {}, apart: Apart = {}): Promise<Sender> {
  const box = await sendingMailbox(ctx, ws, mailbox);
  const steps = [...(apart.before ? [apart.before] : []), step].map((x) => ({ ...x, delayDays: 0, delayHours: 0 }));
  const accounts = apart.otherMailbox ? [(await createMailbox(ctx, ws.api)).id] : [box.id];
  const res = await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx, { accounts, steps: steps.length })), sequence: steps });
  expect2xx(res, 'setup: POST /v1/campaigns');
  const campaignId = res.body?.campaign?.id;
  expectThat(typeof campaignId === 'string', msg`setup: POST /v1/campaigns answered without campaign.id`, res);
  const variantId = variantIdOf(ctx.profile, res.body?.campaign, steps.length - 1, res);
  return { ws, sink: box.sink, accountId: box.id, address: box.address, smtpUser: box.smtpUser, campaignId, variantId };
}

/** A recipient at the sinks (a user of its own, so what reaches it is this check's). */
async function recipient(ctx: CheckContext): Promise<string> {
  return (await sinkMailbox(ctx, false)).input.emailAddress as string;
}

function send(s: Sender, to: string, extra: Record<string, unknown> = {}, api: ApiClient = s.ws.api): Promise<ApiResponse> {
  return api.post(`/v1/campaigns/${s.campaignId}/test-email`, { variantId: s.variantId, accountId: s.accountId, recipient: to, personalization: 'dummy', ...extra });
}

function upstreamUnavailable(res: ApiResponse): boolean {
  return res.status === 503 && res.body?.error?.code === 'upstream_unavailable';
}

/**
 * A test email the target says it sent: `{ sent: true, messageId }`. Skips on the 503 4.3 allows,
 * and on a refusal the day's limit could explain (suites/lib/test-email-limit.ts).
 */
function expectSent(ctx: CheckContext, res: ApiResponse, what: string): void {
  if (upstreamUnavailable(res)) skip(`${what}: the target answered 503 upstream_unavailable (4.3 allows it), so no delivery could be observed`);
  const limited = dailyLimitMayExplain(ctx, res, what);
  if (limited) skip(limited);
  expect2xx(res, what);
  expectThat(typeof res.body?.sent === 'boolean' && typeof res.body?.messageId === 'string', msg`${what}: the answer must be { sent: boolean, messageId: string }, got ${JSON.stringify(res.body)?.slice(0, 200)}`, res);
  expectThat(res.body.sent === true, msg`${what}: the target answered sent: ${res.body.sent} for a test email to a sink that accepts mail`, res);
}

/**
 * A test email refused (a blacklisted recipient, a daily quota): 4.3 and part 8 say only "refused",
 * so an error answer (as expectRejected, or for a quota expectQuotaRefused takes it) and a 2xx
 * whose own boolean says `sent: false` are each a refusal. Nothing may arrive: the caller reads the sink.
 */
function expectRefused(res: ApiResponse, ctx: CheckContext, what: string, quota: boolean): void {
  if (is2xx(res)) {
    expectThat(res.body?.sent === false, msg`${what}: must be refused (an error, or a 2xx saying sent: false), got ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`, res);
    return;
  }
  if (quota) expectQuotaRefused(res, ctx, what);
  else expectRejected(res, ctx, what);
}

/** The messages that reached `to` so far, after letting the target's background work run. */
async function arrivals(ctx: CheckContext, s: Pick<Sender, 'ws' | 'sink'>, to: string, atLeast: number): Promise<StoredMessage[]> {
  const sink = s.sink;
  if (ctx.control) await drainAll(ctx.control, 5000, s.ws.api.organizationId).catch(() => false);
  if (atLeast > 0) await sink.waitFor((m) => m.envelope.rcptTo.includes(to) && sink.messages({ to }).length >= atLeast, { timeout: ARRIVAL_MS }).catch(() => undefined);
  return sink.messages({ to });
}

/** Longest a daily-limit check takes on the target's clock (its sends and arrivals; other checks may move the control clock too). */
const DAY_CHECK_SPAN_MS = 20 * 60_000;

/** The mailbox gap of TEST-EMAIL/mailbox-daily-limit (minutes): longer than its steps while it waits for the first send. */
const GAP_MINUTES = 5;

/**
 * A daily limit's count within one day: whose day it is (UTC's, the workspace's) is not shown, so
 * the check starts clear of the next turn in either (with the control API), and a send past the
 * limit that a turn could explain proves nothing (it skips then, saying so).
 */
async function sameDay(ctx: CheckContext, ws: Workspace) {
  const zones = [...new Set(['UTC', await workspaceZone(ws)])];
  const from = await clearOfDayTurn(ctx, zones, DAY_CHECK_SPAN_MS);
  return {
    /** Skips when `res` (null: something that was sent) was accepted after the day turned. */
    async unlessTurned(res: ApiResponse | null, what: string): Promise<void> {
      if (res && (!is2xx(res) || res.body?.sent === false)) return;
      const turned = dayTurned(from, await targetNow(ctx), zones);
      if (turned) skip(`${what} was accepted after the day turned in ${turned} during the check (target time ${new Date(from).toISOString()} to now): whose day a daily limit counts in is not shown, so a new day may have begun the count again`);
    },
  };
}

/** What stands between each pair of ~ marks. */
const filled = (s: string) => [...s.matchAll(/~([^~]*)~/g)].map((x) => x[1]!);
/**
 * What a reader sees of an HTML part: the head (title, styles), scripts, comments and hidden
 * elements (a preheader) dropped, tags gone, the few entities a value may carry decoded. A full
 * document titled with the subject, or a hidden preview of the text, repeats no slot the reader sees.
 */
const HIDDEN = /<(\w+)\b[^>]*?(?:\shidden(?=[\s=>/])|display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all|max-height\s*:\s*0(?![.\d])|font-size\s*:\s*0(?![.\d]))[^>]*>[\s\S]*?<\/\1\s*>/gi;
const htmlText = (html: string) => html
  .replace(/<!--[\s\S]*?-->/g, '')
  .replace(/<(head|title|style|script)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
  .replace(HIDDEN, '')
  .replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

const bare = (id: string | null | undefined) => (id ?? '').trim().replace(/^<|>$/g, '');

/**
 * A test email to a recipient whose address (or domain) the workspace's blacklist holds is refused
 * and sends nothing. A domain of the call's own: the blacklist stays with the workspace, which other
 * checks lease later. A domain is case-insensitive: the recipient spells the listed domain in other
 * case, for the address too (its local part stays as listed: a local part may be case-sensitive).
 */
async function refusedWhenListed(ctx: CheckContext, s: Sender, entry: 'address' | 'domain'): Promise<void> {
  const tag = faker(ctx).string.alphanumeric(10).toLowerCase();
  const lower = `${ctx.prefix}bl-${tag}@${tag}.blocked.test`.toLowerCase();
  const value = entry === 'address' ? lower : lower.slice(lower.indexOf('@') + 1);
  await ctx.control!.request('POST', `/workspaces/${s.ws.organizationId}/blacklist`, { value });
  const to = `${lower.slice(0, lower.indexOf('@'))}@${tag.toUpperCase()}.Blocked.TEST`;
  const res = await send(s, to);
  expectRefused(res, ctx, `a test email to ${to} with the ${entry} ${value} on the blacklist`, false);
  const got = await arrivals(ctx, s, to, 0);
  expectThat(got.length === 0, msg`a refused test email must send nothing, yet ${got.length} message(s) reached ${to} (the ${entry} ${value} on the blacklist)`, res);
}

export const TEST_EMAIL_CHECKS: Check[] = [
  {
    id: 'TEST-EMAIL/delivered',
    title: "MUST deliver a test email from the chosen mailbox, through its SMTP server, to the recipient, once, with the mailbox's replyToAddress as Reply-To, its signature appended, its displayName on From and a blind copy to its bcc, and answer { sent, messageId }",
    clauses: ['SVC-CAMP-TEST-EMAIL', 'CAMP-TEST-BODY', 'CAMP-TEST-ANSWER', 'CAMP-TEST-VARIANTID', 'CAMP-TEST-ACCOUNTID', 'CAMP-TEST-REAL-MAILBOX', 'ACCT-REPLYTO-BEHAVIOUR', 'ACCT-SIGNATURE-APPENDED', 'ACCT-DISPLAYNAME-SENDER', 'ACCT-BCC-BEHAVIOUR'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 13,
    testEmails: 1,
    async run(ctx) {
      const token = `${ctx.prefix}te-${ctx.seed.toString(36)}`;
      // The variant named is the campaign's second step, and the mailbox named is not the campaign's.
      // The mailbox has a replyToAddress, a signature and a displayName of its own: a test email is outgoing
      // mail too (2.1: carried as Reply-To, the signature appended, the name the sender's).
      const replyTo = `${ctx.prefix}replies-${faker(ctx).string.alphanumeric(6)}@replies.sink.test`.toLowerCase();
      const sig = `Sig-${token}`;
      const name = `Tess Sender${ctx.seed.toString(36)}`;
      // 2.1: the bcc receives a blind copy of every email from the mailbox, a test email too.
      const bcc = `${ctx.prefix}bcc-${faker(ctx).string.alphanumeric(6)}@bcc.sink.test`.toLowerCase();
      const s = await sender(ctx, { subject: `Subject ${token}`, body: `<p>Body ${token}</p>` }, { replyToAddress: replyTo, signature: `<p>${sig}</p>`, displayName: name, bcc }, false, { before: { subject: `First step ${ctx.prefix}`, body: '<p>First step</p>' }, otherMailbox: true });
      const to = await recipient(ctx);
      const res = await send(s, to);
      expectSent(ctx, res, 'POST /v1/campaigns/{id}/test-email');
      const got = await arrivals(ctx, s, to, 1);
      expectThat(got.length === 1, msg`exactly one message must reach ${to}, got ${got.length} within ${ARRIVAL_MS / 1000} s`, res);
      const m = got[0]!;
      expectThat(m.session.authUser === s.smtpUser, msg`the test email must go through the chosen mailbox's SMTP server and login (${s.smtpUser}), it came with login ${JSON.stringify(m.session.authUser)}`, res);
      expectThat((m.header('from') ?? '').toLowerCase().includes(s.address.toLowerCase()), msg`the test email must come from the chosen mailbox ${s.address}, From is ${JSON.stringify(m.header('from'))}`, res);
      expectThat((m.subject ?? '').includes(token), msg`the test email must render the chosen variant (subject with ${token}), got ${JSON.stringify(m.subject)}`, res);
      expectThat((m.header('reply-to') ?? '').toLowerCase().includes(replyTo), msg`the chosen mailbox's replyToAddress ${replyTo} must be where replies go (Reply-To) on the test email too, got Reply-To ${JSON.stringify(m.header('reply-to'))}`, res);
      const c = await contentOf(m);
      expectThat(c.html.includes(sig) || c.text.includes(sig), msg`the chosen mailbox's signature (${sig}) must be appended to the test email too, it is not in the body`, res);
      expectThat((m.header('from') ?? '').includes(name), msg`the chosen mailbox's displayName "${name}" is the sender display name on the test email too, From is ${JSON.stringify(m.header('from'))}`, res);
      // The copy rides the same transaction (an envelope recipient) or a message of its own through the same login.
      const copied = (x: StoredMessage) => !x.injected && x.session.authUser === s.smtpUser && x.envelope.rcptTo.some((r) => r.toLowerCase() === bcc) && (x.subject ?? '').includes(token);
      await s.sink.waitFor(copied, { timeout: ARRIVAL_MS }).catch(() => undefined);
      expectThat(s.sink.messages(copied).length >= 1, msg`the chosen mailbox's bcc ${bcc} must receive a blind copy of the test email too: no message through its login was addressed to it (envelope)`, res);
    },
  },
  {
    id: 'TEST-EMAIL/message-id',
    title: "SHOULD answer the delivered email's Message-ID as messageId",
    clauses: ['CAMP-TEST-MESSAGEID'],
    level: 'SHOULD',
    features: [...FEATURES],
    budget: 12,
    testEmails: 1,
    async run(ctx) {
      const s = await sender(ctx, { subject: `Message-ID ${ctx.prefix}`, body: '<p>Message-ID</p>' });
      const to = await recipient(ctx);
      const res = await send(s, to);
      expectSent(ctx, res, 'POST /v1/campaigns/{id}/test-email');
      const [m] = await arrivals(ctx, s, to, 1);
      expectThat(m, msg`nothing reached ${to}`, res);
      expectThat(bare(m.messageIdHeader) === bare(res.body.messageId), msg`messageId ${res.body.messageId} should be the Message-ID of the email delivered, ${m.messageIdHeader}`, res);
    },
  },
  {
    id: 'TEST-EMAIL/dummy',
    title: 'MUST fill every placeholder with personalization dummy: no merge variable reaches the recipient (profile: merge variable names)',
    clauses: ['CAMP-TEST-DUMMY', 'CAMP-TEST-PERSONALIZATION-ENUM'],
    level: 'MUST',
    features: [...FEATURES, NEEDS_MERGE_VARIABLES],
    budget: 12,
    testEmails: 1,
    async run(ctx) {
      const first = mergeVariable(ctx, 'firstName');
      const company = mergeVariable(ctx, 'companyName');
      // Each placeholder sits between two marks, so what fills it can be read: a value of its own,
      // not the placeholder and not an empty string. Read decoded (mailparser), never the raw bytes.
      const s = await sender(ctx, { subject: `Hello ~${first}~ at ~${company}~`, body: `<p>Dear ~${first}~ of ~${company}~,</p>` });
      const to = await recipient(ctx);
      const res = await send(s, to);
      expectSent(ctx, res, 'POST /v1/campaigns/{id}/test-email with personalization dummy');
      const [m] = await arrivals(ctx, s, to, 1);
      expectThat(m, msg`nothing reached ${to}`, res);
      const c = await contentOf(m);
      const parts = { subject: c.subject, text: c.text, html: htmlText(c.html) };
      for (const [part, value] of Object.entries(parts)) {
        if (part !== 'subject' && !value.trim()) continue; // a message may carry only one of text and HTML
        // At least the two places: a target may show the subject again (a heading), never fewer.
        const fills = filled(value);
        expectThat(fills.length >= 2, msg`the ${part} of the delivered test email must keep both marked placeholders' places (~...~), found ${fills.length}: ${JSON.stringify(value.slice(0, 200))}`, res);
        expectThat(!value.includes(`{{${first}}}`) && !value.includes(`{{${company}}}`), msg`dummy personalization must leave no placeholder: the ${part} holds {{${first}}} or {{${company}}}: ${JSON.stringify(value.slice(0, 200))}`, res);
        const bad = fills.filter((f) => !f.trim() || f.includes(first) || f.includes(company) || /\{\{|\}\}/.test(f));
        expectThat(bad.length === 0, msg`dummy personalization must fill the placeholders ${first} and ${company} with a value; the ${part} holds ${bad.map((b) => JSON.stringify(b)).join(', ')}`, res);
      }
    },
  },
  {
    id: 'TEST-EMAIL/lead',
    title: "MUST take leadId in the test-email body and render the lead it names with personalization lead (its first and company names reach the recipient; profile: merge variable names)",
    clauses: ['CAMP-TEST-LEAD', 'CAMP-TEST-BODY'],
    level: 'MUST',
    features: [...FEATURES, 'op:leads.create', 'op:leads.list', NEEDS_MERGE_VARIABLES],
    budget: 17,
    testEmails: 1,
    async run(ctx) {
      const first = mergeVariable(ctx, 'firstName');
      const company = mergeVariable(ctx, 'companyName');
      const s = await sender(ctx, { subject: `Hello ${first}`, body: `<p>Dear ${first} of ${company},</p>` });
      const f = faker(ctx);
      // Two leads of their own names: the second is named, so a render of the campaign's first lead shows.
      const other = { firstName: `Yan${f.string.alpha(6)}`, companyName: `Bolt${f.string.alpha(6)}` };
      const who = { firstName: `Zoe${f.string.alpha(6)}`, companyName: `Acme${f.string.alpha(6)}` };
      const [decoy, lead] = await addTwoLeads(ctx, s);
      for (const [id, names] of [[decoy, other], [lead, who]] as const) {
        expect2xx(await s.ws.api.patch(`/v1/campaigns/${s.campaignId}/leads/${id}`, names), 'setup: PATCH /v1/campaigns/{cid}/leads/{leadId}');
      }
      const to = await recipient(ctx);
      const res = await send(s, to, { personalization: 'lead', leadId: lead });
      expectSent(ctx, res, 'POST /v1/campaigns/{id}/test-email with personalization lead');
      const [m] = await arrivals(ctx, s, to, 1);
      expectThat(m, msg`nothing reached ${to}`, res);
      expectThat((m.subject ?? '').includes(who.firstName), msg`personalization lead must render the lead's firstName ${who.firstName} into the subject, got ${JSON.stringify(m.subject)}`, res);
      expectThat(m.raw.toString('utf8').includes(who.companyName), msg`personalization lead must render the lead's companyName ${who.companyName} into the body`, res);
      expectThat(!m.raw.toString('utf8').includes(other.firstName), msg`personalization lead must render the lead leadId names, not the campaign's other lead (${other.firstName})`, res);
    },
  },
  {
    id: 'TEST-EMAIL/invalid',
    title: 'MUST refuse with 400 validation_failed, sending nothing: lead without leadId, leadId with dummy, an unknown personalization, two recipients (in a string or an array)',
    clauses: ['CAMP-TEST-LEAD-REQUIRES-LEADID', 'CAMP-TEST-LEADID-OMITTED', 'CAMP-TEST-PERSONALIZATION-ENUM', 'CAMP-TEST-RECIPIENT-SINGLE'],
    level: 'MUST',
    features: [...FEATURES, 'op:leads.create', 'op:leads.list'],
    budget: 22,
    testEmails: 1,
    async run(ctx) {
      const s = await sender(ctx, { subject: `Invalid ${ctx.prefix}`, body: '<p>never sent</p>' });
      const lead = await addOneLead(ctx, s);
      const to = await recipient(ctx);
      const other = await recipient(ctx);
      const cases: [string, Record<string, unknown>][] = [
        ['personalization lead without leadId', { personalization: 'lead' }],
        ['personalization dummy with a leadId', { personalization: 'dummy', leadId: lead }],
        ['personalization "custom" (not in the enum)', { personalization: 'custom' }],
        ['personalization "DUMMY" (the enum\'s values are exact)', { personalization: 'DUMMY' }],
        ['two recipients in one string', { recipient: `${to}, ${other}` }],
        ['two recipients as an array', { recipient: [to, other] }],
      ];
      for (const [what, extra] of cases) expectValidation400(await send(s, to, extra), ctx, `POST /v1/campaigns/{id}/test-email, ${what}`);
      const got = await arrivals(ctx, s, to, 0);
      expectThat(got.length === 0 && s.sink.messages({ to: other }).length === 0, msg`a refused test email must send nothing, yet ${got.length} message(s) reached ${to}`);
    },
  },
  {
    id: 'TEST-EMAIL/not-monthly',
    title: 'MUST NOT count a test email toward the monthly quota (monthly_emails used unchanged), with dummy values or rendered for a lead',
    clauses: ['CAMP-TEST-NOT-MONTHLY'],
    level: 'MUST',
    features: [...FEATURES, 'exclusiveWorkspace'],
    budget: 20,
    testEmails: 2,
    async run(ctx) {
      // A workspace of its own: another check's campaign sends in a shared one would move the usage.
      const s = await sender(ctx, { subject: `Quota ${ctx.prefix}`, body: '<p>quota</p>' }, {}, true);
      const used = async () => {
        const r = await s.ws.api.get('/v1/usage/monthly_emails');
        expect2xx(r, 'GET /v1/usage/monthly_emails');
        expectThat(typeof r.body?.used === 'number', msg`GET /v1/usage/monthly_emails must carry used (number), got ${JSON.stringify(r.body)?.slice(0, 200)}`, r);
        return r;
      };
      const before = await used();
      const to = await recipient(ctx);
      const sent = await send(s, to);
      expectSent(ctx, sent, 'POST /v1/campaigns/{id}/test-email');
      await arrivals(ctx, s, to, 1);
      const after = await used();
      expectThat(after.body.used === before.body.used, msg`a test email must not count toward monthly_emails: used went from ${before.body.used} to ${after.body.used}`, before, after);
      // Rendered for a lead (often through the lead's own send path) it is still a test email. Where the
      // profile offers no referenced lead create and list, no lead id can be named: that half is not asked.
      if (!ctx.profile.operations['leads.create'] || !ctx.profile.operations['leads.list']) return;
      const lead = await addOneLead(ctx, s);
      const forLead = await send(s, to, { personalization: 'lead', leadId: lead });
      expectSent(ctx, forLead, 'POST /v1/campaigns/{id}/test-email with personalization lead');
      await arrivals(ctx, s, to, 2);
      const last = await used();
      expectThat(last.body.used === before.body.used, msg`a test email rendered for a lead (personalization lead) must not count toward monthly_emails either: used went from ${before.body.used} to ${last.body.used}`, forLead, last);
    },
  },
  {
    id: 'TEST-EMAIL/mailbox-daily-limit',
    title: "MUST count a test email toward its mailbox's daily limit, the one campaign mail spends too, and refuse one from a mailbox at its limit: with maxEmailsPerDay 2, a campaign email and a test email spend the day (no second test email; with the control clock, no second campaign email either)",
    clauses: ['CAMP-TEST-ACCOUNT-DAILY-LIMIT', 'CAMP-TEST-COUNTS-DAILY'],
    level: 'MUST',
    features: [...FEATURES, 'op:leads.list', NEEDS_OPEN_SCHEDULE],
    budget: 24,
    testEmails: 2,
    async run(ctx) {
      // A 5-minute gap: while the check steps a minute at a time to see the first step, the other
      // lead is not due yet, even where a drain ran out its bound with that step still on the wire
      // (the second campaign email would then spend the day before the test email is asked).
      const s = await sender(ctx, { subject: `Daily ${ctx.prefix}`, body: '<p>daily</p>' }, { maxEmailsPerDay: 2, sendingGapMinutes: GAP_MINUTES });
      const to = await recipient(ctx);
      const day = await sameDay(ctx, s.ws);
      // A campaign of two leads from the same mailbox: its first step to one lead spends one of the day's two.
      const leads = leadAddresses(ctx, 2, 'daily');
      await launch(ctx, s.ws, { accounts: [s.accountId], leads, steps: [{ subject: `Daily campaign ${ctx.prefix}`, body: '<p>campaign</p>' }] });
      const drv = new Driver(ctx, s.sink, (m) => !m.injected && m.session.authUser === s.smtpUser && m.envelope.rcptTo.some((r) => leads.includes(r.toLowerCase())));
      const reached = () => leads.filter((a) => drv.to(a).length > 0);
      const first = await drv.until(() => reached().length > 0, { stepMs: 60_000, horizonMs: 10 * 60_000, wallCapMs: 90_000, what: "the campaign's first step" });
      expectThat(first, msg`setup: the started campaign's step reached neither lead within 10 minutes`);
      expectSent(ctx, await send(s, to), 'a test email from a mailbox with maxEmailsPerDay 2 that sent one campaign email today');
      await arrivals(ctx, s, to, 1);
      // The day's two are spent. With the control clock, time passes the mailbox's gap: the other lead waits for another day.
      if (ctx.control) await drv.until(() => reached().length > 1, { stepMs: 60_000, horizonMs: (GAP_MINUTES + 3) * 60_000, what: "the campaign's step to its other lead" });
      const second = await send(s, to);
      await day.unlessTurned(second, 'the second test email from a mailbox with maxEmailsPerDay 2 that sent a campaign email and a test email');
      expectRefused(second, ctx, 'a second test email the same day from a mailbox with maxEmailsPerDay 2 that sent a campaign email and a test email', true);
      const got = await arrivals(ctx, s, to, 0);
      expectThat(got.length === 1, msg`a mailbox at its daily limit must send nothing more: ${got.length} test emails reached ${to}`, second);
      if (reached().length > 1) await day.unlessTurned(null, 'the campaign step to the second lead');
      expectThat(reached().length === 1, msg`a test email counts toward the mailbox's daily limit that campaign mail spends too: with maxEmailsPerDay 2, a campaign email and a test email sent, the campaign's step must wait for another day, yet it reached both leads (${leads.join(', ')})`);
    },
  },
  {
    id: 'TEST-EMAIL/workspace-12',
    title: 'MUST send at most 12 test emails per day per workspace: the 13th is refused and sends nothing',
    clauses: ['LIMIT-TEST-EMAILS-12'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 40,
    // All 12 of the day: the pool leases it a workspace no other check of this run sends test
    // emails from (their requests may share it: they do not count toward the 12).
    testEmails: 12,
    async run(ctx) {
      // The 12 are the workspace's: six from each of two mailboxes, campaigns and recipients, so a
      // count kept per mailbox, per campaign or per recipient lets the 13th through.
      const step = { subject: `Twelve ${ctx.prefix}`, body: '<p>twelve</p>' };
      const a = await sender(ctx, step, { maxEmailsPerDay: 50 });
      const b = await senderIn(ctx, a.ws, step, { maxEmailsPerDay: 50 });
      const pairs = [[a, await recipient(ctx)], [b, await recipient(ctx)]] as const;
      const day = await sameDay(ctx, a.ws);
      for (let i = 1; i <= 12; i++) {
        const [s, to] = pairs[i % 2]!;
        expectSent(ctx, await send(s, to), `test email ${i} of 12 (six from each of two mailboxes)`);
      }
      for (const [s, to] of pairs) await arrivals(ctx, s, to, 6);
      const thirteenth = await send(a, pairs[0][1]);
      await day.unlessTurned(thirteenth, 'the 13th test email');
      expectRefused(thirteenth, ctx, 'the 13th test email of the day in one workspace (its mailbox had sent six)', true);
      const got = (await Promise.all(pairs.map(([s, to]) => arrivals(ctx, s, to, 0)))).flat();
      expectThat(got.length === 12, msg`12 test emails per day per workspace: ${got.length} reached the two recipients`, thirteenth);
    },
  },
  // The address check asks a listed domain too (one more request from the same sender): each
  // refusal names the entry it was asked with.
  ...(['address', 'domain'] as const).map(
    (kind): Check => ({
      id: `TEST-EMAIL/blacklist-${kind}`,
      title: kind === 'address' ? 'MUST refuse a test email to a recipient whose address, or whose domain, is on the blacklist, and send nothing' : 'MUST refuse a test email to a recipient whose domain is on the blacklist, and send nothing',
      clauses: kind === 'address' ? ['CAMP-TEST-BLACKLIST-ADDRESS', 'CAMP-TEST-BLACKLIST-DOMAIN'] : ['CAMP-TEST-BLACKLIST-DOMAIN'],
      level: 'MUST',
      features: [...FEATURES, 'control:blacklist'],
      budget: 14,
      testEmails: 1,
      async run(ctx) {
        const s = await sender(ctx, { subject: `Blacklist ${ctx.prefix}`, body: '<p>never sent</p>' });
        if (!s.ws.organizationId) skip('the workspace has no organizationId to manage its blacklist through the control API');
        for (const entry of kind === 'address' ? (['address', 'domain'] as const) : (['domain'] as const)) await refusedWhenListed(ctx, s, entry);
      },
    }),
  ),
  {
    id: 'TEST-EMAIL/other-workspace',
    title: "SHOULD refuse a test email naming another workspace's mailbox as accountId or its lead as leadId (400 or 404), and send nothing",
    clauses: ['CAMP-TEST-OTHER-WORKSPACE'],
    level: 'SHOULD',
    features: [...FEATURES, 'twoWorkspaces', 'op:leads.create', 'op:leads.list'],
    budget: 24,
    testEmails: 1,
    async run(ctx) {
      const s = await sender(ctx, { subject: `Foreign ${ctx.prefix}`, body: '<p>never sent</p>' });
      const other = await ctx.workspace();
      if (other.organizationId !== undefined && other.organizationId === s.ws.organizationId) skip('the run could not lease a second workspace');
      // The other workspace's mailbox can really send (verified at the sinks), and its lead is real.
      const box = await sendingMailbox(ctx, other);
      const { leads } = await campaignWithLeads(ctx, other.api, 1);
      const to = await recipient(ctx);
      const cases: [string, Record<string, unknown>][] = [
        ["another workspace's mailbox as accountId", { accountId: box.id }],
        ["another workspace's lead as leadId (personalization lead)", { personalization: 'lead', leadId: leads[0]!.id }],
      ];
      for (const [what, extra] of cases) {
        const res = await send(s, to, extra);
        const label = `POST /v1/campaigns/{id}/test-email with ${what}`;
        expectThat(res.status === 400 || res.status === 404, msg`${label} should be refused (400 or 404), got ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`, res);
        expectError(res, res.status, ctx.profile, label);
      }
      const got = await arrivals(ctx, s, to, 0);
      expectThat(got.length === 0, msg`a refused test email must send nothing, yet ${got.length} message(s) reached ${to} (from ${got.map((m) => m.session.authUser).join(', ')})`);
    },
  },
  {
    id: 'TEST-EMAIL/smtp-refuses',
    title: "MUST NOT answer sent: true when the mailbox's SMTP server refuses the message (503 upstream_unavailable or sent: false)",
    clauses: ['CAMP-TEST-ANSWER', 'CAMP-TEST-REAL-MAILBOX', 'CAMP-TEST-503'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 12,
    testEmails: 1,
    async run(ctx) {
      const s = await sender(ctx, { subject: `Refused ${ctx.prefix}`, body: '<p>refused</p>' });
      const to = await recipient(ctx);
      const rule = s.sink.faults.add({ stage: 'RCPT', recipient: to, action: 'reply', code: 550, enhancedCode: '5.1.1', text: 'mailbox unavailable' });
      try {
        const res = await send(s, to);
        expectThat(!(res.status >= 200 && res.status < 300 && res.body?.sent === true), msg`the sink refused every recipient ${to} with 550, yet the target answered ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`, res);
        expectThat(res.status < 500 || upstreamUnavailable(res), msg`a refused test email may answer 503 upstream_unavailable (4.3), not ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`, res);
      } finally {
        s.sink.faults.remove(rule.id);
      }
    },
  },
  {
    id: 'TEST-EMAIL/upstream-down',
    // 4.3 "It may also answer 503": the answer to an unavailable upstream is 503 upstream_unavailable
    // or a 2xx { sent: false }; never sent: true, never another 5xx (part 7 names 503 for it).
    title: "MUST NOT answer sent: true, nor an error other than 503 upstream_unavailable, when the mailbox's SMTP server is unavailable (it closes the connection without an answer), and send nothing",
    // Also the answer's shape on the failure path (TEST-EMAIL/delivered reads it on success): a 2xx is { sent, messageId }.
    clauses: ['CAMP-TEST-503', 'ERR-TABLE-503', 'CAMP-TEST-ANSWER'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 12,
    testEmails: 1,
    async run(ctx) {
      const s = await sender(ctx, { subject: `Down ${ctx.prefix}`, body: '<p>down</p>' });
      const to = await recipient(ctx);
      // The upstream is down for this mailbox alone: its login is met with a closed connection, and
      // so is its next message on a connection it opened before (a pooled one: its warmup's, say).
      const rules = (['AUTH', 'MAIL'] as const).map((stage) => s.sink.faults.add({ stage, user: s.smtpUser, action: 'drop' }));
      try {
        const res = await send(s, to);
        const what = 'POST /v1/campaigns/{id}/test-email with the SMTP server down';
        expectThat(!(res.status >= 200 && res.status < 300 && res.body?.sent !== false), msg`with the mailbox's SMTP server closing every connection unanswered, a 2xx must say sent: false (4.3), got ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`, res);
        expectThat(res.status < 300 || res.status === 503, msg`with the mailbox's SMTP server closing every connection unanswered, the test email answers 503 upstream_unavailable or a 2xx { sent: false } (4.3, part 7: a dependency is temporarily unavailable), got ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`, res);
        if (res.status === 503) expectError(res, 503, ctx.profile, what, 'upstream_unavailable');
        else expectThat(typeof res.body?.sent === 'boolean' && typeof res.body?.messageId === 'string', msg`${what}: a 2xx answer must be { sent: boolean, messageId: string } (4.3) even when nothing went out, got ${JSON.stringify(res.body)?.slice(0, 200)}`, res);
      } finally {
        for (const rule of rules) s.sink.faults.remove(rule.id);
      }
      const got = await arrivals(ctx, s, to, 0);
      expectThat(got.length === 0, msg`an unavailable upstream sent ${got.length} message(s) to ${to}`);
    },
  },
  {
    id: 'IDEM-INFLIGHT/POST /v1/campaigns/{id}/test-email',
    title: 'MUST answer 409 conflict to a request whose Idempotency-Key belongs to a request still processing (a test email held at the SMTP sink)',
    clauses: ['IDEM-INFLIGHT-409', 'ERR-TABLE-409'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 12,
    testEmails: 2,
    async run(ctx) {
      const s = await sender(ctx, { subject: `In flight ${ctx.prefix}`, body: '<p>in flight</p>' });
      const to = await recipient(ctx);
      // The sink holds the message for a few seconds: a target that sends before it answers is
      // still processing the first request meanwhile. The rule names the recipient: the mailbox's
      // warmup (2.3, on by default) sends through the same login, and a warmup message held in the
      // test email's place let the test email through unheld (a false failure on a slow target).
      const rule = s.sink.faults.add({ stage: 'DATA', user: s.smtpUser, recipient: to, action: 'stall', stallMs: 4000, times: 1 });
      const key = `${ctx.prefix}inflight-${faker(ctx).string.alphanumeric(12)}`;
      const body = { variantId: s.variantId, accountId: s.accountId, recipient: to, personalization: 'dummy' };
      const path = `/v1/campaigns/${s.campaignId}/test-email`;
      let firstDone = false;
      let firstDoneAt = Infinity;
      const firstP = s.ws.api.request({ method: 'POST', path, body, idempotencyKey: key }).finally(() => ((firstDone = true), (firstDoneAt = Date.now())));
      try {
        // A rule of one use leaves the list once it fired. The first request may wait for the
        // workspace's rate budget before it is sent (a minute on a busy run): the wait ends when the
        // message is held or the request answered (its own timeout bounds it), not at a fixed time.
        const held = () => (s.sink.faults.list().find((r) => r.id === rule.id)?.fired ?? 1) > 0;
        for (const until = Date.now() + HOLD_WAIT_MS; !held() && !firstDone && Date.now() < until; ) await new Promise((r) => setTimeout(r, 25));
        if (!held() && !firstDone) skip(`the test email was neither held at the sink nor answered within ${HOLD_WAIT_MS / 1000} s`);
        if (firstDone) skip('the target answered the test email before its SMTP server held the message: no request of it was seen still processing');
        // Sent while the first is unanswered and its message held: the first is still processing. A
        // target that holds the duplicate until the first is done and then replays it answers late, not 409.
        const second = await s.ws.api.request({ method: 'POST', path, body, idempotencyKey: key });
        // On the wire only after the first was answered (it waited that long for the workspace's
        // rate budget): nothing was in flight to conflict with, and a replay is right.
        const sentAt = Date.now() - second.durationMs;
        await firstP;
        if (firstDoneAt <= sentAt) skip(`the second request went out ${Math.round(sentAt - firstDoneAt)} ms after the first was answered (it waited for the rate budget): no request of it was seen still processing`);
        expectError(second, 409, ctx.profile, 'the same test email with the same Idempotency-Key while the first is still processing', 'conflict');
      } finally {
        await firstP.catch(() => undefined);
        s.sink.faults.remove(rule.id);
      }
    },
  },
];

/** One lead in the sender's campaign, by the referenced leads.create (or the campaign create's `leads`). */
/** Two leads added in one call, in that order; their ids. */
async function addTwoLeads(ctx: CheckContext, s: Sender): Promise<[string, string]> {
  const emails = [1, 2].map((n) => `${ctx.prefix}lead${n}-${faker(ctx).string.alphanumeric(8)}@leads.example.test`.toLowerCase());
  await addLeads(ctx, s.ws.api, s.campaignId, emails);
  const listed = await listLeads(ctx, s.ws.api, s.campaignId);
  const ids = emails.map((e) => listed.find((l) => (l.email ?? '').toLowerCase() === e)?.id);
  if (!ids.every((id): id is string => typeof id === 'string')) skip('the referenced leads operations gave no id for the leads added (operations.leads.list: result.items)');
  return ids as [string, string];
}

async function addOneLead(ctx: CheckContext, s: Sender): Promise<string> {
  const email = `${ctx.prefix}lead-${faker(ctx).string.alphanumeric(8)}@leads.example.test`.toLowerCase();
  await addLeads(ctx, s.ws.api, s.campaignId, [email]);
  const id = (await listLeads(ctx, s.ws.api, s.campaignId)).find((l) => (l.email ?? '').toLowerCase() === email)?.id;
  if (typeof id !== 'string') skip('the referenced leads operations gave no id for the lead added (operations.leads.list: result.items)');
  return id;
}
