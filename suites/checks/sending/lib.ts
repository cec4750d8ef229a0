import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { MailSink, SinkCredentials, StoredMessage } from '../../../harness/sinks/index.ts';
import { INJECTOR_EHLO } from '../../../harness/sinks/index.ts';
import type { CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { fail, skip, skipFor, msg } from '../../../harness/ground/check.ts';
import { expect2xx, expectThat, is2xx, snippet } from '../../lib/expect.ts';
import { drainAll } from '../../lib/drain.ts';
import { faker } from '../../lib/recipes.ts';
import { targetNow } from '../../lib/target-clock.ts';
import { prefixedAddress } from '../../../fixtures/factories/index.ts';
import { NEEDS_VERIFICATION_STATUS, allLeads, mustGetMailbox, settle, sinkMailbox, verificationStatus } from '../resources/lib.ts';
import { NEEDS_SENDING_DAYS, dayNumber } from '../resources/campaigns.ts';

// The send path seen from outside: mailboxes that log in to the kit's sinks, campaigns whose leads
// are addresses the sink records, and a driver that moves time (the control clock when the target
// offers it, bounded real time otherwise) and notes when each message arrived.

export interface SendingMailbox {
  id: string;
  address: string;
  smtpUser: string;
  creds: SinkCredentials;
  input: Record<string, unknown>;
  sink: MailSink;
}

/** What sendingMailbox() needs of the profile: every check that calls it lists it. */
export const NEEDS_SENDING_MAILBOX = NEEDS_VERIFICATION_STATUS;
/** What openSchedule() (and launch() without a schedule of its own) needs of the profile. */
export const NEEDS_OPEN_SCHEDULE = NEEDS_SENDING_DAYS;

/** A mailbox at the kit's sinks, verified (declarations.verificationStatus), ready to send. */
export async function sendingMailbox(ctx: CheckContext, ws: Workspace, overrides: Record<string, unknown> = {}, needImap = false): Promise<SendingMailbox> {
  const ok = verificationStatus(ctx, 'succeeded');
  const { sink, creds, input } = await sinkMailbox(ctx, needImap);
  const element = { ...input, ...overrides };
  const created = await ws.api.post('/v1/accounts', { accounts: [element] });
  expect2xx(created, 'setup: POST /v1/accounts');
  const id = created.body?.accounts?.[0]?.id;
  expectThat(typeof id === 'string', msg`setup: POST /v1/accounts created no mailbox: ${snippet(created)}`, created);
  const settled = await settle(ctx, ws.api, id);
  if (settled.body?.status !== ok) unverified(sink, settled.body?.status, ok);
  return { id, address: element.emailAddress as string, smtpUser: creds.smtp.username, creds, input: element, sink };
}

/**
 * A mailbox at the kit's sinks that did not reach the declared success: a skip, whose cause is
 * this machine where it is (no IMAP server, so its IMAP credentials lead nowhere; no login of any
 * mailbox at the SMTP sink in the whole run, so the target does not reach the sinks), else the
 * declaration it was read by.
 */
function unverified(sink: MailSink, status: unknown, ok: string): never {
  const said = `a mailbox with working credentials at the kit's sinks is ${status} after verification, not ${ok}`;
  if (!sink.imap) skipFor('no-imap-server', `${said}: it has no IMAP server to log in to`);
  // Only where no mailbox of the run was ever logged in with: one mailbox's failure alone may be the target's (a slow verification, a busy machine).
  if (!sink.attempts((a) => a.kind === 'auth' && a.authUser !== INJECTOR_EHLO).length) skipFor('sinks-unreachable', `${said}, and the SMTP sink has seen no login from the target in this run`);
  skip(`${said} (declarations.verificationStatus)`);
}

/** The domain of every lead address the kit makes (leadAddresses): no other address is there. */
const LEAD_DOMAIN = 'leads.sink.test';

/**
 * `n` such mailboxes created in one POST /v1/accounts (4.2 takes 1 to 50), each verified.
 * `overrides`: the same for all, or each mailbox's own (by its index).
 */
export async function sendingMailboxes(ctx: CheckContext, ws: Workspace, n: number, overrides: Record<string, unknown> | ((i: number) => Record<string, unknown>) = {}): Promise<SendingMailbox[]> {
  const ok = verificationStatus(ctx, 'succeeded');
  const made = [];
  for (let i = 0; i < n; i++) made.push(await sinkMailbox(ctx, false));
  const own = typeof overrides === 'function' ? overrides : () => overrides;
  const elements = made.map((m, i) => ({ ...m.input, ...own(i) }));
  const created = await ws.api.post('/v1/accounts', { accounts: elements });
  expect2xx(created, 'setup: POST /v1/accounts');
  const ids: unknown[] = (created.body?.accounts ?? []).map((a: any) => a?.id);
  expectThat(ids.length === n && ids.every((id) => typeof id === 'string'), msg`setup: POST /v1/accounts of ${n} mailboxes created ${ids.length}: ${snippet(created)}`, created);
  const boxes: SendingMailbox[] = [];
  for (const [i, m] of made.entries()) {
    const settled = await settle(ctx, ws.api, ids[i] as string);
    if (settled.body?.status !== ok) unverified(m.sink, settled.body?.status, ok);
    boxes.push({ id: ids[i] as string, address: elements[i]!.emailAddress as string, smtpUser: m.creds.smtp.username, creds: m.creds, input: elements[i]!, sink: m.sink });
  }
  return boxes;
}

/** Lead addresses the sink records (any recipient is accepted there). */
export function leadAddresses(ctx: CheckContext, n: number, tag = 'lead'): string[] {
  const f = faker(ctx);
  return Array.from({ length: n }, (_, i) => prefixedAddress(f, `${ctx.prefix}${tag}${i}-`, LEAD_DOMAIN).toLowerCase());
}

const ALL_DAYS_JS = [0, 1, 2, 3, 4, 5, 6];

/** A schedule open every day from `start` to `end` minutes in `timezone` (day numbering: the profile's). */
export function openSchedule(ctx: CheckContext, timezone = 'UTC', start = 0, end = 1439, dailyLimit = 500) {
  return { timezone, sendingDays: ALL_DAYS_JS.map((d) => dayNumber(ctx, d)).sort((a, b) => a - b), sendingMinutesStart: start, sendingMinutesEnd: end, dailyLimit };
}

export interface Step { subject: string; body: string; delayDays?: number; delayHours?: number }
export interface LaunchOptions {
  accounts: string[];
  leads: string[];
  steps: Step[];
  settings?: Partial<{ trackOpens: boolean; trackClicks: boolean; sendAsTextOnly: boolean; stopOnReply: boolean }>;
  schedule?: Record<string, unknown>;
  /** leave it a draft (default: start it) */
  draft?: boolean;
}

export const QUIET_SETTINGS = { trackOpens: false, trackClicks: false, sendAsTextOnly: false, stopOnReply: true };

/** The create body of a campaign (schedule, settings, sequence, mailboxes, leads). */
export function launchBody(ctx: CheckContext, o: LaunchOptions) {
  return {
    name: `${ctx.prefix}${faker(ctx).company.name()}`.slice(0, 100),
    schedule: o.schedule ?? openSchedule(ctx),
    settings: { ...QUIET_SETTINGS, ...o.settings },
    sequence: o.steps.map((s) => ({ delayDays: 0, delayHours: 0, ...s })),
    accounts: o.accounts,
    leads: o.leads,
  };
}

/** Creates a campaign (schedule, settings, sequence, mailboxes, leads) and starts it. */
export async function launch(ctx: CheckContext, ws: Workspace, o: LaunchOptions): Promise<{ id: string; leads: { id: string; email: string }[]; res: ApiResponse }> {
  const res = await ws.api.post('/v1/campaigns', launchBody(ctx, o));
  expect2xx(res, 'setup: POST /v1/campaigns');
  const id = res.body?.campaign?.id;
  expectThat(typeof id === 'string', msg`setup: POST /v1/campaigns answered without campaign.id`, res);
  const leads = (await allLeads(ctx, ws.api, id)).map((l: any) => ({ id: l.id as string, email: String(l.email).toLowerCase() }));
  if (leads.length !== o.leads.length) fail(msg`setup: the campaign created with ${o.leads.length} leads lists ${leads.length}`, res);
  if (!o.draft) await startCampaign(ws.api, id);
  return { id, leads, res };
}

/**
 * Creates a campaign and launches it in the same request (2.5 `launch`: one request where create
 * and start take two), started by POST /start where the target did not launch it. Its leads are
 * the addresses given: they are not listed (each request counts at the shallow depths).
 */
export async function launchedAtOnce(ctx: CheckContext, ws: Workspace, o: LaunchOptions): Promise<{ id: string; res: ApiResponse; addresses: string[] }> {
  const res = await ws.api.post('/v1/campaigns', { ...launchBody(ctx, o), launch: true });
  expect2xx(res, 'setup: POST /v1/campaigns with launch true');
  const id = res.body?.campaign?.id;
  expectThat(typeof id === 'string', msg`setup: POST /v1/campaigns answered without campaign.id`, res);
  if (res.body?.launched !== true) await startCampaign(ws.api, id);
  return { id, res, addresses: o.leads };
}

export async function startCampaign(api: ApiClient, id: string): Promise<ApiResponse> {
  const s = await api.post(`/v1/campaigns/${id}/start`);
  if (s.status === 409) skip('the target answers 409 to starting a draft campaign with leads and a sequence (whether a draft is startable is a reading, checked by CAMP-START/from-draft)');
  expect2xx(s, 'setup: POST /v1/campaigns/{id}/start');
  return s;
}

/**
 * A message as the kit saw it arrive, with bounds on when the target sent it, in the target's time
 * (simulated under the control clock): it was sent after `lo` and before `hi`. A timing rule is
 * broken for certain only when the bounds leave no room for it (e.g. two sends of one mailbox with
 * `hi2 - lo1` below its gap).
 */
export interface Arrival { m: StoredMessage; lo: number; hi: number }

const MINUTE = 60_000;

/** The target's declared inbox poll interval in ms (declarations.sending.imapPollSeconds), 0 when not declared. */
export function inboxPollMs(ctx: CheckContext): number {
  return (ctx.profile.declarations.sending?.imapPollSeconds ?? 0) * 1000;
}

/**
 * Moves the target's time and watches the sink. With the control clock, time jumps (advance) and
 * background work runs (drain) at each step; without it, time is real and bounded by `wallCapMs`.
 */
export class Driver {
  private readonly seen = new Map<string, { lo: number; hi: number }>();
  private last = 0;
  constructor(
    private readonly ctx: CheckContext,
    private readonly sink: MailSink,
    /** which sink messages belong to this check */
    private readonly mine: (m: StoredMessage) => boolean,
    /**
     * The workspace whose background work each settle drains (its own mail is that work). Absent:
     * the whole target's, for the checks that run alone (solo) and move the clock for everyone.
     */
    private readonly organizationId?: string,
  ) {}

  get simulated(): boolean {
    return this.ctx.control !== undefined;
  }

  /** The target's time now (ms): its control clock, or its answers' Date header (target-clock.ts). */
  async now(): Promise<number> {
    return targetNow(this.ctx);
  }

  /**
   * Runs due work and records what arrived since the last settle. `at`: the target's time, when
   * the caller just read it (the answer of a clock advance; a drain does not move the clock).
   */
  async settle(at?: number): Promise<number> {
    // Every step drains to the end: a send still under way would be seen a step late, outside its bounds.
    if (this.ctx.control) await drainAll(this.ctx.control, 10_000, this.organizationId).catch(() => false);
    const now = at ?? (await this.now());
    for (const m of this.sink.messages(this.mine)) if (!this.seen.has(m.id)) this.seen.set(m.id, { lo: this.last || now, hi: now });
    this.last = now;
    return now;
  }

  /** Advances the target's clock by `ms` (control; real time waits) and settles. */
  async advance(ms: number): Promise<number> {
    if (this.last === 0) await this.settle();
    if (!this.ctx.control) {
      await new Promise((r) => setTimeout(r, ms));
      return this.settle();
    }
    return this.settle((await this.ctx.control.advance(Math.max(1, Math.round(ms / 1000)))).getTime());
  }

  /**
   * Steps time by `stepMs` until `done()` or `horizonMs` of target time passed (false then).
   * Without the control clock, steps are at most 2 s of real time and `wallCapMs` bounds the
   * wait; past it the check skips with the reason. `inbox`: the wait is for mail put in an inbox
   * to be read, so the cap grows by the declared poll interval (declarations.sending.imapPollSeconds).
   */
  async until(done: () => boolean | Promise<boolean>, o: { stepMs: number; horizonMs: number; wallCapMs?: number; inbox?: boolean; what: string }): Promise<boolean> {
    const start = await this.settle();
    const capMs = (o.wallCapMs ?? 120_000) + (o.inbox ? inboxPollMs(this.ctx) : 0);
    const wallEnd = Date.now() + capMs;
    let now = start;
    while (!(await done())) {
      if (now - start >= o.horizonMs) return false;
      if (!this.simulated && Date.now() > wallEnd) skip(`without the control clock, ${o.what} did not happen within the wall-clock cap of ${Math.round(capMs / 1000)} s`);
      now = await this.advance(this.simulated ? o.stepMs : Math.min(o.stepMs, 2000));
    }
    return true;
  }

  /** Every message of this check so far, with its send-time bounds, in arrival order. */
  arrivals(filter: (m: StoredMessage) => boolean = () => true): Arrival[] {
    return this.sink
      .messages(this.mine)
      .filter(filter)
      .map((m) => {
        // Arrived since the last settle, moments ago: it left after that settle's time.
        if (!this.seen.has(m.id)) this.seen.set(m.id, { lo: this.last, hi: this.last });
        return { m, ...this.seen.get(m.id)! };
      });
  }

  /** Messages whose envelope reaches `address`. */
  to(address: string): Arrival[] {
    const a = address.toLowerCase();
    return this.arrivals((m) => m.envelope.rcptTo.some((r) => r.toLowerCase() === a));
  }
}

/**
 * The campaign mail of these mailboxes: sent through their SMTP logins to a lead the kit made
 * (leadAddresses), injected ones excluded. Mail through the same login to anyone else is not
 * counted: a target whose warmup really sends (2.2: omitted warmup means ON; 2.1: warmup has its
 * own budget) sends it there too, to its own pool.
 */
export function sentBy(...boxes: SendingMailbox[]): (m: StoredMessage) => boolean {
  const users = new Set(boxes.map((b) => b.smtpUser));
  return (m) => !m.injected && users.has(m.session.authUser ?? '') && m.envelope.rcptTo.some(isLeadAddress);
}

/** Is this one of the kit's lead addresses (leadAddresses)? */
export function isLeadAddress(address: string): boolean {
  return address.toLowerCase().endsWith(`@${LEAD_DOMAIN}`);
}

export { WARMUP_OFF } from '../resources/lib.ts';

/**
 * Moves the target's time forward to the next instant that is at least `margin` minutes away from
 * midnight in every zone given (and, when given, where `also` holds).
 */
export async function awayFromMidnight(ctx: CheckContext, drv: Driver, zones: string[], marginMinutes: number, spanMinutes: number, also: (t: number) => boolean = () => true): Promise<void> {
  if (!ctx.control) return;
  const now = await drv.now();
  for (let t = now; t < now + 48 * 60 * MINUTE; t += 15 * MINUTE) {
    const fits = also(t) && zones.every((z) => {
      const m = minuteOfDay(t, z);
      return m >= marginMinutes && m + spanMinutes <= 1440 - marginMinutes;
    });
    if (fits) {
      if (t > now) await drv.advance(t - now);
      return;
    }
  }
}

/** Minutes after local midnight in `timeZone`. */
export function minuteOfDay(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(ms));
  const h = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const m = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return h * 60 + m;
}

/** The workspace's timezone (GET /v1/workspace), for day boundaries the target may use. */
export async function workspaceZone(ws: Workspace): Promise<string> {
  const r = await ws.api.get('/v1/workspace');
  return is2xx(r) && typeof r.body?.timezone === 'string' ? r.body.timezone : 'UTC';
}

/** The lead as listed now (referenced leads.list). */
export async function leadNow(ctx: CheckContext, api: ApiClient, campaignId: string, leadId: string): Promise<any> {
  const l = (await allLeads(ctx, api, campaignId)).find((x: any) => x.id === leadId);
  if (!l) fail(msg`lead ${leadId} is no longer listed in campaign ${campaignId}`);
  return l;
}

export async function mailboxNow(ctx: CheckContext, api: ApiClient, id: string): Promise<any> {
  return (await mustGetMailbox(ctx, api, id)).body;
}

/** The text a message carries (subject, decoded text and HTML parts). */
export async function contentOf(m: StoredMessage): Promise<{ subject: string; text: string; html: string }> {
  const p = await m.parsed();
  return { subject: p.subject ?? '', text: p.text ?? '', html: typeof p.html === 'string' ? p.html : '' };
}
