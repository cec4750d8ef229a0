// The setup of a send-path run: a workspace, mailboxes that log in to the kit's mail sink,
// campaigns sharing every one of them, and their start. Every step checks the target's answer,
// since a run on a half-made setup would report the setup's failure as the send path's.
import { randomBytes } from 'node:crypto';
import type { Operation, Profile } from '../../ground/profile-schema.ts';
import { mailboxInput, seededFaker } from '../../../fixtures/factories/index.ts';
import { createClient } from '../../client/client.ts';
import { RateBudget } from '../../client/budget.ts';
import { createControlClient, type ConformanceControlClient } from '../../client/control.ts';
import type { ApiClient, ApiResponse } from '../../ground/api-client.ts';
import { fieldName, fillPath, getPath, operation, resultPath } from '../../ground/operations.ts';
import { knowsTimezone, MINUTE, nextDayStartIn, WINDOW } from './calendar.ts';
import { is2xx, snip, type SendpathRun } from './run-context.ts';
import type { Box, Lead } from './types.ts';
import { verifyMailboxes } from './verify.ts';

/** Mailboxes per POST /v1/accounts (spec 4.2: 1 to 50). */
const ACCOUNTS_PER_POST = 50;
/** Leads in the campaign create body; more go through the referenced leads.create, this many at a time. */
const LEADS_PER_REQUEST = 1000;

/** The target as the run reaches it. */
export interface TargetAccess {
  control?: ConformanceControlClient;
  api: ApiClient;
  /** shifted with the control clock, so the rate limit's windows pass in target time */
  budget: RateBudget;
  /** the day of the caps */
  timezone: string;
}

/** A run set up and its campaigns started. */
export interface SendpathSetup extends TargetAccess {
  boxes: Box[];
  leads: Lead[];
  /** target time the campaigns were started (the earliest moment anything was allowed) */
  start: number;
  /** target time each campaign was started */
  campaignStarts: number[];
  /** requests to the target's API during the setup */
  setupRequests: number;
}

export async function setUpSendpathRun(run: SendpathRun): Promise<SendpathSetup> {
  const target = await connectToTarget(run);
  const boxes = await createSinkMailboxes(run, target.api);
  await verifyMailboxes({ profile: run.opts.profile, api: target.api, control: target.control, boxes, notes: run.notes, fail: run.fail, wallLeft: run.wallLeft });
  const leads = spreadLeads(run);
  const campaignIds = await createCampaigns(run, target, boxes, leads);
  const { start, campaignStarts } = await startCampaigns(run, target, campaignIds);
  const setupRequests = run.recorder.stats.requests;
  if (run.wallLeft() <= 0) run.fail(`the setup alone took ${((Date.now() - run.wall0) / 1000).toFixed(1)} s, beyond maxWallMs (${run.settings.maxWallMs} ms): the campaigns were started but nothing was measured`);
  return { ...target, boxes, leads, start, campaignStarts, setupRequests };
}

async function must(run: SendpathRun, what: string, p: Promise<ApiResponse>): Promise<ApiResponse> {
  const r = await p;
  if (!is2xx(r)) run.fail(`${what} answered ${r.status}: ${snip(r)}`);
  return r;
}

/** The clients, in a fresh workspace when the control API can make one, and the workspace's timezone. */
async function connectToTarget(run: SendpathRun): Promise<TargetAccess> {
  const { opts, recorder, redactor, tag } = run;
  let control: ConformanceControlClient | undefined;
  let apiKey = opts.apiKey;
  if (opts.control) {
    control = createControlClient({ baseUrl: opts.control.baseUrl, token: opts.control.token, recorder });
    const ws = await control.createWorkspace({ name: `sendpath-${tag}`, timezone: 'UTC' });
    apiKey = ws.apiKey;
  }
  redactor.add(apiKey!);
  const budget = new RateBudget({ requests: opts.profile.rateLimit.requests, windowMs: opts.profile.rateLimit.windowSeconds * 1000 });
  const api: ApiClient = createClient({ baseUrl: opts.baseUrl, key: apiKey!, budget, recorder });

  // The day of the caps: the schedule's timezone, which is the workspace's (so whichever of the two
  // a target counts its mailbox day in, they agree).
  const wsRes = await must(run, 'GET /v1/workspace', api.get('/v1/workspace'));
  const timezone = typeof wsRes.body?.timezone === 'string' && wsRes.body.timezone ? wsRes.body.timezone : 'UTC';
  if (!knowsTimezone(timezone)) run.fail(`the workspace's timezone "${timezone}" is not an IANA timezone this kit knows`);
  return { control, api, budget, timezone };
}

/** A user at the sink per mailbox, then the mailboxes at the target, logging in to it. */
async function createSinkMailboxes(run: SendpathRun, api: ApiClient): Promise<Box[]> {
  const { opts, tag, redactor } = run;
  const { profile, sink } = opts;
  const f = seededFaker(opts.seed ?? randomBytes(4).readUInt32BE(0));
  if (!sink.imap) run.notes.push(`the IMAP sink is unavailable (${sink.imapUnavailableReason ?? 'no reason given'}): the mailboxes' IMAP settings point nowhere`);
  const host = profile.sinks?.host ?? sink.smtp.host;
  const boxes: Box[] = [];
  for (let i = 0; i < opts.mailboxes; i += ACCOUNTS_PER_POST) {
    const batch: Record<string, unknown>[] = [];
    for (let j = i; j < Math.min(opts.mailboxes, i + ACCOUNTS_PER_POST); j++) {
      const address = `sp${tag}-m${j}@sink.outreach.test`;
      const c = await sink.addUser(address);
      redactor.add(c.password);
      const imap = c.imap ?? { host, port: 9, username: address, password: c.password };
      batch.push(
        mailboxInput(f, `sp${tag}-`, { smtpHost: host, smtpPort: sink.smtp.port, imapHost: profile.sinks?.host ?? imap.host, imapPort: imap.port }, {
          emailAddress: address,
          smtpUsername: c.smtp.username,
          smtpPassword: c.smtp.password,
          imapUsername: imap.username,
          imapPassword: imap.password,
          imapAllowInvalidCert: true,
          maxEmailsPerDay: run.settings.capPerDay,
          sendingGapMinutes: run.settings.gapMinutes,
          campaignSlowRamp: false,
          warmup: { enabled: false },
        }),
      );
    }
    boxes.push(...(await postMailboxes(run, api, batch)));
  }
  return boxes;
}

/** One POST /v1/accounts; every mailbox of the batch must come back with an id. */
async function postMailboxes(run: SendpathRun, api: ApiClient, batch: Record<string, unknown>[]): Promise<Box[]> {
  const r = await must(run, 'POST /v1/accounts', api.post('/v1/accounts', { accounts: batch }));
  const created = Array.isArray(r.body?.accounts) ? (r.body.accounts as any[]) : [];
  if (created.length !== batch.length) run.fail(`POST /v1/accounts created ${created.length} of ${batch.length} mailboxes; errors: ${JSON.stringify(r.body?.errors ?? null).slice(0, 300)}`);
  return batch.map((el) => {
    const a = created.find((x) => String(x?.emailAddress ?? '').toLowerCase() === String(el.emailAddress).toLowerCase());
    if (!a || typeof a.id !== 'string') run.fail(`POST /v1/accounts did not answer the mailbox ${String(el.emailAddress)} with an id`);
    return { id: a.id, address: String(el.emailAddress).toLowerCase(), smtpUser: String(el.smtpUsername).toLowerCase() };
  });
}

/** The leads, in equal runs over the campaigns. */
function spreadLeads(run: SendpathRun): Lead[] {
  const { opts, tag, settings } = run;
  return Array.from({ length: opts.leads }, (_, i) => ({ address: `sp${tag}-l${i}@leads.sink.test`, campaign: Math.floor((i * settings.campaigns) / opts.leads) }));
}

/** schedule.sendingDays for every day of the week, in the profile's numbering. */
function everyDay(profile: Profile): number[] {
  const n = profile.names.sendingDays!;
  const days = [0, 1, 2, 3, 4, 5, 6].map((js) => (n === '0-sunday' ? js : n === '1-monday' ? (js === 0 ? 7 : js) : (js + 6) % 7));
  return days.sort((x, y) => x - y);
}

/** The campaigns, each with its share of the leads and every mailbox; their ids. */
async function createCampaigns(run: SendpathRun, target: TargetAccess, boxes: Box[], leads: Lead[]): Promise<string[]> {
  const { opts, settings, tag } = run;
  const schedule = {
    timezone: target.timezone,
    sendingDays: everyDay(opts.profile),
    sendingMinutesStart: WINDOW.startMinute,
    sendingMinutesEnd: WINDOW.endMinute,
    // high enough never to bind: the most the mailboxes can send in a day
    dailyLimit: Math.max(1, opts.mailboxes * settings.capPerDay),
  };
  // The subject's marker tells the sink which step a message is.
  const sequence = Array.from({ length: settings.steps }, (_, s) => ({ subject: `Hello from the load ${tag}-s${s + 1}`, body: `<p>Step ${s + 1} of a send-path load.</p>`, delayDays: 0, delayHours: 0 }));
  const campaignIds: string[] = [];
  const leadsOp = operation(opts.profile, 'leads.create');
  for (let c = 0; c < settings.campaigns; c++) {
    const mine = leads.filter((l) => l.campaign === c).map((l) => l.address);
    const inBody = leadsOp ? mine.slice(0, LEADS_PER_REQUEST) : mine;
    const r = await must(run, 'POST /v1/campaigns', target.api.post('/v1/campaigns', {
      name: `sendpath ${tag} ${c + 1}`,
      schedule,
      settings: { trackOpens: false, trackClicks: false, sendAsTextOnly: false, stopOnReply: true },
      sequence,
      accounts: boxes.map((b) => b.id),
      leads: inBody,
    }));
    const id = r.body?.campaign?.id;
    if (typeof id !== 'string') run.fail(`POST /v1/campaigns answered ${r.status} without campaign.id: ${snip(r)}`);
    const createdLeads = r.body?.leads?.created;
    if (typeof createdLeads === 'number' && createdLeads !== inBody.length) run.fail(`POST /v1/campaigns created ${createdLeads} of ${inBody.length} leads: ${snip(r)}`);
    if (leadsOp) await addLeads(run, target.api, leadsOp, id, mine.slice(inBody.length));
    campaignIds.push(id);
  }
  return campaignIds;
}

/** The leads beyond the create body's share, through the referenced leads.create. */
async function addLeads(run: SendpathRun, api: ApiClient, leadsOp: Operation, campaignId: string, rest: string[]): Promise<void> {
  for (let i = 0; i < rest.length; i += LEADS_PER_REQUEST) {
    const chunk = rest.slice(i, i + LEADS_PER_REQUEST);
    const lr = await must(run, `${leadsOp.method} ${leadsOp.path} (leads.create)`, api.request({ method: leadsOp.method as 'POST', path: fillPath(leadsOp.path, { id: campaignId }), body: { [fieldName(leadsOp, 'leads')]: chunk.map((email) => ({ email })) } }));
    const n = getPath(lr.body, resultPath(leadsOp, 'created'));
    if (typeof n === 'number' && n !== chunk.length) run.fail(`leads.create created ${n} of ${chunk.length} leads: ${snip(lr)}`);
  }
}

/** Starts the campaigns, at the beginning of a local day when the clock is ours to move. */
async function startCampaigns(run: SendpathRun, target: TargetAccess, campaignIds: string[]): Promise<{ start: number; campaignStarts: number[] }> {
  const { control, budget, timezone, api } = target;
  const campaignStarts: number[] = [];
  const targetNow = async () => (control ? (await control.now()).getTime() : Date.now());
  if (control) {
    // The campaigns start one minute into a local day: a run's days are whole and its figures do
    // not depend on the hour it ran at.
    const now = await targetNow();
    const s = Math.ceil((nextDayStartIn(now, timezone) + MINUTE - now) / 1000);
    await control.advance(s);
    budget.shift(s * 1000);
    await control.drain(30_000);
  }
  const start = await targetNow();
  for (const id of campaignIds) {
    campaignStarts.push(await targetNow());
    await must(run, 'POST /v1/campaigns/{id}/start', api.post(`/v1/campaigns/${encodeURIComponent(id)}/start`));
  }
  return { start: Math.min(start, ...campaignStarts), campaignStarts };
}
