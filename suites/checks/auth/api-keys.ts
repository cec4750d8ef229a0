import type { Check } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectSchema, expectThat, is2xx } from '../../lib/expect.ts';
import { getPath, newKey, walk } from '../../lib/recipes.ts';
import { fieldName, resultPath } from '../../../harness/ground/operations.ts';

// API keys (part 5 and 4.7): the dashboard-only scope, the subset rule, revocation, plan access.

export const API_KEY_CHECKS: Check[] = [
  {
    id: 'KEY-CREATE-NO-MANAGE-SCOPE',
    title: 'MUST NOT grant apikeys:manage to a key created through the API (refused, or the key made without it)',
    clauses: ['SCOPE-APIKEYS-DASHBOARD-ONLY', 'SCOPE-APIKEYS-SUBSET'],
    level: 'MUST',
    features: ['op:apikeys.create'],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const op = ctx.profile.operations['apikeys.create']!;
      const body = { [fieldName(op, 'name')]: `${ctx.prefix}manage`, [fieldName(op, 'scopes')]: ['apikeys:manage', 'usage:read'] };
      const res = await ws.api.request({ method: op.method, path: op.path, body });
      if (!is2xx(res)) {
        if (res.status >= 400 && res.status < 500 && res.status !== 404) expectError(res, res.status, ctx.profile, 'the refusal');
        return;
      }
      // Part 5 says the scope is granted only from the dashboard, not that the request is refused:
      // a key made without it meets the clause too. What the key can do decides, not what it lists.
      const secret = getPath(res.body, resultPath(op, 'secret'));
      expectThat(typeof secret === 'string' && secret !== '', msg`creating a key with [apikeys:manage, usage:read] answered ${res.status} without a secret at the declared ${resultPath(op, 'secret')}`, res);
      const made = ws.api.withKey(secret as string);
      const again = await made.request({ method: op.method, path: op.path, body: { [fieldName(op, 'name')]: `${ctx.prefix}byit`, [fieldName(op, 'scopes')]: ['usage:read'] } });
      expectThat(!is2xx(again), msg`a key created through the API with [apikeys:manage, usage:read] (answered ${res.status}) holds apikeys:manage: it created a key in turn (${again.status}); that scope is granted only from the dashboard`, again);
      expectError(again, 403, ctx.profile, 'creating a key with a key the API made (it may not hold apikeys:manage)', 'permission_denied');
      const id = getPath(res.body, resultPath(op, 'id'));
      if (typeof id === 'string') await ws.api.delete(`/v1/api-keys/${encodeURIComponent(id)}`);
    },
  },
  {
    id: 'KEY-CREATE-SUBSET',
    title: 'MUST let a key holding apikeys:manage create keys within its own scopes, and the new key works at once, with the scopes asked',
    clauses: ['SCOPE-APIKEYS-SUBSET', 'KEY-ROTATE-MANAGE', 'KEY-LIST-CREATE-PROFILE', 'SCOPE-GRANT-APIKEYS-MANAGE'],
    level: 'MUST',
    features: ['op:apikeys.create'],
    budget: 9,
    async run(ctx) {
      const ws = await ctx.workspace();
      for (const scopes of [['all:all'], ['campaigns:all', 'usage:read']]) {
        const key = await newKey(ws, ctx, scopes);
        const res = await key.client.get('/v1/workspace');
        expect2xx(res, `GET /v1/workspace with a new key holding [${scopes.join(', ')}]`);
        // The scopes asked (in the declared field) are the key's: a route of another domain is refused to the narrower key.
        if (!scopes.includes('all:all')) expectError(await key.client.get('/v1/lead-searches'), 403, ctx.profile, `GET /v1/lead-searches (leadfinder:read) with a new key holding [${scopes.join(', ')}]`, 'permission_denied');
      }
      // A key without apikeys:manage may not create keys at all.
      const plain = await ws.createKey(['all:all']);
      const op = ctx.profile.operations['apikeys.create']!;
      const res = await plain.client.request({ method: op.method, path: op.path, body: { [fieldName(op, 'name')]: `${ctx.prefix}x`, [fieldName(op, 'scopes')]: ['campaigns:read'] } });
      expectError(res, 403, ctx.profile, 'creating a key with a key that lacks apikeys:manage', 'permission_denied');
    },
  },
  {
    id: 'KEY-CREATE-SUBSET-NARROW',
    title: 'MUST let a narrow apikeys:manage key create only keys within its own scopes',
    clauses: ['SCOPE-APIKEYS-SUBSET'],
    level: 'MUST',
    features: ['control:workspace-keys', 'op:apikeys.create'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      if (!ws.organizationId) skip('the workspace has no organizationId');
      // What the dashboard does: a key holding apikeys:manage and little else (control API, optional).
      const made = await ctx.control!.request('POST', `/workspaces/${ws.organizationId}/keys`, { name: `${ctx.prefix}narrow`, scopes: ['campaigns:read', 'apikeys:manage'] }, { allowError: true });
      expect2xx(made, 'control POST /workspaces/{organizationId}/keys');
      const narrow = ws.api.withKey(made.body.key);
      const op = ctx.profile.operations['apikeys.create']!;
      const create = (scopes: string[]) => narrow.request({ method: op.method, path: op.path, body: { [fieldName(op, 'name')]: `${ctx.prefix}sub`, [fieldName(op, 'scopes')]: scopes } });
      expect2xx(await create(['campaigns:read']), 'a [campaigns:read, apikeys:manage] key creating a [campaigns:read] key');
      // Every scope asked must be within its own: one it holds beside one it lacks is beyond them too.
      for (const scopes of [['campaigns:write'], ['campaigns:all'], ['all:read'], ['campaigns:read', 'campaigns:write']]) {
        const res = await create(scopes);
        expectThat(!is2xx(res), msg`a [campaigns:read, apikeys:manage] key created a key with [${scopes.join(', ')}], beyond its own scopes`, res);
      }
    },
  },
  {
    id: 'KEY-LIST-SHOWS-CREATED',
    title: 'the referenced key listing (profile) shows a key just created, and never its secret again (5: displayed once, at creation)',
    clauses: ['KEY-LIST-CREATE-PROFILE', 'KEY-SECRET-ONCE'],
    level: 'PROFILE',
    features: ['op:apikeys.create', 'op:apikeys.list'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      const key = await newKey(ws, ctx, ['usage:read']);
      const op = ctx.profile.operations['apikeys.list']!;
      const items = (await walk(ctx.profile, ws.api, op.path, resultPath(op, 'items'))) as { id?: string }[];
      expectThat(items.some((i) => i.id === key.id), msg`the key ${key.id} just created is not in the key listing (${items.length} keys listed)`);
      // The listing never shows a secret again (5: "displayed once, at creation").
      const text = JSON.stringify(items);
      expectThat(!text.includes(key.secret), msg`the key listing shows the secret of a key again; it is displayed once, at creation`);
    },
  },
  {
    id: 'KEY-REVOKE',
    title: 'MUST revoke a key with { success: true }, at once and for good',
    // A revoked key's 401 is held to the table's row (the revoked branch of a key lookup is where a code of its own slips in).
    clauses: ['KEY-REVOKE', 'SVC-APIKEY-REVOKE', 'KEY-REVOKE-IMMEDIATE', 'KEY-REVOKE-FINAL', 'AUTH-401-REVOKED', 'SCOPE-GRANT-APIKEYS-MANAGE', 'KEY-ROTATE-MANAGE', 'ERR-TABLE-401'],
    level: 'MUST',
    features: ['op:apikeys.create'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      const key = await newKey(ws, ctx, ['usage:read']);
      expect2xx(await key.client.get('/v1/workspace'), 'GET /v1/workspace with the new key');
      const del = await ws.api.delete(`/v1/api-keys/${encodeURIComponent(key.id)}`);
      expect2xx(del, 'DELETE /v1/api-keys/{id}');
      expectSchema(del, 'SuccessResponse', 'DELETE /v1/api-keys/{id}');
      expectError(await key.client.get('/v1/workspace'), 401, ctx.profile, 'the first request after revocation', 'unauthenticated');
      if (ctx.control) await ctx.control.advance(120);
      expectError(await key.client.get('/v1/workspace'), 401, ctx.profile, 'a request with the revoked key later on', 'unauthenticated');
    },
  },
  {
    id: 'KEY-REVOKE-OTHER-WORKSPACE',
    title: 'MUST NOT revoke a key of another workspace (404: absent from the caller\'s workspace)',
    clauses: ['ERR-TABLE-404', 'AUTH-KEY-IDENTIFIES-WORKSPACE'],
    level: 'MUST',
    features: ['op:apikeys.create'],
    budget: 5,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const key = await newKey(b, ctx, ['usage:read']);
      const del = await a.api.delete(`/v1/api-keys/${encodeURIComponent(key.id)}`);
      expectError(del, 404, ctx.profile, "revoking another workspace's key", 'not_found');
      expect2xx(await key.client.get('/v1/workspace'), 'the key after the refused revocation');
    },
  },
  {
    id: 'PLAN-NO-API-ACCESS-403',
    title: 'MUST answer 403 permission_denied when the plan does not include API access',
    clauses: ['SCOPE-403-PLAN', 'ERR-TABLE-403'],
    level: 'MUST',
    features: ['control'],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      if (!ws.organizationId) skip('the workspace has no organizationId to change its plan');
      await ctx.control!.patchWorkspace(ws.organizationId, { apiAccess: false });
      try {
        expectError(await ws.api.get('/v1/workspace'), 403, ctx.profile, 'GET /v1/workspace on a plan without API access', 'permission_denied');
        expectError(await ws.api.get('/v1/campaigns'), 403, ctx.profile, 'GET /v1/campaigns on a plan without API access', 'permission_denied');
      } finally {
        await ctx.control!.patchWorkspace(ws.organizationId, { apiAccess: true });
      }
      const back = await ws.api.get('/v1/workspace');
      if (back.status !== 200) fail(msg`after API access was given back, GET /v1/workspace answered ${back.status}`, back);
    },
  },
];

