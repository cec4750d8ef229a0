import type { ApiClient, ApiResponse } from '../../harness/ground/api-client.ts';
import type { Profile } from '../../harness/ground/profile-schema.ts';
import type { CheckContext, Workspace } from '../../harness/ground/check.ts';
import { fail, failTyped, skip, msg } from '../../harness/ground/check.ts';
import { fillPath, fieldName, getPath, resultPath } from '../../harness/ground/operations.ts';
import { campaignBody, mailboxInput, seededFaker, sequenceStep, type MailboxServers } from '../../fixtures/factories/index.ts';
import { openNowSchedule } from './schedule.ts';
import { is2xx, snippet } from './expect.ts';

// Recipes: how a check brings a workspace into a state it needs, over the wire only.
// Each recipe fails the check with the exchange when the target refuses a valid request.

const fakers = new WeakMap<CheckContext, ReturnType<typeof seededFaker>>();

/** One faker per check, seeded with the check's seed: every call draws new values. */
export function faker(ctx: CheckContext) {
  let f = fakers.get(ctx);
  if (!f) fakers.set(ctx, (f = seededFaker(ctx.seed)));
  return f;
}

function must(res: ApiResponse, what: string): ApiResponse {
  // A status failure of the setup: one cause with other setups refused alike, apart from the checks' own status failures.
  if (!is2xx(res)) failTyped({ kind: 'status', fields: { expected: '2xx', got: res.status, during: 'setup' } }, `setup: ${what} answered ${res.status} ${snippet(res)}`, res);
  return res;
}

export type CampaignOpts = { leads?: number; steps?: number; accounts?: string[] };

/**
 * A campaign create body for a check's setup: campaignBody() plus every field the profile declares
 * required (2.5: "Required fields ... not shown"). A schedule is open now for sure; a sequence has
 * one step. A check that tests a field's absence builds its body from campaignBody() instead.
 */
export async function setupCampaignBody(ctx: CheckContext, opts: CampaignOpts = {}): Promise<Record<string, unknown>> {
  return { ...campaignBody(faker(ctx), ctx.prefix, opts), ...(await requiredCampaignFields(ctx, opts)) };
}

/** The fields the profile declares required that campaignBody() with these options leaves out. */
export async function requiredCampaignFields(ctx: CheckContext, opts: CampaignOpts = {}): Promise<Record<string, unknown>> {
  const required = ctx.profile.declarations.campaignRequiredFields ?? [];
  const extra: Record<string, unknown> = {};
  if (required.includes('schedule')) extra.schedule = await openNowSchedule(ctx);
  if (required.includes('sequence') && opts.steps === undefined) extra.sequence = [sequenceStep(faker(ctx), 0)];
  if (required.includes('accounts') && !opts.accounts) skip('the profile declares accounts required on campaign create (declarations.campaignRequiredFields), and this check creates its campaign without a mailbox');
  return extra;
}

export async function createCampaign(ctx: CheckContext, api: ApiClient, opts: CampaignOpts = {}): Promise<{ id: string; res: ApiResponse }> {
  const res = must(await api.post('/v1/campaigns', await setupCampaignBody(ctx, opts)), 'POST /v1/campaigns');
  const id = res.body?.campaign?.id;
  if (typeof id !== 'string') fail(msg`setup: POST /v1/campaigns answered without campaign.id`, res);
  return { id, res };
}

export async function createMailbox(ctx: CheckContext, api: ApiClient, servers?: MailboxServers, overrides: Record<string, unknown> = {}): Promise<{ id: string; res: ApiResponse }> {
  const res = must(await api.post('/v1/accounts', { accounts: [mailboxInput(faker(ctx), ctx.prefix, servers, overrides)] }), 'POST /v1/accounts');
  const id = res.body?.accounts?.[0]?.id;
  if (typeof id !== 'string') fail(msg`setup: POST /v1/accounts created no mailbox`, res);
  return { id, res };
}

function op(profile: Profile, id: keyof Profile['operations']) {
  const o = profile.operations[id];
  if (!o) skip(`needs the referenced operation "${id}" in the profile (operations.${id})`);
  return o;
}

/** Adds leads through the referenced "leads.create" operation; returns their ids via "leads.list". */
export async function addLeads(ctx: CheckContext, api: ApiClient, campaignId: string, emails: string[]): Promise<ApiResponse> {
  const o = op(ctx.profile, 'leads.create');
  return must(
    await api.request({ method: o.method, path: fillPath(o.path, { id: campaignId }), body: { [fieldName(o, 'leads')]: emails.map((email) => ({ email })) } }),
    'create leads',
  );
}

/** Every lead of a campaign (walks the referenced "leads.list" operation). */
export async function listLeads(ctx: CheckContext, api: ApiClient, campaignId: string): Promise<{ id: string; email: string }[]> {
  const o = op(ctx.profile, 'leads.list');
  return walk(ctx.profile, api, fillPath(o.path, { id: campaignId }), resultPath(o, 'items')) as Promise<{ id: string; email: string }[]>;
}

/** Walks a list endpoint to the end (bounded), returning the items in order. */
export async function walk(profile: Profile, api: ApiClient, path: string, itemsPath = 'data', pageSize = 100, query: Record<string, string> = {}): Promise<unknown[]> {
  return (await walkPages(profile, api, path, itemsPath, pageSize, query)).flatMap((p) => p.items);
}

/** Walks a list endpoint to the end (bounded), page by page: each page's items and its answer. */
export async function walkPages(profile: Profile, api: ApiClient, path: string, itemsPath = 'data', pageSize = 100, query: Record<string, string> = {}): Promise<{ items: unknown[]; res: ApiResponse }[]> {
  const pages: { items: unknown[]; res: ApiResponse }[] = [];
  // What each cursor answered: the same cursor answering the same page and the same next cursor
  // again means the walk goes round for ever (a list left unchanged meanwhile).
  const answered = new Map<string | undefined, string>();
  let cursor: string | undefined;
  for (let page = 0; page < 200; page++) {
    const res = must(await api.get(path, { ...query, [profile.names.list.pageSize]: pageSize, [profile.names.list.cursor]: cursor }), `GET ${path}`);
    const data = getPath(res.body, itemsPath);
    if (!Array.isArray(data)) fail(msg`GET ${path}: no array at "${itemsPath}"`, res);
    pages.push({ items: data, res });
    if (res.body?.meta?.hasMore !== true) return pages;
    const seen = JSON.stringify([data, res.body.meta.nextCursor]);
    if (answered.get(cursor) === seen) fail(msg`GET ${path}: the walk goes round: the cursor ${cursor === undefined ? '(none: the first page)' : JSON.stringify(cursor)} answered the same page and the same nextCursor twice`, res);
    answered.set(cursor, seen);
    cursor = res.body.meta.nextCursor;
    if (typeof cursor !== 'string') fail(msg`GET ${path}: hasMore is true but nextCursor is not a string`, res);
  }
  fail(msg`GET ${path}: the walk did not end after 200 pages`);
}

/** Creates an API key with these scopes (referenced "apikeys.create"), uncached. */
export async function newKey(ws: Workspace, ctx: CheckContext, scopes: string[]) {
  return ws.createKey(scopes, `${ctx.prefix}${Math.random().toString(36).slice(2, 8)}`);
}

export { getPath };

/** What variantIdOf() needs of the profile: every check that calls it lists it. */
export const NEEDS_VARIANT_ID = 'decl:declarations.variantIdPath' as const;

/**
 * The id of step `step`'s variant in a created campaign (the test email's `variantId`, 4.3), read
 * where the profile declares it: 2.5 gives no variant shape, so nothing is guessed. Skips naming
 * the field when it is not declared (a check listing NEEDS_VARIANT_ID never gets here without it),
 * fails when the declared path holds no string.
 */
export function variantIdOf(profile: Profile, campaign: unknown, step = 0, evidence?: ApiResponse): string {
  const path = profile.declarations.variantIdPath;
  if (!path) skip('needs declarations.variantIdPath in the profile (where a created campaign shows a sequence step variant id; 2.5 gives no variant shape)');
  const at = path.replaceAll('{step}', String(step));
  const id = getPath(campaign, at);
  if (typeof id !== 'string' || id === '') fail(msg`the created campaign holds no variant id at the declared declarations.variantIdPath ${at}: found ${JSON.stringify(id)}`, evidence);
  return id;
}
