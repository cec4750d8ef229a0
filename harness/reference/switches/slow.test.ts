// `reference --slow N`: the factor is checked, stretches the pauses and timers it names (on fake
// timers: behaviour, not speed), and a slowed reference still answers by the spec.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LATENCY_MS, MAX_SLOW, WORK_MS, slowAnswers, slowFactor, slowTick, slowWork } from './slow.ts';
import { startReference } from '../index.ts';
import { serveReference } from '../serve.ts';

afterEach(() => vi.useRealTimers());

describe('reference --slow', () => {
  it('takes a factor from 1 to MAX_SLOW and refuses anything else', () => {
    expect(slowFactor(undefined)).toBe(1);
    expect(slowFactor(3)).toBe(3);
    for (const bad of [0, 0.5, MAX_SLOW + 1, Number.NaN]) expect(() => slowFactor(bad)).toThrow(/slow must be a factor from 1/);
  });

  it('the CLI refuses a factor out of range, naming the flag', async () => {
    await expect(serveReference(['--slow', '0'])).rejects.toThrow(/--slow takes a factor from 1 to 20/);
  });

  it('pauses background work (N - 1) x WORK_MS and ticks N times less often; factor 1 changes nothing', async () => {
    vi.useFakeTimers();
    let done = false;
    void slowWork(3).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2 * WORK_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(slowTick(250, 3)).toBe(750);
    expect(slowTick(250, 1)).toBe(250);
    const handle = async () => {};
    expect(slowAnswers(handle, 1)).toBe(handle);
  });

  it('delays each answer by (N - 1) x LATENCY_MS before handling it', async () => {
    vi.useFakeTimers();
    const handled: number[] = [];
    const h = slowAnswers(async () => void handled.push(Date.now()), 2);
    const t0 = Date.now();
    void h({} as never, {} as never);
    await vi.advanceTimersByTimeAsync(LATENCY_MS - 1);
    expect(handled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(handled).toEqual([t0 + LATENCY_MS]);
  });

  it('a slowed reference answers as the spec says (401 without a key)', async () => {
    const ref = await startReference({ slow: 2, log: () => {} });
    try {
      const res = await fetch(`${ref.baseUrl}/v1/workspace`);
      expect(res.status).toBe(401);
    } finally {
      await ref.stop();
    }
  });
});
