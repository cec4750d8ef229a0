import fc from 'fast-check';
import type { ApiClient } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { faker } from '../../lib/recipes.ts';
import * as S from '../../state-models/lead-search.ts';
import type { RuleLevel } from '../../state-models/core.ts';
import { checkModel, runSize, SHALLOWER_AT, Trail, workspaces, type Cmd } from './driver.ts';

// Model-based check of the lead search (3.4, fields of 2.8): lead searches are system-driven, so
// the control API creates one (queued) and advances it (POST /lead-searches/{id}/advance with a
// status, progress and, for `failed`, an errorMessage). Every run advances a search through random
// forward moves (a later phase, the same phase with more progress, or a terminal state) and reads
// it back through the public API after each move (GET /v1/lead-searches/{id}); once terminal it is
// only read again. suites/state-models/leadSearch.ts checks the fields against the status and the history
// and never predicts the next status (transitions not shown: PROFILE).

interface Model {
  s: S.LeadSearchState;
}

interface Real {
  ctx: CheckContext;
  api: ApiClient;
  trail: Trail;
  id: string;
}

async function read(r: Real) {
  const res = await r.api.get(`/v1/lead-searches/${r.id}`);
  r.trail.note(res);
  return { view: (res.status < 300 ? res.body : {}) as S.LeadSearchView, http: res.status };
}

class Advance implements Cmd<Model, Real> {
  private target = '';
  constructor(
    readonly pick: number,
    readonly more: [number, number, number],
  ) {}
  check = (m: Readonly<Model>) => !S.isTerminal(m.s.status);
  toString = () => `advance to ${this.target || `forward choice #${this.pick}`} (+${this.more.join('/')} progress)`;
  async run(m: Model, r: Real) {
    const targets = S.forwardTargets(m.s.status);
    this.target = targets[this.pick % targets.length]!;
    r.trail.begin(this.toString());
    const p = m.s.progress;
    const progress = { companiesFound: p.companiesFound + this.more[0], companiesProcessed: p.companiesProcessed + this.more[1], emailsFound: p.emailsFound + this.more[2] };
    const body = { status: this.target, progress, ...(this.target === 'failed' ? { errorMessage: `${r.ctx.prefix}${faker(r.ctx).lorem.sentence()}` } : {}) };
    const res = await r.ctx.control!.request('POST', `/lead-searches/${r.id}/advance`, body, { allowError: true });
    r.trail.note(res);
    // Whatever the control API did with the move is adopted (transitions are not shown).
    const back = await read(r);
    m.s = r.trail.judge(S.observed(m.s, back.view, back.http));
  }
}

class Read implements Cmd<Model, Real> {
  check = () => true;
  toString = () => 'read';
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    const back = await read(r);
    m.s = r.trail.judge(S.observed(m.s, back.view, back.http));
  }
}

function commands(maxCommands: number) {
  const move = fc.tuple(fc.nat({ max: 20 }), fc.tuple(fc.nat({ max: 5 }), fc.nat({ max: 5 }), fc.nat({ max: 5 }))).map(([pick, more]) => new Advance(pick, more));
  return fc.commands([move, move, move, fc.constant(new Read())], { maxCommands });
}

async function run(ctx: CheckContext, level: RuleLevel): Promise<void> {
  const control = ctx.control;
  if (!control) skip('lead searches are driven through the conformance-control API');
  const size = runSize(ctx.depth, true);
  const pool = workspaces(ctx);
  await checkModel(
    ctx,
    'lead search (3.4)',
    fc.tuple(fc.constantFrom('companies' as const, 'people' as const), commands(size.maxCommands)),
    async ([searchMode, cmds]) => {
      const ws = await pool.next();
      if (!ws.organizationId) skip('the workspace has no organizationId (needed by the control API)');
      const trail = new Trail(level);
      trail.begin(`create (control, ${searchMode})`);
      const made = await control.request('POST', '/lead-searches', { organizationId: ws.organizationId, query: `${ctx.prefix}${faker(ctx).company.buzzNoun()}`, searchMode, maxResults: 50 });
      trail.note(made);
      const id = made.body?.id;
      if (typeof id !== 'string') fail(msg`setup: control POST /lead-searches answered ${made.status} without an id`, made);
      const real: Real = { ctx, api: ws.api, trail, id };
      const back = await read(real);
      if (back.http >= 300) fail(msg`GET /v1/lead-searches/${id} of a search just created answered ${back.http}`);
      const model: Model = { s: trail.judge(S.created(back.view)) };
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    },
    { ...size, numRuns: Math.max(size.numRuns, 10) },
  );
}

export const LEAD_SEARCH_MODEL_CHECKS: Check[] = [
  {
    id: 'STATE-MODEL/lead-search',
    title: 'MUST keep status, discoveryFinished, completedAt and errorMessage of a lead search consistent (3.4, 2.8) while it moves through its states',
    clauses: ['STATE-LF-STATES', 'STATE-LF-DISCOVERY-FINISHED', 'STATE-LF-COMPLETEDAT-TERMINAL', 'LF-COMPLETEDAT-NULL-RUNNING', 'LF-ERRORMESSAGE-FAILED', 'LF-ERRORMESSAGE-NULL', 'LF-DISCOVERYFINISHED-BOOLEAN'],
    level: 'MUST',
    features: ['control'],
    budget: 160,
    shallowerAt: SHALLOWER_AT,
    run: (ctx) => run(ctx, 'MUST'),
  },
  {
    id: 'STATE-MODEL-READINGS/lead-search',
    title: 'SHOULD never take back discoveryFinished, leave a terminal state, move completedAt or lower progress counters',
    clauses: ['STATE-LF-DISCOVERY-MONOTONIC', 'STATE-LF-TERMINAL-STABLE', 'STATE-LF-PROGRESS-MONOTONIC'],
    level: 'SHOULD',
    features: ['control'],
    budget: 160,
    shallowerAt: SHALLOWER_AT,
    depth: 'default',
    run: (ctx) => run(ctx, 'SHOULD'),
  },
];
