import { Pool } from 'undici';

// The load generator's HTTP transport: one undici Pool per origin with enough connections that
// an open-model schedule never queues inside the client (a queued request would hide the
// target's latency in the generator). Bodies are read whole: latency ends with the last byte.

export interface LoadRequest {
  method: string;
  /** path with query, e.g. "/v1/campaigns?limit=50" */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface Transport {
  send(req: LoadRequest): Promise<LoadResponse>;
  /** requests waiting for a free connection right now */
  queued(): number;
  close(): Promise<void>;
}

export function createTransport(baseUrl: string, opts: { connections?: number; timeoutMs?: number } = {}): Transport {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, {
    connections: opts.connections ?? 512,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: opts.timeoutMs ?? 30_000,
    bodyTimeout: opts.timeoutMs ?? 30_000,
  });
  return {
    async send(req) {
      const res = await pool.request({
        method: req.method as 'GET',
        path: `${prefix}${req.path}`,
        headers: { accept: 'application/json', ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers },
        body: req.body,
      });
      const text = await res.body.text();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers, text };
    },
    queued: () => pool.stats.pending,
    close: () => pool.close(),
  };
}
