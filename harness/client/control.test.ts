import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeEvent, RunEvent } from '../ground/events.ts';
import { closeAllPools, createClient } from './client.ts';
import { ControlError, createControlClient } from './control.ts';
import { DrainCoalescer, UNTOLD_AFTER } from './drains.ts';
import type { DrainResult } from '../ground/check.ts';
import type http from 'node:http';
import { Recorder } from './recorder.ts';
import { REDACTED, Redactor } from './redact.ts';
import { json, startServer, type TestServer } from './server.test-helper.ts';

const TOKEN = 'ctl_token_5e6f7a8b9c0d1e2f';
const WS_KEY = 'sk_ws_created_by_control_123456';

let server: TestServer;
let events: RunEvent[];
let recorder: Recorder;
const exchanges = () => events.filter((e): e is ExchangeEvent => e.type === 'exchange');

/** A tiny control API v1 (docs/ARCHITECTURE.md, "Control API v1") that checks the token. */
function controlHandler(): TestServer['handler'] {
  let now = Date.parse('2026-03-02T09:00:00.000Z');
  return (req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { error: { type: 'authentication_error', code: 'unauthenticated', message: 'bad token', status: 401 } });
    const body = req.body ? JSON.parse(req.body) : undefined;
    const route = `${req.method} ${req.url}`;
    if (route === 'POST /workspaces') return json(res, 201, { organizationId: 'org_1', name: body?.name ?? 'ws', timezone: body?.timezone ?? 'UTC', apiKey: WS_KEY, apiKeyId: 'key_1' });
    if (route === 'PATCH /workspaces/org_1') return json(res, 200, { organizationId: 'org_1', apiAccess: body.apiAccess, limits: body.limits ?? {} });
    if (route === 'GET /clock') return json(res, 200, { now: new Date(now).toISOString() });
    if (route === 'POST /clock/advance') {
      if (!(body?.seconds > 0)) return json(res, 400, { error: { type: 'invalid_request_error', code: 'validation_failed', message: 'seconds must be > 0', status: 400 } });
      now += body.seconds * 1000;
      return json(res, 200, { now: new Date(now).toISOString() });
    }
    if (route === 'POST /work/drain') return json(res, 200, { processed: 7 });
    if (route === 'POST /workspaces/org_1/tags') return json(res, 201, { id: 't1', name: body.name, color: body.color });
    return json(res, 404, { error: { type: 'invalid_request_error', code: 'not_found', message: 'no route', status: 404 } });
  };
}

beforeEach(async () => {
  server = await startServer(controlHandler());
  events = [];
  recorder = new Recorder({ emit: (e) => events.push(e) }, new Redactor());
});
afterEach(async () => {
  await server.close();
});
afterAll(async () => {
  await closeAllPools();
});

describe('createControlClient', () => {
  it('probes GET /capabilities once: a 404 there means no optional extension', async () => {
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    expect(await control.extensions()).toEqual([]);
    expect(await control.forCheck('X').extensions()).toEqual([]);
    expect(server.seen.filter((r) => r.url === '/capabilities')).toHaveLength(1);
  });
  it('reads the announced extensions from GET /capabilities', async () => {
    const inner = server.handler;
    server.handler = (req, res) => (req.method === 'GET' && req.url === '/capabilities' ? json(res, 200, { version: 1, extensions: ['lead-events'] }) : inner(req, res, 0));
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    expect(await control.extensions()).toEqual(['lead-events']);
  });
  it('creates a workspace, registers its key, and records the call with the token redacted', async () => {
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    const ws = await control.createWorkspace({ name: 'conf-a', timezone: 'Europe/Paris' });
    expect(ws).toEqual({ organizationId: 'org_1', name: 'conf-a', timezone: 'Europe/Paris', apiKey: WS_KEY, apiKeyId: 'key_1' });
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ name: 'conf-a', timezone: 'Europe/Paris' });
    const [e] = exchanges();
    expect(e!.request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(JSON.parse(e!.response!.body!).apiKey).toBe(REDACTED);
    expect(e!.curl).toContain(`-H 'authorization: Bearer '"$OUTREACH_CONTROL_TOKEN"`);
    expect(recorder.stats).toEqual({ requests: 0, unplanned429: 0, controlRequests: 1 });
    // the key is now a registered secret: an API exchange that shows it anywhere is redacted
    const api = createClient({ baseUrl: server.url, key: ws.apiKey, recorder });
    await api.get(`/echo/${ws.apiKey}`);
    const all = JSON.stringify(events);
    expect(all).not.toContain(WS_KEY);
    expect(all).not.toContain(TOKEN);
  });

  it('clock, advance, drain, patch and free-form requests', async () => {
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    expect((await control.now()).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect((await control.advance(3600)).toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(await control.drain(5000)).toEqual({ processed: 7, complete: true });
    expect(JSON.parse(server.seen[2]!.body)).toEqual({ timeoutMs: 5000 });
    expect(await control.patchWorkspace('org_1', { apiAccess: false })).toEqual({ organizationId: 'org_1', apiAccess: false, limits: {} });
    expect(server.seen[3]!.method).toBe('PATCH');
    const tag = await control.request('POST', '/workspaces/org_1/tags', { name: 'vip', color: '#ff0000' });
    expect(tag.status).toBe(201);
    expect(tag.body).toEqual({ id: 't1', name: 'vip', color: '#ff0000' });
  });

  it('throws non-2xx answers as ControlError with status and body (unless allowError)', async () => {
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    const err = await control.advance(0).catch((e) => e);
    expect(err).toBeInstanceOf(ControlError);
    expect(err.status).toBe(400);
    expect(err.body.error.code).toBe('validation_failed');
    expect(err.message).toContain('POST /clock/advance answered 400: seconds must be > 0');
    expect(err.exchangeId).toBe(exchanges()[0]!.id);
    // Its cause as data: the status and the call, not the path's ids.
    expect(err.typed).toEqual({ kind: 'control', fields: { status: 400, call: 'POST /clock' } });
    const missing = await control.request('GET', '/nope').catch((e) => e);
    expect(missing).toBeInstanceOf(ControlError);
    expect(missing.status).toBe(404);
    const allowed = await control.request('GET', '/nope', undefined, { allowError: true });
    expect(allowed.status).toBe(404);
    const bad = createControlClient({ baseUrl: server.url, token: 'wrong-token-value', recorder });
    const unauth = await bad.now().catch((e) => e);
    expect(unauth.status).toBe(401);
    expect(JSON.stringify(events)).not.toContain('wrong-token-value');
  });

  it('forCheck attributes control exchanges to a check', async () => {
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder }).forCheck('RATE-1');
    await control.now();
    expect(exchanges()[0]!.checkId).toBe('RATE-1');
  });
});


/**
 * A control API whose drains the test holds: each POST /work/drain waits until the test releases
 * it, answering { processed: n } for the n-th drain. The overlap is built, never raced.
 */
function heldDrains(server: TestServer, extensions: string[] = []) {
  const held: http.ServerResponse[] = [];
  const bodies: any[] = [];
  const inner = server.handler;
  server.handler = (req, res, i) => {
    if (req.url === '/capabilities') return json(res, 200, { version: 1, extensions });
    if (req.url !== '/work/drain') return inner(req, res, i);
    bodies.push(JSON.parse(req.body));
    held.push(res);
  };
  let answered = 0;
  return {
    bodies,
    /** Resolves once the target has been asked for `n` drains in all. */
    async asked(n: number) {
      while (bodies.length < n) await new Promise((r) => setTimeout(r, 2));
    },
    /** Answers the oldest held drain. */
    release() {
      json(held.shift()!, 200, { processed: ++answered });
    },
  };
}

describe('drains of one run are coalesced', () => {
  it('one in flight; callers who ask meanwhile are served by one next drain, sent after they asked, with the longest bound', async () => {
    const t = heldDrains(server);
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    const first = control.forCheck('A').drain(2000);
    await t.asked(1);
    const joiners = [control.forCheck('B').drain(1000), control.forCheck('C').drain(5000), control.forCheck('D').drain(3000)];
    t.release();
    expect(await first).toEqual({ processed: 1, complete: true });
    await t.asked(2);
    t.release();
    // B, C and D asked after the first drain started: the second one, not the first, serves them.
    for (const r of await Promise.all(joiners)) expect(r).toEqual({ processed: 2, complete: true });
    expect(t.bodies).toEqual([{ timeoutMs: 2000 }, { timeoutMs: 5000 }]);
    // The drain is the first joiner's exchange.
    expect(exchanges().filter((e) => e.request.url.endsWith('/work/drain')).map((e) => e.checkId)).toEqual(['A', 'B']);
    // Nothing in flight: the next caller is sent at once.
    const alone = control.drain(500);
    await t.asked(3);
    t.release();
    expect(await alone).toEqual({ processed: 3, complete: true });
  });

  it('with scoped-drain, each workspace has its own drain in flight; without it, one drain serves them all', async () => {
    const scoped = heldDrains(server, ['scoped-drain']);
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    const a = control.drain(2000, 'org_a');
    const b = control.drain(2000, 'org_b');
    await scoped.asked(2);
    const a2 = control.drain(2000, 'org_a');
    scoped.release();
    scoped.release();
    await Promise.all([a, b]);
    await scoped.asked(3);
    scoped.release();
    await a2;
    expect(scoped.bodies).toEqual([{ timeoutMs: 2000, organizationId: 'org_a' }, { timeoutMs: 2000, organizationId: 'org_b' }, { timeoutMs: 2000, organizationId: 'org_a' }]);

    const other = await startServer(controlHandler());
    try {
      const plain = heldDrains(other);
      const c = createControlClient({ baseUrl: other.url, token: TOKEN, recorder });
      const x = c.drain(2000, 'org_a');
      await plain.asked(1);
      const y = [c.drain(2000, 'org_b'), c.drain(2000, 'org_a')];
      plain.release();
      await x;
      await plain.asked(2);
      plain.release();
      await Promise.all(y);
      expect(plain.bodies).toEqual([{ timeoutMs: 2000 }, { timeoutMs: 2000 }]);
    } finally {
      await other.close();
    }
  });

  it('a drain that took its whole bound, or got no answer within the kit\'s wait, is a slow target: not complete, not an error', async () => {
    const t = heldDrains(server);
    // Answered after its bound of 1 ms (the test holds it 20 ms): it may have left work. The kit
    // waits its bound plus a minute's margin here, which outlasts the hold on any machine.
    const patient = createControlClient({ baseUrl: server.url, token: TOKEN, recorder, drainQueueMarginMs: 60_000 }).forCheck('SLOW');
    const late = patient.drain(1);
    await t.asked(1);
    await new Promise((r) => setTimeout(r, 20));
    t.release();
    expect(await late).toEqual({ processed: 1, complete: false });
    expect(patient.slowDrains()).toBe(1);
    // Never answered: the kit stops waiting (its bound 0 + the 50 ms margin) and goes on.
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder, timeoutMs: 50, drainQueueMarginMs: 50 });
    const check = control.forCheck('SLOW');
    expect(await check.drain(0)).toEqual({ processed: 0, complete: false });
    expect(check.slowDrains()).toBe(1);
    expect(control.slowDrains()).toBe(0);
    expect(exchanges().at(-1)!.error).toMatch(/timed out after 50 ms/);
  });

  it('a target none of whose first drains answered within its bound is untold: its late answers say nothing', async () => {
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    // A bound of 0 ms: no answer comes within it.
    for (let i = 1; i < UNTOLD_AFTER; i++) expect(await control.drain(0)).toEqual({ processed: 7, complete: false });
    expect(await control.drain(0)).toEqual({ processed: 7, complete: false, untold: true });
    const told = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    expect(await told.drain(60_000)).toEqual({ processed: 7, complete: true });
    for (let i = 0; i < UNTOLD_AFTER; i++) expect(await told.drain(0)).toEqual({ processed: 7, complete: false });
  });

  it('a drain the control API refuses is still an error', async () => {
    server.handler = (req, res) => (req.url === '/work/drain' ? json(res, 500, { error: { message: 'boom' } }) : json(res, 404, {}));
    const control = createControlClient({ baseUrl: server.url, token: TOKEN, recorder });
    const err = await control.drain(1000).catch((e) => e);
    expect(err).toBeInstanceOf(ControlError);
    expect(err.status).toBe(500);
  });
});

describe('DrainCoalescer', () => {
  /** A send the test answers by hand, recording the bound each drain was sent with. */
  function manual() {
    const sent: { timeoutMs: number | undefined; answer(r: DrainResult): void; fail(e: unknown): void }[] = [];
    const send = (timeoutMs: number | undefined) => new Promise<DrainResult>((answer, fail) => sent.push({ timeoutMs, answer, fail }));
    return { sent, send };
  }

  it('counts the bounds of the drains in flight (what a serializing target runs before a new one)', async () => {
    const d = new DrainCoalescer();
    const m = manual();
    expect(d.boundsInFlight(30_000)).toBe(0);
    const a = d.drain('org_a', 2000, m.send);
    const b = d.drain('', undefined, m.send);
    void d.drain('org_a', 9000, m.send); // joins org_a's next: not in flight yet
    expect(d.boundsInFlight(30_000)).toBe(32_000);
    m.sent[0]!.answer({ processed: 0, complete: true });
    await a;
    expect(d.boundsInFlight(30_000)).toBe(39_000);
    m.sent[1]!.answer({ processed: 0, complete: true });
    m.sent[2]!.answer({ processed: 0, complete: true });
    await b;
    expect(m.sent.map((s) => s.timeoutMs)).toEqual([2000, undefined, 9000]);
  });

  it('a failed drain fails its callers, and the next one is still sent for those who joined it', async () => {
    const d = new DrainCoalescer();
    const m = manual();
    const first = d.drain('', 1000, m.send);
    const joined = d.drain('', 1000, m.send);
    m.sent[0]!.fail(new Error('refused'));
    await expect(first).rejects.toThrow('refused');
    await new Promise((r) => setImmediate(r));
    expect(m.sent).toHaveLength(2);
    m.sent[1]!.answer({ processed: 4, complete: true });
    expect(await joined).toEqual({ processed: 4, complete: true });
  });
});
