// A mailbox's daily count is read and spent as one step: a test email asked while a campaign step
// is on the wire (held at DATA by the kit's sink) waits for it, and is refused once that step fills
// the day. Before, it counted the day without the step in flight and a mailbox with
// maxEmailsPerDay 2 sent three emails that day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSinks, imapUnavailableReason, type MailSink } from '../../sinks/index.ts';
import { Env, mailboxInput, type Workspace } from '../reference.test-helper.ts';

let sink: MailSink;
let e: Env;
let w: Workspace;

const noImap = imapUnavailableReason();
describe.skipIf(noImap !== null)(`a mailbox's daily count with a send in flight${noImap ? ` (skipped: ${noImap})` : ''}`, () => {
  beforeAll(async () => {
    [sink, e] = await Promise.all([startSinks({ requireAuth: true }), Env.start([], { backgroundTimer: false })]);
    w = await e.workspace();
  });
  afterAll(async () => {
    await e?.stop();
    await sink?.stop();
  });

  /** Moves the reference's clock to the next noon UTC (the workspace's zone): the test's minutes never meet a day's turn. */
  async function toNoon(): Promise<void> {
    const now = Date.parse((await e.ctl('GET', '/clock')).body.now);
    const noon = new Date(now);
    noon.setUTCHours(12, 0, 0, 0);
    if (noon.getTime() <= now) noon.setUTCDate(noon.getUTCDate() + 1);
    await e.ctl('POST', '/clock/advance', { seconds: Math.ceil((noon.getTime() - now) / 1000) });
  }

  it('a test email asked while a campaign step is held at DATA waits for it, and is refused when that step filled the day', async () => {
    await toNoon();
    const box = await sink.addUser(`daily-${Date.now().toString(36)}@outreach.test`);
    const input = mailboxInput({
      emailAddress: box.address, maxEmailsPerDay: 2, sendingGapMinutes: 1,
      smtpHost: box.smtp.host, smtpPort: box.smtp.port, smtpUsername: box.smtp.username, smtpPassword: box.smtp.password,
      imapHost: box.imap!.host, imapPort: box.imap!.port, imapUsername: box.imap!.username, imapPassword: box.imap!.password,
    });
    const created = await e.call(w.key, 'POST', '/v1/accounts', { body: { accounts: [input] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.accounts?.length, created.text).toBe(1);
    const id = created.body.accounts[0].id;
    await e.drain();
    expect((await e.call(w.key, 'GET', `/v1/accounts/${id}`)).body.status).toBe('active');
    const leads = ['one@leads.test', 'two@leads.test'];
    const toLeads = () => sink.messages({ user: box.smtp.username }).filter((m) => m.envelope.rcptTo.some((r) => leads.includes(r.toLowerCase()))).length;
    const toMe = () => sink.messages({ user: box.smtp.username, to: 'me@outreach.test' }).length;
    const always = { timezone: 'UTC', sendingDays: [0, 1, 2, 3, 4, 5, 6], sendingMinutesStart: 0, sendingMinutesEnd: 1440 };
    const c = await e.campaign(w, { name: 'daily', leads, accounts: [id], schedule: always, sequence: [{ subject: 's', body: '<p>b</p>' }], launch: true });
    // The first round sends one lead its step (one send per mailbox per round): 1 of the day's 2.
    await e.drain();
    expect(toLeads()).toBe(1);
    // The second round's step to the other lead is held at DATA while a test email is asked.
    await sink.faults.add({ stage: 'DATA', user: box.smtp.username, action: 'stall', stallMs: 4000, times: 1 });
    await e.ctl('POST', '/clock/advance', { seconds: 61 }); // past the mailbox's 1-minute gap
    const round = e.drain();
    await sink.waitForAttempt({ user: box.smtp.username, stage: 'DATA' }, { timeout: 30_000 });
    const test = await e.call(w.key, 'POST', `/v1/campaigns/${c.id}/test-email`, { body: { variantId: c.sequence[0].id, accountId: id, recipient: 'me@outreach.test', personalization: 'dummy' } });
    await round;
    expect(toLeads()).toBe(2);
    expect(test.status >= 400 && test.status < 500, `the test email answered ${test.status} ${test.text}`).toBe(true);
    expect(toMe()).toBe(0);
  }, 60_000);
});
