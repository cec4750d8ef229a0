import { LEAD_AFTER_REPLY_STATUSES, LEAD_ANYTIME_STATUSES, LEAD_PLATFORM_STATUSES_NAMED, LEAD_USER_SETTABLE_STATUSES } from '../../harness/ground/spec-model/schemas/index.ts';
import { is2xx, isRejection, must, should, show, type Step, type Violation } from './core.ts';

// Spec 3.3 Lead, as a pure model.
//
//   set status (PATCH or mutate set_status) to lead_replied_* / lead_converted  -> set if the lead
//                                                    has already replied (else: refused, unchanged)
//   set status to lead_lost / blacklisted            -> set, any time
//   set status to a platform-managed status          -> rejected
//   change email via PATCH                           -> changed while not yet contacted, else rejected
//   DELETE                                           -> gone; `retentionDays` returned (contacted: soft)
//   Transitions of platform-managed statuses: NOT SHOWN.
//
// "Has replied" and "contacted" are facts the platform establishes (sending, replies): the model
// does not predict them. It takes them from the lead as read back (metrics.replied / lastRepliedAt,
// metrics.sent / lastContactedAt) and adopts the status the platform gives a lead by itself
// (the initial one, seen `not_contacted`, and any later platform-managed move: not shown). In the
// model checks the campaign is never started, so no platform move is expected between steps.
// "Rejected" is read as an error answer of part 7 that fits: 400 (invalid body) or 409 (conflicts
// with the current state); for a bulk mutate, also a 2xx that reports the lead as failed
// (affected 0), since the spec does not say whether a bulk refusal is whole or per lead.

export type StatusClass = 'after-reply' | 'anytime' | 'platform' | 'unknown';

export function classify(status: string): StatusClass {
  if ((LEAD_AFTER_REPLY_STATUSES as readonly string[]).includes(status)) return 'after-reply';
  if ((LEAD_ANYTIME_STATUSES as readonly string[]).includes(status)) return 'anytime';
  if ((LEAD_PLATFORM_STATUSES_NAMED as readonly string[]).includes(status)) return 'platform';
  return 'unknown';
}

export const isUserSettable = (s: string): boolean => (LEAD_USER_SETTABLE_STATUSES as readonly string[]).includes(s);

export interface LeadState {
  deleted: boolean;
  status: string;
  email: string;
  replied: boolean;
  contacted: boolean;
}

/** The lead as read back (undefined: not listed any more). */
export interface LeadView {
  status: unknown;
  email: unknown;
  metrics?: { sent?: unknown; replied?: unknown } | null;
  lastContactedAt?: unknown;
  lastRepliedAt?: unknown;
}

export function facts(view: LeadView): { replied: boolean; contacted: boolean } {
  const n = (x: unknown) => (typeof x === 'number' ? x : 0);
  const replied = n(view.metrics?.replied) > 0 || (view.lastRepliedAt !== null && view.lastRepliedAt !== undefined);
  const contacted = replied || n(view.metrics?.sent) > 0 || (view.lastContactedAt !== null && view.lastContactedAt !== undefined);
  return { replied, contacted };
}

export function fromView(view: LeadView): LeadState {
  return { deleted: false, status: String(view.status), email: String(view.email), ...facts(view) };
}

/** Adopt what the platform says (facts; status only where the model had no prediction). */
function adopt(s: LeadState, view: LeadView | undefined): LeadState {
  if (!view) return s;
  return { ...s, status: typeof view.status === 'string' ? view.status : s.status, email: typeof view.email === 'string' ? view.email : s.email, ...facts(view) };
}

export type SetOutcome = 'set' | 'rejected';

export function expectSetStatus(s: LeadState, status: string): { outcome: SetOutcome; clause: string; level: 'MUST' | 'SHOULD' } {
  switch (classify(status)) {
    case 'after-reply':
      return s.replied ? { outcome: 'set', clause: 'STATE-LEAD-REPLIED-AFTER-REPLY', level: 'MUST' } : { outcome: 'rejected', clause: 'STATE-LEAD-REPLIED-BEFORE-REPLY', level: 'MUST' };
    case 'anytime':
      return { outcome: 'set', clause: status === 'lead_lost' ? 'STATE-LEAD-LOST-ANYTIME' : 'STATE-LEAD-BLACKLISTED-ANYTIME', level: 'MUST' };
    case 'platform':
      return { outcome: 'rejected', clause: 'STATE-LEAD-PLATFORM-REJECTED', level: 'MUST' };
    default:
      return { outcome: 'rejected', clause: 'STATE-LEAD-UNKNOWN-STATUS-REJECTED', level: 'SHOULD' };
  }
}

export interface SetStatusObservation {
  via: 'patch' | 'mutate';
  http: number;
  /** mutate answer's `affected` / `failed` (undefined for PATCH) */
  affected?: unknown;
  failed?: unknown;
  /** the lead as read back after the step (undefined: not listed) */
  view: LeadView | undefined;
}

const vio = (level: 'MUST' | 'SHOULD', clause: string, message: string): Violation => (level === 'MUST' ? must(clause, message) : should(clause, message));

export function setStatus(s: LeadState, status: string, o: SetStatusObservation): Step<LeadState> {
  const v: Violation[] = [];
  const how = o.via === 'patch' ? 'PATCH' : 'mutate set_status';
  if (s.deleted) {
    // Bulk mutate reports leads it cannot find in `failed` / `errors` (4.4) with a 2xx answer.
    if (o.via === 'mutate' && is2xx(o.http) && o.affected === 0) return gone(s, how, 404, o.view);
    // A status that may never be set makes the request invalid on its own: 400 before any lookup.
    if (!isUserSettable(status) && isRejection(o.http)) return gone(s, how, 404, o.view);
    return gone(s, how, o.http, o.view);
  }
  const e = expectSetStatus(s, status);
  const where = `${how} to ${status} (lead ${s.status}, ${s.replied ? 'replied' : 'not replied'})`;
  if (!o.view) {
    v.push(must('STATE-LEAD-RULES-BOTH-PATHS', `${where}: the lead is no longer listed`));
    return { next: s, violations: v };
  }
  if (e.outcome === 'set') {
    if (!is2xx(o.http)) v.push(vio(e.level, e.clause, `${where} answered ${o.http}`));
    else if (o.via === 'mutate' && typeof o.affected === 'number' && o.affected !== 1) v.push(vio(e.level, e.clause, `${where} answered affected ${o.affected}, not 1`));
    if (o.view.status !== status) v.push(vio(e.level, e.clause, `${where}: the lead reads back with status ${show(o.view.status)}`));
  } else {
    const refusedWhole = isRejection(o.http);
    const refusedPerLead = o.via === 'mutate' && is2xx(o.http) && o.affected === 0;
    if (!refusedWhole && !refusedPerLead)
      v.push(vio(e.level, e.clause, `${where} must be rejected; answered ${o.http}${o.via === 'mutate' ? ` (affected ${show(o.affected)}, failed ${show(o.failed)})` : ''}`));
    if (o.view.status !== s.status) v.push(vio(e.level, e.clause, `${where} must be rejected; the lead now reads back with status ${show(o.view.status)}`));
  }
  if (v.length && o.via === 'mutate') v.push(must('STATE-LEAD-RULES-BOTH-PATHS', `the 3.3 rule broken above was broken through mutate set_status`));
  return { next: adopt(s, o.view), violations: v };
}

export function changeEmail(s: LeadState, email: string, o: { http: number; view: LeadView | undefined }): Step<LeadState> {
  const v: Violation[] = [];
  if (s.deleted) return gone(s, 'PATCH email', o.http, o.view);
  if (!o.view) return { next: s, violations: [must('STATE-LEAD-EMAIL-CHANGE-UNCONTACTED', 'after PATCH email the lead is no longer listed')] };
  const seen = typeof o.view.email === 'string' ? o.view.email.toLowerCase() : o.view.email;
  if (!s.contacted) {
    if (!is2xx(o.http)) v.push(must('STATE-LEAD-EMAIL-CHANGE-UNCONTACTED', `PATCH email of a lead not yet contacted answered ${o.http}`));
    else if (seen !== email.toLowerCase()) v.push(must('STATE-LEAD-EMAIL-CHANGE-UNCONTACTED', `PATCH email to ${email} answered success; the lead reads back with ${show(o.view.email)}`));
  } else {
    if (!isRejection(o.http)) v.push(must('STATE-LEAD-EMAIL-CHANGE-CONTACTED', `PATCH email of a contacted lead must be rejected; answered ${o.http}`));
    if (seen !== s.email.toLowerCase()) v.push(must('STATE-LEAD-EMAIL-CHANGE-CONTACTED', `PATCH email of a contacted lead changed it to ${show(o.view.email)}`));
  }
  return { next: adopt(s, o.view), violations: v };
}

/** A PATCH that changes neither status nor email (a name): no rule of 3.3 applies; adopt. */
export function patchOther(s: LeadState, o: { http: number; view: LeadView | undefined }): Step<LeadState> {
  if (s.deleted) return gone(s, 'PATCH', o.http, o.view);
  return { next: adopt(s, o.view), violations: [] };
}

export function remove(s: LeadState, o: { http: number; retentionDays: unknown; view: LeadView | undefined }): Step<LeadState> {
  const v: Violation[] = [];
  if (s.deleted) return gone(s, 'DELETE', o.http, o.view);
  if (!is2xx(o.http)) v.push(must('STATE-LEAD-DELETE-RETENTION', `DELETE of a lead answered ${o.http}`));
  else if (!Number.isInteger(o.retentionDays) || (o.retentionDays as number) < 0)
    v.push(must('STATE-LEAD-DELETE-RETENTION', `DELETE of a lead answered retentionDays ${show(o.retentionDays)}, not a whole number of days`));
  if (is2xx(o.http) && o.view) v.push(should('STATE-LEAD-DELETE-HIDDEN', 'a deleted lead is still listed in its campaign'));
  return { next: is2xx(o.http) ? { ...s, deleted: true } : adopt(s, o.view), violations: v };
}

/** Any step on a deleted lead: 404, and it stays unlisted (reading STATE-LEAD-DELETE-HIDDEN). */
function gone(s: LeadState, how: string, http: number, view: LeadView | undefined): Step<LeadState> {
  const v: Violation[] = [];
  if (http !== 404) v.push(should('STATE-LEAD-DELETE-HIDDEN', `${how} of a deleted lead answered ${http}, not 404`));
  if (view) v.push(should('STATE-LEAD-DELETE-HIDDEN', `a deleted lead is listed again (status ${show(view.status)})`));
  return { next: s, violations: v };
}

/** A plain read (platform-managed moves are not shown: adopt). */
export function observe(s: LeadState, view: LeadView | undefined): Step<LeadState> {
  if (s.deleted) return { next: s, violations: view ? [should('STATE-LEAD-DELETE-HIDDEN', 'a deleted lead is listed again')] : [] };
  if (!view) return { next: s, violations: [] };
  return { next: adopt(s, view), violations: [] };
}
