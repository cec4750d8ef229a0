import { describe, expect, it } from 'vitest';
import { RateBudget, type Clock } from './budget.ts';

/** A manual clock: timers fire only when advance() passes their time. */
class FakeClock implements Clock {
  t = 0;
  private seq = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers.delete(h as number);
  }
  pending(): number {
    return this.timers.size;
  }
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= target && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
      await flush();
    }
    this.t = target;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** Starts n acquires and records when (clock time) each resolved, in resolution order. */
function track(b: RateBudget, clock: FakeClock, n: number, label = 'r') {
  const done: { label: string; at: number }[] = [];
  for (let i = 0; i < n; i++) void b.acquire().then(() => done.push({ label: `${label}${i}`, at: clock.now() }));
  return done;
}

describe('RateBudget', () => {
  it('lets `requests - safety` through at once, then waits for the oldest to leave the window', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 5, windowMs: 1000, safety: 0, clock });
    const done = track(b, clock, 7);
    await flush();
    expect(done.map((d) => d.at)).toEqual([0, 0, 0, 0, 0]);
    expect(b.used()).toBe(5);
    expect(b.nextFreeInMs()).toBe(1001);
    await clock.advance(1000);
    expect(done).toHaveLength(5);
    await clock.advance(1);
    expect(done.map((d) => d.at)).toEqual([0, 0, 0, 0, 0, 1001, 1001]);
    expect(b.used()).toBe(2);
    expect(b.total()).toBe(7); // every request of every window
  });

  it('room() and window() say what the window holds now: free slots, count, the oldest one\'s age', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 10, windowMs: 1000, safety: 2, clock });
    expect(b.room()).toBe(8);
    expect(b.window()).toEqual({ count: 0, oldestAgeMs: 0 });
    track(b, clock, 3);
    await flush();
    await clock.advance(400);
    b.note();
    expect(b.room()).toBe(4);
    expect(b.window()).toEqual({ count: 4, oldestAgeMs: 400 });
    await clock.advance(601); // the first three leave the window
    expect(b.window()).toEqual({ count: 1, oldestAgeMs: 601 });
    b.pause(clock.now() + 50);
    expect(b.room()).toBe(0); // nothing goes while a 429 pause holds
  });

  it('usedWithin() counts what the window holds of the last ms only', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 10, windowMs: 1000, clock });
    b.note();
    b.note();
    await clock.advance(500);
    b.note();
    expect([b.usedWithin(100), b.usedWithin(500), b.usedWithin(5000)]).toEqual([1, 3, 3]);
    await clock.advance(501); // the first two leave the window
    expect(b.usedWithin(5000)).toBe(1);
  });

  it('shift() ages what it counted when the target clock jumps: waiting callers go at once', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 3, windowMs: 1000, safety: 0, clock });
    const done = track(b, clock, 5);
    await flush();
    expect(done).toHaveLength(3);
    b.shift(1000);
    await flush();
    expect(done.map((d) => d.at)).toEqual([0, 0, 0, 0, 0]);
    expect(b.used()).toBe(2);
  });
  it('keeps a default safety margin of 2 (and it is configurable)', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 120, windowMs: 60_000, clock });
    expect(b.limit).toBe(118);
    const done = track(b, clock, 120);
    await flush();
    expect(done).toHaveLength(118);
    const b2 = new RateBudget({ requests: 120, windowMs: 60_000, safety: 10, clock });
    const done2 = track(b2, clock, 120);
    await flush();
    expect(done2).toHaveLength(110);
  });

  it('spaces a steady stream: never more than the limit in any window', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 10, windowMs: 1000, safety: 2, clock });
    const done = track(b, clock, 40);
    await flush();
    for (let i = 0; i < 50; i++) await clock.advance(100);
    expect(done).toHaveLength(40);
    const times = done.map((d) => d.at);
    for (const t of times) {
      const inWindow = times.filter((x) => x > t - 1000 && x <= t).length;
      expect(inWindow).toBeLessThanOrEqual(8);
    }
    // and it does not wait longer than needed: 40 requests at 8 per window ~ 4 windows
    expect(times[times.length - 1]).toBeLessThanOrEqual(4 * 1001 + 1);
  });

  it('serves concurrent callers first come, first served', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 1, windowMs: 100, safety: 0, clock });
    const order: string[] = [];
    const labels = ['a', 'b', 'c', 'd', 'e'];
    for (const l of labels) void b.acquire().then(() => order.push(l));
    await flush();
    expect(order).toEqual(['a']);
    for (let i = 0; i < 10; i++) await clock.advance(101);
    expect(order).toEqual(labels);
  });

  it('pause() holds every caller until the given time', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 100, windowMs: 1000, safety: 0, clock });
    await b.acquire();
    b.pause(clock.now() + 500);
    expect(b.nextFreeInMs()).toBe(500);
    const done = track(b, clock, 3);
    await clock.advance(499);
    expect(done).toHaveLength(0);
    b.pause(clock.now() - 100); // an earlier pause never shortens a longer one
    expect(b.pausedUntil()).toBe(500);
    await clock.advance(1);
    expect(done.map((d) => d.at)).toEqual([500, 500, 500]);
  });

  it('a pause while callers wait for the window moves them later', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 1, windowMs: 100, safety: 0, clock });
    await b.acquire();
    const done = track(b, clock, 1);
    await clock.advance(10);
    b.pause(300);
    await clock.advance(200);
    expect(done).toHaveLength(0);
    await clock.advance(90);
    expect(done.map((d) => d.at)).toEqual([300]);
  });

  it('note() counts a probe without waiting, and the count holds back the others', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 3, windowMs: 1000, safety: 0, clock });
    for (let i = 0; i < 5; i++) b.note(); // probes go past the limit
    expect(b.used()).toBe(5);
    const done = track(b, clock, 1);
    await clock.advance(1000);
    expect(done).toHaveLength(0);
    await clock.advance(1);
    expect(done).toHaveLength(1);
  });

  it('settle() moves a request to its response time (a slow answer keeps its slot longer)', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 1, windowMs: 100, safety: 0, clock });
    const settle = await b.acquire();
    await clock.advance(50);
    settle(); // the answer came at t=50
    const done = track(b, clock, 1);
    await clock.advance(60); // t=110 would be free if counted from t=0
    expect(done).toHaveLength(0);
    await clock.advance(41);
    expect(done.map((d) => d.at)).toEqual([151]);
  });

  it('an aborted waiter leaves the queue and the next one is served', async () => {
    const clock = new FakeClock();
    const b = new RateBudget({ requests: 1, windowMs: 100, safety: 0, clock });
    await b.acquire();
    const ac = new AbortController();
    const aborted = b.acquire(ac.signal);
    const done = track(b, clock, 1);
    ac.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(b.waiting()).toBe(1);
    await clock.advance(101);
    expect(done).toHaveLength(1);
    expect(b.waiting()).toBe(0);
  });

  it('rejects nonsense options', () => {
    expect(() => new RateBudget({ requests: 0, windowMs: 1000 })).toThrow(/requests/);
    expect(() => new RateBudget({ requests: 10, windowMs: 0 })).toThrow(/windowMs/);
  });

  it('works on the real clock with short windows', async () => {
    const b = new RateBudget({ requests: 2, windowMs: 40, safety: 0 });
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) await b.acquire();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(40);
  });
});
