// Background mailbox verification against real servers: the kit's sinks (smtp-server with
// STARTTLS + AUTH, Dovecot IMAP) started here as test fixtures; the reference itself talks to
// them over the wire only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { connect, createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startSinks, imapUnavailableReason, type MailSink } from '../sinks/index.ts';
import { sinkCertificate } from '../sinks/cert.ts';
import { Env, mailboxInput, type Workspace } from './reference.test-helper.ts';

let sink: MailSink;
let e: Env;
let w: Workspace;
let n = 0;


type SinkBox = Awaited<ReturnType<MailSink['addUser']>>;

/**
 * A sink user and a mailbox connected to it. `before` runs between the two (a fault set there is
 * in place before the target can verify anything).
 */
async function sinkMailbox(over: (box: SinkBox) => Record<string, unknown> = () => ({}), before?: (box: SinkBox) => Promise<void>) {
  const box = await sink.addUser(`sdr${++n}-${Date.now().toString(36)}@outreach.test`);
  await before?.(box);
  const input = mailboxInput({
    emailAddress: box.address,
    smtpHost: box.smtp.host, smtpPort: box.smtp.port, smtpUsername: box.smtp.username, smtpPassword: box.smtp.password,
    imapHost: box.imap?.host ?? box.smtp.host, imapPort: box.imap?.port ?? 1, imapUsername: box.imap?.username ?? box.address, imapPassword: box.imap?.password ?? 'x',
    ...over(box),
  });
  const r = await e.call(w.key, 'POST', '/v1/accounts', { body: { accounts: [input] } });
  expect(r.status).toBe(201);
  return { box, account: r.body.accounts[0] };
}
const drain = () => e.ctl('POST', '/work/drain', {});

/**
 * An SMTP server that holds a verification on the wire until the test releases it: it greets, then
 * answers EHLO with continuation lines ("250-") every 200 ms and never the last one, so neither a
 * greeting nor an idle-socket timeout ends the session; release() hangs up. `reached`: the EHLO came.
 */
async function heldSmtpServer() {
  const sockets = new Set<Socket>();
  let reached!: () => void;
  const ehlo = new Promise<void>((r) => (reached = r));
  const server = createNetServer((sock) => {
    sockets.add(sock);
    sock.on('error', () => sock.destroy());
    sock.write('220 held.test ESMTP\r\n');
    sock.once('data', () => {
      reached();
      const trickle = setInterval(() => sock.write('250-held.test\r\n'), 200);
      sock.once('close', () => clearInterval(trickle));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    reached: ehlo,
    release: () => {
      for (const sock of sockets) sock.destroy();
    },
  };
}
const get = async (id: string) => (await e.call(w.key, 'GET', `/v1/accounts/${id}`)).body;
const ver = async (id: string) => (await e.call(w.key, 'GET', `/v1/accounts/${id}/verification`)).body;

// Needs Dovecot for the IMAP side (CI installs it; without it these tests are skipped with the reason).
const noImap = imapUnavailableReason();
describe.skipIf(noImap !== null)(`background verification against real SMTP/IMAP servers${noImap ? ` (skipped: ${noImap})` : ''}`, () => {
  // No background timer: verification runs only inside /work/drain, so what a test sets up
  // between creating a mailbox and draining cannot race a verification (the timer is tested apart).
  beforeAll(async () => {
    [sink, e] = await Promise.all([startSinks({ requireAuth: true }), Env.start([], { backgroundTimer: false })]);
    w = await e.workspace();
  });
  let imapsProxy: TlsServer | null = null;
  /** An implicit-TLS IMAP port with a self-signed certificate, in front of the sink's Dovecot. */
  async function imapsPort(): Promise<number> {
    if (!imapsProxy) {
      const pem = await sinkCertificate();
      const proxy = createTlsServer({ key: pem.key, cert: pem.cert }, (sock) => {
        const up = connect(sink.imap!.port, sink.imap!.host);
        sock.pipe(up).pipe(sock);
        const end = () => { sock.destroy(); up.destroy(); };
        sock.on('error', end);
        up.on('error', end);
        sock.on('close', end);
        up.on('close', end);
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
      imapsProxy = proxy;
    }
    return (imapsProxy.address() as AddressInfo).port;
  }

  afterAll(async () => {
    imapsProxy?.close();
    await e?.stop();
    await sink?.stop();
  });

  it('good credentials: inactive + pending at create, then active after /work/drain', async () => {
    const { account } = await sinkMailbox();
    expect(account.status).toBe('inactive');
    expect(account.verification.overallStatus).toBe('pending');
    expect(account.verification.smtp).toBe('not_checked');
    expect((await drain()).body.processed).toBeGreaterThanOrEqual(0);
    const m = await get(account.id);
    expect(m.status).toBe('active');
    expect(m.statusMessage).toBeNull();
    expect(m.verification).toMatchObject({ overallStatus: 'active', smtp: 'active', imap: sink.imap ? 'active' : 'failed' });
    const v = await ver(account.id);
    expect(v.smtp).toEqual({ status: 'active', error: null });
    expect(typeof v.lastVerifiedAt).toBe('string');
    // The sink saw a real AUTH over STARTTLS.
    const auth = sink.attempts({ kind: 'auth', user: account.smtp.username });
    expect(auth.length).toBeGreaterThan(0);
    expect(auth[0]!.session.tls).toBe('starttls');
    expect(auth[0]!.outcome).toBe('accepted');
  });

  it('wrong SMTP password: failed with statusMessage (code, command, responseCode, response, message, occurredAt)', async () => {
    const { account } = await sinkMailbox(() => ({ smtpPassword: 'wrong-password' }));
    await drain();
    const m = await get(account.id);
    expect(m.status).toBe('failed');
    expect(m.statusMessage).toMatchObject({ code: 'EAUTH', responseCode: 535 });
    expect(m.statusMessage.command).toMatch(/AUTH/);
    expect(m.statusMessage.response).toMatch(/^535/);
    expect(typeof m.statusMessage.message).toBe('string');
    expect(Number.isNaN(Date.parse(m.statusMessage.occurredAt))).toBe(false);
    expect(JSON.stringify(m)).not.toContain('wrong-password');
    const v = await ver(account.id);
    expect(v.overallStatus).toBe('failed');
    expect(v.smtp.status).toBe('failed');
    expect(v.smtp.error).toMatchObject({ responseCode: 535 });
  });

  it('refused IMAP login: failed with the IMAP reason', async () => {
    if (!sink.imap) return;
    const { box, account } = await sinkMailbox(undefined, (b) => sink.faults.imapLogin(b.address, 'wrong-password'));
    await drain();
    const m = await get(account.id);
    expect(m.status).toBe('failed');
    expect(m.statusMessage.code).toBe('AUTHENTICATIONFAILED');
    expect(m.statusMessage.command).toBe('LOGIN');
    const v = await ver(account.id);
    expect(v.smtp.status).toBe('active');
    expect(v.imap.status).toBe('failed');
    expect(v.imap.error.code).toBe('AUTHENTICATIONFAILED');
    // resume re-verifies a failed mailbox: checking, then active once the login works again
    await sink.faults.imapLogin(box.address, null);
    const r = await e.call(w.key, 'POST', `/v1/accounts/${account.id}/resume`);
    expect(r.body.status).toBe('checking');
    expect(r.body.verification.overallStatus).toBe('pending');
    await drain();
    expect((await get(account.id)).status).toBe('active');
  });

  it('unreachable host: failed with a connection reason', async () => {
    const { account } = await sinkMailbox(() => ({ smtpPort: 1 }));
    await drain();
    const m = await get(account.id);
    expect(m.status).toBe('failed');
    expect(m.statusMessage.code).toBe('ESOCKET');
    expect(m.statusMessage.command).toBe('CONN');
    expect(m.statusMessage.message).toMatch(/ECONNREFUSED/);
  });

  it('a drain scoped to a workspace (scoped-drain) waits for its work only; the timeoutMs bounds any drain', async () => {
    const held = await heldSmtpServer();
    try {
      const slowWs = await e.workspace();
      const slow = await e.mailbox(slowWs, { smtpHost: '127.0.0.1', smtpPort: held.port });
      const { account } = await sinkMailbox();
      const scoped = await e.ctl('POST', '/work/drain', { organizationId: w.orgId, timeoutMs: 60_000 });
      expect(scoped.status).toBe(200);
      expect((await get(account.id)).status).toBe('active');
      const slowNow = async () => (await e.call(slowWs.key, 'GET', `/v1/accounts/${slow.id}`)).body.verification.overallStatus;
      // The other workspace's verification is held on the wire: the scoped drain did not wait for it.
      await held.reached;
      expect(await slowNow()).toBe('pending');
      // A drain of everything with a short timeout answers by it, the held verification still running.
      await e.ctl('POST', '/work/drain', { timeoutMs: 200 });
      expect(await slowNow()).toBe('pending');
      // Unscoped and long enough, it waits for every verification: the held one ends (the server
      // hangs up) while the drain waits.
      const all = e.ctl('POST', '/work/drain', { timeoutMs: 60_000 });
      setTimeout(() => held.release(), 500);
      expect((await all).status).toBe(200);
      expect(await slowNow()).toBe('failed');
    } finally {
      held.release();
      held.server.close();
    }
  });

  it('implicit TLS: SMTP on the sink\'s TLS port; IMAP behind a self-signed certificate only with imapAllowInvalidCert', async () => {
    if (!sink.imap || !sink.smtp.securePort) return;
    const port = await imapsPort();
    const { account } = await sinkMailbox(() => ({ smtpPort: sink.smtp.securePort, imapPort: port, imapAllowInvalidCert: true }));
    await drain();
    const m = await get(account.id);
    expect(m.status, JSON.stringify(m.statusMessage)).toBe('active');
    expect(sink.attempts({ kind: 'auth', user: account.smtp.username })[0]!.session.tls).toBe('implicit');
    const strict = await sinkMailbox(() => ({ imapPort: port }));
    await drain();
    const s2 = await get(strict.account.id);
    expect(s2.status).toBe('failed');
    expect(`${s2.statusMessage.code} ${s2.statusMessage.message}`).toMatch(/SELF_SIGNED|certificate/i);
    expect((await ver(strict.account.id)).smtp.status).toBe('active');
  });

  it('PATCH of credentials rotates and re-verifies; a paused mailbox stays inactive', async () => {
    const { box, account } = await sinkMailbox(() => ({ smtpPassword: 'nope' }));
    await drain();
    expect((await get(account.id)).status).toBe('failed');
    const p = await e.call(w.key, 'PATCH', `/v1/accounts/${account.id}`, { body: { smtpPassword: box.smtp.password } });
    expect(p.status).toBe(200);
    expect(p.body.status).toBe('checking');
    expect(p.body.verification.overallStatus).toBe('pending');
    await drain();
    expect((await get(account.id)).status).toBe('active');
    // pause, then rotate: re-verified but not re-activated (only a resume does that)
    expect((await e.call(w.key, 'POST', `/v1/accounts/${account.id}/pause`)).body.status).toBe('inactive');
    expect((await e.call(w.key, 'PATCH', `/v1/accounts/${account.id}`, { body: { smtpUsername: box.smtp.username } })).body.status).toBe('inactive');
    await drain();
    const m = await get(account.id);
    expect(m.status).toBe('inactive');
    expect(m.verification.overallStatus).toBe('active');
    expect((await e.call(w.key, 'POST', `/v1/accounts/${account.id}/resume`)).body.status).toBe('checking');
    await drain();
    expect((await get(account.id)).status).toBe('active');
  });
});

describe.skipIf(noImap !== null)('background verification on the reference\'s own timer (no control API)', () => {
  let timed: Env;
  beforeAll(async () => {
    [sink, timed] = await Promise.all([startSinks({ requireAuth: true }), Env.start([], { backgroundTimer: true })]);
  });
  afterAll(async () => {
    await timed?.stop();
    await sink?.stop();
  });

  it('verifies a new mailbox without any /work/drain', async () => {
    // Behaviour, not speed: the mailbox leaves `inactive` for `active` on the timer alone. The
    // deadline only bounds the wait; how soon it happens is not asserted.
    const ws = await timed.workspace();
    const box = await sink.addUser(`timer-${Date.now().toString(36)}@outreach.test`);
    const input = mailboxInput({
      emailAddress: box.address,
      smtpHost: box.smtp.host, smtpPort: box.smtp.port, smtpUsername: box.smtp.username, smtpPassword: box.smtp.password,
      imapHost: box.imap!.host, imapPort: box.imap!.port, imapUsername: box.imap!.username, imapPassword: box.imap!.password,
    });
    const created = await timed.call(ws.key, 'POST', '/v1/accounts', { body: { accounts: [input] } });
    expect(created.body.accounts[0].status).toBe('inactive');
    const id = created.body.accounts[0].id;
    const deadline = Date.now() + 60_000;
    let m = (await timed.call(ws.key, 'GET', `/v1/accounts/${id}`)).body;
    while (m.status !== 'active' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      m = (await timed.call(ws.key, 'GET', `/v1/accounts/${id}`)).body;
    }
    expect(m.status).toBe('active');
    expect(m.verification.overallStatus).toBe('active');
  });
});
