import type { ApiClient } from '../../../harness/ground/api-client.ts';
import type { CheckContext, Feature, Workspace } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { addLeads, createCampaign, createMailbox, faker } from '../../lib/recipes.ts';
import { prefixedAddress } from '../../../fixtures/factories/index.ts';
import { fillPath, getPath, resultPath } from '../../../harness/ground/operations.ts';
import { expect2xx } from '../../lib/expect.ts';

// For each list endpoint: where it lives, how to add an item (returning its id), and how to
// delete one when the spec gives a way. Data for the generated pagination checks.

export interface ListScope {
  path: string;
  itemsPath: string;
  /** The item schema name for a spec list (absent for referenced lists). */
  item?: string;
  insert(): Promise<string>;
  remove?(id: string): Promise<void>;
}

export interface ListSubject {
  endpoint: string;
  features: Feature[];
  /** The spec gives a way to delete its items (the scope then has `remove`). */
  removable: boolean;
  /** The endpoint's own clauses on its cursor and page size, proven by the walk and the size checks. */
  own?: { cursor: string[]; pageSize: string[] };
  open(ctx: CheckContext, ws: Workspace): Promise<ListScope>;
}

async function idOf(res: { body: unknown; exchangeId: string }, path: string, what: string): Promise<string> {
  const id = getPath(res.body, path);
  if (typeof id !== 'string') fail(msg`setup: ${what} answered no id at "${path}"`, res.exchangeId);
  return id;
}

async function leadScope(ctx: CheckContext, api: ApiClient) {
  const { id: cid } = await createCampaign(ctx, api);
  const list = ctx.profile.operations['leads.list']!;
  return { cid, path: fillPath(list.path, { id: cid }), itemsPath: resultPath(list, 'items') };
}

export const LIST_SUBJECTS: ListSubject[] = [
  {
    endpoint: 'campaigns.list',
    removable: false,
    features: [],
    async open(ctx, ws) {
      return {
        path: '/v1/campaigns',
        itemsPath: 'data',
        item: 'CampaignListItem',
        insert: async () => (await createCampaign(ctx, ws.api)).id,
      };
    },
  },
  {
    endpoint: 'leadSearches.list',
    removable: false,
    own: { cursor: ['LF-LIST-CURSOR', 'LF-LIST-PARAMS-PROFILE'], pageSize: ['LF-LIST-PAGESIZE', 'LF-LIST-PARAMS-PROFILE'] },
    features: ['control'],
    async open(ctx, ws) {
      if (!ws.organizationId) skip('needs the workspace organizationId to create lead searches through the control API');
      let n = 0;
      return {
        path: '/v1/lead-searches',
        itemsPath: 'data',
        item: 'LeadSearchListItem',
        insert: async () => {
          const res = await ctx.control!.request('POST', '/lead-searches', { organizationId: ws.organizationId, query: `${ctx.prefix}search ${n++}`, searchMode: 'companies', maxResults: 10 });
          return idOf(res, 'id', 'control POST /lead-searches');
        },
      };
    },
  },
  {
    endpoint: 'accounts.list',
    removable: true,
    features: ['op:accounts.list'],
    async open(ctx, ws) {
      const op = ctx.profile.operations['accounts.list']!;
      return {
        path: op.path,
        itemsPath: resultPath(op, 'items'),
        insert: async () => (await createMailbox(ctx, ws.api)).id,
        remove: async (id) => expect2xx(await ws.api.delete(`/v1/accounts/${id}`), 'deleting a mailbox during the walk'),
      };
    },
  },
  {
    endpoint: 'leads.list',
    removable: true,
    features: ['op:leads.list', 'op:leads.create'],
    async open(ctx, ws) {
      const { cid, path, itemsPath } = await leadScope(ctx, ws.api);
      const f = faker(ctx);
      return {
        path,
        itemsPath,
        insert: async () => {
          const email = prefixedAddress(f, ctx.prefix, 'leads.example.test');
          const res = await addLeads(ctx, ws.api, cid, [email]);
          const op = ctx.profile.operations['leads.create']!;
          const items = getPath(res.body, resultPath(op, 'items'));
          const made = Array.isArray(items) ? (items as { id?: string; email?: string }[]).find((l) => l.email === email) : undefined;
          if (made?.id) return made.id;
          // The answer does not list the lead: find it in the list.
          const page = await ws.api.get(path, { [ctx.profile.names.list.pageSize]: 100 });
          const hit = ((getPath(page.body, itemsPath) as { id: string; email: string }[]) ?? []).find((l) => l.email === email);
          if (!hit) fail(msg`setup: the lead ${email} just added is not listed`, res, page);
          return hit.id;
        },
        remove: async (id) => expect2xx(await ws.api.delete(`/v1/campaigns/${cid}/leads/${id}`), 'deleting a lead during the walk'),
      };
    },
  },
  {
    endpoint: 'apikeys.list',
    removable: false,
    features: ['op:apikeys.list', 'op:apikeys.create'],
    async open(ctx, ws) {
      const op = ctx.profile.operations['apikeys.list']!;
      let n = 0;
      return {
        path: op.path,
        itemsPath: resultPath(op, 'items'),
        insert: async () => (await ws.createKey(['usage:read'], `${ctx.prefix}page-${ctx.seed}-${n++}`)).id,
      };
    },
  },
];
