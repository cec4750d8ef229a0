import { Pool, type Dispatcher } from 'undici';

// The load generator's HTTP transport: one undici Pool per origin with enough connections that
// an open-model schedule never queues inside the client (a queued request would hide the
// target's latency in the generator). Bodies are read whole: latency ends with the last byte.
//
// Requests go through `pool.dispatch` with a plain handler object rather than `pool.request`:
// request() wraps every response in an async resource and a Readable body stream, which cost
// more CPU than the rest of the request (the generator's CPU is what caps the rate one machine
// offers). The handler keeps the raw chunks and headers; headers are parsed only when read.

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

/** Raw header pairs (name, value, name, value...) as a record: names lower-cased, repeats joined. */
export function headerRecord(raw: readonly Buffer[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
  }
  return out;
}

class Response implements LoadResponse {
  #headers: Record<string, string> | undefined;
  constructor(
    readonly status: number,
    private readonly raw: Buffer[],
    readonly text: string,
  ) {}
  get headers(): Record<string, string> {
    return (this.#headers ??= headerRecord(this.raw));
  }
}

/** Collects one response (undici's dispatch handler) and settles the send's promise with it. */
class ResponseReader implements Dispatcher.DispatchHandler {
  private status = 0;
  private raw: Buffer[] = [];
  private chunks: Buffer[] = [];
  constructor(
    private readonly resolve: (r: LoadResponse) => void,
    private readonly reject: (e: Error) => void,
  ) {}
  onConnect(): void {}
  onHeaders(status: number, raw: Buffer[]): boolean {
    // 1xx informational answers come first and carry no body: the last call holds the response.
    this.status = status;
    this.raw = raw;
    return true;
  }
  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }
  onComplete(): void {
    const c = this.chunks;
    const text = c.length === 0 ? '' : c.length === 1 ? c[0]!.toString('utf8') : Buffer.concat(c).toString('utf8');
    this.resolve(new Response(this.status, this.raw, text));
  }
  onError(err: Error): void {
    this.reject(err);
  }
}

const ACCEPT = { accept: 'application/json' } as const;
const ACCEPT_JSON_BODY = { accept: 'application/json', 'content-type': 'application/json' } as const;

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
    send(req) {
      const defaults = req.body === undefined ? ACCEPT : ACCEPT_JSON_BODY;
      const options: Dispatcher.DispatchOptions = {
        method: req.method as Dispatcher.HttpMethod,
        path: prefix === '' ? req.path : `${prefix}${req.path}`,
        headers: req.headers === undefined ? defaults : { ...defaults, ...req.headers },
        body: req.body,
      };
      return new Promise((resolve, reject) => {
        pool.dispatch(options, new ResponseReader(resolve, reject));
      });
    },
    queued: () => pool.stats.pending,
    close: () => pool.close(),
  };
}
