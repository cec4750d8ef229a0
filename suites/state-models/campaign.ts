import { CAMPAIGN_STATUSES } from '../../harness/ground/spec-model/schemas/index.ts';
import { a, is2xx, isRejection, must, should, show, type Step, type Violation } from './core.ts';

// Spec 3.1 Campaign, as a pure model.
//
//   (none)  --POST /v1/campaigns, valid body-->  draft   (launch true: a launch is attempted; if it
//                                                         cannot launch: exists, launched false, launchError)
//   startable --start, has leads AND a sequence-->  "sending begins"; the status after the call is the
//                                                   answer's `status` (otherwise 400)
//   paused  --resume, workspace has >= 1 mailbox-->  "sending continues" (otherwise 400); a mailbox that
//                                                   cannot send does not block it
//   pause, stop, complete, fail, schedule: NOT SHOWN.
//
// What the model does NOT assert (spec: "not shown"), and how it copes:
// - Which states are "startable" beyond `draft` (reading: a draft with leads and a sequence is; SHOULD).
//   From any other state a start may succeed or be refused: the model accepts either and adopts the
//   status the target reports. Only the preconditions (leads, sequence -> else 400) hold everywhere
//   (4.3 "400 when nothing to send", part 7 "starting a campaign with no leads or sequence").
// - Pause (referenced op), and any transition the target makes by itself (complete, fail, schedule):
//   any answer is accepted and the observed status adopted; it must still be one of the 7 states.
// - Resume from a state other than `paused`: any answer accepted, observed status adopted; without a
//   mailbox it must be refused, but 3.1 defines resume only from paused, so a 409 conflict ("conflicts
//   with current state", part 7) is as right there as the 400 of the mailbox rule.
// - Start without leads or a sequence from a state other than draft: whether that state is startable
//   is not shown, so a 409 conflict is as right as the 400 of the leads/sequence rule.
// - Whether a launch with leads and a sequence succeeds (the spec allows "cannot launch" for reasons
//   it does not list): either is accepted; the consequences of each are checked.
// - Adding leads and PATCH are no transitions of 3.1: the status the target reports is adopted.

export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export interface CampaignState {
  /** Last status observed (or predicted and confirmed). */
  status: CampaignStatus;
  hasLeads: boolean;
  hasSequence: boolean;
}

/** What the campaign model knows about the workspace's mailboxes (resume's precondition). */
export interface MailboxKnowledge {
  /** Mailboxes this run created and did not delete. */
  mine: number;
  /** True when nobody else can hold a mailbox in the workspace (a fresh, exclusive workspace). */
  exclusive: boolean;
}

export interface CampaignWorld {
  campaign: CampaignState | null;
  mailboxes: MailboxKnowledge;
}

/** true / false when the model knows whether the workspace has a mailbox, undefined otherwise. */
export function workspaceHasMailbox(m: MailboxKnowledge): boolean | undefined {
  if (m.mine > 0) return true;
  return m.exclusive ? false : undefined;
}

export function initialWorld(exclusive: boolean): CampaignWorld {
  return { campaign: null, mailboxes: { mine: 0, exclusive } };
}

export const isCampaignStatus = (s: unknown): s is CampaignStatus => (CAMPAIGN_STATUSES as readonly unknown[]).includes(s);

function statesRule(readBack: unknown): Violation[] {
  return isCampaignStatus(readBack) ? [] : [must('STATE-CAMP-STATES', `the campaign status read back is ${show(readBack)}, not one of ${CAMPAIGN_STATUSES.join(', ')}`)];
}

/** Status after a step: the observed one when it is a valid state, else the previous one. */
const adopt = (prev: CampaignStatus, readBack: unknown): CampaignStatus => (isCampaignStatus(readBack) ? readBack : prev);

// ---------------------------------------------------------------------------------------------
// create
// ---------------------------------------------------------------------------------------------

export interface CreateInput {
  leads: number;
  steps: number;
  launch: boolean;
}

export interface CreateObservation {
  http: number;
  /** `campaign.status` of the answer */
  bodyStatus: unknown;
  launched: unknown;
  launchError: unknown;
  /** `leads.created` of the answer (undefined when absent) */
  leadsCreated: unknown;
  /** status read back through GET /v1/campaigns/{id}/status (undefined: no campaign id / not readable) */
  readBack: unknown;
  /** HTTP status of that read */
  readHttp: number;
}

export function create(world: CampaignWorld, input: CreateInput, o: CreateObservation): Step<CampaignWorld> {
  const v: Violation[] = [];
  if (!is2xx(o.http)) {
    v.push(must('STATE-CAMP-CREATE-DRAFT', `POST /v1/campaigns with a valid body answered ${o.http}: no campaign was created`));
    return { next: world, violations: v };
  }
  const created = typeof o.leadsCreated === 'number' ? o.leadsCreated > 0 : input.leads > 0;
  const canLaunch = created && input.steps > 0;
  if (!is2xx(o.readHttp)) {
    v.push(must(input.launch ? 'STATE-CAMP-CREATE-LAUNCH-FAIL-EXISTS' : 'STATE-CAMP-CREATE-DRAFT', `the created campaign cannot be read back: GET .../status answered ${o.readHttp}`));
    return { next: world, violations: v };
  }
  v.push(...statesRule(o.readBack));
  if (!input.launch) {
    if (o.bodyStatus !== 'draft') v.push(must('STATE-CAMP-CREATE-DRAFT', `a campaign created without launch answered status ${show(o.bodyStatus)}, not draft`));
    if (o.readBack !== 'draft') v.push(must('STATE-CAMP-CREATE-DRAFT', `a campaign created without launch reads back as ${show(o.readBack)}, not draft`));
    if (o.launched !== false) v.push(should('STATE-CAMP-CREATE-NO-LAUNCH', `without launch the answer says launched ${show(o.launched)}, not false`));
  } else {
    const failedLaunch = o.launched === false;
    if (!canLaunch && o.launched !== false)
      v.push(must('STATE-CAMP-CREATE-LAUNCH-FAIL-FLAG', `launch with ${created ? '' : 'no leads'}${!created && input.steps === 0 ? ' and ' : ''}${input.steps === 0 ? 'no sequence' : ''} cannot happen, yet launched is ${show(o.launched)}`));
    if (o.launched !== true && o.launched !== false) v.push(must('STATE-CAMP-CREATE-LAUNCH-ATTEMPT', `launch true answered launched ${show(o.launched)}, not a boolean`));
    if (failedLaunch || !canLaunch) {
      if (typeof o.launchError !== 'string' || o.launchError.trim() === '')
        v.push(must('STATE-CAMP-CREATE-LAUNCH-FAIL-REASON', `the launch did not happen but launchError is ${show(o.launchError)}, not a reason`));
      if (o.readBack !== 'draft') v.push(must('STATE-CAMP-CREATE-DRAFT', `a campaign whose launch failed reads back as ${show(o.readBack)}, not draft`));
    } else if (o.launched === true && o.readBack === 'draft') {
      v.push(should('STATE-CAMP-CREATE-LAUNCH-OK', 'launched is true but the campaign still reads back as draft: sending has not begun'));
    }
  }
  const status = adopt('draft', o.readBack);
  return { next: { ...world, campaign: { status, hasLeads: created, hasSequence: input.steps > 0 } }, violations: v };
}

// ---------------------------------------------------------------------------------------------
// start
// ---------------------------------------------------------------------------------------------

export interface LifecycleObservation {
  http: number;
  /** `status` of the `{ id, status, success }` answer (undefined on an error) */
  bodyStatus: unknown;
  readBack: unknown;
}

/** What the model expects of a start, for the unit tests and for messages. */
export function expectStart(c: CampaignState): 'refused' | 'starts' | 'any' {
  if (!c.hasLeads || !c.hasSequence) return 'refused';
  return c.status === 'draft' ? 'starts' : 'any';
}

export function start(world: CampaignWorld, o: LifecycleObservation): Step<CampaignWorld> {
  const c = world.campaign!;
  const v: Violation[] = [...statesRule(o.readBack)];
  const expected = expectStart(c);
  if (expected === 'refused') {
    if (c.status === 'draft' ? o.http !== 400 : !isRejection(o.http)) {
      const clause = !c.hasLeads ? 'STATE-CAMP-START-REQUIRES-LEADS' : 'STATE-CAMP-START-REQUIRES-SEQUENCE';
      v.push(must(clause, `start of ${a(c.status)} campaign with ${c.hasLeads ? 'leads' : 'no leads'} and ${c.hasSequence ? 'a sequence' : 'no sequence'} answered ${o.http}, not ${c.status === 'draft' ? '400' : '400 or 409'}`));
    }
  } else if (expected === 'starts') {
    if (!is2xx(o.http)) v.push(should('STATE-CAMP-START-FROM-DRAFT', `start of a draft campaign with leads and a sequence answered ${o.http}`));
  }
  if (is2xx(o.http) && expected !== 'refused') {
    if (o.bodyStatus !== o.readBack)
      v.push(must('STATE-CAMP-START-STATUS-REPORTED', `start answered status ${show(o.bodyStatus)} but the campaign reads back as ${show(o.readBack)}`));
    if (o.readBack === 'draft') v.push(must('STATE-CAMP-START-BEGINS', 'start answered success but the campaign is still draft: sending has not begun'));
  }
  if (isRejection(o.http) && isCampaignStatus(o.readBack) && o.readBack !== c.status) {
    v.push(should('STATE-CAMP-START-NO-STATE-CHANGE-ON-400', `a start refused with 400 moved the campaign from ${c.status} to ${show(o.readBack)}`));
  }
  return { next: { ...world, campaign: { ...c, status: adopt(c.status, o.readBack) } }, violations: v };
}

// ---------------------------------------------------------------------------------------------
// resume
// ---------------------------------------------------------------------------------------------

export function expectResume(world: CampaignWorld): 'refused' | 'continues' | 'any' {
  const has = workspaceHasMailbox(world.mailboxes);
  if (has === false) return 'refused';
  if (world.campaign!.status === 'paused' && has === true) return 'continues';
  return 'any';
}

export function resume(world: CampaignWorld, o: LifecycleObservation): Step<CampaignWorld> {
  const c = world.campaign!;
  const v: Violation[] = [...statesRule(o.readBack)];
  const expected = expectResume(world);
  if (expected === 'refused') {
    const ok = c.status === 'paused' ? o.http === 400 : isRejection(o.http);
    if (!ok) v.push(must('STATE-CAMP-RESUME-NEEDS-MAILBOX', `resume of ${a(c.status)} campaign in a workspace without any mailbox answered ${o.http}, not ${c.status === 'paused' ? '400' : '400 or 409'}`));
  } else if (expected === 'continues') {
    if (!is2xx(o.http))
      v.push(must('STATE-CAMP-RESUME-FROM-PAUSED', `resume of a paused campaign in a workspace with ${world.mailboxes.mine} mailbox(es) (none of them able to send) answered ${o.http}`));
    else if (o.readBack === 'paused' || o.readBack === 'draft')
      v.push(must('STATE-CAMP-RESUME-FROM-PAUSED', `resume answered success but the campaign reads back as ${show(o.readBack)}: sending did not continue`));
  } else if (c.status === 'paused' && is2xx(o.http) && (o.readBack === 'paused' || o.readBack === 'draft')) {
    // Mailbox presence unknown (shared workspace), but the target accepted the resume.
    v.push(must('STATE-CAMP-RESUME-FROM-PAUSED', `resume answered success but the campaign reads back as ${show(o.readBack)}: sending did not continue`));
  }
  return { next: { ...world, campaign: { ...c, status: adopt(c.status, o.readBack) } }, violations: v };
}

// ---------------------------------------------------------------------------------------------
// Steps whose outcome 3.1 does not show: the observed status is adopted.
// ---------------------------------------------------------------------------------------------

/** Pause (referenced op): "Transitions for pause ... not shown". Any answer; adopt. */
export function pause(world: CampaignWorld, o: LifecycleObservation): Step<CampaignWorld> {
  const c = world.campaign!;
  return { next: { ...world, campaign: { ...c, status: adopt(c.status, o.readBack) } }, violations: statesRule(o.readBack) };
}

/** Leads added (referenced op leads.create): no transition of 3.1; adopt the status. */
export function addLeads(world: CampaignWorld, o: { http: number; created: unknown; requested: number; readBack: unknown }): Step<CampaignWorld> {
  const c = world.campaign!;
  const added = is2xx(o.http) && (typeof o.created === 'number' ? o.created > 0 : o.requested > 0);
  return { next: { ...world, campaign: { ...c, hasLeads: c.hasLeads || added, status: adopt(c.status, o.readBack) } }, violations: statesRule(o.readBack) };
}

/** PATCH /v1/campaigns/{id}: `sequence`, when present, replaces the steps. No transition of 3.1. */
export function patch(world: CampaignWorld, o: { http: number; sequenceSteps?: number; readBack: unknown }): Step<CampaignWorld> {
  const c = world.campaign!;
  const hasSequence = is2xx(o.http) && o.sequenceSteps !== undefined ? o.sequenceSteps > 0 : c.hasSequence;
  return { next: { ...world, campaign: { ...c, hasSequence, status: adopt(c.status, o.readBack) } }, violations: statesRule(o.readBack) };
}

/** A plain read (the target may move by itself: complete, fail, schedule are not shown). */
export function observe(world: CampaignWorld, o: { readBack: unknown }): Step<CampaignWorld> {
  const c = world.campaign!;
  return { next: { ...world, campaign: { ...c, status: adopt(c.status, o.readBack) } }, violations: statesRule(o.readBack) };
}

export function mailboxCreated(world: CampaignWorld, http: number): CampaignWorld {
  return is2xx(http) ? { ...world, mailboxes: { ...world.mailboxes, mine: world.mailboxes.mine + 1 } } : world;
}

export function mailboxDeleted(world: CampaignWorld, http: number): CampaignWorld {
  return is2xx(http) ? { ...world, mailboxes: { ...world.mailboxes, mine: Math.max(0, world.mailboxes.mine - 1) } } : world;
}
