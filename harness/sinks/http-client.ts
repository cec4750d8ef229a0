// SinkClient: the sink's operations over its HTTP API, for a sink running elsewhere
// (`outreach-conformance sinks` next to a staging deployment). Also a MailReader.
import { parseMessage } from './message.ts';
import type { FaultRule, FaultRuleInput } from './faults.ts';
import type { ImapRefusal } from './users.ts';
import type { SinkCredentials } from './sink-types.ts';
import type { Attempt, AttemptFilter, MessageFilter, MessageSummary, ParsedMessage } from './types.ts';
import type { MailReader, ReaderCapabilities, ReaderFilter, ReaderMessage } from './reader.ts';
import type { BounceOptions, OutOfOfficeOptions, ReplyOptions, UnsubscribeOptions } from './compose.ts';
import type { InjectResult, Via } from './inject.ts';

export class SinkHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SinkHttpError';
  }
}

export interface SinkInfo {
  smtp: { host: string; port: number; securePort: number | null };
  imap: { host: string; port: number } | null;
  imapUnavailableReason: string | null;
  http: { url: string } | null;
  sizeLimit: number;
}

type RemoteInject = Omit<InjectResult, 'raw'> & { size: number };

/** A filter as a query string (undefined and null left out). */
export function query(filter: object): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== null) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export class SinkClient implements MailReader {
  /** imap is known after `refresh()` (connectSink does it) */
  capabilities: ReaderCapabilities = { attempts: true, faults: true, injection: true, imap: false, reason: 'not asked yet: call refresh()' };

  constructor(readonly baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Reads /sink/v1/info and sets `capabilities.imap` (and the reason when unavailable). */
  async refresh(): Promise<SinkInfo> {
    const info = await this.info();
    this.capabilities = { attempts: true, faults: true, injection: true, imap: !!info.imap, ...(info.imap ? {} : { reason: info.imapUnavailableReason ?? 'IMAP unavailable' }) };
    return info;
  }

  private async call<T>(method: string, path: string, body?: unknown, raw = false): Promise<T> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      const text = await res.text();
      let msg = text;
      try {
        msg = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        /* plain text */
      }
      throw new SinkHttpError(res.status, `${method} ${path}: ${res.status} ${msg}`);
    }
    return (raw ? Buffer.from(await res.arrayBuffer()) : await res.json()) as T;
  }

  info(): Promise<SinkInfo> {
    return this.call('GET', '/sink/v1/info');
  }
  async messages(filter: MessageFilter = {}): Promise<MessageSummary[]> {
    return (await this.call<{ messages: MessageSummary[] }>('GET', `/sink/v1/messages${query(filter)}`)).messages;
  }
  async attempts(filter: AttemptFilter = {}): Promise<Attempt[]> {
    return (await this.call<{ attempts: Attempt[] }>('GET', `/sink/v1/attempts${query(filter)}`)).attempts;
  }
  raw(id: string): Promise<Buffer> {
    return this.call('GET', `/sink/v1/messages/${encodeURIComponent(id)}/raw`, undefined, true);
  }
  parsed(id: string): Promise<ParsedMessage> {
    return this.call('GET', `/sink/v1/messages/${encodeURIComponent(id)}/parsed`);
  }
  async waitForMessage(filter: MessageFilter, opts: { timeout?: number } = {}): Promise<MessageSummary> {
    return (await this.call<{ message: MessageSummary }>('POST', '/sink/v1/wait', { kind: 'message', filter, timeoutMs: opts.timeout ?? 10_000 })).message;
  }
  async waitForAttempt(filter: AttemptFilter, opts: { timeout?: number } = {}): Promise<Attempt> {
    return (await this.call<{ attempt: Attempt }>('POST', '/sink/v1/wait', { kind: 'attempt', filter, timeoutMs: opts.timeout ?? 10_000 })).attempt;
  }
  addUser(address: string, password?: string): Promise<SinkCredentials> {
    return this.call('POST', '/sink/v1/users', { address, password });
  }
  async users(): Promise<{ address: string; imapRefusal: ImapRefusal | null }[]> {
    return (await this.call<{ users: { address: string; imapRefusal: ImapRefusal | null }[] }>('GET', '/sink/v1/users')).users;
  }
  addFault(rule: FaultRuleInput): Promise<FaultRule> {
    return this.call('POST', '/sink/v1/faults', rule);
  }
  async faults(): Promise<FaultRule[]> {
    return (await this.call<{ rules: FaultRule[] }>('GET', '/sink/v1/faults')).rules;
  }
  async removeFault(id: string): Promise<void> {
    await this.call('DELETE', `/sink/v1/faults/${encodeURIComponent(id)}`);
  }
  async clearFaults(): Promise<void> {
    await this.call('DELETE', '/sink/v1/faults');
  }
  async imapLogin(address: string, refusal: ImapRefusal | null): Promise<void> {
    await this.call('PUT', `/sink/v1/users/${encodeURIComponent(address)}/imap-refusal`, { refusal });
  }
  reply(original: string, opts: ReplyOptions & { via?: Via } = {}): Promise<RemoteInject> {
    return this.call('POST', '/sink/v1/inject/reply', { original, ...opts });
  }
  bounce(original: string, opts: BounceOptions & { via?: Via } = {}): Promise<RemoteInject> {
    return this.call('POST', '/sink/v1/inject/bounce', { original, ...opts });
  }
  outOfOffice(original: string, opts: OutOfOfficeOptions & { via?: Via } = {}): Promise<RemoteInject> {
    return this.call('POST', '/sink/v1/inject/out-of-office', { original, ...opts });
  }
  unsubscribe(original: string, opts: UnsubscribeOptions & { via?: Via } = {}): Promise<RemoteInject> {
    return this.call('POST', '/sink/v1/inject/unsubscribe', { original, ...opts });
  }
  async reset(): Promise<void> {
    await this.call('POST', '/sink/v1/reset');
  }

  // --- MailReader ---
  async list(filter: ReaderFilter = {}): Promise<ReaderMessage[]> {
    return (await this.messages(filter)).map(toReader);
  }
  async waitFor(filter: ReaderFilter, opts: { timeout?: number } = {}): Promise<ReaderMessage> {
    return toReader(await this.waitForMessage(filter, opts));
  }
  async clear(): Promise<void> {
    await fetch(`${this.baseUrl}/api/v1/messages`, { method: 'DELETE' }).then((r) => r.arrayBuffer());
  }
}

function toReader(m: MessageSummary): ReaderMessage {
  return { id: m.id, receivedAt: m.receivedAt, mailFrom: m.envelope.mailFrom, rcptTo: m.envelope.rcptTo, subject: m.subject, messageIdHeader: m.messageIdHeader, size: m.size };
}

/** A client for the sink's HTTP API at `url`, with its capabilities read from the sink. */
export async function connectSink(url: string): Promise<SinkClient> {
  const c = new SinkClient(url);
  await c.refresh();
  return c;
}

/** Parses raw bytes fetched from anywhere into the sink's parsed view. */
export function parseRaw(id: string, raw: Buffer, envelope = { mailFrom: '', rcptTo: [] as string[] }): Promise<ParsedMessage> {
  return parseMessage(id, envelope, raw);
}
