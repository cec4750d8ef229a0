// Per-workspace request budget: a sliding-window limiter that keeps the kit under the target's
// rate limit (spec part 8: 120 requests per 60 s per workspace, shared by all its keys).
//
// - acquire() resolves when sending now keeps the count of the last window at or below
//   `requests - safety` (default safety 2). Waiters are served strictly first come, first
//   served. It resolves with a `settle` function: calling it when the response has arrived moves
//   that request's timestamp to the response time (the server saw it no later than that), which
//   keeps the window conservative when requests queue or are slow. Calling it is optional.
// - pause(untilMs) (after a 429) holds every waiter until that clock time.
// - note() counts a request that bypassed acquire (a rate-limit probe).
// Time comes from an injectable Clock so the logic is unit-tested without sleeping.

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface RateBudgetOptions {
  /** Requests allowed per window by the target (spec: 120). */
  requests: number;
  /** Window length in ms (spec: 60 000). */
  windowMs: number;
  /** Requests kept in reserve below the limit (default 2). */
  safety?: number;
  clock?: Clock;
}

interface Entry {
  t: number;
}

interface Waiter {
  resolve: (settle: () => void) => void;
  reject: (err: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class RateBudget {
  readonly requests: number;
  readonly windowMs: number;
  readonly safety: number;
  /** Most requests sent (or in flight) within any window. */
  readonly limit: number;
  private readonly clock: Clock;
  private entries: Entry[] = [];
  private queue: Waiter[] = [];
  private timer: unknown = undefined;
  private pausedUntilMs = 0;
  private taken = 0;

  constructor(opts: RateBudgetOptions) {
    if (!(opts.requests >= 1) || !(opts.windowMs > 0)) throw new Error(`RateBudget: requests must be >= 1 and windowMs > 0 (got ${opts.requests}, ${opts.windowMs})`);
    this.requests = opts.requests;
    this.windowMs = opts.windowMs;
    this.safety = Math.max(0, opts.safety ?? 2);
    this.limit = Math.max(1, this.requests - this.safety);
    this.clock = opts.clock ?? realClock;
  }

  /** The budget's clock (pause() takes a time on this clock). */
  now(): number {
    return this.clock.now();
  }

  /** Waits for a free slot (FIFO), takes it, and resolves with its settle function. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    return new Promise((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal };
      if (signal) {
        w.onAbort = () => {
          const i = this.queue.indexOf(w);
          if (i >= 0) {
            this.queue.splice(i, 1);
            reject(signal.reason ?? new Error('aborted'));
            this.pump();
          }
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.queue.push(w);
      if (this.queue.length === 1) this.pump();
    });
  }

  /** Counts a request sent without acquire (rate-limit probes); returns its settle function. */
  note(): () => void {
    return this.take();
  }

  /** Requests counted since the budget was made (every window). */
  total(): number {
    return this.taken;
  }

  /** Requests counted in the current window. */
  used(): number {
    this.prune();
    return this.entries.length;
  }

  /** Requests counted in the current window sent within the last `ms`. */
  usedWithin(ms: number): number {
    const since = this.clock.now() - ms;
    this.prune();
    return this.entries.filter((e) => e.t >= since).length;
  }

  /** Slots free in the window now: what a sender may still send before it waits (0 while paused or full). */
  room(): number {
    if (this.pausedUntilMs > this.clock.now()) return 0;
    return Math.max(0, this.limit - this.used());
  }

  /** What the window holds now: how many requests, and how long ago the oldest of them was sent (0 when empty). */
  window(): { count: number; oldestAgeMs: number } {
    this.prune();
    const oldest = this.entries.reduce((t, e) => Math.min(t, e.t), Infinity);
    return { count: this.entries.length, oldestAgeMs: this.entries.length ? Math.max(0, this.clock.now() - oldest) : 0 };
  }

  /** Waiters not yet served. */
  waiting(): number {
    return this.queue.length;
  }

  /** Ms until a request could be sent now (0 when a slot is free and no pause holds). */
  nextFreeInMs(): number {
    return this.waitMs();
  }

  /** Holds every caller until this clock time (keeps the later of two pauses). */
  pause(untilMs: number): void {
    if (untilMs > this.pausedUntilMs) {
      this.pausedUntilMs = untilMs;
      if (this.queue.length) this.pump();
    }
  }

  pausedUntil(): number {
    return this.pausedUntilMs;
  }

  /**
   * The target's clock jumped `ms` ahead (control API `POST /clock/advance`): its rate window
   * follows that clock, so what this budget counted is `ms` older there too.
   */
  shift(ms: number): void {
    if (!(ms > 0)) return;
    for (const e of this.entries) e.t -= ms;
    this.pausedUntilMs = Math.max(0, this.pausedUntilMs - ms);
    if (this.queue.length) this.pump();
  }

  private take(): () => void {
    this.taken++;
    const e: Entry = { t: this.clock.now() };
    this.entries.push(e);
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      e.t = Math.max(e.t, this.clock.now());
      if (this.queue.length) this.pump();
    };
  }

  private prune(): void {
    const cutoff = this.clock.now() - this.windowMs;
    if (this.entries.some((e) => e.t <= cutoff)) this.entries = this.entries.filter((e) => e.t > cutoff);
  }

  private waitMs(): number {
    const now = this.clock.now();
    let wait = Math.max(0, this.pausedUntilMs - now);
    this.prune();
    const n = this.entries.length;
    if (n >= this.limit) {
      const times = this.entries.map((e) => e.t).sort((a, b) => a - b);
      // Sending now needs n - limit + 1 entries to leave the window.
      const t = times[n - this.limit]!;
      wait = Math.max(wait, t + this.windowMs - now + 1);
    }
    return wait;
  }

  private pump(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length) {
      const wait = this.waitMs();
      if (wait > 0) {
        this.timer = this.clock.setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, wait);
        return;
      }
      const w = this.queue.shift()!;
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.resolve(this.take());
    }
  }
}
