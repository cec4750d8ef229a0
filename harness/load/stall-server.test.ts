import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { forkStallServer, stallAnswerAt, startStallServer } from './stall-server.ts';

// The stalling server is the truth the generator's tests and the load bench measure against:
// its schedule, its log and its lifetime must hold.

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
};

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

  it('answers inside a window at its end and outside at once, logging both', async () => {
    const start = performance.now() + 100;
    const server = await startStallServer({ start, periodMs: 1_000, stallMs: 150 });
    try {
      const outside = await get(server.url);
      expect(outside).toEqual({ status: 200, body: '{"ok":true}' });
      while (performance.now() < start + 20) await new Promise((r) => setTimeout(r, 5));
      const sentAt = performance.now();
      const held = await Promise.all([get(server.url), get(server.url)]);
      expect(held.map((h) => h.status)).toEqual([200, 200]);
      expect(performance.now()).toBeGreaterThanOrEqual(start + 150);
      expect(performance.now() - sentAt).toBeLessThan(150);
      const log = server.log();
      expect(log).toHaveLength(3);
      expect(log[0]!.response - log[0]!.arrival).toBeLessThan(5);
      for (const e of log.slice(1)) {
        expect(e.response).toBeGreaterThanOrEqual(start + 150);
        expect(e.response - (start + 150)).toBeLessThan(20);
      }
      expect(server.received()).toBe(3);
    } finally {
      await server.close();
      await server.close();
    }
  });

  it('closes itself after its lifetime, held requests included', async () => {
    const server = await startStallServer({ start: performance.now(), periodMs: 10_000, stallMs: 5_000, maxLifetimeMs: 200 });
    await expect(get(server.url)).rejects.toThrow();
    await expect(get(server.url)).rejects.toThrow();
    await server.close();
  });

  it('in a child process: the schedule on the wall clock, the log over IPC, close idempotent', async () => {
    const startEpochMs = performance.timeOrigin + performance.now() + 5_000;
    const server = await forkStallServer({ periodMs: 770, stallMs: 200, startEpochMs, maxLifetimeMs: 30_000 });
    try {
      expect(server.schedule.periodMs).toBe(770);
      expect(Math.abs(server.schedule.start - startEpochMs)).toBeLessThan(0.01);
      await get(server.url);
      await get(server.url);
      const log = await server.log();
      expect(log).toHaveLength(2);
      const wall = performance.timeOrigin + performance.now();
      for (const e of log) {
        expect(e.response).toBeGreaterThanOrEqual(e.arrival);
        expect(Math.abs(wall - e.response)).toBeLessThan(5_000);
      }
    } finally {
      await server.close();
      await server.close();
    }
    await expect(get(server.url)).rejects.toThrow();
  });
});
