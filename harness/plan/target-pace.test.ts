import { describe, expect, it } from 'vitest';
import { describePace, learnPace, pacedMs, WAITS_MS, type PastCheck } from './target-pace.ts';

// Measured durations by id for these tests: `s<n>` short checks of n ms, `w<n>` waiting ones.
const measured = (id: string) => Number(id.slice(1));
const pass = (id: string, durationMs: number): PastCheck => ({ id, verdict: 'pass', durationMs });
const shorts = (n: number, ms: number, factor: number) => Array.from({ length: n }, (_, i) => pass(`s${ms + i}`, (ms + i) * factor));

describe('learnPace', () => {
  it('takes the weighted median of actual over measured time, apart for short and waiting checks', () => {
    const checks = [...shorts(30, 1000, 2.5), pass(`w${WAITS_MS * 2}`, WAITS_MS * 2 * 1.2)];
    const pace = learnPace([{ runId: 'r1', depth: 'quick', checks }], measured)!;
    expect(pace).toMatchObject({ short: 2.5, works: 1, waiting: 1.2, runs: ['r1'], compared: { short: 30, works: 0, waiting: 1 } });
  });

  it('weighs the checks by their measured time: many tiny latency-bound checks do not outvote the longer ones', () => {
    // 40 checks of 10 ms ten times slower (latency), 20 of 1.5 s twice slower: 0.4 s against 30 s of measure.
    const checks = [...shorts(40, 10, 10), ...shorts(20, 1500, 2)];
    expect(learnPace([{ runId: 'r', depth: 'quick', checks }], measured)!.short).toBe(2);
  });

  it("learns the checks that wait seconds on the target's engine apart from the short ones", () => {
    // Latency adds little to the short checks; the engine triples the ones measured at 2-15 s.
    const checks = [...shorts(30, 100, 1.3), ...shorts(5, 3000, 3)];
    const pace = learnPace([{ runId: 'r', depth: 'quick', checks }], measured)!;
    expect([pace.short, pace.works, pace.compared.works]).toEqual([1.3, 3, 5]);
    expect(describePace(pace)).toBe("1 earlier run against this target (short checks 1.30x, checks that wait on its engine 3.00x the reference's time)");
  });

  it('lets no single check that waited on something else move it, and keeps within the bounds', () => {
    const outlier = pass('s1900', 1900 * 15); // half a minute waiting for a rate window
    expect(learnPace([{ runId: 'r', depth: 'default', checks: [...shorts(25, 500, 1), outlier] }], measured)!.short).toBe(1);
    expect(learnPace([{ runId: 'r', depth: 'default', checks: shorts(25, 500, 9) }], measured)!.short).toBe(4);
    expect(learnPace([{ runId: 'r', depth: 'default', checks: shorts(25, 500, 0.01) }], measured)!.short).toBe(0.25);
  });

  it('counts only passing checks, and no waiting check that ended in a fraction of its measure', () => {
    const failed = shorts(30, 1000, 3).map((c) => ({ ...c, verdict: 'fail' }));
    expect(learnPace([{ runId: 'r', depth: 'quick', checks: failed }], measured)).toBeUndefined();
    const early = pass(`w${WAITS_MS * 4}`, WAITS_MS); // a quarter of its measure: it took another way
    expect(learnPace([{ runId: 'r', depth: 'quick', checks: [early] }], measured)).toBeUndefined();
  });

  it('learns nothing from too few short checks, and keeps the reference\'s pace for a kind it has not seen', () => {
    expect(learnPace([{ runId: 'r', depth: 'smoke', checks: shorts(5, 1000, 2) }], measured)).toBeUndefined();
    const onlyShort = learnPace([{ runId: 'r', depth: 'quick', checks: shorts(20, 1000, 2) }], measured)!;
    expect([onlyShort.short, onlyShort.waiting, onlyShort.compared.waiting]).toEqual([2, 1, 0]);
  });

  it("leaves out what a check waited on the kit (a rate window's room, a lease): the windows are counted apart", () => {
    // 30 checks twice the reference's time, each of which also waited 5 s on the kit's rate budget.
    const checks = shorts(30, 1000, 2).map((c) => ({ ...c, durationMs: c.durationMs! + 5000, waitedMs: 5000 }));
    const pace = learnPace([{ runId: 'r', depth: 'quick', checks }], measured, 'quick')!;
    expect(pace.short).toBe(2);
    expect(pace.own.s1000).toBe(2000);
  });

  it('pools several runs and names them', () => {
    const pace = learnPace([{ runId: 'new', depth: 'quick', checks: shorts(10, 1000, 2) }, { runId: 'old', depth: 'quick', checks: shorts(10, 1000, 2) }], measured)!;
    expect([pace.short, pace.runs]).toEqual([2, ['new', 'old']]);
    expect(describePace(pace)).toBe("2 earlier runs against this target (short checks 2.00x the reference's time)");
    const atDepth = learnPace([{ runId: 'r', depth: 'quick', checks: shorts(20, 1000, 2) }], measured, 'quick')!;
    expect(describePace(atDepth)).toBe("1 earlier run against this target (20 checks at their own time there at this depth, the others at short checks 2.00x the reference's time)");
  });
});

describe('the checks\' own durations', () => {
  it('are their least in the earlier runs at the run\'s depth, where they passed', () => {
    const slowReply = (ms: number, verdict = 'pass') => ({ id: 's900', verdict, durationMs: ms });
    const runs = [
      { runId: 'a', depth: 'quick', checks: [...shorts(20, 1000, 2), slowReply(76_000)] },
      { runId: 'b', depth: 'quick', checks: [...shorts(20, 1000, 2), slowReply(70_000)] },
      { runId: 'c', depth: 'default', checks: [...shorts(20, 1000, 2), slowReply(5_000)] },
      { runId: 'd', depth: 'quick', checks: [slowReply(1_000, 'fail')] },
    ];
    const pace = learnPace(runs, measured, 'quick')!;
    expect(pace.own['s900']).toBe(70_000);
    expect(pace.own['s1000']).toBe(2000);
    expect(learnPace(runs, measured, 'smoke')!.own).toEqual({});
  });
});

describe('pacedMs', () => {
  it('takes a check\'s own duration, else scales its measure by its kind, decided by its measured time', () => {
    const pace = { short: 3, works: 2, waiting: 1.5, own: { mine: 70_000 } };
    expect(pacedMs('x', 1000, pace)).toBe(3000); // short: above WORKS_MS once paced, still short
    expect(pacedMs('x', 10_000, pace)).toBe(20_000);
    expect(pacedMs('x', 60_000, pace)).toBe(90_000);
    expect(pacedMs('mine', 100, pace)).toBe(70_000);
    expect(pacedMs('x', 10_000, undefined)).toBe(10_000);
  });
});
