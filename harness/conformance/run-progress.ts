import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Check } from '../ground/check.ts';
import type { CheckEndEvent, CheckStartEvent, FirstLookEvent, Level, TargetWorkEvent, Verdict } from '../ground/events.ts';
import type { Plan } from '../plan/planner.ts';
import { isLast, isSolo, runPhases, phaseMs } from '../plan/schedule.ts';
import { expectedDurationMs, expectedSettleMs, unhinderedFinishMs, type ClockMode } from '../plan/expected.ts';
import { progressPrinter, type ProgressStream } from '../ground/progress.ts';
import { OUTLIER, Pace, WINDOW_FILL, windowRoomMs, type Sent } from '../plan/time-left.ts';
import { kindOf, median, ownMs, pacedMs, type Kind, type TargetPace } from '../plan/target-pace.ts';

// The progress of a conformance run while vitest runs the checks in its worker: checks done out
// of the selection, clauses proven so far, failures so far, the time left and what is running.
//
// Where it comes from: the CLI (this process) follows the run's events.ndjson, reading on each
// tick only what was appended since the last one, rather than having the worker report. The
// stream is already the run's one source of truth: its check-end events carry the verdict and
// level exactly as the reports will count them (vitest's own test states fold a failed SHOULD
// check into a pass and an error into a failure). The worker writes one whole line per event
// with one synchronous write, so a tick sees whole events, and at worst the start of the next
// one, which it keeps until its newline arrives. No second channel from the worker, nothing
// that depends on vitest's pool or reporter protocol; exchange lines (the bulk of the file) are
// skipped without being parsed.

/** Milliseconds between two plain progress lines (not a terminal); 5000 unless set (tests use 1000). */
export const PROGRESS_PERIOD_ENV = 'OUTREACH_CONFORMANCE_PROGRESS_MS';

/** Reads the check events appended to an NDJSON file since the last read. */
export class CheckEventTail {
  private fd: number | undefined;
  private offset = 0;
  private partial = Buffer.alloc(0);

  constructor(readonly path: string) {}

  /**
   * The check-start and check-end events written since the last call (none while the file is
   * missing), and a `sent` mark for each request that went to a workspace (what fills its rate
   * window), read from the head of its exchange line without parsing the rest.
   */
  read(): ProgressEvent[] {
    if (this.fd === undefined) {
      try {
        this.fd = openSync(this.path, 'r');
      } catch {
        return [];
      }
    }
    const size = fstatSync(this.fd).size;
    if (size <= this.offset) return [];
    const fresh = Buffer.alloc(size - this.offset);
    let got = 0;
    while (got < fresh.length) {
      const n = readSync(this.fd, fresh, got, fresh.length - got, this.offset + got);
      if (n === 0) break;
      got += n;
    }
    this.offset += got;
    const bytes = this.partial.length ? Buffer.concat([this.partial, fresh.subarray(0, got)]) : fresh.subarray(0, got);
    // A newline byte never occurs inside a multi-byte UTF-8 character: cutting there is safe.
    const end = bytes.lastIndexOf(0x0a);
    this.partial = Buffer.from(bytes.subarray(end + 1));
    if (end < 0) return [];
    const out: ProgressEvent[] = [];
    for (const line of bytes.subarray(0, end).toString('utf8').split('\n')) {
      const sent = SENT_HEAD.exec(line);
      if (sent) {
        out.push({ type: 'sent', at: Date.parse(sent[3]!), ...(sent[1] !== undefined ? { checkId: JSON.parse(`"${sent[1]}"`) as string } : {}) });
        continue;
      }
      // Quotes inside JSON strings are escaped: this unescaped text is only ever an event's own type.
      if (!line.includes('"type":"check-') && !line.includes('"type":"target-work"') && !line.includes('"type":"first-look"')) continue;
      try {
        const e = JSON.parse(line) as { type?: string };
        if (e.type === 'check-start' || e.type === 'check-end' || e.type === 'target-work' || e.type === 'first-look') out.push(e as ProgressEvent);
      } catch {
        // A corrupt line is the reports' business (readEvents names it); progress goes on.
      }
    }
    return out;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

type ProgressCheck = Pick<Check, 'id' | 'clauses' | 'solo' | 'last'>;

/** A request that went to one of the run's workspaces, when (and for which check, if one). */
export interface SentEvent {
  type: 'sent';
  at: number;
  checkId?: string;
}
export type ProgressEvent = CheckStartEvent | CheckEndEvent | SentEvent | TargetWorkEvent | FirstLookEvent;

/** An exchange event (a replay's) as the progress line reads it: a request to a workspace, or nothing. */
export function sentOf(e: { type: string; startedAt?: string; workspace?: number; checkId?: string }): SentEvent | undefined {
  if (e.type !== 'exchange' || e.workspace === undefined || e.startedAt === undefined) return undefined;
  return { type: 'sent', at: Date.parse(e.startedAt), ...(e.checkId !== undefined ? { checkId: e.checkId } : {}) };
}

/** The head of an exchange line sent with a workspace's key: its check (if any) and its start. */
const SENT_HEAD = /^\{"type":"exchange","id":"[^"]*"(?:,"checkId":"((?:[^"\\]|\\.)*)")?,"workspace":(\d+),"startedAt":"([^"]+)"/;

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

/** The counts a progress line shows, folded from check events. */
export class RunProgressState {
  private readonly checks = new Map<string, ProgressCheck>();
  readonly totalClauses: number;
  private readonly running = new Map<string, number>();
  private readonly ended = new Set<string>();
  private readonly proven = new Set<string>();
  private firstStart: number | undefined;
  readonly verdicts: Record<Verdict, number> = { pass: 0, fail: 0, skip: 0, error: 0 };
  readonly failedByLevel: Record<Level, number> = { MUST: 0, SHOULD: 0, PROFILE: 0 };
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

  constructor(checks: readonly ProgressCheck[], o: EstimateOptions = {}) {
    for (const c of checks) this.checks.set(c.id, c);
    this.totalClauses = new Set(checks.flatMap((c) => c.clauses)).size;
    this.o = withDefaults(o);
    // Against real time a check's time may hold waits for room in a rate window: outliers are capped.
    this.pace = new Pace(this.o.clock === 'real' ? OUTLIER : undefined);
    this.besidePace = new Pace(this.o.clock === 'real' ? OUTLIER : undefined);
    this.apartPace = new Pace(this.o.clock === 'real' ? OUTLIER : undefined);
  }

  /** Whether a check runs in the concurrent phase (schedule.ts runPhases): not alone, not an observer of the whole run. */
  private beside(c: ProgressCheck | undefined): boolean {
    return !!c && !isLast(c) && !(isSolo(c) && this.o.clock === 'control');
  }

  get total(): number {
    return this.checks.size;
  }

  get done(): number {
    return this.ended.size;
  }

  apply(events: readonly ProgressEvent[]): void {
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
      this.verdicts[e.verdict]++;
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
      if (e.verdict === 'fail') this.failedByLevel[e.level]++;
      // A clause counts once a check that proves it reached a verdict on it (a skip or an error proves nothing).
      if (e.verdict === 'pass' || e.verdict === 'fail') for (const id of e.clauses) this.proven.add(id);
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

  /** One line: `checks 12/420  clauses 30/646  failed 0  ~1m05s left  running: X (6s) and 7 more`. */
  text(now: number): string {
    const parts = [`checks ${this.done}/${this.total}`, `clauses ${this.proven.size}/${this.totalClauses}`];
    const should = this.failedByLevel.SHOULD;
    parts.push(`failed ${this.verdicts.fail}${should ? ` (${should} SHOULD)` : ''}`);
    if (this.verdicts.error) parts.push(`errors ${this.verdicts.error}`);
    if (this.verdicts.skip) parts.push(`skipped ${this.verdicts.skip}`);
    const left = this.done === this.total ? undefined : this.estimate(now);
    // While a check is left, never "0s": the pace knows nothing of the checks still running.
    if (this.done < this.total) parts.push(left ? `~${formatDuration(Math.max(1000, left.ms))} left${left.from === 'rate limit' ? ' (rate limit)' : ''}` : 'time left: estimating');
    // Once every check is done: the first estimate against the time taken (its error).
    const a = this.o.announced;
    if (a && this.done === this.total) parts.push(`announced ~${formatDuration(a.ms)}, took ${formatDuration(now - a.startedAt)} (${signedPercent((a.ms - (now - a.startedAt)) / Math.max(1, now - a.startedAt))})`);
    parts.push(this.activity(now));
    return parts.join('  ');
  }

  private activity(now: number): string {
    // Until the first look (where the run takes one) has been seen, it is what the checks wait for.
    if (this.firstStart === undefined) return `preparing: workspaces, sinks${this.o.firstLook ? ', a first look at the target' : ''}`;
    if (this.running.size === 0) return this.done === this.total ? 'finishing: cleanup and reports' : 'between checks';
    let oldest: [string, number] | undefined;
    for (const r of this.running) if (!oldest || r[1] < oldest[1]) oldest = r;
    const [id, since] = oldest!;
    const more = this.running.size - 1;
    return `running: ${id} (${formatDuration(Math.max(0, now - since))})${more ? ` and ${more} more` : ''}`;
  }
}

/** +12 %, -3 %. */
export function signedPercent(x: number): string {
  const p = Math.round(x * 100);
  return `${p > 0 ? '+' : ''}${p} %`;
}

/** 42s, 3m05s, 1h02m. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export interface RunProgressOptions {
  eventsPath: string;
  checks: readonly ProgressCheck[];
  plan: Pick<Plan, 'minSeconds' | 'estimate'> & Partial<Pick<Plan, 'workspaces' | 'cleanup' | 'basis'>>;
  /** Each check's measured requests, and the rate limit: the rate bound is re-estimated from the requests left. */
  rate?: Pick<NonNullable<EstimateOptions['rate']>, 'requestsOf' | 'cleanupOf' | 'perWindow' | 'windowMs'>;
  /** Checks at once outside the solo phase (--concurrency). */
  concurrency: number;
  clock: ClockMode;
  /** When the run started (ms since the epoch): the line's elapsed time counts from it. */
  startedAt: number;
  out?: ProgressStream;
  /** Least time between plain lines (default: PROGRESS_PERIOD_ENV, else 5 s); a terminal line is redrawn every second. */
  plainEveryMs?: number;
  /** A first look at the target (FirstLookEvent): the plan made again from it, which the line then expects (none: the plan holds). */
  firstLook?: (e: FirstLookEvent) => RunProgressOptions['plan'] | undefined;
}

export interface RunProgress {
  /** Erases the terminal line before other output (vitest's); the next tick draws it again. */
  clear(): void;
  /** Reads what is left, prints the last line and stops; idempotent. */
  stop(): void;
  /** A vitest reporter, put first: clears the line before vitest writes and stops once the checks are done. */
  readonly reporter: { onInit(): void; onUserConsoleLog(): void; onTestModuleEnd(): void; onTestRunEnd(): void };
}

/** The estimate's options for a run: the plan's bound and finish, and (given the rate) the re-estimated rate bound. */
export function progressOptions(opts: Pick<RunProgressOptions, 'plan' | 'rate' | 'concurrency' | 'clock' | 'startedAt' | 'firstLook'>): EstimateOptions {
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
  function remade(p: RunProgressOptions['plan'] | undefined): EstimateOptions | undefined {
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

export function startRunProgress(opts: RunProgressOptions): RunProgress {
  const fromEnv = Number(process.env[PROGRESS_PERIOD_ENV]);
  const plainEveryMs = opts.plainEveryMs ?? (Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 5000);
  const printer = progressPrinter(opts.out ?? process.stderr, false, { plainEveryMs });
  const tail = new CheckEventTail(opts.eventsPath);
  const state = new RunProgressState(opts.checks, progressOptions(opts));
  let stopped = false;
  const tick = (force = false) => {
    const events = tail.read();
    // A first look's plan is said as a line of its own (the caller's): the progress line makes way.
    if (events.some((e) => e.type === 'first-look')) printer.clear();
    state.apply(events);
    const now = Date.now();
    printer.update({ elapsedMs: now - opts.startedAt, text: state.text(now) }, { force });
  };
  const timer = setInterval(() => tick(), Math.min(1000, plainEveryMs));
  timer.unref();
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    try {
      tick(true);
    } finally {
      printer.done();
      tail.close();
    }
  };
  const clear = () => {
    if (!stopped) printer.clear();
  };
  return {
    clear,
    stop,
    reporter: { onInit: clear, onUserConsoleLog: clear, onTestModuleEnd: stop, onTestRunEnd: stop },
  };
}
