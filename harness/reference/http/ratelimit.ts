// Sliding-window rate limiter on the injectable clock (spec part 8: 120 requests per 60 s per
// workspace, shared by all its keys). Only admitted requests enter the window.
export const RATE_LIMIT = 120;
export const RATE_WINDOW_MS = 60_000;

export type Take = { ok: true; remaining: number } | { ok: false; retryAfter: number };

export class RateLimiter {
  /** `windowMs`: RATE_WINDOW_MS by the spec; a capacity run may serve a raised limit on a shorter window. */
  constructor(private readonly windowMs = RATE_WINDOW_MS) {}
  private readonly windows = new Map<string, number[]>();
  private readonly blockedUntil = new Map<string, number>();

  private window(bucket: string, now: number): number[] {
    let w = this.windows.get(bucket);
    if (!w) {
      w = [];
      this.windows.set(bucket, w);
    }
    while (w.length > 0 && w[0]! <= now - this.windowMs) w.shift();
    return w;
  }

  /**
   * Admit one request of `bucket` at `now` or refuse it.
   * `stickyMs`: when > 0, a refused bucket stays refused for that long (mutant only).
   */
  take(bucket: string, now: number, limit: number, stickyMs = 0): Take {
    const w = this.window(bucket, now);
    const blocked = this.blockedUntil.get(bucket);
    if (blocked !== undefined && blocked > now) return { ok: false, retryAfter: this.retryAfter(w, now) };
    if (w.length >= limit) {
      if (stickyMs > 0) this.blockedUntil.set(bucket, now + stickyMs);
      return { ok: false, retryAfter: this.retryAfter(w, now) };
    }
    w.push(now);
    return { ok: true, remaining: limit - w.length };
  }

  /** Record a request without limiting (for a second, informational count). */
  count(bucket: string, now: number): number {
    const w = this.window(bucket, now);
    w.push(now);
    return w.length;
  }

  /** Seconds until the oldest request leaves the window (integer, at least 1). */
  private retryAfter(w: number[], now: number): number {
    const oldest = w[0];
    if (oldest === undefined) return 1;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }
}
