import { a, is2xx, isIsoTimestamp, must, should, show, type Step, type Violation } from './core.ts';

// Spec 3.4 (with the fields of 2.8) Lead search, as a pure model.
//
//   states: draft, queued, discovering, processing, crawling, enriching, verifying,
//           completed, stopped, failed
//   `discoveryFinished` becomes true when discovery ends; later phases (crawl, enrich) may continue
//   `completedAt` is set when a terminal state is reached, null while running
//   `errorMessage` is set when status is `failed`, otherwise null
//   Transitions between search states: NOT SHOWN.
//
// The transitions are not shown, so the model never predicts the next status: it adopts the one
// read back and checks the invariants that tie the fields to the status and to the history:
// - status is one of the ten (STATE-LF-STATES);
// - terminal (completed, stopped, failed) <=> completedAt is a timestamp (STATE-LF-COMPLETEDAT-TERMINAL,
//   LF-COMPLETEDAT-NULL-RUNNING);
// - failed <=> errorMessage is a string, else null (LF-ERRORMESSAGE-FAILED / -NULL);
// - discoveryFinished is false while discovery has not ended (draft, queued, discovering) and true
//   once the search `completed` (discovery ended with everything else); in processing, crawling,
//   enriching, verifying, stopped, failed it may be either (phases overlap; a stopped or failed
//   search may never have finished discovering) (STATE-LF-DISCOVERY-FINISHED);
// - readings (SHOULD): discoveryFinished never goes back to false; a terminal search keeps its
//   status and its completedAt; progress counters never decrease.
// The checks drive the search through the control API only forward through the phases (the order
// of 2.8) or into a terminal state, never out of one: moves a real search cannot make are not
// asked for, and whatever the target does with an advance is adopted, not predicted.

export const LEAD_SEARCH_PHASES = ['draft', 'queued', 'discovering', 'processing', 'crawling', 'enriching', 'verifying'] as const;
export const LEAD_SEARCH_TERMINAL = ['completed', 'stopped', 'failed'] as const;
export const LEAD_SEARCH_STATES = [...LEAD_SEARCH_PHASES, ...LEAD_SEARCH_TERMINAL] as const;
export type LeadSearchStatus = (typeof LEAD_SEARCH_STATES)[number];

const BEFORE_DISCOVERY_END: readonly string[] = ['draft', 'queued', 'discovering'];

export const isTerminal = (s: unknown): boolean => (LEAD_SEARCH_TERMINAL as readonly unknown[]).includes(s);
export const isLeadSearchStatus = (s: unknown): s is LeadSearchStatus => (LEAD_SEARCH_STATES as readonly unknown[]).includes(s);

export interface Progress {
  companiesFound: number;
  companiesProcessed: number;
  emailsFound: number;
}
export const PROGRESS_KEYS = ['companiesFound', 'companiesProcessed', 'emailsFound'] as const;

export interface LeadSearchState {
  status: LeadSearchStatus;
  discoveryFinished: boolean;
  completedAt: string | null;
  progress: Progress;
}

/** The lead search as read back (GET /v1/lead-searches/{id}). */
export interface LeadSearchView {
  status?: unknown;
  discoveryFinished?: unknown;
  completedAt?: unknown;
  errorMessage?: unknown;
  progress?: unknown;
}

function invariants(prev: LeadSearchState | null, r: LeadSearchView, v: Violation[]): void {
  const st = r.status;
  if (!isLeadSearchStatus(st)) v.push(must('STATE-LF-STATES', `status ${show(st)} is not one of ${LEAD_SEARCH_STATES.join(', ')}`));
  if (isTerminal(st)) {
    if (!isIsoTimestamp(r.completedAt)) v.push(must('STATE-LF-COMPLETEDAT-TERMINAL', `${a(st)} search has completedAt ${show(r.completedAt)}, not a timestamp`));
  } else if (isLeadSearchStatus(st) && r.completedAt !== null && r.completedAt !== undefined) {
    v.push(must('LF-COMPLETEDAT-NULL-RUNNING', `${a(st)} search (still running) has completedAt ${show(r.completedAt)}, not null`));
  }
  if (st === 'failed') {
    if (typeof r.errorMessage !== 'string' || r.errorMessage === '') v.push(must('LF-ERRORMESSAGE-FAILED', `a failed search has errorMessage ${show(r.errorMessage)}`));
  } else if (isLeadSearchStatus(st) && r.errorMessage !== null && r.errorMessage !== undefined) {
    v.push(must('LF-ERRORMESSAGE-NULL', `${a(st)} search has errorMessage ${show(r.errorMessage)}, not null`));
  }
  if (typeof r.discoveryFinished !== 'boolean') v.push(must('STATE-LF-DISCOVERY-FINISHED', `discoveryFinished is ${show(r.discoveryFinished)}, not a boolean`));
  else if (typeof st === 'string' && BEFORE_DISCOVERY_END.includes(st) && r.discoveryFinished && !prev?.discoveryFinished)
    v.push(must('STATE-LF-DISCOVERY-FINISHED', `${a(st)} search says discoveryFinished true: discovery has not ended`));
  else if (st === 'completed' && r.discoveryFinished !== true) v.push(must('STATE-LF-DISCOVERY-FINISHED', 'a completed search says discoveryFinished false: discovery must have ended'));
  if (prev) {
    if (prev.discoveryFinished && r.discoveryFinished === false) v.push(should('STATE-LF-DISCOVERY-MONOTONIC', `discoveryFinished went back from true to false (now ${show(st)})`));
    if (isTerminal(prev.status)) {
      if (st !== prev.status) v.push(should('STATE-LF-TERMINAL-STABLE', `${a(prev.status)} search moved to ${show(st)}`));
      else if (r.completedAt !== prev.completedAt) v.push(should('STATE-LF-TERMINAL-STABLE', `${a(prev.status)} search changed its completedAt from ${prev.completedAt} to ${show(r.completedAt)}`));
    }
    const p = r.progress as Record<string, unknown> | undefined;
    for (const k of PROGRESS_KEYS) {
      const now = p?.[k];
      if (typeof now === 'number' && now < prev.progress[k]) v.push(should('STATE-LF-PROGRESS-MONOTONIC', `progress.${k} went down from ${prev.progress[k]} to ${now}`));
    }
  }
}

function adopt(prev: LeadSearchState | null, r: LeadSearchView): LeadSearchState {
  const p = (r.progress ?? {}) as Record<string, unknown>;
  const num = (k: (typeof PROGRESS_KEYS)[number]) => (typeof p[k] === 'number' ? (p[k] as number) : (prev?.progress[k] ?? 0));
  return {
    status: isLeadSearchStatus(r.status) ? r.status : (prev?.status ?? 'queued'),
    discoveryFinished: typeof r.discoveryFinished === 'boolean' ? r.discoveryFinished : (prev?.discoveryFinished ?? false),
    completedAt: typeof r.completedAt === 'string' ? r.completedAt : null,
    progress: { companiesFound: num('companiesFound'), companiesProcessed: num('companiesProcessed'), emailsFound: num('emailsFound') },
  };
}

/** The first read of a new search. */
export function created(r: LeadSearchView): Step<LeadSearchState> {
  const v: Violation[] = [];
  invariants(null, r, v);
  return { next: adopt(null, r), violations: v };
}

/**
 * Any later read (after an advance through the control API, a clock move, or nothing): transitions
 * are not shown, so the observed status is adopted; the invariants are checked against the history.
 */
export function observed(prev: LeadSearchState, r: LeadSearchView, readHttp = 200): Step<LeadSearchState> {
  if (!is2xx(readHttp)) return { next: prev, violations: [must('STATE-LF-STATES', `the lead search could not be read back: ${readHttp}`)] };
  const v: Violation[] = [];
  invariants(prev, r, v);
  return { next: adopt(prev, r), violations: v };
}

/** Statuses a command may advance to from `s`: forward through the phases, or terminal. */
export function forwardTargets(s: LeadSearchStatus): LeadSearchStatus[] {
  if (isTerminal(s)) return [];
  const i = (LEAD_SEARCH_PHASES as readonly string[]).indexOf(s);
  return [...LEAD_SEARCH_PHASES.slice(Math.max(i, 1)), ...LEAD_SEARCH_TERMINAL] as LeadSearchStatus[];
}
