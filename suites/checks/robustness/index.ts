import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, joinRules, msg, naming } from '../../../harness/ground/check.ts';
import { envelopeProblems, expectThat, is2xx, problemCause, snippet } from '../../lib/expect.ts';
import { createCampaign, createMailbox, faker, listLeads, requiredCampaignFields, setupCampaignBody } from '../../lib/recipes.ts';
import { ENDPOINTS, label } from '../../../harness/ground/spec-model/endpoints.ts';
import { campaignBody, mailboxInput } from '../../../fixtures/factories/index.ts';
import { DEEP, caseArb, targets, type HostileCase, type Target } from './cases.ts';
import { ANSWER_WITHIN_MS, fuzz, probe, send, type Problem } from './probe.ts';
import { slowBody, type SlowOutcome } from './slow.ts';
import { belowDefault } from '../../lib/depth.ts';

// Hostile input on every endpoint of the catalog (part 7: an invalid body or parameter is the
// caller's error, answered in the envelope; never a 5xx, never a hang), then a request that
// proves the target still answers. `default` sends one generated case per endpoint; `full` runs
// many per endpoint, each endpoint its own check.

const HOSTILE_CLAUSES = ['ERR-ENVELOPE', 'ERR-STATUS-REPEATS-HTTP', 'ERR-TABLE-400'];
const FULL_RUNS = 60;
const SHRINK_REQUESTS = 8;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h | 0;
}

async function hostileTargets(ctx: CheckContext, api: ApiClient): Promise<Target[]> {
  const f = faker(ctx);
  const { id } = await createCampaign(ctx, api, { steps: 1, leads: 1 });
  const leadId = ctx.profile.operations['leads.list'] ? (await listLeads(ctx, api, id))[0]?.id : undefined;
  const { id: mailboxId } = await createMailbox(ctx, api);
  const required = await requiredCampaignFields(ctx, { steps: 1 });
  return targets(ctx.profile, ctx.prefix, { campaignId: id, leadId, mailboxId, mailbox: () => mailboxInput(f, ctx.prefix), campaign: () => ({ ...campaignBody(f, ctx.prefix, { steps: 1 }), ...required }) });
}

/** The target still answers an ordinary request, and nothing a hostile key wrote shows up on it. */
async function stillAnswers(api: ApiClient, after: string): Promise<void> {
  const res = await send(api, { method: 'GET', path: '/v1/workspace' }, `GET /v1/workspace after ${after}`);
  if (!('status' in res)) fail(res.message, res.exchangeId);
  if (!is2xx(res)) fail(msg`GET /v1/workspace after ${after}: the target no longer serves a valid request (${res.status} ${snippet(res)})`, res);
  expectThat(!res.text.includes('polluted'), msg`GET /v1/workspace after ${after} carries a value written under __proto__ or constructor.prototype: ${snippet(res)}`, res);
}

function report(problems: Problem[]): void {
  if (problems.length === 0) return;
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  const shown = problems.slice(0, 3);
  // The rules the shown problems broke are the cause; how many more there were is not.
  fail(joinRules(shown.map((p) => p.message), more), ...shown.map((p) => p.exchangeId));
}

const EVERY_ENDPOINT: Check = {
  id: 'ROBUST-HOSTILE/every-endpoint',
  title: 'MUST answer hostile input on every endpoint (wrong types, missing fields, 1 MB strings, 10,000 levels of nesting, unicode edge cases, prototype keys, out-of-range numbers, bad ids and query parameters) with a 4xx in the error envelope, never a 5xx or a hang',
  clauses: HOSTILE_CLAUSES,
  level: 'MUST',
  features: [],
  // one generated case per endpoint (41 at most), shrinking, the fixtures (campaign, its lead, a mailbox) and the follow-up
  budget: ENDPOINTS.length + SHRINK_REQUESTS + 4,
  async run(ctx) {
    const ws = await ctx.workspace();
    const all = await hostileTargets(ctx, ws.api);
    const problems: Problem[] = [];
    let shrinkLeft = SHRINK_REQUESTS;
    for (const t of all) {
      const r = await fuzz(ws.api, caseArb(t, ctx.profile, ctx.prefix), { seed: ctx.seed ^ hash(t.label), runs: 1, cap: 1 + shrinkLeft, profile: ctx.profile });
      shrinkLeft -= r.requests - 1;
      if (r.problem) problems.push(r.problem);
    }
    await stillAnswers(ws.api, `hostile input on ${all.length} endpoints`);
    report(problems);
  },
};

/** `full`: many cases on one endpoint. */
function perEndpoint(ep: (typeof ENDPOINTS)[number]): Check {
  return {
    id: `ROBUST-HOSTILE/${label(ep)}`,
    title: `MUST answer hostile input on ${label(ep)} with a 4xx in the error envelope, never a 5xx or a hang (${FULL_RUNS} generated cases)`,
    clauses: HOSTILE_CLAUSES,
    level: 'MUST',
    features: ep.referenced ? [`op:${ep.referenced}`] : [],
    depth: 'full',
    budget: FULL_RUNS + 2 * SHRINK_REQUESTS + 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const t = (await hostileTargets(ctx, ws.api)).find((x) => x.ep.id === ep.id)!;
      const r = await fuzz(ws.api, caseArb(t, ctx.profile, ctx.prefix), { seed: ctx.seed, runs: FULL_RUNS, cap: FULL_RUNS + 2 * SHRINK_REQUESTS, profile: ctx.profile });
      await stillAnswers(ws.api, `${r.requests} hostile requests on ${t.label}`);
      if (r.problem) fail(r.problem.message, r.problem.exchangeId);
    },
  };
}

/** A 4xx answer outside the wire client (the slow body): in the envelope? */
function envelopeOf(status: number, text: string, ctx: CheckContext): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return envelopeProblems({ status, headers: {}, body, text, exchangeId: '', durationMs: 0 } as ApiResponse, ctx.profile);
}

/** What is wrong with an answer sent outside the wire client (`refuse`: only a 4xx, or a close, will do). */
function rawProblem(out: SlowOutcome, what: string, ctx: CheckContext, refuse: boolean): Problem | undefined {
  if (out.hung) return { message: msg`${what}: no answer and no close within ${ANSWER_WITHIN_MS / 1000} s after its last byte` };
  if (out.status === undefined) return refuse ? undefined : { message: msg`${what}: the target closed the connection without an answer` };
  if (out.status >= 500 || (refuse && out.status < 400)) return { message: msg`${what}: answered ${out.status} (${out.text.slice(0, 160)}); expected a 4xx in the error envelope` };
  if (out.status < 400) return undefined;
  const bad = envelopeOf(out.status, out.text, ctx);
  return bad.length ? { message: naming(msg`${what}: the ${out.status} answer breaks the error envelope: ${bad.join('; ')}`, bad.map(problemCause)) } : undefined;
}

/** The problems of each case's answer, in order. */
async function problemsOf(api: ApiClient, cases: readonly HostileCase[], ctx: CheckContext): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const c of cases) {
    const p = await probe(api, c, ctx.profile);
    if (p) problems.push(p);
  }
  return problems;
}

const TRANSPORT: Check = {
  id: 'ROBUST-TRANSPORT',
  title: 'MUST answer truncated JSON, 10,000 levels of nesting, a 10 MB body and a slow body with a 4xx in the error envelope (or a close for the slow body), a form body and wrong or missing content types never with a 5xx or a hang, and keep serving meanwhile',
  clauses: ['ERR-MALFORMED-JSON-400', 'ERR-ENVELOPE', 'ERR-TABLE-400', 'CONV-JSON-BODIES'],
  level: 'MUST',
  features: [],
  budget: 14,
  // Below default the two bodies a parser plausibly fails on: truncated JSON and deep nesting.
  shallowerAt: ['smoke', 'quick'],
  async run(ctx) {
    const ws = await ctx.workspace();
    const f = faker(ctx);
    const campaign = JSON.stringify(await setupCampaignBody(ctx));
    const truncated: HostileCase = { what: 'POST /v1/campaigns with a truncated JSON body', expect: 'refuse', req: { method: 'POST', path: '/v1/campaigns', rawBody: campaign.slice(0, campaign.length / 2) } };
    const deep: HostileCase = { what: `POST /v1/campaigns with name = ${DEEP} levels of nested arrays`, expect: 'refuse', req: { method: 'POST', path: '/v1/campaigns', rawBody: `{"name":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}` } };
    if (belowDefault(ctx)) return report(await problemsOf(ws.api, [truncated, deep], ctx));
    const { id } = await createCampaign(ctx, ws.api);
    const tenMb = JSON.stringify({ accounts: [{ ...mailboxInput(f, ctx.prefix), firstName: 'x'.repeat(10 * 1024 * 1024) }] });
    const cases: HostileCase[] = [
      truncated,
      // 4.1 tells the client to send JSON; it does not make the server refuse a form (many frameworks parse one):
      // refused or taken, never a 5xx, as the JSON sent as text/plain below.
      { what: 'POST /v1/campaigns with a form-encoded body (Content-Type application/x-www-form-urlencoded)', expect: 'no-5xx', req: { method: 'POST', path: '/v1/campaigns', rawBody: `name=${ctx.prefix}form`, headers: { 'content-type': 'application/x-www-form-urlencoded' } } },
      { what: 'POST /v1/campaigns with a JSON body sent as text/plain', expect: 'no-5xx', req: { method: 'POST', path: '/v1/campaigns', rawBody: campaign, headers: { 'content-type': 'text/plain' } } },
      { what: 'POST /v1/campaigns declared as charset=latin1 (its bytes are UTF-8)', expect: 'no-5xx', req: { method: 'POST', path: '/v1/campaigns', rawBody: campaign.replace(ctx.prefix, `${ctx.prefix}\u00ff`), headers: { 'content-type': 'application/json; charset=latin1' } } },
      { what: 'POST /v1/accounts with a 10 MB body (firstName of 10 MB, max 128)', expect: 'refuse', req: { method: 'POST', path: '/v1/accounts', rawBody: tenMb } },
      // Always tried (the generated cases draw them only now and then at this depth).
      deep,
      { what: `PATCH /v1/campaigns/{id} with a body of ${DEEP} levels of nested objects`, expect: 'refuse', req: { method: 'PATCH', path: `/v1/campaigns/${id}`, rawBody: `${'{"name":'.repeat(DEEP)}"x"${'}'.repeat(DEEP)}` } },
    ];
    const problems = await problemsOf(ws.api, cases, ctx);
    await stillAnswers(ws.api, 'a 10 MB body');

    // A JSON body without any Content-Type, under a narrow key of the workspace (the wire client always names one).
    if (ctx.profile.operations['apikeys.create']) {
      const key = await ws.createKey(['campaigns:write'], `${ctx.prefix}no-content-type`);
      const what = 'POST /v1/campaigns with a JSON body and no Content-Type';
      const out = await slowBody(ws.api.baseUrl, '/v1/campaigns', { headers: { authorization: `Bearer ${key.secret}` }, chunks: [campaign], intervalMs: 0, answerWithinMs: ANSWER_WITHIN_MS });
      const p = rawProblem(out, what, ctx, false);
      if (p) problems.push(p);
    }

    // The slow body: a byte every interval for a bounded time; meanwhile the target serves others.
    const full = ctx.depth === 'full';
    const text = `{"name":"${ctx.prefix}slow","settings":{"trackOpens":true`;
    const chunks = text.match(new RegExp(`.{1,${Math.ceil(text.length / (full ? 40 : 10))}}`, 'g'))!;
    const slow = slowBody(ws.api.baseUrl, '/v1/campaigns', { headers: { 'content-type': 'application/json' }, chunks, intervalMs: full ? 250 : 200, answerWithinMs: ANSWER_WITHIN_MS });
    await new Promise((r) => setTimeout(r, 300));
    const during = await send(ws.api, { method: 'GET', path: '/v1/workspace' }, 'GET /v1/workspace while a slow body trickles in');
    if (!('status' in during)) problems.push(during);
    else if (!is2xx(during)) problems.push({ message: msg`GET /v1/workspace while a slow body trickles in answered ${during.status} ${snippet(during)}`, exchangeId: during.exchangeId });
    const out = await slow;
    const what = `a slow body (${chunks.length} pieces over ${Math.round(out.ms / 1000)} s, truncated JSON, no key)`;
    const p = rawProblem(out, what, ctx, true);
    if (p) problems.push(p);
    await stillAnswers(ws.api, 'a slow body');
    report(problems);
  },
};

export const ROBUSTNESS_CHECKS: Check[] = [EVERY_ENDPOINT, TRANSPORT, ...ENDPOINTS.map(perEndpoint)];
