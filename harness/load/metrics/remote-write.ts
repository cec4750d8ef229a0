import { pushTimeseries } from 'prometheus-remote-write';
import { leLabel } from './buckets.ts';
import type { MetricsTarget } from './flag.ts';
import type { Snapshot } from './load-metrics.ts';

// Prometheus remote write (protobuf WriteRequest, snappy-compressed) through the
// prometheus-remote-write package. The latency is a classic histogram (_bucket{le}, _sum, _count)
// over the buckets a run has reached (buckets.ts): each bucket from just below the lowest to the highest
// seen, and +Inf; a bucket once sent is sent on every push.

export interface Exporter {
  /** e.g. "prometheus-rw http://host:9090/api/v1/write" (never credentials) */
  readonly name: string;
  /** sends one snapshot; rejects (with a message fit to print) when it did not arrive */
  push(s: Snapshot, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

type Series = { labels: Record<string, string> & { __name__: string }; samples: { value: number; timestamp: number }[] };

/** The snapshot as remote-write time series. */
export function toTimeseries(s: Snapshot): Series[] {
  const out: Series[] = [];
  const add = (name: string, value: number, labels: Record<string, string> = {}) => out.push({ labels: { __name__: name, ...s.labels, ...labels }, samples: [{ value, timestamp: s.at }] });
  for (const c of s.scalars) add(c.name, c.value, c.labels);
  const h = s.latency;
  let cumulative = 0;
  h.counts.forEach((n, k) => add(`${h.name}_bucket`, (cumulative += n), { le: leLabel(h.lo + k) }));
  add(`${h.name}_bucket`, h.count, { le: '+Inf' });
  add(`${h.name}_sum`, h.sum);
  add(`${h.name}_count`, h.count);
  return out;
}

export function remoteWriteExporter(t: MetricsTarget): Exporter {
  const name = `prometheus-rw ${t.url}`;
  return {
    name,
    async push(s, timeoutMs) {
      const res = await pushTimeseries(toTimeseries(s), {
        url: t.url,
        ...(t.auth ? { auth: t.auth } : {}),
        headers: { 'Content-Encoding': 'snappy', 'X-Prometheus-Remote-Write-Version': '0.1.0', 'User-Agent': 'outreach-conformance' },
        fetch: (url, init) => fetch(url, { method: init!.method, headers: init!.headers, body: init!.body as unknown as BodyInit, signal: AbortSignal.timeout(timeoutMs) }),
      });
      if (res.status < 200 || res.status > 299) throw new Error(`${name} answered ${res.status} ${res.statusText}${res.errorMessage ? `: ${res.errorMessage.trim().slice(0, 200)}` : ''}`);
    },
    close: async () => {},
  };
}
