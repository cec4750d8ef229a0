import type { Message } from 'protobufjs';
import { compress } from 'snappyjs';
import { PER_OCTAVE, SCALE } from './buckets.ts';
import type { MetricsTarget } from './flag.ts';
import type { Snapshot } from './load-metrics.ts';
import { WriteRequest, type PromSeries } from './prompb.ts';

// Prometheus remote write 1.0: a WriteRequest (protobufjs, prompb.ts) compressed with snappy
// (snappyjs), POSTed. The latency goes twice:
// - as a native histogram of schema 7 (`outreach_load_latency_seconds`): the kit's own buckets,
//   sparse, 0.54 % wide, and summed across shards exactly; Prometheus takes it with
//   --enable-feature=native-histograms (Mimir, Grafana Cloud as they are);
// - as a classic histogram (`outreach_load_latency_seconds_bucket{le}`, `_sum`, `_count`) on a
//   fixed grid, bounds 2^(k/4) s from 61 µs to 64 s (19 % wide), the same for every run and
//   shard, so any Prometheus takes it and sums it.
// A receiver that refuses native histograms is sent the rest without them for the rest of the
// run, and the report says so.

export interface Exporter {
  /** e.g. "prometheus-rw http://host:9090/api/v1/write" (never credentials) */
  readonly name: string;
  /** sends one snapshot; rejects (with a message fit to print) when it did not arrive */
  push(s: Snapshot, timeoutMs: number): Promise<void>;
  /** what the report should say about this output beyond its pushes */
  notes?(): string[];
  close(): Promise<void>;
}

/** The classic grid: bound k is 2^(k/4) s, k from CLASSIC_LOW to CLASSIC_HIGH. */
export const CLASSIC_PER_OCTAVE = 4;
const CLASSIC_LOW = -14 * CLASSIC_PER_OCTAVE;
const CLASSIC_HIGH = 6 * CLASSIC_PER_OCTAVE;
const FINE_PER_CLASSIC = PER_OCTAVE / CLASSIC_PER_OCTAVE;

/** The snapshot as remote-write time series (`native`: with the native histogram). */
export function toTimeseries(s: Snapshot, native = true): PromSeries[] {
  const out: PromSeries[] = [];
  const labelsOf = (name: string, extra: Record<string, string> = {}) => Object.entries({ __name__: name, ...s.labels, ...extra }).map(([n, value]) => ({ name: n, value }));
  const add = (name: string, value: number, extra?: Record<string, string>) => out.push({ labels: labelsOf(name, extra), samples: [{ value, timestamp: s.at }] });
  for (const c of s.scalars) add(c.name, c.value, c.labels);
  const h = s.latency;
  // Classic: the cumulative count at each bound of the grid (a fine bucket i is under bound k when i <= k * 32).
  let k = CLASSIC_LOW;
  let cumulative = 0;
  const flushTo = (limit: number) => {
    for (; k <= limit; k++) add(`${h.name}_bucket`, cumulative, { le: String(2 ** (k / CLASSIC_PER_OCTAVE)) });
  };
  h.counts.forEach((n, j) => {
    const i = h.lo + j;
    flushTo(Math.min(CLASSIC_HIGH, Math.ceil(i / FINE_PER_CLASSIC) - 1));
    cumulative += n;
  });
  flushTo(CLASSIC_HIGH);
  add(`${h.name}_bucket`, h.count, { le: '+Inf' });
  add(`${h.name}_sum`, h.sum);
  add(`${h.name}_count`, h.count);
  if (native) out.push({ labels: labelsOf(h.name), histograms: [nativeHistogram(s)] });
  return out;
}

/** The latency as a native histogram: one span over the buckets reached, counts as deltas. */
function nativeHistogram(s: Snapshot): NonNullable<PromSeries['histograms']>[number] {
  const h = s.latency;
  let previous = 0;
  const deltas = h.counts.map((n) => {
    const d = n - previous;
    previous = n;
    return d;
  });
  return { count_int: h.count, sum: h.sum, schema: SCALE, zero_threshold: 0, zero_count_int: 0, positive_spans: h.counts.length ? [{ offset: h.lo, length: h.counts.length }] : [], positive_deltas: deltas, timestamp: s.at };
}

const NATIVE_REFUSED = /native histogram/i;

export function remoteWriteExporter(t: MetricsTarget): Exporter {
  const name = `prometheus-rw ${t.url}`;
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-protobuf',
    'Content-Encoding': 'snappy',
    'X-Prometheus-Remote-Write-Version': '0.1.0',
    'User-Agent': 'outreach-conformance',
    ...(t.auth ? { Authorization: `Basic ${Buffer.from(`${t.auth.username}:${t.auth.password}`).toString('base64')}` } : {}),
  };
  let native = true;
  let refusal: string | undefined;
  const send = async (s: Snapshot, timeoutMs: number) => {
    // The plain objects are in the messages' own shape (prompb.ts): encoded as they are, no copy.
    const body = compress(WriteRequest.encode({ timeseries: toTimeseries(s, native) } as unknown as Message).finish());
    const res = await fetch(t.url, { method: 'POST', headers, body: body as unknown as BodyInit, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text().catch(() => '');
    return { status: res.status, text: text.trim().slice(0, 200) };
  };
  return {
    name,
    async push(s, timeoutMs) {
      let r = await send(s, timeoutMs);
      if (native && r.status >= 400 && NATIVE_REFUSED.test(r.text)) {
        native = false;
        refusal = r.text;
        r = await send(s, timeoutMs);
      }
      if (r.status < 200 || r.status > 299) throw new Error(`${name} answered ${r.status}${r.text ? `: ${r.text}` : ''}`);
    },
    notes: () => (refusal ? [`metrics: ${name} refused native histograms ("${refusal}"; Prometheus takes them with --enable-feature=native-histograms): the latency went as the classic histogram alone, whose buckets are 19 % wide`] : []),
    close: async () => {},
  };
}
