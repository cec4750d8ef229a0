import { describe, expect, it } from 'vitest';
import { cleansUp, expectedOverheadMs, targetRequests, type ExpectedRequests } from './expected.ts';

const data: ExpectedRequests = {
  source: 'test',
  byDepth: { default: { A: 10, B: 4 }, quick: { A: 8 } },
  withoutControl: { default: { A: 14 } },
  cleanup: { A: 3 },
};
const embedded = { embedded: true };
const withControl = { embedded: false, control: { baseUrl: 'http://127.0.0.1:1', token: { env: 'T' } } };
const staging = { embedded: false };
const check = (id: string) => ({ id, budget: 99 });

describe('what the target sees of a check', () => {
  it('cleans up only where the kit must: a target without the control API', () => {
    expect([cleansUp(embedded), cleansUp(withControl as never), cleansUp(staging)]).toEqual([false, false, true]);
  });

  it('with the control API: the measured requests at the depth, else at default, else the budget; no clean-up', () => {
    expect(targetRequests(check('A'), 'quick', embedded, data)).toBe(8);
    expect(targetRequests(check('B'), 'quick', embedded, data)).toBe(4);
    expect(targetRequests(check('C'), 'quick', embedded, data)).toBe(99);
  });

  it('without it: what was measured without control where it was, plus the DELETEs of its clean-up', () => {
    expect(targetRequests(check('A'), 'quick', staging, data)).toBe(14 + 3);
    expect(targetRequests(check('B'), 'quick', staging, data)).toBe(4);
  });

  it('its clean-up as measured without control where the check was measured so (nothing when it left nothing there), else on the embedded reference', () => {
    const both: ExpectedRequests = { ...data, byDepth: { default: { A: 10, B: 4, D: 2 } }, withoutControl: { default: { A: 14, D: 2 } }, cleanup: { A: 3, B: 1, D: 1 }, cleanupWithoutControl: { A: 5, D: 0 } };
    expect(targetRequests(check('A'), 'default', staging, both)).toBe(14 + 5);
    expect(targetRequests(check('B'), 'default', staging, both)).toBe(4 + 1);
    expect(targetRequests(check('D'), 'default', staging, both)).toBe(2);
  });

  it("a run's finish is the one measured at its depth where there is one (a larger depth's clean-up waits for room), else the clock's", () => {
    const timed: ExpectedRequests = { ...data, overheadMs: { real: { start: 5000, finish: 40_000, finishByDepth: { quick: 3000 } } } };
    expect(expectedOverheadMs('real', timed, 'quick')).toMatchObject({ start: 5000, finish: 3000 });
    expect(expectedOverheadMs('real', timed, 'default').finish).toBe(40_000);
    expect(expectedOverheadMs('real', timed).finish).toBe(40_000);
    expect(expectedOverheadMs('control', timed, 'quick')).toEqual({ start: 0, finish: 0 });
  });
});
