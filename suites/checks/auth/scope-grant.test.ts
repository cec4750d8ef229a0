import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../../harness/ground/profile.ts';
import type { ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { CheckContext, Depth } from '../../../harness/ground/check.ts';
import { acceptedBy, ENDPOINTS, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';
import { domainOf } from '../../../harness/ground/spec-model/scopes.ts';
import { placeholderRequest } from '../../lib/requests.ts';
import { endpointOf, failureOf } from './scripted-target.test-helper.ts';
import { grantProbes, NARROW, plausibleKeyOf } from './scope-probes.ts';
import { SCOPE_GRANT_CHECK } from './scope-grant.ts';

// SCOPE-GRANT's probes, and its verdict against scripted targets: it passes one that reads part 5
// as written at every depth, and fails a route that checks no scope, another scope, or a wildcard row short.

const profile = await loadProfile();


const CODE: Record<number, [string, string]> = { 400: ['validation_failed', 'invalid_request_error'], 403: ['permission_denied', 'authorization_error'], 404: ['not_found', 'invalid_request_error'] };
function answer(status: number): ApiResponse {
  const body = status < 300 ? { ok: true } : { error: { type: CODE[status]![1], code: CODE[status]![0], message: 'x', status, requestId: randomUUID() } };
  return { status, headers: { 'content-type': 'application/json' }, body, text: JSON.stringify(body), exchangeId: randomUUID(), durationMs: 1 };
}

/** Serves by acceptedBy (explained placeholder refusals); `accepts` overrides who is served. */
type Accepts = (ep: Endpoint, credential: string) => boolean;
const asWritten: Accepts = (ep, c) => acceptedBy(ep).includes(c as never);

async function verdict(accepts: Accepts, depth: Depth = 'default'): Promise<string | undefined> {
  const client = (credential: string) => ({
    request: async (req: ApiRequest) => {
      const ep = endpointOf(req, profile);
      if (!accepts(ep, credential)) return answer(403);
      return answer(placeholderRequest(ep, profile)!.explains[0]?.status ?? 200);
    },
  });
  const ctx = { profile, depth, workspace: async () => ({ createKey: async ([s]: string[]) => ({ id: 'k', secret: 's', client: client(s!) }) }) } as unknown as CheckContext;
  return failureOf(SCOPE_GRANT_CHECK, ctx);
}

describe('SCOPE-GRANT probes', () => {
  const deep = grantProbes('default');
  it('asks every route outside apikeys:manage with its own scope (served) and with a key its row refuses', () => {
    for (const e of ENDPOINTS.filter((x) => x.scope !== 'apikeys:manage')) {
      expect(deep.some((p) => p.ep === e && p.served && p.scope === e.scope), e.id).toBe(true);
      const refusals = deep.filter((p) => p.ep === e && !p.served);
      expect(refusals.length, e.id).toBeGreaterThan(0);
      for (const p of refusals) expect(acceptedBy(e), `${e.id} with ${p.scope}`).not.toContain(p.scope);
    }
    for (const p of deep.filter((x) => x.served)) expect(acceptedBy(p.ep), `${p.ep.id} with ${p.scope}`).toContain(p.scope);
    expect(deep.filter((p) => p.ep.scope === 'apikeys:manage').every((p) => !p.served)).toBe(true);
  });
  it('takes the read wildcard for a write and a write-like scope of its own domain for a read', () => {
    for (const e of ENDPOINTS.filter((x) => x.scope !== 'apikeys:manage')) {
      const key = plausibleKeyOf(e);
      if (!acceptedBy(e).includes('all:read')) expect(key, e.id).toBe('all:read');
      else if (['campaigns', 'leads', 'emails'].includes(domainOf(e.scope))) expect(key, e.id).toMatch(new RegExp(`^${domainOf(e.scope)}:(write|send|lifecycle)$`));
    }
  });
  it('asks at quick every route part 4 lists both ways, a referenced route where a neighbouring scope or the mailbox-read row is the slip, and a route of every granular scope', () => {
    const quick = grantProbes('quick');
    for (const e of ENDPOINTS.filter((x) => !x.referenced && x.scope !== 'apikeys:manage')) {
      expect(quick.some((p) => p.ep === e && p.served && p.scope === e.scope), e.id).toBe(true);
      expect(quick.some((p) => p.ep === e && !p.served), e.id).toBe(true);
    }
    for (const s of NARROW) expect(quick.some((p) => p.scope === s && p.served), s).toBe(true);
    expect(quick.filter((p) => p.ep.id === 'subscription.get').map((p) => p.scope)).toEqual(['accounts:read']);
    expect(quick.every((p) => deep.some((d) => d.ep === p.ep && d.scope === p.scope))).toBe(true);
  });
  it('asks at smoke one key a granular scope: its first route served, at most one route refusing it', () => {
    const smoke = grantProbes('smoke');
    for (const s of NARROW) {
      expect(smoke.filter((p) => p.scope === s && p.served).length, s).toBe(1);
      expect(smoke.filter((p) => p.scope === s && !p.served).length, s).toBeLessThanOrEqual(1);
    }
    expect(smoke.every((p) => deep.some((d) => d.ep === p.ep && d.scope === p.scope))).toBe(true);
  });
  it('claims exactly the clauses its probes hold, within its budget', () => {
    expect(new Set(SCOPE_GRANT_CHECK.clauses)).toEqual(new Set(deep.flatMap((p) => p.clauses)));
    expect(SCOPE_GRANT_CHECK.budget).toBeGreaterThanOrEqual(deep.length + new Set(deep.map((p) => p.scope)).size);
  });
});

describe('SCOPE-GRANT against scripted targets', () => {
  it('passes a target that reads part 5 as written, at every depth', async () => {
    for (const d of ['smoke', 'quick', 'default'] as const) expect(await verdict(asWritten, d), d).toBeUndefined();
  });
  it('fails a route that checks no scope, naming its clause', async () => {
    const failure = await verdict((ep, c) => ep.id === 'leads.mutate' || asWritten(ep, c), 'quick');
    expect(failure).toContain('LEAD-MUTATE-SCOPE');
    expect(failure).toContain('SCOPE-ALLREAD-NO-WRITE');
  });
  it('fails a route that also serves a neighbouring scope, or demands another', async () => {
    expect(await verdict((ep, c) => (ep.id === 'analytics.overview' && c === 'campaigns:read') || asWritten(ep, c), 'quick')).toContain('ANLT-OV-SCOPE');
    expect(await verdict((ep, c) => (ep.id === 'campaigns.resume' ? c === 'campaigns:write' : asWritten(ep, c)), 'quick')).toContain('CAMP-RESUME-SCOPE');
    expect(await verdict((ep, c) => (ep.id === 'emails.get' && c === 'emails:write') || asWritten(ep, c), 'smoke')).toContain('EMAIL-GET-SCOPE');
  });
  it('fails a wildcard row short or overreaching', async () => {
    expect(await verdict((ep, c) => !(ep.id === 'accounts.pause' && c === 'accounts:all') && asWritten(ep, c), 'quick')).toContain('SCOPE-WILDCARD-ACCOUNTS');
    expect(await verdict((ep, c) => (ep.id === 'apikeys.revoke' && c === 'all:all') || asWritten(ep, c), 'quick')).toContain('SCOPE-APIKEYS-NO-WILDCARD');
    expect(await verdict((ep, c) => !(ep.group === 'mailbox-read' && c === 'accounts:write') && asWritten(ep, c), 'quick')).toContain('SCOPE-GROUP-MAILBOX-READ');
  });
});
