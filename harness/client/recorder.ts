// Recording: every exchange (request + response, or request + transport error) becomes one
// ExchangeEvent, redacted before it is emitted, with a curl line that reproduces it.
//
// Curl lines and secrets: a secret registered with an environment variable name (the client's
// API keys -> OUTREACH_API_KEY, the control token -> OUTREACH_CONTROL_TOKEN) is written as a
// shell variable, outside the single quotes, so the line runs as is after
//
//     export OUTREACH_API_KEY='<the key of the workspace the check used>'
//
// e.g.  curl -sS -g -i -X POST 'http://127.0.0.1:8080/v1/campaigns' \
//         -H 'authorization: Bearer '"$OUTREACH_API_KEY" -H 'content-type: application/json' \
//         --data-raw '{"name":"x"}'
// Every other secret (mailbox passwords, keys seen in bodies) is written as "[REDACTED]": the
// line then reproduces the request's shape but not that value.

import type { EventSink, ExchangeEvent, RecordedRequest } from '../ground/events.ts';
import { REDACTED, Redactor, redactCredential } from './redact.ts';

export const MAX_BODY_BYTES = 64 * 1024;
export const DEFAULT_KEY_ENV = 'OUTREACH_API_KEY';
export const CONTROL_TOKEN_ENV = 'OUTREACH_CONTROL_TOKEN';

/** Truncates text to 64 KiB (UTF-8 bytes), appending a marker that gives the full size. */
export function truncateBody(text: string, maxBytes = MAX_BODY_BYTES): string {
  if (text.length <= maxBytes / 4) return text; // fast path: cannot exceed in UTF-8
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return text;
  let cut = Buffer.from(text).subarray(0, maxBytes).toString('utf8');
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  return `${cut}\n...[truncated: ${bytes} bytes in total, first ${maxBytes} shown]`;
}

/** A request as it went on the wire (raw, unredacted) or as recorded (redacted). */
export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface CurlOptions {
  /**
   * Redacts a RAW request: registered secrets with an env var become "$VAR", other secrets and
   * sensitive fields "[REDACTED]". Without it the request is taken as already redacted.
   */
  redactor?: Redactor;
  /**
   * For an already-redacted request: the variable written in place of a redacted
   * Authorization credential ("Bearer [REDACTED]" -> 'Bearer '"$OUTREACH_API_KEY").
   * Default OUTREACH_API_KEY.
   */
  authEnvVar?: string;
}

const SKIP_CURL_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive']);
const SENTINEL = (i: number) => `OUTREACHENVSENTINEL${i}Z`;
const SENTINEL_RE = /OUTREACHENVSENTINEL(\d+)Z/g;

/** Single-quotes a string for POSIX shells ('it'\''s'). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl line that reproduces the request: method, URL with query, headers (Idempotency-Key,
 * Content-Type, Authorization...), body sent byte for byte with --data-raw. Secrets: see the
 * file comment. Host/Content-Length/Connection are left to curl.
 */
export function toCurl(request: CurlRequest, opts: CurlOptions = {}): string {
  const { redactor } = opts;
  const authEnvVar = opts.authEnvVar ?? DEFAULT_KEY_ENV;
  const vars: string[] = [];
  const varIndex = new Map<string, number>();
  const sentinelFor = (envVar: string) => {
    let i = varIndex.get(envVar);
    if (i === undefined) {
      i = vars.length;
      vars.push(envVar);
      varIndex.set(envVar, i);
    }
    return SENTINEL(i);
  };
  // Replace env-var secrets by sentinels (plain characters: they survive JSON round trips).
  const withSentinels = (s: string): string => {
    if (!redactor) return s;
    let out = s;
    for (const f of redactor.envVarForms()) {
      if (out.includes(f.form)) out = out.split(f.form).join(sentinelFor(f.envVar));
    }
    return out;
  };
  // Quote a word; sentinels become "$VAR" outside the single quotes.
  const word = (s: string): string => {
    const parts: string[] = [];
    let last = 0;
    for (const m of s.matchAll(SENTINEL_RE)) {
      const idx = m.index ?? 0;
      if (idx > last) parts.push(shellQuote(s.slice(last, idx)));
      parts.push(`"$${vars[Number(m[1])]}"`);
      last = idx + m[0].length;
    }
    if (last < s.length || parts.length === 0) parts.push(shellQuote(s.slice(last)));
    return parts.join('');
  };

  const method = request.method.toUpperCase();
  const hasBody = request.body !== undefined;
  // -i shows the status line and headers of the answer; -g keeps [] and {} in URLs literal.
  const args: string[] = ['curl', '-sS', '-g'];
  if (method === 'HEAD') args.push('-I');
  else {
    args.push('-i');
    if (method !== 'GET' || hasBody) args.push('-X', method);
  }

  let url = withSentinels(request.url);
  if (redactor) url = redactor.url(url);
  args.push(word(url));

  let contentType: string | undefined;
  for (const [rawName, rawValue] of Object.entries(request.headers)) {
    const name = rawName.toLowerCase();
    if (SKIP_CURL_HEADERS.has(name)) continue;
    if (name === 'content-type') contentType = rawValue;
    let value: string;
    if (name === 'authorization' || name === 'proxy-authorization') {
      if (redactor) {
        const v = withSentinels(rawValue);
        value = /OUTREACHENVSENTINEL\d+Z/.test(v) ? redactor.text(v) : redactCredential(rawValue);
      } else if (rawValue.endsWith(REDACTED)) {
        value = rawValue.slice(0, -REDACTED.length) + sentinelFor(authEnvVar);
      } else {
        value = rawValue;
      }
    } else {
      value = redactor ? redactor.headers({ [name]: withSentinels(rawValue) })[name]! : rawValue;
    }
    // curl: "-H 'X:'" removes a header; "-H 'X;'" sends it empty.
    args.push('-H', word(value === '' ? `${name};` : `${name}: ${value}`));
  }
  if (hasBody) {
    let body = withSentinels(request.body!);
    if (redactor) body = redactor.body(body, contentType);
    args.push('--data-raw', word(body));
  }
  return args.join(' ');
}

/** What the client hands the recorder: the RAW exchange; the recorder redacts it. */
export interface ExchangeInput {
  checkId?: string;
  workspace?: number;
  /** 'control' exchanges are recorded but not counted in stats.requests. Default 'api'. */
  kind?: 'api' | 'control';
  startedAt: Date;
  durationMs: number;
  /** Waited on the kit's rate budget before it left (ms). */
  queuedMs?: number;
  request: CurlRequest;
  response?: { status: number; headers: Record<string, string | string[] | undefined>; body?: string };
  error?: string;
}

export interface RecorderStats {
  /** Exchanges with the target (transport failures included); control calls excluded. */
  requests: number;
  /** 429 answers the kit did not mean to provoke. */
  unplanned429: number;
  /** Exchanges with the control API. */
  controlRequests: number;
}

export class Recorder {
  readonly stats: RecorderStats = { requests: 0, unplanned429: 0, controlRequests: 0 };
  private seq = 0;
  private perCheck = new Map<string, number>();

  constructor(
    private readonly sink: EventSink,
    readonly redactor: Redactor = new Redactor(),
  ) {}

  /** Redacts, emits and returns the exchange event. */
  record(x: ExchangeInput): ExchangeEvent {
    const id = `x${String(++this.seq).padStart(6, '0')}`;
    const r = this.redactor;
    const reqHeadersLower = lowerKeys(x.request.headers);
    // The request body first: fields redacted by name are registered as secrets, so their
    // echoes in the URL, response and error are caught below.
    const reqBody = x.request.body !== undefined ? r.body(x.request.body, reqHeadersLower['content-type']) : undefined;
    const respHeadersRaw = x.response ? lowerKeys(x.response.headers) : undefined;
    const respCt = respHeadersRaw?.['content-type'];
    const respBody = x.response?.body !== undefined && x.response.body !== '' ? r.body(x.response.body, Array.isArray(respCt) ? respCt[0] : respCt) : undefined;

    const request: RecordedRequest = {
      method: x.request.method,
      url: r.url(x.request.url),
      headers: r.headers(reqHeadersLower),
    };
    if (reqBody !== undefined) request.body = truncateBody(reqBody);

    const event: ExchangeEvent = {
      type: 'exchange',
      id,
      ...(x.checkId !== undefined ? { checkId: x.checkId } : {}),
      ...(x.workspace !== undefined ? { workspace: x.workspace } : {}),
      startedAt: x.startedAt.toISOString(),
      durationMs: Math.round(x.durationMs * 1000) / 1000,
      ...(x.queuedMs! >= 1 ? { queuedMs: Math.round(x.queuedMs!) } : {}),
      request,
      curl: '',
    };
    if (x.response) {
      event.response = { status: x.response.status, headers: r.headers(respHeadersRaw) };
      if (respBody !== undefined) event.response.body = truncateBody(respBody);
    }
    if (x.error !== undefined) event.error = r.text(x.error);
    const rawBody = x.request.body;
    const tooLong = rawBody !== undefined && Buffer.byteLength(rawBody) > MAX_BODY_BYTES;
    event.curl = toCurl(
      { ...x.request, headers: reqHeadersLower as Record<string, string>, body: tooLong ? undefined : rawBody },
      { redactor: r },
    );
    if (tooLong) event.curl += ` --data-raw '' # request body of ${Buffer.byteLength(rawBody!)} bytes not reproduced`;

    if (x.kind === 'control') this.stats.controlRequests++;
    else {
      this.stats.requests++;
      if (x.checkId !== undefined) this.perCheck.set(x.checkId, (this.perCheck.get(x.checkId) ?? 0) + 1);
    }
    this.sink.emit(event);
    return event;
  }

  noteUnplanned429(): void {
    this.stats.unplanned429++;
  }

  /** Exchanges with the target attributed to this check so far. */
  requestsFor(checkId: string): number {
    return this.perCheck.get(checkId) ?? 0;
  }
}

function lowerKeys<T>(h: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
