import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { StoredMessage } from '../../../harness/sinks/index.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { fillPath } from '../../../harness/ground/operations.ts';
import { createCampaign } from '../../lib/recipes.ts';
import { expectThat } from '../../lib/expect.ts';
import { allLeads, expectRejected } from '../resources/lib.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, Driver, contentOf, launchedAtOnce, leadAddresses, leadNow, sendingMailbox, sentBy, type LaunchOptions } from '../sending/lib.ts';

// Transitions part 3 does not show, held to the tables the profile declares
// (declarations.transitions.<resource>: each status to the statuses it may move to; a status left
// out moves nowhere). Every change between two reads of a status must be a declared move.
// - campaign (3.1 "transitions for pause, stop, complete, fail and schedule: not shown"): a
//   campaign with leads and a sequence (and no mailbox, so it sends nothing) is driven through
//   what the wire offers: pause (referenced) and start from draft, start and pause twice, resume,
//   then start from paused. What the spec states (create gives draft, start needs leads and a
//   sequence, resume from paused) is the state model's to judge.
// - lead (3.3 "transitions of platform-managed lead statuses: not shown"): one lead of a started
//   campaign of two steps, read after each step reaches it at the sink (control clock).
//   Where the profile names the status after a send and after a reply (declarations.sending
//   leadStatusAfterSend, leadStatusAfterReply: 2.6 leaves the set of lead statuses open), the
//   statuses read are held to those names too. STATE-TABLE/lead-answers, at default, walks three
//   leads of a two-step campaign: one replies, one bounces, one opens and clicks (as the profile
//   declares tracking) and gets the last step.
// Lead search states are not held to a table: over the wire a search only moves when the kit's
// control API moves it, so its moves would be the kit's, not the target's.

type Table = Partial<Record<string, readonly string[]>>;

const MINUTE = 60_000;

interface Walk {
  table: Table;
  last: string;
  moves: string[];
  wrong: string[];
  evidence: string[];
}

/** A status read after `what`: a change from the last one is held to the declared table. */
function hold(w: Walk, what: string, status: string, ...evidence: string[]): void {
  if (status === w.last) return;
  const allowed = w.table[w.last] ?? [];
  w.moves.push(`${w.last} -> ${status} (${what})`);
  if (!allowed.includes(status)) {
    w.wrong.push(`${what} moved it from ${w.last} to ${status}; the table declares ${w.last} -> ${allowed.length ? allowed.join(', ') : 'nothing'}`);
    w.evidence.push(...evidence);
  }
  w.last = status;
}

/** The verdict of a walk: a move outside the table fails; no move at all proves nothing. */
function verdict(ctx: CheckContext, w: Walk, field: string): void {
  if (w.wrong.length) fail(msg`${w.wrong.length} transition(s) outside the declared table (${field}): ${w.wrong.join(' | ')}`, ...w.evidence);
  if (!w.moves.length) skip(`no status change was seen: no transition could be held to ${field}`);
  ctx.log(`transitions seen: ${w.moves.join('; ')}`);
}

function declared(ctx: CheckContext, resource: 'campaign' | 'lead', what: string): Table {
  const table = ctx.profile.declarations.transitions?.[resource];
  if (!table) skip(`declarations.transitions.${resource} is not declared (${what}): its transition table is not checked`);
  return table;
}

async function campaignStatus(api: ApiClient, id: string): Promise<{ res: ApiResponse; status: string }> {
  const res = await api.get(`/v1/campaigns/${id}/status`);
  if (res.status < 200 || res.status > 299 || typeof res.body?.status !== 'string') fail(msg`GET /v1/campaigns/{id}/status answered ${res.status} without a status`, res);
  return { res, status: res.body.status };
}

async function leadStatus(ctx: CheckContext, api: ApiClient, campaignId: string, leadId: string): Promise<string> {
  return statusOf(await leadNow(ctx, api, campaignId, leadId), leadId);
}

function statusOf(lead: any, leadId: string): string {
  const status = lead?.status;
  if (typeof status !== 'string') fail(msg`the lead ${leadId} is listed without a status (2.6: a string), got ${JSON.stringify(status)}`);
  return status;
}

/**
 * A campaign created and launched in one request (its leads the addresses given), and its leads as
 * one listing then shows them, in the order of `addresses`: each read of several leads is one
 * listing (each request counts at quick).
 */
async function launchedWithLeads(ctx: CheckContext, ws: Workspace, o: LaunchOptions) {
  const c = await launchedAtOnce(ctx, ws, o);
  return { ...c, leads: await leadsOf(ctx, ws.api, c.id, o.leads, c.res) };
}

/** The leads of `addresses` as one listing of the campaign shows them now. */
async function leadsOf(ctx: CheckContext, api: ApiClient, campaignId: string, addresses: readonly string[], ...evidence: ApiResponse[]): Promise<any[]> {
  const listed = await allLeads(ctx, api, campaignId);
  return addresses.map((a) => listed.find((l: any) => String(l?.email).toLowerCase() === a.toLowerCase()) ?? fail(msg`lead ${a} is not listed in campaign ${campaignId}`, ...evidence));
}

export const TABLE_CHECKS: Check[] = [
  {
    id: 'STATE-TABLE/campaign',
    title: 'every campaign status change driven over the wire (start, pause, resume) is a transition the profile declares (profile: transitions.campaign)',
    clauses: ['STATE-CAMP-OTHER-PROFILE'],
    level: 'PROFILE',
    features: ['op:campaigns.pause', 'decl:declarations.transitions.campaign'],
    budget: 18,
    async run(ctx) {
      const table = declared(ctx, 'campaign', 'the campaign transitions 3.1 does not show');
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { leads: 2, steps: 1 });
      const w: Walk = { table, last: (await campaignStatus(ws.api, id)).status, moves: [], wrong: [], evidence: [] };
      const step = async (what: string, call: () => Promise<ApiResponse>) => {
        const answer = await call();
        const read = await campaignStatus(ws.api, id);
        hold(w, what, read.status, answer.exchangeId, read.res.exchangeId);
      };
      const op = ctx.profile.operations['campaigns.pause']!;
      const pause = () => ws.api.request({ method: op.method, path: fillPath(op.path, { id }) });
      const start = () => ws.api.post(`/v1/campaigns/${id}/start`);
      await step('pause (referenced) of the new campaign', pause);
      await step('start', start);
      await step('start again', start);
      await step('pause (referenced)', pause);
      await step('pause again', pause);
      await step('resume', () => ws.api.post(`/v1/campaigns/${id}/resume`));
      await step('pause (referenced) after the resume', pause);
      await step('start of the paused campaign', start);
      verdict(ctx, w, 'transitions.campaign');
    },
  },
  {
    id: 'STATE-TABLE/lead',
    title: "every status change of a lead as a two-step sequence reaches it is a transition the profile declares (profile: transitions.lead)",
    clauses: ['STATE-LEAD-PLATFORM-PROFILE'],
    level: 'PROFILE',
    features: ['control', 'sinks', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE, 'decl:declarations.transitions.lead'],
    solo: true,
    budget: 24,
    async run(ctx) {
      const table = declared(ctx, 'lead', 'the platform-managed lead transitions 3.3 does not show');
      const ws = await ctx.workspace();
      const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 });
      const drv = new Driver(ctx, box.sink, sentBy(box));
      const [address] = leadAddresses(ctx, 1) as [string];
      const steps = [
        { subject: `Step0 ${ctx.prefix}`, body: '<p>First step</p>' },
        { subject: `Step1 ${ctx.prefix}`, body: '<p>Second step</p>', delayDays: 0, delayHours: 1 },
      ];
      const c = await launchedWithLeads(ctx, ws, { accounts: [box.id], leads: [address], steps });
      const lead = c.leads[0]!.id as string;
      const w: Walk = { table, last: statusOf(c.leads[0], lead), moves: [], wrong: [], evidence: [] };
      for (const [n, horizon] of [[1, 30 * MINUTE], [2, 3 * 60 * MINUTE]] as const) {
        const arrived = await drv.until(() => drv.to(address).length >= n, { stepMs: n === 1 ? MINUTE : 10 * MINUTE, horizonMs: horizon, what: `step ${n} reaching the lead` });
        if (!arrived) skip(`step ${n} of the started campaign did not reach its lead within ${horizon / MINUTE} minutes: the lead's status moves cannot be seen (SEND/sequence judges the sending)`);
        hold(w, `step ${n} reaching the lead`, await leadStatus(ctx, ws.api, c.id, lead), c.res.exchangeId);
      }
      verdict(ctx, w, 'transitions.lead');
    },
  },
  {
    id: 'STATE-TABLE/lead-answers',
    title: "every status change of a lead as the first of two steps reaches it, of one that replies, of one whose email bounces, and of one that opens and clicks it (as the profile declares tracking) and then gets the last step, is a transition the profile declares (profile: transitions.lead), the status after a send and after the reply the one it names (sending.leadStatusAfterSend, leadStatusAfterReply); a lead sent a step that has not replied takes no lead_replied_* status",
    clauses: ['STATE-LEAD-PLATFORM-PROFILE', 'LEAD-VALUES-PROFILE', 'STATE-LEAD-REPLIED-BEFORE-REPLY', 'LEAD-PATCH-STATUS-RULES'],
    level: 'MUST',
    features: ['control', 'sinks', 'imap', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE, 'decl:declarations.transitions.lead'],
    solo: true,
    budget: 46,
    async run(ctx) {
      const table = declared(ctx, 'lead', 'the platform-managed lead transitions 3.3 does not show');
      const named = ctx.profile.declarations.sending ?? {};
      const tracking = ctx.profile.declarations.tracking;
      const ws = await ctx.workspace();
      const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 }, true);
      const drv = new Driver(ctx, box.sink, sentBy(box));
      const addresses = leadAddresses(ctx, 3, 'answers') as [string, string, string];
      // Two steps: the first is not the last (moves at a step before the last are seen), and the lead
      // that neither replies nor bounces gets the second, the last, an hour later.
      const c = await launchedWithLeads(ctx, ws, { accounts: [box.id], leads: addresses, steps: answerSteps(ctx), settings: { trackOpens: !!tracking?.openPixel, trackClicks: !!tracking?.clickRedirect } });
      const [replier, bouncer, opener] = c.leads.map((l) => l.id as string) as [string, string, string];
      const walks = { replier: walkFrom(c.leads[0], table), bouncer: walkFrom(c.leads[1], table), opener: walkFrom(c.leads[2], table) };
      const sent = await drv.until(() => addresses.every((a) => drv.to(a).length > 0), { stepMs: MINUTE, horizonMs: 30 * MINUTE, what: 'the first step reaching the three leads' });
      if (!sent) skip('the first step did not reach the three leads within 30 minutes: their status moves cannot be seen (SEND/sequence judges the sending)');
      // The three read in one listing.
      const afterFirst = await leadsOf(ctx, ws.api, c.id, addresses, c.res);
      for (const [i, who] of (['replier', 'bouncer', 'opener'] as const).entries()) holdSentLead(afterFirst[i], c, walks[who], 'the first of its two steps reaching the lead', named.leadStatusAfterSend);
      // The lead that opens and clicks (as tracking is declared): a tracked open or click is the target's to record.
      const driven = await openAndClick(drv.to(addresses[2])[0]!.m, tracking, stepLink(ctx));
      if (driven.length) {
        await drv.settle();
        hold(walks.opener, `its tracked ${driven.join(' and ')}`, await leadStatus(ctx, ws.api, c.id, opener));
      } else ctx.log('declarations.tracking declares no open pixel or click redirect (or the email carries none): no tracked open or click is made');
      // 3.3: the replied statuses need a reply; a lead sent a step that has not answered is refused them.
      expectRejected(await ws.api.patch(`/v1/campaigns/${c.id}/leads/${bouncer}`, { status: 'lead_replied_interested' }), ctx, 'PATCH lead { status: lead_replied_interested } on a lead sent a step that has not replied');
      await box.sink.inject.reply(drv.to(addresses[0])[0]!.m, { body: `Tell me more. ${ctx.prefix}` });
      await box.sink.inject.bounce(drv.to(addresses[1])[0]!.m);
      // Until the reply shows (lastRepliedAt): the bounce sits in the same inbox, read by the same polls.
      let polls = 0;
      const seen = await drv.until(async () => ++polls % 2 === 1 && typeof (await leadNow(ctx, ws.api, c.id, replier))?.lastRepliedAt === 'string', { stepMs: 5 * MINUTE, horizonMs: 2 * 60 * MINUTE, inbox: true, what: 'the reply being noticed' });
      if (!seen) skip("the lead's reply was not noticed within 2 hours (lastRepliedAt): the moves a reply causes cannot be seen (SEND/reply judges that)");
      await drv.until(() => false, { stepMs: 5 * MINUTE, horizonMs: 10 * MINUTE, what: 'one more poll for the bounce' });
      const answered = await leadStatus(ctx, ws.api, c.id, replier);
      hold(walks.replier, 'its reply being read', answered);
      const afterReply = named.leadStatusAfterReply;
      if (afterReply) expectThat(answered === afterReply, msg`a lead whose reply was read carries ${answered}, but the profile names ${afterReply} the status after a reply (declarations.sending.leadStatusAfterReply)`);
      hold(walks.bouncer, 'its bounce being read', await leadStatus(ctx, ws.api, c.id, bouncer));
      const last = await drv.until(() => drv.to(addresses[2]).length >= 2, { stepMs: 10 * MINUTE, horizonMs: 2 * 60 * MINUTE, what: 'the last step reaching the lead that did not answer' });
      // Held to the status after a send only where nothing moved the lead since its first step.
      if (last) await holdSent(ctx, ws.api, c, opener, walks.opener, 'the last step reaching the lead', walks.opener.last === named.leadStatusAfterSend ? named.leadStatusAfterSend : undefined);
      else ctx.log('the last step did not reach the lead that neither replied nor bounced within 2 hours: the move at the last step is not seen (SEND/sequence judges the sending)');
      const all = [['the replying lead', walks.replier], ['the bounced lead', walks.bouncer], ['the lead that opened', walks.opener]] as const;
      const wrong = all.flatMap(([who, w]) => w.wrong.map((x) => `${who}: ${x}`));
      if (wrong.length) fail(msg`${wrong.length} transition(s) outside the declared table (transitions.lead): ${wrong.join(' | ')}`, ...all.flatMap(([, w]) => w.evidence));
      ctx.log(`transitions seen: ${all.flatMap(([, w]) => w.moves).join('; ') || 'none'}`);
    },
  },
];

/** The link the first step carries (a click redirect rewrites it); never fetched itself. */
const stepLink = (ctx: CheckContext) => `https://example.com/${ctx.prefix}answers`;

function answerSteps(ctx: CheckContext) {
  return [
    { subject: `Answers ${ctx.prefix}`, body: `<p>Answers, and <a href="${stepLink(ctx)}">more</a></p>` },
    { subject: `Answers again ${ctx.prefix}`, body: '<p>Answers again</p>', delayDays: 0, delayHours: 1 },
  ];
}

/**
 * A lead read after a step reached it: its move is held to the table and, once the target records
 * the send (lastContactedAt), its status to the one the profile names after a send (`after`, when given).
 */
async function holdSent(ctx: CheckContext, api: ApiClient, c: { id: string; res: ApiResponse }, id: string, w: Walk, what: string, after: string | undefined): Promise<void> {
  holdSentLead(await leadNow(ctx, api, c.id, id), c, w, what, after);
}

/** holdSent of a lead already read (`l`, as listed). */
function holdSentLead(l: any, c: { res: ApiResponse }, w: Walk, what: string, after: string | undefined): void {
  const status = statusOf(l, l?.id);
  hold(w, what, status, c.res.exchangeId);
  if (after && typeof l.lastContactedAt === 'string') expectThat(status === after, msg`a lead sent a step (${what}) carries ${l.status}, but the profile names ${after} the status after a send (declarations.sending.leadStatusAfterSend)`, c.res);
}

/**
 * Opens and clicks a campaign email as a lead's mail client would, as far as the profile declares
 * tracking: fetches its pixel (an <img> with an http(s) src) and follows its rewritten link (one
 * other than the original, never fetched), each without following a redirect. Whether either is
 * served or counted is SEND/tracking-on's to judge. Answers what was done.
 */
async function openAndClick(m: StoredMessage, t: { openPixel?: boolean; clickRedirect?: boolean } | undefined, original: string): Promise<string[]> {
  const { html } = await contentOf(m);
  const urls = (re: RegExp) => [...html.matchAll(re)].map((x) => x[1]!.replace(/&amp;/g, '&')).filter((u) => /^https?:/i.test(u) && u !== original);
  const done: string[] = [];
  const get = async (url: string, what: string) => {
    const r = await fetch(url, { redirect: 'manual' }).catch(() => undefined);
    await r?.arrayBuffer().catch(() => undefined);
    done.push(what);
  };
  const pixel = t?.openPixel ? urls(/<img\b[^>]*\bsrc="([^"]+)"/gi)[0] : undefined;
  if (pixel) await get(pixel, 'open');
  const link = t?.clickRedirect ? urls(/<a\b[^>]*\bhref="([^"]+)"/gi)[0] : undefined;
  if (link) await get(link, 'click');
  return done;
}

/** A walk that starts at the status of a lead as listed. */
function walkFrom(lead: any, table: Table): Walk {
  return { table, last: statusOf(lead, lead?.id), moves: [], wrong: [], evidence: [] };
}
