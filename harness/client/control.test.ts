import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeEvent, RunEvent } from '../ground/events.ts';
import { closeAllPools, createClient } from './client.ts';
import { ControlError, createControlClient } from './control.ts';
import { Recorder } from './recorder.ts';
import { REDACTED, Redactor } from './redact.ts';
import { json, startServer, type TestServer } from './server.test-helper.ts';

const TOKEN = 'ctl_token_5e6f7a8b9c0d1e2f';
const WS_KEY = 'sk_ws_created_by_control_123456';

let server: TestServer;
let events: RunEvent[];
let recorder: Recorder;
const exchanges = () => events.filter((e): e is ExchangeEvent => e.type === 'exchange');

/** A tiny control API v1 (DESIGN.md) that checks the token. */
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
    expect(await control.drain(5000)).toBe(7);
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
