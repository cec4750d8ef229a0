// The common, async read interface a delivery check needs, whoever holds the mail: the embedded
// sink, a sink on another host (SinkClient), or a real Mailpit (MailpitReader).
import { parseMessage } from './message.ts';
import type { MailSink } from './sink-types.ts';
import type { ParsedMessage } from './types.ts';

export interface ReaderCapabilities {
  attempts: boolean;
  faults: boolean;
  injection: boolean;
  imap: boolean;
  /** why some are false (shown as the skip reason) */
  reason?: string;
}

export interface ReaderMessage {
  id: string;
  receivedAt: number;
  /** the envelope sender where known (Mailpit: the Return-Path) */
  mailFrom: string;
  /** envelope recipients (Mailpit: To, Cc and envelope-only Bcc) */
  rcptTo: string[];
  subject: string | null;
  messageIdHeader: string | null;
  size: number;
}

export interface ReaderFilter {
  to?: string;
  from?: string;
  subject?: string;
  messageId?: string;
}

export interface MailReader {
  readonly capabilities: ReaderCapabilities;
  list(filter?: ReaderFilter): Promise<ReaderMessage[]>;
  raw(id: string): Promise<Buffer>;
  parsed(id: string): Promise<ParsedMessage>;
  waitFor(filter: ReaderFilter, opts?: { timeout?: number }): Promise<ReaderMessage>;
  /** delete every stored message */
  clear(): Promise<void>;
}

/** The embedded sink as a MailReader. */
export function sinkReader(sink: MailSink & { deleteMessages?: (ids?: string[]) => number }): MailReader {
  const view = (m: ReturnType<MailSink['messages']>[number]): ReaderMessage => ({
    id: m.id,
    receivedAt: m.receivedAt,
    mailFrom: m.envelope.mailFrom,
    rcptTo: m.envelope.rcptTo,
    subject: m.subject,
    messageIdHeader: m.messageIdHeader,
    size: m.size,
  });
  const get = (id: string) => {
    const m = sink.message(id);
    if (!m) throw new Error(`message ${id} not found`);
    return m;
  };
  return {
    capabilities: { attempts: true, faults: true, injection: true, imap: !!sink.imap, ...(sink.imap ? {} : { reason: sink.imapUnavailableReason }) },
    list: async (f = {}) => sink.messages(f).map(view),
    raw: async (id) => get(id).raw,
    parsed: async (id) => {
      const m = get(id);
      return parseMessage(m.id, m.envelope, m.raw);
    },
    waitFor: async (f, o) => view(await sink.waitFor(f, o)),
    clear: async () => {
      sink.deleteMessages?.();
    },
  };
}
