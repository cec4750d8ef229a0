// API keys (spec 4.7, 5; referenced list/create shapes in docs/ARCHITECTURE.md).
// GET /v1/api-keys -> { data: [{ id, name, scopes, createdAt, lastUsedAt }], meta } (active keys only)
// POST /v1/api-keys { name, scopes } -> 201 { id, name, scopes, key, createdAt } (the secret, once);
//   403 permission_denied when a scope is not covered by the caller's own (subset rule) and for
//   apikeys:manage, which only the dashboard grants (control API: POST /workspaces/{id}/keys).
// DELETE /v1/api-keys/{id} -> { success: true }; immediate; an already revoked or unknown key -> 404
import { ok, created, type Handler } from '../request/context.ts';
import { isoOf } from '../domain/clock.ts';
import { notFound, permissionDenied, validationFailed } from '../request/errors.ts';
import { KNOWN_SCOPES, isSubset } from '../request/scopes.ts';
import { insertKey } from '../store/store.ts';
import { shapeResult } from '../request/shape.ts';
import { V, bodyObject } from '../request/validate.ts';

interface KeyRow { id: string; name: string; scopes: string; created_at: number; last_used_at: number | null }

/** What the mutant apikeys-list-shows-secret remembers (the store keeps only a hash: the secret exists in the create answer alone). */
const SHOWN_AGAIN = new WeakMap<object, Map<string, string>>();

export const list: Handler = async (ctx) => {
  const page = ctx.page<KeyRow>({
      list: 'api-keys',
      from: 'api_keys',
      // The mutant forgets the workspace: every workspace's keys are listed.
      ...(ctx.mutant('tenant-apikeys-list-leak') ? { where: 'revoked_at IS NULL', params: [] } : { where: 'org_id = ? AND revoked_at IS NULL', params: [ctx.workspace.id] }),
      map: (r) => ({
        id: r.id,
        [ctx.services.choices.apiKeyNameField]: r.name,
        scopes: JSON.parse(r.scopes),
        createdAt: isoOf(r.created_at),
        lastUsedAt: isoOf(r.last_used_at),
        // Filled only under the mutant apikeys-list-shows-secret (its one switch is in create).
        ...(SHOWN_AGAIN.get(ctx.services)?.has(r.id) ? { key: SHOWN_AGAIN.get(ctx.services)!.get(r.id) } : {}),
      }),
    });
  // The mutant answers the keys under another name than the listing's declared one.
  if (ctx.mutant('apikeys-list-items-renamed')) return ok({ keys: page.data, meta: page.meta });
  return ok(page);
};

export const create: Handler = async (ctx) => {
  const given = bodyObject(ctx.body);
  // The mutant reads the scopes under a name of its own: the declared field is ignored and the new key gets the creating key's scopes (apikeys:manage aside).
  const b = ctx.mutant('apikeys-create-scopes-ignored') ? { ...given, scopes: ctx.key.scopes.filter((s) => s !== 'apikeys:manage') } : given;
  const v = new V();
  const name = v.str(b, 'name', { required: true, nonEmpty: true, max: 255 });
  let scopes: string[] = [];
  if (b.scopes === undefined || b.scopes === null) v.issue('scopes', 'is required');
  else if (!Array.isArray(b.scopes) || b.scopes.length === 0) v.issue('scopes', 'must be a non-empty array of scope strings');
  else
    b.scopes.forEach((s, i) => {
      if (typeof s !== 'string' || !KNOWN_SCOPES.has(s)) v.issue(`scopes[${i}]`, `unknown scope ${JSON.stringify(s)}`);
      else if (!scopes.includes(s)) scopes.push(s);
    });
  v.done();
  // Spec 5: apikeys:manage "can be granted only from the dashboard" (here: the control API).
  if (scopes.includes('apikeys:manage') && !ctx.mutant('apikeys-manage-grantable')) {
    if (ctx.services.choices.manageScopeOnCreate === 'refuse') throw permissionDenied('apikeys:manage can be granted only from the dashboard.');
    scopes = scopes.filter((s) => s !== 'apikeys:manage');
    if (scopes.length === 0) throw validationFailed(['scopes: apikeys:manage can be granted only from the dashboard; no other scope was asked for']);
  }
  if (!ctx.mutant('apikeys-subset-unchecked') && !isSubset(scopes, ctx.key.scopes, ctx.mutant)) {
    const why = 'A key can only create keys whose scopes are a subset of its own.';
    if (ctx.services.choices.subsetRefusalStatus === 400) throw validationFailed([`scopes: ${why}`]);
    throw permissionDenied(why);
  }
  scopes = [...scopes];
  const { key, secret } = insertKey(ctx.db, { orgId: ctx.workspace.id, name: name!, scopes, createdAt: ctx.clock.stamp() });
  if (ctx.mutant('apikeys-list-shows-secret')) (SHOWN_AGAIN.get(ctx.services) ?? SHOWN_AGAIN.set(ctx.services, new Map()).get(ctx.services)!).set(key.id, secret);
  return created(shapeResult(ctx.services.choices, 'apikeys.create', { id: key.id, name: key.name, scopes: key.scopes, secret, createdAt: isoOf(key.createdAt) }));
};

export const revoke: Handler = async (ctx) => {
  if (ctx.mutant('apikeys-revoke-refused')) throw permissionDenied('The API key lacks the scope apikeys:manage.');
  const res = ctx.db
    .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND org_id = ? AND revoked_at IS NULL')
    .run(ctx.clock.now(), ctx.params.id, ctx.workspace.id);
  if (res.changes === 0) throw notFound('No active API key with this id in the workspace.');
  if (ctx.mutant('apikey-revoke-shape')) return ok({ revoked: true });
  return ok({ success: true });
};
