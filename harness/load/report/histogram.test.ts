import { describe, expect, it } from 'vitest';
import { decode, encode, HIGHEST_US, merge, newHistogram, percentile, record, type Histogram } from './histogram.ts';

// The latency histograms are written into load.json (encoded) and merged across shards and runs:
// neither step may change a count, a percentile, the minimum or the maximum.

/** Deterministic latencies (µs) spread over six decades, like a run with stalls. */
function samples(n: number, seed = 42): number[] {
  let x = seed >>> 0;
  const rand = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
  return Array.from({ length: n }, () => Math.exp(Math.log(50) + rand() * Math.log(2e5)) + (rand() < 0.01 ? 2e6 : 0));
}

const PERCENTILES = [0, 1, 10, 50, 75, 90, 99, 99.9, 99.99, 100];

function of(values: readonly number[]): Histogram {
  const h = newHistogram();
  for (const v of values) record(h, v);
  return h;
}

function expectSameDistribution(a: Histogram, b: Histogram): void {
  expect(a.totalCount).toBe(b.totalCount);
  for (const p of PERCENTILES) expect(percentile(a, p), `p${p}`).toBe(percentile(b, p));
  expect(a.mean).toBeCloseTo(b.mean, 6);
}

describe('histogram', () => {
  const values = samples(20_000);

  it('encode then decode keeps every count, percentile, the minimum and the maximum', () => {
    const h = of(values);
    const back = decode(encode(h));
    expectSameDistribution(back, h);
    // Below 2,048 µs buckets are exact, so the minimum (about 50 µs) comes back as recorded; the
    // encoded form holds buckets, not raw values, so the maximum comes back as its bucket's top.
    expect(h.minNonZeroValue).toBeLessThan(2048);
    expect(back.minNonZeroValue).toBe(h.minNonZeroValue);
    expect(back.maxValue).toBe(percentile(h, 100));
    expect(back.maxValue / h.maxValue).toBeLessThan(1.001);
    // And encoding is stable.
    expect(encode(back)).toBe(encode(decode(encode(back))));
  });

  it('merging shards equals one histogram of all their samples', () => {
    const whole = of(values);
    const shards = [values.slice(0, 7_000), values.slice(7_000, 7_001), values.slice(7_001)].map(of);
    const merged = merge(shards);
    expectSameDistribution(merged, whole);
    expect(merged.minNonZeroValue).toBe(whole.minNonZeroValue);
    expect(merged.maxValue).toBe(whole.maxValue);
  });

  it('merging decoded shards (as load merge does) equals the decoded whole', () => {
    const whole = decode(encode(of(values)));
    const shards = [values.filter((_, i) => i % 3 === 0), values.filter((_, i) => i % 3 === 1), values.filter((_, i) => i % 3 === 2)];
    const merged = merge(shards.map((s) => decode(encode(of(s)))));
    expectSameDistribution(merged, whole);
    expect(merged.minNonZeroValue).toBe(whole.minNonZeroValue);
    expect(merged.maxValue).toBe(whole.maxValue);
  });

  it('merging nothing, or empty histograms, gives an empty histogram whose percentiles are 0', () => {
    for (const h of [merge([]), merge([newHistogram(), newHistogram()]), decode(encode(newHistogram()))]) {
      expect(h.totalCount).toBe(0);
      expect(percentile(h, 50)).toBe(0);
      expect(percentile(h, 100)).toBe(0);
    }
  });

  it('a value above HIGHEST_US is clamped to it and still counted; below 1 µs counts as 1', () => {
    const h = newHistogram();
    record(h, 10);
    record(h, HIGHEST_US * 10);
    record(h, Number.MAX_SAFE_INTEGER);
    record(h, 0);
    record(h, -5);
    expect(h.totalCount).toBe(5);
    expect(h.maxValue).toBe(HIGHEST_US);
    expect(h.minNonZeroValue).toBe(1);
    // The top two samples read as HIGHEST_US, within the histogram's 3 significant digits.
    expect(percentile(h, 70)).toBe(percentile(h, 100));
    expect(percentile(h, 100)).toBeGreaterThanOrEqual(HIGHEST_US);
    expect(percentile(h, 100) / HIGHEST_US).toBeLessThan(1.001);
    expect(percentile(h, 40)).toBe(1);
    // And they survive encoding.
    const back = decode(encode(h));
    expect(back.totalCount).toBe(5);
    expect(percentile(back, 100)).toBe(percentile(h, 100));
  });

  it('rounds to whole microseconds and keeps 3 significant digits', () => {
    const h = newHistogram();
    record(h, 1234.4);
    expect(percentile(h, 50)).toBe(1234);
    const big = newHistogram();
    record(big, 123_456_789);
    expect(Math.abs(percentile(big, 50) - 123_456_789) / 123_456_789).toBeLessThan(0.001);
  });
});
