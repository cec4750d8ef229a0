import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { headerRecord, ResponseParser } from './http1-parser.ts';

// Keep-alive HTTP/1.1 connections to one origin, one request at a time on each (no pipelining):
// the load generator's transport. A request is written to its socket in the call that sends it,
// so the send time the generator records is when the bytes leave, and no event-loop turn sits
// between the schedule and the wire.
//
// Reuse: an idle connection is reused last-in first-out and retired before the server's
// Keep-Alive timeout (less a second), as undici does. A reused connection can still be closed by
// the server just as a request goes out; such a request, if idempotent and answered by not a
// single byte, is sent once more on another connection (RFC 9110 9.2.2). Anything else that
// ends a connection mid-answer fails that request.
// Timeouts: one timer per pool checks the busy connections; a request with no byte from the
// server for `timeoutMs` (at most one check interval more) fails with a timeout.

export interface Job {
  method: string;
  /** request line and header block, ending with the empty line */
  wire: string;
  body: string | undefined;
  resolve(answer: Answer): void;
  reject(error: Error): void;
  retried?: boolean;
}

/** One response: status, body text, and headers parsed only when read. */
export class Answer {
  #headers: Record<string, string> | undefined;
  constructor(
    readonly status: number,
    /** the header block as received, status line excluded */
    private readonly head: string,
    readonly text: string,
  ) {}
  /** lower-cased names; repeated headers joined with ", " */
  get headers(): Record<string, string> {
    return (this.#headers ??= headerRecord(this.head));
  }
}

export interface PoolOptions {
  /** most connections open at once; requests beyond them wait */
  connections: number;
  /** a request fails after this long without a byte from the server */
  timeoutMs: number;
  /** how long an idle connection is kept when the server gives no Keep-Alive timeout */
  idleMs: number;
  tls?: Pick<tls.ConnectionOptions, 'ca' | 'rejectUnauthorized'>;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE']);

class Connection {
  socket!: net.Socket;
  job: Job | undefined;
  /** completed answers on this connection */
  used = 0;
  expiresAt = Infinity;
  /** pool checks since the last byte */
  quiet = 0;
  private readonly parser = new ResponseParser();
  private error: Error | undefined;
  private timedOut = false;

  constructor(private readonly pool: Http1Pool) {}

  /** `reads`: the socket delivers bytes through onRead into a shared buffer, not as 'data' events. */
  attach(socket: net.Socket, reads: boolean): void {
    this.socket = socket;
    if (!reads) socket.on('data', (chunk: Buffer) => this.onBytes(chunk, false));
    socket.on('error', (e) => (this.error ??= e));
    socket.on('close', this.onClose);
  }

  send(job: Job): void {
    this.job = job;
    this.quiet = 0;
    this.parser.reset(job.method === 'HEAD');
    const s = this.socket;
    s.ref();
    if (job.body === undefined) s.write(job.wire, 'latin1');
    else {
      s.cork();
      s.write(job.wire, 'latin1');
      s.write(job.body, 'utf8');
      s.uncork();
    }
  }

  timeOut(ms: number): void {
    this.timedOut = true;
    this.socket.destroy(new Error(`timeout: no answer within ${ms} ms`));
  }

  readonly onRead = (n: number, buf: Uint8Array): boolean => {
    this.onBytes((buf as Buffer).subarray(0, n), true);
    return true;
  };

  private onBytes(chunk: Buffer, transient: boolean): void {
    this.quiet = 0;
    const job = this.job;
    // Bytes nobody asked for: what comes next on this connection cannot be trusted.
    if (!job) return void this.socket.destroy();
    let done: boolean;
    try {
      done = this.parser.feed(chunk, transient);
    } catch (e) {
      this.socket.destroy(e as Error);
      return;
    }
    if (done) this.answer(job);
  }

  private answer(job: Job): void {
    const p = this.parser;
    this.job = undefined;
    this.used++;
    const answer = new Answer(p.status, p.head, p.text());
    if (p.keepAlive && p.extra === 0) {
      this.expiresAt = performance.now() + (p.keepAliveMs === undefined ? this.pool.idleMs : p.keepAliveMs - 1000);
      this.pool.release(this);
    } else this.socket.destroy();
    job.resolve(answer);
  }

  private readonly onClose = (): void => {
    this.pool.forget(this);
    const job = this.job;
    this.job = undefined;
    if (!job) return;
    if (this.parser.end()) return this.answer(job);
    if (!this.parser.started && this.used > 0 && !this.timedOut && !job.retried && IDEMPOTENT.has(job.method)) {
      job.retried = true;
      return this.pool.dispatch(job);
    }
    job.reject(this.error ?? new Error('the connection closed before the answer was complete'));
  };
}

export class Http1Pool {
  readonly idleMs: number;
  private readonly idle: Connection[] = [];
  private readonly open = new Set<Connection>();
  private readonly waiting: Job[] = [];
  private waitingHead = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly sweepMs: number;
  private readonly readBuffer = Buffer.allocUnsafe(64 * 1024);
  private closing: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly opts: PoolOptions,
  ) {
    this.idleMs = opts.idleMs;
    this.sweepMs = Math.min(1000, Math.max(10, Math.floor(opts.timeoutMs / 8)));
  }

  /** requests waiting for a connection */
  queued(): number {
    return this.waiting.length - this.waitingHead;
  }

  dispatch(job: Job): void {
    if (this.closed) return job.reject(new Error('the transport is closed'));
    const c = this.takeIdle() ?? (this.open.size < this.opts.connections ? this.connect() : undefined);
    if (c) c.send(job);
    else this.waiting.push(job);
  }

  /** A connection finished its answer and may carry another request. */
  release(c: Connection): void {
    const next = this.nextWaiting();
    if (next) return c.send(next);
    if (this.closed) return void c.socket.destroy();
    c.socket.unref();
    this.idle.push(c);
  }

  forget(c: Connection): void {
    this.open.delete(c);
    const i = this.idle.lastIndexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    if (this.open.size === 0) {
      if (this.sweeper) clearInterval(this.sweeper);
      this.sweeper = undefined;
      if (this.queued() === 0) this.closing?.();
    }
    // A request waiting for a connection gets the one that just went.
    if (this.queued() > 0 && this.open.size < this.opts.connections) this.connect().send(this.nextWaiting()!);
  }

  /** Waits for the requests sent and waiting, then closes every connection. */
  close(): Promise<void> {
    this.closed = true;
    for (const c of this.idle.splice(0)) c.socket.destroy();
    if (this.open.size === 0 && this.queued() === 0) return Promise.resolve();
    return new Promise((resolve) => (this.closing = resolve));
  }

  private nextWaiting(): Job | undefined {
    const next = this.waiting[this.waitingHead];
    if (!next) return undefined;
    this.waiting[this.waitingHead++] = undefined as never;
    if (this.waitingHead === this.waiting.length) this.waiting.length = this.waitingHead = 0;
    return next;
  }

  private takeIdle(): Connection | undefined {
    if (this.idle.length === 0) return undefined;
    const now = performance.now();
    for (let c = this.idle.pop(); c; c = this.idle.pop()) {
      if (c.expiresAt > now && c.socket.writable) return c;
      c.socket.destroy();
    }
    return undefined;
  }

  private connect(): Connection {
    const { hostname, protocol } = this.url;
    const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const port = Number(this.url.port) || (protocol === 'https:' ? 443 : 80);
    const c = new Connection(this);
    // Plain sockets read into one buffer the pool shares (reads are handled one at a time), which
    // spares a buffer and a stream 'data' event per read; TLS sockets take no such option.
    if (protocol === 'https:') c.attach(tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ...this.opts.tls }), false);
    else c.attach(net.connect({ host, port, onread: { buffer: this.readBuffer, callback: c.onRead } }), true);
    c.socket.setNoDelay(true);
    this.open.add(c);
    this.sweeper ??= setInterval(this.sweep, this.sweepMs).unref();
    return c;
  }

  /** Fails requests the server has been silent on for timeoutMs; retires expired idle connections. */
  private readonly sweep = (): void => {
    const limit = Math.ceil(this.opts.timeoutMs / this.sweepMs);
    const now = performance.now();
    for (const c of this.open) {
      if (c.job) {
        if (++c.quiet > limit) c.timeOut(this.opts.timeoutMs);
      } else if (c.expiresAt <= now) c.socket.destroy();
    }
  };
}
