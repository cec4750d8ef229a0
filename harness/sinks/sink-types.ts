// The sinks' public interface (what startSinks() returns) and what the HTTP API needs besides it.
import type { FaultRule, FaultRuleInput } from './faults.ts';
import type { InjectResult, Via } from './inject.ts';
import type { StoredMessage } from './message.ts';
import type { SinkStore, Predicate } from './store.ts';
import type { ImapRefusal } from './users.ts';
import type { BounceOptions, OutOfOfficeOptions, ReplyOptions, UnsubscribeOptions } from './compose.ts';
import type { Attempt, AttemptFilter, MessageFilter } from './types.ts';

export interface StartSinksOptions {
  /** bind and advertise address (default 127.0.0.1: loopback only) */
  host?: string;
  /** DATA size limit in bytes, 552 beyond it (default 10 MiB) */
  smtpSizeLimit?: number;
  /** start Dovecot (default true; when dovecot is missing IMAP is reported unavailable) */
  imap?: boolean;
  /** mailbox users created at start */
  users?: { address: string; password: string }[];
  /** 0 = pick a free port (default) */
  smtpPort?: number;
  /** implicit TLS port; 0 = pick (default); null = none */
  smtpsPort?: number | null;
  imapPort?: number;
  /** serve the HTTP API: true = on a free port, or the port to use (default: off) */
  http?: boolean | number;
  /** refuse MAIL without AUTH (default false: unauthenticated load clients such as smtp-source work) */
  requireAuth?: boolean;
  /** keep at most this many messages (and twice as many attempts), oldest dropped first; default 200000 */
  maxStoredMessages?: number;
  /** stop everything after this long without being stopped (a safety net for crashed runs) */
  maxLifetimeMs?: number;
  /** stop everything after this long without activity (no SMTP connection open, no HTTP request, no API call) */
  idleTimeoutMs?: number;
  /** diagnostics (never contains a password) */
  log?: (line: string) => void;
}

export interface SinkCredentials {
  address: string;
  password: string;
  smtp: { host: string; port: number; secure: false; username: string; password: string };
  /** null when the IMAP sink is unavailable (see imapUnavailableReason) */
  imap: { host: string; port: number; username: string; password: string } | null;
}

export interface SinkFaults {
  /** add a rule (validated; throws FaultRuleError with the reason) */
  add(rule: FaultRuleInput): FaultRule;
  list(): FaultRule[];
  remove(id: string): boolean;
  clear(): void;
  /** refuse IMAP LOGIN for a mailbox user ('wrong-password' or 'disabled'), null = allow again */
  imapLogin(address: string, refusal: ImapRefusal | null): Promise<void>;
}

type WithVia<T> = T & { via?: Via };

export interface SinkInject {
  reply(original: string | StoredMessage, opts?: WithVia<ReplyOptions>): Promise<InjectResult>;
  bounce(original: string | StoredMessage, opts?: WithVia<BounceOptions>): Promise<InjectResult>;
  outOfOffice(original: string | StoredMessage, opts?: WithVia<OutOfOfficeOptions>): Promise<InjectResult>;
  unsubscribe(original: string | StoredMessage, opts?: WithVia<UnsubscribeOptions>): Promise<InjectResult>;
}

export interface MailSink {
  smtp: { host: string; port: number; securePort: number | null };
  /** port: plain IMAP; securePort: IMAPS (implicit TLS, self-signed certificate). */
  imap: { host: string; port: number; securePort: number } | null;
  imapUnavailableReason?: string;
  http?: { url: string };
  sizeLimit: number;
  addUser(address: string, password?: string): Promise<SinkCredentials>;
  removeUser(address: string): Promise<boolean>;
  users(): { address: string; imapRefusal: ImapRefusal | null }[];
  messages(filter?: MessageFilter | Predicate<StoredMessage>): StoredMessage[];
  message(id: string): StoredMessage | undefined;
  attempts(filter?: AttemptFilter | Predicate<Attempt>): Attempt[];
  /** DATA bytes of an attempt (also rejected ones) */
  attemptRaw(id: string): Buffer | undefined;
  waitFor(filter: MessageFilter | Predicate<StoredMessage>, opts?: { timeout?: number; signal?: AbortSignal }): Promise<StoredMessage>;
  waitForAttempt(filter: AttemptFilter | Predicate<Attempt>, opts?: { timeout?: number; signal?: AbortSignal }): Promise<Attempt>;
  faults: SinkFaults;
  inject: SinkInject;
  /** forget recorded attempts and messages, clear fault rules and IMAP refusals; users stay */
  reset(): Promise<void>;
  /** stop SMTP, HTTP and Dovecot; idempotent */
  stop(): Promise<void>;
}

/** Internals the HTTP API needs besides the public interface. */
export interface SinkInternals extends MailSink {
  store: SinkStore;
  deleteMessages(ids?: string[]): number;
}
