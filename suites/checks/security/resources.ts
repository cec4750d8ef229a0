import { randomUUID } from 'node:crypto';
import type { ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectThat } from '../../lib/expect.ts';
import { createCampaign, createMailbox, setupCampaignBody } from '../../lib/recipes.ts';
import { query, weekStart } from '../analytics/lib.ts';
import { campaignWithLeads, control, getMailbox, mbx, mustGetMailbox, mutateBody, op, opRequest, settle, walk } from '../resources/lib.ts';
import { sentEmailId } from '../emails/emails.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX } from '../sending/lib.ts';

// Security of the resources: another workspace's ids are absent (404 on every endpoint that
// takes an id, never 2xx, never 403), passwords never come back, signatures are sanitized,
// lists are scoped to the caller's workspace.

const REDACTED = '[REDACTED]';

async function expect404All(ctx: CheckContext, b: Workspace, requests: ApiRequest[]) {
  for (const req of requests) {
    const res = await b.api.request(req);
    expectThat(res.status !== 403, msg`${req.method} ${req.path} from another workspace answered 403, which tells the resource exists; expected 404`, res);
    expectError(res, 404, ctx.profile, `${req.method} ${req.path} from another workspace`, 'not_found');
  }
}

function optional(ctx: CheckContext, id: Parameters<typeof opRequest>[1], params: Record<string, string>, extra: Partial<ApiRequest> = {}): ApiRequest[] {
  return ctx.profile.operations[id] ? [opRequest(ctx, id, params, extra)] : [];
}

async function leadSearch(ctx: CheckContext, ws: Workspace, query: string): Promise<string> {
  if (!ws.organizationId) skip('the workspace has no organizationId (control API)');
  const r = await control(ctx).request('POST', '/lead-searches', { organizationId: ws.organizationId, query: `${ctx.prefix}${query}`, searchMode: 'companies', maxResults: 10 });
  return r.body.id;
}

export const SECURITY_CHECKS: Check[] = [
  {
    id: 'SEC-TENANT-404/accounts',
    title: "MUST answer 404 not_found (never 2xx, never 403) to another workspace's mailbox id on every mailbox endpoint",
    clauses: ['TENANT-ISOLATION', 'ERR-TABLE-404', 'ACCT-OTHER-WORKSPACE-404', 'AUTH-KEY-IDENTIFIES-WORKSPACE', 'SVC-KEY-IDENTIFIES-WORKSPACE'],
    level: 'MUST',
    features: ['twoWorkspaces'],
    budget: 10,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const { id } = await createMailbox(ctx, a.api);
      await expect404All(ctx, b, [
        { method: 'PATCH', path: `/v1/accounts/${id}`, body: { firstName: 'Mallory' } },
        { method: 'PATCH', path: `/v1/accounts/${id}`, body: { smtpPassword: 'Mallory-pass-123' } },
        { method: 'GET', path: `/v1/accounts/${id}/verification` },
        { method: 'POST', path: `/v1/accounts/${id}/pause` },
        ...optional(ctx, 'accounts.get', { id }),
        ...optional(ctx, 'accounts.resume', { id }),
        { method: 'DELETE', path: `/v1/accounts/${id}` },
      ]);
      if (ctx.profile.operations['accounts.get']) {
        const own = await mustGetMailbox(ctx, a.api, id);
        expectThat(own.body.firstName !== 'Mallory', msg`another workspace's PATCH changed the mailbox`, own);
      } else expect2xx(await a.api.get(`/v1/accounts/${id}/verification`), "the owner's mailbox must still exist");
    },
  },
  {
    id: 'SEC-TENANT-404/campaigns',
    title: "MUST answer 404 not_found (never 2xx, never 403) to another workspace's campaign id on every campaign endpoint, and to its lead under the caller's own campaign",
    clauses: ['TENANT-ISOLATION', 'ERR-TABLE-404', 'CAMP-OTHER-WORKSPACE-404', 'AUTH-KEY-IDENTIFIES-WORKSPACE', 'SVC-KEY-IDENTIFIES-WORKSPACE'],
    level: 'MUST',
    features: ['twoWorkspaces'],
    budget: 19,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const { id: mid } = await createMailbox(ctx, b.api);
      const { id } = await createCampaign(ctx, a.api, { leads: 1, steps: 1 });
      await expect404All(ctx, b, [
        { method: 'GET', path: `/v1/campaigns/${id}/status` },
        { method: 'PATCH', path: `/v1/campaigns/${id}`, body: { name: `${ctx.prefix}stolen` } },
        { method: 'POST', path: `/v1/campaigns/${id}/start` },
        { method: 'POST', path: `/v1/campaigns/${id}/resume` },
        ...optional(ctx, 'campaigns.pause', { id }),
        { method: 'POST', path: `/v1/campaigns/${id}/test-email`, body: { variantId: randomUUID(), accountId: mid, recipient: 'lead@example.test', personalization: 'dummy' } },
        { method: 'GET', path: `/v1/campaigns/${id}/analytics${query(ctx, await weekStart(ctx))}` },
        { method: 'GET', path: `/v1/campaigns/${id}/analytics/timeseries${query(ctx, await weekStart(ctx))}` },
        ...optional(ctx, 'leads.list', { id }),
        ...optional(ctx, 'leads.create', { id }, { body: { [ctx.profile.operations['leads.create']?.fields.leads ?? 'leads']: [{ email: `${ctx.prefix}x@leads.example.test` }] } }),
        { method: 'POST', path: `/v1/campaigns/${id}/leads/mutate`, body: mutateBody(ctx.profile, 'delete', { all: true }) },
      ]);
      // A's lead under B's own campaign: the campaign in the path is B's, the lead must still be absent to B.
      const list = ctx.profile.operations['leads.list'];
      if (list) {
        const lid = ((await walk(ctx.profile, a.api, list.path.replace('{id}', id), list.result.items ?? 'data')) as any[])[0]?.id;
        if (typeof lid !== 'string') fail(msg`setup: the owner's campaign lists no lead`);
        const { id: bCampaign } = await createCampaign(ctx, b.api);
        await expect404All(ctx, b, [{ method: 'PATCH', path: `/v1/campaigns/${bCampaign}/leads/${lid}`, body: { firstName: 'Mallory' } }]);
      }
      const own = await a.api.get(`/v1/campaigns/${id}/status`);
      expect2xx(own, "GET the owner's campaign status");
      expectThat(own.body.status === 'draft' && own.body.metrics?.leadsCount === 1, msg`the owner's campaign changed after another workspace's requests: ${JSON.stringify(own.body)}`, own);
    },
  },
  {
    id: 'SEC-TENANT-404/leads',
    title: "MUST answer 404 not_found to another workspace's leads, under its campaign or under the caller's own",
    clauses: ['TENANT-ISOLATION', 'ERR-TABLE-404', 'AUTH-KEY-IDENTIFIES-WORKSPACE'],
    level: 'MUST',
    features: ['twoWorkspaces', 'op:leads.list'],
    budget: 10,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, a.api, 1);
      const { id: own } = await createCampaign(ctx, b.api);
      const lid = leads[0]!.id;
      await expect404All(ctx, b, [
        { method: 'PATCH', path: `/v1/campaigns/${cid}/leads/${lid}`, body: { firstName: 'Mallory' } },
        { method: 'DELETE', path: `/v1/campaigns/${cid}/leads/${lid}` },
        { method: 'PATCH', path: `/v1/campaigns/${own}/leads/${lid}`, body: { status: 'lead_lost' } },
        { method: 'DELETE', path: `/v1/campaigns/${own}/leads/${lid}` },
      ]);
      const m = await b.api.post(`/v1/campaigns/${own}/leads/mutate`, mutateBody(ctx.profile, 'set_status', { ids: [lid] }, 'lead_lost'));
      expectThat(m.status !== 403 && !(m.status >= 200 && m.status < 300 && m.body?.affected > 0), msg`a mutate of another workspace's lead id must not affect it (got ${m.status} ${JSON.stringify(m.body)})`, m);
      const after = (await walk(ctx.profile, a.api, op(ctx, 'leads.list').path.replace('{id}', cid), op(ctx, 'leads.list').result.items ?? 'data')) as any[];
      expectThat(after.length === 1 && after[0].status !== 'lead_lost' && after[0].firstName !== 'Mallory', msg`another workspace changed the owner's lead: ${JSON.stringify(after[0])}`);
    },
  },
  {
    id: 'SEC-TENANT-404/lead-searches',
    title: "MUST answer 404 not_found to another workspace's lead search id",
    clauses: ['TENANT-ISOLATION', 'ERR-TABLE-404', 'LF-GET-OTHER-WORKSPACE-404', 'AUTH-KEY-IDENTIFIES-WORKSPACE'],
    level: 'MUST',
    features: ['twoWorkspaces', 'control'],
    budget: 2,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const id = await leadSearch(ctx, a, 'isolated search');
      await expect404All(ctx, b, [{ method: 'GET', path: `/v1/lead-searches/${id}` }]);
      expect2xx(await a.api.get(`/v1/lead-searches/${id}`), 'the owner reads its lead search');
    },
  },
  {
    // Emails are the one resource the kit's id probes reach only through a sent campaign email (an inbox store of its own).
    id: 'SEC-TENANT-404/emails',
    title: "MUST answer 404 not_found (never 2xx, never 403) to another workspace's email id on both email endpoints, and leave the email to its owner",
    clauses: ['TENANT-ISOLATION'],
    level: 'MUST',
    features: ['twoWorkspaces', 'sinks', 'op:accounts.get', 'op:leads.list', 'op:emails.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE],
    budget: 30,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const id = await sentEmailId(ctx, a);
      await expect404All(ctx, b, [{ method: 'GET', path: `/v1/emails/${id}` }, { method: 'DELETE', path: `/v1/emails/${id}` }]);
      expect2xx(await a.api.get(`/v1/emails/${id}`), "GET /v1/emails/{id} by its own workspace after the other's attempts");
    },
  },
  {
    id: 'SEC-LISTS-SCOPED',
    title: "MUST scope every list to the caller's workspace: campaigns, mailboxes, lead searches and lead search never show another workspace's items",
    clauses: ['TENANT-ISOLATION', 'LF-LIST-WORKSPACE', 'LEAD-SEARCH-WORKSPACE', 'AUTH-KEY-IDENTIFIES-WORKSPACE', 'SVC-KEY-IDENTIFIES-WORKSPACE'],
    level: 'MUST',
    features: ['twoWorkspaces', 'control'],
    budget: 14,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const local = `${ctx.prefix}${randomUUID().slice(0, 8)}`;
      const email = `${local}@leads.example.test`;
      const c = await a.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx)), name: `${ctx.prefix}scoped`, leads: [email] });
      expect2xx(c, 'setup: POST /v1/campaigns');
      const { id: mid } = await createMailbox(ctx, a.api);
      const sid = await leadSearch(ctx, a, 'scoped search');
      const campaigns = (await walk(ctx.profile, b.api, '/v1/campaigns')) as any[];
      expectThat(!campaigns.some((x) => x.id === c.body.campaign.id), msg`another workspace's campaign is listed`);
      const searches = (await walk(ctx.profile, b.api, '/v1/lead-searches')) as any[];
      expectThat(!searches.some((x) => x.id === sid), msg`another workspace's lead search is listed`);
      const hits = await b.api.get('/v1/leads/search', { [ctx.profile.names.leadsSearchParam]: email });
      expect2xx(hits, 'GET /v1/leads/search');
      expectThat(Array.isArray(hits.body.data) && hits.body.data.length === 0, msg`the lead search found another workspace's lead: ${JSON.stringify(hits.body.data)}`, hits);
      // A fragment too (its local part, no @): a search by fragment is often a query path of its own (LIKE, not an equality).
      const part = await b.api.get('/v1/leads/search', { [ctx.profile.names.leadsSearchParam]: local });
      expect2xx(part, 'GET /v1/leads/search by a fragment');
      expectThat(Array.isArray(part.body.data) && part.body.data.length === 0, msg`the lead search by a fragment found another workspace's lead: ${JSON.stringify(part.body.data)}`, part);
      const o = ctx.profile.operations['accounts.list'];
      if (o) {
        const boxes = (await walk(ctx.profile, b.api, o.path, o.result.items ?? 'data')) as any[];
        expectThat(!boxes.some((x) => x.id === mid), msg`another workspace's mailbox is listed`);
      }
      // The owner does see them (the lists work at all).
      const mine = await a.api.get('/v1/leads/search', { [ctx.profile.names.leadsSearchParam]: email });
      expectThat(mine.body?.data?.length === 1, msg`the owner's search must find its lead, got ${JSON.stringify(mine.body?.data)}`, mine);
    },
  },
  {
    id: 'SEC-PASSWORD-CANARY',
    title: 'MUST never return a mailbox password given at create or PATCH, in any answer (success or error), also once its verification failed',
    clauses: ['ACCT-IN-SMTPPASSWORD-NEVER-RETURNED', 'ACCT-IN-IMAPPASSWORD-NEVER-RETURNED', 'ACCT-PASSWORDS-NEVER-RETURNED', 'ACCT-PATCH-PASSWORD-NOT-RETURNED'],
    level: 'MUST',
    features: [],
    budget: 30,
    async run(ctx) {
      const ws = await ctx.workspace();
      const canary = () => `canary-${randomUUID()}`;
      const canaries = [canary(), canary(), canary(), canary(), canary(), canary()];
      const [c1, c2, c3, c4, c5, c6] = canaries as [string, string, string, string, string, string];
      const seen: ApiResponse[] = [];
      const keep = (r: ApiResponse) => (seen.push(r), r);
      const created = keep(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { smtpPassword: c1, imapPassword: c2 })] }));
      expect2xx(created, 'POST /v1/accounts');
      const id = created.body.accounts[0].id as string;
      // Once its verification has failed (the servers are unreachable): an error quoting the login it tried is the classic leak.
      if (ctx.profile.operations['accounts.get']) {
        keep(await settle(ctx, ws.api, id));
        keep(await ws.api.get(`/v1/accounts/${id}/verification`));
      }
      keep(await ws.api.patch(`/v1/accounts/${id}`, { smtpPassword: c3, imapPassword: c4 }));
      // Error answers must not echo it either.
      keep(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { smtpPassword: c5, smtpPort: 0 })] }));
      keep(await ws.api.patch(`/v1/accounts/${id}`, { imapPassword: c6, maxEmailsPerDay: 100000 }));
      keep(await ws.api.patch(`/v1/accounts/${id}`, { smtpPassword: 12345 }));
      keep(await ws.api.get(`/v1/accounts/${id}/verification`));
      keep(await ws.api.post(`/v1/accounts/${id}/pause`));
      if (ctx.profile.operations['accounts.get']) keep(await getMailbox(ctx, ws.api, id));
      const list = ctx.profile.operations['accounts.list'];
      if (list) keep(await ws.api.get(list.path, { [ctx.profile.names.list.pageSize]: 100 }));
      for (const r of seen) {
        const leaked = canaries.filter((c) => r.text.includes(c));
        expectThat(leaked.length === 0, msg`an answer carries a mailbox password given by the kit (${leaked.length} canary value(s))`, r);
      }
      // The recorded exchanges too: the client redacts the passwords it sent, so an echo shows as [REDACTED].
      const mine = ctx.observed().filter((e) => e.checkId === ctx.checkId && e.response?.body);
      for (const e of mine) {
        const body = e.response!.body!;
        if (canaries.some((c) => body.includes(c)) || body.includes(REDACTED)) fail(msg`the recorded answer of ${e.request.method} ${e.request.url} carries a password (shown redacted)`, e.id);
      }
    },
  },
  {
    id: 'SEC-SIGNATURE-SCRIPT',
    title: 'MUST sanitize a signature: <script> content given at create or PATCH does not come back',
    clauses: ['ACCT-IN-SIGNATURE-SANITIZED', 'ACCT-SIGNATURE-STRING'],
    level: 'MUST',
    features: [],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const marker = `xss${randomUUID().slice(0, 8)}`;
      const dirty = `<p>Kind regards</p><script>alert("${marker}")</script><SCRIPT src="https://evil.example.test/${marker}.js"></SCRIPT>`;
      const created = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { signature: dirty })] });
      expect2xx(created, 'POST /v1/accounts with a <script> in the signature');
      const bad = (r: ApiResponse, what: string) => {
        const text = r.text.toLowerCase();
        expectThat(!text.includes('<script') && !text.includes(marker) && !text.includes('\\u003cscript'), msg`${what}: the script given in the signature came back`, r);
      };
      // Sanitizing keeps what is harmless: the signature is still a string holding the greeting.
      const kept = (r: ApiResponse, sig: unknown, what: string) =>
        expectThat(typeof sig === 'string' && sig.includes('Kind regards'), msg`${what}: the signature must be a string that keeps its harmless part ("Kind regards"), got ${JSON.stringify(sig)}`, r);
      if (created.status === 201 && created.body.accounts?.length === 1) {
        bad(created, 'POST /v1/accounts');
        kept(created, created.body.accounts[0].signature, 'POST /v1/accounts');
        const id = created.body.accounts[0].id as string;
        if (ctx.profile.operations['accounts.get']) bad(await mustGetMailbox(ctx, ws.api, id), 'GET mailbox');
        const p = await ws.api.patch(`/v1/accounts/${id}`, { signature: dirty.replace(marker, `${marker}b`) });
        expect2xx(p, 'PATCH /v1/accounts/{id} with a <script> in the signature');
        bad(p, 'PATCH /v1/accounts/{id}');
        kept(p, p.body?.signature, 'PATCH /v1/accounts/{id}');
      } else {
        // A refusal keeps the script out, but proves nothing of the sanitizing the clause asks for.
        bad(created, 'POST /v1/accounts (refused element)');
        skip(`the target refused the mailbox whose signature holds a <script> (${created.status}): what it does with such a signature on save cannot be seen`);
      }
    },
  },
];
