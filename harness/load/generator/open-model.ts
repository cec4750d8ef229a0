import { performance } from 'node:perf_hooks';

// The open-model generator: request i is due at start + i / rate, whatever happened to the
// requests before it (no coordinated omission). Latency is measured from that intended time
// (corrected) and, apart, from the moment the request left (service). A request that leaves
// later than `lateAfterMs` past its intended time is counted late, never silently re-timed:
// its corrected latency still counts from the schedule.
//
// Waiting for the next send (`precision`): by default ('timer') the generator waits on timers, and
// also sends whatever has fallen due each time a response completes. A timer wakes on a whole
// millisecond from when it was set, so when the next send is at most 0.5 ms away the generator
// blocks the thread for that fraction instead (a futex wait: no CPU) and sends; the event loop turns
// before the next such sleep. Sends leave within a few tenths of a millisecond of their time, for
// about the CPU of timers alone, and an answer arriving during such a sleep is read just after the
// send (at most 0.5 ms late; at 1,000 req/s most sends are preceded by a sleep, as a timer may wake
// up to a millisecond early, and at 2,000 req/s every other one is). Timers
// without `sleep` (the tests' simulated ones) wait on timers alone, and a send may then leave up to
// a millisecond after its time. 'sleep-last-ms' sleeps on a timer until about a millisecond before
// the next send, then blocks the thread in slices of at most 0.5 ms (a futex wait: no CPU) and
// returns to the event loop between slices: sends leave within a few tenths of a millisecond, for a
// little more CPU, and an answer may be read up to one slice late (service time then reads up to
// 0.5 ms high). 'spin-last-ms' polls the event loop (setImmediate) instead of sleeping: sends leave
// within tens of microseconds, at the price of a busy core. All three are measured side by side by
// `npm run bench:load`.

/** How the generator waits for the next send (see above). */
export type Precision = 'timer' | 'spin-last-ms' | 'sleep-last-ms';

/** The timers the generator waits on; tests pass simulated ones (with `now`) to run on a simulated clock. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setImmediate(fn: () => void): unknown;
  clearImmediate(handle: unknown): void;
  /** Blocks the thread for `ms` (fractions of a millisecond honoured); without it, 'timer' waits on timers alone. */
  sleep?(ms: number): void;
}

/** What 'sleep-last-ms' waits on (nothing ever notifies it: each wait times out). */
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

const NODE_TIMERS: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  setImmediate: (fn) => setImmediate(fn),
  clearImmediate: (h) => clearImmediate(h as NodeJS.Immediate),
  sleep: (ms) => void Atomics.wait(SLEEPER, 0, 0, ms),
};

export interface Shot {
  /** position in the schedule */
  index: number;
  /** ms since the run's start (performance clock) */
  intended: number;
  sent: number;
  done: number;
  /** HTTP status, 0 for a transport failure or timeout */
  status: number;
  late: boolean;
  error?: string;
}

export interface OpenModelOptions<T> {
  /** requests per second */
  rate: number;
  /** how long the schedule runs */
  durationMs: number;
  /** at most this many requests (default: rate x duration) */
  maxRequests?: number;
  /** exactly this many requests (a shard's slice of a longer schedule); overrides rate x duration */
  count?: number;
  /** request i is due at phaseMs + i / rate (a shard's place in the schedule it shares; default 0) */
  phaseMs?: number;
  /** the schedule's start on the `now` clock (a start instant chosen ahead; default: when the run starts) */
  origin?: number;
  /** a request leaving later than this past its intended time is late (default 1 ms) */
  lateAfterMs?: number;
  /** sends request `index`; resolves with the HTTP status (0 on transport failure) */
  send(index: number): Promise<{ status: number; value?: T; error?: string }>;
  /** called with every completed shot, in completion order */
  onShot?(shot: Shot, value: T | undefined): void;
  /** stop dispatching early (the run is still waited out) */
  signal?: AbortSignal;
  /** the clock (ms); tests may pass their own */
  now?: () => number;
  /** how to wait for the next send: 'timer' (default) or 'spin-last-ms' (see above) */
  precision?: Precision;
  /** the timers (default Node's); pass simulated ones together with `now` */
  timers?: Timers;
}

export interface OpenModelResult {
  /** ms on the performance clock at which the schedule started */
  origin: number;
  intended: number;
  sent: number;
  completed: number;
  late: number;
  /** wall time from the first intended send to the last completion */
  elapsedMs: number;
}

/** The most requests in flight at once, from the shots' send and completion times (a completion first on a tie). */
export function maxInFlight(shots: readonly Shot[]): number {
  const events = shots.flatMap((s) => [[s.sent, 1] as const, [s.done, -1] as const]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0;
  let max = 0;
  for (const [, d] of events) max = Math.max(max, (inFlight += d));
  return max;
}

export function scheduleSize(rate: number, durationMs: number, maxRequests?: number): number {
  const n = Math.floor((rate * durationMs) / 1000);
  return maxRequests === undefined ? n : Math.min(n, maxRequests);
}

/** The longest the event loop is held in one sleep: answers are read at most this late. */
const SLEEP_SLICE_MS = 0.5;

type Reply<T> = { status: number; value?: T; error?: string };

/**
 * Runs the schedule; resolves once every request sent has completed. `send` throwing or
 * rejecting counts as a transport failure (status 0). If `onShot` throws, dispatching stops and
 * the run rejects with that error once the requests in flight have completed.
 */
export function runOpenModel<T>(opts: OpenModelOptions<T>): Promise<OpenModelResult> {
  if (!(opts.rate > 0)) throw new Error(`rate must be above 0, got ${opts.rate}`);
  return new OpenModelRun(opts).start();
}

/** One run of the schedule: its counters, and how it waits for the next send. */
class OpenModelRun<T> {
  private readonly now: () => number;
  private readonly total: number;
  private readonly interval: number;
  private readonly lateAfter: number;
  private readonly timers: Timers;
  private readonly origin: number;
  private readonly phase: number;
  private next = 0;
  private inFlight = 0;
  private completed = 0;
  private late = 0;
  private last: number;
  private dispatching = true;
  private timer: unknown;
  private immediate: unknown;
  private failure: { error: unknown } | undefined;
  private resolve!: (r: OpenModelResult) => void;
  private reject!: (e: unknown) => void;

  constructor(private readonly opts: OpenModelOptions<T>) {
    this.now = opts.now ?? (() => performance.now());
    this.total = opts.count ?? scheduleSize(opts.rate, opts.durationMs, opts.maxRequests);
    this.interval = 1000 / opts.rate;
    this.phase = opts.phaseMs ?? 0;
    this.lateAfter = opts.lateAfterMs ?? 1;
    this.timers = opts.timers ?? NODE_TIMERS;
    this.origin = opts.origin ?? this.now();
    this.last = Math.max(this.origin, this.now());
  }

  start(): Promise<OpenModelResult> {
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      if (this.opts.signal?.aborted) {
        this.stop();
        return this.finish();
      }
      this.opts.signal?.addEventListener('abort', this.onAbort, { once: true });
      this.tick();
    });
  }

  private stop(): void {
    this.dispatching = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    if (this.immediate !== undefined) this.timers.clearImmediate(this.immediate);
    this.timer = this.immediate = undefined;
    this.opts.signal?.removeEventListener('abort', this.onAbort);
  }

  private finish(): void {
    if (this.dispatching || this.inFlight > 0) return;
    if (this.failure) return this.reject(this.failure.error);
    this.resolve({ origin: this.origin, intended: this.total, sent: this.next, completed: this.completed, late: this.late, elapsedMs: this.last - this.origin });
  }

  private readonly onAbort = (): void => {
    if (!this.dispatching) return;
    this.stop();
    this.finish();
  };

  private fire(index: number, intended: number): void {
    const sent = this.now() - this.origin;
    const late = sent - intended > this.lateAfter;
    if (late) this.late++;
    this.inFlight++;
    let pending: Promise<Reply<T>>;
    try {
      pending = this.opts.send(index);
    } catch (e) {
      pending = Promise.reject(e);
    }
    pending.then(
      (r) => this.settle(index, intended, sent, late, r.status, r.value, r.error),
      (e: unknown) => this.settle(index, intended, sent, late, 0, undefined, e instanceof Error ? e.message : String(e)),
    );
  }

  private settle(index: number, intended: number, sent: number, late: boolean, status: number, value: T | undefined, error: string | undefined): void {
    const t = this.now();
    if (t > this.last) this.last = t;
    this.inFlight--;
    this.completed++;
    const shot: Shot = { index, intended, sent, done: t - this.origin, status, late };
    if (error) shot.error = error;
    try {
      this.opts.onShot?.(shot, value);
    } catch (e) {
      this.failure ??= { error: e };
      this.stop();
    }
    if (this.dispatching) this.dispatchDue();
    this.finish();
  }

  /** When request `index` is due, ms after the origin. */
  private dueAt(index: number): number {
    return this.phase + index * this.interval;
  }

  /** Sends every request that has fallen due; false once the schedule is exhausted. */
  private dispatchDue(): boolean {
    const elapsed = this.now() - this.origin;
    while (this.dispatching && this.next < this.total && this.dueAt(this.next) <= elapsed) {
      const index = this.next++;
      this.fire(index, this.dueAt(index));
    }
    return this.dispatching && this.next < this.total;
  }

  private readonly tick = (): void => {
    this.timer = this.immediate = undefined;
    if (this.dispatching) this.sendDueThenWait(true);
  };

  /** Sends what fell due, then waits for the next send; `maySleep` as in waitForNext. */
  private sendDueThenWait(maySleep: boolean): void {
    if (!this.dispatchDue()) {
      this.stop();
      return this.finish();
    }
    this.waitForNext(maySleep);
  }

  /** `maySleep`: whether this turn of the event loop may still block ('timer' precision sleeps once a turn). */
  private waitForNext(maySleep: boolean): void {
    const wait = this.dueAt(this.next) - (this.now() - this.origin);
    const spin = this.opts.precision === 'spin-last-ms';
    const sleep = this.opts.precision === 'sleep-last-ms';
    if (!spin && !sleep) {
      // 'timer': a timer can only wake on a whole millisecond from now, so the last fraction of
      // a millisecond before a send is slept instead (when the timers can) and the send leaves;
      // a second sleep waits for the loop to turn once (answers come in).
      if (this.timers.sleep && wait <= SLEEP_SLICE_MS) {
        if (!maySleep) this.immediate = this.timers.setImmediate(this.tick);
        else {
          this.timers.sleep(wait);
          this.sendDueThenWait(false);
        }
      } else this.timer = this.timers.setTimeout(this.tick, Math.max(0, Math.floor(wait)));
      return;
    }
    // 'spin-last-ms' wakes a millisecond or two early and polls the rest.
    if (wait < 2.5) {
      // 'sleep-last-ms' blocks the thread in short slices (a futex wait costs no CPU) and goes
      // back to the event loop between them, so answers are still read within a slice.
      if (sleep && wait > 0) Atomics.wait(SLEEPER, 0, 0, Math.min(wait, SLEEP_SLICE_MS));
      this.immediate = this.timers.setImmediate(this.tick);
    } else this.timer = this.timers.setTimeout(this.tick, Math.max(0, Math.floor(wait) - 1));
  }
}
