// A message the SMTP side accepted: raw bytes kept as received, headers read lazily,
// the mailparser view built on demand and cached.
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { bareId, headerValue, readHeaders, type HeaderList } from './headers.ts';
import type { AddressView, Envelope, MessageSummary, ParsedMessage, SessionInfo } from './types.ts';

export class StoredMessage {
  private headerCache: HeaderList | null = null;
  private parsedCache: Promise<ParsedMessage> | null = null;
  /** local mailbox users whose Maildir received a copy (filled in during delivery) */
  deliveredTo: string[] = [];

  constructor(
    readonly id: string,
    readonly attemptId: string,
    readonly receivedAt: number,
    readonly envelope: Envelope,
    readonly session: SessionInfo,
    readonly raw: Buffer,
    readonly injected: boolean,
  ) {}

  get size(): number {
    return this.raw.length;
  }

  headers(): HeaderList {
    if (!this.headerCache) this.headerCache = readHeaders(this.raw);
    return this.headerCache;
  }

  header(name: string): string | null {
    return headerValue(this.headers(), name);
  }

  get subject(): string | null {
    return this.header('subject');
  }

  /** The Message-ID header without angle brackets. */
  get messageIdHeader(): string | null {
    return bareId(this.header('message-id'));
  }

  summary(): MessageSummary {
    return {
      id: this.id,
      attemptId: this.attemptId,
      receivedAt: this.receivedAt,
      envelope: this.envelope,
      authUser: this.session.authUser,
      tls: this.session.tls,
      ehlo: this.session.ehlo,
      size: this.size,
      subject: this.subject,
      messageIdHeader: this.messageIdHeader,
      injected: this.injected,
      deliveredTo: [...this.deliveredTo],
    };
  }

  /** The full parsed view (mailparser), built once on first use. */
  parsed(): Promise<ParsedMessage> {
    if (!this.parsedCache) this.parsedCache = parseMessage(this.id, this.envelope, this.raw);
    return this.parsedCache;
  }
}

function addresses(value: AddressObject | AddressObject[] | undefined): AddressView[] {
  if (!value) return [];
  const list = Array.isArray(value) ? value : [value];
  const out: AddressView[] = [];
  const walk = (entries: AddressObject['value']) => {
    for (const e of entries) {
      if (e.group) walk(e.group);
      else out.push({ name: e.name ?? '', address: e.address ?? '' });
    }
  };
  for (const a of list) walk(a.value);
  return out;
}

function hrefs(html: string, tag: 'a' | 'img'): string[] {
  const attr = tag === 'a' ? 'href' : 'src';
  const re = new RegExp(`<${tag}\\b[^>]*?\\b${attr}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'gi');
  const out: string[] = [];
  for (const m of html.matchAll(re)) out.push(decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  return out;
}

function decodeEntities(s: string): string {
  return s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

export async function parseMessage(id: string, envelope: Envelope, raw: Buffer): Promise<ParsedMessage> {
  const mail: ParsedMail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
  const headers: Record<string, string[]> = {};
  for (const { key, line } of mail.headerLines) {
    const colon = line.indexOf(':');
    const value = (colon >= 0 ? line.slice(colon + 1) : line).replace(/\r?\n[ \t]+/g, ' ').trim();
    (headers[key] ??= []).push(value);
  }
  const html = typeof mail.html === 'string' ? mail.html : null;
  const text = mail.text ?? null;
  const links = html ? hrefs(html, 'a') : [];
  if (text) for (const m of text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) if (!links.includes(m[0])) links.push(m[0]);
  const refs = mail.references ? (Array.isArray(mail.references) ? mail.references : mail.references.split(/\s+/)) : [];
  return {
    id,
    envelope,
    headers,
    messageId: bareId(mail.messageId),
    inReplyTo: bareId(mail.inReplyTo),
    references: refs.map((r) => bareId(r)).filter((r): r is string => !!r),
    date: mail.date ? mail.date.toISOString() : null,
    subject: mail.subject ?? null,
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    replyTo: addresses(mail.replyTo),
    text,
    html,
    links,
    images: html ? hrefs(html, 'img') : [],
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? null,
      contentType: a.contentType,
      size: a.size,
      contentId: a.contentId ?? null,
      inline: a.contentDisposition === 'inline' || a.related === true,
      checksum: a.checksum,
    })),
  };
}
