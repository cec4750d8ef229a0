// Every fault rule observed by a real client with the exact reply code and text, drops and
// stalls seen on the wire, "next N" and "until cleared", and rule validation.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { FaultRuleError, startSinks, type MailSink, type SinkCredentials } from './index.ts';
import { RawSmtp } from './test-smtp-client.ts';

let sink: MailSink;
let box: SinkCredentials;

type SmtpErr = { responseCode?: number; response?: string; code?: string; message: string };
const fail = (p: Promise<unknown>) => p.then(() => ({ responseCode: 0, response: 'accepted', message: 'accepted' }) as SmtpErr, (e: unknown) => e as SmtpErr);

function mailer() {
  return nodemailer.createTransport({ host: '127.0.0.1', port: sink.smtp.port, secure: false, auth: { user: box.address, pass: box.password }, tls: { rejectUnauthorized: false }, logger: false });
}
const send = (extra: Record<string, unknown> = {}) => mailer().sendMail({ from: box.address, to: 'lead@example.test', subject: 'fault', text: 'x', ...extra });

/** EHLO + (optional) AUTH PLAIN over a raw socket. */
async function session(auth = true): Promise<RawSmtp> {
  const c = await RawSmtp.connect(sink.smtp.port);
  expect((await c.next())!.code).toBe(220);
  expect((await c.cmd('EHLO raw.client.test'))!.code).toBe(250);
  if (auth) {
    const token = Buffer.from(`\0${box.address}\0${box.password}`).toString('base64');
    expect((await c.cmd(`AUTH PLAIN ${token}`))!.code).toBe(235);
  }
  return c;
}

beforeAll(async () => {
  sink = await startSinks({ imap: false, smtpsPort: null });
  box = await sink.addUser('faulty@outreach.test');
});
afterEach(() => sink.faults.clear());
afterAll(() => sink?.stop());

describe('fault rules: reply with a given code and text', () => {
  it('AUTH: 454 4.7.0 for the mailbox user, once', async () => {
    sink.faults.add({ stage: 'AUTH', user: box.address, action: 'reply', code: 454, enhancedCode: '4.7.0', text: 'Temporary authentication failure', times: 1 });
    const err = await fail(send());
    expect(err.responseCode).toBe(454);
    expect(err.response).toBe('454 4.7.0 Temporary authentication failure');
    const a = sink.attempts({ kind: 'auth', code: 454 })[0]!;
    expect(a).toMatchObject({ outcome: 'rejected', faultRuleId: expect.any(String) });
    // used up: the next attempt authenticates
    await send({ subject: 'after auth fault' });
    expect(sink.faults.list()).toHaveLength(0);
    expect(sink.messages({ subject: 'after auth fault' })).toHaveLength(1);
  });

  it('MAIL: 451 4.3.2 for the authenticated user', async () => {
    sink.faults.add({ stage: 'MAIL', user: box.address, action: 'reply', code: 451, enhancedCode: '4.3.2', text: 'System not accepting network messages' });
    const err = await fail(send());
    expect(err.responseCode).toBe(451);
    expect(err.response).toBe('451 4.3.2 System not accepting network messages');
    expect(sink.attempts({ kind: 'mail', code: 451 }).at(-1)).toMatchObject({ outcome: 'rejected', stage: 'MAIL', mailFrom: box.address });
  });

  it('RCPT: 550 5.1.1 for one recipient; the others are delivered', async () => {
    sink.faults.add({ stage: 'RCPT', recipient: 'gone@example.test', action: 'reply', code: 550, enhancedCode: '5.1.1', text: 'User unknown' });
    const info = await mailer().sendMail({ from: box.address, to: ['ok@example.test', 'gone@example.test'], subject: 'partial rcpt', text: 'x' });
    expect(info.accepted).toEqual(['ok@example.test']);
    expect(info.rejected).toEqual(['gone@example.test']);
    expect((info.rejectedErrors as unknown as SmtpErr[])[0]!.response).toBe('550 5.1.1 User unknown');
    const m = sink.messages({ subject: 'partial rcpt' })[0]!;
    expect(m.envelope.rcptTo).toEqual(['ok@example.test']);
    const a = sink.attempts({ to: 'gone@example.test' }).at(-1)!;
    expect(a.rcpt).toEqual([
      { address: 'ok@example.test', accepted: true, reply: { code: 250, text: 'Accepted' } },
      { address: 'gone@example.test', accepted: false, reply: { code: 550, text: '5.1.1 User unknown' } },
    ]);
  });

  it('DATA: 554 5.7.1 after the message; the rejected bytes are kept', async () => {
    sink.faults.add({ stage: 'DATA', recipient: 'lead@example.test', action: 'reply', code: 554, enhancedCode: '5.7.1', text: 'Message rejected as spam' });
    const err = await fail(send({ subject: 'spammy' }));
    expect(err.responseCode).toBe(554);
    expect(err.response).toBe('554 5.7.1 Message rejected as spam');
    const a = sink.attempts({ kind: 'mail', code: 554 }).at(-1)!;
    expect(a).toMatchObject({ outcome: 'rejected', stage: 'DATA' });
    expect(sink.attemptRaw(a.id)!.toString()).toContain('Subject: spammy');
    expect(sink.messages({ subject: 'spammy' })).toHaveLength(0);
  });

  it('a sender rule matches MAIL FROM; a rule without text gets a default text', async () => {
    sink.faults.add({ stage: 'MAIL', sender: 'other@outreach.test', action: 'reply', code: 553 });
    await send({ subject: 'not matched' }); // different sender: untouched
    const err = await fail(send({ from: 'other@outreach.test', envelope: { from: 'other@outreach.test', to: ['lead@example.test'] } }));
    expect(err.response).toBe('553 Permanent failure (fault injected by the sink)');
  });
});

describe('fault rules: drop and stall', () => {
  for (const stage of ['AUTH', 'MAIL', 'RCPT', 'DATA'] as const) {
    it(`drop at ${stage}: the connection closes without a reply`, async () => {
      sink.faults.add({ stage, user: box.address, action: 'drop', times: 1 });
      const c = await session(stage !== 'AUTH');
      const plainAuth = `AUTH PLAIN ${Buffer.from(`\0${box.address}\0${box.password}`).toString('base64')}`;
      let reply;
      if (stage === 'AUTH') reply = await c.cmd(plainAuth);
      else if (stage === 'MAIL') reply = await c.cmd(`MAIL FROM:<${box.address}>`);
      else {
        expect((await c.cmd(`MAIL FROM:<${box.address}>`))!.code).toBe(250);
        if (stage === 'RCPT') reply = await c.cmd('RCPT TO:<lead@example.test>');
        else {
          expect((await c.cmd('RCPT TO:<lead@example.test>'))!.code).toBe(250);
          expect((await c.cmd('DATA'))!.code).toBe(354);
          reply = await c.cmd('Subject: dropped\r\n\r\nbody\r\n.');
        }
      }
      expect(reply).toBeNull();
      await c.closedPromise;
      const a = sink.attempts({ outcome: 'dropped' }).at(-1)!;
      expect(a.stage).toBe(stage);
      expect(a.reply).toBeUndefined();
      if (stage === 'DATA') expect(sink.attemptRaw(a.id)!.toString()).toContain('Subject: dropped');
    });
  }

  it('stall at RCPT: the reply comes after the stall, then the mail goes through', async () => {
    sink.faults.add({ stage: 'RCPT', recipient: 'slow@example.test', action: 'stall', stallMs: 400, times: 1 });
    const t0 = Date.now();
    await send({ to: 'slow@example.test', subject: 'stalled' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(390);
    expect(sink.messages({ subject: 'stalled' })).toHaveLength(1);
  });

  it('stall then reply: 451 4.4.1 after the stall at DATA', async () => {
    sink.faults.add({ stage: 'DATA', user: box.address, action: 'stall', stallMs: 300, code: 451, enhancedCode: '4.4.1', text: 'No answer from host' });
    const t0 = Date.now();
    const err = await fail(send());
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(err.response).toBe('451 4.4.1 No answer from host');
  });
});

describe('fault rules: how long they last', () => {
  it('for the next N attempts, then no more', async () => {
    sink.faults.add({ stage: 'MAIL', user: box.address, action: 'reply', code: 450, enhancedCode: '4.2.1', text: 'Mailbox busy', times: 2 });
    expect((await fail(send())).response).toBe('450 4.2.1 Mailbox busy');
    expect((await fail(send())).response).toBe('450 4.2.1 Mailbox busy');
    expect((await fail(send({ subject: 'third' }))).response).toBe('accepted');
    expect(sink.faults.list()).toEqual([]);
  });

  it('until cleared (no count), and remove by id', async () => {
    const r = sink.faults.add({ stage: 'RCPT', recipient: 'blocked@example.test', action: 'reply', code: 550, enhancedCode: '5.7.1', text: 'Blocked' });
    for (let i = 0; i < 3; i++) expect((await fail(send({ to: 'blocked@example.test' }))).response).toBe('550 5.7.1 Blocked');
    expect(sink.faults.list()[0]).toMatchObject({ id: r.id, fired: 3, remaining: null });
    expect(sink.faults.remove(r.id)).toBe(true);
    expect((await fail(send({ to: 'blocked@example.test' }))).response).toBe('accepted');
  });

  it('rejects malformed rules with the reason', () => {
    const bad: [unknown, RegExp][] = [
      [{ stage: 'MAIL', action: 'reply' }, /code: required/],
      [{ stage: 'MAIL', action: 'reply', code: 250 }, /code/],
      [{ stage: 'MAIL', recipient: 'a@b.test', action: 'drop' }, /recipients are not known yet at MAIL/],
      [{ stage: 'RCPT', action: 'reply', code: 550, enhancedCode: '4.1.1' }, /class 4 does not match reply code 550/],
      [{ stage: 'RCPT', action: 'reply', code: 550, text: 'two\r\nlines' }, /control characters/],
      [{ stage: 'DATA', action: 'stall' }, /stallMs: required/],
      [{ stage: 'HELO', action: 'drop' }, /stage/],
      [{ stage: 'DATA', action: 'drop', extra: 1 }, /extra|Unrecognized/i],
    ];
    for (const [rule, re] of bad) {
      expect(() => sink.faults.add(rule as never)).toThrow(FaultRuleError);
      expect(() => sink.faults.add(rule as never)).toThrow(re);
    }
    expect(sink.faults.list()).toEqual([]);
  });
});
