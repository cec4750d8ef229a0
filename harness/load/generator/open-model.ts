import { performance } from 'node:perf_hooks';

// The open-model generator: request i is due at start + i / rate, whatever happened to the
// requests before it (no coordinated omission). Latency is measured from that intended time
// (corrected) and, apart, from the moment the request left (service). A request that leaves
// later than `lateAfterMs` past its intended time is counted late, never silently re-timed:
// its corrected latency still counts from the schedule.
//
// Waiting for the next send (`precision`): by default ('timer') the generator sleeps on timers,
// which wake on whole milliseconds, and also sends whatever has fallen due each time a response
// completes; it costs little CPU, and a send may leave up to a millisecond or two after its time
// (counted late beyond `lateAfterMs`). 'sleep-last-ms' sleeps on a timer until about a
// millisecond before the next send, then blocks the thread in slices of at most 0.5 ms (a futex
// wait: no CPU) and returns to the event loop between slices: sends leave within a few tenths of
// a millisecond, for a little more CPU, and an answer may be read up to one slice late (service
// time then reads up to 0.5 ms high). 'spin-last-ms' polls the event loop (setImmediate) instead
// of sleeping: sends leave within tens of microseconds, at the price of a busy core. All three
// are measured side by side by `npm run bench:load`.

/** How the generator waits for the next send (see above). */
export type Precision = 'timer' | 'spin-last-ms' | 'sleep-last-ms';

/** The timers the generator waits on; tests pass simulated ones (with `now`) to run on a simulated clock. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setImmediate(fn: () => void): unknown;
  clearImmediate(handle: unknown): void;
}

const NODE_TIMERS: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  setImmediate: (fn) => setImmediate(fn),
  clearImmediate: (h) => clearImmediate(h as NodeJS.Immediate),
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

/** What 'sleep-last-ms' waits on (nothing ever notifies it: each wait times out). */
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
/** The longest the event loop is held in one sleep: answers are read at most this late. */
const SLEEP_SLICE_MS = 0.5;

/**
 * Runs the schedule; resolves once every request sent has completed. `send` throwing or
 * rejecting counts as a transport failure (status 0). If `onShot` throws, dispatching stops and
 * the run rejects with that error once the requests in flight have completed.
 */
export function runOpenModel<T>(opts: OpenModelOptions<T>): Promise<OpenModelResult> {
  if (!(opts.rate > 0)) throw new Error(`rate must be above 0, got ${opts.rate}`);
  const now = opts.now ?? (() => performance.now());
  const total = scheduleSize(opts.rate, opts.durationMs, opts.maxRequests);
  const interval = 1000 / opts.rate;
  const lateAfter = opts.lateAfterMs ?? 1;
  const spin = opts.precision === 'spin-last-ms';
  const sleep = opts.precision === 'sleep-last-ms';
  const signal = opts.signal;
  const timers = opts.timers ?? NODE_TIMERS;
  const origin = now();
  let next = 0;
  let inFlight = 0;
  let completed = 0;
  let late = 0;
  let last = origin;
  let dispatching = true;
  let timer: unknown;
  let immediate: unknown;
  let failure: { error: unknown } | undefined;

  return new Promise((resolve, reject) => {
    const stop = () => {
      dispatching = false;
      if (timer !== undefined) timers.clearTimeout(timer);
      if (immediate !== undefined) timers.clearImmediate(immediate);
      timer = immediate = undefined;
      signal?.removeEventListener('abort', onAbort);
    };
    const finish = () => {
      if (dispatching || inFlight > 0) return;
      if (failure) return reject(failure.error);
      resolve({ origin, intended: total, sent: next, completed, late, elapsedMs: last - origin });
    };
    const onAbort = () => {
      if (!dispatching) return;
      stop();
      finish();
    };

    const fire = (index: number, intended: number) => {
      const sent = now() - origin;
      const isLate = sent - intended > lateAfter;
      if (isLate) late++;
      inFlight++;
      const settle = (status: number, value: T | undefined, error?: string) => {
        const t = now();
        last = Math.max(last, t);
        inFlight--;
        completed++;
        try {
          opts.onShot?.({ index, intended, sent, done: t - origin, status, late: isLate, ...(error ? { error } : {}) }, value);
        } catch (e) {
          failure ??= { error: e };
          stop();
        }
        if (dispatching) dispatchDue();
        finish();
      };
      let pending: Promise<{ status: number; value?: T; error?: string }>;
      try {
        pending = opts.send(index);
      } catch (e) {
        pending = Promise.reject(e);
      }
      pending.then(
        (r) => settle(r.status, r.value, r.error),
        (e: unknown) => settle(0, undefined, e instanceof Error ? e.message : String(e)),
      );
    };

    /** Sends every request that has fallen due; false once the schedule is exhausted. */
    const dispatchDue = (): boolean => {
      const elapsed = now() - origin;
      while (dispatching && next < total && next * interval <= elapsed) {
        const index = next++;
        fire(index, index * interval);
      }
      return dispatching && next < total;
    };

    const tick = () => {
      timer = immediate = undefined;
      if (!dispatching) return;
      if (!dispatchDue()) {
        stop();
        return finish();
      }
      const wait = next * interval - (now() - origin);
      // setTimeout wakes on whole milliseconds (up to one early or late): 'timer' wakes a little
      // early rather than late; 'spin-last-ms' wakes a millisecond or two early and polls the rest.
      if ((spin || sleep) && wait < 2.5) {
        // 'sleep-last-ms' blocks the thread in short slices (a futex wait costs no CPU) and goes
        // back to the event loop between them, so answers are still read within a slice.
        if (sleep && wait > 0) Atomics.wait(SLEEPER, 0, 0, Math.min(wait, SLEEP_SLICE_MS));
        immediate = timers.setImmediate(tick);
      } else timer = timers.setTimeout(tick, Math.max(0, Math.floor(wait) - (spin || sleep ? 1 : 0)));
    };

    if (signal?.aborted) {
      stop();
      return finish();
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    tick();
  });
}
