import type { ApiClient, ApiRequest } from '../../../harness/client/types.ts';
import type { CheckContext, Feature, Workspace } from '../../lib/check.ts';
import { fail, skip } from '../../lib/check.ts';
import { createCampaign, createMailbox, faker, listLeads, walk } from '../../lib/recipes.ts';
import { campaignBody, mailboxInput, prefixedAddress } from '../../../fixtures/factories/index.ts';
import { fieldName, fillPath, resultPath } from '../../../harness/runner/operations.ts';
import { expect2xx } from '../../lib/expect.ts';
import { settle, sinkMailbox } from '../resources/lib.ts';

// For each state-changing endpoint: how to make one valid request in a fresh state, optionally a
// second request to the same route with another body, and how to count the effect (how many
// resources the request made). Data for the generated idempotency checks.

export interface Subject {
  endpoint: string;
  features: Feature[];
  /** Why it cannot run yet, for endpoints whose preconditions the kit cannot reach here. */
  unreachable?: string;
  prepare(ctx: CheckContext, ws: Workspace): Promise<{ request: ApiRequest; other?: ApiRequest; effects?: () => Promise<number> }>;
}

const opOf = (ctx: CheckContext, id: keyof CheckContext['profile']['operations']) => {
  const o = ctx.profile.operations[id];
  if (!o) skip(`needs the referenced operation "${id}"`);
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
  if (leads.length === 0) fail('setup: a campaign created with two leads lists no lead');
  return { cid: id, leadId: leads[0]!.id };
}

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
      const f = faker(ctx);
      const body = campaignBody(f, ctx.prefix, { steps: 1 });
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
    endpoint: 'campaigns.start',
    features: [],
    async prepare(ctx, ws) {
      const { id } = await createCampaign(ctx, ws.api, { leads: 2, steps: 1 });
      return { request: { method: 'POST', path: `/v1/campaigns/${id}/start` } };
    },
  },
  {
    endpoint: 'campaigns.resume',
    features: ['op:campaigns.pause'],
    async prepare(ctx, ws) {
      await createMailbox(ctx, ws.api);
      const id = await activeCampaign(ctx, ws);
      const op = opOf(ctx, 'campaigns.pause');
      expect2xx(await ws.api.request({ method: op.method, path: fillPath(op.path, { id }) }), 'setup: pausing the campaign');
      return { request: { method: 'POST', path: `/v1/campaigns/${id}/resume` } };
    },
  },
  {
    endpoint: 'campaigns.pause',
    features: ['op:campaigns.pause'],
    async prepare(ctx, ws) {
      const id = await activeCampaign(ctx, ws);
      const op = opOf(ctx, 'campaigns.pause');
      return { request: { method: op.method, path: fillPath(op.path, { id }) } };
    },
  },
  {
    endpoint: 'campaigns.testEmail',
    features: ['sinks'],
    unreachable: 'needs an active mailbox and the send path (issue 4 and the send-path issue)',
    async prepare() {
      skip(this.unreachable!);
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
    endpoint: 'leads.update',
    features: ['op:leads.list'],
    async prepare(ctx, ws) {
      const { cid, leadId } = await campaignWithLeads(ctx, ws);
      const path = `/v1/campaigns/${cid}/leads/${leadId}`;
      return { request: { method: 'PATCH', path, body: { firstName: 'Ada' } }, other: { method: 'PATCH', path, body: { firstName: 'Grace' } } };
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
      const body = (tag: string) => ({ [n.operation]: 'add_tags', ids: [leadId], tags: [tag] });
      const path = `/v1/campaigns/${cid}/leads/mutate`;
      return { request: { method: 'POST', path, body: body('first') }, other: { method: 'POST', path, body: body('second') } };
    },
  },
  {
    endpoint: 'emails.delete',
    features: ['sinks'],
    unreachable: 'needs an inbox email (the send path)',
    async prepare() {
      skip(this.unreachable!);
    },
  },
  ...(['emails.reply', 'emails.forward', 'emails.markRead'] as const).map(
    (endpoint): Subject => ({
      endpoint,
      features: ['sinks', `op:${endpoint}`],
      unreachable: 'needs an inbox email (the send path)',
      async prepare() {
        skip(this.unreachable!);
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
