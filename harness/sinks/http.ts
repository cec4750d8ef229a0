// The sink's HTTP API (node:http): the in-process operations over the wire (read, wait with a
// timeout, faults, injection, users, reset) under /sink/v1, and Mailpit's read subset under
// /api/v1 (list, search, get one incl. `latest`, headers, raw, delete).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SinkInternals } from './sink-types.ts';
import { FaultRuleError } from './faults.ts';
import { InjectError, type InjectResult } from './inject.ts';
import { WaitTimeoutError } from './store.ts';
import { UserError } from './users.ts';
import type { AttemptFilter, MessageFilter } from './types.ts';
import { appInformation, fullMessage, headersObject, markRead, messagesSummary, parseQuery, partOf, searchMatches, SearchError, setRead } from './mailpit-compat.ts';
import { KIT } from '../kit.ts';
import type { StoredMessage } from './message.ts';

/** The largest request body the API takes (413 beyond it): an injected reply as large as a default-limit message fits. */
export const MAX_BODY = 16 * 1024 * 1024;
const MAX_WAIT_MS = 300_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SinkHttpServer {
  url: string;
  close(): Promise<void>;
}

type Handler = (ctx: Ctx) => Promise<void>;
interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  params: string[];
  body: () => Promise<unknown>;
  signal: AbortSignal;
}

function send(res: http.ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  if (res.headersSent) return;
  const data = Buffer.isBuffer(body) ? body : type === 'application/json' ? Buffer.from(JSON.stringify(body)) : Buffer.from(String(body));
  res.writeHead(status, { 'content-type': type === 'application/json' ? 'application/json; charset=utf-8' : type, 'content-length': data.length });
  res.end(data);
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

const str = (v: string | null) => (v === null || v === '' ? undefined : v);

function sinceParam(v: string | null): number | undefined {
  if (!v) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(n)) throw new HttpError(400, `since: expected ms since epoch or an ISO date, got ${JSON.stringify(v)}`);
  return n;
}

function boolParam(v: string | null, name: string): boolean | undefined {
  if (v === null || v === '') return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new HttpError(400, `${name}: expected true or false`);
}

function clean<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function messageFilterFrom(q: URLSearchParams | Record<string, unknown>): MessageFilter {
  const get = (k: string) => (q instanceof URLSearchParams ? q.get(k) : q[k] === undefined || q[k] === null ? null : String(q[k]));
  return clean({
    id: str(get('id')),
    to: str(get('to')),
    from: str(get('from')),
    user: str(get('user')),
    subject: str(get('subject')),
    messageId: str(get('messageId')),
    inReplyTo: str(get('inReplyTo')),
    since: sinceParam(get('since')),
    injected: boolParam(get('injected'), 'injected'),
  });
}

export function attemptFilterFrom(q: URLSearchParams | Record<string, unknown>): AttemptFilter {
  const get = (k: string) => (q instanceof URLSearchParams ? q.get(k) : q[k] === undefined || q[k] === null ? null : String(q[k]));
  const kind = str(get('kind'));
  if (kind && kind !== 'auth' && kind !== 'mail') throw new HttpError(400, 'kind: expected auth or mail');
  const outcome = str(get('outcome'));
  if (outcome && !['accepted', 'rejected', 'dropped', 'aborted', 'open'].includes(outcome)) throw new HttpError(400, 'outcome: expected accepted, rejected, dropped, aborted or open');
  const stage = str(get('stage'));
  if (stage && !['AUTH', 'MAIL', 'RCPT', 'DATA'].includes(stage)) throw new HttpError(400, 'stage: expected AUTH, MAIL, RCPT or DATA');
  const code = str(get('code'));
  if (code && !/^\d{3}$/.test(code)) throw new HttpError(400, 'code: expected a 3-digit reply code');
  return clean({
    kind: kind as AttemptFilter['kind'],
    outcome: outcome as AttemptFilter['outcome'],
    stage: stage as AttemptFilter['stage'],
    user: str(get('user')),
    from: str(get('from')),
    to: str(get('to')),
    since: sinceParam(get('since')),
    code: code ? Number(code) : undefined,
  });
}

const injectView = (r: InjectResult) => ({ ...r, raw: undefined, size: r.raw.length });

export function routes(sink: SinkInternals): [method: string, pattern: RegExp, handler: Handler][] {
  const msg = (id: string): StoredMessage => {
    const m = id === 'latest' ? sink.store.latest() : sink.message(id);
    if (!m) throw new HttpError(404, id === 'latest' ? 'no messages' : `message ${id} not found`);
    return m;
  };
  const object = async (ctx: Ctx): Promise<Record<string, unknown>> => {
    const b = await ctx.body();
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw new HttpError(400, 'request body must be a JSON object');
    return b as Record<string, unknown>;
  };
  const inject = (kind: 'reply' | 'bounce' | 'outOfOffice' | 'unsubscribe'): Handler => async (ctx) => {
    const { original, ...opts } = await object(ctx);
    if (typeof original !== 'string' || !original) throw new HttpError(400, 'original: the sink id or Message-ID of a recorded message is required');
    const r = await sink.inject[kind](original, opts as never);
    send(ctx.res, 201, injectView(r));
  };
  const startedAt = Date.now();
  let deleted = 0;
  /** The messages a Mailpit search names (400 naming a filter the sink cannot answer). */
  const searched = async (query: string): Promise<StoredMessage[]> => {
    let terms;
    try {
      terms = parseQuery(query);
    } catch (e) {
      if (e instanceof SearchError) throw new HttpError(400, e.message);
      throw e;
    }
    const all = sink.messages();
    const hits = await Promise.all(all.map((m) => searchMatches(m, terms)));
    return all.filter((_, i) => hits[i]);
  };
  const info = () => ({ smtp: sink.smtp, imap: sink.imap, imapUnavailableReason: sink.imapUnavailableReason ?? null, http: sink.http ?? null, sizeLimit: sink.sizeLimit });

  return [
    // --- the sink's own API ---
    ['GET', /^\/sink\/v1\/info$/, async ({ res }) => send(res, 200, info())],
    ['GET', /^\/sink\/v1\/messages$/, async ({ res, url }) => send(res, 200, { messages: sink.messages(messageFilterFrom(url.searchParams)).map((m) => m.summary()) })],
    ['GET', /^\/sink\/v1\/messages\/([^/]+)$/, async ({ res, params }) => send(res, 200, msg(params[0]!).summary())],
    ['GET', /^\/sink\/v1\/messages\/([^/]+)\/raw$/, async ({ res, params }) => send(res, 200, msg(params[0]!).raw, 'message/rfc822')],
    ['GET', /^\/sink\/v1\/messages\/([^/]+)\/parsed$/, async ({ res, params }) => send(res, 200, await msg(params[0]!).parsed())],
    ['GET', /^\/sink\/v1\/attempts$/, async ({ res, url }) => send(res, 200, { attempts: sink.attempts(attemptFilterFrom(url.searchParams)) })],
    [
      'GET',
      /^\/sink\/v1\/attempts\/([^/]+)\/raw$/,
      async ({ res, params }) => {
        const raw = sink.attemptRaw(params[0]!);
        if (!raw) throw new HttpError(404, `attempt ${params[0]} has no DATA bytes`);
        send(res, 200, raw, 'message/rfc822');
      },
    ],
    [
      'POST',
      /^\/sink\/v1\/wait$/,
      async (ctx) => {
        const b = await object(ctx);
        const timeout = b.timeoutMs === undefined ? 10_000 : Number(b.timeoutMs);
        if (!Number.isFinite(timeout) || timeout < 0 || timeout > MAX_WAIT_MS) throw new HttpError(400, `timeoutMs: 0..${MAX_WAIT_MS}`);
        const filter = (b.filter ?? {}) as Record<string, unknown>;
        if (typeof filter !== 'object' || Array.isArray(filter)) throw new HttpError(400, 'filter must be an object');
        if (b.kind === 'attempt') {
          const a = await sink.waitForAttempt(attemptFilterFrom(filter), { timeout, signal: ctx.signal });
          send(ctx.res, 200, { attempt: a });
        } else {
          const m = await sink.waitFor(messageFilterFrom(filter), { timeout, signal: ctx.signal });
          send(ctx.res, 200, { message: m.summary() });
        }
      },
    ],
    ['GET', /^\/sink\/v1\/faults$/, async ({ res }) => send(res, 200, { rules: sink.faults.list() })],
    ['POST', /^\/sink\/v1\/faults$/, async (ctx) => send(ctx.res, 201, sink.faults.add((await object(ctx)) as never))],
    [
      'DELETE',
      /^\/sink\/v1\/faults$/,
      async ({ res }) => {
        sink.faults.clear();
        send(res, 200, { rules: [] });
      },
    ],
    [
      'DELETE',
      /^\/sink\/v1\/faults\/([^/]+)$/,
      async ({ res, params }) => {
        if (!sink.faults.remove(params[0]!)) throw new HttpError(404, `fault rule ${params[0]} not found`);
        send(res, 200, { removed: params[0] });
      },
    ],
    ['GET', /^\/sink\/v1\/users$/, async ({ res }) => send(res, 200, { users: sink.users() })],
    [
      'POST',
      /^\/sink\/v1\/users$/,
      async (ctx) => {
        const b = await object(ctx);
        if (typeof b.address !== 'string') throw new HttpError(400, 'address is required');
        if (b.password !== undefined && typeof b.password !== 'string') throw new HttpError(400, 'password must be a string');
        send(ctx.res, 201, await sink.addUser(b.address, b.password as string | undefined));
      },
    ],
    [
      'DELETE',
      /^\/sink\/v1\/users\/([^/]+)$/,
      async ({ res, params }) => {
        if (!(await sink.removeUser(params[0]!))) throw new HttpError(404, `user ${params[0]} not found`);
        send(res, 200, { removed: params[0] });
      },
    ],
    [
      'PUT',
      /^\/sink\/v1\/users\/([^/]+)\/imap-refusal$/,
      async (ctx) => {
        const b = await object(ctx);
        const r = b.refusal ?? null;
        if (r !== null && r !== 'wrong-password' && r !== 'disabled') throw new HttpError(400, 'refusal: expected "wrong-password", "disabled" or null');
        await sink.faults.imapLogin(ctx.params[0]!, r);
        send(ctx.res, 200, { address: ctx.params[0]!.toLowerCase(), imapRefusal: r });
      },
    ],
    ['POST', /^\/sink\/v1\/inject\/reply$/, inject('reply')],
    ['POST', /^\/sink\/v1\/inject\/bounce$/, inject('bounce')],
    ['POST', /^\/sink\/v1\/inject\/out-of-office$/, inject('outOfOffice')],
    ['POST', /^\/sink\/v1\/inject\/unsubscribe$/, inject('unsubscribe')],
    [
      'POST',
      /^\/sink\/v1\/reset$/,
      async ({ res }) => {
        await sink.reset();
        send(res, 200, { reset: true });
      },
    ],
    // --- Mailpit API v1, read subset ---
    [
      'GET',
      /^\/api\/v1\/messages$/,
      async ({ res, url }) => {
        const { start, limit } = paging(url);
        const all = sink.messages();
        send(res, 200, await messagesSummary(all, all, start, limit));
      },
    ],
    [
      'DELETE',
      /^\/api\/v1\/messages$/,
      async (ctx) => {
        const b = (await ctx.body()) as { IDs?: unknown };
        const ids = b && Array.isArray(b.IDs) && b.IDs.length > 0 ? b.IDs.map(String) : undefined;
        deleted += ids ? ids.filter((id) => sink.message(id)).length : sink.messages().length;
        sink.deleteMessages(ids);
        send(ctx.res, 200, 'ok', 'text/plain; charset=utf-8');
      },
    ],
    [
      'GET',
      /^\/api\/v1\/search$/,
      async ({ res, url }) => {
        const query = url.searchParams.get('query');
        if (!query) throw new HttpError(400, 'query is required');
        const { start, limit } = paging(url);
        send(res, 200, await messagesSummary(sink.messages(), await searched(query), start, limit));
      },
    ],
    [
      'GET',
      /^\/api\/v1\/message\/([^/]+)$/,
      async ({ res, params }) => {
        const m = msg(params[0]!);
        markRead(m);
        send(res, 200, await fullMessage(m));
      },
    ],
    ['GET', /^\/api\/v1\/message\/([^/]+)\/headers$/, async ({ res, params }) => send(res, 200, headersObject(msg(params[0]!)))],
    ['GET', /^\/api\/v1\/message\/([^/]+)\/raw$/, async ({ res, params }) => send(res, 200, msg(params[0]!).raw, 'text/plain; charset=utf-8')],
    [
      'GET',
      /^\/api\/v1\/info$/,
      async ({ res }) => {
        const attempts = sink.attempts();
        send(res, 200, appInformation({ version: `${KIT.name} sink ${KIT.version}`, messages: sink.messages(), accepted: attempts.filter((a) => a.outcome === 'accepted'), rejected: attempts.filter((a) => a.outcome === 'rejected').length, deleted, startedAt }));
      },
    ],
    [
      'PUT',
      /^\/api\/v1\/messages$/,
      async (ctx) => {
        const b = await object(ctx);
        if (b.Read !== undefined && typeof b.Read !== 'boolean') throw new HttpError(400, 'Read: expected a boolean');
        if (b.IDs !== undefined && !Array.isArray(b.IDs)) throw new HttpError(400, 'IDs: expected an array of message IDs');
        if (b.Search !== undefined && typeof b.Search !== 'string') throw new HttpError(400, 'Search: expected a search string');
        const ids = Array.isArray(b.IDs) && b.IDs.length ? b.IDs.map(String) : undefined;
        const targets = ids ? ids.map((id) => msg(id)) : b.Search ? await searched(b.Search as string) : sink.messages();
        for (const m of targets) setRead(m, b.Read === true);
        send(ctx.res, 200, 'ok', 'text/plain; charset=utf-8');
      },
    ],
    [
      'DELETE',
      /^\/api\/v1\/search$/,
      async ({ res, url }) => {
        const query = url.searchParams.get('query');
        if (!query) throw new HttpError(400, 'query is required');
        const ids = (await searched(query)).map((m) => m.id);
        if (ids.length) sink.deleteMessages(ids);
        deleted += ids.length;
        send(res, 200, 'ok', 'text/plain; charset=utf-8');
      },
    ],
    [
      'GET',
      /^\/api\/v1\/message\/([^/]+)\/part\/([^/]+)$/,
      async ({ res, params }) => {
        const part = await partOf(msg(params[0]!), params[1]!);
        if (!part) throw new HttpError(404, `message ${params[0]} has no part ${params[1]}`);
        send(res, 200, part.content, part.contentType);
      },
    ],
    [
      'GET',
      /^\/view\/([^/]+)\.(html|txt)$/,
      async ({ res, params }) => {
        const p = await msg(params[0]!).parsed();
        const body = params[1] === 'html' ? p.html : p.text;
        if (body === null) throw new HttpError(404, `message ${params[0]} has no ${params[1] === 'html' ? 'HTML' : 'text'} part`);
        send(res, 200, body, params[1] === 'html' ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8');
      },
    ],
  ];
}

function paging(url: URL): { start: number; limit: number } {
  const start = Number(url.searchParams.get('start') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 50);
  if (!Number.isInteger(start) || start < 0) throw new HttpError(400, 'start: expected a non-negative integer');
  if (!Number.isInteger(limit) || limit < 0) throw new HttpError(400, 'limit: expected a non-negative integer');
  return { start, limit: limit === 0 ? 50 : limit };
}

export function startSinkHttp(sink: SinkInternals, opts: { host: string; port?: number; onActivity?: () => void }): Promise<SinkHttpServer> {
  const table = routes(sink);
  const mailpitPath = /^\/api\/v1\//;
  const server = http.createServer((req, res) => {
    opts.onActivity?.();
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    void (async () => {
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
          await handler({ req, res, url, params, body: () => (bodyPromise ??= readBody(req)), signal: ac.signal });
        } catch (err) {
          const e = err as Error;
          const status =
            e instanceof HttpError || e instanceof InjectError || e instanceof UserError ? e.status : e instanceof FaultRuleError ? 400 : e instanceof WaitTimeoutError ? 408 : 500;
          if (mailpitPath.test(path)) send(res, status, e.message, 'text/plain; charset=utf-8');
          else send(res, status, { error: e.message });
        }
        return;
      }
      if (allowed) send(res, 405, { error: `method ${req.method} not allowed on ${path}` });
      else send(res, 404, { error: `no route ${req.method} ${path}` });
    })();
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  server.keepAliveTimeout = 5000;
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
