import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import type { ApiResponse } from '../../../harness/ground/api-client.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectSchema, expectThat, expectError, is2xx, msg } from '../../lib/expect.ts';
import { LIMIT_TYPES, USAGE_PERCENT_TOLERANCE } from '../../../harness/ground/spec-model/schemas/index.ts';

// Workspace identity and usage (4.7, 2.9).

/**
 * A workspace whose plan the control API set: monthly_emails 250/1000, ai_credits 17/unlimited,
 * monthly_imports 10/40, and email_validation 1200/1000 (over its limit: the formula gives 120).
 */
async function usageOfKnownPlan(ctx: CheckContext) {
  const ws = await ctx.workspace({ exclusive: true });
  if (!ws.organizationId) skip('the workspace has no organizationId');
  await ctx.control!.patchWorkspace(ws.organizationId, {
    limits: { monthly_emails: 1000, ai_credits: null, monthly_imports: 40, email_validation: 1000 },
    used: { monthly_emails: 250, ai_credits: 17, monthly_imports: 10, email_validation: 1200 },
  });
  // Each read is under /v1 (part 9) and answers the limit type asked, spelled as asked (2.9, 4.7).
  const read = async (t: string) => {
    const r = await ws.api.get(`/v1/usage/${t}`);
    expect2xx(r, `GET /v1/usage/${t}`);
    expectThat(r.body?.limitType === t, msg`GET /v1/usage/${t} answered limitType ${JSON.stringify(r.body?.limitType)}: the usage of the limit type asked, one of 2.9's lower-case values`, r);
    return r;
  };
  return { ws, read, m: await read('monthly_emails'), u: await read('ai_credits'), i: await read('monthly_imports') };
}

/**
 * The usage of lead_finder_credits under a plan without them (limit 0, none used): a limit of 0 is a
 * limit, not unlimited. The workspace's own limit is put back after, so that a target enforcing it
 * still serves the lead searches of later checks in that workspace.
 */
async function usageOfZeroLimit(ctx: CheckContext, ws: Workspace, read: (t: string) => Promise<ApiResponse>) {
  const before = await read('lead_finder_credits');
  const own = { limits: { lead_finder_credits: before.body.limit ?? null }, used: { lead_finder_credits: before.body.used ?? 0 } };
  await ctx.control!.patchWorkspace(ws.organizationId!, { limits: { lead_finder_credits: 0 }, used: { lead_finder_credits: 0 } });
  try {
    return await read('lead_finder_credits');
  } finally {
    await ctx.control!.patchWorkspace(ws.organizationId!, own);
  }
}

/**
 * GET /v1/workspace reads of WS-GET at most: the kit gives the workspaces it makes four zones in
 * turn, so a default pool (12) shows two zones within four; leases usually take neighbours (two).
 */
const MAX_IDENTITY_READS = 6;

export const WORKSPACE_CHECKS: Check[] = [
  {
    id: 'WS-GET',
    title: "MUST return the workspace identity of the key (organizationId, name, timezone: the workspace's own where the run knows them)",
    clauses: ['WS-GET', 'WS-KEY-WORKSPACE', 'AUTH-KEY-IDENTIFIES-WORKSPACE', 'SVC-KEY-IDENTIFIES-WORKSPACE', 'SVC-NO-ORG-IN-PATH', 'SVC-WORKSPACE', 'WS-ORGANIZATIONID-UUID', 'WS-NAME-STRING', 'WS-TIMEZONE-IANA'],
    level: 'MUST',
    features: [],
    budget: MAX_IDENTITY_READS,
    async run(ctx) {
      const read = async (w: Workspace) => {
        const r = await w.api.get('/v1/workspace');
        expect2xx(r, 'GET /v1/workspace');
        expectSchema(r, 'Workspace', 'GET /v1/workspace');
        if (w.organizationId) expectThat(r.body.organizationId === w.organizationId, msg`GET /v1/workspace answered organizationId ${r.body.organizationId}, but the key belongs to ${w.organizationId}`, r);
        // Name and timezone are compared where the run knows them (the control API made the workspace, or the profile states them).
        if (w.name !== undefined) expectThat(r.body.name === w.name, msg`GET /v1/workspace answered name ${JSON.stringify(r.body.name)}, but the workspace is named ${JSON.stringify(w.name)}`, r);
        if (w.timezone !== undefined) expectThat(r.body.timezone === w.timezone, msg`GET /v1/workspace answered timezone ${JSON.stringify(r.body.timezone)}, but the workspace's is ${w.timezone}`, r);
        return r;
      };
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const ra = await read(a);
      const rb = await read(b);
      expectThat(ra.body.organizationId !== rb.body.organizationId, msg`two workspaces answered the same organizationId`, ra, rb);
      // A fixed zone (UTC, the server's) shows only beside a workspace in another zone: read more of
      // the run's workspaces until two known zones differ (as many as the run has, at most).
      const held = [a, b];
      const members = ctx.control ? ctx.profile.poolSize : ctx.profile.workspaces.length;
      const zones = () => new Set(held.map((w) => w.timezone).filter((z) => z !== undefined)).size;
      while (zones() === 1 && held.length < Math.min(members, MAX_IDENTITY_READS)) {
        const w = await ctx.workspace();
        held.push(w);
        await read(w);
      }
    },
  },
  {
    id: 'USAGE-EVERY-LIMIT-TYPE',
    title: 'MUST serve the usage of each of the six limit types in the shape of 2.9',
    clauses: ['USAGE-GET', 'SVC-WORKSPACE', 'USAGE-ALL-TYPES', 'USAGE-LIMITTYPE-ECHO', 'LIMIT-USAGE-TYPES', 'USAGE-PERCENTAGE', 'USAGE-UNLIMITED', 'USAGE-USED-NUMBER', 'USAGE-ISUNLIMITED-BOOLEAN', 'USAGE-LIMITTYPE-ENUM'],
    level: 'MUST',
    features: [],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      for (const t of LIMIT_TYPES) {
        const r = await ws.api.get(`/v1/usage/${t}`);
        expect2xx(r, `GET /v1/usage/${t}`);
        // The schema holds the 2.9 rules: nulls when unlimited, percentage = used / limit x 100.
        expectSchema(r, 'Usage', `GET /v1/usage/${t}`);
        expectThat(r.body.limitType === t, msg`GET /v1/usage/${t} answered limitType ${r.body.limitType}`, r);
      }
    },
  },
  {
    id: 'USAGE-COMPUTED',
    title: 'MUST compute usagePercentage from the plan (used / limit x 100, over the limit too); an unlimited limit answers nulls and 0',
    clauses: ['USAGE-PERCENTAGE', 'USAGE-UNLIMITED', 'USAGE-GET', 'USAGE-LIMIT-NULL-UNLIMITED', 'USAGE-REMAINING-NULL-UNLIMITED', 'USAGE-PERCENTAGE-FORMULA', 'USAGE-PERCENTAGE-ZERO-UNLIMITED', 'USAGE-USED-NUMBER', 'USAGE-LIMITTYPE-ECHO', 'USAGE-LIMITTYPE-ENUM', 'VER-V1-PREFIX'],
    level: 'MUST',
    features: ['control'],
    budget: 6,
    async run(ctx) {
      const { ws, read, m, u, i } = await usageOfKnownPlan(ctx);
      expectThat(m.body.used === 250 && m.body.limit === 1000 && m.body.isUnlimited === false, msg`monthly_emails: expected used 250, limit 1000, isUnlimited false; got ${JSON.stringify(m.body)}`, m);
      expectThat(Math.abs(m.body.usagePercentage - 25) <= USAGE_PERCENT_TOLERANCE, msg`usagePercentage must be used / limit x 100 = 25, got ${m.body.usagePercentage}`, m);
      expectThat(u.body.limit === null && u.body.remaining === null && u.body.isUnlimited === true && u.body.usagePercentage === 0,
        msg`an unlimited limit must answer limit null, remaining null, isUnlimited true, usagePercentage 0; got ${JSON.stringify(u.body)}`, u);
      // used is a number whether or not the limit is (2.9): only limit and remaining go null.
      expectThat(u.body.used === 17, msg`ai_credits is unlimited with 17 used: used must still be the number 17, got ${JSON.stringify(u.body.used)}`, u);
      expectThat(Math.abs(i.body.usagePercentage - 25) <= USAGE_PERCENT_TOLERANCE, msg`monthly_imports 10 of 40: expected 25 %, got ${JSON.stringify(i.body)}`, i);
      // Over its limit the formula still holds: 2.9 states no cap. What remaining is then, it does not say.
      const v = await read('email_validation');
      expectThat(v.body.used === 1200 && v.body.limit === 1000, msg`email_validation: expected used 1200, limit 1000; got ${JSON.stringify(v.body)}`, v);
      expectThat(Math.abs(v.body.usagePercentage - 120) <= USAGE_PERCENT_TOLERANCE, msg`email_validation 1200 of 1000: usagePercentage must be used / limit x 100 = 120 (2.9 states no cap), got ${v.body.usagePercentage}`, v);
      // remaining is a number, null only when unlimited (2.9); what it equals is a reading (USAGE-REMAINING/computed).
      // A limit of 0 is a limit (a falsy-zero test reads it as unlimited), and over the limit remaining stays a number.
      const z = await usageOfZeroLimit(ctx, ws, read);
      for (const [t, r, limit] of [['monthly_emails', m, 1000], ['monthly_imports', i, 40], ['email_validation', v, 1000], ['lead_finder_credits', z, 0]] as const) {
        expectThat(Number.isFinite(r.body.remaining) && r.body.limit === limit && r.body.isUnlimited === false,
          msg`${t} is limited to ${limit}: limit must be ${limit}, isUnlimited false and remaining a number (null only when unlimited); got ${JSON.stringify(r.body)}`, r);
      }
    },
  },
  {
    id: 'USAGE-REMAINING/computed',
    title: 'SHOULD answer remaining as what is left of the limit (limit - used)',
    clauses: ['USAGE-REMAINING', 'USAGE-REMAINING-MEANING'],
    level: 'SHOULD',
    features: ['control'],
    budget: 3,
    async run(ctx) {
      const { m, i } = await usageOfKnownPlan(ctx);
      expectThat(m.body.remaining === 750, msg`monthly_emails 250 of 1000: remaining should be limit - used = 750, got ${m.body.remaining}`, m);
      expectThat(i.body.remaining === 30, msg`monthly_imports 10 of 40: remaining should be 30, got ${i.body.remaining}`, i);
    },
  },
  {
    id: 'USAGE-UNKNOWN-LIMIT-TYPE',
    title: 'MUST refuse a limitType outside the six values, in the error envelope',
    clauses: ['USAGE-UNKNOWN-TYPE', 'ERR-ENVELOPE'],
    level: 'MUST',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      // A value no lookup knows, and one of the six in another case (2.9's values are exact strings):
      // a lenient enum binding serves the second.
      for (const t of ['monthly_bananas', 'MONTHLY_EMAILS']) {
        const r = await ws.api.get(`/v1/usage/${t}`);
        expectThat(!is2xx(r), msg`GET /v1/usage/${t} answered ${r.status}; it is not one of the six limit types`, r);
        expectError(r, r.status, ctx.profile, `GET /v1/usage/${t}`);
      }
    },
  },
  {
    id: 'USAGE-REFERENCED',
    title: 'the referenced GET /v1/usage and subscription operations answer with usage:read (profile)',
    clauses: ['USAGE-ALL-PROFILE'],
    level: 'PROFILE',
    features: ['op:usage.all', 'op:subscription.get', 'op:apikeys.create'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      const reader = await ws.createKey(['usage:read']);
      const other = await ws.createKey(['campaigns:read']);
      for (const id of ['usage.all', 'subscription.get'] as const) {
        const op = ctx.profile.operations[id]!;
        expect2xx(await reader.client.request({ method: op.method, path: op.path }), `${op.method} ${op.path} with usage:read`);
        expectError(await other.client.request({ method: op.method, path: op.path }), 403, ctx.profile, `${op.method} ${op.path} without usage:read`, 'permission_denied');
      }
    },
  },
];
