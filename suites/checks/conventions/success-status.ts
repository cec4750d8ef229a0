import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { apiAnswers } from '../../lib/observed.ts';
import { endpointIdOf, succeededEndpoints } from './endpoint-of.ts';
import { createCampaign } from '../../lib/recipes.ts';

// 4.1 "Success status codes other than 201 for POST /v1/accounts: not shown": the profile declares
// them (declarations.successStatus), and every success answer the run saw is held to that word.

/**
 * A success of its own for each endpoint it stands for (a create, a start, a read) that the run
 * has not shown answering one: those are judged whatever else ran, so its verdict on them does not
 * rest on other checks' traffic (a run of many reads must still show a start).
 */
async function showOwn(ctx: CheckContext): Promise<void> {
  const seen = succeededEndpoints(ctx);
  const create = !seen.has('campaigns.create') || !seen.has('campaigns.start');
  if (!create && seen.has('workspace.get')) return;
  const ws = await ctx.workspace();
  if (create) {
    const { id } = await createCampaign(ctx, ws.api, { leads: 1, steps: 1 });
    if (!seen.has('campaigns.start')) await ws.api.post(`/v1/campaigns/${id}/start`);
  }
  if (!seen.has('workspace.get')) await ws.api.get('/v1/workspace');
}

export const SUCCESS_STATUS_CHECKS: Check[] = [
  {
    id: 'CONV-SUCCESS-STATUS/every-answer-seen',
    title: 'MUST answer each success with the status the profile declares for its endpoint (declarations.successStatus), in every 2xx answer of the run',
    clauses: ['CONV-SUCCESS-STATUS'],
    level: 'PROFILE',
    features: ['decl:declarations.successStatus'],
    budget: 4,
    last: true,
    async run(ctx) {
      const declared = ctx.profile.declarations.successStatus;
      if (!declared) skip('needs declarations.successStatus in the profile (the success status of each endpoint other than POST /v1/accounts)');
      await showOwn(ctx);
      const wrong = new Map<string, { want: number; got: Set<number>; ids: string[] }>();
      let judged = 0;
      for (const ex of apiAnswers(ctx)) {
        const status = ex.response!.status;
        if (status < 200 || status > 299) continue;
        const id = endpointIdOf(ctx.profile, ex.request.method, new URL(ex.request.url).pathname);
        if (!id || id === 'accounts.create') continue; // its 201 is stated (ACCT-CREATE-201)
        const want = declared[id] ?? declared['*'];
        if (want === undefined) continue;
        judged++;
        if (status === want) continue;
        const w = wrong.get(id) ?? { want, got: new Set<number>(), ids: [] };
        w.got.add(status);
        w.ids.push(ex.id);
        wrong.set(id, w);
      }
      if (wrong.size) {
        const lines = [...wrong].map(([id, w]) => `${id} answered ${[...w.got].join('/')} (declared ${w.want})`);
        fail(msg`${wrong.size} endpoint(s) answered a success status other than the profile declares, of ${judged} successes read: ${lines.join('; ')}`, ...[...wrong.values()].flatMap((w) => w.ids.slice(0, 2)));
      }
    },
  },
];
