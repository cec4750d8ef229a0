import { describe, expect, it } from 'vitest';
import { bootstrapMedianCI, compareRatios, judge, median, quantile, signTest, smallestP, pairsToReach, wilcoxonSignedRank } from './stats.ts';
import { seededRandom } from '../../ground/seed.ts';

/** P(W+ >= observed) by listing every sign assignment: the definition the exact count must match. */
function bruteWilcoxon(diffs: number[]): number {
  const nz = diffs.filter((d) => d !== 0);
  const n = nz.length;
  const abs = nz.map(Math.abs);
  const ranks = abs.map((a) => {
    const below = abs.filter((b) => b < a).length;
    const same = abs.filter((b) => b === a).length;
    return below + (same + 1) / 2;
  });
  const observed = nz.reduce((s, d, i) => s + (d > 0 ? ranks[i]! : 0), 0);
  let hits = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let w = 0;
    for (let i = 0; i < n; i++) if (mask & (1 << i)) w += ranks[i]!;
    if (w >= observed - 1e-9) hits++;
  }
  return hits / 2 ** n;
}

describe('quantiles', () => {
  it('median of odd and even samples, quantiles between order statistics', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([0, 10], 0.25)).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('sign test (exact, one-sided)', () => {
  it('gives binomial tails on known inputs', () => {
    expect(signTest([1, 2, 3, 4, 5]).p).toBeCloseTo(1 / 32, 12);
    expect(signTest([-1, 2, 3, 4, 5]).p).toBeCloseTo(6 / 32, 12);
    expect(signTest([-1, -2, -3, -4, -5]).p).toBeCloseTo(1, 12);
    // 9 of 10 positive: (C(10,9) + C(10,10)) / 1024
    expect(signTest([...Array(9).fill(1), -1]).p).toBeCloseTo(11 / 1024, 12);
  });
  it('drops zeros', () => {
    expect(signTest([0, 0, 1, 1, 1])).toMatchObject({ positive: 3, n: 3 });
    expect(signTest([0, 0, 1, 1, 1]).p).toBeCloseTo(1 / 8, 12);
    expect(signTest([0, 0]).p).toBe(1);
  });
});

describe('Wilcoxon signed-rank (exact, one-sided)', () => {
  it('gives the exact tails on known inputs', () => {
    expect(wilcoxonSignedRank([1, 2, 3, 4, 5]).p).toBeCloseTo(1 / 32, 12);
    expect(wilcoxonSignedRank([-1, 2, 3, 4, 5]).p).toBeCloseTo(2 / 32, 12); // W+ = 14
    expect(wilcoxonSignedRank([-1.5, 2, -2.5, 4, 5]).p).toBeCloseTo(7 / 32, 12); // W- = 1 + 3: negative sets summing <= 4: {}, {1}, {2}, {3}, {4}, {1,2}, {1,3}
    // n = 10, W- = 10 (W+ = 45): 43 of 1024 assignments, the tabled one-sided 0.042
    const tenth = [-1, -2, -3, -4, 5, 6, 7, 8, 9, 10].map((x) => x * 0.01);
    expect(wilcoxonSignedRank(tenth).wPlus).toBe(45);
    expect(wilcoxonSignedRank(tenth).p).toBeCloseTo(43 / 1024, 12);
  });
  it('matches the enumeration of every sign assignment, ties and zeros included', () => {
    const rand = seededRandom(7);
    for (let trial = 0; trial < 60; trial++) {
      const n = 1 + Math.floor(rand() * 11);
      // few distinct magnitudes, so ties are common
      const diffs = Array.from({ length: n }, () => (Math.floor(rand() * 5) - 2) * (rand() < 0.5 ? 1 : 0.5));
      expect(wilcoxonSignedRank(diffs).p).toBeCloseTo(bruteWilcoxon(diffs), 12);
    }
  });
  it('smallest p-value of n pairs is 2^-n: 3 pairs can never reach 0.05, 5 can', () => {
    expect(wilcoxonSignedRank([1, 2, 3]).p).toBe(smallestP(3));
    expect(smallestP(3)).toBeGreaterThan(0.05);
    expect(smallestP(5)).toBeLessThan(0.05);
  });
  it('pairs needed to reach alpha: the fewest n with 2^-n below it (strictly: p must be below alpha)', () => {
    expect(pairsToReach(0.05)).toBe(5);
    expect(pairsToReach(0.01)).toBe(7);
    expect(pairsToReach(0.0625)).toBe(5); // 2^-4 is not below 2^-4
    expect(pairsToReach(0.07)).toBe(4);
    expect(pairsToReach(0.4)).toBe(2);
    expect(() => pairsToReach(0)).toThrow(RangeError);
  });
});

describe('bootstrap confidence interval of the median', () => {
  it('is reproducible from its seed', () => {
    const xs = [1.1, 0.9, 1.3, 1.05, 1.2, 0.97, 1.4];
    expect(bootstrapMedianCI(xs, { seed: 42 })).toEqual(bootstrapMedianCI(xs, { seed: 42 }));
    const ci = bootstrapMedianCI(xs, { seed: 42 });
    expect(ci.low).toBeLessThanOrEqual(median(xs));
    expect(ci.high).toBeGreaterThanOrEqual(median(xs));
  });
  it('covers the true median of a skewed population about as often as its level says', () => {
    const rand = seededRandom(2024);
    const trueMedian = 1.2;
    let covered = 0;
    const reps = 200;
    for (let r = 0; r < reps; r++) {
      // log-normal around the true median (sigma 0.1: a noisy ratio)
      const xs = Array.from({ length: 25 }, () => trueMedian * Math.exp(0.1 * Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand())));
      const ci = bootstrapMedianCI(xs, { seed: r, iterations: 2000 });
      if (ci.low <= trueMedian && trueMedian <= ci.high) covered++;
    }
    // 95 % nominal; the percentile bootstrap of a median runs a little under it on small samples
    expect(covered / reps).toBeGreaterThan(0.88);
    expect(covered / reps).toBeLessThanOrEqual(1);
  });
});

describe('the regression rule', () => {
  const base = { threshold: 0.1, alpha: 0.05 };
  it('fails only when the ratio passes its threshold in the bad direction AND the test is significant', () => {
    expect(judge({ ...base, better: 'lower', ratio: 1.2, p: 0.03 }).verdict).toBe('fail');
    expect(judge({ ...base, better: 'higher', ratio: 0.8, p: 0.03 }).verdict).toBe('fail');
  });
  it('warns when only one holds', () => {
    expect(judge({ ...base, better: 'lower', ratio: 1.2, p: 0.2 }).verdict).toBe('warn'); // large but not consistent
    expect(judge({ ...base, better: 'lower', ratio: 1.03, p: 0.01 }).verdict).toBe('warn'); // consistent but small
    expect(judge({ ...base, better: 'higher', ratio: 0.85, p: 0.5 })).toEqual({ verdict: 'warn', worse: true, significant: false });
  });
  it('passes otherwise, and direction is data: a better metric never fails', () => {
    expect(judge({ ...base, better: 'lower', ratio: 1.05, p: 0.3 }).verdict).toBe('pass');
    expect(judge({ ...base, better: 'lower', ratio: 0.7, p: 0.9 }).verdict).toBe('pass');
    expect(judge({ ...base, better: 'higher', ratio: 1.3, p: 0.9 }).verdict).toBe('pass');
    expect(judge({ ...base, better: 'lower', ratio: 1.1, p: 0.5 }).verdict).toBe('pass'); // exactly at the threshold is not past it
  });
  it('compareRatios tests in the bad direction of each metric', () => {
    const slower = [1.2, 1.25, 1.18, 1.3, 1.22];
    expect(compareRatios(slower, { ...base, better: 'lower', seed: 1 })).toMatchObject({ verdict: 'fail', pValue: 1 / 32, signTestP: 1 / 32 });
    // the same ratios for a higher-is-better metric are an improvement
    expect(compareRatios(slower, { ...base, better: 'higher', seed: 1 })).toMatchObject({ verdict: 'pass', worse: false, significant: false });
    const noisy = [1.4, 0.8, 1.3, 0.9, 1.25];
    expect(compareRatios(noisy, { ...base, better: 'lower', seed: 1 }).verdict).toBe('warn');
  });
});
