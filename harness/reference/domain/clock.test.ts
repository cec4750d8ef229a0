import { describe, expect, it } from 'vitest';
import { Clock } from './clock.ts';

describe('the reference clock', () => {
  it('stamps strictly increasing, without running ahead of the clock on a large batch', () => {
    const c = new Clock();
    const stamps = Array.from({ length: 10_000 }, () => c.stamp());
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]!).toBeGreaterThan(stamps[i - 1]!);
    // 10,000 leads of one campaign create: an update stamped with now() right after comes later.
    expect(c.stamp() - c.now()).toBeLessThan(50);
  });

  it('never goes backwards, and advances by the control API', () => {
    const c = new Clock();
    const a = c.now();
    expect(c.advance(3600)).toBeGreaterThanOrEqual(a + 3_600_000);
    expect(c.now()).toBeGreaterThanOrEqual(a + 3_600_000);
  });
});
