import { describe, expect, it } from 'vitest';
import { compareExitCode, DEFAULT_ALPHA, explainVerdict, judgeMetrics, overallVerdict, type CompareRun, type MetricResult } from './metrics.ts';
import type { RunFigures } from './run.ts';
import { seededRandom } from '../../ground/seed.ts';

// The regression rule of `compare` on synthetic pairs whose ratios are known: the decision on
// either side of alpha, and the rule's power and false alarms on seeded samples. How the rule
// fares on this machine's real measurements is a benchmark (`npm run bench:compare-rule`).

/** Pairs of runs whose CPU per request gives exactly these head/base ratios (other metrics equal). */
function runsWithCpuRatios(ratios: readonly number[]): CompareRun[] {
  const figures = (cpuPerRequestUs: number): RunFigures => ({ requests: 1000, errors: 0, wallMs: 1000, throughput: 1000, p50: 500, p99: 900, cpuPerRequestUs, histogram: '' });
  return ratios.flatMap((r, i) => [
    { pair: i + 1, side: 'base' as const, position: 1 as const, figures: figures(100) },
    { pair: i + 1, side: 'head' as const, position: 2 as const, figures: figures(100 * r) },
  ]);
}

const cpuOf = (ratios: readonly number[], seed = 1) => judgeMetrics('api', runsWithCpuRatios(ratios), { thresholds: {}, alpha: DEFAULT_ALPHA, seed }).find((m) => m.id === 'cpu')!;

/**
 * Seven pairs, each log ratio's magnitude a distinct rank (0.05 .. 0.35), all worse but the one
 * of rank `betterRank`. With 7 pairs, P(W- <= k) counts the subsets of ranks 1..7 summing to at
 * most k, over 2^7: W- = 3 gives 5/128 (0.039), W- = 4 gives 7/128 (0.0547).
 */
function sevenPairs(betterRank: number): number[] {
  return [1, 2, 3, 4, 5, 6, 7].map((rank) => Math.exp((rank === betterRank ? -1 : 1) * 0.05 * rank));
}

describe('the rule at alpha, on known ratios', () => {
  it('one better pair of rank 3 of 7: p = 5/128, just below 0.05, and a median past 10 %: fail', () => {
    const m = cpuOf(sevenPairs(3));
    expect(m.pValue).toBeCloseTo(5 / 128, 12);
    expect(m.medianRatio).toBeGreaterThan(1.1);
    expect(m).toMatchObject({ worse: true, significant: true, verdict: 'fail' });
  });

  it('one better pair of rank 4 of 7: p = 7/128, just above 0.05, the same kind of median: warn, not fail', () => {
    // The shape of a 20 % slower build measured with 7 pairs where one pair swung the other way.
    const m = cpuOf(sevenPairs(4));
    expect(m.pValue).toBeCloseTo(7 / 128, 12);
    expect(m.medianRatio).toBeGreaterThan(1.1);
    expect(m).toMatchObject({ worse: true, significant: false, verdict: 'warn' });
  });

  it('every pair worse but the median within the threshold: significant alone warns', () => {
    const m = cpuOf([1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08]);
    expect(m.pValue).toBeCloseTo(1 / 128, 12);
    expect(m).toMatchObject({ worse: false, significant: true, verdict: 'warn' });
  });

  it('a threshold and alpha given by the user move the decision', () => {
    const runs = runsWithCpuRatios(sevenPairs(4));
    const looser = judgeMetrics('api', runs, { thresholds: {}, alpha: 0.06, seed: 1 }).find((m) => m.id === 'cpu')!;
    expect(looser.verdict).toBe('fail');
    const higher = judgeMetrics('api', runsWithCpuRatios(sevenPairs(3)), { thresholds: { cpu: 0.5 }, alpha: DEFAULT_ALPHA, seed: 1 }).find((m) => m.id === 'cpu')!;
    expect(higher).toMatchObject({ worse: false, verdict: 'warn' });
  });
});

describe('too few pairs to reach alpha: inconclusive, not a pass', () => {
  const judged = (ratios: readonly number[], alpha = DEFAULT_ALPHA) => judgeMetrics('api', runsWithCpuRatios(ratios), { thresholds: {}, alpha, seed: 1 });

  it('3 pairs, every one 30 % worse: p = 1/8, the smallest 3 pairs give, so every metric is inconclusive and says 5 pairs can decide', () => {
    const metrics = judged([1.3, 1.3, 1.3]);
    const cpu = metrics.find((m) => m.id === 'cpu')!;
    expect(cpu.pValue).toBe(1 / 8);
    expect(cpu).toMatchObject({ worse: true, significant: false, verdict: 'inconclusive' });
    expect(cpu.note).toMatch(/with 3 pairs the smallest one-sided p-value is 0\.1250, not below alpha 0\.05, so no fail is possible: 5 pairs can decide \(--pairs 5\)/);
    expect(explainVerdict(cpu, DEFAULT_ALPHA)).toMatch(/^INCONCLUSIVE: median ratio head\/base 1\.300 is above 1\.100, p = 0\.1250, but with 3 pairs .* 5 pairs can decide/);
    expect(explainVerdict(cpu, DEFAULT_ALPHA, { briefly: true })).toBe('INCONCLUSIVE: median ratio head/base 1.300 is above 1.100, p = 0.1250, but 3 pairs cannot reach alpha 0.05');
    // the metrics that did not move are no pass either: their test could not have failed them
    expect(metrics.filter((m) => m.id !== 'cpu').map((m) => m.verdict)).toEqual(['inconclusive', 'inconclusive', 'inconclusive']);
    expect(overallVerdict(metrics)).toBe('inconclusive');
    expect(compareExitCode(overallVerdict(metrics))).toBe(2);
  });

  it('4 pairs at alpha 0.05 cannot decide (1/16 is not below it); at alpha 0.07 they can, and fail', () => {
    const fourWorse = [1.3, 1.3, 1.3, 1.3];
    expect(judged(fourWorse).find((m) => m.id === 'cpu')!.verdict).toBe('inconclusive');
    const looser = judged(fourWorse, 0.07);
    expect(looser.find((m) => m.id === 'cpu')).toMatchObject({ pValue: 1 / 16, verdict: 'fail' });
    expect(looser.find((m) => m.id === 'p50')!.verdict).toBe('pass');
    expect(overallVerdict(looser)).toBe('fail');
    expect(compareExitCode('fail')).toBe(1);
  });

  it('5 pairs at alpha 0.05 decide: all worse fails, none worse passes; at alpha 0.01 the same 5 pairs cannot, and 7 are needed', () => {
    expect(judged([1.3, 1.3, 1.3, 1.3, 1.3]).find((m) => m.id === 'cpu')!.verdict).toBe('fail');
    const same = judged([1, 1, 1, 1, 1]);
    expect(same.map((m) => m.verdict)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(overallVerdict(same)).toBe('pass');
    expect(compareExitCode('pass')).toBe(0);
    const strict = judged([1.3, 1.3, 1.3, 1.3, 1.3], 0.01).find((m) => m.id === 'cpu')!;
    expect(strict.verdict).toBe('inconclusive');
    expect(strict.note).toMatch(/7 pairs can decide \(--pairs 7\)/);
  });

  it('the whole verdict: the worst of the metrics that decided; inconclusive only when none did', () => {
    const m = (verdict: MetricResult['verdict']) => ({ verdict }) as MetricResult;
    expect(overallVerdict([m('inconclusive'), m('pass')])).toBe('pass');
    expect(overallVerdict([m('inconclusive'), m('warn'), m('pass')])).toBe('warn');
    expect(overallVerdict([m('inconclusive'), m('fail')])).toBe('fail');
    expect(overallVerdict([m('inconclusive'), m('unmeasured')])).toBe('inconclusive');
    expect(overallVerdict([m('unmeasured')])).toBe('inconclusive');
    expect(compareExitCode('warn')).toBe(0);
  });
});

describe('the rule on seeded samples of known ratio (13 pairs, as bench:compare-rule runs)', () => {
  /** Ratios true x exp(noise), the noise normal with sigma (Box-Muller on a seeded generator). */
  function noisyRatios(trueRatio: number, sigma: number, pairs: number, rand: () => number): number[] {
    return Array.from({ length: pairs }, () => trueRatio * Math.exp(sigma * Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand())));
  }
  const flaggedShare = (trueRatio: number, trials: number, seed: number) => {
    const rand = seededRandom(seed);
    let flagged = 0;
    for (let t = 0; t < trials; t++) if (cpuOf(noisyRatios(trueRatio, 0.1, 13, rand), t).verdict === 'fail') flagged++;
    return flagged / trials;
  };

  // sigma 0.1 on the log ratio: single pairs off by 20 % and more about one time in twenty.
  it('flags a 20 % slower head in at least 90 % of trials', () => {
    expect(flaggedShare(1.2, 100, 11)).toBeGreaterThanOrEqual(0.9);
  });

  it('flags an identical head in at most 5 % of trials (alpha), far fewer with the threshold', () => {
    expect(flaggedShare(1, 200, 12)).toBeLessThanOrEqual(0.05);
  });
});
