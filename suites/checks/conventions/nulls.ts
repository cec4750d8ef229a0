import { randomUUID } from 'node:crypto';
import type { Check } from '../../../harness/ground/check.ts';
import { fail, msg } from '../../../harness/ground/check.ts';
import { apiAnswers } from '../../lib/observed.ts';
import type { Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';
import { endpointOf, succeededEndpoints } from './endpoint-of.ts';
import { createCampaign } from '../../lib/recipes.ts';
import { unstatedNulls } from '../../../harness/ground/spec-model/schemas/index.ts';

// Part 2 "null is used for an absent optional value where stated", read over the whole run: every
// 2xx answer of an endpoint the catalog names a schema for, and every error envelope, is searched
// for nulls the spec does not state (a SHOULD reading: an omitted field is the other way to say
// "no value").

/** Unstated null paths of one answer body: a list's page (meta) and items, or one resource. */
function nullsOf(ep: Endpoint, body: unknown): string[] {
  if (!ep.list) return unstatedNulls(ep.response!, body);
  const page = body as { data?: unknown[]; meta?: unknown } | null;
  const items = Array.isArray(page?.data) ? page.data : [];
  return [...unstatedNulls('List', { meta: page?.meta }), ...new Set(items.flatMap((x) => unstatedNulls(ep.response!, x)).map((p) => `data[].${p}`))];
}

export const NULL_CHECKS: Check[] = [
  {
    id: 'RES-NULLS/every-answer-seen',
    title: 'SHOULD use null only where the spec states it, in every 2xx answer and every error envelope of the run (an absent value is omitted elsewhere)',
    clauses: ['RES-NULL-ONLY-WHERE-STATED'],
    level: 'SHOULD',
    features: [],
    budget: 3,
    last: true,
    async run(ctx) {
      // A campaign of its own, always: one with its optional values (schedule dates...) unset, whose
      // answer shows where the target puts null for a value not set, whatever campaigns the other
      // checks made (theirs may set every date). A list where the run has shown none.
      const seen = succeededEndpoints(ctx);
      const ws = await ctx.workspace();
      await createCampaign(ctx, ws.api);
      if (!seen.has('campaigns.list')) await ws.api.get('/v1/campaigns');
      // And one refusal without details of its own (a 404), whatever refusals the run holds.
      await ws.api.get(`/v1/campaigns/${randomUUID()}/status`);
      const problems = new Map<string, { paths: Set<string>; ids: string[] }>();
      let judged = 0;
      for (const ex of apiAnswers(ctx)) {
        const res = ex.response!;
        if (!res.body) continue;
        const ok = res.status >= 200 && res.status <= 299;
        const ep = endpointOf(ex.request.method, new URL(ex.request.url).pathname);
        if (ok && !ep?.response) continue;
        let body: unknown;
        try {
          body = JSON.parse(res.body);
        } catch {
          continue; // truncated or not JSON: CONV-JSON-BODIES judges that
        }
        // An error answer is an envelope whatever the route (part 7): its optional fields too.
        if (!ok && !(body && typeof body === 'object' && 'error' in body)) continue;
        judged++;
        const nulls = ok ? nullsOf(ep!, body) : unstatedNulls('ErrorEnvelope', body);
        if (!nulls.length) continue;
        const key = ok ? ep!.id : `error ${res.status}`;
        const p = problems.get(key) ?? { paths: new Set<string>(), ids: [] };
        for (const n of nulls) p.paths.add(n);
        p.ids.push(ex.id);
        problems.set(key, p);
      }
      if (problems.size) {
        const lines = [...problems].map(([id, p]) => `${id}: ${[...p.paths].slice(0, 6).join(', ')}`);
        fail(msg`null where the spec does not state it (omit the field instead), in ${problems.size} endpoint(s) or error statuses of the ${judged} answers read: ${lines.join('; ')}`, ...[...problems.values()].flatMap((p) => p.ids.slice(0, 2)));
      }
    },
  },
];
