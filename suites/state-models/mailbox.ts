import { MAILBOX_STATUSES } from '../../harness/ground/spec-model/schemas/index.ts';
import { a, is2xx, must, should, show, type Step, type Violation } from './core.ts';

// Spec 3.2 Mailbox, as a pure model.
//
//   (none)              --POST /v1/accounts-->             inactive (verified in the background)
//   active              --pause (400 unless active)-->     inactive; nothing re-activates it but a resume
//   inactive | failed   --resume (referenced)-->           checking, re-verification
//   any                 --PATCH smtp*/imap*-->             credentials rotated, verification re-run
//   active              --repeated send failures-->        failed        (system; not driven here)
//   any OAuth mailbox   --grant withdrawn-->               revoked       (system; not driven here)
//   any                 --DELETE-->                        removed (later reads: 404)
//   Mapping of verification outcomes to status values: NOT SHOWN.
//
// Background verification makes the status move by itself. The model tracks whether that can
// happen (`settled`):
// - unsettled (after create, resume, a credential PATCH, without a drain since): the status may be
//   any verification outcome. The model asserts nothing about it (mapping not shown: PROFILE),
//   accepts any of the 5 states and adopts what it reads. A pause then may be 200 or 400 (the
//   mailbox may have turned active meanwhile); if it succeeds, the mailbox must read `inactive`.
// - settled (after a drain of the control API: "runs all background work ... answers when none is
//   left"; or held inactive by a pause): the status is known and pause must follow "400 unless
//   active", resume from inactive/failed must succeed.
// - held (a pause succeeded and nothing since but reads, drains, pauses, non-credential PATCHes):
//   "nothing re-activates it automatically, only a resume": it must never read `active`.
// What the model does NOT assert ("not shown"): the status after a drain (any of the 5), resume
// from active/checking/revoked (any answer; adopt), the status right after a credential PATCH
// (re-verification: any; adopt), the response shape of the referenced resume (only when the answer
// is a mailbox does its status have to be `checking`).

export type MailboxStatus = (typeof MAILBOX_STATUSES)[number];
export const isMailboxStatus = (s: unknown): s is MailboxStatus => (MAILBOX_STATUSES as readonly unknown[]).includes(s);

export interface MailboxState {
  removed: boolean;
  status: MailboxStatus;
  /** No background work can change the status (see above). */
  settled: boolean;
  /** Paused and not resumed/re-verified since: must stay inactive. */
  held: boolean;
  /** OAuth grant withdrawn and nothing done since: must stay revoked ("must be reconnected"). */
  revokedHold?: boolean;
}

export interface Obs {
  http: number;
  /** status in the answer body when the answer is a mailbox (undefined otherwise) */
  bodyStatus?: unknown;
  /** status read back (accounts.get) after the step; undefined when the read failed */
  readBack: unknown;
  /** HTTP status of the read back */
  readHttp: number;
}

function readRules(s: MailboxState, o: Obs, v: Violation[]): void {
  if (s.removed) {
    if (o.readHttp !== 404) v.push(must('STATE-ACCT-DELETE-REMOVED', `a deleted mailbox read back answered ${o.readHttp}, not 404`));
    return;
  }
  if (!is2xx(o.readHttp)) {
    v.push(must('STATE-ACCT-STATES', `the mailbox could not be read back: ${o.readHttp}`));
    return;
  }
  if (!isMailboxStatus(o.readBack)) v.push(must('STATE-ACCT-STATES', `the mailbox status read back is ${show(o.readBack)}, not one of ${MAILBOX_STATUSES.join(', ')}`));
  // Held: "nothing re-activates it automatically, only a resume". A verification started before the
  // pause may still end (failed, say): only `active` is a re-activation.
  if (s.held && o.readBack === 'active')
    v.push(must('STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE', 'a paused mailbox (no resume since) reads back as active again'));
  if (s.revokedHold && o.readBack !== 'revoked')
    v.push(must('STATE-ACCT-REVOKED-RECONNECT', `a mailbox whose OAuth grant was withdrawn (not reconnected since) reads back as ${show(o.readBack)}, not revoked`));
}

const adopt = (s: MailboxState, o: Obs): MailboxStatus => (isMailboxStatus(o.readBack) ? o.readBack : s.status);

export function created(o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  if (!is2xx(o.http)) v.push(must('STATE-ACCT-CREATE-INACTIVE', `POST /v1/accounts with a valid element answered ${o.http}`));
  else if (o.bodyStatus !== 'inactive') v.push(must('STATE-ACCT-CREATE-INACTIVE', `a new mailbox answered status ${show(o.bodyStatus)}, not inactive`));
  const s: MailboxState = { removed: false, status: 'inactive', settled: false, held: false };
  readRules(s, o, v);
  // Right after create the background verification may already have moved it: any state, adopt.
  return { next: { ...s, status: adopt(s, o) }, violations: v };
}

export function expectPause(s: MailboxState): 'pauses' | 'refused' | 'either' | 'gone' {
  if (s.removed) return 'gone';
  if (!s.settled) return 'either';
  return s.status === 'active' ? 'pauses' : 'refused';
}

export function pause(s: MailboxState, o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  const e = expectPause(s);
  if (e === 'gone') {
    if (o.http !== 404) v.push(must('STATE-ACCT-DELETE-REMOVED', `pause of a deleted mailbox answered ${o.http}, not 404`));
    readRules(s, o, v);
    return { next: s, violations: v };
  }
  if (e === 'pauses' && !is2xx(o.http)) v.push(must('STATE-ACCT-PAUSE-ACTIVE-ONLY', `pause of an active mailbox answered ${o.http}`));
  if (e === 'refused' && o.http !== 400) v.push(must('STATE-ACCT-PAUSE-ACTIVE-ONLY', `pause of ${a(s.status)} mailbox answered ${o.http}, not 400`));
  if (e === 'either' && !is2xx(o.http) && o.http !== 400) v.push(must('STATE-ACCT-PAUSE-ACTIVE-ONLY', `pause answered ${o.http}: neither a success nor 400`));
  let next: MailboxState = { ...s };
  if (is2xx(o.http)) {
    if (o.bodyStatus !== undefined && o.bodyStatus !== 'inactive') v.push(must('STATE-ACCT-PAUSE-INACTIVE', `pause answered the mailbox with status ${show(o.bodyStatus)}, not inactive`));
    if (o.readBack !== 'inactive') v.push(must('STATE-ACCT-PAUSE-INACTIVE', `after a successful pause the mailbox reads back as ${show(o.readBack)}, not inactive`));
    next = { ...s, status: 'inactive', settled: true, held: true };
    readRules({ ...next, held: false }, o, v);
  } else {
    readRules(s, o, v);
    if (s.settled && isMailboxStatus(o.readBack) && o.readBack !== s.status)
      v.push(should('STATE-ACCT-PAUSE-ACTIVE-ONLY', `a refused pause moved ${a(s.status)} mailbox to ${show(o.readBack)}`));
  }
  return { next: { ...next, status: adopt(next, o) }, violations: v };
}

export function expectResume(s: MailboxState): 'checking' | 'any' | 'gone' {
  if (s.removed) return 'gone';
  return s.settled && (s.status === 'inactive' || s.status === 'failed') ? 'checking' : 'any';
}

export function resume(s: MailboxState, o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  const e = expectResume(s);
  if (e === 'gone') {
    if (o.http !== 404) v.push(must('STATE-ACCT-DELETE-REMOVED', `resume of a deleted mailbox answered ${o.http}, not 404`));
    readRules(s, o, v);
    return { next: s, violations: v };
  }
  if (e === 'checking') {
    const clause = s.status === 'failed' ? 'STATE-ACCT-RESUME-FAILED-RECHECK' : 'STATE-ACCT-RESUME-CHECKING';
    if (!is2xx(o.http)) v.push(must(clause, `resume of ${a(s.status)} mailbox answered ${o.http}`));
  }
  const wasCandidate = isMailboxStatus(s.status) && (s.status === 'inactive' || s.status === 'failed');
  if (is2xx(o.http) && wasCandidate && o.bodyStatus !== undefined && o.bodyStatus !== 'checking')
    v.push(must('STATE-ACCT-RESUME-CHECKING', `resume of ${a(s.status)} mailbox answered it with status ${show(o.bodyStatus)}, not checking`));
  readRules({ ...s, held: false, revokedHold: false }, o, v);
  // After a successful resume verification runs again: any outcome; adopt. (Whether a resume
  // reconnects a revoked mailbox is not shown: the hold on `revoked` ends here too.)
  const next: MailboxState = is2xx(o.http) ? { ...s, settled: false, held: false, revokedHold: false } : s;
  return { next: { ...next, status: adopt(next, o) }, violations: v };
}

export function patchCredentials(s: MailboxState, o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  if (s.removed) {
    if (o.http !== 404) v.push(must('STATE-ACCT-DELETE-REMOVED', `PATCH of a deleted mailbox answered ${o.http}, not 404`));
    readRules(s, o, v);
    return { next: s, violations: v };
  }
  if (!is2xx(o.http)) v.push(must('STATE-ACCT-PATCH-CREDS-ROTATE', `PATCH with new smtp*/imap* credentials answered ${o.http}`));
  readRules({ ...s, held: false, revokedHold: false }, o, v);
  // Verification re-runs: the outcome is not shown; any state, adopt. Whether a re-verified paused
  // mailbox may turn active is not shown either, so the hold ends here.
  const next: MailboxState = is2xx(o.http) ? { ...s, settled: false, held: false, revokedHold: false } : s;
  return { next: { ...next, status: adopt(next, o) }, violations: v };
}

export function patchOther(s: MailboxState, o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  if (s.removed) {
    if (o.http !== 404) v.push(must('STATE-ACCT-DELETE-REMOVED', `PATCH of a deleted mailbox answered ${o.http}, not 404`));
    readRules(s, o, v);
    return { next: s, violations: v };
  }
  readRules(s, o, v);
  if (s.settled && isMailboxStatus(o.readBack) && o.readBack !== s.status)
    v.push(should('STATE-ACCT-PATCH-NO-CREDS-NO-REVERIFY', `a PATCH without credentials moved ${a(s.status)} mailbox to ${show(o.readBack)}`));
  return { next: { ...s, status: adopt(s, o) }, violations: v };
}

/** Background work ran to the end (control API drain): the status is now stable; any value (PROFILE). */
export function drained(s: MailboxState, o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  readRules(s, o, v);
  if (s.removed) return { next: s, violations: v };
  return { next: { ...s, settled: true, status: adopt(s, o) }, violations: v };
}

/** A plain read. */
export function observe(s: MailboxState, o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  readRules(s, o, v);
  if (s.removed) return { next: s, violations: v };
  return { next: { ...s, status: adopt(s, o) }, violations: v };
}

export function remove(s: MailboxState, o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  if (s.removed) {
    if (o.http !== 404) v.push(must('STATE-ACCT-DELETE-REMOVED', `a second DELETE of a mailbox answered ${o.http}, not 404`));
  } else if (!is2xx(o.http)) v.push(must('STATE-ACCT-DELETE-REMOVED', `DELETE of ${a(s.status)} mailbox answered ${o.http}`));
  const next: MailboxState = is2xx(o.http) || s.removed ? { ...s, removed: true, held: false } : s;
  readRules(next, o, v);
  return { next, violations: v };
}

/**
 * A mailbox connected through OAuth (init, the owner's consent). The row "(none) -> POST
 * /v1/accounts -> inactive" is about POST /v1/accounts; the status an OAuth connection starts in
 * is not shown: any state, adopted, verification possibly running.
 */
export function connectedByOAuth(o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  if (!is2xx(o.http)) v.push(must('STATE-ACCT-OAUTH-REVOKED', `the OAuth connection (consent) answered ${o.http}`));
  const s: MailboxState = { removed: false, status: 'inactive', settled: false, held: false };
  readRules(s, o, v);
  return { next: { ...s, status: adopt(s, o) }, violations: v };
}

/** The OAuth grant is withdrawn (system event, control API): any OAuth mailbox -> revoked. */
export function grantWithdrawn(s: MailboxState, o: Obs): Step<MailboxState> {
  const v: Violation[] = [];
  if (s.removed) {
    readRules(s, o, v);
    return { next: s, violations: v };
  }
  if (o.readBack !== 'revoked') v.push(must('STATE-ACCT-OAUTH-REVOKED', `after the OAuth grant of ${a(s.status)} mailbox was withdrawn it reads back as ${show(o.readBack)}, not revoked`));
  // "any OAuth mailbox": a paused one too, so the pause hold gives way to the revocation.
  readRules({ ...s, held: false, revokedHold: false }, o, v);
  return { next: { ...s, status: 'revoked', settled: true, held: false, revokedHold: true }, violations: v };
}
