import type { Check } from '../../../harness/ground/check.ts';
import { ENDPOINTS, label, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';
import { placeholderRequest } from '../../lib/requests.ts';
import { expect2xx, expectError } from '../../lib/expect.ts';
import { skip } from '../../../harness/ground/check.ts';
import { newKey } from '../../lib/recipes.ts';
import { shared } from '../../lib/shared.ts';

// Part 5.3: a missing, invalid or revoked key gives 401 unauthenticated, on every endpoint.
// Generated from the endpoint catalog: one check per endpoint and way of being unauthenticated.

const VARIANTS = [
  {
    id: 'AUTH-401-MISSING',
    clauses: ['AUTH-401-MISSING', 'SVC-KEY-EVERY-REQUEST'],
    title: 'MUST answer 401 unauthenticated when Authorization is missing',
    budget: 1,
    headers: async (_key: () => Promise<string>) => ['none' as const],
  },
  {
    id: 'AUTH-401-MALFORMED',
    // Only the Bearer scheme is a credential: the same key in any other form is refused. A Bearer
    // value of another shape than a key is an invalid (unknown) key too: no format check may answer it otherwise.
    clauses: ['AUTH-401-MALFORMED', 'AUTH-BEARER', 'AUTH-401-UNKNOWN'],
    title: 'MUST answer 401 unauthenticated to an Authorization header that is not "Bearer <key>", and to a Bearer value that is no key at all',
    // Five headers, and the run's shared key when this check builds it.
    budget: 6,
    // The key is made through the referenced operation (the pool's own key is never handed out).
    needsKey: true,
    // A real key in the wrong scheme proves the scheme is checked; "Bearer" alone has no key.
    headers: async (secret: () => Promise<string>) => {
      const key = await secret();
      return [{ header: 'Bearer' }, { header: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` }, { header: `Token ${key}` }, { header: key }, { header: 'Bearer not-a-key' }];
    },
  },
  {
    id: 'AUTH-401-UNKNOWN',
    clauses: ['AUTH-401-UNKNOWN'],
    title: 'MUST answer 401 unauthenticated to a key the target never issued',
    budget: 2,
    needsKey: true,
    // Same shape as a real key, last characters changed: a target must look the key up.
    headers: async (secret: () => Promise<string>) => {
      const key = await secret();
      return [{ header: `Bearer ${key.slice(0, -6)}${key.endsWith('zzzzzz') ? 'yyyyyy' : 'zzzzzz'}` }];
    },
  },
] as const;

function unauthenticatedCheck(v: (typeof VARIANTS)[number], ep: Endpoint): Check {
  return {
    id: `${v.id}/${label(ep)}`,
    title: v.title,
    clauses: [...v.clauses, 'ERR-TABLE-401', 'ERR-ENVELOPE'],
    level: 'MUST',
    features: [...(ep.referenced ? [`op:${ep.referenced}` as const] : []), ...('needsKey' in v ? ['op:apikeys.create' as const] : [])],
    budget: v.budget,
    async run(ctx) {
      const req = placeholderRequest(ep, ctx.profile);
      if (!req) skip(`${ep.id} is not declared in the profile${ep.referenced ? ` (operations.${ep.referenced})` : ''}`);
      // A real key only feeds the malformed and unknown headers (these requests carry no valid
      // bearer): one key for the whole run, not one per check and endpoint.
      const secret = () => shared(ctx, 'all:read key', async () => (await (await ctx.workspace()).createKey(['all:read'])).secret);
      for (const auth of await v.headers(secret)) {
        const res = await ctx.anonymous.request({ ...req, auth });
        const shown = auth === 'none' ? 'no Authorization header' : `Authorization "${auth.header.split(' ')[0]} ..."`;
        expectError(res, 401, ctx.profile, `${label(ep)} with ${shown}`, 'unauthenticated');
      }
    },
  };
}

const revoked: Check = {
  id: 'AUTH-401-REVOKED/every-endpoint',
  title: 'MUST answer 401 unauthenticated to a revoked key on every endpoint, from the next request on',
  clauses: ['AUTH-401-REVOKED', 'KEY-REVOKE-IMMEDIATE', 'ERR-TABLE-401'],
  level: 'MUST',
  features: ['op:apikeys.create'],
  budget: ENDPOINTS.length + 3,
  async run(ctx) {
    const ws = await ctx.workspace();
    const key = await newKey(ws, ctx, ['all:all']);
    const before = await key.client.get('/v1/workspace');
    if (before.status !== 200) skip(`a fresh all:all key could not read /v1/workspace (${before.status}); revocation cannot be observed`);
    const del = await ws.api.delete(`/v1/api-keys/${encodeURIComponent(key.id)}`);
    expect2xx(del, 'DELETE /v1/api-keys/{id}');
    for (const ep of ENDPOINTS) {
      const req = placeholderRequest(ep, ctx.profile);
      if (!req) continue;
      const res = await key.client.request(req);
      expectError(res, 401, ctx.profile, `${label(ep)} with a revoked key`, 'unauthenticated');
    }
  },
};

export const UNAUTHENTICATED_CHECKS: Check[] = [...VARIANTS.flatMap((v) => ENDPOINTS.map((ep) => unauthenticatedCheck(v, ep))), revoked];
