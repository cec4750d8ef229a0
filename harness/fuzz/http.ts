// Hostile HTTP/1.1 requests as data (so a failing one prints and replays): bad methods, paths
// built from a server's own route templates with garbage in them, odd headers, wrong lengths,
// bodies that are random, deep (thousands of levels), huge (past the server's limit), truncated
// or slow (bounded), and connections cut midway. `toParts` turns one into bytes on the wire.
import fc from 'fast-check';
import type { Ending, HttpAnswer, Part } from './wire.ts';
import { exchange, parseHttpAnswer } from './wire.ts';
import { Finding } from './core.ts';

/** Replaced at send time with one of the target's real ids (to reach past the 404s). */
export const KNOWN_ID = '@@ID@@';
/** Replaced at send time with a valid credential of the target. */
export const VALID_AUTH = '@@AUTH@@';

export type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'deep'; depth: number; open: '[' | '{' | 'mixed'; close: boolean }
  | { kind: 'huge'; bytes: number; json: boolean }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array };

export type Length = 'exact' | 'missing' | 'short' | 'long' | 'chunked' | 'bad-chunked' | 'negative' | 'twice';
export type Delivery = 'whole' | 'slow' | 'split';

export type HttpInput =
  | { kind: 'raw'; bytes: Uint8Array; ending: Ending }
  | { kind: 'request'; method: string; path: string; headers: [string, string][]; body: Body; length: Length; delivery: Delivery; ending: Ending };

const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,24}$/);
const uuid = fc.uuid();
const garbageSegment = fc.oneof(
  fc.constant(KNOWN_ID),
  uuid,
  fc.constantFrom('..', '.', '%2e%2e%2f', '..%2F..%2Fetc%2Fpasswd', '%00', '%', '%zz', '%E0%A4%A', '-1', '0', 'null', 'undefined', '__proto__', 'constructor', ''),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.integer({ min: 2000, max: 9000 }).map((n) => 'a'.repeat(n)),
);

/** A path from a template (`/v1/campaigns/{id}`): params filled with ids, garbage or real ids; sometimes cut, doubled or suffixed. */
function pathFrom(templates: readonly string[]): fc.Arbitrary<string> {
  const filled = fc.tuple(fc.constantFrom(...templates), fc.array(garbageSegment, { minLength: 4, maxLength: 4 })).map(([t, fills]) => {
    let i = 0;
    return t.replace(/\{[^}]+\}/g, () => fills[i++ % fills.length]!);
  });
  const query = fc.oneof(
    fc.constant(''),
    fc.array(fc.tuple(fc.constantFrom('limit', 'cursor', 'status', 'tags', 'query', 'start', 'since', 'state', 'startDate', fc.sample(token, 1)[0]!), fc.oneof(fc.string({ maxLength: 30 }).map(encodeURIComponent), fc.constantFrom('-1', '1e309', 'NaN', '0x10', '%', '1.5', 'true', ''))), { maxLength: 6 }).map(
      (kv) => (kv.length ? `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}` : ''),
    ),
  );
  const shaped = fc.tuple(filled, fc.constantFrom('as-is', 'as-is', 'as-is', 'trailing-slash', 'double-slash', 'suffix', 'cut', 'upper'), query).map(([p, how, q]) => {
    if (how === 'trailing-slash') return `${p}/${q}`;
    if (how === 'double-slash') return `${p.replace('/', '//')}${q}`;
    if (how === 'suffix') return `${p}/extra${q}`;
    if (how === 'cut') return `${p.slice(0, Math.max(1, p.lastIndexOf('/')))}${q}`;
    if (how === 'upper') return `${p.toUpperCase()}${q}`;
    return `${p}${q}`;
  });
  return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: fc.constantFrom('*', '/', 'http://evil.test/x', '/%', '//', '/?', '/#frag') }, { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => `/${s}`) });
}

const methods = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE') },
  { weight: 2, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'get', 'Post', 'PROPFIND', 'M-SEARCH') },
  { weight: 1, arbitrary: token },
);

const headerPairs = (authHeaders: boolean) =>
  fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.tuple(fc.constant('authorization'), fc.oneof(fc.constant(VALID_AUTH), fc.constant(VALID_AUTH), fc.constantFrom('Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', 'bearer x y'), token.map((t) => `Bearer ${t}`))) },
      { weight: 3, arbitrary: fc.tuple(fc.constant('content-type'), fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '', 'application/json; charset=utf-16')) },
      { weight: 4, arbitrary: fc.tuple(fc.constant('idempotency-key'), fc.oneof(token, token, fc.constant(''), fc.integer({ min: 250, max: 300 }).map((n) => 'k'.repeat(n)))) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('expect', 'connection', 'transfer-encoding', 'accept-encoding', 'x-forwarded-for', 'host'), fc.constantFrom('100-continue', 'close', 'keep-alive', 'gzip', 'identity', 'chunked, identity', '127.0.0.1')) },
      { weight: 2, arbitrary: fc.tuple(token, fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' '))) },
      { weight: 1, arbitrary: fc.tuple(fc.constant('x-huge'), fc.integer({ min: 9_000, max: 90_000 }).map((n) => 'h'.repeat(n))) },
    ),
    { maxLength: authHeaders ? 5 : 3 },
  );

/** JSON values a handler may meet: known field names with wrong types, prototype keys, unicode edge cases, real ids. */
function jsonBody(fields: readonly string[]): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(KNOWN_ID, '\u0000', '\ud800', '\u202e', '\ufeff', '1e309', '-0', 'NaN', '2026-02-30T25:61:00Z', 'not-an-email', 'a'.repeat(300)),
    fc.double(),
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, 0.1, -1, 0, 86_400 * 365 * 1e6),
  );
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '') }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.dictionary(key, tie('value'), { maxKeys: 6 }), fc.array(tie('value'), { maxLength: 4 })),
  }));
  return fc.oneof({ weight: 4, arbitrary: fc.dictionary(key, value, { maxKeys: 8 }) }, { weight: 1, arbitrary: value });
}

const body = (fields: readonly string[], hugeBytes: number): fc.Arbitrary<Body> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 8, arbitrary: jsonBody(fields).map((value): Body => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 1_000, max: 12_000 }), open: fc.constantFrom('[' as const, '{' as const, 'mixed' as const), close: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('huge' as const), bytes: fc.integer({ min: hugeBytes, max: hugeBytes + 512 * 1024 }), json: fc.boolean() }) },
    { weight: 2, arbitrary: fc.string({ maxLength: 200 }).map((text): Body => ({ kind: 'text', text })) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes): Body => ({ kind: 'bytes', bytes })) },
  );

export interface HttpArbOptions {
  /** the server's routes, path templates with `{param}` segments */
  routes: readonly { method: string; path: string }[];
  /** field names its bodies use */
  fields: readonly string[];
  /** a body size past the server's limit */
  hugeBytes: number;
}

export function httpInput(o: HttpArbOptions): fc.Arbitrary<HttpInput> {
  const ending = fc.constantFrom<Ending>('wait', 'wait', 'wait', 'end', 'destroy');
  const request = fc.record({
    kind: fc.constant('request' as const),
    method: methods,
    path: pathFrom([...new Set(o.routes.map((r) => r.path))]),
    headers: headerPairs(true),
    body: body(o.fields, o.hugeBytes),
    length: fc.constantFrom<Length>('exact', 'exact', 'exact', 'exact', 'missing', 'short', 'long', 'chunked', 'bad-chunked', 'negative', 'twice'),
    delivery: fc.constantFrom<Delivery>('whole', 'whole', 'whole', 'split', 'slow'),
    ending,
  });
  // A real route, the valid credential, a well-framed request: only the body (and perhaps an
  // Idempotency-Key) is hostile, so it reaches validation and the handlers behind it.
  const wellFormed = fc
    .tuple(fc.constantFrom(...o.routes), fc.array(fc.oneof(fc.constant(KNOWN_ID), fc.constant(KNOWN_ID), garbageSegment), { minLength: 4, maxLength: 4 }), body(o.fields, o.hugeBytes), fc.option(token, { nil: undefined }))
    .map(([route, fills, b, idem]): HttpInput => {
      let i = 0;
      const headers: [string, string][] = [['authorization', VALID_AUTH], ['content-type', 'application/json']];
      if (idem) headers.push(['idempotency-key', idem]);
      return { kind: 'request', method: route.method, path: route.path.replace(/\{[^}]+\}/g, () => fills[i++ % fills.length]!), headers, body: b, length: 'exact', delivery: 'whole', ending: 'wait' };
    });
  const raw = fc.record({ kind: fc.constant('raw' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 2048 }), ending });
  return fc.oneof({ weight: 6, arbitrary: request }, { weight: 3, arbitrary: wellFormed }, { weight: 1, arbitrary: raw });
}

function deepText(depth: number, open: '[' | '{' | 'mixed', close: boolean): string {
  const opens: string[] = [];
  for (let i = 0; i < depth; i++) opens.push(open === '[' || (open === 'mixed' && i % 2) ? '[' : '{"a":');
  const closes = close ? opens.map((o) => (o === '[' ? ']' : '}')).reverse().join('') : '';
  return `${opens.join('')}1${closes}`;
}

function bodyBytes(b: Body, fill: (s: string) => string): Buffer {
  switch (b.kind) {
    case 'none':
      return Buffer.alloc(0);
    case 'json':
      return Buffer.from(fill(JSON.stringify(b.value) ?? 'null'));
    case 'deep':
      return Buffer.from(deepText(b.depth, b.open, b.close));
    case 'huge':
      return b.json ? Buffer.from(`{"name":"${'x'.repeat(b.bytes)}"}`) : Buffer.alloc(b.bytes, 0x7a);
    case 'text':
      return Buffer.from(b.text);
    case 'bytes':
      return Buffer.from(b.bytes);
  }
}

/** The wire bytes of an input; `fill` puts real ids and credentials in place of the markers. */
export function toParts(input: HttpInput, fill: (s: string) => string): Part[] {
  if (input.kind === 'raw') return [{ bytes: Buffer.from(input.bytes) }];
  const payload = bodyBytes(input.body, fill);
  const lines = [`${input.method} ${fill(input.path)} HTTP/1.1`, 'host: 127.0.0.1'];
  for (const [k, v] of input.headers) lines.push(`${k}: ${fill(v)}`);
  let wire = payload;
  if (input.length === 'exact' && payload.length) lines.push(`content-length: ${payload.length}`);
  if (input.length === 'short') lines.push(`content-length: ${Math.max(0, payload.length - 3)}`);
  if (input.length === 'long') lines.push(`content-length: ${payload.length + 10}`);
  if (input.length === 'negative') lines.push('content-length: -5');
  if (input.length === 'twice') lines.push(`content-length: ${payload.length}`, `content-length: ${payload.length + 1}`);
  if (input.length === 'chunked' || input.length === 'bad-chunked') {
    lines.push('transfer-encoding: chunked');
    const size = input.length === 'chunked' ? payload.length.toString(16) : 'zz';
    wire = Buffer.concat([Buffer.from(`${size}\r\n`), payload, Buffer.from(payload.length ? '\r\n0\r\n\r\n' : '\r\n')]);
  }
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  if (input.delivery === 'whole') return [{ bytes: Buffer.concat([head, wire]) }];
  if (input.delivery === 'split') {
    const all = Buffer.concat([head, wire]);
    const cut = Math.floor(all.length / 2);
    return [{ bytes: all.subarray(0, cut) }, { bytes: all.subarray(cut), delayMs: 5 }];
  }
  // slow (bounded): the head, then the body in at most 4 pieces 40 ms apart
  const parts: Part[] = [{ bytes: head }];
  const step = Math.max(1, Math.ceil(wire.length / 4));
  for (let i = 0; i < wire.length; i += step) parts.push({ bytes: wire.subarray(i, i + step), delayMs: 40 });
  return parts;
}

/** Whether the server owes an answer within the deadline: a complete, well-framed request. */
export function owesAnswer(input: HttpInput): boolean {
  return input.kind === 'request' && input.ending !== 'destroy' && (input.length === 'exact' || input.length === 'missing' || input.length === 'chunked' || input.length === 'short');
}

export interface HttpTargetSpec {
  port: () => number;
  fill: (s: string) => string;
  /** a failed expectation for one answer, or null */
  judge: (input: HttpInput & { kind: 'request' }, a: HttpAnswer) => string | null;
  /** requests allowed to stay unanswered (a long-poll route) */
  mayHang?: (input: HttpInput & { kind: 'request' }) => boolean;
  timeoutMs?: number;
}

/** Plays one input; the outcome is the status (or closed / no-answer). Never a 5xx, never a hang. */
export async function playHttp(input: HttpInput, t: HttpTargetSpec): Promise<string> {
  const head = input.kind === 'request' && input.method === 'HEAD';
  // A request the server cannot finish reading (a body shorter than announced...) gets a short look only.
  // A long poll is cut after the short look too: closing it early is itself a case to survive.
  const owed = owesAnswer(input) && !(input.kind === 'request' && t.mayHang?.(input));
  const r = await exchange({ port: t.port(), parts: toParts(input, t.fill), ending: input.ending, timeoutMs: owed ? (t.timeoutMs ?? 5000) : 200, done: (d) => parseHttpAnswer(d, head) !== null });
  if (r.refused) throw new Finding('connection refused: the server is down');
  const a = parseHttpAnswer(r.data, head);
  if (!a) {
    if (input.kind === 'request' && owed && !r.closedByServer) throw new Finding(`no answer within ${t.timeoutMs ?? 5000} ms`);
    return r.data.length ? 'partial' : 'closed';
  }
  if (a.status >= 500) throw new Finding(`answered ${a.status}: ${a.body.toString('utf8').slice(0, 200)}`);
  if (a.status === 0) throw new Finding(`answered something that is not HTTP: ${a.body.toString('latin1').slice(0, 80)}`);
  if (input.kind === 'request') {
    const why = t.judge(input, a);
    if (why) throw new Finding(`${a.status}: ${why}`);
  }
  return String(a.status);
}
