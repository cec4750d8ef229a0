// Garbage, half lines, huge lines, pipelining abuse and abrupt disconnects on the SMTP port:
// the sink never crashes, keeps answering, and never loses mail it acknowledged with 250.
// Fixed cases cover the known nasties; random sessions are fuzzed in fuzz.test.ts (harness/fuzz/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { startSinks, type MailSink } from './index.ts';
import { RawSmtp } from './test-smtp-client.ts';

let sink: MailSink;

beforeAll(async () => {
  sink = await startSinks({ imap: false, smtpSizeLimit: 32 * 1024, smtpsPort: null });
});
afterAll(() => sink?.stop());

async function stillWorks(tag: string): Promise<void> {
  const t = nodemailer.createTransport({ host: '127.0.0.1', port: sink.smtp.port, secure: false, ignoreTLS: true, logger: false });
  await t.sendMail({ from: 'probe@load.test', to: 'lead@prospect.test', subject: `alive ${tag}`, text: 'x' });
  expect(sink.messages({ subject: `alive ${tag}` })).toHaveLength(1);
}

describe('SMTP robustness', () => {
  it('answers thousands of pipelined commands and a real transaction at the end of the pipeline', async () => {
    const c = await RawSmtp.connect(sink.smtp.port);
    expect((await c.next())!.code).toBe(220);
    const burst = ['EHLO pipe.test', ...Array.from({ length: 3000 }, () => 'NOOP'), 'MAIL FROM:<pipe@load.test>', 'RCPT TO:<lead@prospect.test>', 'DATA'].join('\r\n') + '\r\n';
    c.write(burst);
    let okCount = 0;
    // EHLO + 3000 NOOP + MAIL + RCPT
    for (let i = 0; i < 3003; i++) if ((await c.next(30_000))!.code === 250) okCount++;
    expect(okCount).toBe(3003);
    expect((await c.next())!.code).toBe(354);
    expect((await c.cmd('Subject: pipelined\r\n\r\nx\r\n.'))!.code).toBe(250);
    c.close();
    expect(sink.messages({ subject: 'pipelined' })).toHaveLength(1);
  });

  it('refuses a huge line with a reply, not a crash, and a message over the limit with 552', async () => {
    const c = await RawSmtp.connect(sink.smtp.port);
    expect((await c.next())!.code).toBe(220);
    c.write(Buffer.alloc(1024 * 1024, 0x42));
    const r = await c.next(30_000);
    expect(r === null || r.code >= 400).toBe(true);
    c.close();
    const d = await RawSmtp.connect(sink.smtp.port);
    expect((await d.next())!.code).toBe(220);
    await d.cmd('EHLO big.test');
    await d.cmd('MAIL FROM:<big@load.test>');
    await d.cmd('RCPT TO:<lead@prospect.test>');
    expect((await d.cmd('DATA'))!.code).toBe(354);
    d.write(`Subject: huge\r\n\r\n${'y'.repeat(70)}\r\n`.repeat(1000));
    expect((await d.cmd('.'))!.code).toBe(552);
    d.close();
    await stillWorks('after huge');
  });

  it('records an abrupt disconnect in the middle of DATA as aborted, with the bytes that arrived', async () => {
    const c = await RawSmtp.connect(sink.smtp.port);
    expect((await c.next())!.code).toBe(220);
    await c.cmd('EHLO cut.test');
    await c.cmd('MAIL FROM:<cut@load.test>');
    await c.cmd('RCPT TO:<lead@prospect.test>');
    expect((await c.cmd('DATA'))!.code).toBe(354);
    c.write('Subject: cut off\r\n\r\nhalf of the bo');
    await new Promise((r) => setTimeout(r, 50));
    c.close();
    const a = await sink.waitForAttempt({ from: 'cut@load.test' }, { timeout: 30_000 });
    expect(a).toMatchObject({ outcome: 'aborted', stage: 'DATA' });
    // (the data stream holds back its last few bytes while it looks for the final dot)
    expect(sink.attemptRaw(a.id)?.toString()).toMatch(/^Subject: cut off\r\n\r\nhalf of/);
    expect(sink.messages({ subject: 'cut off' })).toHaveLength(0);
  });

  it('survives STARTTLS followed by bytes that are not a TLS handshake', async () => {
    const c = await RawSmtp.connect(sink.smtp.port);
    expect((await c.next())!.code).toBe(220);
    await c.cmd('EHLO tls.test');
    expect((await c.cmd('STARTTLS'))!.code).toBe(220);
    c.write('this is not tls\r\n'.repeat(100));
    await Promise.race([c.closedPromise, new Promise((r) => setTimeout(r, 500))]);
    c.close();
    await stillWorks('after bad tls');
  });
});
