import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, skip } from '../../../harness/ground/check.ts';
import { fillPath } from '../../../harness/ground/operations.ts';
import { createCampaign } from '../../lib/recipes.ts';

// 3.1 "Transitions for pause, stop, complete, fail and schedule: not shown": the profile declares
// the target's campaign transition table (declarations.transitions.campaign: each status to the
// statuses it may move to). A campaign with leads and a sequence (and no mailbox, so it sends
// nothing) is driven through what the wire offers: pause (referenced) and start from draft, start
// and pause twice, resume, then start from paused. After each call the status is read back; every
// change between two reads must be a move the table declares. What the spec states (create gives
// draft, start needs leads and a sequence, resume from paused) is the state model's to judge.

type Table = Partial<Record<string, readonly string[]>>;

interface Walk {
  api: ApiClient;
  id: string;
  table: Table;
  last: string;
  moves: string[];
  wrong: string[];
  evidence: string[];
}

async function readStatus(w: Walk): Promise<{ res: ApiResponse; status: string }> {
  const res = await w.api.get(`/v1/campaigns/${w.id}/status`);
  if (res.status < 200 || res.status > 299 || typeof res.body?.status !== 'string') fail(`GET /v1/campaigns/{id}/status answered ${res.status} without a status`, res);
  return { res, status: res.body.status };
}

/** One call, then the status read back: a change is held to the declared table. */
async function step(w: Walk, what: string, call: () => Promise<ApiResponse>): Promise<void> {
  const answer = await call();
  const { res, status } = await readStatus(w);
  if (status === w.last) return;
  const allowed = w.table[w.last] ?? [];
  w.moves.push(`${w.last} -> ${status} (${what})`);
  if (!allowed.includes(status)) {
    w.wrong.push(`${what} moved the campaign from ${w.last} to ${status}; the table declares ${w.last} -> ${allowed.length ? allowed.join(', ') : 'nothing'}`);
    w.evidence.push(answer.exchangeId, res.exchangeId);
  }
  w.last = status;
}

function declared(ctx: CheckContext): Table {
  const table = ctx.profile.declarations.transitions?.campaign;
  if (!table) skip('declarations.transitions.campaign is not declared (the campaign transitions 3.1 does not show): the campaign transition table is not checked');
  return table;
}

export const TABLE_CHECKS: Check[] = [
  {
    id: 'STATE-TABLE/campaign',
    title: 'every campaign status change driven over the wire (start, pause, resume) is a transition the profile declares (profile: transitions.campaign)',
    clauses: ['STATE-CAMP-OTHER-PROFILE'],
    level: 'PROFILE',
    features: ['op:campaigns.pause', 'decl:declarations.transitions.campaign'],
    budget: 18,
    async run(ctx) {
      const table = declared(ctx);
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { leads: 2, steps: 1 });
      const w: Walk = { api: ws.api, id, table, last: '', moves: [], wrong: [], evidence: [] };
      w.last = (await readStatus(w)).status;
      const op = ctx.profile.operations['campaigns.pause']!;
      const pause = () => ws.api.request({ method: op.method, path: fillPath(op.path, { id }) });
      const start = () => ws.api.post(`/v1/campaigns/${id}/start`);
      await step(w, 'pause (referenced) of the new campaign', pause);
      await step(w, 'start', start);
      await step(w, 'start again', start);
      await step(w, 'pause (referenced)', pause);
      await step(w, 'pause again', pause);
      await step(w, 'resume', () => ws.api.post(`/v1/campaigns/${id}/resume`));
      await step(w, 'pause (referenced) after the resume', pause);
      await step(w, 'start of the paused campaign', start);
      if (w.wrong.length) fail(`${w.wrong.length} campaign transition(s) outside the declared table (transitions.campaign): ${w.wrong.join(' | ')}`, ...w.evidence);
      if (!w.moves.length) skip('no call moved the campaign out of its first status: no transition could be held to the table');
      ctx.log(`transitions seen: ${w.moves.join('; ')}`);
    },
  },
];
