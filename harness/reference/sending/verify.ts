// Background verification of mailboxes (spec 1 "Newly connected mailboxes start `inactive` and are
// verified in the background", 2.4, 3.2) against the mailbox's real SMTP and IMAP servers, over
// the wire like a real product (never through the kit's sinks' API).
//
// - A job (table verify_jobs: account id, due time on the clock, generation, reason) is queued
//   at create, at resume and at a PATCH of any smtp*/imap* field. A newer job supersedes an
//   older one (its generation); a result of a superseded run is dropped.
// - Jobs run from POST /work/drain (control API: runs every due job and waits for the running
//   ones) and from a real-time timer (every 200 ms), so a target without the control API
//   progresses on its own (a new mailbox is decided within about a second plus the servers'
//   answer time).
// - SMTP: connect, EHLO, STARTTLS where offered, AUTH (PLAIN or LOGIN, whichever the server
//   offers) with the decrypted password, QUIT (nodemailer's transport.verify()). IMAP: connect,
//   STARTTLS where offered, LOGIN, LOGOUT (imapflow). Implicit TLS on 465/993, cleartext +
//   STARTTLS on 25/587/2525/143, and on any other port implicit TLS is probed first (see
//   withTlsProbe). Timeouts: 15 s to connect / greet, 20 s per idle socket, 5 s for DNS: a
//   loopback server on a machine under heavy load can take seconds to accept and greet, and a
//   mailbox that is fine must not fail for it (the verdict would then depend on the machine).
// - Certificates. IMAP: verified unless the mailbox's `imapAllowInvalidCert` is true (2.2
//   "accept a self-signed IMAP certificate"). SMTP: the spec gives no such switch; STARTTLS on
//   submission is treated as opportunistic (RFC 7435: encrypt whenever offered, do not
//   authenticate the server), so SMTP certificates are not verified. A reference that refused
//   self-signed SMTP certificates could never verify a mailbox on a test server such as the
//   kit's sinks, and the spec offers no way to ask for it.
// - Outcome (mapping "not shown"; the reference's choice): both protocols succeed -> `active`
//   (verification.overallStatus `active`, smtp/imap `active`); either fails -> `failed` with
//   `statusMessage` from the first failing protocol (SMTP first) and per-protocol errors;
//   a failure inside the service (e.g. a password that cannot be decrypted) -> `failed` with
//   `statusMessage` null (2.1: null when the failure was on the service side).
//   A paused mailbox (inactive after POST /pause) whose credentials are rotated is re-verified
//   but stays inactive: "nothing re-activates it automatically, only a resume" (3.2).
import nodemailer from 'nodemailer';
import { ImapFlow } from 'imapflow';
import type { Services } from '../request/context.ts';
import { slowTick, slowWork } from '../switches/slow.ts';

export const VERIFY_TICK_MS = 200;
export const CONNECT_TIMEOUT_MS = 15_000;
export const SOCKET_TIMEOUT_MS = 20_000;
const DNS_TIMEOUT_MS = 5_000;
const MAX_PARALLEL = 16;

export interface ProtoError {
  code: string;
  command: string;
  responseCode: number;
  response: string;
  message: string;
}
export interface ProtoResult { ok: boolean; error: ProtoError | null; serviceSide?: boolean }

export interface Endpoint { host: string; port: number; username: string; password: string }

function clip(s: unknown, n = 500): string {
  const t = typeof s === 'string' ? s : s === undefined || s === null ? '' : String(s);
  return t.length > n ? `${t.slice(0, n)}...` : t;
}

// Implicit TLS or cleartext + STARTTLS? The spec has no switch for it: the well-known ports decide
// (465 and 993 implicit TLS; 25, 587, 2525 and 143 cleartext + STARTTLS where offered); on any other
// port the server is probed: implicit TLS first and, when the server does not speak TLS there
// (a TLS protocol error, not a refused connection, a certificate or an authentication error),
// cleartext + STARTTLS.
const IMPLICIT_PORTS = new Set([465, 993]);
const CLEARTEXT_PORTS = new Set([25, 587, 2525, 143]);
const CONNECTION_ERRORS = /^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ECONNRESET_BEFORE|EDNS)$/;
const CERT_ERRORS = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|HOSTNAME/i;

type TlsMode = 'implicit' | 'starttls';

/** Probes implicit TLS first on an unusual port; falls back to cleartext + STARTTLS. */
async function withTlsProbe(port: number, attempt: (mode: TlsMode) => Promise<ProtoResult>): Promise<ProtoResult> {
  if (IMPLICIT_PORTS.has(port)) return attempt('implicit');
  if (CLEARTEXT_PORTS.has(port)) return attempt('starttls');
  const tls = await attempt('implicit');
  if (tls.ok || !tls.error) return tls;
  const e = tls.error;
  const spokeTls = e.code === 'EAUTH' || e.code === 'AUTHENTICATIONFAILED' || e.responseCode > 0 || CERT_ERRORS.test(`${e.code} ${e.message}`);
  const unreachable = CONNECTION_ERRORS.test(e.code) || /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH/.test(e.message);
  if (spokeTls || unreachable) return tls;
  return attempt('starttls');
}

/** EHLO, STARTTLS where offered, AUTH, QUIT. */
export function checkSmtp(ep: Endpoint, closers: Set<() => void>): Promise<ProtoResult> {
  return withTlsProbe(ep.port, (mode) => smtpAttempt(ep, mode, closers));
}

async function smtpAttempt(ep: Endpoint, mode: TlsMode, closers: Set<() => void>): Promise<ProtoResult> {
  const transport = nodemailer.createTransport({
    host: ep.host,
    port: ep.port,
    secure: mode === 'implicit',
    auth: { user: ep.username, pass: ep.password },
    name: 'outreach-reference.local',
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    dnsTimeout: DNS_TIMEOUT_MS,
    // Opportunistic STARTTLS on submission: see the header of this file.
    tls: { rejectUnauthorized: false },
    logger: false,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const close = () => transport.close();
  closers.add(close);
  try {
    await transport.verify();
    return { ok: true, error: null };
  } catch (e) {
    const err = e as { code?: string; command?: string; responseCode?: number; response?: string; message?: string };
    return {
      ok: false,
      error: {
        code: clip(err.code ?? 'ESMTP', 64),
        command: clip(err.command ?? 'CONN', 64),
        responseCode: typeof err.responseCode === 'number' ? err.responseCode : 0,
        response: clip(err.response ?? ''),
        message: clip(err.message ?? 'SMTP verification failed'),
      },
    };
  } finally {
    closers.delete(close);
    transport.close();
  }
}

/** Connect, STARTTLS where offered, LOGIN, LOGOUT. */
export function checkImap(ep: Endpoint, allowInvalidCert: boolean, closers: Set<() => void>): Promise<ProtoResult> {
  return withTlsProbe(ep.port, (mode) => imapAttempt(ep, mode, allowInvalidCert, closers));
}

async function imapAttempt(ep: Endpoint, mode: TlsMode, allowInvalidCert: boolean, closers: Set<() => void>): Promise<ProtoResult> {
  const client = new ImapFlow({
    host: ep.host,
    port: ep.port,
    secure: mode === 'implicit',
    auth: { user: ep.username, pass: ep.password },
    logger: false,
    tls: { rejectUnauthorized: !allowInvalidCert },
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    disableAutoIdle: true,
    verifyOnly: true,
  } as ConstructorParameters<typeof ImapFlow>[0]);
  client.on('error', () => {}); // reported through connect()'s rejection
  const close = () => {
    try {
      client.close();
    } catch {
      /* already closed */
    }
  };
  closers.add(close);
  try {
    await client.connect();
    try {
      await client.logout();
    } catch {
      /* verifyOnly clients may already be gone */
    }
    return { ok: true, error: null };
  } catch (e) {
    const err = e as { code?: string; command?: string; responseText?: string; response?: unknown; serverResponseCode?: string; authenticationFailed?: boolean; message?: string };
    const response = typeof err.response === 'string' ? err.response : err.responseText ?? '';
    return {
      ok: false,
      error: {
        code: clip(err.serverResponseCode ?? (err.authenticationFailed ? 'AUTHENTICATIONFAILED' : err.code ?? 'EIMAP'), 64),
        command: clip(err.authenticationFailed ? 'LOGIN' : err.command ?? 'CONNECT', 64),
        // IMAP replies carry no numeric code: 0 (the reply text is in `response`).
        responseCode: 0,
        response: clip(response),
        message: clip(err.authenticationFailed ? `Authentication failed: ${err.responseText ?? err.message ?? ''}`.trim() : err.message ?? 'IMAP verification failed'),
      },
    };
  } finally {
    closers.delete(close);
    close();
  }
}

interface JobRow { account_id: string; due_at: number; gen: number }

/** The verification queue of one reference instance. */
export class Verifier {
  private readonly running = new Map<string, Promise<void>>();
  private readonly closers = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private ticking = false;

  /** `slow`: the factor of `reference --slow` (switches/slow.ts); 1 unslowed. */
  constructor(
    private readonly s: Services,
    private readonly slow = 1,
  ) {}

  /** Queues a verification of `accountId` due now (or delayMs from now); supersedes any queued or running one. */
  enqueue(accountId: string, delayMs = 0): void {
    const due = this.s.clock.now() + delayMs;
    this.s.db
      .prepare('INSERT INTO verify_jobs (account_id, due_at, gen) VALUES (?, ?, 1) ON CONFLICT(account_id) DO UPDATE SET due_at = excluded.due_at, gen = verify_jobs.gen + 1')
      .run(accountId, due);
  }

  cancel(accountId: string): void {
    this.s.db.prepare('DELETE FROM verify_jobs WHERE account_id = ?').run(accountId);
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => {
      if (this.ticking || this.stopped) return;
      this.ticking = true;
      this.startDue(this.s.clock.now());
      this.ticking = false;
    }, slowTick(VERIFY_TICK_MS, this.slow));
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const c of this.closers) c();
  }

  /** Starts every due job not running yet; returns how many it started. */
  private startDue(now: number): number {
    if (this.stopped) return 0;
    const jobs = this.s.db.prepare('SELECT account_id, due_at, gen FROM verify_jobs WHERE due_at <= ? ORDER BY due_at').all(now) as JobRow[];
    let n = 0;
    for (const j of jobs) {
      if (this.running.size >= MAX_PARALLEL) break;
      const key = `${j.account_id}:${j.gen}`;
      if (this.running.has(key)) continue;
      const p = this.run(j).finally(() => this.running.delete(key));
      this.running.set(key, p);
      n++;
    }
    return n;
  }

  /** Drainer for POST /work/drain: runs every due job and waits for every running one. */
  readonly drain = async (now: number, deadline = Infinity, organizationId?: string): Promise<number> => {
    let processed = 0;
    for (;;) {
      this.startDue(now);
      // A scoped drain waits for its workspace's jobs only: another's may wait on the network (a
      // host that does not resolve waits out its 5 s DNS timeout). The deadline holds either way.
      const waitFor = organizationId === undefined ? [...this.running.values()] : this.jobsOf(organizationId, now);
      if (waitFor.length === 0) break;
      processed += waitFor.length;
      if (!(await settledBy(Promise.all(waitFor), deadline))) break;
    }
    return processed;
  };

  /**
   * The running jobs of a workspace's mailboxes; while one of them is due but not started (the
   * parallel cap), the first of the others to end, so the drain starts it.
   */
  private jobsOf(organizationId: string, now: number): Promise<unknown>[] {
    const mine = new Set(
      (this.s.db.prepare('SELECT j.account_id FROM verify_jobs j JOIN accounts a ON a.id = j.account_id WHERE a.org_id = ? AND j.due_at <= ?').all(organizationId, now) as { account_id: string }[]).map((r) => r.account_id),
    );
    const running = [...this.running].filter(([key]) => mine.has(key.slice(0, key.lastIndexOf(':')))).map(([, p]) => p);
    const waiting = mine.size > 0 && running.length === 0 && this.running.size > 0;
    return waiting ? [Promise.race(this.running.values())] : running;
  }

  private async run(job: JobRow): Promise<void> {
    try {
      await slowWork(this.slow);
      if (this.stopped) return;
      await runVerification(this.s, job, this.closers, () => this.stopped);
    } catch (e) {
      if (this.stopped) return;
      this.s.log(`reference: verification of ${job.account_id} crashed: ${(e as Error)?.stack ?? e}`);
      // Never retry a crashing job forever (drain would not end): drop this generation.
      try {
        this.s.db.prepare('DELETE FROM verify_jobs WHERE account_id = ? AND gen = ?').run(job.account_id, job.gen);
      } catch {
        /* the database is gone */
      }
    }
  }
}

interface AccountSecrets { smtpPassword?: string; imapPassword?: string }

/** The mutant's SMTP login per mailbox, kept from its first verification (a transport cached per mailbox, not dropped on PATCH). */
const cachedLogins = new WeakMap<Services, Map<string, Endpoint>>();
function smtpLogin(s: Services, accountId: string, fresh: Endpoint): Endpoint {
  if (!s.mutant('acct-patch-reverify-cached-login')) return fresh;
  const logins = cachedLogins.get(s) ?? cachedLogins.set(s, new Map()).get(s)!;
  if (!logins.has(accountId)) logins.set(accountId, fresh);
  return logins.get(accountId)!;
}

async function runVerification(s: Services, job: JobRow, closers: Set<() => void>, stopped: () => boolean): Promise<void> {
  const row = s.db.prepare('SELECT provider, doc, secrets FROM accounts WHERE id = ?').get(job.account_id) as { provider: string; doc: string; secrets: string } | undefined;
  if (!row) {
    s.db.prepare('DELETE FROM verify_jobs WHERE account_id = ? AND gen = ?').run(job.account_id, job.gen);
    return;
  }
  const doc = JSON.parse(row.doc) as Record<string, any>;
  const secrets = JSON.parse(row.secrets) as AccountSecrets;
  let smtp: ProtoResult;
  let imap: ProtoResult | null;
  let serviceSide = false;
  if (row.provider !== 'custom') {
    // An OAuth mailbox: the service holds the provider's grant, not a password; re-verification
    // checks the grant, which stands unless it was withdrawn (then the mailbox is revoked, and a
    // revoked mailbox is never re-verified: it must be reconnected).
    smtp = { ok: true, error: null };
    imap = doc.imap ? { ok: true, error: null } : null;
  } else try {
    const smtpEp: Endpoint = { ...doc.smtp, password: secrets.smtpPassword ? s.decrypt(secrets.smtpPassword) : '' };
    const imapEp: Endpoint | null = doc.imap ? { ...doc.imap, password: secrets.imapPassword ? s.decrypt(secrets.imapPassword) : '' } : null;
    [smtp, imap] = await Promise.all([
      checkSmtp(smtpLogin(s, job.account_id, smtpEp), closers),
      imapEp ? checkImap(imapEp, doc.imapAllowInvalidCert === true && !s.mutant('acct-imap-invalid-cert-ignored'), closers) : Promise.resolve(null),
    ]);
    // The mutant reports the SMTP failure with the login it tried, password included.
    if (s.mutant('acct-verify-error-quotes-login') && smtp.error) smtp = { ...smtp, error: { ...smtp.error, message: `${smtp.error.message} (login ${smtpEp.username} / ${smtpEp.password})` } };
    // The same with the IMAP failure and the IMAP login.
    if (s.mutant('acct-verify-imap-error-quotes-login') && imap?.error && imapEp) imap = { ...imap, error: { ...imap.error, message: `${imap.error.message} (login ${imapEp.username} / ${imapEp.password})` } };
  } catch (e) {
    // A failure inside the service (e.g. the sealed password cannot be opened).
    serviceSide = true;
    const err: ProtoError = { code: 'internal_error', command: '', responseCode: 0, response: '', message: `Verification could not run: ${(e as Error).message}` };
    smtp = { ok: false, error: err };
    imap = { ok: false, error: err };
  }
  if (stopped()) return;
  if (s.mutant('acct-verify-always-active')) {
    smtp = { ok: true, error: null };
    imap = imap ? { ok: true, error: null } : null;
  }
  const now = s.clock.now();
  s.db.transaction(() => {
    const cur = s.db.prepare('SELECT gen FROM verify_jobs WHERE account_id = ?').get(job.account_id) as { gen: number } | undefined;
    if (!cur || cur.gen !== job.gen) return; // superseded by a newer job (or the mailbox is gone)
    s.db.prepare('DELETE FROM verify_jobs WHERE account_id = ?').run(job.account_id);
    const acc = s.db.prepare('SELECT status, doc FROM accounts WHERE id = ?').get(job.account_id) as { status: string; doc: string } | undefined;
    if (!acc) return;
    const d = JSON.parse(acc.doc) as Record<string, any>;
    const good = smtp.ok && (imap === null || imap.ok);
    const failure = !smtp.ok ? smtp.error : imap && !imap.ok ? imap.error : null;
    d.verification = {
      ...d.verification,
      overallStatus: good ? 'active' : 'failed',
      smtp: smtp.ok ? 'active' : 'failed',
      imap: imap === null ? 'not_checked' : imap.ok ? 'active' : 'failed',
      smtpError: smtp.error,
      imapError: imap?.error ?? null,
      lastVerifiedAt: new Date(now).toISOString(),
    };
    // The mutant reads statusMessage as the last provider failure ever: a good verification leaves the old one.
    if (!(good && d.statusMessage && s.mutant('acct-statusmessage-kept-when-healthy'))) d.statusMessage = good || serviceSide || !failure ? null : { ...failure, occurredAt: new Date(now).toISOString() };
    let status = acc.status;
    // A paused mailbox stays inactive (only a resume re-activates it); revoked stays revoked.
    // retryGrant: set by the acct-revoked-comes-back mutant only (control.ts), a revoked mailbox re-verified.
    // The mutant maps a failed verification to inactive, not the status the profile declares for it.
    // The other mutant treats a server that answers nothing (no SMTP reply at all) as transient: inactive, to be tried again.
    const unanswered = !smtp.ok && smtp.error?.responseCode === 0 && smtp.error.command === 'CONN';
    const failedAs = s.mutant('acct-verify-failure-inactive') || (unanswered && s.mutant('acct-verify-unreachable-inactive')) ? 'inactive' : s.choices.verificationStatus.failed;
    if (!d.paused && (acc.status !== 'revoked' || d.retryGrant)) status = good ? s.choices.verificationStatus.succeeded : failedAs;
    s.db.prepare('UPDATE accounts SET status = ?, doc = ?, updated_at = ? WHERE id = ?').run(status, JSON.stringify(d), now, job.account_id);
  })();
}

/** Whether `p` settles before `deadline` (epoch ms); it keeps running either way. */
export async function settledBy(p: Promise<unknown>, deadline: number): Promise<boolean> {
  if (deadline === Infinity) return p.then(() => true);
  const left = deadline - Date.now();
  if (left <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), left)));
  try {
    return await Promise.race([p.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
