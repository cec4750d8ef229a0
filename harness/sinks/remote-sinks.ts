// The MailSink of a run given `--sinks URL`: a standalone `outreach-conformance sinks` (on a host
// a staging deployment can reach) driven through its HTTP API (docs/SINKS.md), so checks work as
// with the in-process sinks. The in-process reads are synchronous and checks depend on that
// (a Driver reads what arrived right after a drain), so reads are blocking HTTP calls
// (sync-http.ts); what waits (waitFor, inject, users) is asynchronous.
// What the remote cannot do becomes a skip naming what is missing (409 "cannot do that here").
import { StoredMessage, WaitTimeoutError, FaultRuleError, SinkClient, type MailSink, type SinkCredentials, type InjectResult, type FaultRule, type ImapRefusal } from './index.ts';
import { SinkHttpError, query, type SinkInfo } from './http-client.ts';
import { matchAttempt, matchMessage, type Predicate } from './store.ts';
import type { Attempt, AttemptFilter, MessageFilter, MessageSummary } from './types.ts';
import { CheckSkipped, skip } from '../ground/check.ts';
import { MAX_BODY } from './http.ts';
import { SyncHttp } from './sync-http.ts';

/** Longest single long-poll of POST /sink/v1/wait: a waiter re-reads at least this often. */
const WAIT_SLICE_MS = 1000;
const ATTEMPT_POLL_MS = 200;

export interface RemoteSinks extends MailSink {
  readonly url: string;
}

/** Connects to the sinks' HTTP API at `url` (throws when it does not answer as the sinks do). */
export async function connectRemoteSinks(url: string): Promise<RemoteSinks> {
  const base = url.replace(/\/+$/, '');
  const client = new SinkClient(base);
  const res = await fetch(`${base}/sink/v1/info`);
  if (!res.ok) throw new Error(`GET ${base}/sink/v1/info answered ${res.status}: not the kit's mail sinks`);
  const info = (await res.json()) as SinkInfo;
  // Only what arrives from now on is this run's (the in-process sinks start empty). The remote's
  // own clock (its Date header, whole seconds) sets the cursor, so host clocks may differ.
  const since = Date.parse(res.headers.get('date') ?? '') - 1000 || 0;
  return new Remote(base, client, info, since);
}

class Remote implements RemoteSinks {
  readonly smtp: MailSink['smtp'];
  readonly imap: MailSink['imap'];
  readonly imapUnavailableReason?: string;
  readonly http: { url: string };
  readonly sizeLimit: number;
  private readonly sync = new SyncHttp();
  /** Messages of this run, in arrival order, bytes fetched once (they never change). */
  private readonly cache = new Map<string, StoredMessage>();
  private cursor: number;
  /** The host the kit reaches the sinks at (the URL's); the target uses profile sinks.host over it. */
  private readonly host: string;

  constructor(
    readonly url: string,
    private readonly client: SinkClient,
    info: SinkInfo,
    private readonly since: number,
  ) {
    this.cursor = since;
    this.host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    this.smtp = { ...info.smtp, host: this.host };
    this.imap = info.imap ? { host: this.host, port: info.imap.port, securePort: (info.imap as { securePort?: number }).securePort ?? 0 } : null;
    if (!info.imap) this.imapUnavailableReason = `the mail sinks at ${url} have no IMAP: ${info.imapUnavailableReason ?? 'not announced by GET /sink/v1/info'}`;
    this.http = { url };
    this.sizeLimit = info.sizeLimit;
  }

  // --- blocking calls -------------------------------------------------------------------------

  private call(method: string, path: string, body?: unknown, notFound?: 'undefined'): Buffer | undefined {
    const r = this.sync.request(method, this.url + path, body);
    if (r.status === 404 && notFound) return undefined;
    if (r.status >= 400) throw this.failure(method, path, r.status, r.body.toString('utf8'));
    return r.body;
  }

  private json<T>(method: string, path: string, body?: unknown): T {
    return JSON.parse(this.call(method, path, body)!.toString('utf8')) as T;
  }

  private failure(method: string, path: string, status: number, text: string): Error {
    let msg = text;
    try {
      msg = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      /* plain text */
    }
    if (status === 409) return new CheckSkipped(`the mail sinks at ${this.url} cannot do that: ${msg}`);
    if (status === 400 && path.startsWith('/sink/v1/faults')) return new FaultRuleError(msg);
    return new SinkHttpError(status, `${method} ${path}: ${status} ${msg}`);
  }

  /** Async calls (SinkClient): a 409 is a skip naming what the remote cannot do. */
  private async remote<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      if (e instanceof SinkHttpError && e.status === 409) throw new CheckSkipped(`the mail sinks at ${this.url} cannot do that: ${e.message}`);
      throw e;
    }
  }

  /** Takes in what arrived since the cursor (GET /sink/v1/messages?since=, bytes once each). */
  private refresh(): void {
    const { messages } = this.json<{ messages: MessageSummary[] }>('GET', `/sink/v1/messages?since=${this.cursor}`);
    for (const s of messages) {
      this.cursor = Math.max(this.cursor, s.receivedAt);
      if (this.cache.has(s.id)) continue;
      this.cache.set(s.id, this.materialize(s));
    }
  }

  private materialize(s: MessageSummary): StoredMessage {
    const raw = this.call('GET', `/sink/v1/messages/${encodeURIComponent(s.id)}/raw`)!;
    // The summary carries what checks read of the session (authUser, tls, ehlo); the full session
    // (remote address, TLS protocol) is on the attempt: attempts().
    const session = { id: s.attemptId, remoteAddress: '', remotePort: 0, ehlo: s.ehlo, tls: s.tls, authUser: s.authUser, connectedAt: s.receivedAt };
    const m = new StoredMessage(s.id, s.attemptId, s.receivedAt, s.envelope, session, raw, s.injected);
    m.deliveredTo = [...s.deliveredTo];
    return m;
  }

  messages(filter: MessageFilter | Predicate<StoredMessage> = {}): StoredMessage[] {
    this.refresh();
    const pred = typeof filter === 'function' ? filter : (m: StoredMessage) => matchMessage(m, filter);
    return [...this.cache.values()].filter(pred);
  }

  message(id: string): StoredMessage | undefined {
    if (!this.cache.has(id)) this.refresh();
    return this.cache.get(id);
  }

  attempts(filter: AttemptFilter | Predicate<Attempt> = {}): Attempt[] {
    const f = typeof filter === 'function' ? {} : filter;
    const { attempts } = this.json<{ attempts: Attempt[] }>('GET', `/sink/v1/attempts${query({ ...f, since: Math.max(f.since ?? 0, this.since) })}`);
    return typeof filter === 'function' ? attempts.filter(filter) : attempts;
  }

  attemptRaw(id: string): Buffer | undefined {
    return this.call('GET', `/sink/v1/attempts/${encodeURIComponent(id)}/raw`, undefined, 'undefined');
  }

  users(): { address: string; imapRefusal: ImapRefusal | null }[] {
    return this.json<{ users: { address: string; imapRefusal: ImapRefusal | null }[] }>('GET', '/sink/v1/users').users;
  }

  readonly faults: MailSink['faults'] = {
    add: (rule) => this.json<FaultRule>('POST', '/sink/v1/faults', rule),
    list: () => this.json<{ rules: FaultRule[] }>('GET', '/sink/v1/faults').rules,
    remove: (id) => this.call('DELETE', `/sink/v1/faults/${encodeURIComponent(id)}`, undefined, 'undefined') !== undefined,
    clear: () => void this.call('DELETE', '/sink/v1/faults'),
    imapLogin: (address, refusal) => this.remote(this.client.imapLogin(address, refusal)),
  };

  // --- asynchronous calls ---------------------------------------------------------------------

  async addUser(address: string, password?: string): Promise<SinkCredentials> {
    const c = await this.remote(this.client.addUser(address, password));
    return { ...c, smtp: { ...c.smtp, host: this.host }, imap: c.imap ? { ...c.imap, host: this.host } : null };
  }

  async removeUser(address: string): Promise<boolean> {
    const r = await fetch(`${this.url}/sink/v1/users/${encodeURIComponent(address)}`, { method: 'DELETE' });
    await r.arrayBuffer();
    return r.ok;
  }

  /** Event-driven as far as HTTP allows: long-polls POST /sink/v1/wait for anything newer. */
  async waitFor(filter: MessageFilter | Predicate<StoredMessage>, opts: { timeout?: number; signal?: AbortSignal } = {}): Promise<StoredMessage> {
    const timeout = opts.timeout ?? 10_000;
    const deadline = Date.now() + timeout;
    for (;;) {
      const hit = this.messages(filter)[0];
      if (hit) return hit;
      if (opts.signal?.aborted) throw new Error('waitFor: aborted');
      const left = deadline - Date.now();
      if (left <= 0) throw new WaitTimeoutError('message', timeout, this.cache.size);
      const r = await fetch(`${this.url}/sink/v1/wait`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'message', filter: { since: this.cursor + 1 }, timeoutMs: Math.min(left, WAIT_SLICE_MS) }),
        ...(opts.signal ? { signal: opts.signal } : {}),
      }).catch((e: unknown) => {
        if (opts.signal?.aborted) throw new Error('waitFor: aborted');
        throw e;
      });
      await r.arrayBuffer();
      if (!r.ok && r.status !== 408) throw new SinkHttpError(r.status, `POST /sink/v1/wait: ${r.status}`);
    }
  }

  async waitForAttempt(filter: AttemptFilter | Predicate<Attempt>, opts: { timeout?: number; signal?: AbortSignal } = {}): Promise<Attempt> {
    const timeout = opts.timeout ?? 10_000;
    const deadline = Date.now() + timeout;
    for (;;) {
      const seen = this.attempts(filter);
      const hit = seen.find((a) => a.outcome !== 'open');
      if (hit) return hit;
      if (opts.signal?.aborted) throw new Error('waitFor: aborted');
      if (Date.now() >= deadline) throw new WaitTimeoutError('attempt', timeout, seen.length);
      // An attempt that ends changes no cursor the wait endpoint filters on: poll briefly.
      await new Promise((r) => setTimeout(r, Math.min(ATTEMPT_POLL_MS, deadline - Date.now())));
    }
  }

  readonly inject: MailSink['inject'] = {
    reply: (o, x) => this.injected('reply', o, x, (id) => this.client.reply(id, x)),
    bounce: (o, x) => this.injected('bounce', o, x, (id) => this.client.bounce(id, x)),
    outOfOffice: (o, x) => this.injected('out-of-office', o, x, (id) => this.client.outOfOffice(id, x)),
    unsubscribe: (o, x) => this.injected('unsubscribe', o, x, (id) => this.client.unsubscribe(id, x)),
  };

  private async injected(kind: string, o: string | StoredMessage, opts: object | undefined, send: (id: string) => ReturnType<SinkClient['reply']>): Promise<InjectResult> {
    const id = typeof o === 'string' ? o : o.id;
    const size = Buffer.byteLength(JSON.stringify({ original: id, ...opts }));
    if (size > MAX_BODY) skip(`the HTTP API of the mail sinks at ${this.url} takes request bodies up to ${MAX_BODY} bytes; this ${kind} injection needs ${size}`);
    const { size: _size, ...r } = await this.remote(send(id));
    if (r.storedId) return { ...r, raw: await this.client.raw(r.storedId) };
    // A Maildir drop is not stored by the sinks, and their API does not return its bytes.
    const url = this.url;
    return Object.defineProperty({ ...r }, 'raw', {
      enumerable: true,
      get() {
        throw new CheckSkipped(`the mail sinks at ${url} do not return the bytes of a message dropped into a Maildir (their HTTP API answers its size only)`);
      },
    }) as InjectResult;
  }

  async reset(): Promise<void> {
    await this.remote(this.client.reset());
    this.cache.clear();
  }

  /**
   * Lets go of the sinks, which run on (they are not the run's). The users this run added stay:
   * each carries the run's prefix, and removing one costs the sinks half a second (Dovecot
   * re-reads its users), which would add a minute to a run.
   */
  async stop(): Promise<void> {
    await this.sync.close();
  }
}

