import type { Check } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectThat, msg } from '../../lib/expect.ts';
import { createCampaign } from '../../lib/recipes.ts';
import type { CheckContext } from '../../../harness/ground/check.ts';
import { query, weekStart } from '../analytics/lib.ts';

// Part 9: every path carries /v1; anything else is outside the interface. Part 1: paths are
// relative to the base URL.

/** The reads of part 4's tables that need no id (a workspace of its own serves them all). */
const V1_READS = ['/v1/workspace', '/v1/usage/monthly_emails', '/v1/campaigns', '/v1/lead-searches', '/v1/campaigns/analytics/overview'] as const;

const OVERVIEW = '/v1/campaigns/analytics/overview';

/** The query of a read: the overview's with a window start (4.6 states no default for it). */
async function readQuery(ctx: CheckContext, path: string): Promise<Record<string, string>> {
  return path === OVERVIEW ? Object.fromEntries(new URLSearchParams(query(ctx, await weekStart(ctx)))) : {};
}

export const VERSIONING_CHECKS: Check[] = [
  {
    id: 'VER-V1-PREFIX',
    title: 'MUST serve the interface under /v1: every read of part 4 that needs no id answers 2xx under the prefix (and the profile declares only /v1 paths)',
    clauses: ['VER-V1-PREFIX'],
    level: 'MUST',
    features: [],
    budget: V1_READS.length,
    async run(ctx) {
      const outside = Object.entries(ctx.profile.operations).filter(([, op]) => !op!.path.startsWith('/v1/'));
      expectThat(outside.length === 0, msg`the profile declares operations outside /v1: ${outside.map(([id, op]) => `${id} ${op!.path}`).join(', ')}`);
      // One route mounted without the prefix is the plausible slip: each read of the spec's tables, not one.
      const ws = await ctx.workspace();
      for (const path of V1_READS) expect2xx(await ws.api.get(path, await readQuery(ctx, path)), `GET ${path}`);
    },
  },
  {
    id: 'SVC/base-url',
    title: "SHOULD serve the spec's paths relative to the profile's base URL: every read that needs no id, and a campaign's status by its id, answers 2xx there",
    clauses: ['SVC-PATHS-BASE-URL'],
    level: 'SHOULD',
    features: [],
    budget: 8,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api);
      const reads: [string, Record<string, string>][] = [
        ['/v1/workspace', {}],
        ['/v1/usage/monthly_emails', {}],
        ['/v1/campaigns', {}],
        ['/v1/lead-searches', {}],
        ['/v1/leads/search', { [ctx.profile.names.leadsSearchParam]: 'nobody@example.test' }],
        [OVERVIEW, await readQuery(ctx, OVERVIEW)],
        [`/v1/campaigns/${id}/status`, {}],
      ];
      for (const [path, query] of reads) {
        const res = await ws.api.get(path, query);
        expectThat(res.status >= 200 && res.status < 300, msg`GET ${path} relative to the base URL ${ws.api.baseUrl} should be served there, got ${res.status} ${JSON.stringify(res.body)?.slice(0, 160) ?? ''}`, res);
      }
    },
  },
  {
    id: 'VER-UNKNOWN-404',
    title: 'SHOULD answer another version or an unknown path with 404 not_found in the envelope',
    clauses: ['VER-UNKNOWN-404'],
    level: 'SHOULD',
    features: [],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      for (const path of ['/v2/workspace', '/workspace', '/v1/no-such-endpoint', '/v0/campaigns']) {
        expectError(await ws.api.get(path), 404, ctx.profile, `GET ${path}`, 'not_found');
      }
    },
  },
];
