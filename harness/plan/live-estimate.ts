import type { Check } from '../ground/check.ts';
import type { CheckEndEvent, CheckStartEvent, FirstLookEvent, TargetWorkEvent } from '../ground/events.ts';
import type { Plan } from './planner.ts';
import { isLast, isSolo, runPhases, phaseMs } from './schedule.ts';
import { expectedDurationMs, expectedSettleMs, unhinderedFinishMs, type ClockMode } from './expected.ts';
import { OUTLIER, Pace, WINDOW_FILL, windowRoomMs, type Sent } from './time-left.ts';
import { kindOf, median, ownMs, pacedMs, type Kind, type TargetPace } from './target-pace.ts';

// The live estimate of a run's time left: what the progress line says as the checks finish,
// learned from this run's own pace (time-left.ts) and rate windows, from the plan's options.
// Folded from the run's events, so a replay of them (progress-replay) says what the line said.

/** What the estimate knows of a check: which phase it runs in (solo, last). */
export type EstimatedCheck = Pick<Check, 'id' | 'clauses' | 'solo' | 'last'>;

/** A request that went to one of the run's workspaces, when (and for which check, if one). */
export interface SentEvent {
  type: 'sent';
  at: number;
  checkId?: string;
}
export type EstimateEvent = CheckStartEvent | CheckEndEvent | SentEvent | TargetWorkEvent | FirstLookEvent;

export interface EstimateOptions {
  /** The planner's lower bound of the run's duration under the rate limit (0 when the first windows carry it). */
  rateBoundSeconds?: number;
  /** How many checks run at once in the concurrent phase (--concurrency). */
  concurrency?: number;
  /** How the target keeps time (which checks run alone; which measured durations apply). */
  clock?: ClockMode;
  /** The measured time after the last check (the clean-up). */
  finishMs?: number;
  /** A check's expected duration (default: its measurement, harness/plan/expected.ts). */
  expectedMs?: (id: string) => number;
  /**
   * How long a mailbox is expected to take to settle on this target (the expected durations'
   * own: the reference's, or this target's in the earlier runs they were learned from): the
   * engine-bound checks are expected to take what the mailboxes settling in this run
   * (TargetWorkEvent) took beyond it.
   */
  settleMs?: number;
  /**
   * What the rate limit allows, to re-estimate its bound from the requests left rather than count
   * the planner's down: each check's measured requests, the clean-up's, and the pool's windows
   * (harness/plan/time-left.ts windowRoomMs).
   */
  rate?: {
    requestsOf: (id: string) => number;
    cleanup: number;
    /** A check's measured clean-up (sent right after it ends); without it the whole `cleanup` counts as left until the end. */
    cleanupOf?: (id: string) => number;
    perWindow: number;
    windowMs: number;
    workspaces: number;
  };
  /** A first look at the target (before any check: FirstLookEvent): these options made again from it (none: they hold). */
  firstLook?: (e: FirstLookEvent) => EstimateOptions | undefined;
  /** The run's first estimate (the plan's) and when the run started: the last line compares them with the time taken. */
  announced?: { ms: number; startedAt: number };
}

/** How far the finished checks' requests may move the measured counts: damped until this many were measured. */
const REQUESTS_PRIOR = 50;

/** The time left and what it rests on: the checks left at this run's pace, or the rate windows. */
export interface TimeLeft {
  ms: number;
  from: 'pace' | 'rate limit';
  /** Actual over expected time of the finished checks: the short ones, those that wait on the target's engine, and those that wait on real time. */
  scales: { short: number; works: number; waiting: number };
}

type Optional = 'expectedMs' | 'rate' | 'announced' | 'settleMs' | 'firstLook';

function withDefaults(o: EstimateOptions): Required<Omit<EstimateOptions, Optional>> & Pick<EstimateOptions, Optional> {
  return { rateBoundSeconds: 0, concurrency: 8, clock: 'control', finishMs: 0, ...o };
}

/**
 * The time left of a run as it goes, folded from its events: the checks left at this run's pace
 * (learned by kind, and apart for the checks run beside others), or the rate windows.
 */
export class LiveEstimate {
  private readonly checks = new Map<string, EstimatedCheck>();
  /** The checks running, and since when (ms since the epoch). */
  readonly running = new Map<string, number>();
  private readonly ended = new Set<string>();
  /** When the first check started. */
  firstStart: number | undefined;
  /** How the finished checks compare with their measured durations, by kind (harness/plan/time-left.ts). */
  private readonly pace: Pace;
  /**
   * The same of the checks run beside others (the concurrent phase) alone. Where checks that jump
   * the control clock run alone first, they run without the others' contention for the machine and
   * the target: on a busy 2-core machine they ran at 0.6 of their measure and the checks beside
   * each other then at 3-4 times theirs, so the run's whole pace said "~9 s left" with 34 s to go.
   * Once a check of a kind has finished beside others, that kind of the concurrent phase goes at
   * this pace.
   */
  private readonly besidePace: Pace;
  /** And of the others (run alone, or observers of the whole run): what the concurrent phase's own pace is drawn from until it has enough checks. */
  private readonly apartPace: Pace;
  /** Measured and actual requests of the finished checks, and what went into the rate windows when. */
  private readonly sent = { expected: 0, actual: 0, windows: [] as Sent[] };
  /** How long the mailboxes took to settle in this run (TargetWorkEvent), in ms, and their median beyond what was expected (none before the first). */
  private readonly settled: number[] = [];
  private settleShiftMs: number | undefined;
  /** The requests the run was seen to send (exchange lines): when, and how many each running check sent so far. */
  private readonly seen = { windows: [] as Sent[], byCheck: new Map<string, number>() };
  private o: Required<Omit<EstimateOptions, Optional>> & Pick<EstimateOptions, Optional>;

  constructor(checks: readonly EstimatedCheck[], o: EstimateOptions = {}) {
    for (const c of checks) this.checks.set(c.id, c);
    this.o = withDefaults(o);
    // Against real time a check's time may hold waits for room in a rate window: outliers are capped.
    this.pace = new Pace(this.o.clock === 'real' ? OUTLIER : undefined);
    this.besidePace = new Pace(this.o.clock === 'real' ? OUTLIER : undefined);
    this.apartPace = new Pace(this.o.clock === 'real' ? OUTLIER : undefined);
  }

  /** Whether a check runs in the concurrent phase (schedule.ts runPhases): not alone, not an observer of the whole run. */
  private beside(c: EstimatedCheck | undefined): boolean {
    return !!c && !isLast(c) && !(isSolo(c) && this.o.clock === 'control');
  }

  get total(): number {
    return this.checks.size;
  }

  get done(): number {
    return this.ended.size;
  }

  /** Whether the check's end was folded in already (a second end event is ignored). */
  hasEnded(id: string): boolean {
    return this.ended.has(id);
  }

  /** The run's first estimate (the plan's) and when it started: the last line compares them with the time taken. */
  get announced(): EstimateOptions['announced'] {
    return this.o.announced;
  }

  /** Whether a first look at the target may remake the options. */
  get looks(): boolean {
    return !!this.o.firstLook;
  }

  apply(events: readonly EstimateEvent[]): void {
    for (const e of events) {
      if (e.type === 'first-look') {
        // It comes before any check starts: nothing learned so far rests on the expectations it replaces.
        const made = this.o.firstLook?.(e);
        if (made) this.o = withDefaults(made);
        continue;
      }
      if (e.type === 'target-work') {
        this.settled.push(e.ms);
        if (this.o.settleMs) this.settleShiftMs = median(this.settled) - this.o.settleMs;
        continue;
      }
      if (e.type === 'sent') {
        this.seen.windows.push({ at: e.at, requests: 1 });
        if (e.checkId !== undefined) this.seen.byCheck.set(e.checkId, (this.seen.byCheck.get(e.checkId) ?? 0) + 1);
        continue;
      }
      if (e.type === 'check-start') {
        const at = Date.parse(e.at);
        this.firstStart = Math.min(this.firstStart ?? at, at);
        if (!this.ended.has(e.checkId)) this.running.set(e.checkId, at);
        continue;
      }
      if (this.ended.has(e.checkId)) continue;
      const startedAt = this.running.get(e.checkId) ?? this.firstStart ?? 0;
      this.running.delete(e.checkId);
      this.ended.add(e.checkId);
      const expected = this.expectedOf(e.checkId);
      this.pace.add(expected.ms, ownMs(e), expected.kind);
      (this.beside(this.checks.get(e.checkId)) ? this.besidePace : this.apartPace).add(expected.ms, ownMs(e), expected.kind);
      const r = this.o.rate;
      if (r && e.verdict !== 'skip') {
        this.sent.expected += r.requestsOf(e.checkId);
        this.sent.actual += e.requests;
        // When in its run it sent them is not in its events: half at its start, half (and its clean-up) at its end.
        this.sent.windows.push({ at: startedAt, requests: e.requests / 2 }, { at: startedAt + e.durationMs, requests: e.requests / 2 + (r.cleanupOf?.(e.checkId) ?? 0) });
      }
    }
  }

  /**
   * The time left in ms and what it rests on. The checks left, in the run's phases and order,
   * simulated with their measured durations at this run's pace for their kind; a running one
   * for what is left of its own since it started. The rate limit: when the windows let the
   * requests left go. The larger one wins; then the clean-up after the last check.
   */
  estimate(now: number): TimeLeft | undefined {
    if (this.done === this.total) return undefined;
    const rate = this.rateBoundMs(now);
    const left = [...this.checks.values()].filter((c) => !this.ended.has(c.id));
    // The running checks past their expectation tell the pace of their kind already (they take at
    // least what they have run). Only against the control clock: against real time a check long
    // past its expectation mostly waits for room in a rate window, which the rate bound counts
    // apart (a staging run's short checks waiting out the second window said +208 % at half with it).
    const overrun = this.o.clock === 'control';
    const running = overrun ? [...this.running].map(([id, since]) => ({ expectedMs: this.expectedOf(id).ms, kind: this.expectedOf(id).kind, forMs: Math.max(0, now - since) })) : [];
    const scales = this.pace.scales(running);
    const besideScales = this.besideScales(scales, running);
    let pace = 0;
    for (const phase of runPhases(left, { clock: this.o.clock, requests: this.o.rate ? (c) => this.o.rate!.requestsOf(c.id) : undefined })) {
      const at = phase.concurrent ? besideScales : scales;
      const leftOf = (id: string, runningFor = 0) => {
        const expected = this.expectedOf(id);
        return this.pace.leftMs(expected.ms, runningFor, expected.kind, at[expected.kind], overrun);
      };
      const waiting = phase.checks.filter((c) => !this.running.has(c.id)).map((c) => leftOf(c.id));
      const busy = phase.checks.filter((c) => this.running.has(c.id)).map((c) => leftOf(c.id, now - this.running.get(c.id)!));
      pace += phaseMs(waiting, phase.concurrent, this.o.concurrency, busy);
    }
    return rate > pace ? { ms: rate + this.o.finishMs, from: 'rate limit', scales } : { ms: pace + this.o.finishMs, from: 'pace', scales };
  }

  /**
   * The concurrent phase's pace by kind: the run's until a check of the kind finished in it; then
   * its own checks', drawn (as the run's is drawn from the expectation) from the pace of the checks
   * run apart, so that a few checks move it most of the way. Where every finished check of the kind
   * ran in it, that is the run's pace.
   */
  private besideScales(scales: TimeLeft['scales'], running: Parameters<Pace['scales']>[0]): TimeLeft['scales'] {
    const prior = (k: Kind) => (this.apartPace.count(k) > 0 ? this.apartPace.scaleOf(k) : 1);
    const pick = (k: Kind) => (this.besidePace.count(k) > 0 ? this.besidePace.scaleOf(k, running, prior(k)) : scales[k]);
    return { short: pick('short'), works: pick('works'), waiting: pick('waiting') };
  }

  /**
   * The least time the rate limit leaves. Knowing the pool's windows: when the requests left can
   * go, as the windows free what went into them. A check's requests go half at its start, half at
   * its end (its events do not say when): a running one's first half has gone, the rest is left,
   * at its measured count scaled by how the finished checks' requests compared with theirs; each
   * check's clean-up goes after it. Otherwise the planner's bound, counted down from the first check.
   */
  private rateBoundMs(now: number): number {
    const r = this.o.rate;
    if (!r) return this.firstStart === undefined ? this.o.rateBoundSeconds * 1000 : Math.max(0, this.o.rateBoundSeconds * 1000 - (now - this.firstStart));
    const scale = (this.sent.actual + REQUESTS_PRIOR) / (this.sent.expected + REQUESTS_PRIOR);
    // Where the run's requests were seen going out, the windows hold what really went when; a
    // running check has what it has not sent yet left. Otherwise (events without exchanges) half
    // at a check's start, half at its end.
    const seen = this.seen.windows.length > 0;
    const windows = seen ? [...this.seen.windows] : [...this.sent.windows];
    let left = r.cleanupOf ? 0 : r.cleanup;
    for (const c of this.checks.values()) {
      if (this.ended.has(c.id)) continue;
      const at = this.running.get(c.id);
      const requests = r.requestsOf(c.id) * scale;
      if (at !== undefined && !seen) windows.push({ at, requests: requests / 2 });
      const sentSoFar = seen ? (this.seen.byCheck.get(c.id) ?? 0) : requests / 2;
      left += (at === undefined ? requests : Math.max(0, requests - sentSoFar)) + (r.cleanupOf?.(c.id) ?? 0);
    }
    return windowRoomMs(windows, left, r.workspaces * r.perWindow * WINDOW_FILL, r.windowMs, now);
  }

  private expectedMs(id: string): number {
    return this.o.expectedMs ? this.o.expectedMs(id) : expectedDurationMs({ id }, this.o.clock);
  }

  /**
   * A check's expected time and kind (by its expectation). A check that waits on the target's
   * engine settles a mailbox on the way: once mailboxes have settled in this run, it is expected
   * to take as much longer (or shorter) as they took beyond what its expectation assumed.
   */
  private expectedOf(id: string): { ms: number; kind: Kind } {
    const ms = this.expectedMs(id);
    const kind = kindOf(ms);
    if (kind !== 'works' || this.settleShiftMs === undefined) return { ms, kind };
    return { ms: Math.max(0, ms + this.settleShiftMs), kind };
  }
}

/** What of the plan the estimate starts from. */
export type LivePlan = Pick<Plan, 'minSeconds' | 'estimate'> & Partial<Pick<Plan, 'workspaces' | 'cleanup' | 'basis'>>;

/** A run's estimate options, before the plan's figures are folded in. */
export interface LiveOptions {
  plan: LivePlan;
  /** Each check's measured requests, and the rate limit: the rate bound is re-estimated from the requests left. */
  rate?: Pick<NonNullable<EstimateOptions['rate']>, 'requestsOf' | 'cleanupOf' | 'perWindow' | 'windowMs'>;
  /** Checks at once outside the solo phase (--concurrency). */
  concurrency: number;
  clock: ClockMode;
  /** When the run started (ms since the epoch). */
  startedAt: number;
  /** A first look at the target (FirstLookEvent): the plan made again from it (none: the plan holds). */
  firstLook?: (e: FirstLookEvent) => LivePlan | undefined;
}

/** The estimate's options for a run: the plan's bound and finish, and (given the rate) the re-estimated rate bound. */
export function progressOptions(opts: LiveOptions): EstimateOptions {
  const { plan, rate, firstLook } = opts;
  return {
    rateBoundSeconds: plan.minSeconds,
    concurrency: opts.concurrency,
    clock: opts.clock,
    // Where the windows are simulated, their waits are in the rate bound: the finish is what it takes without them.
    finishMs: rate && plan.workspaces ? Math.min(plan.estimate.finishMs, unhinderedFinishMs(opts.clock)) : plan.estimate.finishMs,
    announced: { ms: plan.estimate.ms, startedAt: opts.startedAt },
    // Where the plan learned this target's pace, the line expects what it expected.
    ...(plan.basis?.pace ? { expectedMs: (id: string) => pacedMs(id, expectedDurationMs({ id }, opts.clock), plan.basis!.pace) } : {}),
    ...settleBaseline(plan.basis?.pace, opts.clock),
    ...(rate && plan.workspaces ? { rate: { ...rate, workspaces: plan.workspaces, cleanup: plan.cleanup ?? 0 } } : {}),
    // A first look comes once: the options made from it take none.
    ...(firstLook ? { firstLook: (e: FirstLookEvent) => remade(firstLook(e)) } : {}),
  };
  function remade(p: LivePlan | undefined): EstimateOptions | undefined {
    return p ? progressOptions({ ...opts, plan: p, firstLook: undefined }) : undefined;
  }
}

/**
 * What a mailbox's settling is expected to take where the expectations came from: the earlier
 * runs' (a learned pace), else the reference's alone; only against real time (the control API
 * settles a mailbox at once).
 */
function settleBaseline(pace: Pick<TargetPace, 'settleMs'> | undefined, clock: ClockMode): { settleMs?: number } {
  if (clock !== 'real') return {};
  const ms = pace ? pace.settleMs : expectedSettleMs();
  return ms ? { settleMs: ms } : {};
}
