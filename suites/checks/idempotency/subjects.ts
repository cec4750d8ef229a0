import type { ApiClient, ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { CheckContext, Feature, Workspace } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { NEEDS_VARIANT_ID, createCampaign, createMailbox, faker, listLeads, setupCampaignBody, variantIdOf, walk } from '../../lib/recipes.ts';
import { mailboxInput, prefixedAddress } from '../../../fixtures/factories/index.ts';
import { fieldName, fillPath, resultPath } from '../../../harness/ground/operations.ts';
import { expect2xx } from '../../lib/expect.ts';
import { dailyLimitMayExplain } from '../../lib/test-email-limit.ts';
import { settle, sinkMailbox } from '../resources/lib.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX } from '../sending/lib.ts';
import { sentEmailId } from '../emails/emails.ts';

// For each state-changing endpoint: how to make one valid request in a fresh state, optionally a
// second request to the same route with another body, and how to count the effect (how many
// resources the request made). Data for the generated idempotency checks.

export interface Subject {
  endpoint: string;
  features: Feature[];
  /** Test emails a check of it may send from each workspace (Check.testEmails). */
  testEmails?: number;
  prepare(ctx: CheckContext, ws: Workspace): Promise<Prepared>;
}

export interface Prepared {
  request: ApiRequest;
  other?: ApiRequest;
  /** How many resources the request made (for endpoints that create). */
  effects?: () => Promise<number>;
  /**
   * For endpoints whose second execution would answer the same: `between` changes the state after
   * the first request so that executing the retry again would have an effect, and `executedAgain`
   * reads the state after the retry and says what shows it ran again (undefined: it was replayed).
   */
  observe?: { between: () => Promise<void>; executedAgain: () => Promise<string | undefined> };
  /**
   * Why the first request could not be set up here, read from its answer when the spec allows
   * that answer (e.g. a test email's 503 upstream_unavailable): the check then skips with it.
   */
  unmet?: (res: ApiResponse) => string | undefined;
}

async function campaignStatus(api: ApiClient, id: string): Promise<unknown> {
  const s = await api.get(`/v1/campaigns/${id}/status`);
  expect2xx(s, 'GET /v1/campaigns/{id}/status');
  return s.body?.status;
}

/** Runs the referenced campaign pause; the setup fails when it does not succeed. */
async function pauseCampaign(ctx: CheckContext, ws: Workspace, id: string, what: string): Promise<void> {
  const op = opOf(ctx, 'campaigns.pause');
  expect2xx(await ws.api.request({ method: op.method, path: fillPath(op.path, { id }) }), what);
}

const opOf = (ctx: CheckContext, id: keyof CheckContext['profile']['operations']) => {
  const o = ctx.profile.operations[id];
  if (!o) skip(`needs the referenced operation "${id}" in the profile (operations.${id})`);
  return o;
};

async function countWhere(ctx: CheckContext, api: ApiClient, path: string, itemsPath: string, pred: (item: Record<string, unknown>) => boolean) {
  return ((await walk(ctx.profile, api, path, itemsPath)) as Record<string, unknown>[]).filter(pred).length;
}

async function activeCampaign(ctx: CheckContext, ws: Workspace): Promise<string> {
  const { id } = await createCampaign(ctx, ws.api, { leads: 2, steps: 1 });
  expect2xx(await ws.api.post(`/v1/campaigns/${id}/start`), 'setup: starting the campaign');
  return id;
}

async function campaignWithLeads(ctx: CheckContext, ws: Workspace) {
  const { id } = await createCampaign(ctx, ws.api, { leads: 2 });
  const leads = await listLeads(ctx, ws.api, id);
  if (leads.length === 0) fail(msg`setup: a campaign created with two leads lists no lead`);
  return { cid: id, leadId: leads[0]!.id };
}

/**
 * The id of an email in the inbox view: a campaign email the target sent through a mailbox at the
 * kit's sinks, found through the profile's `emails.list` (4.5 reads emails only by id and gives no
 * listing of its own).
 */
const inboxEmail = (ctx: CheckContext, ws: Workspace): Promise<string> => sentEmailId(ctx, ws);

export const SUBJECTS: Subject[] = [
  {
    endpoint: 'accounts.create',
    features: ['op:accounts.list'],
    async prepare(ctx, ws) {
      const f = faker(ctx);
      const input = mailboxInput(f, ctx.prefix);
      const op = ctx.profile.operations['accounts.list']!;
      return {
        request: { method: 'POST', path: '/v1/accounts', body: { accounts: [input] } },
        other: { method: 'POST', path: '/v1/accounts', body: { accounts: [mailboxInput(f, ctx.prefix)] } },
        effects: () => countWhere(ctx, ws.api, op.path, resultPath(op, 'items'), (m) => m.emailAddress === input.emailAddress),
      };
    },
  },
  {
    endpoint: 'accounts.update',
    features: [],
    async prepare(ctx, ws) {
      const { id } = await createMailbox(ctx, ws.api);
      return { request: { method: 'PATCH', path: `/v1/accounts/${id}`, body: { firstName: 'Ada' } }, other: { method: 'PATCH', path: `/v1/accounts/${id}`, body: { firstName: 'Grace' } } };
    },
  },
  {
    endpoint: 'accounts.delete',
    features: [],
    async prepare(ctx, ws) {
      const { id } = await createMailbox(ctx, ws.api);
      return { request: { method: 'DELETE', path: `/v1/accounts/${id}` } };
    },
  },
  {
    endpoint: 'accounts.pause',
    features: ['sinks', 'imap', 'op:accounts.get'],
    async prepare(ctx, ws) {
      // Only an active mailbox can be paused: one whose servers are the kit's sinks.
      const { input } = await sinkMailbox(ctx);
      const created = await ws.api.post('/v1/accounts', { accounts: [input] });
      expect2xx(created, 'setup: POST /v1/accounts');
      const id = created.body?.accounts?.[0]?.id as string;
      const settled = await settle(ctx, ws.api, id);
      if (settled.body?.status !== 'active') skip(`setup: the mailbox did not become active against the sinks (status ${settled.body?.status})`);
      return { request: { method: 'POST', path: `/v1/accounts/${id}/pause` } };
    },
  },
  {
    endpoint: 'accounts.oauthInit',
    features: [],
    async prepare() {
      return { request: { method: 'POST', path: '/v1/accounts/oauth/google/init' } };
    },
  },
  {
    endpoint: 'accounts.resume',
    features: ['op:accounts.resume'],
    async prepare(ctx, ws) {
      const { id } = await createMailbox(ctx, ws.api);
      const op = opOf(ctx, 'accounts.resume');
      return { request: { method: op.method, path: fillPath(op.path, { id }) } };
    },
  },
  {
    endpoint: 'campaigns.create',
    features: [],
    async prepare(ctx, ws) {
      const body = await setupCampaignBody(ctx, { steps: 1 });
      return {
        request: { method: 'POST', path: '/v1/campaigns', body },
        other: { method: 'POST', path: '/v1/campaigns', body: { ...body, name: `${body.name} (other)` } },
        effects: () => countWhere(ctx, ws.api, '/v1/campaigns', 'data', (c) => c.name === body.name),
      };
    },
  },
  {
    endpoint: 'campaigns.update',
    features: [],
    async prepare(ctx, ws) {
      const { id } = await createCampaign(ctx, ws.api);
      return { request: { method: 'PATCH', path: `/v1/campaigns/${id}`, body: { name: `${ctx.prefix}renamed` } }, other: { method: 'PATCH', path: `/v1/campaigns/${id}`, body: { name: `${ctx.prefix}renamed again` } } };
    },
  },
  {
    // A second start would answer the same: pausing between makes a re-executed start visible
    // (it starts the paused campaign again, or is refused) while a replay leaves it paused.
    endpoint: 'campaigns.start',
    features: ['op:campaigns.pause'],
    async prepare(ctx, ws) {
      const { id } = await createCampaign(ctx, ws.api, { leads: 2, steps: 1 });
      let paused: unknown;
      return {
        request: { method: 'POST', path: `/v1/campaigns/${id}/start` },
        observe: {
          between: async () => {
            await pauseCampaign(ctx, ws, id, 'pausing the started campaign between the request and its retry');
            paused = await campaignStatus(ws.api, id);
          },
          executedAgain: async () => {
            const now = await campaignStatus(ws.api, id);
            return now === paused ? undefined : `the campaign paused after the first start is ${String(now)} after the retry (it was ${String(paused)}): the retry started it again`;
          },
        },
      };
    },
  },
  {
    // Pausing again between makes a re-executed resume visible: a replay leaves the campaign paused.
    endpoint: 'campaigns.resume',
    features: ['op:campaigns.pause'],
    async prepare(ctx, ws) {
      await createMailbox(ctx, ws.api);
      const id = await activeCampaign(ctx, ws);
      await pauseCampaign(ctx, ws, id, 'setup: pausing the campaign');
      let paused: unknown;
      return {
        request: { method: 'POST', path: `/v1/campaigns/${id}/resume` },
        observe: {
          between: async () => {
            await pauseCampaign(ctx, ws, id, 'pausing the resumed campaign between the request and its retry');
            paused = await campaignStatus(ws.api, id);
          },
          executedAgain: async () => {
            const now = await campaignStatus(ws.api, id);
            return now === paused ? undefined : `the campaign paused again after the first resume is ${String(now)} after the retry: the retry resumed it again`;
          },
        },
      };
    },
  },
  {
    // Resuming between (the workspace has a mailbox: 3.1 "sending continues") makes a re-executed
    // pause visible: a replay leaves the campaign running.
    endpoint: 'campaigns.pause',
    features: ['op:campaigns.pause'],
    async prepare(ctx, ws) {
      await createMailbox(ctx, ws.api);
      const id = await activeCampaign(ctx, ws);
      const op = opOf(ctx, 'campaigns.pause');
      let running: unknown;
      return {
        request: { method: op.method, path: fillPath(op.path, { id }) },
        observe: {
          between: async () => {
            expect2xx(await ws.api.post(`/v1/campaigns/${id}/resume`), 'resuming the paused campaign between the request and its retry');
            running = await campaignStatus(ws.api, id);
          },
          executedAgain: async () => {
            const now = await campaignStatus(ws.api, id);
            return now === running ? undefined : `the campaign resumed after the first pause is ${String(now)} after the retry (it was ${String(running)}): the retry paused it again`;
          },
        },
      };
    },
  },
  {
    // A test email from a mailbox at the kit's sinks to another sink address (4.3).
    endpoint: 'campaigns.testEmail',
    // The request, its retry or its concurrent twins: one is sent where idempotency holds, a few where it does not.
    testEmails: 3,
    features: ['sinks', 'imap', 'testEmail', 'op:accounts.get', NEEDS_VARIANT_ID],
    async prepare(ctx, ws) {
      const { input } = await sinkMailbox(ctx);
      const created = await ws.api.post('/v1/accounts', { accounts: [input] });
      expect2xx(created, 'setup: POST /v1/accounts');
      const accountId = created.body?.accounts?.[0]?.id as string;
      await settle(ctx, ws.api, accountId);
      const res = await ws.api.post('/v1/campaigns', await setupCampaignBody(ctx, { steps: 1, accounts: [accountId] }));
      expect2xx(res, 'setup: POST /v1/campaigns');
      const id = res.body?.campaign?.id as string;
      const variantId = variantIdOf(ctx.profile, res.body?.campaign, 0, res);
      const recipient = (await sinkMailbox(ctx, false)).input.emailAddress as string;
      const body = (to: string) => ({ variantId, accountId, recipient: to, personalization: 'dummy' });
      const path = `/v1/campaigns/${id}/test-email`;
      return {
        request: { method: 'POST', path, body: body(recipient) },
        other: { method: 'POST', path, body: body(input.emailAddress as string) },
        unmet: (r) =>
          r.status === 503 && r.body?.error?.code === 'upstream_unavailable'
            ? 'the target answered the test email with 503 upstream_unavailable (4.3 allows it): idempotency is checked on a test email that is sent'
            : dailyLimitMayExplain(ctx, r, 'the test email'),
      };
    },
  },
  {
    endpoint: 'leads.create',
    features: ['op:leads.create', 'op:leads.list'],
    async prepare(ctx, ws) {
      const { id } = await createCampaign(ctx, ws.api);
      const f = faker(ctx);
      const email = prefixedAddress(f, ctx.prefix, 'leads.example.test');
      const op = opOf(ctx, 'leads.create');
      const path = fillPath(op.path, { id });
      const body = (e: string) => ({ [fieldName(op, 'leads')]: [{ email: e }] });
      return {
        request: { method: op.method, path, body: body(email) },
        other: { method: op.method, path, body: body(prefixedAddress(f, ctx.prefix, 'leads.example.test')) },
        effects: async () => (await listLeads(ctx, ws.api, id)).filter((l) => l.email === email).length,
      };
    },
  },
  {
    // A lead carries no updatedAt: a second PATCH would answer the same. Another PATCH between
    // makes a re-executed retry visible (it writes Ada back); a replay leaves Grace.
    endpoint: 'leads.update',
    features: ['op:leads.list'],
    async prepare(ctx, ws) {
      const { cid, leadId } = await campaignWithLeads(ctx, ws);
      const path = `/v1/campaigns/${cid}/leads/${leadId}`;
      return {
        request: { method: 'PATCH', path, body: { firstName: 'Ada' } },
        other: { method: 'PATCH', path, body: { firstName: 'Grace' } },
        observe: {
          between: async () => expect2xx(await ws.api.patch(path, { firstName: 'Grace' }), 'PATCH lead { firstName: Grace } between the request and its retry'),
          executedAgain: async () => {
            const now = (await listLeads(ctx, ws.api, cid)).find((l) => l.id === leadId) as { firstName?: unknown } | undefined;
            return now?.firstName === 'Grace' ? undefined : `the lead renamed Grace after the first PATCH is ${JSON.stringify(now?.firstName)} after the retry`;
          },
        },
      };
    },
  },
  {
    endpoint: 'leads.delete',
    features: ['op:leads.list'],
    async prepare(ctx, ws) {
      const { cid, leadId } = await campaignWithLeads(ctx, ws);
      return { request: { method: 'DELETE', path: `/v1/campaigns/${cid}/leads/${leadId}` } };
    },
  },
  {
    endpoint: 'leads.mutate',
    features: ['op:leads.list'],
    async prepare(ctx, ws) {
      const { cid, leadId } = await campaignWithLeads(ctx, ws);
      const n = ctx.profile.names.mutate;
      const body = (tag: string, operation = 'add_tags') => ({ [n.operation]: operation, ids: [leadId], tags: [tag] });
      const path = `/v1/campaigns/${cid}/leads/mutate`;
      return {
        request: { method: 'POST', path, body: body('first') },
        other: { method: 'POST', path, body: body('second') },
        // The answer counts, so a second add_tags would answer the same: removing the tag between
        // makes a re-executed retry visible (the tag is back); a replay leaves it removed.
        observe: {
          between: async () => expect2xx(await ws.api.post(path, body('first', 'remove_tags')), 'mutate remove_tags between the request and its retry'),
          executedAgain: async () => {
            const now = (await listLeads(ctx, ws.api, cid)).find((l) => l.id === leadId) as { tags?: unknown } | undefined;
            return Array.isArray(now?.tags) && now.tags.includes('first') ? `the tag removed after the first add_tags is back after the retry (${JSON.stringify(now.tags)})` : undefined;
          },
        },
      };
    },
  },
  {
    endpoint: 'emails.delete',
    features: ['sinks', 'op:emails.list', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE],
    async prepare(ctx, ws) {
      return { request: { method: 'DELETE', path: `/v1/emails/${await inboxEmail(ctx, ws)}` } };
    },
  },
  ...(['emails.reply', 'emails.forward', 'emails.markRead'] as const).map(
    (endpoint): Subject => ({
      endpoint,
      features: ['sinks', 'op:emails.list', 'op:accounts.get', 'op:leads.list', `op:${endpoint}`, NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE],
      async prepare(ctx, ws) {
        const op = opOf(ctx, endpoint);
        const path = fillPath(op.path, { id: await inboxEmail(ctx, ws) });
        // The profile's request fields (reply: body; forward: to, body; mark read: none needed).
        const to = prefixedAddress(faker(ctx), `${ctx.prefix}fwd-`, 'forward.sink.test').toLowerCase();
        const body = (text: string): Record<string, unknown> | undefined =>
          endpoint === 'emails.reply' ? { [fieldName(op, 'body')]: text } : endpoint === 'emails.forward' ? { [fieldName(op, 'to')]: to, [fieldName(op, 'body')]: text } : undefined;
        const req = (text: string): ApiRequest => ({ method: op.method, path, ...(body(text) ? { body: body(text) } : {}) });
        if (endpoint !== 'emails.markRead') return { request: req('Thanks, more soon.'), other: req('A different text.') };
        // Marking read twice answers the same: marking it unread between makes a re-execution show.
        const read = (isUnread: boolean): ApiRequest => ({ method: op.method, path, body: { [fieldName(op, 'isUnread')]: isUnread } });
        return {
          request: read(false),
          other: read(true),
          observe: {
            between: async () => expect2xx(await ws.api.request(read(true)), 'marking the email unread between the request and its retry'),
            executedAgain: async () => {
              const id = path.split('/').find((x) => /^[0-9a-f-]{36}$/.test(x));
              const r = await ws.api.get(`/v1/emails/${id}`);
              expect2xx(r, 'GET /v1/emails/{id} after the retry');
              return r.body?.isUnread === false ? 'the email is read again: the retry marked it read a second time' : undefined;
            },
          },
        };
      },
    }),
  ),
  {
    endpoint: 'apikeys.create',
    features: ['op:apikeys.create', 'op:apikeys.list'],
    async prepare(ctx, ws) {
      const op = opOf(ctx, 'apikeys.create');
      const list = opOf(ctx, 'apikeys.list');
      const name = `${ctx.prefix}idem-${ctx.seed}`;
      const body = (n: string) => ({ [fieldName(op, 'name')]: n, [fieldName(op, 'scopes')]: ['usage:read'] });
      return {
        request: { method: op.method, path: op.path, body: body(name) },
        other: { method: op.method, path: op.path, body: body(`${name}-other`) },
        // the unique name under whatever field the target lists it (list item shapes are not shown)
        effects: () => countWhere(ctx, ws.api, list.path, resultPath(list, 'items'), (k) => Object.values(k).includes(name)),
      };
    },
  },
  {
    endpoint: 'apikeys.revoke',
    features: ['op:apikeys.create'],
    async prepare(ctx, ws) {
      const key = await ws.createKey(['usage:read'], `${ctx.prefix}revoke-${ctx.seed}`);
      return { request: { method: 'DELETE', path: `/v1/api-keys/${key.id}` } };
    },
  },
];
