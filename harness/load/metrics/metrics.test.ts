import { createServer, type Server } from 'node:net';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../cli/cli.test-helper.ts';
import { newHistogram, percentile, record } from '../report/histogram.ts';
import { bucketOf, upperBound } from './buckets.ts';
import { parseMetricsFlag } from './flag.ts';
import { openRunMetrics } from './index.ts';
import { LoadMetrics } from './load-metrics.ts';
import { toTimeseries } from './remote-write.ts';

// The metrics outputs without a Prometheus: the buckets' resolution against load.json's HDR
// percentiles, the flag's refusals (secrets hidden), the series a push carries, and an output that
// is down or never answers: the load goes on, the push is bounded, the report says what was lost.

/** histogram_quantile as Prometheus computes it over cumulative buckets (linear inside one). */
function promQuantile(q: number, buckets: { le: number; count: number }[]): number {
  const total = buckets.at(-1)!.count;
  const rank = q * total;
  let i = buckets.findIndex((b) => b.count >= rank);
  const lower = i === 0 ? 0 : buckets[i - 1]!.le;
  const below = i === 0 ? 0 : buckets[i - 1]!.count;
  return lower + (buckets[i]!.le - lower) * ((rank - below) / (buckets[i]!.count - below));
}

describe('latency buckets', () => {
  it('place a value under the first bound at or above it', () => {
    for (const s of [1e-6, 0.000123, 0.001, 0.0123456, 0.25, 1, 3.7, 59.9]) {
      const i = bucketOf(s);
      expect(upperBound(i)).toBeGreaterThanOrEqual(s);
      expect(upperBound(i - 1)).toBeLessThan(s);
    }
    expect(bucketOf(upperBound(-300))).toBe(-300); // a value on a bound is in the bucket it bounds
  });

  it("read back p50/p99/p99.9 within 1 % of load.json's HDR percentiles, for any shape of latency", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const shapes = {
      loopback: () => 0.2 + rnd() * 2,
      bimodal: () => (rnd() < 0.9 ? 1 + rnd() : 200 + rnd() * 50),
      heavyTail: () => 0.5 / Math.max(1e-4, rnd()) ** 0.8,
      tiny: () => 0.001 + rnd() * 0.01,
    };
    for (const [name, draw] of Object.entries(shapes)) {
      // Counts where q x n is not a whole number: there, float rounding of q x n may move
      // histogram_quantile's rank a sample up from HDR's (which subtracts an ulp), whatever the buckets.
      for (const n of [1, 50, 151, 5003]) {
        const m = new LoadMetrics({ run: 'r', shard: '1/1', kind: 'api' });
        const hdr = newHistogram();
        for (let k = 0; k < n; k++) {
          const ms = draw();
          m.shot({ intended: 0, sent: 0, done: ms, status: 200, late: false });
          record(hdr, ms * 1000);
        }
        const h = m.snapshot().latency;
        let cum = 0;
        const buckets = h.counts.map((c, k) => ({ le: upperBound(h.lo + k), count: (cum += c) }));
        for (const q of [50, 99, 99.9]) {
          const exact = percentile(hdr, q) / 1e6;
          const read = promQuantile(q / 100, buckets);
          expect(Math.abs(read - exact) / exact, `${name} n=${n} p${q}: ${read} vs ${exact}`).toBeLessThan(0.01);
        }
      }
    }
  });
});

describe('--metrics', () => {
  it('takes prometheus-rw=URL and otlp=URL; a URL\'s credentials become basic auth and leave the URL', () => {
    expect(parseMetricsFlag(['prometheus-rw=http://u:p%40ss@prom:9090/api/v1/write', 'otlp=https://collector:4318/v1/metrics'], {})).toEqual([
      { kind: 'prometheus-rw', url: 'http://prom:9090/api/v1/write', auth: { username: 'u', password: 'p@ss' } },
      { kind: 'otlp', url: 'https://collector:4318/v1/metrics' },
    ]);
    expect(parseMetricsFlag(['otlp=http://c:4318/v1/metrics'], { OUTREACH_METRICS_AUTH: 'svc:secret-pw' })[0]!.auth).toEqual({ username: 'svc', password: 'secret-pw' });
  });

  it('refuses a bad value with one clear line that never shows the password', () => {
    for (const [value, why] of [
      ['prometheus=http://h/api/v1/write', /"prometheus" is not an output/],
      ['http://h/api/v1/write', /is not an output/],
      ['otlp=not a url', /not a URL/],
      ['prometheus-rw=ftp://h/x', /ftp: is not http: or https:/],
      ['prometheus-rw=http://admin:hunter2-secret@[bad/api', /not a URL/],
    ] as const) {
      const e = (() => {
        try {
          parseMetricsFlag([value], {});
        } catch (err) {
          return err as Error;
        }
      })();
      expect(e?.name, value).toBe('KitError');
      expect(e!.message).toMatch(why);
      expect(e!.message).toMatch(/it takes prometheus-rw=URL .* or otlp=URL/);
      expect(e!.message).not.toMatch(/hunter2/);
    }
  });

  it('the CLI refuses it with exit 2 before anything starts, the password hidden', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-metrics-bad-'));
    for (const args of [
      ['api', '--metrics', 'prometheus-rw=http://admin:hunter2-secret@h:notaport/api/v1/write'],
      ['sendpath', '--metrics', 'statsd=udp://h:8125'],
      ['api', '--metrics', 'otlp=http://h:4318/v1/metrics', '--metrics-every', '10ms'],
      ['capacity', '--metrics', 'otlp=http://h:4318/v1/metrics'],
    ]) {
      const r = await cli(['load', ...args, '--out', out, '--quiet'], { timeoutMs: 120_000 });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/--metrics|unknown argument "--metrics"/);
      expect(r.stdout + r.stderr).not.toMatch(/hunter2/);
    }
    expect(await readdir(out)).toEqual([]);
  });
});

describe('a remote-write push', () => {
  it('carries counters by status, the schedule lag, and the latency as a native histogram and as cumulative classic buckets up to +Inf', () => {
    const m = new LoadMetrics({ run: 'r1', shard: '2/3', kind: 'api' });
    m.shot({ intended: 0, sent: 0.5, done: 2, status: 200, late: false });
    m.shot({ intended: 10, sent: 13, done: 30, status: 429, late: true });
    m.shot({ intended: 20, sent: 20, done: 21, status: 0, late: false });
    const series = toTimeseries(m.snapshot()).map((s) => ({ ...s, l: Object.fromEntries(s.labels.map((x) => [x.name, x.value])) }));
    const of = (name: string, labels: Record<string, string> = {}) => series.filter((s) => s.l.__name__ === name && Object.entries(labels).every(([k, x]) => s.l[k] === x));
    const v = (name: string, labels: Record<string, string> = {}) => of(name, labels).map((s) => s.samples![0]!.value);
    expect(series.every((s) => s.l.run === 'r1' && s.l.shard === '2/3' && s.l.kind === 'api' && s.l.job === 'outreach-load')).toBe(true);
    expect(v('outreach_load_requests_total', { status: '200' })).toEqual([1]);
    expect(v('outreach_load_requests_total', { status: '429' })).toEqual([1]);
    expect(v('outreach_load_requests_total', { status: '0' })).toEqual([1]);
    expect(v('outreach_load_errors_total')).toEqual([2]);
    expect(v('outreach_load_late_total')).toEqual([1]);
    expect(v('outreach_load_schedule_lag_seconds')).toEqual([0.003]);
    // Classic: the fixed grid 2^(k/4) s from 2^-14 to 2^6, then +Inf; cumulative.
    const classic = of('outreach_load_latency_seconds_bucket');
    expect(classic.map((s) => s.l.le)).toEqual([...Array.from({ length: 81 }, (_, k) => String(2 ** ((k - 56) / 4))), '+Inf']);
    const counts = classic.map((s) => s.samples![0]!.value);
    expect(counts).toEqual(classic.map((s) => [0.001, 0.002, 0.02].filter((x) => x <= (s.l.le === '+Inf' ? Infinity : Number(s.l.le))).length));
    expect(counts.at(-1)).toBe(3);
    expect(v('outreach_load_latency_seconds_count')).toEqual([3]);
    expect(v('outreach_load_latency_seconds_sum')[0]).toBeCloseTo(0.002 + 0.02 + 0.001, 9);
    // Native: schema 7, one span from just below the lowest bucket reached, counts as deltas.
    const [native] = of('outreach_load_latency_seconds');
    const h = native!.histograms![0]!;
    expect(h).toMatchObject({ count_int: 3, schema: 7, zero_count_int: 0 });
    const span = h.positive_spans[0]!;
    let c = 0;
    const perBucket = h.positive_deltas.map((d) => (c += d));
    const filled = perBucket.flatMap((n, j) => (n ? [[span.offset + j, n]] : []));
    expect(filled).toEqual([[bucketOf(0.001), 1], [bucketOf(0.002), 1], [bucketOf(0.02), 1]]);
    expect(span).toEqual({ offset: bucketOf(0.001) - 1, length: bucketOf(0.02) - bucketOf(0.001) + 2 });
    // The lag is the largest since the previous push.
    expect(toTimeseries(m.snapshot()).find((s) => s.labels[0]!.value === 'outreach_load_schedule_lag_seconds')!.samples![0]!.value).toBe(0);
  });
});

describe('an output that is down or never answers', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));
  const listen = (onConn: (s: import('node:net').Socket) => void) =>
    new Promise<number>((resolve) => {
      const srv = createServer(onConn);
      servers.push(srv);
      srv.listen(0, '127.0.0.1', () => resolve((srv.address() as { port: number }).port));
    });

  it('neither fails nor holds the load: each push is bounded, one warning, and the report says the metrics were lost', async () => {
    const down = await listen((s) => s.destroy()); // accepts, then drops every connection
    const silent = await listen(() => undefined); // accepts, never answers
    const warnings: string[] = [];
    const run = await openRunMetrics(parseMetricsFlag([`prometheus-rw=http://u:topsecret-pw@127.0.0.1:${down}/api/v1/write`, `otlp=http://127.0.0.1:${silent}/v1/metrics`], {}), { run: 'r', shard: '1/1', kind: 'api' }, { everyMs: 100, warn: (l) => warnings.push(l) });
    for (let i = 0; i < 500; i++) run!.metrics.shot({ intended: i, sent: i, done: i + 1, status: 200, late: false });
    await new Promise((r) => setTimeout(r, 350));
    const lines = await run!.finish();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^metrics lost: prometheus-rw http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write: (\d+) of \1 pushes failed .*the final one too/);
    expect(lines[1]).toMatch(/^metrics lost: otlp http:\/\/127\.0\.0\.1:\d+\/v1\/metrics: .*pushes failed/);
    expect(warnings.length).toBeLessThanOrEqual(2);
    expect(warnings[0]).toMatch(/the load goes on/);
    expect([...lines, ...warnings].join('\n')).not.toMatch(/topsecret/);
  }, 60_000);
});

describe('a load run whose Prometheus is down', () => {
  it('runs to its end, warns once, and its report says the metrics were lost (the password never shown)', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const out = await mkdtemp(join(tmpdir(), 'oc-metrics-down-'));
    const r = await cli(['load', 'api', '--rate', '20/s', '--duration', '2s', '--metrics', `prometheus-rw=http://svc:hunter2-secret@127.0.0.1:${closed}/api/v1/write`, '--metrics-every', '500ms', '--out', out, '--quiet'], { timeoutMs: 240_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PASS: 40 requests/m);
    expect(r.stderr.match(/a push to prometheus-rw .* failed .*the load goes on/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/^metrics lost: prometheus-rw http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write: (\d+) of \1 pushes failed .*the final one too/m);
    const [name] = await readdir(out);
    const report = JSON.parse(await readFile(join(out, name!, 'load.json'), 'utf8')) as { notes: string[]; totals: { completed: number } };
    expect(report.totals.completed).toBe(40);
    expect(report.notes.join('\n')).toMatch(/^metrics lost: /m);
    expect(r.stdout + r.stderr + JSON.stringify(report)).not.toMatch(/hunter2/);
  }, 300_000);
});
