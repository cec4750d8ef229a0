import type { FaultRuleInput } from '../../../harness/sinks/index.ts';
import type { Check, CheckContext } from '../../lib/check.ts';
import { expectThat } from '../../lib/expect.ts';
import { Driver, launch, leadAddresses, mailboxNow, sendingMailbox, sentBy } from './lib.ts';

// 3.2: "active -> repeated sending failures (system) -> failed; statusMessage holds the provider
// reason". The kit's SMTP sink is the provider: it refuses on purpose, and the mailbox's
// statusMessage must carry what the sink answered (2.1 fields).

const FEATURES = ['control', 'sinks', 'op:accounts.get', 'op:leads.list'] as const;
const MINUTE = 60_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/** Sends a campaign through a mailbox whose SMTP server refuses as `fault` says, until the mailbox is `failed`. */
async function refusedUntilFailed(ctx: CheckContext, fault: (user: string) => FaultRuleInput, expect: { code: number; command: RegExp; text: string; what: string }) {
  const ws = await ctx.workspace();
  const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 });
  const rule = box.sink.faults.add(fault(box.smtpUser));
  try {
    const drv = new Driver(ctx, box.sink, sentBy(box));
    const c = await launch(ctx, ws, { accounts: [box.id], leads: leadAddresses(ctx, 12), steps: [{ subject: `Refused ${ctx.prefix}`, body: '<p>Refused</p>' }] });
    let mailbox: any;
    let polls = 0;
    const failed = await drv.until(
      async () => {
        if (++polls % 3 !== 1) return false; // read the mailbox every third step (rate budget)
        mailbox = await mailboxNow(ctx, ws.api, box.id);
        return mailbox?.status === 'failed';
      },
      { stepMs: 2 * MINUTE, horizonMs: 40 * MINUTE, what: 'the mailbox failing' },
    );
    const tries = box.sink.attempts({ user: box.smtpUser }).filter((a) => a.faultRuleId === rule.id).length;
    expectThat(failed, `after ${tries} refused attempt(s) (${expect.what}) over 40 minutes the mailbox is still ${mailbox?.status}: repeated sending failures must turn it failed`, c.res);
    const sm = mailbox.statusMessage;
    expectThat(sm && typeof sm === 'object', `a failed mailbox must hold the provider reason in statusMessage, got ${JSON.stringify(sm)}`);
    expectThat(sm.responseCode === expect.code, `statusMessage.responseCode must be the provider's ${expect.code}, got ${JSON.stringify(sm.responseCode)}`);
    expectThat(typeof sm.command === 'string' && expect.command.test(sm.command), `statusMessage.command must name the refused command (${expect.command}), got ${JSON.stringify(sm.command)}`);
    expectThat(typeof sm.response === 'string' && sm.response.includes(expect.text), `statusMessage.response must hold the provider's answer (with "${expect.text}"), got ${JSON.stringify(sm.response)}`);
    expectThat(typeof sm.code === 'string' && typeof sm.message === 'string', `statusMessage.code and .message must be strings, got ${JSON.stringify({ code: sm.code, message: sm.message })}`);
    expectThat(typeof sm.occurredAt === 'string' && ISO.test(sm.occurredAt), `statusMessage.occurredAt must be a timestamp, got ${JSON.stringify(sm.occurredAt)}`);
  } finally {
    box.sink.faults.remove(rule.id);
  }
}

export const FAILURE_CHECKS: Check[] = [
  {
    id: 'SEND/failures-rcpt',
    title: "MUST turn an active mailbox failed after repeated SMTP refusals, with statusMessage holding the provider's code, command and answer",
    clauses: ['STATE-ACCT-SEND-FAILURES-FAILED', 'STATE-ACCT-FAILED-STATUSMESSAGE', 'ACCT-STATUSMESSAGE-FIELDS'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 40,
    async run(ctx) {
      const text = `kit refuses ${ctx.prefix}rcpt`;
      await refusedUntilFailed(ctx, (user) => ({ stage: 'RCPT', user, action: 'reply', code: 550, enhancedCode: '5.7.1', text }), { code: 550, command: /RCPT/i, text, what: 'RCPT TO answered 550' });
    },
  },
  {
    id: 'SEND/failures-auth',
    title: 'MUST turn an active mailbox failed when its SMTP server keeps refusing the login, with statusMessage naming the AUTH command and its answer',
    clauses: ['STATE-ACCT-SEND-FAILURES-FAILED', 'STATE-ACCT-FAILED-STATUSMESSAGE'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 40,
    async run(ctx) {
      const text = `kit refuses ${ctx.prefix}login`;
      await refusedUntilFailed(ctx, (user) => ({ stage: 'AUTH', user, action: 'reply', code: 535, enhancedCode: '5.7.8', text }), { code: 535, command: /AUTH/i, text, what: 'AUTH answered 535' });
    },
  },
];
