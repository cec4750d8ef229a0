// Composes one mail sink: store + users + faults + SMTP side + (Dovecot) IMAP side + injector
// (+ HTTP API when asked). `startSinks()` is the only way in; `stop()` undoes all of it.
import { randomBytes } from 'node:crypto';
import { sinkCertificate } from './cert.ts';
import { Dovecot, imapUnavailableReason } from './dovecot.ts';
import { startImapsProxy, type ImapsProxy } from './imaps-proxy.ts';
import { FaultEngine, type FaultRule, type FaultRuleInput } from './faults.ts';
import { Injector, withTrace, type InjectResult, type Via } from './inject.ts';
import type { StoredMessage } from './message.ts';
import { INJECTOR_EHLO, SmtpSide } from './smtp.ts';
import { SinkStore, type Predicate } from './store.ts';
import { UserRegistry, type ImapRefusal } from './users.ts';
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

export async function startSinks(opts: StartSinksOptions = {}): Promise<SinkInternals> {
  const host = opts.host ?? '127.0.0.1';
  const sizeLimit = opts.smtpSizeLimit ?? 10 * 1024 * 1024;
  const store = new SinkStore(opts.maxStoredMessages);
  const users = new UserRegistry();
  const faults = new FaultEngine();
  let dovecot: Dovecot | null = null;
  let imaps: ImapsProxy | null = null;
  let imapUnavailable: string | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  let stopped = false;
  let lastActivity = Date.now();
  const touch = () => {
    lastActivity = Date.now();
  };

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  };

  try {
    if (opts.imap !== false) {
      imapUnavailable = imapUnavailableReason() ?? undefined;
      if (!imapUnavailable) {
        try {
          dovecot = await Dovecot.start({ host, port: opts.imapPort, log: opts.log });
          const d = dovecot;
          cleanups.push(() => d.stop());
          imaps = await startImapsProxy(host, d.port);
          const proxy = imaps;
          cleanups.push(() => proxy.close());
          users.onChange(() => d.setUsers(users.list()));
        } catch (err) {
          imapUnavailable = `IMAP sink unavailable: ${(err as Error).message}`;
          opts.log?.(imapUnavailable);
        }
      }
    } else imapUnavailable = 'IMAP sink disabled (imap: false)';

    const injectorAuth = { user: INJECTOR_EHLO, pass: randomBytes(18).toString('base64url') };
    const smtp = new SmtpSide({
      injectorAuth,
      host,
      port: opts.smtpPort ?? 0,
      securePort: opts.smtpsPort === undefined ? 0 : opts.smtpsPort,
      sizeLimit,
      requireAuth: opts.requireAuth,
      cert: await sinkCertificate(),
      store,
      users,
      faults,
      log: opts.log,
      onActivity: touch,
      deliver: async (msg) => {
        if (!dovecot) return;
        for (const rcpt of msg.envelope.rcptTo) {
          const user = rcpt.toLowerCase();
          if (!users.has(user) || msg.deliveredTo.includes(user)) continue;
          await dovecot.maildirs.deliver(user, withTrace(msg.raw, msg.envelope.mailFrom, user));
          msg.deliveredTo.push(user);
        }
      },
    });
    cleanups.push(() => smtp.stop());
    await smtp.start();

    const injector = new Injector({ host, smtpPort: () => smtp.port, store, users, maildirs: () => dovecot?.maildirs ?? null, auth: injectorAuth });
    cleanups.push(() => injector.close());

    const credentials = (address: string, password: string): SinkCredentials => ({
      address,
      password,
      smtp: { host, port: smtp.port, secure: false, username: address, password },
      imap: dovecot ? { host, port: dovecot.port, username: address, password } : null,
    });

    const sink: SinkInternals = {
      smtp: { host, port: smtp.port, securePort: smtp.securePort },
      imap: dovecot ? { host, port: dovecot.port, securePort: imaps?.port ?? 0 } : null,
      ...(imapUnavailable ? { imapUnavailableReason: imapUnavailable } : {}),
      sizeLimit,
      store,
      async addUser(address, password) {
        touch();
        const u = await users.add(address, password);
        return credentials(u.address, u.password);
      },
      removeUser: (address) => users.remove(address),
      users: () => users.list().map((u) => ({ address: u.address, imapRefusal: u.imapRefusal })),
      messages: (filter) => store.messages(filter),
      message: (id) => store.message(id),
      attempts: (filter) => store.attempts(filter),
      attemptRaw: (id) => store.attemptRaw(id),
      waitFor: (filter, o) => (touch(), store.waitFor(filter, o)),
      waitForAttempt: (filter, o) => (touch(), store.waitForAttempt(filter, o)),
      deleteMessages: (ids) => store.deleteMessages(ids),
      faults: {
        add: (rule) => (touch(), faults.add(rule)),
        list: () => faults.list(),
        remove: (id) => faults.remove(id),
        clear: () => faults.clear(),
        imapLogin: (address, refusal) => users.setImapRefusal(address, refusal),
      },
      inject: {
        reply: (o, x) => (touch(), injector.reply(o, x)),
        bounce: (o, x) => (touch(), injector.bounce(o, x)),
        outOfOffice: (o, x) => (touch(), injector.outOfOffice(o, x)),
        unsubscribe: (o, x) => (touch(), injector.unsubscribe(o, x)),
      },
      async reset() {
        touch();
        store.reset();
        faults.clear();
        for (const u of users.list()) if (u.imapRefusal) await users.setImapRefusal(u.address, null);
      },
      stop,
    };

    for (const u of opts.users ?? []) await sink.addUser(u.address, u.password);

    if (opts.http !== undefined && opts.http !== false) {
      const { startSinkHttp } = await import('./http.ts');
      const server = await startSinkHttp(sink, { host, port: opts.http === true ? 0 : opts.http, onActivity: touch });
      sink.http = { url: server.url };
      cleanups.push(() => server.close());
    }

    if (opts.idleTimeoutMs) {
      const idle = opts.idleTimeoutMs;
      let timer: NodeJS.Timeout;
      const check = () => {
        const quiet = Date.now() - lastActivity;
        if (smtp.openConnections === 0 && quiet >= idle) {
          opts.log?.(`sink: idle for ${quiet} ms, stopping`);
          void stop();
          return;
        }
        timer = setTimeout(check, Math.max(idle - quiet, Math.min(idle, 1000)));
        timer.unref();
      };
      timer = setTimeout(check, idle);
      timer.unref();
      cleanups.push(() => clearTimeout(timer));
    }
    if (opts.maxLifetimeMs) {
      const t = setTimeout(() => void stop(), opts.maxLifetimeMs);
      t.unref();
      cleanups.push(() => clearTimeout(t));
    }
    return sink;
  } catch (err) {
    await stop();
    throw err;
  }
}
