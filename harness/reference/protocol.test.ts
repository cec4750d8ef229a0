// The reference target's own tests of its protocol layer: real HTTP against started instances.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Env, envelopeProblems, UUID_V4, type Workspace } from './reference.test-helper.ts';
import { startReference, MUTANTS } from './index.ts';
import { covers, isSubset, routeAccepts, GRANULAR_SCOPES } from './request/scopes.ts';
import { ROUTES } from './http/routes.ts';

let env: Env;
let ws: Workspace;
beforeAll(async () => {
  env = await Env.start();
  ws = await env.workspace({ name: 'main', timezone: 'Europe/Berlin' });
});
afterAll(() => env.stop());

describe('lifecycle', () => {
  it('listens on two loopback ports and stops idempotently', async () => {
    const ref = await startReference({ log: () => {} });
    expect(ref.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ref.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ref.baseUrl).not.toBe(ref.controlUrl);
    const r = await fetch(`${ref.baseUrl}/v1/workspace`); // keep-alive socket stays open
    expect(r.status).toBe(401);
    await Promise.all([ref.stop(), ref.stop()]);
    await ref.stop();
    await expect(fetch(`${ref.baseUrl}/v1/workspace`)).rejects.toThrow();
  });
  it('rejects unknown mutant ids with the list of known ids', async () => {
    await expect(startReference({ mutants: ['nope'] })).rejects.toThrow(/unknown mutant id\(s\): nope; known ids: auth-missing-header-400/);
  });
  it('every mutant has an id, a rule with a section and a description; ids are unique', () => {
    expect(new Set(MUTANTS.map((m) => m.id)).size).toBe(MUTANTS.length);
    expect(MUTANTS.length).toBeGreaterThanOrEqual(50);
    for (const m of MUTANTS) {
      expect(m.rule).toMatch(/^\d/);
      expect(m.description.length).toBeGreaterThan(10);
    }
  });
});

describe('control API', () => {
  it('announces its optional extensions at GET /capabilities', async () => {
    const r = await env.ctl('GET', '/capabilities');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: 1, extensions: ['workspace-keys', 'lead-events', 'blacklist', 'email-unreadable', 'scoped-drain'] });
  });
});

describe('authentication (part 5)', () => {
  const paths = ['/v1/workspace', '/v1/campaigns', '/v1/api-keys'];
  it.each([
    ['missing', null],
    ['empty', ''],
    ['Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a key', 'Bearer'],
    ['two tokens', 'Bearer a b'],
    ['unknown key', 'Bearer ock_unknownunknownunknown'],
  ])('answers 401 unauthenticated for a %s header', async (_n, auth) => {
    for (const p of paths) {
      const r = await env.call(null, 'GET', p, { auth });
      expect(r.status).toBe(401);
      expect(r.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated', status: 401 });
      expect(envelopeProblems(r)).toEqual([]);
      expect(r.headers.get('x-ratelimit-remaining')).toBeNull();
    }
  });
  it('refuses `Token <key>` and a bare key, accepts any case of "Bearer"', async () => {
    expect((await env.call(null, 'GET', '/v1/workspace', { auth: `Token ${ws.key}` })).status).toBe(401);
    expect((await env.call(null, 'GET', '/v1/workspace', { auth: ws.key })).status).toBe(401);
    expect((await env.call(null, 'GET', '/v1/workspace', { auth: `bearer ${ws.key}` })).status).toBe(200);
  });
  it('revocation is immediate, also on unknown routes and POSTs', async () => {
    const k = await env.key(ws, ['campaigns:read']);
    expect((await env.call(k.key, 'GET', '/v1/campaigns')).status).toBe(200);
    const rev = await env.call(ws.key, 'DELETE', `/v1/api-keys/${k.id}`);
    expect(rev.status).toBe(200);
    expect(rev.body).toEqual({ success: true });
    const r = await env.call(k.key, 'GET', '/v1/campaigns');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthenticated');
    expect((await env.call(k.key, 'POST', '/v1/campaigns', { body: { name: 'x' } })).status).toBe(401);
    expect((await env.call(ws.key, 'DELETE', `/v1/api-keys/${k.id}`)).status).toBe(404);
  });
  it('403 when the plan has no API access, for every key of the workspace', async () => {
    const w = await env.workspace();
    expect((await env.ctl('PATCH', `/workspaces/${w.orgId}`, { apiAccess: false })).status).toBe(200);
    const r = await env.call(w.key, 'GET', '/v1/workspace');
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ type: 'authorization_error', code: 'permission_denied' });
    await env.ctl('PATCH', `/workspaces/${w.orgId}`, { apiAccess: true });
    expect((await env.call(w.key, 'GET', '/v1/workspace')).status).toBe(200);
  });
});

describe('scopes and wildcards (part 5)', () => {
  it('covers(): wildcard rules', () => {
    const reads = GRANULAR_SCOPES.filter((s) => s.endsWith(':read'));
    for (const s of GRANULAR_SCOPES) {
      expect(covers(['all:all'], s)).toBe(s !== 'apikeys:manage');
      expect(covers(['all:read'], s)).toBe((reads as string[]).includes(s));
      for (const d of ['campaigns', 'leads', 'emails', 'accounts']) expect(covers([`${d}:all`], s)).toBe(s.startsWith(`${d}:`));
      expect(covers([s], s)).toBe(true);
    }
    expect(reads).toEqual(['campaigns:read', 'leads:read', 'emails:read', 'accounts:read', 'metrics:read', 'leadfinder:read', 'usage:read']);
    expect(covers(['campaigns:write'], 'campaigns:lifecycle')).toBe(false);
  });
  it('routeAccepts(): mailbox reads also accept what mailbox writes accept (part 5 group rows)', () => {
    for (const h of ['accounts:read', 'accounts:write', 'accounts:all', 'all:read', 'all:all']) expect(routeAccepts([h], 'accounts:read'), h).toBe(true);
    for (const h of ['accounts:write', 'accounts:all', 'all:all']) expect(routeAccepts([h], 'accounts:write'), h).toBe(true);
    for (const h of ['accounts:read', 'all:read', 'campaigns:all']) expect(routeAccepts([h], 'accounts:write'), h).toBe(false);
    // Nowhere else does a write scope serve a read.
    for (const d of ['campaigns', 'leads', 'emails']) expect(routeAccepts([`${d}:write`], `${d}:read`)).toBe(false);
  });
  it('isSubset(): apikeys:manage only from a holder; wildcards expand', () => {
    expect(isSubset(['campaigns:all'], ['campaigns:read', 'campaigns:write', 'campaigns:lifecycle'])).toBe(true);
    expect(isSubset(['campaigns:all'], ['campaigns:read'])).toBe(false);
    expect(isSubset(['apikeys:manage'], ['all:all'])).toBe(false);
    expect(isSubset(['all:read'], ['all:all'])).toBe(true);
    expect(isSubset(['all:all'], ['all:read'])).toBe(false);
  });
  it('every route has a granular scope', () => {
    for (const r of ROUTES) expect((GRANULAR_SCOPES as readonly string[]).includes(r.scope), `${r.method} ${r.path}`).toBe(true);
  });
  it('the scope x endpoint matrix over the wire (allowed: not 401/403; denied: 403)', async () => {
    const probe = '00000000-0000-4000-8000-000000000000';
    const held = [...GRANULAR_SCOPES, 'campaigns:all', 'leads:all', 'emails:all', 'accounts:all', 'all:read', 'all:all'];
    const keys = new Map<string, string>();
    for (const h of held) keys.set(h, (await env.dashboardKey(ws, [h])).key);
    for (const route of ROUTES) {
      const path = route.path.replace(/\{(id|cid|leadId)\}/g, probe).replace('{limitType}', 'ai_credits').replace('{provider}', 'google');
      for (const h of held) {
        const r = await env.call(keys.get(h)!, route.method, path, route.method === 'GET' ? {} : { body: {} });
        const allowed = routeAccepts([h], route.scope);
        if (allowed) {
          expect([401, 403], `${h} ${route.method} ${path} -> ${r.status}`).not.toContain(r.status);
          expect(r.status, `${h} ${route.method} ${path}`).toBeLessThan(500);
        }
        else {
          expect(r.status, `${h} ${route.method} ${path}`).toBe(403);
          expect(r.body.error.code).toBe('permission_denied');
        }
      }
      await env.ctl('POST', '/clock/advance', { seconds: 61 }); // stay under the rate limit
    }
  });
  it('POST /v1/campaigns with launch needs campaigns:lifecycle too', async () => {
    const k = await env.key(ws, ['campaigns:write']);
    const r = await env.call(k.key, 'POST', '/v1/campaigns', { body: { name: 'x', launch: true } });
    expect(r.status).toBe(403);
    expect((await env.call(k.key, 'POST', '/v1/campaigns', { body: { name: 'x', launch: false } })).status).toBe(201);
  });
});

describe('errors and versioning (parts 7, 9)', () => {
  it.each(['/', '/v2/workspace', '/v1', '/v1/', '/v1/workspace/', '/v1/nope', '/v0/campaigns', '/V1/workspace', '//v1/workspace'])(
    'unknown path %s -> 404 envelope (with or without a key)',
    async (p) => {
      for (const auth of [undefined, null]) {
        const r = await env.call(ws.key, 'GET', p, { auth });
        expect(r.status).toBe(404);
        expect(r.body.error).toMatchObject({ type: 'invalid_request_error', code: 'not_found', status: 404 });
        expect(envelopeProblems(r)).toEqual([]);
      }
    },
  );
  it('an unknown method on a known path is 404 too', async () => {
    const r = await env.call(ws.key, 'PUT', '/v1/workspace', { body: {} });
    expect(r.status).toBe(404);
    expect(envelopeProblems(r)).toEqual([]);
  });
  it('malformed JSON -> 400 validation_failed with details', async () => {
    for (const raw of ['{', '{"name":', 'nul', '[1,]']) {
      const r = await env.call(ws.key, 'POST', '/v1/campaigns', { raw });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ type: 'invalid_request_error', code: 'validation_failed' });
      expect(r.body.error.details.length).toBeGreaterThan(0);
    }
  });
  it('requestIds are uuid v4 and new per response; header x-request-id matches', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await env.call(null, 'GET', '/v1/workspace');
      expect(r.body.error.requestId).toMatch(UUID_V4);
      expect(r.headers.get('x-request-id')).toBe(r.body.error.requestId);
      ids.add(r.body.error.requestId);
    }
    expect(ids.size).toBe(5);
  });
  it('bad ids: non-uuid -> 400, absent uuid -> 404', async () => {
    const a = await env.call(ws.key, 'PATCH', '/v1/campaigns/not-a-uuid', { body: { name: 'x' } });
    expect(a.status).toBe(400);
    expect(a.body.error.details).toEqual(['id: must be a uuid']);
    const b = await env.call(ws.key, 'PATCH', '/v1/campaigns/5b0b6f57-6d1e-4a55-9a3c-2f5b8e0c1d2e', { body: { name: 'x' } });
    expect(b.status).toBe(404);
    expect(envelopeProblems(b)).toEqual([]);
  });
  it('resources of another workspace are 404', async () => {
    const other = await env.workspace();
    const c = await env.campaign(other);
    expect((await env.call(ws.key, 'GET', `/v1/campaigns/${c.id}/status`)).status).toBe(404);
    expect((await env.call(other.key, 'GET', `/v1/campaigns/${c.id}/status`)).status).toBe(200);
  });
});

describe('API keys (4.7, 5)', () => {
  it('create shows the secret once; list is paginated and never shows it', async () => {
    const w = await env.workspace();
    const c = await env.call(w.key, 'POST', '/v1/api-keys', { body: { name: 'ci', scopes: ['campaigns:read', 'leads:all'] } });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ name: 'ci', scopes: ['campaigns:read', 'leads:all'] });
    expect(c.body.id).toMatch(UUID_V4);
    expect(typeof c.body.key).toBe('string');
    const l = await env.call(w.key, 'GET', '/v1/api-keys?limit=1');
    expect(l.status).toBe(200);
    expect(l.body.data).toHaveLength(1);
    expect(l.body.data[0]).toEqual({ id: c.body.id, name: 'ci', scopes: ['campaigns:read', 'leads:all'], createdAt: c.body.createdAt, lastUsedAt: null });
    expect(l.body.meta.hasMore).toBe(true);
    const l2 = await env.call(w.key, 'GET', `/v1/api-keys?limit=1&cursor=${l.body.meta.nextCursor}`);
    expect(l2.body.data[0].id).toBe(w.keyId);
    expect(l2.body.meta).toEqual({ hasMore: false });
    expect(JSON.stringify([l.body, l2.body])).not.toContain(c.body.key);
  });
  it('the subset rule: 403 for scopes beyond the caller; apikeys:manage only from the dashboard', async () => {
    const w = await env.workspace();
    const mgr = await env.dashboardKey(w, ['apikeys:manage', 'campaigns:read']);
    const cases: [string[], number][] = [
      [['campaigns:read'], 201],
      [['apikeys:manage'], 403],
      [['campaigns:read', 'apikeys:manage'], 403],
      [['campaigns:write'], 403],
      [['campaigns:all'], 403],
      [['all:read'], 403],
    ];
    for (const [scopes, status] of cases) {
      const r = await env.call(mgr.key, 'POST', '/v1/api-keys', { body: { name: 'x', scopes } });
      expect(r.status, scopes.join()).toBe(status);
      if (status === 403) expect(r.body.error.code).toBe('permission_denied');
    }
    const allAll = await env.key(w, ['all:all']);
    expect((await env.call(allAll.key, 'POST', '/v1/api-keys', { body: { name: 'x', scopes: ['campaigns:read'] } })).status).toBe(403);
    expect((await env.call(w.key, 'POST', '/v1/api-keys', { body: { name: 'x', scopes: ['all:all', 'apikeys:manage'] } })).status).toBe(403);
    expect((await env.call(w.key, 'POST', '/v1/api-keys', { body: { name: 'x', scopes: ['all:all'] } })).status).toBe(201);
  });
  it('validates the body', async () => {
    for (const body of [{}, { name: '', scopes: ['campaigns:read'] }, { name: 'x', scopes: [] }, { name: 'x', scopes: ['campaigns:fly'] }, { name: 'x', scopes: 'campaigns:read' }]) {
      const r = await env.call(ws.key, 'POST', '/v1/api-keys', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.details.length).toBeGreaterThan(0);
    }
  });
});

describe('workspace, usage, subscription (2.9, 4.7)', () => {
  it('GET /v1/workspace', async () => {
    const r = await env.call(ws.key, 'GET', '/v1/workspace');
    expect(r.body).toEqual({ organizationId: ws.orgId, name: 'main', timezone: 'Europe/Berlin' });
  });
  it('usage of all six limit types, unlimited and percentages', async () => {
    const w = await env.workspace();
    await env.ctl('PATCH', `/workspaces/${w.orgId}`, {
      limits: { monthly_emails: 200, active_contacts: null, ai_credits: 0, email_validation: 3, monthly_imports: 10, lead_finder_credits: 100 },
      used: { monthly_emails: 50, active_contacts: 7, ai_credits: 0, email_validation: 1, monthly_imports: 12, lead_finder_credits: 0 },
    });
    const get = async (t: string) => (await env.call(w.key, 'GET', `/v1/usage/${t}`)).body;
    expect(await get('monthly_emails')).toEqual({ limitType: 'monthly_emails', used: 50, limit: 200, remaining: 150, isUnlimited: false, usagePercentage: 25 });
    expect(await get('active_contacts')).toEqual({ limitType: 'active_contacts', used: 7, limit: null, remaining: null, isUnlimited: true, usagePercentage: 0 });
    expect(await get('ai_credits')).toMatchObject({ limit: 0, remaining: 0, usagePercentage: 0 });
    expect((await get('email_validation')).usagePercentage).toBeCloseTo(100 / 3, 10);
    expect(await get('monthly_imports')).toMatchObject({ remaining: 0, usagePercentage: 120 });
    expect(await get('lead_finder_credits')).toMatchObject({ used: 0, remaining: 100, usagePercentage: 0 });
    const all = await env.call(w.key, 'GET', '/v1/usage');
    expect(all.body.data.map((u: { limitType: string }) => u.limitType)).toEqual(['monthly_emails', 'active_contacts', 'ai_credits', 'email_validation', 'monthly_imports', 'lead_finder_credits']);
    const bad = await env.call(w.key, 'GET', '/v1/usage/monthly_sms');
    expect(bad.status).toBe(404);
    expect(bad.body.error.code).toBe('not_found');
    const sub = await env.call(w.key, 'GET', '/v1/account/subscription');
    expect(sub.body).toMatchObject({ plan: 'growth', apiAccess: true, limits: { active_contacts: null, monthly_emails: 200 } });
  });
  it('control PATCH validates', async () => {
    expect((await env.ctl('PATCH', `/workspaces/${ws.orgId}`, { limits: { bogus: 1 } })).status).toBe(400);
    expect((await env.ctl('PATCH', `/workspaces/${ws.orgId}`, { used: { ai_credits: -1 } })).status).toBe(400);
    expect((await env.ctl('PATCH', '/workspaces/9a3c2f5b-8e0c-4d2e-8b0b-6f576d1e4a55', {})).status).toBe(404);
  });
});

describe('rate limit (part 8)', () => {
  it('120 per 60 s per workspace, shared by its keys; 429 with Retry-After and retryAfter; others unaffected; window slides', async () => {
    const env2 = await Env.start();
    try {
      const a = await env2.workspace();
      const b = await env2.workspace();
      const second = await env2.key(a, ['usage:read']); // 1 request of a
      const remainings: number[] = [];
      for (let i = 0; i < 119; i++) {
        const r = await env2.call(i % 2 ? second.key : a.key, 'GET', '/v1/workspace');
        expect(r.status).toBe(200);
        remainings.push(Number(r.headers.get('x-ratelimit-remaining')));
      }
      expect(remainings[0]).toBe(118);
      expect(remainings[118]).toBe(0);
      for (let i = 1; i < remainings.length; i++) expect(remainings[i]).toBe(remainings[i - 1]! - 1);
      const limited = await env2.call(second.key, 'GET', '/v1/workspace');
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited', status: 429 });
      const ra = limited.headers.get('retry-after');
      expect(ra).toMatch(/^\d+$/);
      expect(Number(ra)).toBeGreaterThanOrEqual(1);
      expect(limited.body.error.retryAfter).toBe(Number(ra));
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect((await env2.call(a.key, 'GET', '/v1/nope')).status).toBe(429);
      expect((await env2.call(b.key, 'GET', '/v1/workspace')).status).toBe(200);
      expect((await env2.call(null, 'GET', '/v1/workspace')).status).toBe(401);
      await env2.ctl('POST', '/clock/advance', { seconds: Number(ra) });
      const again = await env2.call(a.key, 'GET', '/v1/workspace');
      expect(again.status).toBe(200);
    } finally {
      await env2.stop();
    }
  });
});

describe('idempotency (4.1)', () => {
  const list = async (w: Workspace) => (await env.call(w.key, 'GET', '/v1/campaigns?limit=100')).body.data.length;
  it('replays status, content-type and body byte for byte, with no new effect', async () => {
    const w = await env.workspace();
    const body = { name: 'idem', leads: ['a@x.test'] };
    const first = await env.call(w.key, 'POST', '/v1/campaigns', { body, idem: 'k-1' });
    expect(first.status).toBe(201);
    const again = await env.call(w.key, 'POST', '/v1/campaigns', { raw: JSON.stringify({ leads: ['a@x.test'], name: 'idem' }), idem: 'k-1' });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await list(w)).toBe(1);
    // PATCH and DELETE replay too
    const c = first.body.campaign;
    const p1 = await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { name: 'renamed' }, idem: 'k-2' });
    await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { name: 'other' } });
    const p2 = await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { name: 'renamed' }, idem: 'k-2' });
    expect(p2.text).toBe(p1.text);
    expect((await env.call(w.key, 'GET', '/v1/campaigns')).body.data[0].name).toBe('other');
    const k = await env.key(w, ['usage:read']);
    const d1 = await env.call(w.key, 'DELETE', `/v1/api-keys/${k.id}`, { idem: 'k-3' });
    const d2 = await env.call(w.key, 'DELETE', `/v1/api-keys/${k.id}`, { idem: 'k-3' });
    expect([d1.status, d2.status, d2.text]).toEqual([200, 200, d1.text]);
  });
  it('errors are not stored: a retry runs again and answers a fresh requestId', async () => {
    const w = await env.workspace();
    const e1 = await env.call(w.key, 'POST', '/v1/campaigns', { body: { name: '' }, idem: 'e' });
    const e2 = await env.call(w.key, 'POST', '/v1/campaigns', { body: { name: '' }, idem: 'e' });
    expect([e1.status, e2.status]).toEqual([400, 400]);
    expect(e2.body.error.requestId).not.toBe(e1.body.error.requestId);
    const ok = await env.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'fixed' }, idem: 'e' });
    expect(ok.status).toBe(201);
  });
  it('malformed HTTP gets an envelope too', async () => {
    const { connect } = await import('node:net');
    const url = new URL(env.ref.baseUrl);
    const text = await new Promise<string>((resolve, reject) => {
      const sock = connect(Number(url.port), url.hostname, () => sock.write('GARBAGE\r\n\r\n'));
      let buf = '';
      sock.on('data', (d) => (buf += d.toString()));
      sock.on('end', () => resolve(buf));
      sock.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body.error).toMatchObject({ code: 'validation_failed', status: 400 });
  });
  it('same key, different body or path -> 422 idempotency_key_reused', async () => {
    const w = await env.workspace();
    await env.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'a' }, idem: 'k' });
    for (const [method, path, body] of [['POST', '/v1/campaigns', { name: 'b' }], ['POST', '/v1/api-keys', { name: 'a' }]] as const) {
      const r = await env.call(w.key, method, path, { body, idem: 'k' });
      expect(r.status).toBe(422);
      expect(r.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_reused' });
    }
    expect(await list(w)).toBe(1);
  });
  it('requests with the key of one still processing: 409 conflict each, and one effect', async () => {
    // The first request is held in flight by the test (not by luck) while four more arrive.
    const w = await env.workspace();
    const key = `race-${randomUUID()}`;
    const hold = env.holds.hold(key);
    const post = () => env.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'race' }, idem: key });
    const { first } = await hold.first(post);
    const rest = await Promise.all(Array.from({ length: 4 }, post));
    hold.release();
    expect((await first).status).toBe(201);
    expect(rest.map((r) => r.status)).toEqual([409, 409, 409, 409]);
    for (const r of rest) expect(r.body.error.code).toBe('conflict');
    expect(await list(w)).toBe(1);
  });
  it('key length: 255 ok, 256 -> 400 validation_failed', async () => {
    const w = await env.workspace();
    expect((await env.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'a' }, idem: 'x'.repeat(255) })).status).toBe(201);
    const r = await env.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'a' }, idem: 'x'.repeat(256) });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('validation_failed');
    expect(await list(w)).toBe(1);
  });
  it('keys are scoped per workspace and expire after 24 h on the clock', async () => {
    const env2 = await Env.start();
    try {
      const a = await env2.workspace();
      const b = await env2.workspace();
      const ra = await env2.call(a.key, 'POST', '/v1/campaigns', { body: { name: 'a' }, idem: 'shared' });
      const rb = await env2.call(b.key, 'POST', '/v1/campaigns', { body: { name: 'a' }, idem: 'shared' });
      expect([ra.status, rb.status]).toEqual([201, 201]);
      expect(rb.body.campaign.id).not.toBe(ra.body.campaign.id);
      await env2.ctl('POST', '/clock/advance', { seconds: 24 * 3600 + 1 });
      const later = await env2.call(a.key, 'POST', '/v1/campaigns', { body: { name: 'a' }, idem: 'shared' });
      expect(later.status).toBe(201);
      expect(later.body.campaign.id).not.toBe(ra.body.campaign.id);
    } finally {
      await env2.stop();
    }
  });
});

describe('pagination (4.1, 8)', () => {
  let w: Workspace;
  beforeAll(async () => {
    w = await env.workspace();
    for (let i = 0; i < 7; i++) await env.campaign(w, { name: `p${i}` });
  });
  const page = (q: string) => env.call(w.key, 'GET', `/v1/campaigns${q}`);
  it('limit 1 and 100 ok; 0, 101, 1.5, -1, x -> 400', async () => {
    expect((await page('?limit=1')).body.data).toHaveLength(1);
    expect((await page('?limit=100')).body.data).toHaveLength(7);
    for (const l of ['0', '101', '1.5', '-1', 'x', '']) {
      const r = await page(`?limit=${l}`);
      expect(r.status, l).toBe(400);
      expect(r.body.error.code).toBe('validation_failed');
    }
  });
  it('newest first; a walk returns each item once; no nextCursor on the last page', async () => {
    const names: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const r = await page(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      names.push(...r.body.data.map((c: { name: string }) => c.name));
      if (!r.body.meta.hasMore) {
        expect(r.body.meta).not.toHaveProperty('nextCursor');
        break;
      }
      expect(typeof r.body.meta.nextCursor).toBe('string');
      cursor = r.body.meta.nextCursor;
    }
    expect(names).toEqual(['p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
  });
  it('garbage, tampered and foreign cursors -> 400', async () => {
    const good = (await page('?limit=2')).body.meta.nextCursor as string;
    const tampered = `${good.slice(0, 5)}${good[5] === 'A' ? 'B' : 'A'}${good.slice(6)}`;
    const keys = await env.call(w.key, 'GET', '/v1/api-keys');
    void keys;
    for (const c of ['garbage', 'abc.def', tampered, '%%%']) {
      const r = await page(`?cursor=${encodeURIComponent(c)}`);
      expect(r.status, c).toBe(400);
      expect(r.body.error.code).toBe('validation_failed');
    }
    const foreign = await env.call(w.key, 'GET', `/v1/accounts?cursor=${good}`);
    expect(foreign.status).toBe(400);
  });
  it('stable under concurrent inserts and deletes (keyset)', async () => {
    const w2 = await env.workspace();
    const m = await env.mailbox(w2);
    const ids: string[] = [m.id];
    for (let i = 0; i < 5; i++) ids.push((await env.mailbox(w2)).id);
    // newest first: ids reversed
    const p1 = await env.call(w2.key, 'GET', '/v1/accounts?limit=2');
    expect(p1.body.data.map((a: { id: string }) => a.id)).toEqual([ids[5], ids[4]]);
    await env.mailbox(w2); // insert at the head
    await env.call(w2.key, 'DELETE', `/v1/accounts/${ids[5]}`); // delete an already-seen item
    const p2 = await env.call(w2.key, 'GET', `/v1/accounts?limit=2&cursor=${p1.body.meta.nextCursor}`);
    expect(p2.body.data.map((a: { id: string }) => a.id)).toEqual([ids[3], ids[2]]);
    await env.call(w2.key, 'DELETE', `/v1/accounts/${ids[1]}`); // delete an unseen item
    const p3 = await env.call(w2.key, 'GET', `/v1/accounts?limit=2&cursor=${p2.body.meta.nextCursor}`);
    expect(p3.body.data.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect(p3.body.meta).toEqual({ hasMore: false });
  });
  it('default page size 50', async () => {
    const w3 = await env.workspace();
    for (let i = 0; i < 52; i++) await env.call(w3.key, 'POST', '/v1/api-keys', { body: { name: `k${i}`, scopes: ['usage:read'] } });
    const r = await env.call(w3.key, 'GET', '/v1/api-keys');
    expect(r.body.data).toHaveLength(50);
    expect(r.body.meta.hasMore).toBe(true);
  });
});

describe('lead searches (2.8, 4.7) fed by the control API', () => {
  it('lists newest first without drafts, paginated; reads one; advance sets the lifecycle fields', async () => {
    const w = await env.workspace();
    const mk = async (query: string, status?: string) =>
      (await env.ctl('POST', '/lead-searches', { organizationId: w.orgId, query, searchMode: 'companies', maxResults: 50, ...(status ? { status } : {}) })).body;
    const s1 = await mk('bakeries in Lyon');
    expect(s1).toMatchObject({ status: 'queued', discoveryFinished: false, completedAt: null, errorMessage: null, progress: { companiesFound: 0, companiesProcessed: 0, emailsFound: 0 } });
    await mk('draft one', 'draft');
    const s3 = await mk('florists', undefined);
    const l = await env.call(w.key, 'GET', '/v1/lead-searches?limit=1');
    expect(l.body.data).toEqual([{ id: s3.id, query: 'florists', status: 'queued', searchMode: 'companies', maxResults: 50, createdAt: s3.createdAt, completedAt: null }]);
    const l2 = await env.call(w.key, 'GET', `/v1/lead-searches?limit=5&cursor=${l.body.meta.nextCursor}`);
    expect(l2.body.data.map((s: { id: string }) => s.id)).toEqual([s1.id]);
    const adv = await env.ctl('POST', `/lead-searches/${s1.id}/advance`, { status: 'enriching', progress: { companiesFound: 12 } });
    expect(adv.body).toMatchObject({ status: 'enriching', discoveryFinished: true, completedAt: null, progress: { companiesFound: 12 } });
    await env.ctl('POST', '/clock/advance', { seconds: 10 });
    const done = await env.ctl('POST', `/lead-searches/${s1.id}/advance`, { status: 'failed', errorMessage: 'quota' });
    expect(done.body).toMatchObject({ status: 'failed', errorMessage: 'quota' });
    expect(typeof done.body.completedAt).toBe('string');
    const one = await env.call(w.key, 'GET', `/v1/lead-searches/${s1.id}`);
    expect(one.body).toEqual(done.body);
    const other = await env.workspace();
    expect((await env.call(other.key, 'GET', `/v1/lead-searches/${s1.id}`)).status).toBe(404);
  });
});

describe('control API v1', () => {
  it('needs the token, answers envelopes, 404 for unknown paths', async () => {
    const r = await env.ctl('GET', '/clock', undefined, 'wrong');
    expect(r.status).toBe(401);
    expect(envelopeProblems(r)).toEqual([]);
    const u = await env.ctl('GET', '/nope');
    expect(u.status).toBe(404);
    expect(envelopeProblems(u)).toEqual([]);
    expect((await fetch(`${env.ref.baseUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${env.ref.controlToken}` } })).status).toBe(404);
  });
  it('clock: advance moves every rule; drain answers processed', async () => {
    const before = Date.parse((await env.ctl('GET', '/clock')).body.now);
    const after = Date.parse((await env.ctl('POST', '/clock/advance', { seconds: 3600 })).body.now);
    expect(after - before).toBeGreaterThanOrEqual(3600_000);
    expect((await env.ctl('POST', '/clock/advance', { seconds: 0 })).status).toBe(400);
    expect(typeof (await env.ctl('POST', '/work/drain', {})).body.processed).toBe('number'); // earlier tests' mailboxes
    expect((await env.ctl('POST', '/work/drain', {})).body).toEqual({ processed: 0 });
  });
  it('workspaces: 201 with a key holding all:all and apikeys:manage', async () => {
    const r = await env.ctl('POST', '/workspaces', { name: 'n', timezone: 'America/New_York' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'n', timezone: 'America/New_York' });
    const keys = await env.call(r.body.apiKey, 'GET', '/v1/api-keys');
    expect(keys.body.data[0].scopes).toEqual(['all:all', 'apikeys:manage']);
    expect((await env.ctl('POST', '/workspaces', { timezone: 'Mars/Olympus' })).status).toBe(400);
  });
  it('tags: create, set on campaigns and mailboxes, filter lists', async () => {
    const w = await env.workspace();
    const t1 = (await env.ctl('POST', `/workspaces/${w.orgId}/tags`, { name: 'vip', color: '#ff0000' })).body;
    const t2 = (await env.ctl('POST', `/workspaces/${w.orgId}/tags`, { name: 'eu', color: '#00ff00' })).body;
    const c1 = await env.campaign(w, { name: 'one' });
    await env.campaign(w, { name: 'two' });
    const set = await env.ctl('PUT', `/campaigns/${c1.id}/tags`, { tagIds: [t1.id] });
    expect(set.body).toEqual({ id: c1.id, tags: [t1] });
    const f = await env.call(w.key, 'GET', `/v1/campaigns?tags=${t2.id},${t1.id}`);
    expect(f.body.data.map((c: { name: string }) => c.name)).toEqual(['one']);
    const m = await env.mailbox(w);
    await env.ctl('PUT', `/accounts/${m.id}/tags`, { tagIds: [t2.id] });
    const fa = await env.call(w.key, 'GET', `/v1/accounts?tags=${t2.id}`);
    expect(fa.body.data.map((a: { id: string; tags: unknown }) => [a.id, a.tags])).toEqual([[m.id, [t2]]]);
    expect((await env.call(w.key, 'GET', '/v1/accounts?tags=nope')).status).toBe(400);
    expect((await env.ctl('PUT', '/accounts/9a3c2f5b-8e0c-4d2e-8b0b-6f576d1e4a55/tags', { tagIds: [] })).status).toBe(404);
    expect((await env.ctl('POST', '/accounts/9a3c2f5b-8e0c-4d2e-8b0b-6f576d1e4a55/revoke-oauth')).status).toBe(404);
  });
});
