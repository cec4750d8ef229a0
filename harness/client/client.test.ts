import { execFile } from 'node:child_process';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeEvent, RunEvent } from '../ground/events.ts';
import { RateBudget } from './budget.ts';
import { closeAllPools, createClient, isQuota429, retryDelayMs, TransportError } from './client.ts';
import { Recorder } from './recorder.ts';
import { REDACTED, Redactor } from './redact.ts';
import { json, startServer, type TestServer } from './server.test-helper.ts';

const KEY = 'sk_test_4f1c2a9b8e7d6c5b4a39';
const KEY2 = 'sk_test_second_key_0987654321';

let server: TestServer;
let events: RunEvent[];
let recorder: Recorder;

const exchanges = () => events.filter((e): e is ExchangeEvent => e.type === 'exchange');

beforeEach(async () => {
  server = await startServer();
  events = [];
  recorder = new Recorder({ emit: (e) => events.push(e) }, new Redactor());
});
afterEach(async () => {
  await server.close();
});
afterAll(async () => {
  await closeAllPools();
});

function runCurl(line: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', line], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('createClient: what goes on the wire', () => {
  it('sends Bearer key, JSON body with content type, Idempotency-Key and a user agent', async () => {
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    const res = await c.post('/v1/campaigns', { name: 'n', n: 1 }, { idempotencyKey: 'idem-123' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const seen = server.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/v1/campaigns');
    expect(seen.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['idempotency-key']).toBe('idem-123');
    expect(seen.headers['user-agent']).toBe('outreach-conformance/0.1.0');
    expect(JSON.parse(seen.body)).toEqual({ name: 'n', n: 1 });
  });

  it('auth none / exact header / null key; custom headers override', async () => {
    const c = createClient({ baseUrl: server.url, key: KEY, recorder, userAgent: 'ua/1' });
    await c.get('/v1/a', undefined, { auth: 'none' });
    await c.get('/v1/b', undefined, { auth: { header: 'Basic Zm9vOmJhcg==' } });
    await c.withKey(null).get('/v1/c');
    await c.get('/v1/d', undefined, { headers: { 'X-Custom': 'yes', Accept: 'text/plain' } });
    expect(server.seen.map((s) => s.headers.authorization)).toEqual([undefined, 'Basic Zm9vOmJhcg==', undefined, `Bearer ${KEY}`]);
    expect(server.seen[3]!.headers['x-custom']).toBe('yes');
    expect(server.seen[3]!.headers.accept).toBe('text/plain');
    expect(server.seen[0]!.headers['user-agent']).toBe('ua/1');
    expect(server.seen[0]!.headers['content-type']).toBeUndefined();
  });

  it('sends a raw body as is with JSON content type by default', async () => {
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    await c.request({ method: 'POST', path: '/v1/x', rawBody: '{"broken": ' });
    await c.request({ method: 'POST', path: '/v1/x', rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(server.seen[0]!.body).toBe('{"broken": ');
    expect(server.seen[0]!.headers['content-type']).toBe('application/json');
    expect(server.seen[1]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('builds queries: arrays comma-joined, undefined skipped, values encoded; keeps a base path', async () => {
    const c = createClient({ baseUrl: `${server.url}/api/`, key: KEY, recorder });
    await c.get('/v1/campaigns', { limit: 5, tags: ['a b', 'c&d', 7], cursor: undefined, flag: false, q: 'é?=' });
    expect(server.seen[0]!.url).toBe('/api/v1/campaigns?limit=5&tags=a%20b,c%26d,7&flag=false&q=%C3%A9%3F%3D');
    const u = new URL(server.seen[0]!.url, 'http://x');
    expect(u.searchParams.get('tags')).toBe('a b,c&d,7');
  });

  it('parses JSON bodies (by content type or because the text parses) and leaves others', async () => {
    server.handler = (req, res) => {
      if (req.url === '/json-as-text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('{"a":1}');
      } else if (req.url === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('hello');
      } else if (req.url === '/empty') {
        res.writeHead(204);
        res.end();
      } else json(res, 201, { id: 'c1' }, { 'X-RateLimit-Remaining': '117' });
    };
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    const a = await c.get('/json-as-text');
    const b = await c.get('/text');
    const d = await c.get('/empty');
    const e = await c.post('/v1/x', {});
    expect(a.body).toEqual({ a: 1 });
    expect(b.body).toBeUndefined();
    expect(b.text).toBe('hello');
    expect(d.status).toBe(204);
    expect(d.body).toBeUndefined();
    expect(e.status).toBe(201);
    expect(e.headers['x-ratelimit-remaining']).toBe('117');
    expect(e.exchangeId).toBe('x000004');
    expect(e.durationMs).toBeGreaterThan(0);
  });

  it('withKey and forCheck share the recorder and the budget; forCheck tags exchanges', async () => {
    const budget = new RateBudget({ requests: 100, windowMs: 60_000 });
    const c = createClient({ baseUrl: server.url, key: KEY, recorder, budget });
    await c.forCheck('CHK-1').get('/v1/a');
    await c.withKey(KEY2).forCheck('CHK-2').get('/v1/b');
    expect(server.seen[1]!.headers.authorization).toBe(`Bearer ${KEY2}`);
    expect(budget.used()).toBe(2);
    expect(recorder.stats.requests).toBe(2);
    expect(exchanges().map((e) => [e.id, e.checkId])).toEqual([
      ['x000001', 'CHK-1'],
      ['x000002', 'CHK-2'],
    ]);
    expect(JSON.stringify(events)).not.toContain(KEY2);
  });
});

describe('429 handling', () => {
  it("records how long a request waited on the kit's rate budget (queuedMs), and none where it did not", async () => {
    server.handler = (_req, res) => json(res, 200, { ok: true });
    const budget = new RateBudget({ requests: 100, windowMs: 60_000 });
    const c = createClient({ baseUrl: server.url, key: KEY, recorder, budget });
    await c.get('/v1/workspace');
    budget.pause(budget.now() + 500);
    await c.get('/v1/workspace');
    const [free, held] = exchanges();
    expect(free!.queuedMs ?? 0).toBeLessThan(held!.queuedMs!);
    expect(held!.queuedMs).toBeGreaterThanOrEqual(200);
  });

  it('honours Retry-After: pauses the budget, retries once, counts one unplanned 429', async () => {
    server.handler = (_req, res, i) => {
      if (i === 0) json(res, 429, { error: { type: 'rate_limit_error', code: 'rate_limited', status: 429, retryAfter: 1 } }, { 'Retry-After': '1' });
      else json(res, 200, { ok: true });
    };
    const budget = new RateBudget({ requests: 120, windowMs: 60_000 });
    const c = createClient({ baseUrl: server.url, key: KEY, recorder, budget });
    const t0 = Date.now();
    const res = await c.get('/v1/workspace');
    const elapsed = Date.now() - t0;
    expect(res.status).toBe(200);
    expect(server.seen).toHaveLength(2);
    expect(recorder.stats.unplanned429).toBe(1);
    expect(recorder.stats.requests).toBe(2);
    expect(exchanges().map((e) => e.response?.status)).toEqual([429, 200]);
    expect(res.retriedFrom).toEqual(['x000001']);
    expect(res.exchangeId).toBe('x000002');
    // It waited out the Retry-After (a lower bound: timers never fire early by more than a ms).
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(budget.used()).toBe(2);
  });

  it('other callers of the workspace wait out the pause too', async () => {
    let otherAt = 0;
    server.handler = (req, res, i) => {
      if (req.url === '/v1/other') otherAt = Date.now();
      if (i === 0) json(res, 429, {}, { 'Retry-After': '1' });
      else json(res, 200, { url: req.url });
    };
    const budget = new RateBudget({ requests: 120, windowMs: 60_000 });
    const c = createClient({ baseUrl: server.url, key: KEY, recorder, budget });
    const first = c.get('/v1/first');
    // Until the 429 has arrived and paused the budget (polled: a busy machine may take longer than any fixed wait).
    while (budget.pausedUntil() === 0) await new Promise((r) => setTimeout(r, 5));
    const pausedUntil = budget.pausedUntil();
    const other = await c.withKey(KEY2).get('/v1/other');
    // It reached the server only once the pause was over, however late this test saw the pause
    // begin (a timer may fire a millisecond early).
    expect(otherAt).toBeGreaterThanOrEqual(pausedUntil - 5);
    expect(other.status).toBe(200);
    expect((await first).status).toBe(200);
  });

  it('without Retry-After falls back to error.retryAfter, then 1 s, 2 s, 4 s; gives up after maxRetries429', async () => {
    server.handler = (_req, res, i) => json(res, 429, i === 0 ? { error: { retryAfter: 3 } } : {});
    const slept: number[] = [];
    const c = createClient({ baseUrl: server.url, key: null, recorder, sleep: async (ms) => void slept.push(ms), random: () => 0 });
    const res = await c.get('/v1/x');
    expect(res.status).toBe(429);
    expect(server.seen).toHaveLength(4);
    expect(slept).toEqual([3000, 2000, 4000]);
    expect(recorder.stats.unplanned429).toBe(4);
    expect(res.retriedFrom).toEqual(['x000001', 'x000002', 'x000003']);
  });

  it('adds at most 10 % jitter and respects maxRetries429', async () => {
    server.handler = (_req, res) => json(res, 429, {}, { 'Retry-After': '2' });
    const slept: number[] = [];
    const c = createClient({ baseUrl: server.url, key: KEY, recorder, maxRetries429: 1, sleep: async (ms) => void slept.push(ms), random: () => 0.999 });
    await c.get('/v1/x');
    expect(server.seen).toHaveLength(2);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(2000);
    expect(slept[0]).toBeLessThanOrEqual(2200);
  });

  it('retryDelayMs: Retry-After seconds or date, body fallback, exponential on repeats, 60 s cap', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryDelayMs({ headers: { 'retry-after': '5' }, body: undefined }, 0)).toBe(5000);
    expect(retryDelayMs({ headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, body: undefined }, 0, now)).toBe(7000);
    expect(retryDelayMs({ headers: {}, body: { error: { retryAfter: 4 } } }, 0)).toBe(4000);
    expect(retryDelayMs({ headers: {}, body: {} }, 0)).toBe(1000);
    expect(retryDelayMs({ headers: {}, body: {} }, 2)).toBe(4000);
    expect(retryDelayMs({ headers: { 'retry-after': '1' }, body: undefined }, 3)).toBe(8000);
    expect(retryDelayMs({ headers: { 'retry-after': '600' }, body: undefined }, 0)).toBe(60_000);
    expect(retryDelayMs({ headers: {}, body: {} }, 10)).toBe(60_000);
  });

  it('a probe 429 is returned as is: no retry, not unplanned, counted in the budget, no waiting', async () => {
    server.handler = (_req, res) => json(res, 429, { error: { retryAfter: 30 } }, { 'Retry-After': '30' });
    const budget = new RateBudget({ requests: 2, windowMs: 60_000, safety: 0 });
    const slept: number[] = [];
    const c = createClient({ baseUrl: server.url, key: KEY, recorder, budget, sleep: async (ms) => void slept.push(ms) });
    for (let i = 0; i < 3; i++) {
      const res = await c.get('/v1/x', undefined, { rateLimitProbe: true });
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('30');
    }
    expect(server.seen).toHaveLength(3);
    expect(recorder.stats.unplanned429).toBe(0);
    expect(budget.used()).toBe(3);
    // No waiting: the client slept for nothing and the budget holds no pause.
    expect(slept).toEqual([]);
    expect(budget.pausedUntil()).toBe(0);
  });
});

describe('a quota answered with 429 is not the rate limit', () => {
  it('returns at once when Retry-After lies beyond the rate window or X-RateLimit-Remaining is above 0: no retry, no pause, not unplanned', async () => {
    const answers = [
      { 'Retry-After': String(9 * 3600), 'X-RateLimit-Remaining': '0' }, // until the day turns
      { 'Retry-After': '30', 'X-RateLimit-Remaining': '117' }, // the window still has room
    ];
    for (const headers of answers) {
      server.seen.length = 0;
      server.handler = (_req, res) => json(res, 429, { error: { type: 'rate_limit_error', code: 'rate_limited', status: 429, retryAfter: Number(headers['Retry-After']) } }, headers);
      const budget = new RateBudget({ requests: 120, windowMs: 60_000, safety: 0 });
      const slept: number[] = [];
      const before = recorder.stats.unplanned429;
      const c = createClient({ baseUrl: server.url, key: KEY, recorder, budget, sleep: async (ms) => void slept.push(ms) });
      const res = await c.post('/v1/campaigns/x/test-email', {});
      expect(res.status).toBe(429);
      expect(server.seen).toHaveLength(1);
      expect(slept).toEqual([]);
      expect(budget.pausedUntil()).toBe(0);
      expect(recorder.stats.unplanned429).toBe(before);
    }
  });

  it('isQuota429 reads the window of the budget, Retry-After as seconds or a date, and the body when no header says', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(isQuota429({ status: 429, headers: { 'retry-after': '61' }, body: {} }, 60_000, now)).toBe(true);
    expect(isQuota429({ status: 429, headers: { 'retry-after': '60' }, body: {} }, 60_000, now)).toBe(false);
    expect(isQuota429({ status: 429, headers: { 'retry-after': 'Thu, 01 Jan 2026 05:00:00 GMT' }, body: {} }, 60_000, now)).toBe(true);
    expect(isQuota429({ status: 429, headers: {}, body: { error: { retryAfter: 3600 } } }, 60_000, now)).toBe(true);
    expect(isQuota429({ status: 429, headers: { 'x-ratelimit-remaining': '0', 'retry-after': '12' }, body: {} }, 60_000, now)).toBe(false);
    expect(isQuota429({ status: 429, headers: {}, body: {} }, 60_000, now)).toBe(false);
    expect(isQuota429({ status: 400, headers: { 'retry-after': '9999' }, body: {} }, 60_000, now)).toBe(false);
  });
});

describe('budget spacing on the wire', () => {
  it('a small budget spaces real requests (and all of them are answered)', async () => {
    const budget = new RateBudget({ requests: 3, windowMs: 300, safety: 1 });
    const c = createClient({ baseUrl: server.url, key: KEY, recorder, budget });
    const t0 = Date.now();
    const res = await Promise.all(Array.from({ length: 5 }, (_, i) => c.get(`/v1/${i}`)));
    const elapsed = Date.now() - t0;
    expect(res.every((r) => r.status === 200)).toBe(true);
    // 2 per 300 ms: the 5th leaves in the third window
    expect(elapsed).toBeGreaterThanOrEqual(600);
  });

  it('a client without a budget sends at once', async () => {
    // The server answers nobody until all 10 are in (the connection pool holds 16): a client that
    // spaced or queued them would never finish.
    const held: Array<() => void> = [];
    server.handler = (_req, res) => {
      held.push(() => json(res, 200, { ok: true }));
      if (held.length === 10) held.forEach((answer) => answer());
    };
    const c = createClient({ baseUrl: server.url, key: null, recorder });
    const res = await Promise.all(Array.from({ length: 10 }, (_, i) => c.get(`/v1/${i}`, undefined, { timeoutMs: 20_000 })));
    expect(res.every((r) => r.status === 200)).toBe(true);
    expect(server.seen).toHaveLength(10);
  });
});

describe('recording and redaction', () => {
  it('never lets a key or a password into an event: headers, bodies, URLs, curl lines', async () => {
    server.handler = (req, res) => {
      if (req.url?.startsWith('/v1/text')) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`bad password hunter2hunter2 for key ${KEY}`);
      } else json(res, 201, { id: 'k1', key: KEY2, echo: JSON.parse(req.body || '{}') });
    };
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    await c.post(`/v1/accounts/${KEY}`, { accounts: [{ emailAddress: 'a@b.c', smtpPassword: 'hunter2hunter2', imapPassword: 'imap-pass-123' }] }, { query: { k: KEY } });
    await c.get('/v1/text');
    await c.withKey(KEY2).get('/v1/x', undefined, { headers: { 'x-echo': `${KEY2}` } });
    const all = JSON.stringify(events);
    for (const secret of [KEY, KEY2, 'hunter2hunter2', 'imap-pass-123']) expect(all).not.toContain(secret);
    const [e1, e2, e3] = exchanges();
    expect(e1!.request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(e1!.request.url).toBe(`${server.url}/v1/accounts/${REDACTED}?k=${REDACTED}`);
    expect(JSON.parse(e1!.request.body!).accounts[0]).toEqual({ emailAddress: 'a@b.c', smtpPassword: REDACTED, imapPassword: REDACTED });
    expect(JSON.parse(e1!.response!.body!).key).toBe(REDACTED);
    expect(e1!.curl).toContain(`-H 'authorization: Bearer '"$OUTREACH_API_KEY"`);
    expect(e2!.response!.body).toBe(`bad password ${REDACTED} for key ${REDACTED}`);
    expect(e3!.request.headers['x-echo']).toBe(REDACTED);
    // the request's real bytes were not altered by redaction
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.seen[0]!.body).toContain('hunter2hunter2');
  });

  it('records a transport failure (connection refused) and throws a clear TransportError', async () => {
    const port = server.port;
    await server.close();
    const c = createClient({ baseUrl: `http://127.0.0.1:${port}`, key: KEY, recorder });
    const err = await c.post(`/v1/x/${KEY}`, { a: 1 }).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toContain(`POST http://127.0.0.1:${port}/v1/x/${REDACTED}`);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.message).not.toContain(KEY);
    const [e] = exchanges();
    expect(e!.response).toBeUndefined();
    expect(e!.error).toContain('ECONNREFUSED');
    expect(err.exchangeId).toBe(e!.id);
    // Its cause as data, without the URL: the report groups by it.
    expect(err.typed).toEqual({ kind: 'transport', fields: { failure: 'ECONNREFUSED' } });
    expect(recorder.stats.requests).toBe(1);
    server = await startServer(); // for afterEach
  });

  it('sends once more, on the next connection, a request whose connection closed before any answer', async () => {
    // The first request's connection is closed under it, as a target closes a connection it saw idle.
    server.handler = (_r, res, i) => (i === 0 ? res.socket?.destroy() : json(res, 200, { ok: true }));
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    const res = await c.post('/v1/campaigns', { name: 'x' });
    expect(res.status).toBe(200);
    expect(server.seen).toHaveLength(2);
    expect(exchanges()).toHaveLength(1);
  });

  it('throws a TransportError when the target closes the connection again on the second try', async () => {
    server.handler = (_r, res) => res.socket?.destroy();
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    const err = await c.post('/v1/campaigns', { name: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(server.seen).toHaveLength(2);
    expect(exchanges()[0]!.error).toContain('UND_ERR_SOCKET');
  });

  it('times out with a message naming method and URL', async () => {
    server.handler = () => {
      /* never answers */
    };
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    const err = await c.get('/v1/slow', { a: 1 }, { timeoutMs: 200 }).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toMatch(new RegExp(`^GET ${server.url}/v1/slow\\?a=1 timed out after 200 ms`));
    expect(exchanges()[0]!.error).toContain('timed out after 200 ms');
  });
});

describe('curl round trip', () => {
  it('the recorded curl line, run by the real curl with the variable exported, sends the same request', async () => {
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    const reqs = [
      () => c.post('/v1/campaigns', { name: "O'Brien's \"list\" $HOME `x` \\ ", tags: ['a', 'b'] }, { idempotencyKey: "idem-'1'", query: { tags: ['x y', 'z'], limit: 3 }, headers: { 'x-trace': 'abc' } }),
      () => c.request({ method: 'PATCH', path: '/v1/x', rawBody: '{"a":\n  1, "b": "$(echo pwned)"}\n' }),
      () => c.delete('/v1/campaigns/c_1'),
      () => c.get('/v1/list', { cursor: 'abc==', limit: 1 }, { auth: 'none' }),
    ];
    for (const send of reqs) {
      server.seen.length = 0;
      await send();
      const viaClient = server.seen[0]!;
      const ev = exchanges().at(-1)!;
      expect(ev.curl).not.toContain(KEY);
      server.seen.length = 0;
      const out = await runCurl(ev.curl, { OUTREACH_API_KEY: KEY });
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      const viaCurl = server.seen[0]!;
      expect(viaCurl.method).toBe(viaClient.method);
      expect(viaCurl.url).toBe(viaClient.url);
      expect(viaCurl.body).toBe(viaClient.body);
      for (const h of ['authorization', 'content-type', 'idempotency-key', 'user-agent', 'accept', 'x-trace']) {
        expect([h, viaCurl.headers[h]]).toEqual([h, viaClient.headers[h]]);
      }
    }
  });

  it('without the variable the curl line sends no key (it never embeds one)', async () => {
    const c = createClient({ baseUrl: server.url, key: KEY, recorder });
    await c.get('/v1/x');
    server.seen.length = 0;
    await runCurl(exchanges()[0]!.curl, {});
    expect(server.seen[0]!.headers.authorization?.trim()).toBe('Bearer');
  });
});
