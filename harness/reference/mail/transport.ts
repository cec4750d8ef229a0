// SMTP out of a mailbox: nodemailer, one small connection pool per mailbox (rebuilt when its
// server or credentials change), implicit TLS on 465 and cleartext + STARTTLS where offered
// elsewhere (certificates not verified: see resources/verify.ts on opportunistic STARTTLS).
// A refusal becomes an SmtpFailure carrying the provider's own answer: what a failed mailbox's
// statusMessage shows (2.1, 3.2).
import nodemailer from 'nodemailer';
import type { RenderedEmail } from '../domain/email.ts';
import type { MutantSwitch } from '../switches/mutants.ts';

export interface SendingAccount {
  id: string;
  smtp: { host: string; port: number; username: string };
  password: string;
}

export class SmtpFailure extends Error {
  constructor(
    readonly code: string,
    readonly command: string,
    readonly responseCode: number,
    readonly response: string,
    message: string,
  ) {
    super(message);
    this.name = 'SmtpFailure';
  }

  /** A 5xx answer (or a refused login): trying again will not help. */
  get permanent(): boolean {
    return this.responseCode >= 500 || this.code === 'EAUTH';
  }

  /** The provider's reason as a mailbox statusMessage (2.1), without occurredAt. */
  toStatus() {
    return { code: this.code, command: this.command, responseCode: this.responseCode, response: this.response, message: this.message };
  }
}

const clip = (s: unknown, n = 500) => {
  const t = typeof s === 'string' ? s : s === undefined || s === null ? '' : String(s);
  return t.length > n ? `${t.slice(0, n)}...` : t;
};

type Transport = ReturnType<typeof nodemailer.createTransport>;

/** The SMTP pools of one reference instance, one per mailbox. */
export class MailTransports {
  private readonly pools = new Map<string, { key: string; transport: Transport }>();
  private gate: Promise<unknown> = Promise.resolve();

  /**
   * Runs `fn` alone among the callers of `exclusive`. The sending engine's round and a test email
   * each read a mailbox's count of the day, send and record against it as one step: otherwise a
   * test email counted while a campaign step was on the wire, and a mailbox with maxEmailsPerDay 2
   * sent three that day (the same for the workspace's 12 test emails a day).
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.gate.then(fn, fn);
    this.gate = run.catch(() => undefined);
    return run;
  }

  constructor(private readonly mutant: MutantSwitch) {}

  private transportFor(a: SendingAccount): Transport {
    const key = `${a.smtp.host}:${a.smtp.port}:${a.smtp.username}:${a.password}`;
    const have = this.pools.get(a.id);
    if (have?.key === key) return have.transport;
    have?.transport.close();
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: 2,
      maxMessages: 100,
      host: a.smtp.host,
      port: a.smtp.port,
      secure: a.smtp.port === 465,
      auth: { user: a.smtp.username, pass: a.password },
      name: 'outreach-reference.local',
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 15_000,
      tls: { rejectUnauthorized: false },
      logger: false,
    } as Parameters<typeof nodemailer.createTransport>[0]);
    this.pools.set(a.id, { key, transport });
    return transport;
  }

  /** Sends one rendered email to `to` (and the Bcc, envelope only); resolves with the server's answer. */
  async send(a: SendingAccount, email: RenderedEmail, to: string, headers: Record<string, string> = {}): Promise<{ response: string }> {
    const transport = this.transportFor(a);
    try {
      const info = await transport.sendMail({
        envelope: { from: email.from.address, to: email.bcc ? [to, email.bcc] : [to] },
        from: { name: email.from.name, address: email.from.address },
        to,
        ...(email.replyTo ? { replyTo: email.replyTo } : {}),
        // The mutant shows the blind copy: every recipient sees its address.
        ...(email.bcc && this.mutant('send-bcc-header') ? { cc: email.bcc } : {}),
        // The mutant writes the subject as merged, unfolded and unchecked: CR/LF in a value starts new header lines.
        ...(this.mutant('send-subject-header-injection') ? { headers: { ...headers, Subject: { prepared: true, value: email.mergedSubject ?? email.subject } } } : { subject: email.subject, ...(Object.keys(headers).length ? { headers } : {}) }),
        ...(email.html !== null ? { html: email.html } : {}),
        text: email.text,
        messageId: email.messageId,
      });
      return { response: clip(info.response) };
    } catch (e) {
      const err = e as { code?: string; command?: string; responseCode?: number; response?: string; message?: string };
      // A pooled connection that failed is not reused.
      this.close(a.id);
      throw new SmtpFailure(clip(err.code ?? 'ESMTP', 64), clip(err.command ?? 'CONN', 64), typeof err.responseCode === 'number' ? err.responseCode : 0, clip(err.response ?? ''), clip(err.message ?? 'SMTP send failed'));
    }
  }

  close(accountId: string): void {
    this.pools.get(accountId)?.transport.close();
    this.pools.delete(accountId);
  }

  closeAll(): void {
    for (const id of [...this.pools.keys()]) this.close(id);
  }
}
