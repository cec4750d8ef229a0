import { describe, expect, it } from 'vitest';
import type { Check } from '../ground/check.ts';
import { estimateRun, LONG_CHECK_MS, phaseMs, runPhases } from './schedule.ts';
import { expectedDurationMs } from './expected.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';

const check = (id: string, o: Partial<Check> = {}): Check => ({ id, title: id, clauses: [], level: 'MUST', features: [], budget: 1, run: async () => {}, ...o });

describe('runPhases', () => {
  const checks = [check('A'), check('S', { solo: true }), check('L', { last: true }), check('B')];

  it('runs solo checks alone first where the control clock moves, the observers of the whole run last', () => {
    const phases = runPhases(checks, { clock: 'control' });
    expect(phases.map((p) => [p.concurrent, p.checks.map((c) => c.id).sort()])).toEqual([
      [false, ['S']],
      [true, ['A', 'B']],
      [false, ['L']],
    ]);
  });

  it('runs no check alone where the target keeps real time: nothing jumps its clock', () => {
    const phases = runPhases(checks, { clock: 'real' });
    expect(phases[0]!.checks).toEqual([]);
    expect(phases[1]!.checks.map((c) => c.id).sort()).toEqual(['A', 'B', 'S']);
    expect(phases[2]!.checks.map((c) => c.id)).toEqual(['L']);
  });

  it('starts the longest measured checks first (each clock its own measurements)', () => {
    for (const clock of ['control', 'real'] as const) {
      const concurrent = runPhases(ALL_CHECKS, { clock })[1]!.checks.map((c) => expectedDurationMs(c, clock));
      expect(concurrent).toEqual([...concurrent].sort((a, b) => b - a));
    }
  });

  it('against real time, starts the checks that wait long first, then the others by what they send, most first', () => {
    const size = (c: { id: string }) => c.id.length * 7 % 23;
    const concurrent = runPhases(ALL_CHECKS, { clock: 'real', requests: size })[1]!.checks;
    const long = concurrent.filter((c) => expectedDurationMs(c, 'real') >= LONG_CHECK_MS);
    expect(long.length).toBeGreaterThan(0);
    expect(concurrent.slice(0, long.length)).toEqual(long);
    expect(long.map((c) => expectedDurationMs(c, 'real'))).toEqual(long.map((c) => expectedDurationMs(c, 'real')).sort((x, y) => y - x));
    const rest = concurrent.slice(long.length).map(size);
    expect(rest).toEqual([...rest].sort((x, y) => y - x));
    // With the control clock the order stays longest first whatever they send.
    expect(runPhases(ALL_CHECKS, { clock: 'control', requests: size })[1]!.checks).toEqual(runPhases(ALL_CHECKS, { clock: 'control' })[1]!.checks);
  });
});

describe('phaseMs', () => {
  it('adds serial checks; gives concurrent ones to the first free slot in order', () => {
    expect(phaseMs([3, 4, 5], false, 8)).toBe(12);
    expect(phaseMs([10, 2, 2, 2, 2, 2], true, 2)).toBe(10);
    expect(phaseMs([2, 2, 2, 10], true, 2)).toBe(12); // started late, a long check runs on alone (10 first: 10)
    // Slots already busy (checks running now) take their share first.
    expect(phaseMs([5], true, 2, [3, 1])).toBe(6);
    expect(phaseMs([5], false, 2, [3])).toBe(8);
  });
});

describe('estimateRun', () => {
  it('is at least the rate floor, and the simulated phases otherwise', () => {
    const few = ALL_CHECKS.slice(0, 20);
    const free = estimateRun(few, { clock: 'control', concurrency: 8, rateFloorMs: 0 });
    expect(free.from).toBe('durations');
    expect(free.ms).toBe(free.checksMs + free.overheadMs);
    const limited = estimateRun(few, { clock: 'control', concurrency: 8, rateFloorMs: free.checksMs + 60_000 });
    expect(limited.from).toBe('rate limit');
    expect(limited.ms).toBe(free.checksMs + 60_000 + limited.overheadMs);
  });

  it('takes longer one at a time than eight at a time', () => {
    const one = estimateRun(ALL_CHECKS, { clock: 'control', concurrency: 1, rateFloorMs: 0 });
    const eight = estimateRun(ALL_CHECKS, { clock: 'control', concurrency: 8, rateFloorMs: 0 });
    // Not 8 times: the solo phase runs one at a time either way, and the longest checks bound the rest.
    expect(one.checksMs).toBeGreaterThan(eight.checksMs * 3);
  });
});
