// Each mutant really deviates: a probe observes one behaviour; on the clean reference it equals
// the spec's expectation, with the mutant switched on it does not. Also: every mutant is switched
// at exactly one place in the code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Env, UUID_V4 } from './test-helpers.ts';
import { MUTANTS } from './index.ts';
import type { MutantId } from './mutants.ts';

type Probe = (e: Env) => Promise<unknown>;
const ABSENT = '5b0b6f57-6d1e-4a55-9a3c-2f5b8e0c1d2e';

async function keyWith(e: Env, scopes: string[]) {
  const w = await e.workspace();
  return { w, k: (await e.key(w, scopes)).key };
}
async function exhaust(e: Env, key: string, n = 120) {
  for (let i = 0; i < n; i++) {
    const r = await e.call(key, 'GET', '/v1/workspace');
    if (r.status !== 200) throw new Error(`request ${i}: ${r.status}`);
  }
}
const status = (e: Env, key: string | null, method: string, path: string, o = {}) => e.call(key, method, path, o).then((r) => r.status);
const campaignsCount = async (e: Env, key: string) => (await e.call(key, 'GET', '/v1/campaigns?limit=100')).body.data.length;
const names = async (e: Env, key: string, q: string) => (await e.call(key, 'GET', `/v1/campaigns${q}`)).body.data.map((c: { name: string }) => c.name);
async function usage(e: Env, limits: Record<string, number | null>, used: Record<string, number>, t: string) {
  const w = await e.workspace();
  await e.ctl('PATCH', `/workspaces/${w.orgId}`, { limits, used });
  return (await e.call(w.key, 'GET', `/v1/usage/${t}`)).body;
}

/** mutant id -> [expected observation on the clean reference, probe]. */
const PROBES: Record<MutantId, [unknown, Probe]> = {
  'auth-missing-header-400': [401, (e) => status(e, null, 'GET', '/v1/workspace')],
  'auth-scheme-unchecked': [[401, 401], async (e) => {
    const w = await e.workspace();
    return [await status(e, null, 'GET', '/v1/workspace', { auth: `Token ${w.key}` }), await status(e, null, 'GET', '/v1/workspace', { auth: w.key })];
  }],
  'auth-unknown-key-403': [401, (e) => status(e, 'ock_nobody', 'GET', '/v1/workspace')],
  'auth-revoked-key-valid': [401, async (e) => {
    const { w, k } = await keyWith(e, ['usage:read']);
    const id = (await e.call(w.key, 'GET', '/v1/api-keys?limit=1')).body.data[0].id;
    await e.call(w.key, 'DELETE', `/v1/api-keys/${id}`);
    await e.ctl('POST', '/clock/advance', { seconds: 120 });
    return status(e, k, 'GET', '/v1/workspace');
  }],
  'auth-401-wrong-code': ['unauthenticated', async (e) => (await e.call(null, 'GET', '/v1/workspace')).body.error.code],
  'auth-missing-scope-401': [403, async (e) => status(e, (await keyWith(e, ['campaigns:read'])).k, 'GET', '/v1/workspace')],
  'scope-all-read-grants-write': [403, async (e) => status(e, (await keyWith(e, ['all:read'])).k, 'POST', '/v1/campaigns', { body: { name: 'x' } })],
  'scope-all-all-grants-apikeys': [403, async (e) => status(e, (await keyWith(e, ['all:all'])).k, 'GET', '/v1/api-keys')],
  'scope-domain-wildcard-ignored': [200, async (e) => status(e, (await keyWith(e, ['campaigns:all'])).k, 'GET', '/v1/campaigns')],
  'scope-all-read-misses-reads': [200, async (e) => status(e, (await keyWith(e, ['all:read'])).k, 'GET', '/v1/workspace')],
  'scope-write-grants-lifecycle': [403, async (e) => status(e, (await keyWith(e, ['campaigns:write'])).k, 'POST', `/v1/campaigns/${ABSENT}/start`)],
  'scope-denied-404': [403, async (e) => status(e, (await keyWith(e, ['campaigns:read'])).k, 'GET', '/v1/workspace')],
  'scope-wildcard-cross-domain': [403, async (e) => status(e, (await keyWith(e, ['accounts:all'])).k, 'GET', '/v1/campaigns')],
  'apikeys-subset-unchecked': [403, async (e) => {
    const w = await e.workspace();
    const { key } = await e.dashboardKey(w, ['apikeys:manage', 'campaigns:read']);
    return status(e, key, 'POST', '/v1/api-keys', { body: { name: 'x', scopes: ['all:all'] } });
  }],
  'apikeys-manage-grantable': [403, async (e) => status(e, (await e.workspace()).key, 'POST', '/v1/api-keys', { body: { name: 'x', scopes: ['apikeys:manage'] } })],
  'plan-api-access-402': [403, async (e) => {
    const w = await e.workspace();
    await e.ctl('PATCH', `/workspaces/${w.orgId}`, { apiAccess: false });
    return status(e, w.key, 'GET', '/v1/workspace');
  }],
  'idem-scope-per-key': [1, async (e) => {
    const w = await e.workspace();
    const k2 = (await e.key(w, ['campaigns:write', 'campaigns:read'])).key;
    await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'k' });
    await e.call(k2, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'k' });
    return campaignsCount(e, w.key);
  }],
  'page-nextcursor-null': [true, async (e) => {
    const w = await e.workspace();
    for (let i = 0; i < 2; i++) await e.campaign(w);
    return typeof (await e.call(w.key, 'GET', '/v1/campaigns?limit=1')).body.meta.nextCursor === 'string';
  }],
  'tenant-isolation-broken': [404, async (e) => {
    const a = await e.workspace();
    const b = await e.workspace();
    const c = await e.campaign(a);
    return status(e, b.key, 'GET', `/v1/campaigns/${c.id}/status`);
  }],
  'plan-api-access-ignored': [403, async (e) => {
    const w = await e.workspace();
    await e.ctl('PATCH', `/workspaces/${w.orgId}`, { apiAccess: false });
    return status(e, w.key, 'GET', '/v1/workspace');
  }],
  'err-status-mismatch': [404, async (e) => (await e.call(null, 'GET', '/v1/nope')).body.error.status],
  'err-requestid-not-uuid': [true, async (e) => UUID_V4.test((await e.call(null, 'GET', '/v1/workspace')).body.error.requestId)],
  'err-requestid-constant': [true, async (e) => {
    const a = (await e.call(null, 'GET', '/v1/workspace')).body.error.requestId;
    const b = (await e.call(null, 'GET', '/v1/workspace')).body.error.requestId;
    return a !== b;
  }],
  'err-type-wrong': ['invalid_request_error', async (e) => (await e.call(null, 'GET', '/v1/nope')).body.error.type],
  'err-validation-no-details': [true, async (e) => Array.isArray((await e.call((await e.workspace()).key, 'POST', '/v1/campaigns', { body: {} })).body.error.details)],
  'err-validation-wrong-code': ['validation_failed', async (e) => (await e.call((await e.workspace()).key, 'POST', '/v1/campaigns', { body: {} })).body.error.code],
  'err-429-no-retryafter-field': ['number', async (e) => {
    const w = await e.workspace();
    await exhaust(e, w.key);
    return typeof (await e.call(w.key, 'GET', '/v1/workspace')).body.error.retryAfter;
  }],
  'err-unknown-route-text': ['application/json; charset=utf-8', async (e) => (await e.call(null, 'GET', '/v1/nope')).headers.get('content-type')],
  'err-malformed-json-500': [400, async (e) => status(e, (await e.workspace()).key, 'POST', '/v1/campaigns', { raw: '{' })],
  'err-envelope-unwrapped': [true, async (e) => 'error' in (await e.call((await keyWith(e, ['campaigns:read'])).k, 'GET', '/v1/workspace')).body],
  'idem-ignored': [1, async (e) => {
    const w = await e.workspace();
    for (let i = 0; i < 2; i++) await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'k' });
    return campaignsCount(e, w.key);
  }],
  'idem-replay-status-200': [201, async (e) => {
    const w = await e.workspace();
    await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'k' });
    return status(e, w.key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'k' });
  }],
  'idem-reuse-replays': [422, async (e) => {
    const w = await e.workspace();
    await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'k' });
    return status(e, w.key, 'POST', '/v1/campaigns', { body: { name: 'y' }, idem: 'k' });
  }],
  'idem-no-inflight-lock': [1, async (e) => {
    const w = await e.workspace();
    await Promise.all([0, 1, 2, 3].map(() => e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'k' })));
    return campaignsCount(e, w.key);
  }],
  'idem-long-key-accepted': [400, async (e) => status(e, (await e.workspace()).key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'k'.repeat(256) })],
  'idem-cross-workspace': [1, async (e) => {
    const a = await e.workspace();
    const b = await e.workspace();
    await e.call(a.key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'shared' });
    await e.call(b.key, 'POST', '/v1/campaigns', { body: { name: 'x' }, idem: 'shared' });
    return campaignsCount(e, b.key);
  }],
  'page-oldest-first': [['b', 'a'], async (e) => {
    const w = await e.workspace();
    await e.campaign(w, { name: 'a' });
    await e.campaign(w, { name: 'b' });
    return names(e, w.key, '');
  }],
  'page-size-101-accepted': [400, async (e) => status(e, (await e.workspace()).key, 'GET', '/v1/campaigns?limit=101')],
  'page-size-0-accepted': [400, async (e) => status(e, (await e.workspace()).key, 'GET', '/v1/campaigns?limit=0')],
  'page-offset-cursor': [['a'], async (e) => {
    const w = await e.workspace();
    for (const n of ['a', 'b', 'c']) await e.campaign(w, { name: n });
    const p1 = await e.call(w.key, 'GET', '/v1/campaigns?limit=2');
    await e.campaign(w, { name: 'd' });
    return names(e, w.key, `?limit=2&cursor=${p1.body.meta.nextCursor}`);
  }],
  'page-hasmore-always-true': [false, async (e) => {
    const w = await e.workspace();
    await e.campaign(w);
    return (await e.call(w.key, 'GET', '/v1/campaigns')).body.meta.hasMore;
  }],
  'page-garbage-cursor-first-page': [400, async (e) => status(e, (await e.workspace()).key, 'GET', '/v1/campaigns?cursor=garbage')],
  'page-limit-ignored': [1, async (e) => {
    const w = await e.workspace();
    for (let i = 0; i < 3; i++) await e.campaign(w);
    return (await names(e, w.key, '?limit=1')).length;
  }],
  'page-cursor-inclusive': [['a'], async (e) => {
    const w = await e.workspace();
    for (const n of ['a', 'b', 'c']) await e.campaign(w, { name: n });
    const p1 = await e.call(w.key, 'GET', '/v1/campaigns?limit=2');
    return names(e, w.key, `?limit=2&cursor=${p1.body.meta.nextCursor}`);
  }],
  'rate-per-key': [429, async (e) => {
    const w = await e.workspace();
    const k2 = (await e.key(w, ['usage:read'])).key;
    await exhaust(e, w.key, 60);
    await exhaust(e, k2, 59);
    return status(e, k2, 'GET', '/v1/workspace');
  }],
  'rate-global': [200, async (e) => {
    const a = await e.workspace();
    const b = await e.workspace();
    await exhaust(e, a.key);
    return status(e, b.key, 'GET', '/v1/workspace');
  }],
  'rate-no-retry-after-header': [true, async (e) => {
    const w = await e.workspace();
    await exhaust(e, w.key);
    return /^\d+$/.test((await e.call(w.key, 'GET', '/v1/workspace')).headers.get('retry-after') ?? '');
  }],
  'rate-no-remaining-header': ['119', async (e) => (await e.call((await e.workspace()).key, 'GET', '/v1/workspace')).headers.get('x-ratelimit-remaining')],
  'rate-remaining-per-key': ['118', async (e) => {
    const w = await e.workspace();
    const k2 = (await e.key(w, ['usage:read'])).key;
    return (await e.call(k2, 'GET', '/v1/workspace')).headers.get('x-ratelimit-remaining');
  }],
  'rate-limit-150': [429, async (e) => {
    const w = await e.workspace();
    await exhaust(e, w.key);
    return status(e, w.key, 'GET', '/v1/workspace');
  }],
  'rate-window-never-resets': [200, async (e) => {
    const w = await e.workspace();
    await exhaust(e, w.key);
    await e.call(w.key, 'GET', '/v1/workspace');
    await e.ctl('POST', '/clock/advance', { seconds: 61 });
    return status(e, w.key, 'GET', '/v1/workspace');
  }],
  'rate-429-wrong-type': [['rate_limit_error', 'rate_limited'], async (e) => {
    const w = await e.workspace();
    await exhaust(e, w.key);
    const err = (await e.call(w.key, 'GET', '/v1/workspace')).body.error;
    return [err.type, err.code];
  }],
  'ver-v2-alias': [404, async (e) => status(e, (await e.workspace()).key, 'GET', '/v2/workspace')],
  'usage-percentage-fraction': [25, async (e) => (await usage(e, { monthly_emails: 200 }, { monthly_emails: 50 }, 'monthly_emails')).usagePercentage],
  'usage-unlimited-limit-zero': [null, async (e) => (await usage(e, { ai_credits: null }, {}, 'ai_credits')).limit],
  'usage-remaining-wrong': [150, async (e) => (await usage(e, { monthly_emails: 200 }, { monthly_emails: 50 }, 'monthly_emails')).remaining],
  'usage-unknown-type-200': [404, async (e) => status(e, (await e.workspace()).key, 'GET', '/v1/usage/sms')],
  'usage-unlimited-percentage-nonzero': [0, async (e) => (await usage(e, { ai_credits: null }, { ai_credits: 5 }, 'ai_credits')).usagePercentage],
  'apikey-revoke-shape': [{ success: true }, async (e) => {
    const w = await e.workspace();
    const k = await e.key(w, ['usage:read']);
    return (await e.call(w.key, 'DELETE', `/v1/api-keys/${k.id}`)).body;
  }],
  'apikey-revoke-not-immediate': [401, async (e) => {
    const w = await e.workspace();
    const k = await e.key(w, ['usage:read']);
    await e.call(w.key, 'DELETE', `/v1/api-keys/${k.id}`);
    return status(e, k.key, 'GET', '/v1/workspace');
  }],
  'workspace-missing-timezone': ['UTC', async (e) => (await e.call((await e.workspace()).key, 'GET', '/v1/workspace')).body.timezone],
};

describe('mutants', () => {
  let clean: Env;
  beforeAll(async () => {
    clean = await Env.start();
  });
  afterAll(() => clean.stop());

  it('every mutant has a probe', () => {
    expect(Object.keys(PROBES).sort()).toEqual(MUTANTS.map((m) => m.id).sort());
  });

  it('every mutant is switched at exactly one place', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d, { withFileTypes: true })) {
        if (f.isDirectory()) walk(join(d, f.name));
        else if (f.name.endsWith('.ts') && !f.name.endsWith('.test.ts') && f.name !== 'mutants.ts' && f.name !== 'test-helpers.ts') files.push(join(d, f.name));
      }
    };
    walk(import.meta.dirname);
    const src = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const m of MUTANTS) {
      const n = src.split(`mutant('${m.id}')`).length - 1;
      expect(n, m.id).toBe(1);
    }
  });

  for (const m of MUTANTS) {
    it(`${m.id} deviates`, async () => {
      const [expected, probe] = PROBES[m.id as MutantId];
      expect(await probe(clean), `clean reference (${m.rule})`).toEqual(expected);
      const e = await Env.start([m.id]);
      try {
        expect(await probe(e), `with mutant ${m.id}`).not.toEqual(expected);
      } finally {
        await e.stop();
      }
    });
  }
});
