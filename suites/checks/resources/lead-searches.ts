import type { ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectSchema, expectThat, is2xx, msg } from '../../lib/expect.ts';
import { drainAll } from '../../lib/drain.ts';
import { leadSearchListItem, listOf } from '../../../harness/ground/spec-model/schemas/index.ts';
import { control, walk } from './lib.ts';

// Part 4.7 Lead Finder rows, 2.8 and 3.4, driven through the control API's lead searches.

/** The phases after discovery, in the order of 2.8. */
const LEAD_SEARCH_PHASES_AFTER = ['processing', 'crawling', 'enriching', 'verifying'] as const;

async function newSearch(ctx: CheckContext, ws: Workspace, query: string, searchMode: 'companies' | 'people' = 'companies', maxResults = 100): Promise<any> {
  if (!ws.organizationId) skip('the workspace has no organizationId (control API)');
  const r = await control(ctx).request('POST', '/lead-searches', { organizationId: ws.organizationId, query: `${ctx.prefix}${query}`, searchMode, maxResults });
  return r.body;
}

async function advance(ctx: CheckContext, id: string, body: Record<string, unknown>): Promise<void> {
  await control(ctx).request('POST', `/lead-searches/${id}/advance`, body);
}

/** A draft search: control POST then advance to draft; skips when the control API cannot make one. */
async function draftSearch(ctx: CheckContext, ws: Workspace, query: string): Promise<{ id: string; leftover?: string }> {
  const s = await newSearch(ctx, ws, query);
  const r = await control(ctx).request('POST', `/lead-searches/${s.id}/advance`, { status: 'draft' }, { allowError: true });
  if (is2xx(r) && r.body?.status === 'draft') return { id: s.id };
  const c = await control(ctx).request('POST', '/lead-searches', { organizationId: ws.organizationId, query: `${ctx.prefix}${query}`, searchMode: 'people', maxResults: 10, status: 'draft' }, { allowError: true });
  if (is2xx(c) && c.body?.status === 'draft') return { id: c.body.id, leftover: s.id };
  skip('the control API made no draft lead search (advance to draft and create with status draft both refused)');
}

async function read(ws: Workspace, id: string, what: string): Promise<ApiResponse> {
  const r = await ws.api.get(`/v1/lead-searches/${id}`);
  expect2xx(r, `GET /v1/lead-searches/{id} (${what})`);
  expectSchema(r, 'LeadSearch', `GET /v1/lead-searches/{id} (${what})`);
  return r;
}

export const LEAD_SEARCH_CHECKS: Check[] = [
  {
    id: 'LF-LIST',
    title: 'MUST list lead searches newest first as { data: [list item], meta }, by cursor and page size, without drafts',
    clauses: ['LF-LIST-ANSWER', 'LF-LIST-CURSOR', 'LF-LIST-NO-DRAFTS', 'LF-LISTITEM-FIELDS', 'LF-LIST-PARAMS-PROFILE', 'SVC-LF'],
    level: 'MUST',
    features: ['control', 'exclusiveWorkspace'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      const a = await newSearch(ctx, ws, 'dentists in Lyon');
      // a completes before the others are made (newest first holds by creation or by update), so a
      // list item of a finished search shows its completedAt too.
      await advance(ctx, a.id, { status: 'completed', progress: { companiesFound: 3, companiesProcessed: 3, emailsFound: 2 } });
      const b = await newSearch(ctx, ws, 'CTOs at fintechs', 'people', 25);
      const { id: draft, leftover } = await draftSearch(ctx, ws, 'a chat draft');
      const c = await newSearch(ctx, ws, 'breweries in Ghent');
      const expected = [c.id, ...(leftover ? [leftover] : []), b.id, a.id];
      const first = await ws.api.get('/v1/lead-searches');
      expect2xx(first, 'GET /v1/lead-searches');
      expectSchema(first, listOf(leadSearchListItem), 'GET /v1/lead-searches');
      const walked = (await walk(ctx.profile, ws.api, '/v1/lead-searches', 'data', 1)) as any[];
      const ids = walked.map((x) => x.id);
      expectThat(!ids.includes(draft), msg`a draft search (${draft}) is listed`, first);
      expectThat(JSON.stringify(ids) === JSON.stringify(expected), msg`a walk with page size 1 must list the searches that are not drafts, newest first (${expected.join(', ')}), got ${ids.join(', ')}`, first);
      const item = walked.find((x) => x.id === b.id);
      expectThat(item.query === b.query && item.searchMode === 'people' && item.maxResults === 25 && item.status === b.status && item.completedAt === null,
        msg`the list item ${JSON.stringify(item)} does not carry the search's values`, first);
      const done = walked.find((x) => x.id === a.id);
      expectThat(done.status === 'completed' && typeof done.completedAt === 'string',
        msg`the list item of a completed search must carry status completed and its completedAt, got ${JSON.stringify(done)}`, first);
    },
  },
  {
    id: 'LF-GET/progress',
    title: 'MUST read a lead search with progress; discoveryFinished, completedAt and errorMessage follow its phase: false before discovery ends, true in each phase after it (crawling and enriching, and those the profile declares: leadSearchAfterDiscovery) and once completed',
    clauses: [
      'LF-GET-ANSWER', 'LF-ID-UUID', 'RES-ID-UUID', 'LF-QUERY-STRING', 'LF-STATUS-ENUM', 'LF-SEARCHMODE-ENUM', 'LF-MAXRESULTS-INT', 'LF-DISCOVERYFINISHED-BOOLEAN',
      'LF-DISCOVERYFINISHED-PHASES', 'LF-PROGRESS', 'LF-TIMESTAMPS', 'LF-ERRORMESSAGE-NULL', 'LF-COMPLETEDAT-TS', 'LF-COMPLETEDAT-NULL-RUNNING',
      'STATE-LF-STATES', 'STATE-LF-DISCOVERY-FINISHED', 'STATE-LF-COMPLETEDAT-TERMINAL', 'SVC-LF', 'RES-NULL-WHERE-STATED', 'RES-TS-ISO8601', 'RES-CAMELCASE',
    ],
    level: 'MUST',
    features: ['control'],
    budget: 8,
    async run(ctx) {
      const ws = await ctx.workspace();
      const s = await newSearch(ctx, ws, 'bakeries in Porto');
      const q = await read(ws, s.id, 'queued');
      expectThat(q.body.id === s.id && q.body.query === s.query && q.body.completedAt === null && q.body.errorMessage === null && q.body.discoveryFinished === false,
        msg`a queued search: completedAt and errorMessage null, discoveryFinished false; got ${JSON.stringify(q.body)}`, q);
      await advance(ctx, s.id, { status: 'discovering', progress: { companiesFound: 12, companiesProcessed: 0, emailsFound: 0 } });
      const d = await read(ws, s.id, 'discovering');
      expectThat(d.body.status === 'discovering' && d.body.progress.companiesFound === 12 && d.body.discoveryFinished === false && d.body.completedAt === null,
        msg`while discovering: progress.companiesFound 12, discoveryFinished false, completedAt null; got ${JSON.stringify(d.body)}`, d);
      // The phases after discovery, forward in the order of 2.8: crawl and enrich run after it (2.8);
      // whether processing and verifying do is the profile's (transitions are not shown).
      const after = new Set<string>(['crawling', 'enriching', ...(ctx.profile.declarations.leadSearchAfterDiscovery ?? [])]);
      for (const phase of LEAD_SEARCH_PHASES_AFTER.filter((p) => after.has(p))) {
        const progress = phase === 'enriching' ? { companiesFound: 40, companiesProcessed: 22, emailsFound: 31 } : undefined;
        await advance(ctx, s.id, { status: phase, ...(progress ? { progress } : {}) });
        const e = await read(ws, s.id, phase);
        const why = phase === 'crawling' || phase === 'enriching' ? 'crawl and enrich run after discovery (2.8)' : 'the profile declares it after discovery (leadSearchAfterDiscovery)';
        expectThat(e.body.discoveryFinished === true && e.body.completedAt === null && e.body.status === phase,
          msg`in ${phase} discovery has ended (${why}): discoveryFinished must be true while completedAt stays null; got ${JSON.stringify(e.body)}`, e);
        if (progress) expectThat(e.body.progress.companiesProcessed === 22 && e.body.progress.emailsFound === 31, msg`progress must be reported, got ${JSON.stringify(e.body.progress)}`, e);
      }
      await advance(ctx, s.id, { status: 'completed', progress: { companiesFound: 40, companiesProcessed: 40, emailsFound: 55 } });
      const c = await read(ws, s.id, 'completed');
      expectThat(c.body.completedAt !== null && c.body.discoveryFinished === true && c.body.errorMessage === null, msg`a completed search: completedAt set, discoveryFinished true, errorMessage null; got ${JSON.stringify(c.body)}`, c);
    },
  },
  {
    id: 'LF-GET/failed',
    title: 'MUST set errorMessage and completedAt on a failed lead search',
    // The stopped search is a people search: LF-GET/progress reads a companies one (the other value of the enum).
    // The terminal states other than completed are read here only: their status names and discoveryFinished are schema-read.
    clauses: ['LF-ERRORMESSAGE-FAILED', 'LF-ERRORMESSAGE-NULL', 'LF-COMPLETEDAT-TS', 'STATE-LF-COMPLETEDAT-TERMINAL', 'LF-SEARCHMODE-ENUM', 'LF-STATUS-ENUM', 'STATE-LF-STATES', 'LF-DISCOVERYFINISHED-BOOLEAN'],
    level: 'MUST',
    features: ['control'],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const s = await newSearch(ctx, ws, 'will fail');
      await advance(ctx, s.id, { status: 'failed', errorMessage: 'The provider quota was exhausted.' });
      const f = await read(ws, s.id, 'failed');
      expectThat(typeof f.body.errorMessage === 'string' && f.body.errorMessage.length > 0 && f.body.completedAt !== null, msg`a failed search: errorMessage set, completedAt set; got ${JSON.stringify(f.body)}`, f);
      const stopped = await newSearch(ctx, ws, 'will stop', 'people', 25);
      await advance(ctx, stopped.id, { status: 'stopped' });
      const st = await read(ws, stopped.id, 'stopped');
      expectThat(st.body.completedAt !== null && st.body.errorMessage === null, msg`a stopped search: completedAt set, errorMessage null; got ${JSON.stringify(st.body)}`, st);
      expectThat(st.body.searchMode === 'people', msg`a search made in people mode must answer searchMode people, got ${JSON.stringify(st.body.searchMode)}`, st);
    },
  },
  {
    id: 'LF-READINGS',
    title: 'SHOULD keep a terminal search and its completedAt, keep discoveryFinished true, and list the values read by id',
    clauses: ['STATE-LF-TERMINAL-STABLE', 'STATE-LF-DISCOVERY-MONOTONIC', 'LF-LISTITEM-CONSISTENT', 'STATE-LF-PROGRESS-MONOTONIC'],
    level: 'SHOULD',
    features: ['control', 'exclusiveWorkspace'],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      const s = await newSearch(ctx, ws, 'stable');
      await advance(ctx, s.id, { status: 'crawling', progress: { companiesFound: 5, companiesProcessed: 1, emailsFound: 0 } });
      const crawling = await read(ws, s.id, 'crawling');
      await advance(ctx, s.id, { status: 'verifying' });
      const verifying = await read(ws, s.id, 'verifying');
      expectThat(crawling.body.discoveryFinished === true && verifying.body.discoveryFinished === true, msg`discoveryFinished must stay true once set`, verifying);
      expectThat(verifying.body.progress.companiesFound >= crawling.body.progress.companiesFound, msg`progress counters decreased`, verifying);
      await advance(ctx, s.id, { status: 'completed' });
      const done = await read(ws, s.id, 'completed');
      await drainAll(ctx.control!, 1000, ws.api.organizationId);
      const later = await read(ws, s.id, 'completed, later');
      expectThat(later.body.status === 'completed' && later.body.completedAt === done.body.completedAt, msg`a completed search changed: ${JSON.stringify(done.body)} -> ${JSON.stringify(later.body)}`, later);
      const item = ((await walk(ctx.profile, ws.api, '/v1/lead-searches')) as any[]).find((x) => x.id === s.id);
      const diff = ['query', 'status', 'searchMode', 'maxResults', 'createdAt', 'completedAt'].filter((k) => item?.[k] !== later.body[k]);
      expectThat(diff.length === 0, msg`the list item differs from the search read by id in ${diff.join(', ')}`, later);
    },
  },
];
