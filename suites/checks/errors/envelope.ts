import type { ApiResponse } from '../../../harness/ground/api-client.ts';
import type { ExchangeEvent } from '../../../harness/ground/events.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, msg, naming } from '../../../harness/ground/check.ts';
import { envelopeProblems, problemCause } from '../../lib/expect.ts';
import { UUID_RE } from '../../../harness/ground/spec-model/schemas/index.ts';
import { randomUUID } from 'node:crypto';

/**
 * Provokes one error of each status the kit can cause cheaply (400, 401, 403, 404) that the run
 * has not already seen, so the observers never judge an empty run: they see at least these,
 * plus whatever the run produced. A run that saw all four sends nothing more but one request with
 * a method a known path does not have (PUT /v1/campaigns): part 7 gives that refusal no status,
 * and a framework answers it with a body of its own unless the API's envelope covers it too.
 * An absent email's 404 is asked too where the run saw none: the inbox is often a store (and a
 * not-found path) of its own, and its 404 is held to the table's code like every other.
 */
async function provoke(ctx: CheckContext): Promise<void> {
  const errors = targetErrors(ctx);
  const seen = new Set(errors.map((e) => e.res.status));
  const ws = await ctx.workspace();
  await ws.api.request({ method: 'PUT', path: '/v1/campaigns', body: {} });
  if (!errors.some((e) => e.res.status === 404 && new URL(e.ex.request.url).pathname.startsWith('/v1/emails/'))) await ws.api.get(`/v1/emails/${randomUUID()}`);
  if ([400, 401, 403, 404].every((s) => seen.has(s))) return;
  if (!seen.has(400)) {
    await ws.api.get('/v1/campaigns', { [ctx.profile.names.list.pageSize]: 0 });
    await ws.api.post('/v1/campaigns', { name: '' });
  }
  if (!seen.has(401)) {
    await ctx.anonymous.get('/v1/workspace', undefined, { auth: 'none' });
    await ctx.anonymous.get('/v1/workspace', undefined, { auth: 'none' });
  }
  if (!seen.has(403) && ctx.profile.operations['apikeys.create']) await (await ws.createKey(['usage:read'])).client.get('/v1/campaigns');
  if (!seen.has(404)) {
    await ws.api.get(`/v1/campaigns/${randomUUID()}/status`);
    await ws.api.get(`/v1/lead-searches/${randomUUID()}`);
  }
}

// Part 7 over the whole run: every non-2xx answer the kit saw anywhere is held to the envelope.
// These run last, after every other check has produced its traffic.

function targetErrors(ctx: CheckContext): { ex: ExchangeEvent; res: ApiResponse }[] {
  const base = ctx.anonymous.baseUrl.replace(/\/$/, '');
  return ctx
    .observed()
    .filter((ex) => ex.response && ex.response.status >= 400 && ex.request.url.startsWith(`${base}/`))
    .map((ex) => {
      const text = ex.response!.body ?? '';
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { ex, res: { status: ex.response!.status, headers: ex.response!.headers, body, text, exchangeId: ex.id, durationMs: ex.durationMs } };
    });
}

export const OBSERVED_ENVELOPE_CHECKS: Check[] = [
  {
    id: 'ERR-ENVELOPE/every-error-seen',
    title: 'MUST answer every error the run saw in the envelope of part 7, with the table\'s type and code',
    // Every 409 seen is held to its table row (state conflicts too, not only the idempotency ones the IDEM checks provoke),
    // and every 404 (an absent email's among them, asked where the run saw none).
    clauses: ['ERR-ENVELOPE', 'ERR-STATUS-REPEATS-HTTP', 'ERR-REQUESTID-UUID', 'ERR-RETRYAFTER-429', 'ERR-DETAILS-VALIDATION', 'ERR-TABLE-409', 'ERR-TABLE-404'],
    level: 'MUST',
    features: [],
    budget: 10,
    last: true,
    async run(ctx) {
      await provoke(ctx);
      const errors = targetErrors(ctx);
      if (errors.length === 0) fail(msg`the run saw no error answer at all, so the envelope could not be checked`);
      const bad: string[] = [];
      const evidence: string[] = [];
      // The problems found: a root cause they share with other checks' failures.
      const problemsNamed: string[] = [];
      for (const { ex, res } of errors) {
        const problems = envelopeProblems(res, ctx.profile);
        const e = (res.body as { error?: { code?: string; details?: unknown } } | undefined)?.error;
        if (res.status === 400 && e?.code === 'validation_failed' && !(Array.isArray(e.details) && e.details.every((d) => typeof d === 'string')))
          problems.push('a validation failure carries no details array of strings');
        if (problems.length) {
          bad.push(`${ex.request.method} ${new URL(ex.request.url).pathname} -> ${res.status}: ${problems.join('; ')}`);
          evidence.push(ex.id);
          problemsNamed.push(...problems.map(problemCause));
        }
      }
      if (bad.length) fail(naming(msg`${bad.length} of ${errors.length} error answers break the envelope: ${bad.slice(0, 8).join(' | ')}${bad.length > 8 ? ` | and ${bad.length - 8} more` : ''}`, problemsNamed), ...evidence.slice(0, 20));
    },
  },
  {
    id: 'ERR-REQUESTID-DISTINCT/every-error-seen',
    title: 'SHOULD give every error answer its own requestId',
    clauses: ['ERR-REQUESTID-DISTINCT'],
    level: 'SHOULD',
    features: [],
    budget: 10,
    last: true,
    async run(ctx) {
      await provoke(ctx);
      const seen = new Map<string, string>();
      for (const { ex, res } of targetErrors(ctx)) {
        const id = (res.body as { error?: { requestId?: unknown } } | undefined)?.error?.requestId;
        if (typeof id !== 'string' || !UUID_RE.test(id)) continue;
        const first = seen.get(id);
        if (first) fail(msg`two error answers share requestId ${id}`, first, ex.id);
        seen.set(id, ex.id);
      }
    },
  },
];
