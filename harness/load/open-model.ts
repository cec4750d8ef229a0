import { performance } from 'node:perf_hooks';

// The open-model generator: request i is due at start + i / rate, whatever happened to the
// requests before it (no coordinated omission). Latency is measured from that intended time
// (corrected) and, apart, from the moment the request left (service). A request that leaves
// later than `lateAfterMs` past its intended time is counted late, never silently re-timed:
// its corrected latency still counts from the schedule.
//
// Timing uses timers, not a spin: a spin would hold schedule adherence under a millisecond at
// the price of a whole core, and the generator's CPU per request is part of what the benchmark
// (`npm run bench:load`) holds it to.

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

export function scheduleSize(rate: number, durationMs: number, maxRequests?: number): number {
  const n = Math.floor((rate * durationMs) / 1000);
  return maxRequests === undefined ? n : Math.min(n, maxRequests);
}

/** Runs the schedule; resolves once every request sent has completed. */
export function runOpenModel<T>(opts: OpenModelOptions<T>): Promise<OpenModelResult> {
  if (!(opts.rate > 0)) throw new Error(`rate must be above 0, got ${opts.rate}`);
  const now = opts.now ?? (() => performance.now());
  const total = scheduleSize(opts.rate, opts.durationMs, opts.maxRequests);
  const interval = 1000 / opts.rate;
  const lateAfter = opts.lateAfterMs ?? 1;
  const origin = now();
  let next = 0;
  let inFlight = 0;
  let completed = 0;
  let late = 0;
  let last = origin;
  let dispatching = true;

  return new Promise((resolve) => {
    const finish = () => {
      if (dispatching || inFlight > 0) return;
      resolve({ origin, intended: total, sent: next, completed, late, elapsedMs: last - origin });
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
        opts.onShot?.({ index, intended, sent, done: t - origin, status, late: isLate, ...(error ? { error } : {}) }, value);
        finish();
      };
      opts.send(index).then(
        (r) => settle(r.status, r.value, r.error),
        (e: unknown) => settle(0, undefined, (e as Error).message),
      );
    };

    const tick = () => {
      const elapsed = now() - origin;
      while (next < total && next * interval <= elapsed && !opts.signal?.aborted) {
        fire(next, next * interval);
        next++;
      }
      if (next >= total || opts.signal?.aborted) {
        dispatching = false;
        return finish();
      }
      const wait = next * interval - (now() - origin);
      // setTimeout rounds to whole milliseconds; wake a little early rather than late.
      setTimeout(tick, Math.max(0, Math.floor(wait)));
    };
    tick();
  });
}
