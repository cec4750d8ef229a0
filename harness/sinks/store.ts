// The one store of a sink: attempts (every AUTH and mail transaction) and accepted messages,
// in arrival order, with filters and an event-driven waitFor (no polling).
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { bareId } from './headers.ts';
import type { StoredMessage } from './message.ts';
import type { Attempt, AttemptFilter, MessageFilter } from './types.ts';

export type Predicate<T> = (item: T) => boolean;

const same = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

export function matchMessage(m: StoredMessage, f: MessageFilter): boolean {
  if (f.id !== undefined && m.id !== f.id) return false;
  if (f.since !== undefined && m.receivedAt < f.since) return false;
  if (f.injected !== undefined && m.injected !== f.injected) return false;
  if (f.to !== undefined && !m.envelope.rcptTo.some((r) => same(r, f.to!))) return false;
  if (f.from !== undefined && !same(m.envelope.mailFrom, f.from)) return false;
  if (f.user !== undefined && !same(m.session.authUser, f.user)) return false;
  if (f.subject !== undefined && !(m.subject ?? '').toLowerCase().includes(f.subject.toLowerCase())) return false;
  if (f.messageId !== undefined && m.messageIdHeader !== bareId(f.messageId)) return false;
  if (f.inReplyTo !== undefined && bareId(m.header('in-reply-to')) !== bareId(f.inReplyTo)) return false;
  return true;
}

export function matchAttempt(a: Attempt, f: AttemptFilter): boolean {
  if (f.kind !== undefined && a.kind !== f.kind) return false;
  if (f.outcome !== undefined && a.outcome !== f.outcome) return false;
  if (f.stage !== undefined && a.stage !== f.stage) return false;
  if (f.since !== undefined && a.at < f.since) return false;
  if (f.code !== undefined && a.reply?.code !== f.code) return false;
  if (f.user !== undefined && !same(a.authUser ?? a.session.authUser, f.user)) return false;
  if (f.from !== undefined && !same(a.mailFrom, f.from)) return false;
  if (f.to !== undefined && !a.rcpt.some((r) => same(r.address, f.to!))) return false;
  return true;
}

export class WaitTimeoutError extends Error {
  constructor(what: string, timeoutMs: number, seen: number) {
    super(`waitFor: no ${what} matched within ${timeoutMs} ms (${seen} recorded so far)`);
    this.name = 'WaitTimeoutError';
  }
}

export class SinkStore {
  private readonly events = new EventEmitter();
  private readonly prefix = randomBytes(3).toString('hex');
  private seq = 0;
  private attemptList: Attempt[] = [];
  private messageList: StoredMessage[] = [];
  private byId = new Map<string, StoredMessage>();
  private attemptById = new Map<string, Attempt>();
  private readonly rawById = new Map<string, Buffer>();
  /** messages and attempts dropped (oldest first) to stay within the limit */
  evicted = { messages: 0, attempts: 0 };

  /** keeps at most `maxMessages` messages and twice as many attempts (a long-running sink) */
  constructor(private readonly maxMessages = 200_000) {
    this.events.setMaxListeners(0);
  }

  private trim(): void {
    // trimmed in batches of 10 % so that arrival stays O(1) on average
    const slack = Math.max(1, Math.floor(this.maxMessages / 10));
    if (this.messageList.length > this.maxMessages + slack) {
      const gone = this.messageList.splice(0, this.messageList.length - this.maxMessages);
      for (const m of gone) this.byId.delete(m.id);
      this.evicted.messages += gone.length;
    }
    const maxAttempts = this.maxMessages * 2;
    if (this.attemptList.length > maxAttempts + 2 * slack) {
      const gone = this.attemptList.splice(0, this.attemptList.length - maxAttempts);
      for (const a of gone) {
        this.attemptById.delete(a.id);
        this.rawById.delete(a.id);
      }
      this.evicted.attempts += gone.length;
    }
  }

  nextId(kind: 'm' | 'a' | 's'): string {
    return `${kind}${this.prefix}${(++this.seq).toString(36).padStart(5, '0')}`;
  }

  /** Register an attempt as it begins; call `attemptEnded` when it ends. */
  addAttempt(a: Attempt, raw?: Buffer): void {
    this.attemptList.push(a);
    this.attemptById.set(a.id, a);
    if (raw) this.rawById.set(a.id, raw);
    this.trim();
  }

  setAttemptRaw(id: string, raw: Buffer): void {
    if (this.attemptById.has(id)) this.rawById.set(id, raw);
  }

  attemptEnded(a: Attempt): void {
    if (this.attemptById.get(a.id) === a) this.events.emit('attempt', a);
  }

  addMessage(m: StoredMessage): void {
    this.messageList.push(m);
    this.byId.set(m.id, m);
    this.trim();
    this.events.emit('message', m);
  }

  /** Remove messages (Mailpit's DELETE); attempts stay. */
  deleteMessages(ids?: string[]): number {
    if (!ids) {
      const n = this.messageList.length;
      this.messageList = [];
      this.byId.clear();
      return n;
    }
    const drop = new Set(ids);
    const before = this.messageList.length;
    this.messageList = this.messageList.filter((m) => !drop.has(m.id));
    for (const id of ids) this.byId.delete(id);
    return before - this.messageList.length;
  }

  message(id: string): StoredMessage | undefined {
    return this.byId.get(id);
  }

  latest(): StoredMessage | undefined {
    return this.messageList[this.messageList.length - 1];
  }

  attempt(id: string): Attempt | undefined {
    return this.attemptById.get(id);
  }

  /** The DATA bytes of an attempt (accepted or not), when it reached DATA. */
  attemptRaw(id: string): Buffer | undefined {
    return this.rawById.get(id);
  }

  messages(filter: MessageFilter | Predicate<StoredMessage> = {}): StoredMessage[] {
    const pred = typeof filter === 'function' ? filter : (m: StoredMessage) => matchMessage(m, filter);
    return this.messageList.filter(pred);
  }

  attempts(filter: AttemptFilter | Predicate<Attempt> = {}): Attempt[] {
    const pred = typeof filter === 'function' ? filter : (a: Attempt) => matchAttempt(a, filter);
    return this.attemptList.filter(pred);
  }

  get messageCount(): number {
    return this.messageList.length;
  }

  waitFor(filter: MessageFilter | Predicate<StoredMessage>, opts: { timeout?: number; signal?: AbortSignal } = {}): Promise<StoredMessage> {
    const pred = typeof filter === 'function' ? filter : (m: StoredMessage) => matchMessage(m, filter);
    return this.waitOn('message', pred, () => this.messageList.find(pred), opts, () => this.messageList.length);
  }

  /** Wait for an attempt that has ended (accepted, rejected, dropped or aborted). */
  waitForAttempt(filter: AttemptFilter | Predicate<Attempt>, opts: { timeout?: number; signal?: AbortSignal } = {}): Promise<Attempt> {
    const base = typeof filter === 'function' ? filter : (a: Attempt) => matchAttempt(a, filter);
    const pred = (a: Attempt) => a.outcome !== 'open' && base(a);
    return this.waitOn('attempt', pred, () => this.attemptList.find(pred), opts, () => this.attemptList.length);
  }

  private waitOn<T>(
    event: 'message' | 'attempt',
    pred: Predicate<T>,
    existing: () => T | undefined,
    opts: { timeout?: number; signal?: AbortSignal },
    count: () => number,
  ): Promise<T> {
    const found = existing();
    if (found) return Promise.resolve(found);
    const timeoutMs = opts.timeout ?? 10_000;
    return new Promise<T>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.events.off(event, onItem);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const onItem = (item: T) => {
        let ok = false;
        try {
          ok = pred(item);
        } catch (err) {
          done();
          reject(err);
          return;
        }
        if (ok) {
          done();
          resolve(item);
        }
      };
      const onAbort = () => {
        done();
        reject(new Error('waitFor: aborted'));
      };
      const timer = setTimeout(() => {
        done();
        reject(new WaitTimeoutError(event, timeoutMs, count()));
      }, timeoutMs);
      this.events.on(event, onItem);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Forget every attempt and message (fault rules and users are not the store's). */
  reset(): void {
    this.attemptList = [];
    this.messageList = [];
    this.byId.clear();
    this.attemptById.clear();
    this.rawById.clear();
  }
}
