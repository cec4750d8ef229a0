import type { StoredMessage } from '../../../harness/sinks/index.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectThat, msg } from '../../lib/expect.ts';
import { sinks } from '../resources/lib.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, Driver, awayFromMidnight, launchBody, leadAddresses, sendingMailbox, sendingMailboxes, sentBy, startCampaign, workspaceZone, type SendingMailbox } from './lib.ts';

// Warmup read at the sink (2.1 "warmup has its own budget", 3.2 "campaigns and warmup skip" a
// paused mailbox). How a target warms up is not shown; one whose warmup sends real mail through
// the mailbox's own SMTP login (the kit's sink) declares the pool it sends to
// (declarations.warmupMail.poolAddress), and only then can the kit tell warmup mail from the rest.
// Time is the control clock's: these checks run alone and skip without it.

/** What warmupOf() needs of the profile: every check that reads warmup at the sink lists it. */
export const NEEDS_WARMUP_MAIL = 'decl:declarations.warmupMail.poolAddress' as const;
const FEATURES = ['control', 'sinks', 'op:accounts.get', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE, NEEDS_WARMUP_MAIL] as const;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Warmup on and sending every day: the check does not depend on today's weekday. */
const WARMING = { warmup: { enabled: true, skipWeekends: false } };

const fmt = (ms: number) => new Date(ms).toISOString();

/** The declared pool pattern as a whole-address matcher (`*`: any run of characters). */
function poolOf(ctx: CheckContext): RegExp {
  const pattern = ctx.profile.declarations.warmupMail?.poolAddress;
  if (!pattern) skip('needs declarations.warmupMail.poolAddress in the profile (the address pattern your warmup sends to through the mailbox\'s login)');
  const body = pattern.toLowerCase().split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}$`);
}

/** Warmup mail of these mailboxes: through their logins to an address of the declared pool. */
function warmupOf(ctx: CheckContext, ...boxes: SendingMailbox[]): (m: StoredMessage) => boolean {
  const pool = poolOf(ctx);
  const users = new Set(boxes.map((b) => b.smtpUser));
  return (m) => !m.injected && users.has(m.session.authUser ?? '') && m.envelope.rcptTo.some((r) => pool.test(r.toLowerCase()));
}

/** Steps the clock until warmup mail of `box` arrived; skips when none did within the horizon. */
async function firstWarmup(warm: Driver, box: SendingMailbox, horizonMs: number): Promise<void> {
  const from = (m: StoredMessage) => m.session.authUser === box.smtpUser;
  const seen = await warm.until(() => warm.arrivals(from).length > 0, { stepMs: 5 * MINUTE, horizonMs, what: 'warmup mail' });
  if (!seen) skip(`a mailbox with warmup enabled sent no warmup mail to the declared pool within ${horizonMs / HOUR} hours of target time: warmup cannot be observed at the sink`);
}

/** A mailbox at the sinks, verified, its warmup on every day. */
async function warmingMailbox(ctx: CheckContext, ws: Workspace, overrides: Record<string, unknown> = {}): Promise<SendingMailbox> {
  return sendingMailbox(ctx, ws, { sendingGapMinutes: 1, ...WARMING, ...overrides });
}

export const WARMUP_CHECKS: Check[] = [
  {
    id: 'SEND/warmup-own-budget',
    title: 'MUST keep warmup out of the campaign cap: on a day its warmup sent mail, a mailbox with maxEmailsPerDay N still sends N campaign emails',
    clauses: ['ACCT-MAXEMAILSPERDAY-WARMUP-SEPARATE'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 20,
    async run(ctx) {
      const CAP = 3;
      const ws = await ctx.workspace();
      // The warmup, the campaign's sends and the watch fall on one day in any zone the target could count days in.
      const clock = new Driver(ctx, sinks(ctx), () => false);
      await awayFromMidnight(ctx, clock, ['UTC', await workspaceZone(ws)], 60, 4 * 60);
      // No slow ramp: the cap alone bounds the day's campaign sends (2.1).
      const box = await warmingMailbox(ctx, ws, { maxEmailsPerDay: CAP, campaignSlowRamp: false });
      const warm = new Driver(ctx, box.sink, warmupOf(ctx, box));
      await firstWarmup(warm, box, 2 * HOUR);
      const campaign = new Driver(ctx, box.sink, sentBy(box));
      // Created with its leads and launched in one call (3.1 `launch`), started if it did not
      // launch: the leads are counted at the sink, never listed.
      const body = launchBody(ctx, { accounts: [box.id], leads: leadAddresses(ctx, CAP + 2), steps: [{ subject: `Step0 ${ctx.prefix}`, body: '<p>Budget</p>' }] });
      const c = await ws.api.post('/v1/campaigns', { ...body, launch: true });
      expect2xx(c, 'setup: POST /v1/campaigns with launch true');
      if (c.body?.launched !== true) await startCampaign(ws.api, c.body?.campaign?.id);
      await campaign.until(() => campaign.arrivals().length >= CAP, { stepMs: MINUTE, horizonMs: 90 * MINUTE, what: `${CAP} campaign emails` });
      await warm.settle();
      const sent = campaign.arrivals().length;
      const warmed = warm.arrivals().length;
      expectThat(sent >= CAP, msg`warmup has its own budget: with maxEmailsPerDay ${CAP} and ${CAP + 2} leads due (gap 1 minute) the campaign sent ${sent} email(s) within 90 minutes on a day the mailbox's warmup sent ${warmed} to the pool`, c);
    },
  },
  {
    id: 'SEND/warmup-paused-mailbox',
    title: 'MUST send no warmup mail from a paused mailbox (warmup skips it), while an active twin keeps warming up',
    clauses: ['STATE-ACCT-PAUSE-WARMUP-SKIPPED'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 16,
    async run(ctx) {
      const ws = await ctx.workspace();
      const [paused, twin] = (await sendingMailboxes(ctx, ws, 2, { sendingGapMinutes: 1, ...WARMING })) as [SendingMailbox, SendingMailbox];
      const warm = new Driver(ctx, paused.sink, warmupOf(ctx, paused, twin));
      await firstWarmup(warm, paused, 24 * HOUR);
      const r = await ws.api.post(`/v1/accounts/${paused.id}/pause`);
      // Sent after the answer: sent after the mailbox stopped (what was in flight left before).
      const stop = await warm.now();
      expect2xx(r, 'POST /v1/accounts/{id}/pause of the warming mailbox');
      // A whole day and more: a new day's warmup budget, whatever hours the target warms at.
      await warm.until(() => false, { stepMs: 30 * MINUTE, horizonMs: 26 * HOUR, what: 'a day after the pause' });
      const after = (box: SendingMailbox) => warm.arrivals((m) => m.session.authUser === box.smtpUser).filter((a) => a.lo > stop);
      const late = after(paused);
      expectThat(late.length === 0, msg`the mailbox paused at ${fmt(stop)} must not warm up: ${late.length} warmup email(s) went to the pool after it (first to ${late[0]?.m.envelope.rcptTo.join(', ')}, sent between ${late[0] ? fmt(late[0].lo) : ''} and ${late[0] ? fmt(late[0].hi) : ''})`, r);
      if (after(twin).length === 0) skip(`the active twin sent no warmup mail in the 26 hours after the pause either: a paused mailbox cannot be told from the target's warmup pace`);
    },
  },
];
