import * as hdr from 'hdr-histogram-js';

// Latency histograms (HDR): microsecond values, 3 significant digits, mergeable across shards and
// runs. Encoded with HdrHistogram's compressed base64 form so load.json holds them losslessly.

export type Histogram = hdr.Histogram;

/** Highest value recorded: one hour in microseconds (a longer latency is clamped, and counted). */
export const HIGHEST_US = 3_600_000_000;

export function newHistogram(): Histogram {
  return hdr.build({ bitBucketSize: 64, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3, useWebAssembly: false });
}

/** Records a duration in microseconds (rounded, at least 1, at most HIGHEST_US). */
export function record(h: Histogram, us: number): void {
  h.recordValue(Math.min(HIGHEST_US, Math.max(1, Math.round(us))));
}

export function encode(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decode(s: string): Histogram {
  const h = newHistogram();
  h.add(hdr.decodeFromCompressedBase64(s, 64, false));
  return h;
}

/** One histogram holding every sample of `hs`. */
export function merge(hs: readonly Histogram[]): Histogram {
  const out = newHistogram();
  for (const h of hs) out.add(h);
  return out;
}

/** The value at percentile `p` (0..100), in microseconds; 0 for an empty histogram. */
export function percentile(h: Histogram, p: number): number {
  return h.totalCount === 0 ? 0 : h.getValueAtPercentile(p);
}
