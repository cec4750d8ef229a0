// What the sink's HTTP routes share: a route's shape, the request context a handler gets, the
// error carrying a status, writing an answer, and reading a JSON object body or a message by id.
import type http from 'node:http';
import type { StoredMessage } from './message.ts';
import type { SinkInternals } from './sink-types.ts';

/** An error answered with its status (and its message as the error text). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  /** The pattern's groups, URI-decoded. */
  params: string[];
  body: () => Promise<unknown>;
  signal: AbortSignal;
}

export type Handler = (ctx: Ctx) => Promise<void>;

/** One route: its method, its path pattern (anchored) and what answers it. */
export type Route = [method: string, pattern: RegExp, handler: Handler];

/** A route table written once: each handler takes the state its routes share (the sink, counters) first. */
export type RouteTable<S> = readonly (readonly [method: string, pattern: RegExp, handler: (state: S, ctx: Ctx) => Promise<void>])[];

/** The table's routes over one state. */
export function bindRoutes<S>(table: RouteTable<S>, state: S): Route[] {
  return table.map(([method, pattern, handler]): Route => [method, pattern, (ctx) => handler(state, ctx)]);
}

export function send(res: http.ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  if (res.headersSent) return;
  const data = Buffer.isBuffer(body) ? body : type === 'application/json' ? Buffer.from(JSON.stringify(body)) : Buffer.from(String(body));
  res.writeHead(status, { 'content-type': type === 'application/json' ? 'application/json; charset=utf-8' : type, 'content-length': data.length });
  res.end(data);
}

/** The request body, which must be a JSON object (400 otherwise). */
export async function objectBody(ctx: Ctx): Promise<Record<string, unknown>> {
  const b = await ctx.body();
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new HttpError(400, 'request body must be a JSON object');
  return b as Record<string, unknown>;
}

/** The message with this sink id (`latest`: the newest one), 404 when there is none. */
export function messageOr404(sink: SinkInternals, id: string): StoredMessage {
  const m = id === 'latest' ? sink.store.latest() : sink.message(id);
  if (!m) throw new HttpError(404, id === 'latest' ? 'no messages' : `message ${id} not found`);
  return m;
}
