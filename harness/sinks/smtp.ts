// The SMTP side: nodemailer's smtp-server on two listeners (cleartext with STARTTLS, and
// implicit TLS), AUTH PLAIN/LOGIN checked against the mailbox users, fault rules applied at
// AUTH/MAIL/RCPT/DATA, and every attempt recorded with the reply the client actually got.
// Raw bytes are kept on arrival; nothing is parsed here.
import { SMTPServer, type SMTPServerAddress, type SMTPServerAuthentication, type SMTPServerAuthenticationResponse, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';
import type { AddressInfo } from 'node:net';
import { StoredMessage } from './message.ts';
import type { SinkStore } from './store.ts';
import type { UserRegistry } from './users.ts';
import { faultReplyText, type FaultEngine, type FaultRule } from './faults.ts';
import type { Pem } from './cert.ts';
import type { Attempt, SessionInfo, SmtpReply, SmtpStage } from './types.ts';

/** What greetAtOnce needs of smtp-server's connection (its own, undeclared, methods). */
interface Greeting {
  init(): void;
  connectionReady(): void;
  _setListeners(ready: () => void): void;
}

/**
 * smtp-server waits 100 ms before its 220 greeting to catch clients that talk first, and has no
 * option to turn it off. A sink has no spammers to catch, and the pause costs every connection
 * (each verification and each send of a target that connects per message) a tenth of a second.
 * The server registers a connection just before it starts it: the start is swapped there for one
 * that greets at once (the same steps, without the timer).
 */
function greetAtOnce(server: SMTPServer): void {
  const connections = server.connections;
  const add = connections.add.bind(connections);
  connections.add = (c: SMTPConnection) => {
    const g = c as unknown as Greeting;
    g.init = () => g._setListeners(() => g.connectionReady());
    return add(c);
  };
}

/** The EHLO name the sink's own injector uses; mail from such sessions is marked `injected`. */
export const INJECTOR_EHLO = 'injector.outreach-sink.invalid';
export const AUTH_FAILED_TEXT = '5.7.8 Authentication credentials invalid';

export interface SmtpSideOptions {
  host: string;
  port?: number;
  /** null: no implicit-TLS listener */
  securePort?: number | null;
  sizeLimit: number;
  requireAuth?: boolean;
  /** the sink's own injector logs in with this (not a mailbox user; works with requireAuth) */
  injectorAuth?: { user: string; pass: string };
  cert: Pem;
  store: SinkStore;
  users: UserRegistry;
  faults: FaultEngine;
  /** local delivery (Maildir) of an accepted message, before the 250 reply */
  deliver: (msg: StoredMessage) => Promise<void>;
  /** errors that are not the client's (never contains a password) */
  log?: (line: string) => void;
  /** called when a connection opens or closes (idle tracking) */
  onActivity?: () => void;
}

interface ConnState {
  info: SessionInfo;
  implicit: boolean;
  conn: SMTPConnection | null;
  current: Attempt | null;
  /** receives the next final (non-3xx) reply sent on this connection */
  pending: ((r: SmtpReply) => void) | null;
  timers: Set<NodeJS.Timeout>;
  closed: boolean;
}

class Refusal extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

export class SmtpSide {
  port = 0;
  securePort: number | null = null;
  private servers: SMTPServer[] = [];
  private readonly conns = new Map<string, ConnState>();
  private stopped = false;

  constructor(private readonly o: SmtpSideOptions) {}

  get openConnections(): number {
    return this.conns.size;
  }

  async start(): Promise<void> {
    const plain = this.createServer(false);
    this.port = await listen(plain, this.o.port ?? 0, this.o.host);
    if (this.o.securePort !== null) {
      const secure = this.createServer(true);
      this.securePort = await listen(secure, this.o.securePort ?? 0, this.o.host);
    }
  }

  /** Closes listeners and every open connection at once (stalls included). Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const st of this.conns.values()) {
      for (const t of st.timers) clearTimeout(t);
      st.conn?._socket.destroy();
    }
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            for (const c of s.connections) c._socket.destroy();
            s.close(() => resolve());
          }),
      ),
    );
  }

  private createServer(implicit: boolean): SMTPServer {
    const server: SMTPServer = new SMTPServer({
      secure: implicit,
      key: this.o.cert.key,
      cert: this.o.cert.cert,
      name: 'outreach-sink.localhost',
      banner: 'outreach-conformance mail sink',
      size: this.o.sizeLimit,
      rejectOversized: true,
      authMethods: ['PLAIN', 'LOGIN'],
      authOptional: !this.o.requireAuth,
      allowInsecureAuth: true,
      disableReverseLookup: true,
      hideENHANCEDSTATUSCODES: true, // fault rules put their own enhanced code in the text
      logger: false,
      socketTimeout: 60_000,
      closeTimeout: 500,
      onConnect: (session, cb) => this.onConnect(server, implicit, session, cb),
      onAuth: (auth, session, cb) => this.onAuth(auth, session, cb),
      onMailFrom: (address, session, cb) => this.onMailFrom(address, session, cb),
      onRcptTo: (address, session, cb) => this.onRcptTo(address, session, cb),
      onData: (stream, session, cb) => this.onData(stream, session, cb),
      onClose: (session) => this.onClose(session),
    });
    // connection errors (resets, TLS failures, garbage) must never crash the process
    server.on('error', () => undefined);
    greetAtOnce(server);
    this.servers.push(server);
    return server;
  }

  // --- session bookkeeping ----------------------------------------------------------------

  private onConnect(server: SMTPServer, implicit: boolean, session: SMTPServerSession, cb: (err?: Error | null) => void): void {
    this.o.onActivity?.();
    let conn: SMTPConnection | null = null;
    for (const c of server.connections) {
      if (c.session === session || c.id === session.id) {
        conn = c;
        break;
      }
    }
    const st: ConnState = {
      info: {
        id: session.id,
        remoteAddress: session.remoteAddress,
        remotePort: session.remotePort,
        ehlo: null,
        tls: implicit ? 'implicit' : 'none',
        authUser: null,
        connectedAt: Date.now(),
      },
      implicit,
      conn,
      current: null,
      pending: null,
      timers: new Set(),
      closed: false,
    };
    if (conn) {
      // observe every reply exactly as written to the client
      const send = conn.send.bind(conn);
      conn.send = (code: number, data?: string | string[] | null, context?: string | false) => {
        send(code, data, context);
        if (code >= 200 && (code < 300 || code >= 400) && st.pending) {
          const p = st.pending;
          st.pending = null;
          p({ code, text: Array.isArray(data) ? data.join('\n') : (data ?? '') });
        }
      };
    }
    this.conns.set(session.id, st);
    cb();
  }

  private state(session: SMTPServerSession): ConnState {
    let st = this.conns.get(session.id);
    if (!st) {
      // not seen at connect (should not happen): record without reply capture
      st = {
        info: { id: session.id, remoteAddress: session.remoteAddress, remotePort: session.remotePort, ehlo: null, tls: 'none', authUser: null, connectedAt: Date.now() },
        implicit: false,
        conn: null,
        current: null,
        pending: null,
        timers: new Set(),
        closed: false,
      };
      this.conns.set(session.id, st);
    }
    const info = st.info;
    info.ehlo = session.hostNameAppearsAs || null;
    info.tls = session.secure ? (st.implicit ? 'implicit' : 'starttls') : 'none';
    if (session.tlsOptions) info.tlsProtocol = session.tlsOptions.version;
    info.authUser = typeof session.user === 'string' ? session.user : null;
    return st;
  }

  private onClose(session: SMTPServerSession): void {
    this.o.onActivity?.();
    const st = this.conns.get(session.id);
    if (!st) return;
    st.closed = true;
    for (const t of st.timers) clearTimeout(t);
    st.timers.clear();
    st.pending = null;
    if (st.current) this.endMail(st, st.current, null);
    this.conns.delete(session.id);
  }

  private later(st: ConnState, ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      st.timers.delete(t);
      if (!st.closed && !this.stopped) fn();
    }, ms);
    st.timers.add(t);
  }

  private newAttempt(st: ConnState, kind: 'auth' | 'mail', stage: SmtpStage): Attempt {
    const a: Attempt = {
      id: this.o.store.nextId('a'),
      kind,
      at: Date.now(),
      session: { ...st.info },
      stage,
      outcome: 'open',
      rcpt: [],
    };
    this.o.store.addAttempt(a);
    return a;
  }

  private finish(a: Attempt, outcome: Attempt['outcome'], reply?: SmtpReply | null): void {
    if (a.outcome !== 'open') return;
    a.outcome = outcome;
    if (reply) a.reply = reply;
    a.endedAt = Date.now();
    this.o.store.attemptEnded(a);
  }

  /** Ends an open mail transaction without a DATA reply (reset, new MAIL, close). */
  private endMail(st: ConnState, a: Attempt, reply: SmtpReply | null): void {
    if (st.current === a) st.current = null;
    if (a.outcome !== 'open') return;
    const lastRejection = [...a.rcpt].reverse().find((r) => r.reply && r.reply.code >= 400)?.reply;
    if (reply) this.finish(a, reply.code < 400 ? 'accepted' : 'rejected', reply);
    else if (lastRejection && a.rcpt.every((r) => !r.accepted)) this.finish(a, 'rejected', lastRejection);
    else this.finish(a, 'aborted');
  }

  /** Applies a fault rule: reply (callback with an error), drop, or stall then go on. */
  private applyFault(st: ConnState, a: Attempt, rule: FaultRule, proceed: () => void, fail: (err: Refusal) => void): void {
    a.faultRuleId = rule.id;
    const refuse = () => fail(new Refusal(rule.code!, faultReplyText(rule)));
    if (rule.action === 'drop' && !st.conn) {
      // the connection object was not found at connect: close with 421 instead of silently
      fail(new Refusal(421, '4.4.2 Closing connection (fault injected by the sink)'));
      return;
    }
    if (rule.action === 'drop') {
      st.pending = null;
      this.finish(a, 'dropped');
      if (st.current === a) st.current = null;
      st.conn?._socket.destroy();
      return;
    }
    if (rule.action === 'stall') {
      this.later(st, rule.stallMs!, () => (rule.code !== undefined ? refuse() : proceed()));
      return;
    }
    refuse();
  }

  // --- handlers ------------------------------------------------------------------------------

  private onAuth(auth: SMTPServerAuthentication, session: SMTPServerSession, cb: (err: Error | null | undefined, response?: SMTPServerAuthenticationResponse) => void): void {
    const st = this.state(session);
    const a = this.newAttempt(st, 'auth', 'AUTH');
    const username = String(auth.username ?? '');
    a.authUser = username;
    a.authMethod = auth.method;
    st.pending = (r) => {
      if (r.code < 400) st.info.authUser = username.toLowerCase();
      this.finish(a, r.code < 400 ? 'accepted' : 'rejected', r);
    };
    const inj = this.o.injectorAuth;
    const check = () => {
      if (this.o.users.check(username, String(auth.password ?? ''))) cb(null, { user: username.toLowerCase() });
      else if (inj && username === inj.user && auth.password === inj.pass) cb(null, { user: inj.user });
      else cb(null, { message: AUTH_FAILED_TEXT, responseCode: 535 });
    };
    const rule = this.o.faults.take('AUTH', { user: username });
    if (rule) this.applyFault(st, a, rule, check, (err) => cb(null, { message: err.message, responseCode: err.responseCode }));
    else check();
  }

  private onMailFrom(address: SMTPServerAddress, session: SMTPServerSession, cb: (err?: Error | null) => void): void {
    const st = this.state(session);
    if (st.current) this.endMail(st, st.current, null); // RSET or a new transaction
    const a = this.newAttempt(st, 'mail', 'MAIL');
    a.mailFrom = address.address;
    st.current = a;
    st.pending = (r) => {
      if (r.code >= 400) this.endMail(st, a, r);
    };
    const rule = this.o.faults.take('MAIL', { user: st.info.authUser, sender: address.address });
    if (rule) this.applyFault(st, a, rule, () => cb(), (err) => cb(err));
    else cb();
  }

  private onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, cb: (err?: Error | null) => void): void {
    const st = this.state(session);
    const a = st.current ?? this.newAttempt(st, 'mail', 'RCPT');
    st.current = a;
    a.stage = 'RCPT';
    const rec = { address: address.address, accepted: false } as Attempt['rcpt'][number];
    a.rcpt.push(rec);
    st.pending = (r) => {
      rec.reply = r;
      rec.accepted = r.code < 400;
    };
    const rule = this.o.faults.take('RCPT', { user: st.info.authUser, sender: a.mailFrom ?? null, recipients: [address.address] });
    if (rule) this.applyFault(st, a, rule, () => cb(), (err) => cb(err));
    else cb();
  }

  private onData(stream: SMTPServerDataStream, session: SMTPServerSession, cb: (err?: Error | null, message?: string) => void): void {
    const st = this.state(session);
    const a = st.current ?? this.newAttempt(st, 'mail', 'DATA');
    st.current = a;
    a.stage = 'DATA';
    const envelope = {
      mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      rcptTo: session.envelope.rcptTo.map((r) => r.address),
    };
    st.pending = (r) => this.endMail(st, a, r);
    const chunks: Buffer[] = [];
    let kept = 0;
    const cap = this.o.sizeLimit + 1024; // keep no more than the limit (plus a little) of an oversized message
    let failed = false;
    stream.on('data', (chunk: Buffer) => {
      if (kept < cap) {
        const part = kept + chunk.length > cap ? chunk.subarray(0, cap - kept) : chunk;
        chunks.push(part);
        kept += part.length;
      }
    });
    stream.on('error', () => {
      // the client went away mid-message: keep what arrived, the close handler ends the attempt
      failed = true;
      a.size = stream.byteLength;
      a.truncated = true;
      this.o.store.setAttemptRaw(a.id, Buffer.concat(chunks, kept));
    });
    stream.on('end', () => {
      if (failed) return;
      const raw = Buffer.concat(chunks, kept);
      a.size = stream.byteLength;
      if (raw.length < stream.byteLength) a.truncated = true;
      this.o.store.setAttemptRaw(a.id, raw);
      if (stream.sizeExceeded) return cb(null); // the server answers 552 itself (rejectOversized)
      const accept = () => {
        void this.accept(st, a, envelope, raw).then(
          (id) => cb(null, `OK: queued as ${id}`),
          (err: Error) => {
            this.o.log?.(`sink: local delivery failed: ${err.message}`);
            cb(new Refusal(451, '4.3.0 Local delivery failed'));
          },
        );
      };
      const rule = this.o.faults.take('DATA', { user: st.info.authUser, sender: envelope.mailFrom, recipients: envelope.rcptTo });
      if (rule) this.applyFault(st, a, rule, accept, (err) => cb(err));
      else accept();
    });
  }

  private async accept(st: ConnState, a: Attempt, envelope: { mailFrom: string; rcptTo: string[] }, raw: Buffer): Promise<string> {
    const id = this.o.store.nextId('m');
    const msg = new StoredMessage(id, a.id, Date.now(), envelope, { ...st.info }, raw, st.info.ehlo === INJECTOR_EHLO);
    await this.o.deliver(msg);
    a.messageId = id;
    this.o.store.addMessage(msg);
    return id;
  }
}

function listen(server: SMTPServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(new Error(`SMTP sink cannot listen on ${host}:${port}: ${err.message}`));
    server.server.once('error', onError);
    server.server.listen(port, host, () => {
      server.server.off('error', onError);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}
