// The reference's warmup really sends (sending/warmup.ts, choice sending.warmupMail): through the
// mailbox's own SMTP login to the pool, a few a day, on the control clock; none with warmup off
// and none from a paused mailbox. The kit's own checks (SEND/warmup-*) hold the spec's rules at
// the sink; this file holds the choice's shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSinks, imapUnavailableReason, type MailSink } from '../sinks/index.ts';
import { Env, mailboxInput, type Workspace } from './reference.test-helper.ts';
import { DEFAULT_CHOICES } from './switches/choices.ts';

let sink: MailSink;
let e: Env;
let w: Workspace;
let n = 0;
const { pool, perDay, intervalMinutes } = DEFAULT_CHOICES.sending.warmupMail;
const inPool = new RegExp(`^${pool.replace(/[.]/g, '\\.').replace('*', '\\d+')}$`);

/** A verified (active) mailbox at the sink; returns its id and SMTP login. */
async function activeMailbox(warmup?: Record<string, unknown>): Promise<{ id: string; user: string }> {
  const box = await sink.addUser(`warm${++n}-${Date.now().toString(36)}@outreach.test`);
  const input = mailboxInput({
    emailAddress: box.address, smtpHost: box.smtp.host, smtpPort: box.smtp.port, smtpUsername: box.smtp.username, smtpPassword: box.smtp.password,
    imapHost: box.imap!.host, imapPort: box.imap!.port, imapUsername: box.imap!.username, imapPassword: box.imap!.password,
    ...(warmup ? { warmup } : {}),
  });
  const r = await e.call(w.key, 'POST', '/v1/accounts', { body: { accounts: [input] } });
  expect(r.status).toBe(201);
  const id = r.body.accounts[0].id as string;
  await e.drain();
  expect((await e.call(w.key, 'GET', `/v1/accounts/${id}`)).body.status).toBe('active');
  return { id, user: box.smtp.username };
}
const warmupOf = (user: string) => sink.messages((m) => m.session.authUser === user && m.envelope.rcptTo.some((r) => inPool.test(r)));
/** Moves the clock `minutes` ahead in steps of 10 minutes, draining at each. */
async function pass(minutes: number): Promise<void> {
  for (let t = 0; t < minutes; t += 10) {
    await e.ctl('POST', '/clock/advance', { seconds: 600 });
    await e.drain();
  }
}

const noImap = imapUnavailableReason();
describe.skipIf(noImap !== null)(`warmup that really sends${noImap ? ` (skipped: ${noImap})` : ''}`, () => {
  beforeAll(async () => {
    [sink, e] = await Promise.all([startSinks({ requireAuth: true }), Env.start([], { backgroundTimer: false })]);
    w = await e.workspace();
  });
  afterAll(async () => {
    await e?.stop();
    await sink?.stop();
  });

  it('an active mailbox with warmup on (omitted: ON) sends to the pool through its own login, intervalMinutes apart, at most perDay a day', async () => {
    const { user } = await activeMailbox();
    expect(warmupOf(user)).toHaveLength(1);
    await e.drain();
    expect(warmupOf(user)).toHaveLength(1); // not again before the interval
    await pass(intervalMinutes * (perDay + 2));
    const sent = warmupOf(user).length;
    expect(sent).toBeGreaterThan(1);
    // Over one or two local days: never more than the day's budget in each.
    expect(sent).toBeLessThanOrEqual(2 * perDay);
  });

  it('sends nothing with warmup off, and nothing from a paused mailbox', async () => {
    const off = await activeMailbox({ enabled: false });
    const paused = await activeMailbox();
    expect((await e.call(w.key, 'POST', `/v1/accounts/${paused.id}/pause`)).status).toBe(200);
    const before = warmupOf(paused.user).length;
    await pass(intervalMinutes * 3);
    expect(warmupOf(off.user)).toHaveLength(0);
    expect(warmupOf(paused.user)).toHaveLength(before);
  });
});
