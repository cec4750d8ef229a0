// Composes one mail sink: store + users + faults + SMTP side + (Dovecot) IMAP side + injector
// (+ HTTP API when asked). `startSinks()` is the only way in; `stop()` undoes all of it.
import { randomBytes } from 'node:crypto';
import { sinkCertificate } from './cert.ts';
import { Dovecot, imapUnavailableReason } from './dovecot.ts';
import { startImapsProxy, type ImapsProxy } from './imaps-proxy.ts';
import { FaultEngine } from './faults.ts';
import { Injector, withTrace } from './inject.ts';
import { INJECTOR_EHLO, SmtpSide } from './smtp.ts';
import { SinkStore } from './store.ts';
import { UserRegistry } from './users.ts';
import type { SinkCredentials, SinkInternals, StartSinksOptions } from './sink-types.ts';


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
