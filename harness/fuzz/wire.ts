// Raw bytes on a socket (plain or TLS) with nothing between: what a hostile client sends, and
// what came back before the connection closed or a deadline passed.
import net from 'node:net';
import tls from 'node:tls';

const CONNECT_TIMEOUT_MS = 10_000;

export type Ending = 'end' | 'destroy' | 'wait';

export interface Part {
  bytes: Buffer;
  /** wait this long before writing (slow senders) */
  delayMs?: number;
}

export interface ExchangeResult {
  data: Buffer;
  /** the server closed (or reset) the connection */
  closedByServer: boolean;
  /** `done` said the answer was complete */
  complete: boolean;
  /** the socket could not connect */
  refused: boolean;
}

export interface ExchangeOptions {
  port: number;
  host?: string;
  tls?: boolean;
  parts: Part[];
  /** after the last part: half-close, reset, or keep the socket open */
  ending: Ending;
  /** give up waiting for an answer this long after the connection was made */
  timeoutMs: number;
  /** whether what arrived so far is a complete answer (then the socket is closed) */
  done?: (data: Buffer) => boolean;
}

export function exchange(o: ExchangeOptions): Promise<ExchangeResult> {
  return new Promise((resolve) => {
    const host = o.host ?? '127.0.0.1';
    const socket: net.Socket = o.tls ? tls.connect({ port: o.port, host, rejectUnauthorized: false }) : net.connect({ port: o.port, host });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let connected = false;
    let closedByServer = false;
    let complete = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = () => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), closedByServer, complete, refused: !connected });
    };
    socket.on('error', () => undefined);
    socket.on('data', (d: Buffer) => {
      if (size < 4 * 1024 * 1024) chunks.push(d);
      size += d.length;
      if (o.done?.(Buffer.concat(chunks))) {
        complete = true;
        finish();
      }
    });
    socket.on('close', () => {
      closedByServer = !settled;
      finish();
    });
    socket.once(o.tls ? 'secureConnect' : 'connect', async () => {
      connected = true;
      for (const p of o.parts) {
        if (p.delayMs) await new Promise((r) => timers.push(setTimeout(r, p.delayMs)));
        if (settled || socket.destroyed) return;
        socket.write(p.bytes);
      }
      if (o.ending === 'destroy') return finish();
      if (o.ending === 'end') socket.end();
    });
    // The answer's deadline runs from the connection (a busy machine may take a while to handshake).
    const connectTimer = setTimeout(finish, CONNECT_TIMEOUT_MS);
    timers.push(connectTimer);
    socket.once(o.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      timers.push(setTimeout(finish, o.timeoutMs));
    });
  });
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The first HTTP/1.x response in `data`, or null while it is incomplete (content-length bodies; none after HEAD). */
export function parseHttpAnswer(data: Buffer, head = false): HttpAnswer | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) return { status: 0, headers: {}, body: data };
  if (m[1]!.startsWith('1')) return parseHttpAnswer(data.subarray(end + 4), head); // 100 Continue: the answer follows
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const status = Number(m[1]);
  if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
  const len = headers['content-length'] === undefined ? null : Number(headers['content-length']);
  const body = data.subarray(end + 4);
  if (len === null && /chunked/i.test(headers['transfer-encoding'] ?? '')) return /(^|\r\n)0\r\n\r\n$/.test(body.toString('latin1')) ? { status, headers, body } : null;
  if (len === null) return { status, headers, body };
  return body.length >= len ? { status, headers, body: body.subarray(0, len) } : null;
}
