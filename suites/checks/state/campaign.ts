import fc from 'fast-check';
import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { faker, setupCampaignBody } from '../../lib/recipes.ts';
import { SLOW_DRAIN_SKIP, drainAll, judgeable } from '../../lib/drain.ts';
import { mailboxInput, sequenceStep, UNREACHABLE_SERVERS } from '../../../fixtures/factories/index.ts';
import { fieldName, fillPath, getPath, resultPath } from '../../../harness/ground/operations.ts';
import { prefixedAddress } from '../../../fixtures/factories/index.ts';
import * as C from '../../state-models/campaign.ts';
import type { RuleLevel } from '../../state-models/core.ts';
import { checkModel, runSize, SHALLOWER_AT, Trail, workspaces, type Cmd } from './driver.ts';

// Model-based check of the campaign machine (3.1): every run creates a campaign (with or without
// leads, sequence, launch), then a random sequence of start, pause (referenced), resume, add leads
// (referenced), PATCH sequence / name, create and delete a mailbox in the workspace, drain (control
// only); after each step the status is read back (GET /v1/campaigns/{id}/status) and judged by
// suites/state-models/campaign.ts. With the control API every run gets a fresh workspace of its own, so
// "the workspace has no mailbox" is known; without it the check only knows of the mailboxes it made.

interface Model {
  w: C.CampaignWorld;
}

interface Real {
  ctx: CheckContext;
  api: ApiClient;
  trail: Trail;
  campaignId: string;
  mailboxes: string[];
}

async function readStatus(r: Real): Promise<{ res: ApiResponse; status: unknown }> {
  const res = await r.api.get(`/v1/campaigns/${r.campaignId}/status`);
  r.trail.note(res);
  return { res, status: res.status >= 200 && res.status < 300 ? res.body?.status : undefined };
}

async function lifecycle(r: Real, action: 'start' | 'resume' | 'pause'): Promise<C.LifecycleObservation> {
  let res: ApiResponse;
  let statusPath = 'status';
  if (action === 'pause') {
    const op = r.ctx.profile.operations['campaigns.pause']!;
    statusPath = resultPath(op, 'status'); // a referenced operation: its answer's shape is the profile's
    res = await r.api.request({ method: op.method, path: fillPath(op.path, { id: r.campaignId }) });
  } else res = await r.api.post(`/v1/campaigns/${r.campaignId}/${action}`);
  r.trail.note(res);
  const read = await readStatus(r);
  return { http: res.status, bodyStatus: res.status < 300 ? getPath(res.body, statusPath) : undefined, readBack: read.status };
}

class Start implements Cmd<Model, Real> {
  check = (m: Readonly<Model>) => m.w.campaign !== null;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    m.w = r.trail.judge(C.start(m.w, await lifecycle(r, 'start')));
  }
  toString = () => 'start';
}

class Resume implements Cmd<Model, Real> {
  check = (m: Readonly<Model>) => m.w.campaign !== null;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    m.w = r.trail.judge(C.resume(m.w, await lifecycle(r, 'resume')));
  }
  toString = () => 'resume';
}

class Pause implements Cmd<Model, Real> {
  check = (m: Readonly<Model>) => m.w.campaign !== null;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    m.w = r.trail.judge(C.pause(m.w, await lifecycle(r, 'pause')));
  }
  toString = () => 'pause (referenced)';
}

class AddLeads implements Cmd<Model, Real> {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.w.campaign !== null;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    const op = r.ctx.profile.operations['leads.create']!;
    const emails = Array.from({ length: this.n }, () => prefixedAddress(faker(r.ctx), r.ctx.prefix, 'leads.example.test'));
    const res = await r.api.request({ method: op.method, path: fillPath(op.path, { id: r.campaignId }), body: { [fieldName(op, 'leads')]: emails.map((email) => ({ email })) } });
    r.trail.note(res);
    const created = op.result.created ? getPath(res.body, resultPath(op, 'created')) : undefined;
    const read = await readStatus(r);
    m.w = r.trail.judge(C.addLeads(m.w, { http: res.status, created, requested: this.n, readBack: read.status }));
  }
  toString = () => `add ${this.n} lead(s) (referenced)`;
}

class PatchSequence implements Cmd<Model, Real> {
  constructor(readonly steps: number) {}
  check = (m: Readonly<Model>) => m.w.campaign !== null;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    const res = await r.api.patch(`/v1/campaigns/${r.campaignId}`, { sequence: Array.from({ length: this.steps }, (_, i) => sequenceStep(faker(r.ctx), i)) });
    r.trail.note(res);
    const read = await readStatus(r);
    m.w = r.trail.judge(C.patch(m.w, { http: res.status, sequenceSteps: this.steps, readBack: read.status }));
  }
  toString = () => `PATCH sequence (${this.steps} step(s))`;
}

class PatchName implements Cmd<Model, Real> {
  check = (m: Readonly<Model>) => m.w.campaign !== null;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    const res = await r.api.patch(`/v1/campaigns/${r.campaignId}`, { name: `${r.ctx.prefix}renamed ${faker(r.ctx).word.noun()}` });
    r.trail.note(res);
    const read = await readStatus(r);
    m.w = r.trail.judge(C.patch(m.w, { http: res.status, readBack: read.status }));
  }
  toString = () => 'PATCH name';
}

class CreateMailbox implements Cmd<Model, Real> {
  check = (m: Readonly<Model>) => m.w.campaign !== null && m.w.mailboxes.mine < 2;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    // Unreachable servers: the mailbox exists but cannot send (resume must not be blocked by it).
    const res = await r.api.post('/v1/accounts', { accounts: [mailboxInput(faker(r.ctx), r.ctx.prefix, UNREACHABLE_SERVERS)] });
    r.trail.note(res);
    const id = res.body?.accounts?.[0]?.id;
    if (res.status < 300 && typeof id !== 'string') fail(msg`setup: POST /v1/accounts answered ${res.status} without accounts[0].id`, res);
    if (typeof id === 'string') r.mailboxes.push(id);
    m.w = C.mailboxCreated(m.w, typeof id === 'string' ? res.status : 400);
    const read = await readStatus(r);
    m.w = r.trail.judge(C.observe(m.w, { readBack: read.status }));
  }
  toString = () => 'create a mailbox (unreachable servers)';
}

class DeleteMailbox implements Cmd<Model, Real> {
  check = (m: Readonly<Model>) => m.w.campaign !== null && m.w.mailboxes.mine > 0;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    const id = r.mailboxes.pop();
    if (!id) return;
    const res = await r.api.delete(`/v1/accounts/${id}`);
    r.trail.note(res);
    if (res.status >= 300) r.mailboxes.push(id);
    m.w = C.mailboxDeleted(m.w, res.status);
    const read = await readStatus(r);
    m.w = r.trail.judge(C.observe(m.w, { readBack: read.status }));
  }
  toString = () => 'delete a mailbox';
}

class Drain implements Cmd<Model, Real> {
  check = (m: Readonly<Model>) => m.w.campaign !== null;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    if (!judgeable(await drainAll(r.ctx.control!, 10_000, r.api.organizationId))) skip(SLOW_DRAIN_SKIP);
    const read = await readStatus(r);
    m.w = r.trail.judge(C.observe(m.w, { readBack: read.status }));
  }
  toString = () => 'drain background work (control)';
}

function commands(ctx: CheckContext, maxCommands: number) {
  const ops = ctx.profile.operations;
  // Repeated entries weigh the lifecycle commands more (fast-check picks an entry uniformly).
  const arbs: fc.Arbitrary<Cmd<Model, Real>>[] = [
    fc.constant(new Start()),
    fc.constant(new Start()),
    fc.constant(new Resume()),
    fc.constant(new Resume()),
    fc.integer({ min: 0, max: 2 }).map((n) => new PatchSequence(n)),
    fc.constant(new PatchName()),
    fc.constant(new CreateMailbox()),
    fc.constant(new DeleteMailbox()),
  ];
  if (ops['campaigns.pause']) arbs.push(fc.constant(new Pause()), fc.constant(new Pause()));
  if (ops['leads.create']) arbs.push(fc.integer({ min: 1, max: 2 }).map((n) => new AddLeads(n)));
  if (ctx.control) arbs.push(fc.constant(new Drain()));
  return fc.commands(arbs, { maxCommands });
}

// Leads and steps lean towards "some" so that runs reach the lifecycle (start, pause, resume) often.
// A target that requires a sequence on create (declarations.campaignRequiredFields) gets one; a
// campaign without one is then reached by a PATCH of no steps.
function createInput(ctx: CheckContext) {
  const sequenceRequired = (ctx.profile.declarations.campaignRequiredFields ?? []).includes('sequence');
  return fc.record({ leads: fc.constantFrom(1, 0, 2, 1), steps: sequenceRequired ? fc.constantFrom(1, 2) : fc.constantFrom(1, 0, 2, 1), launch: fc.boolean() });
}

async function run(ctx: CheckContext, level: RuleLevel): Promise<void> {
  const size = runSize(ctx.depth, !!ctx.control, ctx.profile.rateLimit);
  // Without control: one shared workspace for every run (mailboxes of others may exist there).
  const pool = workspaces(ctx);
  await checkModel(
    ctx,
    'campaign (3.1)',
    fc.tuple(createInput(ctx), commands(ctx, size.maxCommands)),
    async ([input, cmds]) => {
      const ws = await pool.next();
      const trail = new Trail(level);
      trail.begin(`create (${input.leads} lead(s), ${input.steps} step(s)${input.launch ? ', launch' : ''})`);
      const res = await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx, { leads: input.leads, steps: input.steps })), launch: input.launch });
      trail.note(res);
      const id = res.body?.campaign?.id;
      const real: Real = { ctx, api: ws.api, trail, campaignId: typeof id === 'string' ? id : '', mailboxes: [] };
      let read: { res?: ApiResponse; status: unknown } = { status: undefined };
      if (typeof id === 'string') read = await readStatus(real);
      const model: Model = { w: C.initialWorld(pool.exclusive) };
      model.w = trail.judge(
        C.create(model.w, input, {
          http: res.status,
          bodyStatus: res.body?.campaign?.status,
          launched: res.body?.launched,
          launchError: res.body?.launchError,
          leadsCreated: res.body?.leads?.created,
          readBack: read.status,
          readHttp: read.res?.status ?? 0,
        }),
      );
      if (!model.w.campaign) return;
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } finally {
        // Leave no mailbox behind in a shared workspace (other checks count on their own).
        if (!pool.exclusive) for (const mb of real.mailboxes) await ws.api.delete(`/v1/accounts/${mb}`);
      }
    },
    size,
  );
}

// STATE-CAMP-START-BEGINS is not claimed: statuses prove no sending (SEND/start-begins reads the sink).
const MUST_CLAUSES = [
  'STATE-CAMP-STATES', 'STATE-CAMP-CREATE-DRAFT', 'STATE-CAMP-CREATE-LAUNCH-ATTEMPT', 'STATE-CAMP-CREATE-LAUNCH-FAIL-EXISTS',
  'STATE-CAMP-CREATE-LAUNCH-FAIL-FLAG', 'STATE-CAMP-CREATE-LAUNCH-FAIL-REASON', 'STATE-CAMP-START-REQUIRES-LEADS',
  'STATE-CAMP-START-REQUIRES-SEQUENCE', 'STATE-CAMP-START-STATUS-REPORTED',
  'STATE-CAMP-RESUME-FROM-PAUSED', 'STATE-CAMP-RESUME-NEEDS-MAILBOX', 'STATE-CAMP-RESUME-UNSENDABLE-OK',
  'CAMP-START-400', 'CAMP-RESUME-400',
];
const SHOULD_CLAUSES = ['STATE-CAMP-CREATE-LAUNCH-OK', 'STATE-CAMP-CREATE-NO-LAUNCH', 'STATE-CAMP-START-FROM-DRAFT', 'STATE-CAMP-START-NO-STATE-CHANGE-ON-400'];

export const CAMPAIGN_MODEL_CHECKS: Check[] = [
  {
    id: 'STATE-MODEL/campaign',
    title: 'MUST follow the campaign state machine of 3.1 under random command sequences (create/launch, start, pause, resume, leads, sequence, mailboxes)',
    clauses: MUST_CLAUSES,
    level: 'MUST',
    features: [],
    budget: 160,
    shallowerAt: SHALLOWER_AT,
    run: (ctx) => run(ctx, 'MUST'),
  },
  {
    id: 'STATE-MODEL-READINGS/campaign',
    title: 'SHOULD follow the readings of 3.1 (draft is startable, a refused start changes nothing, launch outcomes) under random command sequences',
    clauses: SHOULD_CLAUSES,
    level: 'SHOULD',
    features: [],
    budget: 160,
    shallowerAt: SHALLOWER_AT,
    depth: 'default',
    run: (ctx) => run(ctx, 'SHOULD'),
  },
];
