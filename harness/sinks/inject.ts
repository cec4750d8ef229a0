// Injection: plays the lead's side. Finds the recorded message, composes the answer
// (compose.ts) and delivers it to the sending mailbox, by SMTP into the sink itself (a real
// delivery the target then finds over IMAP) or by a Maildir drop.
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { bareId } from './headers.ts';
import type { StoredMessage } from './message.ts';
import type { SinkStore } from './store.ts';
import type { UserRegistry } from './users.ts';
import type { MaildirStore } from './maildir.ts';
import { INJECTOR_EHLO } from './smtp.ts';
import {
  composeBounce,
  composeOutOfOffice,
  composeReply,
  composeUnsubscribe,
  type BounceOptions,
  type Composed,
  type Original,
  type OutOfOfficeOptions,
  type ReplyOptions,
  type UnsubscribeOptions,
} from './compose.ts';

export type InjectKind = 'reply' | 'bounce' | 'out-of-office' | 'unsubscribe';
export type Via = 'smtp' | 'maildir';

export interface InjectResult {
  kind: InjectKind;
  /** Message-ID header of the injected message (no brackets) */
  messageId: string;
  /** the mailbox that received it */
  mailbox: string;
  via: Via;
  /** the sink's id of the injected message when delivered by SMTP */
  storedId: string | null;
  /** whether a copy landed in the mailbox's Maildir (IMAP INBOX) */
  inInbox: boolean;
  raw: Buffer;
}

export interface InjectDeps {
  host: string;
  smtpPort: () => number;
  store: SinkStore;
  users: UserRegistry;
  /** null when IMAP is not running */
  maildirs: () => MaildirStore | null;
  /** credentials the SMTP side accepts from the injector (needed with requireAuth) */
  auth?: { user: string; pass: string };
}

export class Injector {
  private transport: Transporter | null = null;

  constructor(private readonly d: InjectDeps) {}

  /** The recorded message by sink id or by its Message-ID header. */
  find(original: string | StoredMessage): StoredMessage {
    if (typeof original !== 'string') return original;
    const byId = this.d.store.message(original);
    if (byId) return byId;
    const mid = bareId(original);
    const found = mid ? this.d.store.messages({ messageId: mid }) : [];
    const last = found[found.length - 1];
    if (!last) throw new InjectError(`no recorded message with id or Message-ID ${JSON.stringify(original)}`, 404);
    return last;
  }

  private async original(msg: StoredMessage): Promise<Original> {
    const messageId = msg.messageIdHeader;
    if (!messageId) throw new InjectError(`recorded message ${msg.id} has no Message-ID header: a reply cannot be threaded on it`, 409);
    const parsed = await msg.parsed();
    const authUser = msg.session.authUser;
    const sender =
      (authUser && this.d.users.has(authUser) ? authUser : null) ??
      (msg.envelope.mailFrom || null) ??
      parsed.from[0]?.address ??
      null;
    const recipient = msg.envelope.rcptTo[0] ?? parsed.to[0]?.address ?? null;
    if (!sender) throw new InjectError(`recorded message ${msg.id} has no sender to answer`, 409);
    if (!recipient) throw new InjectError(`recorded message ${msg.id} has no recipient`, 409);
    return {
      messageId,
      references: parsed.references,
      subject: parsed.subject ?? '',
      sender: sender.toLowerCase(),
      recipient: recipient.toLowerCase(),
      receivedAt: msg.receivedAt,
      text: parsed.text,
      raw: msg.raw,
    };
  }

  async reply(original: string | StoredMessage, opts: ReplyOptions & { via?: Via } = {}): Promise<InjectResult> {
    return this.deliver('reply', composeReply(await this.original(this.find(original)), opts), opts.via);
  }

  async bounce(original: string | StoredMessage, opts: BounceOptions & { via?: Via } = {}): Promise<InjectResult> {
    let composed: Composed;
    const o = await this.original(this.find(original));
    try {
      composed = composeBounce(o, opts);
    } catch (err) {
      throw new InjectError((err as Error).message, 400);
    }
    return this.deliver('bounce', composed, opts.via);
  }

  async outOfOffice(original: string | StoredMessage, opts: OutOfOfficeOptions & { via?: Via } = {}): Promise<InjectResult> {
    return this.deliver('out-of-office', composeOutOfOffice(await this.original(this.find(original)), opts), opts.via);
  }

  async unsubscribe(original: string | StoredMessage, opts: UnsubscribeOptions & { via?: Via } = {}): Promise<InjectResult> {
    return this.deliver('unsubscribe', composeUnsubscribe(await this.original(this.find(original)), opts), opts.via);
  }

  private async deliver(kind: InjectKind, c: Composed, via: Via = 'smtp'): Promise<InjectResult> {
    const mailbox = c.rcptTo.toLowerCase();
    const local = this.d.users.has(mailbox);
    if (via === 'maildir') {
      const maildirs = this.d.maildirs();
      if (!maildirs) throw new InjectError('Maildir delivery needs the IMAP sink, which is not running', 409);
      if (!local) throw new InjectError(`${mailbox} is not a mailbox user of this sink`, 409);
      await maildirs.deliver(mailbox, withTrace(c.raw, c.mailFrom, mailbox));
      return { kind, messageId: c.messageId, mailbox, via, storedId: null, inInbox: true, raw: c.raw };
    }
    this.transport ??= nodemailer.createTransport({
      host: this.d.host,
      port: this.d.smtpPort(),
      secure: false,
      ignoreTLS: true,
      name: INJECTOR_EHLO,
      ...(this.d.auth ? { auth: this.d.auth } : {}),
      pool: true,
      maxConnections: 2,
      logger: false,
    });
    let info: { response?: string };
    try {
      info = await this.transport.sendMail({ envelope: { from: c.mailFrom, to: [c.rcptTo] }, raw: c.raw });
    } catch (err) {
      throw new InjectError(`SMTP delivery of the ${kind} failed: ${(err as Error).message}`, 502);
    }
    const storedId = /queued as (\S+)/.exec(info.response ?? '')?.[1] ?? null;
    const stored = storedId ? this.d.store.message(storedId) : undefined;
    return { kind, messageId: c.messageId, mailbox, via, storedId, inInbox: !!stored?.deliveredTo.includes(mailbox), raw: c.raw };
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}

/** Return-Path and Delivered-To, as a delivering MTA adds them, before the message. */
export function withTrace(raw: Buffer, mailFrom: string, user: string): Buffer {
  return Buffer.concat([Buffer.from(`Return-Path: <${mailFrom}>\r\nDelivered-To: ${user}\r\n`), raw]);
}

export class InjectError extends Error {
  override name = 'InjectError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
