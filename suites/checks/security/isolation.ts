import type { ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { fail, joinRules, msg } from '../../../harness/ground/check.ts';
import type { RuleText } from '../../../harness/ground/failure.ts';
import { expect2xx, snippet } from '../../lib/expect.ts';
import { faker, requiredCampaignFields } from '../../lib/recipes.ts';
import { weekStart } from '../analytics/lib.ts';
import { ENDPOINTS, label, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';
import { endpointPath } from '../../lib/requests.ts';
import { mailboxInput } from '../../../fixtures/factories/index.ts';

// Isolation on every surface that lists or aggregates (part 5: the key identifies the workspace):
// two workspaces plant marked resources; each list, search and roll-up read by one of them must
// show its own and never carry the other's ids, names or addresses, and the roll-ups of a third
// workspace (usage, overview, subscription, identity) must not move meanwhile. The surfaces come from the
// endpoint catalog (every list endpoint, plus the reads below that aggregate), not from a
// hand-picked few. Ids taken alone are proven by TENANT-ISOLATION and SEC-TENANT-404.

/** Reads of the catalog that aggregate a workspace's data without being lists. */
const AGGREGATES = new Set(['leads.search', 'analytics.overview', 'usage.get', 'usage.all', 'workspace.get', 'subscription.get']);

/** What a surface must show of the caller's own plants (the surface works at all), by endpoint id. */
const SHOWS_OWN: Record<string, (p: Plants) => string[]> = {
  'campaigns.list': (p) => [p.campaignId],
  'leads.list': (p) => [p.leadEmail],
  'leads.search': (p) => [p.leadEmail],
  'accounts.list': (p) => [p.mailboxId],
  'apikeys.list': (p) => (p.keyId ? [p.keyId] : []),
  'leadSearches.list': (p) => (p.leadSearchId ? [p.leadSearchId] : []),
};

export function isolationSurfaces(): Endpoint[] {
  return ENDPOINTS.filter((e) => e.method === 'GET' && (e.list || AGGREGATES.has(e.id)));
}

interface Plants {
  marker: string;
  campaignId: string;
  leadEmail: string;
  mailboxId: string;
  mailboxEmail: string;
  keyId?: string;
  leadSearchId?: string;
  organizationId?: string;
}

async function plant(ctx: CheckContext, ws: Workspace, marker: string): Promise<Plants> {
  const f = faker(ctx);
  const leadEmail = `${marker}-lead@leads.example.test`.toLowerCase();
  const c = await ws.api.post('/v1/campaigns', {
    ...(await requiredCampaignFields(ctx, { steps: 1 })),
    name: `${marker} campaign`,
    settings: { trackOpens: false, trackClicks: false, sendAsTextOnly: false, stopOnReply: true },
    sequence: [{ subject: `${marker} hello`, body: '<p>Hello</p>', delayDays: 0, delayHours: 0 }],
    leads: [leadEmail],
  });
  expect2xx(c, 'setup: POST /v1/campaigns');
  // A started campaign counts in roll-ups (active campaigns); whether it may start without a mailbox is not the point here.
  await ws.api.post(`/v1/campaigns/${c.body?.campaign?.id}/start`);
  const mailboxEmail = `${marker}-box@example.test`.toLowerCase();
  const m = await ws.api.post('/v1/accounts', { accounts: [mailboxInput(f, ctx.prefix, undefined, { emailAddress: mailboxEmail, firstName: marker.slice(0, 100) })] });
  expect2xx(m, 'setup: POST /v1/accounts');
  const p: Plants = { marker, campaignId: c.body?.campaign?.id, leadEmail, mailboxId: m.body?.accounts?.[0]?.id, mailboxEmail, organizationId: ws.organizationId };
  if (ctx.profile.operations['apikeys.create']) p.keyId = (await ws.createKey(['campaigns:read'], `${marker} key`)).id;
  if (ctx.control && ws.organizationId) {
    const s = await ctx.control.request('POST', '/lead-searches', { organizationId: ws.organizationId, query: `${marker} search`, searchMode: 'companies', maxResults: 10 });
    p.leadSearchId = s.body?.id;
  }
  return p;
}

/** A surface's own query: the overview's window start (4.6 states no default for it; the end defaults to now). */
function ownQuery(ctx: CheckContext, ep: Endpoint, start: string): Record<string, string> {
  return ep.id === 'analytics.overview' ? { [ctx.profile.names.analytics.start]: start } : {};
}

function surfaceRequest(ctx: CheckContext, ep: Endpoint, own: Plants, shared: string, start: string): ApiRequest | undefined {
  const path = endpointPath(ep, ctx.profile, { id: own.campaignId, limitType: 'active_contacts' });
  if (!path) return undefined;
  const query: ApiRequest['query'] = ownQuery(ctx, ep, start);
  if (ep.list) query[ctx.profile.names.list.pageSize] = 100;
  // A fragment both workspaces' leads share: a search that crossed workspaces would find both.
  if (ep.id === 'leads.search') query[ctx.profile.names.leadsSearchParam] = shared;
  return { method: 'GET', path, query };
}

/** Every number in an answer, by its path (what an aggregate counts). */
export function numbersOf(v: unknown, at = ''): Record<string, number> {
  if (typeof v === 'number') return { [at]: v };
  if (v === null || typeof v !== 'object') return {};
  return Object.assign({}, ...Object.entries(v as Record<string, unknown>).map(([k, x]) => numbersOf(x, at ? `${at}.${k}` : k)));
}

/** The marks of a workspace's plants that must never show to another workspace. */
function marks(p: Plants): string[] {
  return [p.marker, p.campaignId, p.leadEmail, p.mailboxId, p.mailboxEmail, p.keyId, p.leadSearchId, p.organizationId].filter((x): x is string => typeof x === 'string' && x.length > 0);
}

export const ISOLATION_CHECK: Check = {
  id: 'SEC-ISOLATION/every-list-and-aggregate',
  title: "MUST keep every list, search and roll-up to the caller's workspace: each shows its own items and never another workspace's ids, names or addresses",
  clauses: ['TENANT-ISOLATION', 'AUTH-KEY-IDENTIFIES-WORKSPACE', 'SVC-KEY-IDENTIFIES-WORKSPACE', 'LF-LIST-WORKSPACE', 'LEAD-SEARCH-WORKSPACE', 'WS-KEY-WORKSPACE'],
  level: 'MUST',
  features: ['twoWorkspaces'],
  // two plants of up to 5 requests, each surface read from both sides, the roll-ups of a third workspace twice
  budget: 10 + 4 * isolationSurfaces().length,
  async run(ctx) {
    const a = await ctx.workspace();
    const b = await ctx.workspace();
    // A third workspace nobody else uses meanwhile (a fresh one from the control API: without it a
    // small pool could not spare one): its roll-ups must not move while the others plant.
    const c = ctx.control ? await ctx.workspace({ exclusive: true }) : undefined;
    const token = faker(ctx).string.alphanumeric(8).toLowerCase();
    const shared = `${ctx.prefix}iso${token}`.toLowerCase();
    const aggregates = isolationSurfaces().filter((ep) => !ep.list && ep.id !== 'leads.search');
    const start = (await weekStart(ctx)).start!;
    const counts = async () => {
      const out: [string, Record<string, number>, ApiResponse][] = [];
      for (const ep of c ? aggregates : []) {
        const path = endpointPath(ep, ctx.profile, { limitType: 'active_contacts' });
        if (path) {
          const res = await c!.api.get(path, ownQuery(ctx, ep, start));
          expect2xx(res, `GET ${path} in a third workspace`);
          out.push([label(ep), numbersOf(res.body), res]);
        }
      }
      return out;
    };
    const before = await counts();
    // The second workspace plants last: its items are the newest anywhere, first on a list that leaks.
    const pa = await plant(ctx, a, `${shared}a`);
    const pb = await plant(ctx, b, `${shared}b`);
    const problems: { message: RuleText; res?: ApiResponse }[] = [];
    let read = 0;
    for (const ep of isolationSurfaces()) {
      for (const [me, mine, theirs] of [[a, pa, pb], [b, pb, pa]] as const) {
        const req = surfaceRequest(ctx, ep, mine, shared, start);
        if (!req) continue;
        const res = await me.api.request(req);
        read++;
        const who = me === a ? 'the first workspace' : 'the second workspace';
        if (res.status >= 300) {
          problems.push({ message: msg`${label(ep)} read by ${who} answered ${res.status} ${snippet(res)}`, res });
          continue;
        }
        const text = res.text.toLowerCase();
        const leaked = marks(theirs).filter((m) => text.includes(m.toLowerCase()));
        if (leaked.length) problems.push({ message: msg`${label(ep)} read by ${who} shows the other workspace's ${leaked.join(', ')}`, res });
        const missing = (SHOWS_OWN[ep.id]?.(mine) ?? []).filter((m) => !text.includes(m.toLowerCase()));
        if (missing.length) problems.push({ message: msg`${label(ep)} read by ${who} does not show its own ${missing.join(', ')} (the surface must work for isolation to mean anything)`, res });
      }
    }
    const after = await counts();
    for (const [i, [what, nums, res]] of after.entries()) {
      const was = before[i]![1];
      const moved = Object.keys({ ...was, ...nums }).filter((k) => was[k] !== nums[k]);
      if (moved.length) problems.push({ message: msg`${what} of a third workspace moved while two others planted (${moved.slice(0, 4).map((k) => `${k} ${was[k]} -> ${nums[k]}`).join(', ')})`, res });
    }
    if (read === 0) fail(msg`no list or aggregate surface could be read`);
    const shown = problems.slice(0, 3);
    if (problems.length) fail(joinRules(shown.map((p) => p.message)), ...shown.map((p) => p.res));
  },
};
