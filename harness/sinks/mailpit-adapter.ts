// MailpitReader: read delivered mail from a real Mailpit through the `mailpit-api` client,
// for teams that already run one. Mailpit keeps no rejected attempts and has only random
// chaos, no IMAP and no injection: those capabilities are false, with the reason.
import { MailpitClient, type MailpitClientOptions, type MailpitMessageListItem } from 'mailpit-api';
import { parseMessage } from './message.ts';
import type { ParsedMessage } from './types.ts';
import type { MailReader, ReaderCapabilities, ReaderFilter, ReaderMessage } from './reader.ts';

export const MAILPIT_UNSUPPORTED =
  'reading from Mailpit: it records no rejected attempts, has no deterministic faults (its chaos is random), no IMAP and no injection; checks that need them are skipped';

const quoteTerm = (v: string) => `"${v.replace(/"/g, '')}"`;

/** A Mailpit search query for the filter (every term must match). */
export function mailpitQuery(f: ReaderFilter): string {
  const terms: string[] = [];
  // The filter's `to` is any recipient: Mailpit's to: reads the To header alone, addressed: every
  // address field (the envelope's unnamed recipients are in its Bcc); list() keeps the recipients'.
  if (f.to) terms.push(`addressed:${quoteTerm(f.to)}`);
  if (f.from) terms.push(`from:${quoteTerm(f.from)}`);
  if (f.subject) terms.push(`subject:${quoteTerm(f.subject)}`);
  if (f.messageId) terms.push(`message-id:${quoteTerm(f.messageId.replace(/^<|>$/g, ''))}`);
  return terms.join(' ');
}

function toReader(m: MailpitMessageListItem & { To?: { Address: string }[] }): ReaderMessage {
  const rcpt = [...(m.To ?? []), ...(m.Cc ?? []), ...(m.Bcc ?? [])].map((a) => a.Address);
  return {
    id: m.ID,
    receivedAt: Date.parse(m.Created),
    mailFrom: m.From?.Address ?? '',
    rcptTo: rcpt,
    subject: m.Subject ?? null,
    messageIdHeader: m.MessageID || null,
    size: m.Size,
  };
}

export class MailpitReader implements MailReader {
  readonly capabilities: ReaderCapabilities = { attempts: false, faults: false, injection: false, imap: false, reason: MAILPIT_UNSUPPORTED };
  readonly client: MailpitClient;

  constructor(baseUrl: string, options?: MailpitClientOptions) {
    this.client = new MailpitClient(baseUrl.replace(/\/+$/, ''), options);
  }

  /** Newest first pages are read until all are seen (oldest first in the result, like the sink). */
  async list(filter: ReaderFilter = {}): Promise<ReaderMessage[]> {
    const q = mailpitQuery(filter);
    const out: ReaderMessage[] = [];
    for (let start = 0; ; ) {
      const page = q ? await this.client.searchMessages({ query: q, start, limit: 250 }) : await this.client.listMessages(start, 250);
      out.push(...page.messages.map(toReader));
      start += page.messages.length;
      if (page.messages.length === 0 || start >= page.messages_count) break;
    }
    // Mailpit matches a part of a Message-ID: the reader's filter is the whole of one.
    const id = filter.messageId?.replace(/^<|>$/g, '').toLowerCase();
    const to = filter.to?.toLowerCase();
    return out.reverse().filter((m) => (id === undefined || m.messageIdHeader?.toLowerCase() === id) && (to === undefined || m.rcptTo.some((a) => a.toLowerCase().includes(to))));
  }

  async raw(id: string): Promise<Buffer> {
    return Buffer.from(await this.client.getMessageSource(id), 'utf8');
  }

  async parsed(id: string): Promise<ParsedMessage> {
    return parseMessage(id, { mailFrom: '', rcptTo: [] }, await this.raw(id));
  }

  async headers(id: string): Promise<Record<string, string[]>> {
    return (await this.client.getMessageHeaders(id)) as Record<string, string[]>;
  }

  /** Mailpit's client offers no event stream: this polls (every 200 ms) until the timeout. */
  async waitFor(filter: ReaderFilter, opts: { timeout?: number } = {}): Promise<ReaderMessage> {
    const deadline = Date.now() + (opts.timeout ?? 10_000);
    for (;;) {
      const found = await this.list(filter);
      if (found.length) return found[0]!;
      if (Date.now() > deadline) throw new Error(`waitFor: no Mailpit message matched ${mailpitQuery(filter) || '(any)'} within ${opts.timeout ?? 10_000} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async clear(): Promise<void> {
    await this.client.deleteMessages();
  }
}
