import { ValueType } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, type MetricData, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { SCALE } from './buckets.ts';
import type { MetricsTarget } from './flag.ts';
import type { Scalar, Snapshot } from './load-metrics.ts';
import type { Exporter } from './remote-write.ts';

// OTLP over HTTP through OpenTelemetry's own exporter (@opentelemetry/exporter-metrics-otlp-http),
// fed the run's snapshot as the SDK's metric data: cumulative sums and gauges, and the latency as
// an exponential histogram of scale 7 (the same buckets as remote write's: buckets.ts). Names
// follow OpenTelemetry's Prometheus translation, so a receiver that writes to Prometheus (its OTLP
// endpoint, a Collector) lands on the same series: outreach_load_requests + unit "1" + monotonic
// -> outreach_load_requests_total, outreach_load_latency + "s" -> outreach_load_latency_seconds.

const hr = (ms: number): [number, number] => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** The OpenTelemetry name and unit of a Prometheus name. */
export function otelName(promName: string): { name: string; unit: string } {
  if (promName.endsWith('_total')) return { name: promName.slice(0, -'_total'.length), unit: '1' };
  if (promName.endsWith('_seconds')) return { name: promName.slice(0, -'_seconds'.length), unit: 's' };
  return { name: promName, unit: '1' };
}

/** The snapshot as the SDK's ResourceMetrics: what a MeterProvider's reader hands an exporter. */
export function toResourceMetrics(s: Snapshot): ResourceMetrics {
  const { job, ...attributes } = s.labels;
  const startTime = hr(s.start);
  const endTime = hr(s.at);
  const byName = new Map<string, Scalar[]>();
  for (const c of s.scalars) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const metrics: MetricData[] = [...byName.values()].map((cs) => {
    const c = cs[0]!;
    const descriptor = { ...otelName(c.name), description: c.help, valueType: ValueType.DOUBLE };
    const dataPoints = cs.map((x) => ({ startTime, endTime, attributes: { ...attributes, ...x.labels }, value: x.value }));
    return c.type === 'counter'
      ? { descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints }
      : { descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.GAUGE, dataPoints };
  });
  const h = s.latency;
  metrics.push({
    descriptor: { ...otelName(h.name), description: h.help, valueType: ValueType.DOUBLE },
    aggregationTemporality: AggregationTemporality.CUMULATIVE,
    dataPointType: DataPointType.EXPONENTIAL_HISTOGRAM,
    dataPoints: [
      {
        startTime,
        endTime,
        attributes,
        // OpenTelemetry's bucket k holds (base^k, base^(k+1)]: the kit's bucket i is k = i - 1.
        value: { count: h.count, sum: h.sum, scale: SCALE, zeroCount: 0, positive: { offset: h.lo - 1, bucketCounts: h.counts }, negative: { offset: 0, bucketCounts: [] } },
      },
    ],
  } as MetricData);
  return { resource: resourceFromAttributes({ 'service.name': job ?? 'outreach-load' }), scopeMetrics: [{ scope: { name: 'outreach-conformance' }, metrics }] };
}

export function otlpExporter(t: MetricsTarget): Exporter {
  const name = `otlp ${t.url}`;
  const headers = t.auth ? { Authorization: `Basic ${Buffer.from(`${t.auth.username}:${t.auth.password}`).toString('base64')}` } : undefined;
  // One exporter per bound: OpenTelemetry's exporter takes its timeout when built.
  const exporters = new Map<number, OTLPMetricExporter>();
  const exporterFor = (timeoutMillis: number) => {
    let e = exporters.get(timeoutMillis);
    if (!e) exporters.set(timeoutMillis, (e = new OTLPMetricExporter({ url: t.url, timeoutMillis, ...(headers ? { headers } : {}) })));
    return e;
  };
  return {
    name,
    push: (s, timeoutMs) =>
      new Promise<void>((resolve, reject) =>
        exporterFor(timeoutMs).export(toResourceMetrics(s), (r) => (r.code === 0 ? resolve() : reject(new Error(`${name}: ${r.error?.message ?? 'the export failed'}`)))),
      ),
    close: async () => {
      await Promise.all([...exporters.values()].map((e) => e.shutdown()));
    },
  };
}
