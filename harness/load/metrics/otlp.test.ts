import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../cli/cli.test-helper.ts';
import { decode, percentile } from '../report/histogram.ts';
import type { LoadReport } from '../report/types.ts';

// `--metrics otlp=URL`: OpenTelemetry's own OTLP/HTTP exporter sends each push to a receiver on
// loopback, which keeps the requests as they came (OTLP/JSON, ExportMetricsServiceRequest). No
// OTLP receiver is installable here (Debian's Prometheus 2.42 predates its OTLP endpoint, and no
// OpenTelemetry Collector is packaged), so the test reads the requests by the OTLP data model:
// the last push's counters are load.json's, and its exponential histogram's p99 is within 1 %.

type Attr = { key: string; value: { stringValue?: string } };
type Point = { attributes: Attr[]; asDouble?: number; asInt?: string | number; count?: string | number; sum?: number; scale?: number; positive?: { offset?: number; bucketCounts?: (string | number)[] } };
type Metric = { name: string; unit?: string; sum?: { dataPoints: Point[]; isMonotonic?: boolean; aggregationTemporality?: number }; gauge?: { dataPoints: Point[] }; exponentialHistogram?: { dataPoints: Point[] } };
type Request = { resourceMetrics: { resource: { attributes: Attr[] }; scopeMetrics: { scope: { name: string }; metrics: Metric[] }[] }[] };

const attr = (p: { attributes: Attr[] }, key: string) => p.attributes.find((a) => a.key === key)?.value.stringValue;
const value = (p: Point) => Number(p.asDouble ?? p.asInt ?? 0);

/** A quantile of an OTLP exponential histogram: bucket k holds (base^k, base^(k+1)], linear inside. */
function expQuantile(p: Point, q: number): number {
  const base = 2 ** (2 ** -p.scale!);
  const counts = (p.positive!.bucketCounts ?? []).map(Number);
  const rank = q * Number(p.count);
  let below = 0;
  for (let k = 0; k < counts.length; k++) {
    if (below + counts[k]! >= rank) {
      const lo = base ** (p.positive!.offset! + k);
      return lo + (lo * base - lo) * ((rank - below) / counts[k]!);
    }
    below += counts[k]!;
  }
  return NaN;
}

describe('--metrics otlp into an OTLP/HTTP receiver', () => {
  const requests: { contentType: string; body: Request }[] = [];
  let server: Server;
  afterAll(() => server?.close());

  it("the last push holds load.json's counts, and its exponential histogram's p99 is within 1 %", async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        if (req.url === '/v1/metrics' && req.method === 'POST') requests.push({ contentType: String(req.headers['content-type']), body: JSON.parse(text) as Request });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/metrics`;
    const out = await mkdtemp(join(tmpdir(), 'oc-metrics-otlp-'));
    const r = await cli(['load', 'api', '--rate', '40/s', '--duration', '4s', '--mutants', 'rate-global', '--metrics', `otlp=${url}`, '--metrics-every', '1s', '--out', out, '--quiet'], { timeoutMs: 240_000 });
    expect([0, 1], r.stderr).toContain(r.code);
    // Every push is bounded in time; what the test needs is the last one (the run's totals) arrived.
    expect(r.stdout + r.stderr).toMatch(/^metrics( lost)?: otlp http:\/\/127\.0\.0\.1:\d+\/v1\/metrics: /m);
    expect(r.stderr).not.toMatch(/the final one too/);
    const [name] = await readdir(out);
    const report = JSON.parse(await readFile(join(out, name!, 'load.json'), 'utf8')) as LoadReport;

    expect(requests.length).toBeGreaterThan(1);
    expect(requests.every((q) => q.contentType.startsWith('application/json'))).toBe(true);
    const last = requests.at(-1)!.body.resourceMetrics[0]!;
    expect(last.resource.attributes).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'outreach-load' } }]));
    const metrics = new Map(last.scopeMetrics.flatMap((s) => s.metrics).map((m) => [m.name, m]));
    const requestsMetric = metrics.get('outreach_load_requests')!;
    expect(requestsMetric.sum).toMatchObject({ isMonotonic: true, aggregationTemporality: 2 }); // cumulative
    const points = requestsMetric.sum!.dataPoints;
    expect(points.every((p) => attr(p, 'run') === report.runId && attr(p, 'shard') === '1/1' && attr(p, 'kind') === 'api')).toBe(true);
    expect(points.reduce((a, p) => a + value(p), 0)).toBe(report.totals.completed);
    expect(value(points.find((p) => attr(p, 'status') === '429')!)).toBe(report.totals.status['429']);
    expect(report.totals.status['429']).toBeGreaterThan(0);
    expect(value(metrics.get('outreach_load_errors')!.sum!.dataPoints[0]!)).toBe(report.totals.errors);
    expect(value(metrics.get('outreach_load_late')!.sum!.dataPoints[0]!)).toBe(report.totals.late);
    expect(metrics.get('outreach_load_schedule_lag')).toMatchObject({ unit: 's', gauge: {} });

    const latency = metrics.get('outreach_load_latency')!;
    expect(latency.unit).toBe('s');
    const h = latency.exponentialHistogram!.dataPoints[0]!;
    expect(h.scale).toBe(7);
    expect(Number(h.count)).toBe(report.totals.completed);
    for (const q of [50, 99]) {
      const want = percentile(decode(report.totals.corrected), q) / 1e6;
      const got = expQuantile(h, q / 100);
      expect(Math.abs(got - want) / want, `p${q}: OTLP ${got}, load.json ${want}`).toBeLessThan(0.01);
    }
  }, 300_000);
});
