import type { FaultRuleInput } from '../../../harness/sinks/index.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { addLeads } from '../../lib/recipes.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expectThat, msg } from '../../lib/expect.ts';
import { expectBusiness400 } from '../resources/lib.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, WARMUP_OFF, Driver, launchedAtOnce, leadAddresses, mailboxNow, sendingMailbox, sentBy, type SendingMailbox } from './lib.ts';

// 3.2: "active -> repeated sending failures (system) -> failed; statusMessage holds the provider
// reason". The kit's SMTP sink is the provider: it refuses on purpose, and the mailbox's
// statusMessage must carry what the sink answered (2.1 fields). The rule is proven with refusals
// that are the mailbox's own beyond doubt (its login, its sender). How many make "repeated", and
// whether a refused recipient counts at all, are not shown: the profile declares them
// (declarations.sendFailuresBeforeFailed, declarations.recipientRefusal).

const FEATURES = ['control', 'sinks', 'op:accounts.get', 'op:leads.list', 'op:leads.create', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;
const MINUTE = 60_000;
const HORIZON_MS = 40 * MINUTE;
/** Leads added one by one at most: more refusals than any sensible count of "repeated". */
const MAX_LEADS = 11;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

interface Expected { code: number; command: RegExp; text: string; what: string }

/** A mailbox at the sinks whose SMTP server refuses as `fault` says, sending a started campaign of 12 leads. */
async function refusingMailbox(ctx: CheckContext, fault: (user: string) => FaultRuleInput) {
  const ws = await ctx.workspace();
  // Warmup off: every refused attempt at the login is then a campaign send (a target's warmup would be refused there too).
  const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1, ...WARMUP_OFF });
  const rule = box.sink.faults.add(fault(box.smtpUser));
  const refused = () => box.sink.attempts({ user: box.smtpUser }).filter((a) => a.faultRuleId === rule.id).length;
  const drv = new Driver(ctx, box.sink, sentBy(box));
  return { ws, box, rule, refused, drv };
}

/**
 * Steps the clock until the mailbox is failed. Leads come one at a time (another is added once the
 * sink refused the last one and the mailbox is still active), so the refusals are counted one by
 * one whatever the target's pace. With `declared` (sendFailuresBeforeFailed) every read of the
 * mailbox is held to it: not failed while fewer refusals were seen, failed once that many were.
 */
async function watchUntilFailed(ctx: CheckContext, ws: Workspace, box: SendingMailbox, refused: () => number, drv: Driver, declared: number | undefined) {
  const c = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: leadAddresses(ctx, 1), steps: [{ subject: `Refused ${ctx.prefix}`, body: '<p>Refused</p>' }] });
  const more = leadAddresses(ctx, MAX_LEADS, 'more');
  let mailbox: any;
  let lastRead = 0;
  const failed = await drv.until(
    async () => {
      const n = refused();
      if (n === lastRead) return false; // nothing new at the sink: spare the rate budget
      lastRead = n;
      mailbox = await mailboxNow(ctx, ws.api, box.id);
      const isFailed = mailbox?.status === 'failed';
      if (declared !== undefined) {
        expectThat(!isFailed || n >= declared, msg`the mailbox turned failed after ${n} refused send(s); the profile declares ${declared} (declarations.sendFailuresBeforeFailed)`, c.res);
        expectThat(isFailed || n < declared, msg`the sink refused ${n} sends of the mailbox, the profile declares ${declared} turn it failed (declarations.sendFailuresBeforeFailed), and it is still ${mailbox?.status}`, c.res);
      }
      if (!isFailed && more.length > 0) await addLeads(ctx, ws.api, c.id, [more.shift()!]);
      return isFailed;
    },
    { stepMs: 2 * MINUTE, horizonMs: HORIZON_MS, what: 'the mailbox failing' },
  );
  return { failed, mailbox, c };
}

/** The provider's reason in a failed mailbox's statusMessage (2.1 fields, 3.2). */
function expectProviderReason(sm: any, expect: Expected): void {
  expectThat(sm && typeof sm === 'object', msg`a failed mailbox must hold the provider reason in statusMessage, got ${JSON.stringify(sm)}`);
  expectThat(sm.responseCode === expect.code, msg`statusMessage.responseCode must be the provider's ${expect.code}, got ${JSON.stringify(sm.responseCode)}`);
  expectThat(typeof sm.command === 'string' && expect.command.test(sm.command), msg`statusMessage.command must name the refused command (${expect.command}), got ${JSON.stringify(sm.command)}`);
  expectThat(typeof sm.response === 'string' && sm.response.includes(expect.text), msg`statusMessage.response must hold the provider's answer (with "${expect.text}"), got ${JSON.stringify(sm.response)}`);
  expectThat(typeof sm.code === 'string' && typeof sm.message === 'string', msg`statusMessage.code and .message must be strings, got ${JSON.stringify({ code: sm.code, message: sm.message })}`);
  expectThat(typeof sm.occurredAt === 'string' && ISO.test(sm.occurredAt), msg`statusMessage.occurredAt must be a timestamp, got ${JSON.stringify(sm.occurredAt)}`);
}

/**
 * Sends a campaign through a mailbox whose SMTP server refuses as `fault` says, until the mailbox is `failed`.
 * With `pause`: a pause of the failed mailbox must then be refused with 400 and leave it failed
 * (3.2: only an active mailbox can be paused; a rule that refuses only an inactive one fails here).
 */
async function refusedUntilFailed(ctx: CheckContext, fault: (user: string) => FaultRuleInput, expect: Expected, pause = false) {
  const { ws, box, rule, refused, drv } = await refusingMailbox(ctx, fault);
  try {
    const { failed, mailbox, c } = await watchUntilFailed(ctx, ws, box, refused, drv, ctx.profile.declarations.sendFailuresBeforeFailed);
    expectThat(failed, msg`after ${refused()} refused attempt(s) (${expect.what}) over 40 minutes the mailbox is still ${mailbox?.status}: repeated sending failures must turn it failed`, c.res);
    expectProviderReason(mailbox.statusMessage, expect);
    if (!pause) return;
    expectBusiness400(await ws.api.post(`/v1/accounts/${box.id}/pause`), ctx, 'pausing a failed mailbox (only an active one can be paused)');
    const after = await mailboxNow(ctx, ws.api, box.id);
    expectThat(after?.status === 'failed', msg`a refused pause must leave the failed mailbox failed, it is ${after?.status}`);
  } finally {
    box.sink.faults.remove(rule.id);
  }
}

/** Every recipient refused at RCPT while the mailbox logs in and names its sender fine: a bounce of each lead, the mailbox stays active. */
async function recipientsRefusedMailboxStays(ctx: CheckContext, fault: (user: string) => FaultRuleInput, declared: number | undefined) {
  const { ws, box, rule, refused, drv } = await refusingMailbox(ctx, fault);
  // More refusals than would fail the mailbox were they counted (3 when the count is not declared).
  const enough = (declared ?? 3) + 2;
  try {
    const c = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: leadAddresses(ctx, 12), steps: [{ subject: `Refused ${ctx.prefix}`, body: '<p>Refused</p>' }] });
    const seen = await drv.until(() => refused() >= enough, { stepMs: 2 * MINUTE, horizonMs: HORIZON_MS, what: `${enough} recipients refused` });
    expectThat(seen, msg`the mailbox tried ${refused()} of its leads over 40 minutes, the check needs ${enough} refused recipients`, c.res);
    const mailbox = await mailboxNow(ctx, ws.api, box.id);
    expectThat(mailbox?.status !== 'failed', msg`declared recipientRefusal "lead": ${refused()} recipients refused at RCPT must not fail the mailbox, it is ${mailbox?.status}`);
  } finally {
    box.sink.faults.remove(rule.id);
  }
}

export const FAILURE_CHECKS: Check[] = [
  {
    id: 'SEND/failures-auth',
    title: 'MUST turn an active mailbox failed when its SMTP server keeps refusing the login, after as many refusals as the profile declares, with statusMessage holding the AUTH command and the provider\'s answer; then refuse to pause it (400)',
    clauses: ['STATE-ACCT-SEND-FAILURES-FAILED', 'STATE-ACCT-FAILED-STATUSMESSAGE', 'ACCT-STATUSMESSAGE-FIELDS', 'STATE-ACCT-SEND-FAILURES-PROFILE', 'STATE-ACCT-PAUSE-ACTIVE-ONLY', 'ACCT-PAUSE-400-NOT-ACTIVE'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 40,
    async run(ctx) {
      const text = `kit refuses ${ctx.prefix}login`;
      await refusedUntilFailed(ctx, (user) => ({ stage: 'AUTH', user, action: 'reply', code: 535, enhancedCode: '5.7.8', text }), { code: 535, command: /AUTH/i, text, what: 'AUTH answered 535' }, true);
    },
  },
  {
    id: 'SEND/failures-mail-from',
    title: "MUST turn an active mailbox failed when its SMTP server keeps refusing its sender at MAIL FROM, after as many refusals as the profile declares, with statusMessage holding the command and the provider's answer",
    clauses: ['STATE-ACCT-SEND-FAILURES-FAILED', 'STATE-ACCT-FAILED-STATUSMESSAGE', 'ACCT-STATUSMESSAGE-FIELDS', 'STATE-ACCT-SEND-FAILURES-PROFILE'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 40,
    async run(ctx) {
      const text = `kit refuses ${ctx.prefix}sender`;
      await refusedUntilFailed(ctx, (user) => ({ stage: 'MAIL', user, action: 'reply', code: 550, enhancedCode: '5.7.1', text }), { code: 550, command: /MAIL/i, text, what: 'MAIL FROM answered 550' });
    },
  },
  {
    id: 'SEND/failures-rcpt',
    title: 'MUST count a recipient refused at RCPT TO as the profile declares: a sending failure of the mailbox (failed after the declared count, with the RCPT answer as statusMessage), or a bounce of that lead alone (the mailbox stays active)',
    clauses: ['STATE-ACCT-SEND-FAILURES-PROFILE'],
    level: 'PROFILE',
    features: [...FEATURES, 'decl:declarations.recipientRefusal'],
    solo: true,
    budget: 40,
    async run(ctx) {
      const how = ctx.profile.declarations.recipientRefusal;
      if (!how) skip('needs declarations.recipientRefusal in the profile (whether a recipient refused at RCPT TO is a sending failure of the mailbox or a bounce of the lead)');
      const text = `kit refuses ${ctx.prefix}rcpt`;
      const fault = (user: string): FaultRuleInput => ({ stage: 'RCPT', user, action: 'reply', code: 550, enhancedCode: '5.7.1', text });
      if (how === 'mailbox') await refusedUntilFailed(ctx, fault, { code: 550, command: /RCPT/i, text, what: 'RCPT TO answered 550' });
      else await recipientsRefusedMailboxStays(ctx, fault, ctx.profile.declarations.sendFailuresBeforeFailed);
    },
  },
];
