// Workspace identity, usage of the six limit types, subscription (spec 2.9, 4.7).
// GET /v1/workspace -> { organizationId, name, timezone }
// GET /v1/usage/{limitType} -> { limitType, used, limit, remaining, isUnlimited, usagePercentage }
//   usagePercentage = used / limit * 100 (unrounded; 100 when limit is 0 and used > 0, 0 when
//   limit is 0 and used is 0); unlimited: limit null, remaining null, usagePercentage 0;
//   remaining = max(limit - used, 0); unknown limitType -> 404 not_found.
// GET /v1/usage -> { data: [usage x 6] } ; GET /v1/account/subscription -> { plan, apiAccess, limits }
import { shapeResult } from '../request/shape.ts';
import { ok, type Handler, type Ctx } from '../request/context.ts';
import { LIMIT_TYPES, type LimitType, type Workspace } from '../domain/workspace.ts';
import { notFound, validationFailed } from '../request/errors.ts';
import { loadWorkspace } from '../store/store.ts';

export const get: Handler = async (ctx) => {
  // The mutant answers the oldest workspace of the service, whatever the key.
  const oldest = ctx.mutant('ws-first-workspace') ? (ctx.db.prepare('SELECT id FROM workspaces ORDER BY rowid LIMIT 1').get() as { id: string } | undefined) : undefined;
  const w = oldest ? (loadWorkspace(ctx.db, oldest.id) ?? ctx.workspace) : ctx.workspace;
  if (ctx.mutant('workspace-missing-timezone')) return ok({ organizationId: w.id, name: w.name });
  // The mutants answer the name as a slug (an identifier, not the name) or the service's default,
  // and a fixed zone (UTC, or the service's own) whatever the workspace's.
  const slug = (n: string) => n.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const name = ctx.mutant('ws-name-null') ? null : ctx.mutant('ws-name-slug') ? slug(w.name) : ctx.mutant('ws-name-default') ? 'My workspace' : w.name;
  const timezone = ctx.mutant('ws-timezone-utc') ? 'UTC' : ctx.mutant('ws-timezone-default') ? 'America/New_York' : w.timezone;
  return ok({ organizationId: ctx.mutant('ws-organizationid-prefixed') ? `org_${w.id}` : w.id, name, timezone });
};

export function usageOf(ctx: Ctx, w: Workspace, t: LimitType) {
  // The mutant answers the month's start value (a cache never refreshed), not the current usage.
  const used = ctx.mutant('usage-used-stale') ? 0 : w.used[t];
  const limit = w.limits[t];
  if (limit === null) {
    return typed(ctx, {
      // The mutant mirrors limit and remaining: an unlimited limit answers used null.
      limitType: t, used: ctx.mutant('usage-unlimited-used-null') ? null : used, limit: ctx.mutant('usage-unlimited-limit-zero') ? 0 : null, remaining: ctx.mutant('usage-unlimited-remaining-zero') ? 0 : null, isUnlimited: true,
      usagePercentage: ctx.mutant('usage-unlimited-percentage-nonzero') && used > 0 ? 100 : 0,
    });
  }
  let pct = limit === 0 ? (used > 0 ? 100 : 0) : (used / limit) * 100;
  if (ctx.mutant('usage-percentage-fraction')) pct = pct / 100;
  if (ctx.mutant('usage-percentage-capped')) pct = Math.min(100, pct);
  // The mutant computes remaining with a falsy-zero test (`limit ? limit - used : null`): a limit of 0 answers null.
  const falsyZero = limit === 0 && ctx.mutant('usage-zero-limit-remaining-null');
  const remaining = ctx.mutant('usage-limited-remaining-null') || falsyZero ? null : ctx.mutant('usage-remaining-wrong') ? limit : Math.max(limit - used, 0);
  return typed(ctx, { limitType: t, used, limit, remaining, isUnlimited: false, usagePercentage: pct });
}

/** The usage answer's field types and names (the shape mutants change them). */
function typed(ctx: Ctx, u: { limitType: string; used: number | null; isUnlimited: boolean } & Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> = u;
  if (ctx.mutant('usage-used-string')) out = { ...out, used: String(u.used) };
  if (ctx.mutant('usage-isunlimited-string')) out = { ...out, isUnlimited: String(u.isUnlimited) };
  if (ctx.mutant('usage-limittype-uppercase')) out = { ...out, limitType: u.limitType.toUpperCase() };
  return out;
}

export const usageOne: Handler = async (ctx) => {
  const asked = ctx.params.limitType!;
  // The mutant binds the enum case-insensitively, as some frameworks' lenient converters do.
  const t = ctx.mutant('usage-type-case-insensitive') && (LIMIT_TYPES as readonly string[]).includes(asked.toLowerCase()) ? asked.toLowerCase() : asked;
  if (!(LIMIT_TYPES as readonly string[]).includes(t) || (t === 'lead_finder_credits' && ctx.mutant('usage-type-missing'))) {
    if (ctx.mutant('usage-unknown-type-200'))
      return ok({ limitType: t, used: 0, limit: 0, remaining: 0, isUnlimited: false, usagePercentage: 0 });
    const why = `Unknown limit type ${JSON.stringify(t)}; one of ${LIMIT_TYPES.join(', ')}.`;
    if (ctx.services.choices.unknownLimitType === 400) throw validationFailed([`limitType: ${why}`]);
    throw notFound(why);
  }
  return ok(usageOf(ctx, ctx.workspace, t as LimitType));
};

export const usageAll: Handler = async (ctx) => {
  if (ctx.mutant('usage-all-missing')) throw notFound('No route for GET /v1/usage.');
  return ok(shapeResult(ctx.services.choices, 'usage.all', { items: LIMIT_TYPES.map((t) => usageOf(ctx, ctx.workspace, t)) }));
};

export const subscription: Handler = async (ctx) =>
  ok(shapeResult(ctx.services.choices, 'subscription.get', { plan: ctx.workspace.plan, apiAccess: ctx.workspace.apiAccess, limits: ctx.workspace.limits }));
