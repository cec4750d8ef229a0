// Composes one mail sink: store + users + faults + SMTP side + (Dovecot) IMAP side + injector
// (+ HTTP API when asked). `startSinks()` is the only way in; `stop()` undoes all of it.
import { randomBytes } from 'node:crypto';
import { sinkCertificate } from './cert.ts';
import { Dovecot, imapUnavailableReason } from './dovecot.ts';
import { startImapsProxy, type ImapsProxy } from './imaps-proxy.ts';
import { FaultEngine } from './faults.ts';
import { Injector, withTrace } from './inject.ts';
import type { StoredMessage } from './message.ts';
import { INJECTOR_EHLO, SmtpSide } from './smtp.ts';
import { SinkStore } from './store.ts';
import { UserRegistry } from './users.ts';
import type { SinkCredentials, SinkInternals, StartSinksOptions } from './sink-types.ts';

/** What every step of the start shares: the options, the parts, and the sink's lifetime. */
interface SinkCore {
  opts: StartSinksOptions;
  host: string;
  sizeLimit: number;
  store: SinkStore;
  users: UserRegistry;
  faults: FaultEngine;
  life: Lifetime;
}

/** The cleanups `stop()` runs (last started, first stopped) and the last activity the idle timer reads. */
interface Lifetime {
  cleanups: (() => Promise<void> | void)[];
  lastActivity: number;
  touch(): void;
  stop(): Promise<void>;
}

/** The IMAP side: Dovecot and the IMAPS proxy in front of it, or why there is none. */
interface ImapParts {
  dovecot: Dovecot | null;
  imaps: ImapsProxy | null;
  unavailable?: string;
}

export async function startSinks(opts: StartSinksOptions = {}): Promise<SinkInternals> {
  const core: SinkCore = {
    opts,
    host: opts.host ?? '127.0.0.1',
    sizeLimit: opts.smtpSizeLimit ?? 10 * 1024 * 1024,
    store: new SinkStore(opts.maxStoredMessages),
    users: new UserRegistry(),
    faults: new FaultEngine(),
    life: lifetime(),
  };
  try {
    const imap = await startImap(core);
    const { smtp, injector } = await startSmtp(core, imap.dovecot);
    const sink = publicSink(core, imap, smtp, injector);
    for (const u of opts.users ?? []) await sink.addUser(u.address, u.password);
    await serveHttp(core, sink);
    armIdleTimer(core, smtp);
    armLifetimeTimer(core);
    return sink;
  } catch (err) {
    await core.life.stop();
    throw err;
  }
}

function lifetime(): Lifetime {
  let stopped = false;
  const life: Lifetime = {
    cleanups: [],
    lastActivity: Date.now(),
    touch: () => {
      life.lastActivity = Date.now();
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const fn of life.cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
    },
  };
  return life;
}

/** Starts Dovecot and the IMAPS proxy (unless `imap: false` or Dovecot is missing); a failure to start is reported, not thrown. */
async function startImap({ opts, host, users, life }: SinkCore): Promise<ImapParts> {
  if (opts.imap === false) return { dovecot: null, imaps: null, unavailable: 'IMAP sink disabled (imap: false)' };
  const reason = imapUnavailableReason() ?? undefined;
  if (reason) return { dovecot: null, imaps: null, unavailable: reason };
  let dovecot: Dovecot | null = null;
  let imaps: ImapsProxy | null = null;
  try {
    dovecot = await Dovecot.start({ host, port: opts.imapPort, log: opts.log });
    const d = dovecot;
    life.cleanups.push(() => d.stop());
    imaps = await startImapsProxy(host, d.port);
    const proxy = imaps;
    life.cleanups.push(() => proxy.close());
    users.onChange(() => d.setUsers(users.list()));
    return { dovecot, imaps };
  } catch (err) {
    const unavailable = `IMAP sink unavailable: ${(err as Error).message}`;
    opts.log?.(unavailable);
    return { dovecot, imaps, unavailable };
  }
}

/** Starts the SMTP side (delivering to the mailbox users' Maildirs when Dovecot runs) and the injector that speaks to it. */
async function startSmtp(core: SinkCore, dovecot: Dovecot | null): Promise<{ smtp: SmtpSide; injector: Injector }> {
  const { opts, host, store, users, faults, life } = core;
  const injectorAuth = { user: INJECTOR_EHLO, pass: randomBytes(18).toString('base64url') };
  const smtp = new SmtpSide({
    injectorAuth,
    host,
    port: opts.smtpPort ?? 0,
    securePort: opts.smtpsPort === undefined ? 0 : opts.smtpsPort,
    sizeLimit: core.sizeLimit,
    requireAuth: opts.requireAuth,
    cert: await sinkCertificate(),
    store,
    users,
    faults,
    log: opts.log,
    onActivity: life.touch,
    deliver: (msg) => deliverToMaildirs(dovecot, users, msg),
  });
  life.cleanups.push(() => smtp.stop());
  await smtp.start();

  const injector = new Injector({ host, smtpPort: () => smtp.port, store, users, maildirs: () => dovecot?.maildirs ?? null, auth: injectorAuth });
  life.cleanups.push(() => injector.close());
  return { smtp, injector };
}

/** Local delivery: an accepted message into the Maildir of each mailbox user it names, once each. */
async function deliverToMaildirs(dovecot: Dovecot | null, users: UserRegistry, msg: StoredMessage): Promise<void> {
  if (!dovecot) return;
  for (const rcpt of msg.envelope.rcptTo) {
    const user = rcpt.toLowerCase();
    if (!users.has(user) || msg.deliveredTo.includes(user)) continue;
    await dovecot.maildirs.deliver(user, withTrace(msg.raw, msg.envelope.mailFrom, user));
    msg.deliveredTo.push(user);
  }
}

/** The object startSinks() returns: the parts behind the MailSink interface, each call counting as activity where it waits or changes things. */
function publicSink(core: SinkCore, imap: ImapParts, smtp: SmtpSide, injector: Injector): SinkInternals {
  const { host, store, users, faults, life } = core;
  const { dovecot, imaps, unavailable } = imap;
  const touch = life.touch;
  const credentials = (address: string, password: string): SinkCredentials => ({
    address,
    password,
    smtp: { host, port: smtp.port, secure: false, username: address, password },
    imap: dovecot ? { host, port: dovecot.port, username: address, password } : null,
  });
  return {
    smtp: { host, port: smtp.port, securePort: smtp.securePort },
    imap: dovecot ? { host, port: dovecot.port, securePort: imaps?.port ?? 0 } : null,
    ...(unavailable ? { imapUnavailableReason: unavailable } : {}),
    sizeLimit: core.sizeLimit,
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
    stop: life.stop,
  };
}

/** Serves the HTTP API when `http` asks for it, and names its URL on the sink. */
async function serveHttp({ opts, host, life }: SinkCore, sink: SinkInternals): Promise<void> {
  if (opts.http === undefined || opts.http === false) return;
  const { startSinkHttp } = await import('./http.ts');
  const server = await startSinkHttp(sink, { host, port: opts.http === true ? 0 : opts.http, onActivity: life.touch });
  sink.http = { url: server.url };
  life.cleanups.push(() => server.close());
}

/** Stops the sink after `idleTimeoutMs` without activity and with no SMTP connection open. */
function armIdleTimer({ opts, life }: SinkCore, smtp: SmtpSide): void {
  if (!opts.idleTimeoutMs) return;
  const idle = opts.idleTimeoutMs;
  let timer: NodeJS.Timeout;
  const check = () => {
    const quiet = Date.now() - life.lastActivity;
    if (smtp.openConnections === 0 && quiet >= idle) {
      opts.log?.(`sink: idle for ${quiet} ms, stopping`);
      void life.stop();
      return;
    }
    timer = setTimeout(check, Math.max(idle - quiet, Math.min(idle, 1000)));
    timer.unref();
  };
  timer = setTimeout(check, idle);
  timer.unref();
  life.cleanups.push(() => clearTimeout(timer));
}

/** Stops the sink `maxLifetimeMs` after its start, whatever it is doing (a safety net for crashed runs). */
function armLifetimeTimer({ opts, life }: SinkCore): void {
  if (!opts.maxLifetimeMs) return;
  const t = setTimeout(() => void life.stop(), opts.maxLifetimeMs);
  t.unref();
  life.cleanups.push(() => clearTimeout(t));
}
