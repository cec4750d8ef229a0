import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { forkStallServer, stallAnswerAt, startStallServer } from './stall-server.ts';

// The stalling server is the truth the generator's tests and the load bench measure against:
// its schedule, its log and its lifetime must hold.

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
};

/** Waits until `cond` holds, however long that takes (the test's timeout is the bound). */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('stall server', () => {
  it('stallAnswerAt: a window holds arrivals until its end, before and after start alike', () => {
    const s = { start: 1_000, periodMs: 770, stallMs: 200 };
    expect(stallAnswerAt(s, 1_000)).toBe(1_200);
    expect(stallAnswerAt(s, 1_150)).toBe(1_200);
    expect(stallAnswerAt(s, 1_200)).toBe(1_200);
    expect(stallAnswerAt(s, 1_500)).toBe(1_500);
    expect(stallAnswerAt(s, 1_000 + 3 * 770 + 10)).toBe(1_000 + 3 * 770 + 200);
    expect(stallAnswerAt(s, 1_000 - 770 + 50)).toBe(1_000 - 770 + 200);
    expect(stallAnswerAt(s, 900)).toBe(900);
    expect(stallAnswerAt({ ...s, stallMs: 0 }, 1_100)).toBe(1_100);
  });

  it('answers inside a window at its end and outside at once, logging both (on a clock the test sets)', async () => {
    // The server decides and logs on the clock it is given; its window timer only wakes it to
    // read that clock. So every logged time is exactly a value the test set, and a held request
    // can be seen still held after the server has looked at the clock and found it early.
    let clock = 500;
    let reads = 0;
    const server = await startStallServer({ start: 1_000, periodMs: 1_000, stallMs: 150, now: () => (reads++, clock) });
    try {
      const outside = await get(server.url);
      expect(outside).toEqual({ status: 200, body: '{"ok":true}' });
      expect(server.log()).toEqual([{ arrival: 500, response: 500 }]);

      clock = 1_147; // inside the window [1000, 1150), 3 ms before its end
      const held = Promise.all([get(server.url), get(server.url)]);
      let answered = false;
      held.then(
        () => (answered = true),
        () => undefined,
      );
      await until(() => server.received() === 3);
      // The window's timer has woken the server and it read the clock (1,147 < 1,150): still held.
      const readsAtArrival = reads;
      await until(() => reads > readsAtArrival + 1);
      expect(answered).toBe(false);
      expect(server.log()).toHaveLength(1);

      clock = 1_150;
      expect((await held).map((h) => h.status)).toEqual([200, 200]);
      expect(server.log()).toEqual([
        { arrival: 500, response: 500 },
        { arrival: 1_147, response: 1_150 },
        { arrival: 1_147, response: 1_150 },
      ]);
      expect(server.received()).toBe(3);
    } finally {
      await server.close();
      await server.close();
    }
  });

  it('closes itself after its lifetime, held requests included', async () => {
    // A clock stopped inside a window: every request is held until the server closes.
    const server = await startStallServer({ now: () => 0, start: 0, periodMs: 10_000, stallMs: 5_000, maxLifetimeMs: 200 });
    await expect(get(server.url)).rejects.toThrow();
    await expect(get(server.url)).rejects.toThrow();
    expect(server.log()).toEqual([]);
    await server.close();
  });

  it('in a child process: the schedule on the wall clock, the log over IPC, close idempotent', async () => {
    const wallNow = () => performance.timeOrigin + performance.now();
    const startEpochMs = wallNow() + 60_000; // no window opens while this test runs
    const server = await forkStallServer({ periodMs: 770, stallMs: 200, startEpochMs, maxLifetimeMs: 30_000 });
    try {
      expect(server.schedule.periodMs).toBe(770);
      expect(server.schedule.stallMs).toBe(200);
      // The child turns startEpochMs into its own performance clock and back: two float
      // operations on ~1.7e12 ms, each off by at most half an ulp (~1.2e-4 ms).
      expect(Math.abs(server.schedule.start - startEpochMs)).toBeLessThan(0.01);
      const before = wallNow();
      await get(server.url);
      await get(server.url);
      const log = await server.log();
      const after = wallNow();
      expect(log).toHaveLength(2);
      // Both processes read the wall clock as their start's wall-clock reading plus the monotonic
      // clock since: they agree up to the microseconds between those two reads at each start.
      // 1 ms covers that; a request's times lie between the reads around it.
      const SKEW_MS = 1;
      for (const e of log) {
        expect(e.arrival).toBeGreaterThanOrEqual(before - SKEW_MS);
        expect(e.response).toBeGreaterThanOrEqual(e.arrival);
        expect(e.response).toBeLessThanOrEqual(after + SKEW_MS);
      }
      expect(log[1]!.arrival).toBeGreaterThanOrEqual(log[0]!.response);
    } finally {
      await server.close();
      await server.close();
    }
    await expect(get(server.url)).rejects.toThrow();
  });
});
