// The wire client every check uses to talk to a target (types.ts is its public shape).
//
// - undici: one keep-alive Pool per origin (at most 16 connections), shared by every client
//   and key of that origin; closeAllPools() closes them (CLI exit, tests).
// - Headers sent, in this order (names lower-cased): user-agent, accept: application/json,
//   authorization (`Bearer <key>` by default; none for auth 'none' or a null key; the exact
//   value of auth { header }), content-type: application/json when there is a body,
//   idempotency-key, then req.headers (which override any of the above).
// - Query: undefined skipped, arrays comma-joined, keys and values percent-encoded
//   (encodeURIComponent; the joining commas stay literal).
// - Budget: every request waits for the workspace budget (FIFO) unless rateLimitProbe; probes
//   are counted but not delayed. A client without a budget (anonymous) sends at once.
// - 429 (not a probe): counted in recorder.stats.unplanned429, the budget is paused (or, with
//   no budget, this caller sleeps) for the delay below, then retried, up to maxRetries429
//   (default 3) times; every attempt is its own recorded exchange. Delay: Retry-After (seconds
//   or HTTP date), else the body's error.retryAfter, else 1 s, 2 s, 4 s...; on a repeated 429
//   at least that exponential step (spec part 8: back off exponentially); capped at 60 s;
//   plus up to 10 % jitter. A probe's 429 is returned as is (and not counted as unplanned), and
//   so is a quota's 429 (isQuota429: its Retry-After lies beyond the rate window, or its
//   X-RateLimit-Remaining is above 0): a daily quota is not waited out.
// - Timeout (default 30 s, req.timeoutMs) covers the whole exchange, body included; a timeout
//   or transport failure is recorded (event.error) and thrown as a TransportError naming the
//   method, the URL and the exchange id.

import { Pool } from 'undici';
import type { ApiClient, ApiRequest, ApiResponse, Query } from '../ground/api-client.ts';
import type { TypedFailure } from '../ground/failure.ts';
import { RateBudget } from './budget.ts';
import { DEFAULT_KEY_ENV, Recorder } from './recorder.ts';

export const KIT_USER_AGENT = 'outreach-conformance/0.1.0';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES_429 = 3;
export const MAX_429_DELAY_MS = 60_000;
export const POOL_CONNECTIONS = 16;

export interface ClientOptions {
  baseUrl: string;
  key: string | null;
  budget?: RateBudget;
  recorder: Recorder;
  checkId?: string;
  /** The pool index of the workspace this client's keys belong to (tags its exchanges). */
  workspace?: number;
  /** That workspace's organization id, where known. */
  organizationId?: string;
  userAgent?: string;
  maxRetries429?: number;
  /** Default per-request timeout in ms (30 000). */
  timeoutMs?: number;
  /** Shell variable the curl lines use for this client's key (default OUTREACH_API_KEY). */
  keyEnvVar?: string;
  /** Sleep used when a 429 must be waited out without a budget (tests). */
  sleep?: (ms: number) => Promise<void>;
  /** Random source for the 429 jitter (tests). */
  random?: () => number;
}

/** A timeout or a transport failure (connection refused, reset, bad response). */
export class TransportError extends Error {
  constructor(
    message: string,
    public readonly exchangeId: string,
    public readonly method: string,
    public readonly url: string,
    options?: { cause?: unknown; timedOut?: boolean },
  ) {
    super(message, options);
    this.name = 'TransportError';
    this.timedOut = options?.timedOut === true;
    const code = (options?.cause as { code?: unknown; cause?: { code?: unknown } } | undefined)?.code ?? (options?.cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    this.typed = { kind: 'transport', fields: { failure: this.timedOut ? 'timeout' : typeof code === 'string' ? code : 'failed' } };
  }

  /** No answer came within the request's timeout (the kit stopped waiting). */
  readonly timedOut: boolean;
  /** Its cause as data (harness/ground/failure.ts): the report groups by it, not by the URL. */
  readonly typed: TypedFailure;
}

const pools = new Map<string, Pool>();

function poolFor(origin: string): Pool {
  let p = pools.get(origin);
  if (!p || p.closed || p.destroyed) {
    p = new Pool(origin, { connections: POOL_CONNECTIONS, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });
    pools.set(origin, p);
  }
  return p;
}

/** Closes every shared connection pool (call once when a run ends). */
export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close().catch(() => p.destroy())));
}

/** "a=1&tags=x,y": undefined skipped, arrays comma-joined, percent-encoded. */
export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.map((x) => encodeURIComponent(String(x))).join(',') : encodeURIComponent(String(v));
    parts.push(`${encodeURIComponent(k)}=${value}`);
  }
  return parts.join('&');
}

/** Joins the base URL's path, the request path and the query. */
export function buildUrl(baseUrl: string, path: string, query?: Query): URL {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const p = path.startsWith('/') ? path : `/${path}`;
  const qs = buildQuery(query);
  const joined = `${basePath}${p}`;
  const full = qs ? `${joined}${joined.includes('?') ? '&' : '?'}${qs}` : joined;
  return new URL(`${base.origin}${full}`);
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    void contentType;
    return undefined;
  }
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** The wait a 429 asks for (ms): Retry-After (seconds or HTTP date), else the body's error.retryAfter; undefined when it names none. */
export function retryHintMs(res: { headers: Record<string, string>; body: any }, nowMs = Date.now()): number | undefined {
  const ra = res.headers['retry-after']?.trim();
  if (ra) {
    if (/^\d+(\.\d+)?$/.test(ra)) return Number(ra) * 1000;
    const at = Date.parse(ra);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  const b = res.body?.error?.retryAfter;
  return typeof b === 'number' && Number.isFinite(b) && b >= 0 ? b * 1000 : undefined;
}

/** How long to wait before retrying a 429 (ms, before jitter). `attempt` is 0 for the first. */
export function retryDelayMs(res: { headers: Record<string, string>; body: any }, attempt: number, nowMs = Date.now()): number {
  const hinted = retryHintMs(res, nowMs);
  const backoff = 1000 * 2 ** attempt;
  const delay = hinted === undefined ? backoff : attempt === 0 ? hinted : Math.max(hinted, backoff);
  return Math.min(delay, MAX_429_DELAY_MS);
}

/** Part 8's rate window, for a client that keeps no budget of its own. */
export const SPEC_RATE_WINDOW_MS = 60_000;

/**
 * A 429 that is a quota, not the rate limit (part 8 gives daily quotas, such as 12 test emails a
 * day, but no status for their refusal): its Retry-After lies beyond the rate window, or its
 * X-RateLimit-Remaining says the window still has room. Waiting it out would take hours.
 */
export function isQuota429(res: { status: number; headers: Record<string, string>; body: any }, windowMs = SPEC_RATE_WINDOW_MS, nowMs = Date.now()): boolean {
  if (res.status !== 429) return false;
  const remaining = Number(res.headers['x-ratelimit-remaining']);
  if (res.headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining) && remaining > 0) return true;
  const hint = retryHintMs(res, nowMs);
  return hint !== undefined && hint > windowMs;
}

interface SendContext {
  baseUrl: string;
  recorder: Recorder;
  checkId?: string;
  workspace?: number;
  kind: 'api' | 'control';
  userAgent: string;
  /** The value of Authorization for auth 'key' (undefined: none). */
  authValue?: string;
  defaultTimeoutMs: number;
}

/** A connection closed under the request before any answer came (undici's socket error, a reset, a broken pipe). */
function closedBeforeAnswer(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(err?.code ?? err?.cause?.code ?? '');
}

/** One exchange on the wire, recorded. Throws TransportError on timeout / transport failure. */
export async function sendOnce(ctx: SendContext, req: ApiRequest, queuedMs?: number): Promise<ApiResponse> {
  const method = req.method.toUpperCase();
  const url = buildUrl(ctx.baseUrl, req.path, req.query);
  const headers: Record<string, string> = { 'user-agent': ctx.userAgent, accept: 'application/json' };
  const auth = req.auth ?? 'key';
  if (auth === 'key') {
    if (ctx.authValue !== undefined) headers.authorization = ctx.authValue;
  } else if (auth !== 'none') {
    headers.authorization = auth.header;
  }
  let body: string | undefined;
  if (req.rawBody !== undefined) body = req.rawBody;
  else if (req.body !== undefined) body = JSON.stringify(req.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;

  const timeoutMs = req.timeoutMs ?? ctx.defaultTimeoutMs;
  const ac = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort(new Error(`timeout after ${timeoutMs} ms`));
  }, timeoutMs);
  const startedAt = new Date();
  const t0 = performance.now();
  const recordedRequest = { method, url: url.href, headers, ...(body !== undefined ? { body } : {}) };
  const send = () =>
    poolFor(url.origin).request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: method as any,
      headers,
      body,
      signal: ac.signal,
      headersTimeout: timeoutMs + 1000,
      bodyTimeout: timeoutMs + 1000,
    });
  try {
    // A kept-alive connection the target closed as idle while the request left (a busy machine
    // delays the pool's own timer past the target's) fails before any answer: once more, on the
    // next connection. A target that drops the request itself drops it again.
    const res = await send().catch((e: unknown) => {
      if (timedOut || !closedBeforeAnswer(e)) throw e;
      return send();
    });
    const text = await res.body.text();
    const durationMs = performance.now() - t0;
    const resHeaders = flatHeaders(res.headers);
    const ev = ctx.recorder.record({
      checkId: ctx.checkId,
      workspace: ctx.workspace,
      kind: ctx.kind,
      startedAt,
      durationMs,
      queuedMs,
      request: recordedRequest,
      response: { status: res.statusCode, headers: resHeaders, body: text },
    });
    return {
      status: res.statusCode,
      headers: resHeaders,
      body: parseBody(text, resHeaders['content-type']),
      text,
      exchangeId: ev.id,
      durationMs,
    };
  } catch (err) {
    const durationMs = performance.now() - t0;
    const cause = err as { message?: string; code?: string; cause?: { code?: string; message?: string } };
    const detail = timedOut
      ? `timed out after ${timeoutMs} ms`
      : `failed: ${[cause?.code ?? cause?.cause?.code, cause?.message ?? String(err)].filter(Boolean).join(' ')}`;
    const message = `${method} ${url.href} ${detail}`;
    const ev = ctx.recorder.record({
      checkId: ctx.checkId,
      workspace: ctx.workspace,
      kind: ctx.kind,
      startedAt,
      durationMs,
      queuedMs,
      request: recordedRequest,
      error: message,
    });
    const r = ctx.recorder.redactor;
    throw new TransportError(`${r.text(message)} (exchange ${ev.id})`, ev.id, method, r.url(url.href), { cause: err, timedOut });
  } finally {
    clearTimeout(timer);
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class Client implements ApiClient {
  readonly baseUrl: string;
  private readonly ctx: SendContext;

  constructor(private readonly opts: ClientOptions) {
    this.baseUrl = opts.baseUrl;
    const keyEnvVar = opts.keyEnvVar ?? DEFAULT_KEY_ENV;
    if (opts.key !== null) opts.recorder.redactor.add(opts.key, keyEnvVar);
    this.ctx = {
      baseUrl: opts.baseUrl,
      recorder: opts.recorder,
      checkId: opts.checkId,
      workspace: opts.workspace,
      kind: 'api',
      userAgent: opts.userAgent ?? KIT_USER_AGENT,
      authValue: opts.key === null ? undefined : `Bearer ${opts.key}`,
      defaultTimeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
  }

  get key(): string | null {
    return this.opts.key;
  }

  get budget(): RateBudget | undefined {
    return this.opts.budget;
  }

  get recorder(): Recorder {
    return this.opts.recorder;
  }

  get checkId(): string | undefined {
    return this.opts.checkId;
  }

  get organizationId(): string | undefined {
    return this.opts.organizationId;
  }

  async request(req: ApiRequest): Promise<ApiResponse> {
    const { budget, recorder } = this.opts;
    const maxRetries = this.opts.maxRetries429 ?? DEFAULT_MAX_RETRIES_429;
    const sleep = this.opts.sleep ?? realSleep;
    const random = this.opts.random ?? Math.random;
    const earlier: string[] = [];
    for (let attempt = 0; ; attempt++) {
      const asked = performance.now();
      const settle = budget ? (req.rateLimitProbe ? budget.note() : await budget.acquire()) : undefined;
      let res: ApiResponse;
      try {
        res = await sendOnce(this.ctx, req, performance.now() - asked);
      } finally {
        settle?.();
      }
      if (earlier.length) res.retriedFrom = [...earlier];
      if (res.status !== 429 || req.rateLimitProbe) return res;
      // A quota's refusal is an answer, not back-pressure: returned at once, never retried.
      if (isQuota429(res, budget?.windowMs ?? SPEC_RATE_WINDOW_MS, budget ? budget.now() : Date.now())) return res;
      recorder.noteUnplanned429();
      if (attempt >= maxRetries) return res;
      earlier.push(res.exchangeId);
      const base = retryDelayMs(res, attempt, budget ? budget.now() : Date.now());
      const delay = Math.round(base * (1 + 0.1 * random()));
      if (budget) budget.pause(budget.now() + delay);
      else await sleep(delay);
    }
  }

  get(path: string, query?: Query, opts?: Partial<ApiRequest>): Promise<ApiResponse> {
    return this.request({ ...opts, method: 'GET', path, query: query ?? opts?.query });
  }

  post(path: string, body?: unknown, opts?: Partial<ApiRequest>): Promise<ApiResponse> {
    return this.request({ ...opts, method: 'POST', path, ...(body !== undefined ? { body } : {}) });
  }

  patch(path: string, body?: unknown, opts?: Partial<ApiRequest>): Promise<ApiResponse> {
    return this.request({ ...opts, method: 'PATCH', path, ...(body !== undefined ? { body } : {}) });
  }

  put(path: string, body?: unknown, opts?: Partial<ApiRequest>): Promise<ApiResponse> {
    return this.request({ ...opts, method: 'PUT', path, ...(body !== undefined ? { body } : {}) });
  }

  delete(path: string, opts?: Partial<ApiRequest>): Promise<ApiResponse> {
    return this.request({ ...opts, method: 'DELETE', path });
  }

  withKey(key: string | null): ApiClient {
    return new Client({ ...this.opts, key });
  }

  forCheck(checkId: string): ApiClient {
    return new Client({ ...this.opts, checkId });
  }
}

/** The wire client. See the file comment for headers, budget, 429 and timeout behaviour. */
export function createClient(opts: ClientOptions): ApiClient {
  return new Client(opts);
}
