import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../../harness/ground/profile.ts';
import type { ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { acceptedBy, ENDPOINTS, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';
import { placeholderRequest } from '../../lib/requests.ts';
import { endpointOf, failureOf } from './scripted-target.test-helper.ts';
import { SCOPE_MATRIX_CHECKS } from './scope-matrix.ts';

// The matrix judged against scripted targets: it passes a target that reads part 5 as written
// (whatever refusal its placeholders explain), and fails one that refuses accounts:write on
// mailbox reads, answers 5xx to an accepted call, or hides an accepted route behind a 404.

const profile = await loadProfile();

type Behaviour = (ep: Endpoint, credential: string, req: ApiRequest) => number | undefined;
const ERR_CODE: Record<number, string> = { 400: 'validation_failed', 403: 'permission_denied', 404: 'not_found', 500: 'internal_error' };
const ERR_TYPE: Record<number, string> = { 400: 'invalid_request_error', 403: 'authorization_error', 404: 'invalid_request_error', 500: 'api_error' };

function answer(status: number): ApiResponse {
  const body = status < 300 ? { ok: true } : { error: { type: ERR_TYPE[status], code: ERR_CODE[status], message: 'x', status, requestId: randomUUID() } };
  return { status, headers: { 'content-type': 'application/json' }, body, text: JSON.stringify(body), exchangeId: randomUUID(), durationMs: 1 };
}

/** A target that serves by acceptedBy; `deviate` overrides the answer where it returns a status. */
function target(deviate: Behaviour = () => undefined, accepts = (ep: Endpoint, c: string) => acceptedBy(ep).includes(c as never)) {
  return (credential: string) => async (req: ApiRequest) => {
    const ep = endpointOf(req, profile);
    const d = deviate(ep, credential, req);
    if (d !== undefined) return answer(d);
    if (!accepts(ep, credential)) return answer(403);
    // A correct target may refuse what the placeholder provokes: an absent id first, else the body.
    const explains = placeholderRequest(ep, profile)!.explains;
    return answer(explains[0]?.status ?? 200);
  };
}

async function verdict(check: Check, serve: ReturnType<typeof target>): Promise<string | undefined> {
  const credential = check.id.slice('SCOPE-MATRIX/'.length);
  const client = { request: serve(credential) };
  const ctx = { profile, depth: 'default', workspace: async () => ({ createKey: async () => ({ id: 'k', secret: 's', client }) }) } as unknown as CheckContext;
  return failureOf(check, ctx);
}

const failing = async (serve: ReturnType<typeof target>) => {
  const out: string[] = [];
  for (const c of SCOPE_MATRIX_CHECKS) if (await verdict(c, serve)) out.push(c.id);
  return out;
};

describe('the scope matrix', () => {
  it('passes a target that reads part 5 as written, whichever placeholder refusal it gives', async () => {
    expect(await failing(target())).toEqual([]);
    // 2xx everywhere it is accepted is as good as the explained refusals.
    expect(await failing(target((ep, c) => (acceptedBy(ep).includes(c as never) ? 200 : undefined)))).toEqual([]);
    // The body checked before the id: 400 where a body is sent.
    expect(await failing(target((ep, c, req) => (acceptedBy(ep).includes(c as never) && req.body !== undefined ? 400 : undefined)))).toEqual([]);
  });
  it('fails a target that refuses accounts:write on mailbox reads', async () => {
    const old = target((ep, c) => (ep.group === 'mailbox-read' && c === 'accounts:write' ? 403 : undefined));
    expect(await failing(old)).toEqual(['SCOPE-MATRIX/accounts:write']);
  });
  it('fails a route table that forgets a wildcard on any one route of what it covers', async () => {
    for (const [scope, id] of [['accounts:all', 'accounts.pause'], ['campaigns:all', 'campaigns.resume'], ['leads:all', 'leads.mutate'], ['emails:all', 'emails.markRead'], ['all:read', 'leadSearches.get']] as const) {
      expect(await failing(target((ep, c) => (c === scope && ep.id === id ? 403 : undefined))), `${scope} on ${id}`).toEqual([`SCOPE-MATRIX/${scope}`]);
    }
    // all:read wrongly served on a write route the sampled row does not ask.
    expect(await failing(target((ep, c) => (c === 'all:read' && ep.id === 'leads.delete' ? 200 : undefined)))).toEqual(['SCOPE-MATRIX/all:read']);
  });
  it('fails a 5xx to an accepted call', async () => {
    expect(await failing(target((ep, c) => (c === 'leads:all' && acceptedBy(ep).includes(c) ? 500 : undefined)))).toEqual(['SCOPE-MATRIX/leads:all']);
  });
  it('fails a 404 the placeholder does not explain (a route without ids)', async () => {
    expect(await failing(target((ep, c) => (c === 'all:read' && ep.id === 'campaigns.list' ? 404 : undefined)))).toEqual(['SCOPE-MATRIX/all:read']);
  });
  it('fails a 400 on a GET without a body', async () => {
    expect(await failing(target((ep, c) => (c === 'usage:read' && ep.id === 'workspace.get' ? 400 : undefined)))).toEqual(['SCOPE-MATRIX/usage:read']);
  });
  it('fails a 200 to a credential the endpoint does not accept', async () => {
    expect(await failing(target((ep, c) => (c === 'campaigns:write' && ep.id === 'campaigns.start' ? 200 : undefined)))).toEqual(['SCOPE-MATRIX/campaigns:write']);
  });
  it('proves every endpoint scope clause both ways: served by its own scope, refused by another credential', () => {
    for (const e of ENDPOINTS) {
      for (const clause of e.scopeClauses ?? []) {
        const claimers = SCOPE_MATRIX_CHECKS.filter((c) => c.clauses.includes(clause)).map((c) => c.id.slice('SCOPE-MATRIX/'.length));
        expect(claimers, `${clause} served`).toContain(e.scope);
        expect(claimers.filter((c) => !acceptedBy(e).includes(c as never)).length, `${clause} refused`).toBeGreaterThan(0);
      }
    }
  });
});

describe('placeholder requests say what they provoke', () => {
  it('404 not_found exactly where a path id names nothing; 400 validation_failed exactly where a body is sent', () => {
    for (const e of ENDPOINTS) {
      const req = placeholderRequest(e, profile);
      if (!req) continue;
      const template = e.path ?? profile.operations[e.referenced!]!.path;
      const hasId = /\{(?!provider\}|limitType\})\w+\}/.test(template) || e.id === 'accounts.oauthStatus';
      expect(req.explains.some((x) => x.status === 404 && x.code === 'not_found'), e.id).toBe(hasId);
      expect(req.explains.some((x) => x.status === 400 && x.code === 'validation_failed'), e.id).toBe(req.body !== undefined || e.id === 'accounts.oauthStatus');
    }
  });
});
