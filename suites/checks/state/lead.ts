import fc from 'fast-check';
import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, msg } from '../../../harness/ground/check.ts';
import { faker, listLeads, setupCampaignBody } from '../../lib/recipes.ts';
import { prefixedAddress } from '../../../fixtures/factories/index.ts';
import { LEAD_PLATFORM_STATUSES_NAMED, LEAD_USER_SETTABLE_STATUSES } from '../../../harness/ground/spec-model/schemas/index.ts';
import * as L from '../../state-models/lead.ts';
import type { RuleLevel } from '../../state-models/core.ts';
import { checkModel, runSize, SHALLOWER_AT, Trail, workspaces, type Cmd } from './driver.ts';
import { hasLeadEvents } from '../sending/lead-history.ts';


// Model-based check of the lead rules (3.3): every run creates a draft campaign (never started, so
// no lead is contacted or replies, and the platform moves no lead by itself) with a few leads, then
// a random sequence of status changes (user-settable, replied-only, platform-managed and unknown
// values) through PATCH and through mutate `set_status`, email changes, other PATCHes and deletes;
// after each step the campaign's leads are read back (referenced leads.list) and judged by
// suites/state-models/lead.ts. The "has replied" / "contacted" facts come from what the target reports;
// with the control API a step may record that a lead was sent an email or replied (the lead-events
// extension, POST /leads/{id}/events), which brings the replied-only and contacted rules into play.

const LEADS = 3;
const UNKNOWN_STATUS = 'lead_status_that_does_not_exist';
const STATUSES = [...LEAD_USER_SETTABLE_STATUSES, ...LEAD_PLATFORM_STATUSES_NAMED, UNKNOWN_STATUS];

interface Model {
  leads: L.LeadState[];
}

interface Real {
  ctx: CheckContext;
  api: ApiClient;
  trail: Trail;
  campaignId: string;
  ids: string[];
}

async function views(r: Real): Promise<Map<string, L.LeadView>> {
  const all = (await listLeads(r.ctx, r.api, r.campaignId)) as unknown as (L.LeadView & { id: string })[];
  return new Map(all.map((l) => [l.id, l]));
}

abstract class LeadStep implements Cmd<Model, Real> {
  constructor(readonly i: number) {}
  check = () => true;
  abstract act(m: Model, r: Real, id: string): Promise<(view: L.LeadView | undefined, s: L.LeadState) => ReturnType<typeof L.observe>>;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    const id = r.ids[this.i]!;
    const judge = await this.act(m, r, id);
    const view = (await views(r)).get(id);
    m.leads[this.i] = r.trail.judge(judge(view, m.leads[this.i]!));
  }
}

class SetStatus extends LeadStep {
  constructor(i: number, readonly status: string, readonly via: 'patch' | 'mutate') {
    super(i);
  }
  override toString = () => `lead ${this.i}: ${this.via === 'patch' ? 'PATCH status' : 'mutate set_status'} ${this.status}`;
  override async act(_m: Model, r: Real, id: string) {
    let res: ApiResponse;
    if (this.via === 'patch') res = await r.api.patch(`/v1/campaigns/${r.campaignId}/leads/${id}`, { status: this.status });
    else {
      const n = r.ctx.profile.names.mutate;
      res = await r.api.post(`/v1/campaigns/${r.campaignId}/leads/mutate`, { [n.operation]: 'set_status', ids: [id], [n.status]: this.status });
    }
    r.trail.note(res);
    const ok = res.status < 300;
    return (view: L.LeadView | undefined, s: L.LeadState) =>
      L.setStatus(s, this.status, { via: this.via, http: res.status, affected: ok ? res.body?.affected : undefined, failed: ok ? res.body?.failed : undefined, view });
  }
}

class ChangeEmail extends LeadStep {
  override toString = () => `lead ${this.i}: PATCH email`;
  override async act(_m: Model, r: Real, id: string) {
    const email = prefixedAddress(faker(r.ctx), r.ctx.prefix, 'leads.example.test');
    const res = await r.api.patch(`/v1/campaigns/${r.campaignId}/leads/${id}`, { email });
    r.trail.note(res);
    return (view: L.LeadView | undefined, s: L.LeadState) => L.changeEmail(s, email, { http: res.status, view });
  }
}

class PatchName extends LeadStep {
  override toString = () => `lead ${this.i}: PATCH firstName`;
  override async act(_m: Model, r: Real, id: string) {
    const res = await r.api.patch(`/v1/campaigns/${r.campaignId}/leads/${id}`, { firstName: faker(r.ctx).person.firstName() });
    r.trail.note(res);
    return (view: L.LeadView | undefined, s: L.LeadState) => L.patchOther(s, { http: res.status, view });
  }
}

class Delete extends LeadStep {
  override toString = () => `lead ${this.i}: DELETE`;
  override async act(_m: Model, r: Real, id: string) {
    const res = await r.api.delete(`/v1/campaigns/${r.campaignId}/leads/${id}`);
    r.trail.note(res);
    return (view: L.LeadView | undefined, s: L.LeadState) => L.remove(s, { http: res.status, retentionDays: res.status < 300 ? res.body?.retentionDays : undefined, view });
  }
}

/**
 * What the send path and the IMAP poller would record about a lead (an email went out, the lead
 * replied), through the control API's lead-events extension (POST /leads/{id}/events; optional:
 * without it the step changes nothing). The platform's own status move is not shown: adopted.
 */
class LeadEvent extends LeadStep {
  constructor(i: number, readonly type: 'contacted' | 'replied') {
    super(i);
  }
  override toString = () => `lead ${this.i}: the lead is ${this.type === 'contacted' ? 'sent an email' : 'replies'} (control event)`;
  override async act(_m: Model, r: Real, id: string) {
    const res = await r.ctx.control!.request('POST', `/leads/${id}/events`, { type: this.type }, { allowError: true });
    r.trail.note(res);
    return (view: L.LeadView | undefined, s: L.LeadState) => L.observe(s, view);
  }
}

function commands(maxCommands: number, control: boolean) {
  const lead = fc.integer({ min: 0, max: LEADS - 1 });
  const events = control ? [fc.tuple(lead, fc.constantFrom('contacted' as const, 'replied' as const)).map(([i, t]) => new LeadEvent(i, t))] : [];
  return fc.commands(
    [
      ...events,
      fc.tuple(lead, fc.constantFrom(...STATUSES), fc.constantFrom('patch' as const, 'mutate' as const)).map(([i, s, via]) => new SetStatus(i, s, via)),
      fc.tuple(lead, fc.constantFrom(...STATUSES), fc.constantFrom('patch' as const, 'mutate' as const)).map(([i, s, via]) => new SetStatus(i, s, via)),
      fc.tuple(lead, fc.constantFrom('lead_lost', 'blacklisted')).map(([i, s]) => new SetStatus(i, s, 'patch')),
      lead.map((i) => new ChangeEmail(i)),
      lead.map((i) => new PatchName(i)),
      lead.map((i) => new Delete(i)),
    ],
    { maxCommands },
  );
}

async function run(ctx: CheckContext, level: RuleLevel): Promise<void> {
  const size = runSize(ctx.depth, !!ctx.control, ctx.profile.rateLimit);
  const pool = workspaces(ctx);
  // Lead events need the control API's optional lead-events extension.
  const events = await hasLeadEvents(ctx);
  await checkModel(
    ctx,
    'lead (3.3)',
    commands(size.maxCommands, events),
    async (cmds) => {
      const ws = await pool.next();
      const trail = new Trail(level);
      trail.begin(`create a draft campaign with ${LEADS} leads`);
      const res = await ws.api.post('/v1/campaigns', await setupCampaignBody(ctx, { leads: LEADS, steps: 1 }));
      trail.note(res);
      const campaignId = res.body?.campaign?.id;
      if (res.status >= 300 || typeof campaignId !== 'string') fail(msg`setup: POST /v1/campaigns answered ${res.status} without campaign.id`, res);
      const real: Real = { ctx, api: ws.api, trail, campaignId, ids: [] };
      const listed = [...(await views(real)).entries()];
      if (listed.length !== LEADS) fail(msg`setup: the campaign created with ${LEADS} leads lists ${listed.length}`, res);
      real.ids = listed.map(([id]) => id);
      const model: Model = { leads: listed.map(([, v]) => L.fromView(v)) };
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    },
    size,
  );
}

const features = ['op:leads.list' as const];

export const LEAD_MODEL_CHECKS: Check[] = [
  {
    id: 'STATE-MODEL/lead',
    title: 'MUST follow the lead rules of 3.3 (user-settable, replied-only, platform statuses; email change; delete) through PATCH and mutate under random command sequences',
    clauses: [
      'STATE-LEAD-USER-SETTABLE', 'STATE-LEAD-REPLIED-BEFORE-REPLY', 'STATE-LEAD-REPLIED-AFTER-REPLY', 'STATE-LEAD-LOST-ANYTIME', 'STATE-LEAD-BLACKLISTED-ANYTIME',
      'STATE-LEAD-PLATFORM-REJECTED', 'STATE-LEAD-RULES-BOTH-PATHS', 'STATE-LEAD-EMAIL-CHANGE-UNCONTACTED', 'STATE-LEAD-EMAIL-CHANGE-CONTACTED', 'STATE-LEAD-DELETE-RETENTION',
      'LEAD-PATCH-STATUS-RULES', 'LEAD-MUTATE-SET-STATUS-EFFECT',
    ],
    level: 'MUST',
    features,
    budget: 160,
    shallowerAt: SHALLOWER_AT,
    run: (ctx) => run(ctx, 'MUST'),
  },
  {
    id: 'STATE-MODEL-READINGS/lead',
    title: 'SHOULD reject unknown lead statuses and hide deleted leads (404 afterwards) under random command sequences',
    clauses: ['STATE-LEAD-UNKNOWN-STATUS-REJECTED', 'STATE-LEAD-DELETE-HIDDEN'],
    level: 'SHOULD',
    features,
    budget: 160,
    shallowerAt: SHALLOWER_AT,
    depth: 'default',
    run: (ctx) => run(ctx, 'SHOULD'),
  },
];
