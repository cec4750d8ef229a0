// IMAP side with a real client (imapflow) against the Dovecot the sink spawns: login good and
// bad, refusals, SELECT INBOX, IDLE seeing an injected reply within 2 s, threading headers,
// DSN and out-of-office structure, Maildir drop. Skips with the install hint without Dovecot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { ImapFlow, type FetchMessageObject } from 'imapflow';
import { simpleParser } from 'mailparser';
import { imapUnavailableReason, startSinks, type MailSink, type SinkCredentials, type StoredMessage } from './index.ts';

const missing = imapUnavailableReason();
if (missing) console.warn(`imap.test.ts skipped: ${missing}`);

let sink: MailSink;
let box: SinkCredentials;
let outbound: StoredMessage;
const clients: ImapFlow[] = [];

function imap(user: string, pass: string): ImapFlow {
  const c = new ImapFlow({ host: sink.imap!.host, port: sink.imap!.port, secure: false, auth: { user, pass }, logger: false, emitLogs: false });
  c.on('error', () => undefined);
  clients.push(c);
  return c;
}

async function fetchAll(c: ImapFlow): Promise<FetchMessageObject[]> {
  const out: FetchMessageObject[] = [];
  for await (const m of c.fetch('1:*', { uid: true, envelope: true, source: true, bodyStructure: true, headers: true })) out.push(m);
  return out;
}

describe.skipIf(!!missing)('IMAP sink (Dovecot)', () => {
  beforeAll(async () => {
    sink = await startSinks();
    expect(sink.imap).not.toBeNull();
    box = await sink.addUser('mailbox@outreach.test');
    const t = nodemailer.createTransport({ host: '127.0.0.1', port: sink.smtp.port, secure: false, auth: { user: box.address, pass: box.password }, tls: { rejectUnauthorized: false }, logger: false });
    await t.sendMail({ from: box.address, to: 'lead@prospect.test', subject: 'Quick question', text: 'Would you like a demo?', messageId: '<first.touch@outreach.test>', references: '<older@outreach.test>' });
    outbound = sink.messages({ subject: 'Quick question' })[0]!;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await sink?.stop();
  });

  it('serves IMAPS (implicit TLS, self-signed): a client that accepts the certificate logs in, one that checks it is refused', async () => {
    const secure = (rejectUnauthorized: boolean) => {
      const c = new ImapFlow({ host: sink.imap!.host, port: sink.imap!.securePort, secure: true, tls: { rejectUnauthorized }, auth: { user: box.address, pass: box.password }, logger: false, emitLogs: false });
      c.on('error', () => undefined);
      clients.push(c);
      return c;
    };
    const ok = secure(false);
    await ok.connect();
    const status = await ok.status('INBOX', { messages: true });
    expect(status && status.messages).toBeGreaterThanOrEqual(0);
    await ok.logout();
    await expect(secure(true).connect()).rejects.toThrow(/self-signed|certificate/i);
  });

  it('logs in with the mailbox password and refuses a wrong one', async () => {
    const good = imap(box.address, box.password);
    await good.connect();
    expect(good.authenticated).toBeTruthy();
    await good.logout();
    const bad = imap(box.address, 'wrong-password');
    await expect(bad.connect()).rejects.toMatchObject({ authenticationFailed: true });
  });

  it('refuses login on purpose (wrong-password, disabled) until allowed again', async () => {
    const u = await sink.addUser('refused@outreach.test');
    await sink.faults.imapLogin(u.address, 'wrong-password');
    await expect(imap(u.address, u.password).connect()).rejects.toMatchObject({ authenticationFailed: true });
    await sink.faults.imapLogin(u.address, 'disabled');
    const err = await imap(u.address, u.password).connect().then(() => null, (e: { responseText?: string; serverResponseCode?: string }) => e);
    expect(err).not.toBeNull();
    expect(`${err!.serverResponseCode ?? ''} ${err!.responseText ?? ''}`).toMatch(/CONTACTADMIN|Account_disabled/);
    await sink.faults.imapLogin(u.address, null);
    const ok = imap(u.address, u.password);
    await ok.connect();
    await ok.logout();
  });

  it('IDLE is told of an injected reply, fetched with its threading headers intact', async () => {
    const c = imap(box.address, box.password);
    await c.connect();
    const mb = await c.mailboxOpen('INBOX');
    const before = mb.exists;
    const seen = new Promise<void>((resolve) => c.on('exists', () => resolve()));
    void c.idle();
    await new Promise((r) => setTimeout(r, 50)); // IDLE is on
    const r = await sink.inject.reply(outbound.id, { body: 'Yes, please send times.' });
    expect(r).toMatchObject({ via: 'smtp', mailbox: box.address, inInbox: true });
    // Told by the server while idling, not found by a later poll (how fast is bench:sink's business;
    // Dovecot checks an idling mailbox every second, the deadline only bounds the wait).
    await Promise.race([seen, new Promise<void>((_, rej) => setTimeout(() => rej(new Error('IDLE saw nothing in 30 s')), 30_000))]);
    const all = await fetchAll(c);
    expect(all.length).toBe(before + 1);
    const reply = await simpleParser(all.at(-1)!.source!);
    expect(reply.inReplyTo).toBe('<first.touch@outreach.test>');
    expect(reply.references).toEqual(['<older@outreach.test>', '<first.touch@outreach.test>']);
    expect(reply.subject).toBe('Re: Quick question');
    expect(reply.from!.value[0]!.address).toBe('lead@prospect.test');
    expect(reply.text).toContain('Yes, please send times.');
    expect(reply.text).toContain('> Would you like a demo?');
    // the injected reply is a real SMTP delivery, recorded and marked as injected
    expect(sink.messages({ injected: true, inReplyTo: 'first.touch@outreach.test' })).toHaveLength(1);
    await c.logout();
  });

  it('delivers a hard bounce as a DSN (multipart/report with message/delivery-status)', async () => {
    const r = await sink.inject.bounce(outbound.id, { kind: 'hard' });
    const c = imap(box.address, box.password);
    await c.connect();
    await c.mailboxOpen('INBOX');
    const all = await fetchAll(c);
    const dsn = all.find((m) => m.envelope?.messageId === `<${r.messageId}>`)!;
    expect(dsn).toBeDefined();
    const bs = dsn.bodyStructure!;
    expect(bs.type).toBe('multipart/report');
    expect(bs.parameters?.['report-type']).toBe('delivery-status');
    expect(bs.childNodes!.map((n) => n.type)).toEqual(['text/plain', 'message/delivery-status', 'text/rfc822-headers']);
    const { content } = await c.download(String(dsn.seq), '2');
    const chunks: Buffer[] = [];
    for await (const ch of content!) chunks.push(ch as Buffer);
    const report = Buffer.concat(chunks).toString();
    expect(report).toMatch(/^Final-Recipient: rfc822; lead@prospect\.test$/m);
    expect(report).toMatch(/^Action: failed$/m);
    expect(report).toMatch(/^Status: 5\.1\.1$/m);
    expect(report).toMatch(/^Diagnostic-Code: smtp; 550 5\.1\.1 /m);
    // the DSN came from the null sender, as bounces do
    expect(sink.messages({ injected: true }).find((m) => m.messageIdHeader === r.messageId)!.envelope.mailFrom).toBe('');
    await c.logout();
  });

  it('a soft bounce says delayed with a 4.x.x status; a mismatched status is refused', async () => {
    const r = await sink.inject.bounce(outbound.id, { kind: 'soft', via: 'maildir' });
    expect(r.raw.toString()).toMatch(/^Action: delayed\r?$/m);
    expect(r.raw.toString()).toMatch(/^Status: 4\.2\.2\r?$/m);
    await expect(sink.inject.bounce(outbound.id, { kind: 'soft', status: '5.1.1' })).rejects.toThrow(/does not fit a soft bounce/);
  });

  it('delivers an out-of-office answer (Auto-Submitted: auto-replied) by Maildir drop', async () => {
    const c = imap(box.address, box.password);
    await c.connect();
    await c.mailboxOpen('INBOX');
    const seen = new Promise<void>((resolve) => c.on('exists', () => resolve()));
    void c.idle();
    await new Promise((r) => setTimeout(r, 50));
    const r = await sink.inject.outOfOffice(outbound.id, { via: 'maildir', returnDate: '2031-01-05' });
    expect(r).toMatchObject({ via: 'maildir', storedId: null, inInbox: true });
    await Promise.race([seen, new Promise((_, rej) => setTimeout(() => rej(new Error('IDLE saw nothing in 30 s')), 30_000))]);
    const all = await fetchAll(c);
    const ooo = await simpleParser(all.find((m) => m.envelope?.messageId === `<${r.messageId}>`)!.source!);
    expect(ooo.headers.get('auto-submitted')).toBe('auto-replied');
    expect(ooo.subject).toBe('Automatic reply: Quick question');
    expect(ooo.inReplyTo).toBe('<first.touch@outreach.test>');
    expect(ooo.text).toContain('2031-01-05');
    expect(ooo.headers.get('return-path')).toBeDefined();
    await c.logout();
  });

  it('delivers an unsubscribe reply threaded on the message, found by its Message-ID', async () => {
    const r = await sink.inject.unsubscribe('<first.touch@outreach.test>');
    const m = sink.messages({ injected: true }).find((x) => x.messageIdHeader === r.messageId)!;
    const p = await m.parsed();
    expect(p.inReplyTo).toBe('first.touch@outreach.test');
    expect(p.text).toMatch(/unsubscribe/i);
    expect(m.deliveredTo).toEqual([box.address]);
    await expect(sink.inject.reply('no-such-message')).rejects.toThrow(/no recorded message/);
  });

  it('drops mail the SMTP side accepts for a local user into its INBOX', async () => {
    const peer = await sink.addUser('peer@outreach.test');
    const t = nodemailer.createTransport({ host: '127.0.0.1', port: sink.smtp.port, secure: false, ignoreTLS: true, logger: false });
    await t.sendMail({ from: 'someone@else.test', to: [peer.address, 'external@else.test'], subject: 'local drop', text: 'x' });
    const m = sink.messages({ subject: 'local drop' })[0]!;
    expect(m.deliveredTo).toEqual([peer.address]);
    const c = imap(peer.address, peer.password);
    await c.connect();
    const mb = await c.mailboxOpen('INBOX');
    expect(mb.exists).toBe(1);
    const [got] = await fetchAll(c);
    expect(got!.envelope!.subject).toBe('local drop');
    expect(got!.source!.toString()).toMatch(/^Return-Path: <someone@else\.test>\r\nDelivered-To: peer@outreach\.test\r\n/);
    await c.logout();
  });
});

describe.skipIf(!missing)('IMAP sink unavailable', () => {
  it(`reports why and keeps SMTP working (${missing})`, async () => {
    const s = await startSinks();
    try {
      expect(s.imap).toBeNull();
      expect(s.imapUnavailableReason).toContain('apt-get install dovecot-imapd');
      expect((await s.addUser('x@y.test')).imap).toBeNull();
    } finally {
      await s.stop();
    }
  });
});
