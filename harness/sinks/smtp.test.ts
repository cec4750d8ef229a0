// SMTP side with real clients (nodemailer): AUTH over STARTTLS and implicit TLS, pooled and
// not, wrong password, Bcc in the envelope, size limit, attempt records, parsed view, waitFor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import nodemailer from 'nodemailer';
import { AUTH_FAILED_TEXT, sinkReader, startSinks, WaitTimeoutError, type MailSink, type SinkCredentials } from './index.ts';

let sink: MailSink;
let box: SinkCredentials;

const transport = (port: number, auth: { user: string; pass: string } | null, extra: Record<string, unknown> = {}) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ...(auth ? { auth } : {}),
    tls: { rejectUnauthorized: false },
    logger: false,
    ...extra,
  });

beforeAll(async () => {
  sink = await startSinks({ imap: false, smtpSizeLimit: 64 * 1024 });
  box = await sink.addUser('Sender@Outreach.test');
});
afterAll(() => sink?.stop());

describe('SMTP sink', () => {
  it('accepts AUTH PLAIN over STARTTLS (not pooled) and keeps the raw bytes as sent', async () => {
    const t = transport(sink.smtp.port, { user: box.address, pass: box.password }, { requireTLS: true, authMethod: 'PLAIN' });
    const info = await t.sendMail({ from: box.address, to: 'lead@example.test', subject: 'starttls plain', text: 'hello' });
    expect(info.response).toMatch(/^250 OK: queued as \S+$/);
    const id = /queued as (\S+)/.exec(info.response)![1]!;
    const m = sink.message(id)!;
    expect(m.session.tls).toBe('starttls');
    expect(m.session.authUser).toBe('sender@outreach.test');
    expect(m.messageIdHeader).toBe(info.messageId.replace(/[<>]/g, ''));
    expect(m.raw.toString()).toContain('Subject: starttls plain');
    const auth = sink.attempts({ kind: 'auth', user: box.address }).at(-1)!;
    expect(auth).toMatchObject({ outcome: 'accepted', authMethod: 'PLAIN', reply: { code: 235 } });
  });

  it('accepts AUTH LOGIN over implicit TLS', async () => {
    const t = transport(sink.smtp.securePort!, { user: box.address, pass: box.password }, { secure: true, authMethod: 'LOGIN' });
    const info = await t.sendMail({ from: box.address, to: 'lead@example.test', subject: 'implicit login', text: 'x' });
    const m = sink.messages({ subject: 'implicit login' })[0]!;
    expect(m.session.tls).toBe('implicit');
    expect(m.session.tlsProtocol).toMatch(/^TLSv1\.[23]$/);
    expect(info.accepted).toEqual(['lead@example.test']);
    expect(sink.attempts({ kind: 'auth' }).at(-1)!.authMethod).toBe('LOGIN');
  });

  it('records every message of a pooled sender reusing connections', async () => {
    const t = transport(sink.smtp.port, { user: box.address, pass: box.password }, { pool: true, maxConnections: 3, maxMessages: 100 });
    const n = 40;
    await Promise.all(Array.from({ length: n }, (_, i) => t.sendMail({ from: box.address, to: `lead${i}@example.test`, subject: `pooled ${i}`, text: `n=${i}` })));
    t.close();
    const got = sink.messages({ subject: 'pooled ' });
    expect(got).toHaveLength(n);
    expect(new Set(got.map((m) => m.envelope.rcptTo[0])).size).toBe(n);
    // three connections at most, so AUTH happened at most three times for these
    expect(new Set(got.map((m) => m.session.id)).size).toBeLessThanOrEqual(3);
  });

  it('refuses a wrong password with 535 and records the refused attempt', async () => {
    const t = transport(sink.smtp.port, { user: box.address, pass: 'not-the-password' });
    const err = await t.sendMail({ from: box.address, to: 'lead@example.test', subject: 'never', text: 'x' }).catch((e: unknown) => e as { responseCode: number; response: string });
    expect(err).toMatchObject({ responseCode: 535, response: `535 ${AUTH_FAILED_TEXT}` });
    const a = sink.attempts({ kind: 'auth', outcome: 'rejected' }).at(-1)!;
    expect(a.authUser).toBe(box.address);
    expect(a.reply).toEqual({ code: 535, text: AUTH_FAILED_TEXT });
    expect(sink.messages({ subject: 'never' })).toHaveLength(0);
    // an unknown user is refused the same way
    const u = transport(sink.smtp.port, { user: 'nobody@outreach.test', pass: 'x' });
    await expect(u.sendMail({ from: 'a@b.test', to: 'c@d.test', text: 'x' })).rejects.toMatchObject({ responseCode: 535 });
  });

  it('shows Bcc recipients in the envelope, not in the headers', async () => {
    const t = transport(sink.smtp.port, { user: box.address, pass: box.password });
    await t.sendMail({ from: box.address, to: 'lead@example.test', cc: 'cc@example.test', bcc: 'hidden@example.test', subject: 'bcc check', text: 'x' });
    const m = sink.messages({ subject: 'bcc check' })[0]!;
    expect(m.envelope.rcptTo.sort()).toEqual(['cc@example.test', 'hidden@example.test', 'lead@example.test']);
    expect(m.raw.toString()).not.toContain('hidden@example.test');
    expect(sink.messages({ to: 'HIDDEN@example.test' })).toHaveLength(1);
  });

  it('answers 552 beyond the size limit and keeps the attempt (bytes cut at the limit)', async () => {
    const t = transport(sink.smtp.port, { user: box.address, pass: box.password });
    const big = 'x'.repeat(100 * 1024);
    const err = await t.sendMail({ from: box.address, to: 'lead@example.test', subject: 'too big', text: big }).catch((e: unknown) => e as { responseCode: number; response: string });
    expect(err.responseCode).toBe(552);
    expect(err.response).toMatch(/^552 .*exceeds fixed maximum message size/);
    const a = sink.attempts({ kind: 'mail', code: 552 }).at(-1)!;
    expect(a).toMatchObject({ outcome: 'rejected', stage: 'DATA', truncated: true });
    expect(a.size).toBeGreaterThan(100 * 1024);
    expect(sink.attemptRaw(a.id)!.length).toBeLessThanOrEqual(sink.sizeLimit + 1024);
    expect(sink.messages({ subject: 'too big' })).toHaveLength(0);
  });

  it('builds the parsed view on demand (headers, addresses, html, text, links, images, attachments)', async () => {
    const t = transport(sink.smtp.port, { user: box.address, pass: box.password });
    await t.sendMail({
      from: { name: 'Sender Box', address: box.address },
      to: 'Lead One <lead1@example.test>',
      cc: 'cc@example.test',
      replyTo: 'replies@outreach.test',
      subject: 'Ünïcode subject ✓',
      text: 'Visit https://text.example/path now',
      html: '<p>Hi <a href="https://click.example/t?u=1&amp;v=2">here</a><img src="https://pixel.example/o.gif" width="1"></p>',
      attachments: [{ filename: 'note.txt', content: 'attached text' }],
      headers: { 'X-Campaign': 'c-42' },
    });
    const m = sink.messages({ subject: 'Ünïcode' })[0]!;
    const p = await m.parsed();
    expect(p.subject).toBe('Ünïcode subject ✓');
    expect(p.from).toEqual([{ name: 'Sender Box', address: 'sender@outreach.test' }]);
    expect(p.to).toEqual([{ name: 'Lead One', address: 'lead1@example.test' }]);
    expect(p.cc.map((a) => a.address)).toEqual(['cc@example.test']);
    expect(p.replyTo.map((a) => a.address)).toEqual(['replies@outreach.test']);
    expect(p.headers['x-campaign']).toEqual(['c-42']);
    expect(p.links).toEqual(['https://click.example/t?u=1&v=2', 'https://text.example/path']);
    expect(p.images).toEqual(['https://pixel.example/o.gif']);
    expect(p.attachments).toMatchObject([{ filename: 'note.txt', contentType: 'text/plain', size: 13, inline: false }]);
    expect(p.envelope.rcptTo).toEqual(['lead1@example.test', 'cc@example.test']);
    expect(await m.parsed()).toBe(p); // cached
  });

  it('waitFor resolves on the arriving message (event-driven) and times out with a clear error', async () => {
    const t = transport(sink.smtp.port, { user: box.address, pass: box.password });
    const waiting = sink.waitFor({ to: 'later@example.test', subject: 'arrives later' }, { timeout: 30_000 });
    await t.sendMail({ from: box.address, to: 'later@example.test', subject: 'arrives later', text: 'x' });
    const m = await waiting;
    expect(m.envelope.rcptTo).toEqual(['later@example.test']);
    // a predicate works too, and an already stored message resolves at once
    expect((await sink.waitFor((x) => x.id === m.id, { timeout: 10 })).id).toBe(m.id);
    const t0 = Date.now();
    await expect(sink.waitFor({ to: 'never@example.test' }, { timeout: 150 })).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('offers the same reads through the MailReader interface', async () => {
    const reader = sinkReader(sink);
    expect(reader.capabilities).toMatchObject({ attempts: true, faults: true, imap: false });
    const [m] = await reader.list({ subject: 'bcc check' });
    expect(m!.rcptTo).toContain('hidden@example.test');
    expect((await reader.raw(m!.id)).toString()).toContain('Subject: bcc check');
    expect((await reader.parsed(m!.id)).subject).toBe('bcc check');
    await expect(reader.raw('missing')).rejects.toThrow(/not found/);
  });

  it('records unauthenticated senders too (auth is optional unless requireAuth)', async () => {
    const t = transport(sink.smtp.port, null, { ignoreTLS: true });
    await t.sendMail({ from: 'anon@load.test', to: 'lead@example.test', subject: 'anonymous', text: 'x' });
    const m = sink.messages({ from: 'anon@load.test' })[0]!;
    expect(m.session.authUser).toBeNull();
    expect(m.session.tls).toBe('none');
  });
});

describe('SMTP sink with requireAuth', () => {
  it('refuses MAIL without AUTH with 530', async () => {
    const s = await startSinks({ imap: false, requireAuth: true, smtpsPort: null });
    try {
      expect(s.smtp.securePort).toBeNull();
      const t = transport(s.smtp.port, null, { ignoreTLS: true });
      await expect(t.sendMail({ from: 'anon@load.test', to: 'lead@example.test', text: 'x' })).rejects.toMatchObject({ responseCode: 530 });
      expect(s.messages()).toHaveLength(0);
      // the sink's own injector still gets in
      const u = await s.addUser('strict@outreach.test');
      await transport(s.smtp.port, { user: u.address, pass: u.password }).sendMail({ from: u.address, to: 'lead@example.test', subject: 'strict', text: 'x' });
      const r = await s.inject.reply(s.messages({ subject: 'strict' })[0]!);
      expect(s.message(r.storedId!)).toMatchObject({ injected: true, envelope: { rcptTo: ['strict@outreach.test'] } });
    } finally {
      await s.stop();
      await s.stop(); // idempotent
    }
  });
});

describe('SMTP sink stopping by itself', () => {
  const refused = (port: number) =>
    new Promise<boolean>((resolve) => {
      const c = net.connect({ host: '127.0.0.1', port });
      c.once('connect', () => (c.destroy(), resolve(false)));
      c.once('error', () => resolve(true));
    });

  it('stops after idleTimeoutMs without activity, not while a connection is open', async () => {
    const s = await startSinks({ imap: false, smtpsPort: null, idleTimeoutMs: 300 });
    try {
      const held = net.connect({ host: '127.0.0.1', port: s.smtp.port });
      await new Promise((r) => held.once('connect', r));
      await new Promise((r) => setTimeout(r, 600));
      expect(await refused(s.smtp.port)).toBe(false); // an open connection keeps it up
      held.destroy();
      // Then it stops by itself. Polled, since a busy machine may wake its idle timer late; each
      // probe is a connection (activity), so probes are spaced well past the idle timeout.
      let stopped = false;
      for (const deadline = Date.now() + 60_000; !stopped && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 1200));
        stopped = await refused(s.smtp.port);
      }
      expect(stopped).toBe(true);
    } finally {
      await s.stop();
    }
  });
});
