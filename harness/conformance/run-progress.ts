import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Level, Verdict } from '../ground/events.ts';
import { progressPrinter, type ProgressStream } from '../ground/progress.ts';
import { LiveEstimate, progressOptions, type EstimatedCheck, type EstimateEvent, type EstimateOptions, type LiveOptions, type SentEvent, type TimeLeft } from '../plan/live-estimate.ts';

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

type ProgressCheck = EstimatedCheck;
export type { SentEvent, EstimateOptions, TimeLeft };
export { progressOptions };
export type ProgressEvent = EstimateEvent;

/** An exchange event (a replay's) as the progress line reads it: a request to a workspace, or nothing. */
export function sentOf(e: { type: string; startedAt?: string; workspace?: number; checkId?: string }): SentEvent | undefined {
  if (e.type !== 'exchange' || e.workspace === undefined || e.startedAt === undefined) return undefined;
  return { type: 'sent', at: Date.parse(e.startedAt), ...(e.checkId !== undefined ? { checkId: e.checkId } : {}) };
}

/** The head of an exchange line sent with a workspace's key: its check (if any) and its start. */
const SENT_HEAD = /^\{"type":"exchange","id":"[^"]*"(?:,"checkId":"((?:[^"\\]|\\.)*)")?,"workspace":(\d+),"startedAt":"([^"]+)"/;

/** The counts a progress line shows, folded from check events, and the time left (the live estimate's). */
export class RunProgressState {
  readonly totalClauses: number;
  private readonly proven = new Set<string>();
  readonly verdicts: Record<Verdict, number> = { pass: 0, fail: 0, skip: 0, error: 0 };
  readonly failedByLevel: Record<Level, number> = { MUST: 0, SHOULD: 0, PROFILE: 0 };
  private readonly live: LiveEstimate;

  constructor(checks: readonly ProgressCheck[], o: EstimateOptions = {}) {
    this.totalClauses = new Set(checks.flatMap((c) => c.clauses)).size;
    this.live = new LiveEstimate(checks, o);
  }

  get total(): number {
    return this.live.total;
  }

  get done(): number {
    return this.live.done;
  }

  apply(events: readonly ProgressEvent[]): void {
    for (const e of events) {
      const counted = e.type === 'check-end' && !this.live.hasEnded(e.checkId);
      this.live.apply([e]);
      if (!counted) continue;
      this.verdicts[e.verdict]++;
      if (e.verdict === 'fail') this.failedByLevel[e.level]++;
      // A clause counts once a check that proves it reached a verdict on it (a skip or an error proves nothing).
      if (e.verdict === 'pass' || e.verdict === 'fail') for (const id of e.clauses) this.proven.add(id);
    }
  }

  /** The time left in ms and what it rests on (plan/live-estimate.ts). */
  estimate(now: number): TimeLeft | undefined {
    return this.live.estimate(now);
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
    const a = this.live.announced;
    if (a && this.done === this.total) parts.push(`announced ~${formatDuration(a.ms)}, took ${formatDuration(now - a.startedAt)} (${signedPercent((a.ms - (now - a.startedAt)) / Math.max(1, now - a.startedAt))})`);
    parts.push(this.activity(now));
    return parts.join('  ');
  }

  private activity(now: number): string {
    // Until the first look (where the run takes one) has been seen, it is what the checks wait for.
    if (this.live.firstStart === undefined) return `preparing: workspaces, sinks${this.live.looks ? ', a first look at the target' : ''}`;
    if (this.live.running.size === 0) return this.done === this.total ? 'finishing: cleanup and reports' : 'between checks';
    let oldest: [string, number] | undefined;
    for (const r of this.live.running) if (!oldest || r[1] < oldest[1]) oldest = r;
    const [id, since] = oldest!;
    const more = this.live.running.size - 1;
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

export interface RunProgressOptions extends LiveOptions {
  eventsPath: string;
  checks: readonly ProgressCheck[];
  out?: ProgressStream;
  /** Least time between plain lines (default: PROGRESS_PERIOD_ENV, else 5 s); a terminal line is redrawn every second. */
  plainEveryMs?: number;
}

export interface RunProgress {
  /** Erases the terminal line before other output (vitest's); the next tick draws it again. */
  clear(): void;
  /** Reads what is left, prints the last line and stops; idempotent. */
  stop(): void;
  /** A vitest reporter, put first: clears the line before vitest writes and stops once the checks are done. */
  readonly reporter: { onInit(): void; onUserConsoleLog(): void; onTestModuleEnd(): void; onTestRunEnd(): void };
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
