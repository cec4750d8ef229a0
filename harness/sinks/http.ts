// The sink's HTTP API (node:http): the in-process operations over the wire (read, wait with a
// timeout, faults, injection, users, reset) under /sink/v1 (http-kit-routes.ts), and Mailpit's
// read subset under /api/v1 (http-mailpit-routes.ts: list, search, get one incl. `latest`,
// headers, raw, delete). Here: the route table they make, and the server answering from it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SinkInternals } from './sink-types.ts';
import { FaultRuleError } from './faults.ts';
import { InjectError } from './inject.ts';
import { WaitTimeoutError } from './store.ts';
import { UserError } from './users.ts';
import { HttpError, send, type Route } from './http-route.ts';
import { kitRoutes } from './http-kit-routes.ts';
import { mailpitRoutes } from './http-mailpit-routes.ts';

export { attemptFilterFrom, messageFilterFrom } from './http-filters.ts';

/** The largest request body the API takes (413 beyond it): an injected reply as large as a default-limit message fits. */
export const MAX_BODY = 16 * 1024 * 1024;

export interface SinkHttpServer {
  url: string;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, `request body over ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (!text) return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, 'request body is not valid JSON'));
      }
    });
  });
}

/** Every route of the API: the kit's own, then the Mailpit-compatible ones. */
export function routes(sink: SinkInternals): Route[] {
  return [...kitRoutes(sink), ...mailpitRoutes(sink)];
}

export function startSinkHttp(sink: SinkInternals, opts: { host: string; port?: number; onActivity?: () => void }): Promise<SinkHttpServer> {
  const table = routes(sink);
  const server = http.createServer((req, res) => {
    opts.onActivity?.();
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    void answer(table, req, res, ac.signal);
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  // Long enough that an idle connection is closed by the client, not under a late request (ECONNRESET).
  server.keepAliveTimeout = 120_000;
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new Error(`sink HTTP API cannot listen on ${opts.host}:${opts.port ?? 0}: ${err.message}`)));
    server.listen(opts.port ?? 0, opts.host, () => {
      const port = (server.address() as AddressInfo).port;
      const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
      let closed: Promise<void> | null = null;
      resolve({
        url: `http://${host}:${port}`,
        close: () =>
          (closed ??= new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          })),
      });
    });
  });
}

/** Answers one request from the table: the first route whose pattern and method match; 405 when only the pattern does, 404 when none. */
async function answer(table: readonly Route[], req: http.IncomingMessage, res: http.ServerResponse, signal: AbortSignal): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://sink.invalid');
  } catch {
    return send(res, 400, { error: 'bad request target' });
  }
  const path = url.pathname.replace(/\/+$/, '') || '/';
  let allowed = false;
  for (const [method, re, handler] of table) {
    const m = re.exec(path);
    if (!m) continue;
    allowed = true;
    if (method !== req.method) continue;
    let bodyPromise: Promise<unknown> | null = null;
    const params = m.slice(1).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
    try {
      await handler({ req, res, url, params, body: () => (bodyPromise ??= readBody(req)), signal });
    } catch (err) {
      sendError(res, path, err as Error);
    }
    return;
  }
  if (allowed) send(res, 405, { error: `method ${req.method} not allowed on ${path}` });
  else send(res, 404, { error: `no route ${req.method} ${path}` });
}

const MAILPIT_PATH = /^\/api\/v1\//;

/** A handler's error with its status (500 when it has none): as text under /api/v1 (as Mailpit answers), else as `{ error }`. */
function sendError(res: http.ServerResponse, path: string, e: Error): void {
  const status = e instanceof HttpError || e instanceof InjectError || e instanceof UserError ? e.status : e instanceof FaultRuleError ? 400 : e instanceof WaitTimeoutError ? 408 : 500;
  if (MAILPIT_PATH.test(path)) send(res, status, e.message, 'text/plain; charset=utf-8');
  else send(res, status, { error: e.message });
}
