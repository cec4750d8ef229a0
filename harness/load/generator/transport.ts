import type { ConnectionOptions } from 'node:tls';
import { Http1Pool } from './http1-pool.ts';

// The load generator's HTTP transport: keep-alive HTTP/1.1 connections of its own (http1-pool.ts),
// enough of them that an open-model schedule never queues inside the client (a queued request
// would hide the target's latency in the generator). Bodies are read whole: latency ends with the
// last byte.
//
// Why not undici: the generator's CPU per request is what caps the rate one machine offers and
// what it takes from a target on the same host. undici's pool writes a request on a reused
// socket on a later turn of the event loop (one more wake-up a request) and does more per request
// than a generator needs; this client writes in the call that sends, parses one header block,
// and leaves headers unparsed until someone reads them.

export interface LoadRequest {
  method: string;
  /** path with query, e.g. "/v1/campaigns?limit=50" */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResponse {
  status: number;
  /** lower-cased names; repeated headers joined with ", " */
  readonly headers: Record<string, string>;
  text: string;
}

export interface Transport {
  send(req: LoadRequest): Promise<LoadResponse>;
  /** requests waiting for a free connection right now */
  queued(): number;
  close(): Promise<void>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const PATH = /^\/[\x21-\xff]*$/;
/** set by the transport from the request itself */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** The request line and header block, ending with the empty line. Throws on what would break the framing. */
export function requestHead(method: string, path: string, host: string, req: LoadRequest): string {
  if (!TOKEN.test(method)) throw new Error(`bad HTTP method: ${JSON.stringify(method)}`);
  if (!PATH.test(path)) throw new Error(`bad request path (absolute, no spaces or control characters): ${JSON.stringify(path)}`);
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
  let accept = false;
  let type = false;
  const h = req.headers;
  if (h) {
    for (const name in h) {
      const value = h[name]!;
      const lower = name.toLowerCase();
      if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) throw new Error(`bad header: ${JSON.stringify(name)}`);
      if (OWN_HEADERS.has(lower)) throw new Error(`header ${name} is the transport's to set`);
      if (lower === 'accept') accept = true;
      else if (lower === 'content-type') type = true;
      head += `${name}: ${value}\r\n`;
    }
  }
  if (!accept) head += 'accept: application/json\r\n';
  if (req.body !== undefined) {
    if (!type) head += 'content-type: application/json\r\n';
    head += `content-length: ${Buffer.byteLength(req.body)}\r\n`;
  } else if (WITH_BODY.has(method)) head += 'content-length: 0\r\n';
  return `${head}\r\n`;
}

export interface TransportOptions {
  /** most connections at once (default 512) */
  connections?: number;
  /** a request fails after this long without a byte of its answer (default 30 s) */
  timeoutMs?: number;
  /** TLS trust for an https base URL (default: Node's CA store, NODE_EXTRA_CA_CERTS included) */
  tls?: Pick<ConnectionOptions, 'ca' | 'rejectUnauthorized'>;
}

export function createTransport(baseUrl: string, opts: TransportOptions = {}): Transport {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the load generator speaks http and https, not ${url.protocol}`);
  const prefix = url.pathname.replace(/\/+$/, '');
  const pool = new Http1Pool(url, { connections: opts.connections ?? 512, timeoutMs: opts.timeoutMs ?? 30_000, idleMs: 4_000, tls: opts.tls });
  return {
    send(req) {
      return new Promise((resolve, reject) => {
        const wire = requestHead(req.method, prefix === '' ? req.path : `${prefix}${req.path}`, url.host, req);
        pool.dispatch({ method: req.method, wire, body: req.body, resolve, reject });
      });
    },
    queued: () => pool.queued(),
    close: () => pool.close(),
  };
}
