// The event stream: one record per exchange and per check result. Every report is written
// from this stream alone (NDJSON on disk, `reports/<run>/events.ndjson`).
// Secrets are redacted BEFORE a record is emitted; writers never see a raw key or password.

export type Verdict = 'pass' | 'fail' | 'skip' | 'error';
export type Outcome = Verdict | 'not-covered';
import type { MachineCause } from './machine-causes.ts';
import type { TypedFailure } from './failure.ts';
import type { Level } from './spec-model/clauses/types.ts';
export type { Level };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string; // as sent (redacted), omitted when none
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body?: string; // as received (redacted), truncated to 64 KiB
}

export interface ExchangeEvent {
  type: 'exchange';
  id: string; // unique within the run, e.g. "x000123"
  checkId?: string;
  /** The pool index of the workspace whose key sent it (what the run created there is its to clean up). */
  workspace?: number;
  startedAt: string; // ISO 8601
  durationMs: number;
  /** How long it waited on the kit's own rate budget before it left (HAR timings.blocked); absent when it did not. */
  queuedMs?: number;
  request: RecordedRequest;
  response?: RecordedResponse; // absent when the transport failed
  error?: string; // transport failure
  curl: string; // a curl line that reproduces the request (redacted)
}

export interface RunStartEvent {
  type: 'run-start';
  runId: string;
  startedAt: string;
  kit: { name: string; version: string };
  /** The spec the kit was written from; `file`: a spec given with --spec, compared with it. */
  spec: { version: string; sha256: string; file?: { path: string; sha256: string; matches: boolean } };
  target: { baseUrl: string; name?: string; embedded: boolean };
  depth: string;
  profile: unknown; // the profile as loaded, secrets redacted
  /** Known failures given with `run --baseline FILE` (validated; every check id exists). */
  baseline?: Baseline;
  /** The plan's prediction: what the run's own selection would catch of the reference target's mutants (the kill matrix). */
  detection?: RunDetection;
}

/** Of the reference target's mutants, those some chosen check kills (kill matrix), and the cheapest killers of each one missed. */
export interface RunDetection {
  killed: number;
  total: number;
  /** What the figure rests on ("the kill matrix of kit 0.1.0 over the 386 checks that ran to a verdict"). */
  basis?: string;
  missed: { mutant: string; killers: { check: string; requests: number; depth: string }[] }[];
}

/** One known failure: a check expected to fail, why, and (optionally) the last day it holds (UTC). */
export interface BaselineEntry {
  check: string;
  reason: string;
  /** YYYY-MM-DD: the entry holds through that day (UTC); from the next day its failure counts again. */
  expires?: string;
}

export interface Baseline {
  /** The file as given on the command line. */
  file: string;
  entries: BaselineEntry[];
}

export interface CheckStartEvent {
  type: 'check-start';
  checkId: string;
  at: string;
}

export interface CheckEndEvent {
  type: 'check-end';
  checkId: string;
  title: string;
  clauses: string[];
  level: Level;
  verdict: Verdict;
  message?: string; // why it failed, errored or was skipped
  /** A failure's kind and fields as data (harness/ground/failure.ts), where the check threw one. */
  failure?: TypedFailure;
  /** A skip this machine caused (harness/ground/machine-causes.ts), not the target or its profile. */
  machineCause?: MachineCause;
  evidence?: string[]; // exchange ids that prove the failure (or the pass)
  durationMs: number;
  /**
   * Of durationMs, the time the check waited on the kit itself, not on the target: its requests
   * held for room in a workspace's rate window, and a workspace to lease. Absent when none.
   */
  waitedMs?: number;
  /** Requests this check sent to the target (control API calls are counted apart). */
  requests: number;
  /** Calls this check made to the conformance-control API. */
  controlRequests?: number;
}

/**
 * A wait on the target's own background work that a check saw end, without the control API to run
 * it at once: `mailbox-settle`, a mailbox reaching its verification outcome after it was created
 * or changed (suites/checks/resources/lib.ts settle). How long it took here is the earliest sign
 * of how fast this target's engine is (harness/conformance/run-progress.ts).
 */
export interface TargetWorkEvent {
  type: 'target-work';
  checkId: string;
  what: 'mailbox-settle';
  at: string;
  ms: number;
}

/**
 * A first look at a target the kit knows nothing of yet (a first run against it): before any
 * check starts, how long it takes to answer (the median of a few requests without a key); without
 * the control API, how long it takes to verify one mailbox at the kit's sinks in its own time;
 * with it, a control round trip (GET /clock), a drain with nothing due and a drain with one
 * mailbox's verification due. The run's estimate is made again from it
 * (harness/plan/first-look-pace.ts). `error`: why it could not be taken (the estimate keeps the
 * reference's durations).
 */
/** The id a first look's exchanges carry (it runs like a check, but is none). */
export const FIRST_LOOK_ID = 'first-look';

export interface FirstLookEvent extends Partial<FirstLookMeasure> {
  type: 'first-look';
  at: string;
  error?: string;
}

/** What a first look measures (suites/lib/first-look.ts). */
export interface FirstLookMeasure {
  /** Median time to answer a request without a key, in ms. */
  answerMs: number;
  /** From the mailbox's creation answer to its verification outcome, in ms; absent where none came within the wait (or the control API drained it). */
  settleMs?: number;
  /** With the control API: the median GET /clock round trip, in ms. */
  controlMs?: number;
  /** With the control API: a drain of a workspace with nothing due (POST /work/drain), in ms. */
  drainMs?: number;
  /** With the control API: a drain with one mailbox's verification due (at the kit's sinks), in ms; absent without sinks. */
  workDrainMs?: number;
}

/** What the reference's own first look measured (harness/plan/expected-requests.json): the baseline a target's is set against. */
export type FirstLookReference = Omit<FirstLookMeasure, 'answerMs'> & { answerMs: number };

/** What a pace made from a first look rests on: this target's answer, verification and control times, and the reference's, in ms. */
export interface FirstLookBasis extends FirstLookMeasure {
  reference: FirstLookReference;
}

/** The target's background work seen in a run: how many waits of each kind, and their median. */
export type TargetWorkStats = Partial<Record<TargetWorkEvent['what'], { count: number; medianMs: number }>>;

export interface RunEndEvent {
  type: 'run-end';
  finishedAt: string;
  /**
   * requests: sent to the target; controlRequests: to the control API; plannedRequests: the
   * planner's estimate; requestBudget: the budget that chose the checks, and notStartedForBudget:
   * the chosen checks the runner did not start because the target had made the run send more
   * than measured (harness/runner/request-budget.ts).
   */
  stats: { requests: number; controlRequests?: number; plannedRequests?: number; requestBudget?: number; notStartedForBudget?: number; unplanned429: number; plannedMs?: number; actualMs: number; estimate?: EstimateRecord; targetWork?: TargetWorkStats; firstLook?: Omit<FirstLookEvent, 'type'> };
  /** Measured after the run: the mutants the checks that ran to a verdict (pass or fail) kill, by the kill matrix. */
  detection?: RunDetection;
}

/** The run's estimate: the first one and what it rested on, its final error, and the progress line's when half the checks were done. */
export interface EstimateRecord {
  /** The plan's estimate before the run (the announced time), in ms. */
  firstMs: number;
  /** What it rested on. */
  basis: {
    /** The measured durations it simulated: of the reference served alone (a target without the control API) or the embedded one. */
    durations: 'reference served alone' | 'embedded reference';
    /** This target's pace in earlier runs, which those durations were taken at (harness/plan/target-pace.ts): actual over measured time by kind, and the runs. */
    pace?: { short: number; works: number; waiting: number; runs: string[]; compared: { short: number; works: number; waiting: number }; own: Record<string, number>; settleMs?: number; firstLook?: FirstLookBasis; startMs?: number };
    rateLimit: { requests: number; windowSeconds: number };
    workspaces: number;
    concurrency: number;
    /** The phases simulated with those durations, and the rate limit's floor for the planned requests: the larger one bound it. */
    checksMs: number;
    rateFloorMs: number;
    from: 'durations' | 'rate limit';
  };
  /** Where a first look re-made it (FirstLookEvent, then announced): the plan's estimate before it, in ms. */
  beforeFirstLookMs?: number;
  /** (announced - actual) / actual. */
  finalError: number;
  /** The progress line's estimate of the time left when half the checks were done, replayed from the events (harness/conformance/progress-replay.ts). */
  halfway?: {
    atMs: number;
    leftMs: number;
    actualLeftMs: number;
    error: number;
    /** What it rested on then: the checks left at the run's pace, or the rate windows; and the paces (actual over measured time) of the short checks and of those that wait on real time. */
    from?: 'pace' | 'rate limit';
    scales?: { short: number; works?: number; waiting: number };
  };
  /**
   * The same when half the run's time had passed (replayed at the line's tick): where the checks
   * that run alone fill most of the run, half the checks are done in its last seconds, and the
   * error on the few seconds left then says little of what a watcher saw.
   */
  midway?: { atMs: number; leftMs: number; actualLeftMs: number; error: number; from?: 'pace' | 'rate limit' };
}

/**
 * The run could not prepare (a key or control token refused, a workspace that does not answer,
 * sinks that cannot start): no verdict follows, the CLI exits 2 with this message.
 */
export interface SetupErrorEvent {
  type: 'setup-error';
  message: string;
}

export interface MutationEvent {
  type: 'mutation';
  score: number;
  mutants: { id: string; clauses: string[]; killed: boolean; killedBy: string[] }[];
}

export type RunEvent = RunStartEvent | CheckStartEvent | CheckEndEvent | ExchangeEvent | RunEndEvent | MutationEvent | SetupErrorEvent | TargetWorkEvent | FirstLookEvent;

/** Anything that accepts events: the NDJSON file, the console progress line, an in-memory list. */
export interface EventSink {
  emit(event: RunEvent): void;
}
