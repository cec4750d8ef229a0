import type { Clause } from './types.ts';

// Part 3 "States and transitions": one clause per row condition, next state and side effect.
// Ids: STATE-CAMP-, STATE-ACCT-, STATE-LEAD-, STATE-LF-.
const M = (id: string, section: string, text: string): Clause => ({ id, section, text, level: 'MUST' });
const S = (id: string, section: string, text: string): Clause => ({ id, section, text, level: 'SHOULD' });
const P = (id: string, section: string, text: string): Clause => ({ id, section, text, level: 'PROFILE' });

const CAMPAIGN: Clause[] = [
  M('STATE-CAMP-STATES', '3.1', 'Campaign states: `draft`, `scheduled`, `active`, `paused`, `stopped`, `completed`, `failed` (a campaign is always in one of them).'),
  M('STATE-CAMP-CREATE-DRAFT', '3.1', '(none) -> POST /v1/campaigns, valid body -> draft.'),
  M('STATE-CAMP-CREATE-LAUNCH-ATTEMPT', '3.1', 'POST /v1/campaigns: with `launch` true a launch is attempted.'),
  M('STATE-CAMP-CREATE-LAUNCH-FAIL-EXISTS', '3.1', 'POST /v1/campaigns with `launch` true: if it cannot launch the campaign still exists.'),
  M('STATE-CAMP-CREATE-LAUNCH-FAIL-FLAG', '3.1', 'POST /v1/campaigns with `launch` true: if it cannot launch, `launched` is false.'),
  M('STATE-CAMP-CREATE-LAUNCH-FAIL-REASON', '3.1', 'POST /v1/campaigns with `launch` true: if it cannot launch, `launchError` gives the reason.'),
  S('STATE-CAMP-CREATE-LAUNCH-OK', '3.1', 'Reading: when `launched` is true, sending has begun as for start (the campaign is no longer `draft`).'),
  S('STATE-CAMP-CREATE-NO-LAUNCH', '3.1', 'Reading: without `launch` (or with `launch` false) the campaign stays `draft` and `launched` is false.'),
  M('STATE-CAMP-START-REQUIRES-LEADS', '3.1', 'POST /v1/campaigns/{id}/start: condition: campaign has leads; otherwise 400.'),
  M('STATE-CAMP-START-REQUIRES-SEQUENCE', '3.1', 'POST /v1/campaigns/{id}/start: condition: campaign has a sequence; otherwise 400.'),
  M('STATE-CAMP-START-BEGINS', '3.1', 'Start from any startable state: sending begins.'),
  M('STATE-CAMP-START-STATUS-REPORTED', '3.1', 'Start: the status after the call is in the response `status` field (the campaign read afterwards has that status).'),
  M('STATE-CAMP-START-SCOPE', '3.1', 'Start: needs scope `campaigns:lifecycle`.'),
  S('STATE-CAMP-START-FROM-DRAFT', '3.1', 'Reading of "any startable state": a `draft` campaign with leads and a sequence is startable.'),
  S('STATE-CAMP-START-NO-STATE-CHANGE-ON-400', '3.1', 'Reading: a start refused with 400 leaves the campaign status unchanged.'),
  M('STATE-CAMP-RESUME-FROM-PAUSED', '3.1', 'paused -> POST /v1/campaigns/{id}/resume -> sending continues.'),
  M('STATE-CAMP-RESUME-NEEDS-MAILBOX', '3.1', 'Resume: condition: workspace has at least one mailbox, otherwise 400.'),
  M('STATE-CAMP-RESUME-CONTINUES', '3.1', 'Resume: sending continues from where it left off (no email already sent is sent again).'),
  M('STATE-CAMP-RESUME-UNSENDABLE-OK', '3.1', 'Resume: a mailbox that exists but cannot send now (disconnected, reauthorizing, DNS below the sending floor) does not block the resume.'),
  P('STATE-CAMP-OTHER-PROFILE', '3.1', 'Transitions for pause, stop, complete, fail and schedule: not shown (profile).'),
];

const MAILBOX: Clause[] = [
  M('STATE-ACCT-STATES', '3.2', 'Mailbox states: `active`, `inactive`, `checking`, `revoked`, `failed`.'),
  M('STATE-ACCT-CREATE-INACTIVE', '3.2', '(none) -> POST /v1/accounts, element valid -> inactive.'),
  M('STATE-ACCT-CREATE-VERIFY', '3.2', 'POST /v1/accounts: verified in the background; poll the mailbox for the outcome (the outcome becomes visible on the mailbox without another call).'),
  M('STATE-ACCT-PAUSE-ACTIVE-ONLY', '3.2', 'POST /v1/accounts/{id}/pause: status must be active, otherwise 400.'),
  M('STATE-ACCT-PAUSE-INACTIVE', '3.2', 'active -> pause -> inactive.'),
  M('STATE-ACCT-PAUSE-SKIPPED', '3.2', 'Paused mailbox: campaigns skip it (the warmup half of the rule: STATE-ACCT-PAUSE-WARMUP-SKIPPED).'),
  M('STATE-ACCT-PAUSE-WARMUP-SKIPPED', '3.2', 'Paused mailbox: warmup skips it.'),
  M('STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE', '3.2', 'Paused mailbox: nothing re-activates it automatically, only a resume.'),
  M('STATE-ACCT-RESUME-CHECKING', '3.2', 'inactive or failed -> resume (referenced) -> checking and re-verification.'),
  M('STATE-ACCT-RESUME-FAILED-RECHECK', '3.2', 'A failed mailbox is re-checked by resume.'),
  M('STATE-ACCT-PATCH-CREDS-ROTATE', '3.2', 'any -> PATCH with any `smtp*` or `imap*` field: credentials rotated.'),
  M('STATE-ACCT-PATCH-CREDS-REVERIFY', '3.2', 'any -> PATCH with any `smtp*` or `imap*` field: verification re-run.'),
  S('STATE-ACCT-PATCH-NO-CREDS-NO-REVERIFY', '3.2', 'Reading: a PATCH without any `smtp*` or `imap*` field does not re-run verification nor change the status.'),
  M('STATE-ACCT-SEND-FAILURES-FAILED', '3.2', 'active -> repeated sending failures (system) -> failed.'),
  M('STATE-ACCT-FAILED-STATUSMESSAGE', '3.2', 'Failed mailbox: `statusMessage` holds the provider reason.'),
  P('STATE-ACCT-SEND-FAILURES-PROFILE', '3.2', 'How many repeated sending failures turn an active mailbox failed, and whether a recipient refused at RCPT TO counts as one: not shown (profile: declarations.sendFailuresBeforeFailed, declarations.recipientRefusal).'),
  M('STATE-ACCT-OAUTH-REVOKED', '3.2', 'any OAuth mailbox -> OAuth grant withdrawn (system) -> revoked.'),
  M('STATE-ACCT-REVOKED-RECONNECT', '3.2', 'Revoked mailbox: the mailbox must be reconnected (it does not become active by itself).'),
  M('STATE-ACCT-DELETE-REMOVED', '3.2', 'any -> DELETE /v1/accounts/{id} -> removed (later reads of it answer 404).'),
  M('STATE-ACCT-DELETE-STOPS-SENDING', '3.2', 'DELETE /v1/accounts/{id}: sending stops immediately.'),
  P('STATE-ACCT-VERIFY-MAPPING-PROFILE', '3.2', 'Mapping of verification outcomes to status values: not shown (profile).'),
];

const LEAD: Clause[] = [
  M('STATE-LEAD-USER-SETTABLE', '3.3', 'User-settable statuses: `lead_replied_interested`, `lead_replied_meeting_request`, `lead_replied_out_of_office`, `lead_replied_wrong_person`, `lead_replied_not_interested`, `lead_replied_unsubscribed`, `lead_replied_uncategorized`, `lead_converted`, `lead_lost`, `blacklisted`.'),
  M('STATE-LEAD-REPLIED-AFTER-REPLY', '3.3', 'Set status (PATCH lead, or mutate `set_status`) to a `lead_replied_*` status or `lead_converted`, when the lead has already replied: status set.'),
  M('STATE-LEAD-REPLIED-BEFORE-REPLY', '3.3', 'Set status to a `lead_replied_*` status or `lead_converted`: condition "lead has already replied" (a lead that has not replied keeps its status; the request is refused).'),
  M('STATE-LEAD-LOST-ANYTIME', '3.3', 'Set status to `lead_lost`: any time: status set.'),
  M('STATE-LEAD-BLACKLISTED-ANYTIME', '3.3', 'Set status to `blacklisted`: any time: status set.'),
  M('STATE-LEAD-PLATFORM-REJECTED', '3.3', 'Set status to a platform-managed status such as `email_sent` or `scheduled`: rejected.'),
  M('STATE-LEAD-RULES-BOTH-PATHS', '3.3', 'The status rules hold for both ways of setting it: PATCH lead and mutate `set_status`.'),
  S('STATE-LEAD-UNKNOWN-STATUS-REJECTED', '3.3', 'Reading: setting a status that is neither user-settable nor platform-managed (an unknown value) is rejected.'),
  M('STATE-LEAD-EMAIL-CHANGE-UNCONTACTED', '3.3', 'Change `email` via PATCH when the lead is not yet contacted: email changed.'),
  M('STATE-LEAD-EMAIL-CHANGE-CONTACTED', '3.3', 'Change `email` via PATCH: otherwise (lead already contacted) rejected.'),
  M('STATE-LEAD-DELETE-SOFT', '3.3', 'DELETE lead, contacted lead: soft-deleted.'),
  M('STATE-LEAD-DELETE-RETENTION', '3.3', 'DELETE lead: a retention window in days is returned as `retentionDays`.'),
  S('STATE-LEAD-DELETE-HIDDEN', '3.3', 'Reading: a deleted lead (soft or not) no longer appears in the campaign\'s leads nor in search, and further PATCH or DELETE of it answer 404.'),
  P('STATE-LEAD-PLATFORM-PROFILE', '3.3', 'Transitions of platform-managed lead statuses: not shown (profile).'),
];

const LEAD_SEARCH: Clause[] = [
  M('STATE-LF-STATES', '3.4', 'Lead search states are listed in 2.8.'),
  M('STATE-LF-DISCOVERY-FINISHED', '3.4', '`discoveryFinished` becomes true when discovery ends while later phases may continue.'),
  S('STATE-LF-DISCOVERY-MONOTONIC', '3.4', 'Reading: once `discoveryFinished` is true it stays true.'),
  M('STATE-LF-COMPLETEDAT-TERMINAL', '3.4', '`completedAt` is set when a terminal state is reached.'),
  S('STATE-LF-TERMINAL-STABLE', '3.4', 'Reading: a search in a terminal state (`completed`, `stopped`, `failed`) stays there and keeps its `completedAt`.'),
  S('STATE-LF-PROGRESS-MONOTONIC', '3.4', 'Reading: progress counters never decrease while a search runs.'),
  P('STATE-LF-TRANSITIONS-PROFILE', '3.4', 'Transitions between search states: not shown (profile).'),
];

export const CLAUSES_PART3: readonly Clause[] = [...CAMPAIGN, ...MAILBOX, ...LEAD, ...LEAD_SEARCH];
