import type { ApiRequest } from '../../../harness/ground/api-client.ts';
import type { Check } from '../../../harness/ground/check.ts';
import { expectError, expectPage, expectThat, msg } from '../../lib/expect.ts';
import { createCampaign, createMailbox, walk, walkPages } from '../../lib/recipes.ts';
import { fillPath, getPath, resultPath } from '../../../harness/ground/operations.ts';
import { query, weekStart } from '../analytics/lib.ts';

// Part 5.2 with part 7's 404: another workspace's resources are absent, by id and in lists.

export const TENANT_CHECKS: Check[] = [
  {
    // The cheap half of the list rule: another workspace's API key (the one its lease was made with,
    // or one made for this check) is never in this workspace's key listing.
    id: 'TENANT-ISOLATION/api-key-list',
    title: "MUST list only the caller's workspace's API keys: another workspace's key never appears in the referenced key listing (each page in 4.1's shape)",
    clauses: ['TENANT-ISOLATION', 'AUTH-KEY-IDENTIFIES-WORKSPACE', 'PAGE-SHAPE'],
    level: 'MUST',
    features: ['op:apikeys.list', 'op:apikeys.create', 'twoWorkspaces'],
    budget: 4,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const theirs = b.apiKeyId ?? (await b.createKey(['usage:read'], `${ctx.prefix}tenant-key`)).id;
      const op = ctx.profile.operations['apikeys.list']!;
      const pages = await walkPages(ctx.profile, a.api, op.path, resultPath(op, 'items'));
      // The key listing is a list of 4.1: paged, with meta (one answered whole has none).
      for (const p of pages) expectPage(p.res, resultPath(op, 'items'), `GET ${op.path}`);
      const items = pages.flatMap((p) => p.items) as { id?: string }[];
      expectThat(!items.some((k) => k.id === theirs), msg`the key listing of one workspace shows the key ${theirs} of another workspace (${items.length} keys listed)`);
    },
  },
  {
    id: 'TENANT-ISOLATION/campaigns-and-mailboxes',
    title: "MUST answer 404 not_found to another workspace's campaign and mailbox ids, and never list them",
    clauses: ['TENANT-ISOLATION', 'ERR-TABLE-404', 'AUTH-KEY-IDENTIFIES-WORKSPACE', 'SVC-KEY-IDENTIFIES-WORKSPACE'],
    level: 'MUST',
    features: [],
    budget: 16,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const { id: cid } = await createCampaign(ctx, a.api, { leads: 1, steps: 1 });
      const { id: mid } = await createMailbox(ctx, a.api);
      const requests: ApiRequest[] = [
        { method: 'GET', path: `/v1/campaigns/${cid}/status` },
        { method: 'PATCH', path: `/v1/campaigns/${cid}`, body: { name: `${ctx.prefix}stolen` } },
        { method: 'POST', path: `/v1/campaigns/${cid}/start` },
        { method: 'GET', path: `/v1/campaigns/${cid}/analytics${query(ctx, await weekStart(ctx))}` },
        { method: 'PATCH', path: `/v1/accounts/${mid}`, body: { firstName: 'Mallory' } },
        { method: 'GET', path: `/v1/accounts/${mid}/verification` },
        { method: 'POST', path: `/v1/accounts/${mid}/pause` },
        { method: 'DELETE', path: `/v1/accounts/${mid}` },
      ];
      const get = ctx.profile.operations['accounts.get'];
      if (get) requests.push({ method: get.method, path: fillPath(get.path, { id: mid }) });
      for (const req of requests) expectError(await b.api.request(req), 404, ctx.profile, `${req.method} ${req.path} from another workspace`, 'not_found');
      const listed = (await walk(ctx.profile, b.api, '/v1/campaigns')) as { id: string }[];
      expectThat(!listed.some((c) => c.id === cid), msg`another workspace's campaign is in the list`);
      const accounts = ctx.profile.operations['accounts.list'];
      if (accounts) {
        const mine = (await walk(ctx.profile, b.api, accounts.path, accounts.result.items ?? 'data')) as { id: string }[];
        expectThat(!mine.some((m) => m.id === mid), msg`another workspace's mailbox is in the list`);
      }
      // Nothing changed for the owner.
      const own = await a.api.get(`/v1/campaigns/${cid}/status`);
      expectThat(getPath(own.body, 'status') === 'draft', msg`the owner's campaign changed state to ${getPath(own.body, 'status')} after another workspace's requests`, own);
    },
  },
];
