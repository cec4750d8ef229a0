// The statistics of `compare`: paired ratios head/base, their median, a seeded bootstrap
// confidence interval of it, exact one-sided tests (sign test, Wilcoxon signed-rank) and the
// verdict rule. Pure functions over small samples (a few pairs): every p-value is exact, never a
// normal approximation, so a 5-pair comparison means what it says.
import { seededRandom } from '../../ground/seed.ts';

/** The q-quantile (0..1) of xs, linear between order statistics; NaN for an empty sample. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

export interface Interval {
  low: number;
  high: number;
  /** e.g. 0.95 */
  level: number;
}

/**
 * Percentile bootstrap interval of the median of xs: `iterations` resamples with replacement,
 * drawn from `seed` (the same seed gives the same interval).
 */
export function bootstrapMedianCI(xs: readonly number[], o: { seed: number; level?: number; iterations?: number }): Interval {
  const level = o.level ?? 0.95;
  if (xs.length === 0) return { low: NaN, high: NaN, level };
  const rand = seededRandom(o.seed);
  const n = xs.length;
  const iterations = o.iterations ?? 10_000;
  const medians = new Array<number>(iterations);
  const sample = new Array<number>(n);
  for (let i = 0; i < iterations; i++) {
    for (let j = 0; j < n; j++) sample[j] = xs[Math.floor(rand() * n)]!;
    medians[i] = median(sample);
  }
  return { low: quantile(medians, (1 - level) / 2), high: quantile(medians, 1 - (1 - level) / 2), level };
}

/** log C(n, k) for the binomial tails below. */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
}

/**
 * Exact one-sided sign test that the differences tend to be above 0: P(at least k positive of n
 * non-zero under a fair coin). Zeros carry no sign and are dropped (n counts the others).
 */
export function signTest(diffs: readonly number[]): { p: number; positive: number; n: number } {
  const nz = diffs.filter((d) => d !== 0 && Number.isFinite(d));
  const n = nz.length;
  const k = nz.filter((d) => d > 0).length;
  if (n === 0) return { p: 1, positive: 0, n: 0 };
  let p = 0;
  for (let i = k; i <= n; i++) p += Math.exp(logChoose(n, i) - n * Math.LN2);
  return { p: Math.min(1, p), positive: k, n };
}

/**
 * Exact one-sided Wilcoxon signed-rank test that the differences tend to be above 0. Zeros are
 * dropped (Wilcoxon's rule), tied magnitudes get their average rank; the p-value is
 * P(W+ >= observed) over all 2^n sign assignments, counted exactly on doubled ranks.
 */
export function wilcoxonSignedRank(diffs: readonly number[]): { p: number; wPlus: number; n: number } {
  const nz = diffs.filter((d) => d !== 0 && Number.isFinite(d));
  const n = nz.length;
  if (n === 0) return { p: 1, wPlus: 0, n: 0 };
  const order = nz.map((d, i) => ({ a: Math.abs(d), i })).sort((x, y) => x.a - y.a);
  const rank2 = new Array<number>(n); // twice the (average) rank: always an integer
  for (let s = 0; s < n; ) {
    let e = s;
    while (e + 1 < n && order[e + 1]!.a === order[s]!.a) e++;
    for (let k = s; k <= e; k++) rank2[order[k]!.i] = s + e + 2; // 2 * average of ranks s+1..e+1
    s = e + 1;
  }
  const observed2 = nz.reduce((acc, d, i) => acc + (d > 0 ? rank2[i]! : 0), 0);
  const total2 = rank2.reduce((a, b) => a + b, 0);
  // counts[s] = number of sign assignments whose doubled W+ is s
  let counts = new Array<number>(total2 + 1).fill(0);
  counts[0] = 1;
  for (const r of rank2) {
    const next = counts.slice();
    for (let s = 0; s + r <= total2; s++) if (counts[s]) next[s + r]! += counts[s]!;
    counts = next;
  }
  let tail = 0;
  for (let s = observed2; s <= total2; s++) tail += counts[s]!;
  return { p: Math.min(1, tail / 2 ** n), wPlus: observed2 / 2, n };
}

export type Better = 'lower' | 'higher';
export type Verdict = 'pass' | 'warn' | 'fail';

/**
 * The regression rule: a metric is worse when its median ratio head/base passes its threshold in
 * the bad direction (lower-is-better: ratio > 1 + t; higher-is-better: ratio < 1 - t), and
 * significant when the one-sided test in that direction gives p < alpha. Both: fail; one: warn.
 */
export function judge(o: { ratio: number; threshold: number; better: Better; p: number; alpha: number }): { verdict: Verdict; worse: boolean; significant: boolean } {
  const worse = o.better === 'lower' ? o.ratio > 1 + o.threshold : o.ratio < 1 - o.threshold;
  const significant = o.p < o.alpha;
  return { verdict: worse && significant ? 'fail' : worse || significant ? 'warn' : 'pass', worse, significant };
}

/** Paired ratios head/base judged: median, bootstrap CI, both tests (the verdict uses Wilcoxon). */
export function compareRatios(ratios: readonly number[], o: { better: Better; threshold: number; alpha: number; seed: number }) {
  // Tested on log ratios, signed so that "worse" is positive: a ratio of 1.2 and one of 1/1.2 weigh alike.
  const worseLogs = ratios.map((r) => (o.better === 'lower' ? Math.log(r) : -Math.log(r)));
  const m = median(ratios);
  const wilcoxon = wilcoxonSignedRank(worseLogs);
  const sign = signTest(worseLogs);
  return {
    medianRatio: m,
    ci: bootstrapMedianCI(ratios, { seed: o.seed }),
    pValue: wilcoxon.p,
    signTestP: sign.p,
    ...judge({ ratio: m, threshold: o.threshold, better: o.better, p: wilcoxon.p, alpha: o.alpha }),
  };
}

/** The smallest p-value n pairs can give (every pair worse): 2^-n. Below alpha, a fail is possible. */
export const smallestP = (n: number): number => 2 ** -n;

/** The fewest pairs whose smallest p-value is below alpha (5 at 0.05, 7 at 0.01): fewer can never fail. */
export function pairsToReach(alpha: number): number {
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`alpha must be above 0 and at most 1, not ${alpha}`);
  let n = 0;
  while (smallestP(n) >= alpha) n++;
  return n;
}
