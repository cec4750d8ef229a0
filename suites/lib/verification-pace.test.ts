import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollPauseMs, VerificationPace } from './verification-pace.ts';
import type { Attempt } from '../../harness/sinks/types.ts';

/** How many polls a wait of `ms` costs when each pause is pollPauseMs of the time waited. */
function pollsFor(ms: number): number {
  let t = 0;
  let polls = 1; // the first poll, at once
  while (t < ms) {
    t += pollPauseMs(t);
    polls++;
  }
  return polls;
}

describe('the plain poll schedule', () => {
  it('polls soon at first: a quick target is seen within a quarter of a second', () => {
    expect(pollPauseMs(0)).toBe(250);
  });

  it('costs a few more polls, not proportionally more, on a target that takes three or ten times as long', () => {
    const quick = pollsFor(700);
    expect(pollsFor(2_100)).toBeLessThanOrEqual(quick + 2);
    expect(pollsFor(7_000)).toBeLessThanOrEqual(quick + 3);
  });

  it('never pauses longer than 4 s, so the end of a long wait is seen within 4 s', () => {
    expect(pollPauseMs(60_000)).toBe(4_000);
    expect(pollsFor(30_000)).toBeLessThanOrEqual(12);
  });
});

/** A sink's logins as the pace reads them: attempts recorded when they end, waiters woken then. */
class Logins {
  private readonly list: Attempt[] = [];
  private readonly waiters: { pred: (a: Attempt) => boolean; resolve: (a: Attempt) => void }[] = [];
  private n = 0;

  login(user: string): void {
    const a = { id: `a${++this.n}`, kind: 'auth', authUser: user, at: Date.now(), endedAt: Date.now(), outcome: 'accepted' } as Attempt;
    this.list.push(a);
    for (const w of this.waiters.splice(0)) (w.pred(a) ? w.resolve(a) : this.waiters.push(w));
  }

  waitForAttempt(pred: (a: Attempt) => boolean, o: { timeout?: number } = {}): Promise<Attempt> {
    const found = this.list.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const w = { pred, resolve: (a: Attempt) => (clearTimeout(t), resolve(a)) };
      const t = setTimeout(() => (this.waiters.splice(this.waiters.indexOf(w), 1), reject(new Error('timeout'))), o.timeout ?? 10_000);
      this.waiters.push(w);
    });
  }
}

/**
 * A target that verifies `afterMs` after the wait starts (logging in at the sink then, when
 * `logs`; its status shows it 50 ms later), polled through `pace` until it has: the polls it
 * took, and how long after the wait's start (fake time) the poll saw it.
 */
async function pollUntilVerified(pace: VerificationPace, logins: Logins, afterMs: number, logs = true): Promise<{ polls: number; seenAfterMs: number }> {
  const start = Date.now();
  if (logs) setTimeout(() => logins.login('box@sink.test'), afterMs);
  let polls = 0;
  const run = (async () => {
    for (;;) {
      polls++;
      if (Date.now() - start >= afterMs + 50) return Date.now() - start;
      await pace.pause('box@sink.test');
    }
  })();
  await vi.advanceTimersByTimeAsync(60_000);
  return { polls, seenAfterMs: await run };
}

describe('polls paced by the sink seeing the mailbox log in', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const pace = (logins?: Logins) => new VerificationPace(logins, { firstLoginWaitMs: 4_000, afterLoginMs: 100 });

  it('polls twice whether the target verifies at once or ten times slower, and sees it just after the login', async () => {
    for (const after of [300, 3_000, 10_000]) {
      const logins = new Logins();
      const { polls, seenAfterMs } = await pollUntilVerified(pace(logins), logins, after);
      // One poll at once; then one 4 s wait for the login per 4 s until it comes; then the one it wakes.
      expect(polls).toBe(2 + Math.floor(after / 4_000));
      expect(seenAfterMs).toBe(after + 100);
    }
    // The plain schedule (no sink): more polls, and the outcome seen later.
    const plain = await pollUntilVerified(pace(undefined), new Logins(), 3_000, false);
    expect(plain.polls).toBeGreaterThanOrEqual(5);
    expect(plain.seenAfterMs).toBeGreaterThan(3_100);
  });

  it('still polls a target that never logs in at the sink, every 4 s', async () => {
    const logins = new Logins();
    const { polls, seenAfterMs } = await pollUntilVerified(pace(logins), logins, 12_000, false);
    expect(polls).toBe(5);
    expect(seenAfterMs).toBeGreaterThanOrEqual(16_000);
    expect(seenAfterMs).toBeLessThan(16_100);
  });

  it('lets a login wake one poll only: a login that settles nothing never makes it poll fast', async () => {
    const logins = new Logins();
    logins.login('box@sink.test'); // a login that ended before the wait (an earlier verification) wakes nothing
    vi.advanceTimersByTime(10);
    const p = pace(logins);
    const start = Date.now();
    let polls = 0;
    const run = (async () => {
      for (; polls < 50 && Date.now() - start < 20_000; polls++) {
        if (polls === 2) logins.login('box@sink.test'); // a warmup send's login, say
        await p.pause('box@sink.test');
      }
    })();
    await vi.advanceTimersByTimeAsync(25_000);
    await run;
    // 20 s of 4 s waits and one login (then the plain schedule from it: 0.25, 0.75, 1.75, 3.75, 4 s...): about ten polls, not fifty.
    expect(polls).toBeGreaterThanOrEqual(6);
    expect(polls).toBeLessThanOrEqual(12);
  });
});
