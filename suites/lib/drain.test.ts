import { describe, expect, it } from 'vitest';
import type { ControlClient, DrainResult } from '../../harness/ground/check.ts';
import { drainAll, judgeable } from './drain.ts';

/** A control client whose drains answer the given results in turn. */
function answering(...results: DrainResult[]): { control: ControlClient; asked: unknown[][] } {
  const asked: unknown[][] = [];
  const control = { drain: async (...args: unknown[]) => (asked.push(args), results.shift()!) } as unknown as ControlClient;
  return { control, asked };
}

describe('drainAll', () => {
  it('drains again while drains end with work left (a slow target), each bound twice the last, and stops at the first complete one', async () => {
    const { control, asked } = answering({ processed: 3, complete: false }, { processed: 1, complete: false }, { processed: 0, complete: true }, { processed: 9, complete: true });
    expect(await drainAll(control, 2000, 'org_1')).toEqual({ processed: 0, complete: true });
    expect(asked).toEqual([[2000, 'org_1'], [4000, 'org_1'], [8000, 'org_1']]);
  });
  it('never asks more than the contract default bound, nor less than asked', async () => {
    const slow = Array.from({ length: 4 }, () => ({ processed: 0, complete: false }));
    const a = answering(...slow, { processed: 0, complete: true });
    await drainAll(a.control, 10_000);
    expect(a.asked.map((x) => x[0])).toEqual([10_000, 20_000, 30_000, 30_000, 30_000]);
    const b = answering({ processed: 0, complete: false }, { processed: 0, complete: true });
    await drainAll(b.control, 45_000);
    expect(b.asked.map((x) => x[0])).toEqual([45_000, 45_000]);
  });
  it('a target whose drains never answer within their bound (untold) is drained once, and its state judged', async () => {
    const { control, asked } = answering({ processed: 2, complete: false, untold: true }, { processed: 0, complete: true });
    const r = await drainAll(control, 2000);
    expect(asked).toHaveLength(1);
    expect(judgeable(r)).toBe(true);
    expect(judgeable({ processed: 2, complete: false })).toBe(false);
  });
  it('one complete drain is enough', async () => {
    const { control, asked } = answering({ processed: 0, complete: true });
    expect((await drainAll(control, 500)).complete).toBe(true);
    expect(asked).toHaveLength(1);
  });
});
