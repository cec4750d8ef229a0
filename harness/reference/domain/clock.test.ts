import { describe, expect, it } from 'vitest';
import { Clock, parseClockStart } from './clock.ts';

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

  it('starts at a given instant and runs on in real time from there', () => {
    const start = parseClockStart('2028-02-28T23:59:30Z');
    const c = new Clock(start);
    expect(c.now()).toBeGreaterThanOrEqual(start);
    expect(c.now() - start).toBeLessThan(60_000);
    expect(new Clock(parseClockStart('2027-03-14T01:59:30-03:30')).iso().slice(0, 16)).toBe('2027-03-14T05:29');
  });

  it('refuses a start without a zone or out of range, and says the form it takes', () => {
    for (const bad of ['2026-12-07 23:59:30', '2026-12-07T23:59:30', 'tomorrow', '2026-13-40T00:00:00Z', '1969-12-31T23:59:59Z']) {
      expect(() => parseClockStart(bad), bad).toThrow(/ISO 8601 instant with its zone/);
    }
  });
});
