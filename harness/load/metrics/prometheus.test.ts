import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../cli/cli.test-helper.ts';
import { decode, percentile } from '../report/histogram.ts';
import type { LoadReport } from '../report/types.ts';
import { prometheusMissing, startPrometheus, type RunningPrometheus } from './prometheus.test-helper.ts';

// `--metrics prometheus-rw=URL` into a real Prometheus (Debian's package, remote-write receiver
// on): a short load against the embedded reference (its rate limit counted over every workspace,
// so the run meets 429s), then the series read back through Prometheus's HTTP API with the
// queries of the dashboard the kit ships (examples/grafana-load-dashboard.json): request count,
// errors, 429s, late sends within 1 % of load.json (they are equal), p50 and p99 within 1 %; the
// same through 3 shards, each shard's series apart and their sum the merged report's.

const DASHBOARD = fileURLToPath(new URL('../../../examples/grafana-load-dashboard.json', import.meta.url));
const missing = prometheusMissing();

interface Panel {
  title: string;
  type: string;
  targets: { expr: string; legendFormat?: string }[];
}
const panels = (JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels;

/** A dashboard query as Grafana sends it for one run: its variables filled in. */
const fill = (expr: string, run: string, shard = '.*') => expr.replaceAll('$run', run).replaceAll('$shard', shard).replaceAll('$__rate_interval', '1m');

/** What each stat panel of the dashboard shows, read from load.json. */
const FROM_REPORT: Record<string, (r: LoadReport) => number> = {
  Requests: (r) => r.totals.completed,
  Errors: (r) => r.totals.errors,
  '429s': (r) => r.totals.status['429'] ?? 0,
  'Late sends': (r) => r.totals.late,
  'p50 latency': (r) => percentile(decode(r.totals.corrected), 50) / 1e6,
  'p99 latency': (r) => percentile(decode(r.totals.corrected), 99) / 1e6,
};

const within1pc = (got: number, want: number) => (want === 0 ? got === 0 : Math.abs(got - want) / want < 0.01);

async function reportIn(dir: string): Promise<LoadReport> {
  return JSON.parse(await readFile(join(dir, 'load.json'), 'utf8')) as LoadReport;
}

describe.skipIf(!!missing && !process.env.CI)(`--metrics prometheus-rw into a real Prometheus${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let prom: RunningPrometheus;
  beforeAll(async () => {
    prom = await startPrometheus();
  }, 120_000);
  afterAll(async () => {
    await prom?.stop();
  });

  /** Every stat panel's query for `run` (and `shard`), answered by Prometheus and held to load.json. */
  async function statsAgree(run: string, report: LoadReport, shard?: string) {
    const stats = panels.filter((p) => p.type === 'stat');
    expect(stats.map((p) => p.title).sort()).toEqual(Object.keys(FROM_REPORT).sort());
    // Wait on Prometheus's answer (bounded): the request count there is the report's.
    const count = panels.find((p) => p.title === 'Requests')!.targets[0]!.expr;
    await prom.waitFor(fill(count, run, shard), (r) => r[0]?.value === report.totals.completed);
    for (const p of stats) {
      const [sample] = await prom.query(fill(p.targets[0]!.expr, run, shard));
      const want = FROM_REPORT[p.title]!(report);
      expect(sample, `${p.title}: no answer`).toBeDefined();
      expect(within1pc(sample!.value, want), `${p.title}${shard ? ` shard ${shard}` : ''}: Prometheus ${sample!.value}, load.json ${want}`).toBe(true);
    }
  }

  it('a load run: the dashboard\'s figures are load.json\'s (counts equal, p50 and p99 within 1 %), and every panel\'s query answers', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-metrics-prom-'));
    const r = await cli(['load', 'api', '--rate', '40/s', '--duration', '4s', '--mutants', 'rate-global', '--metrics', `prometheus-rw=${prom.writeUrl}`, '--metrics-every', '1s', '--out', out, '--quiet'], { timeoutMs: 240_000 });
    expect([0, 1], r.stderr).toContain(r.code);
    // Every push is bounded in time; what the test needs is the last one (the run's totals) arrived.
    expect(r.stdout + r.stderr).toMatch(/^metrics( lost)?: prometheus-rw http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write: /m);
    expect(r.stderr).not.toMatch(/the final one too/);
    const [name] = await readdir(out);
    const report = await reportIn(join(out, name!));
    const run = report.runId;
    expect(report.totals.status['429'] ?? 0, 'the run meets 429s (one rate bucket for every workspace)').toBeGreaterThan(0);
    expect(report.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^metrics( lost)?: prometheus-rw /)]));
    await statsAgree(run, report);
    // Every time-series panel's query is valid PromQL over the run (queryRange rejects an error);
    // the request rate and the latency find the run's series.
    for (const p of panels.filter((x) => x.type === 'timeseries')) {
      for (const t of p.targets) {
        const found = await prom.queryRange(fill(t.expr, run), 600);
        if (/^(Request rate|Latency)/.test(p.title)) expect(found.length, `${p.title}: ${t.expr}`).toBeGreaterThan(0);
      }
    }
    const byShard = await prom.query(`sum by (shard, kind, job) (outreach_load_requests_total{run="${run}"})`);
    expect(byShard.map((s) => s.metric)).toEqual([{ shard: '1/1', kind: 'api', job: 'outreach-load' }]);
  }, 300_000);

  it("a send-path run: the emails delivered and expected are load.json's, and the dashboard's send-path panel finds them", async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-metrics-sendpath-'));
    const r = await cli(['load', 'sendpath', '--mailboxes', '4', '--leads', '24', '--cap', '10', '--max-wall', '60s', '--metrics', `prometheus-rw=${prom.writeUrl}`, '--out', out, '--quiet'], { timeoutMs: 280_000 });
    expect([0, 1], r.stderr).toContain(r.code);
    const [name] = await readdir(out);
    const report = await reportIn(join(out, name!));
    const panel = panels.find((p) => p.title.startsWith('Send path'))!;
    const answers = new Map<string, number | undefined>();
    for (const t of panel.targets) answers.set(t.legendFormat!, (await prom.waitFor(fill(t.expr, report.runId), (x) => x.length > 0))[0]?.value);
    expect(Object.fromEntries(answers)).toEqual({ delivered: report.totals.completed, expected: report.totals.sent, duplicates: report.sendpath!.duplicates, lost: report.sendpath!.losses });
  }, 300_000);

  it('a Prometheus without native histograms: the rest arrives, the latency as the classic histogram alone, and the report says so', async () => {
    const plain = await startPrometheus({ nativeHistograms: false });
    try {
      const out = await mkdtemp(join(tmpdir(), 'oc-metrics-classic-'));
      const r = await cli(['load', 'api', '--rate', '20/s', '--duration', '3s', '--metrics', `prometheus-rw=${plain.writeUrl}`, '--out', out, '--quiet'], { timeoutMs: 240_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/the final one too/);
      expect(r.stdout).toMatch(/^metrics: prometheus-rw .* refused native histograms .*--enable-feature=native-histograms.*the classic histogram alone, whose buckets are 19 % wide$/m);
      const [name] = await readdir(out);
      const report = await reportIn(join(out, name!));
      const count = panels.find((p) => p.title === 'Requests')!.targets[0]!.expr;
      expect((await plain.waitFor(fill(count, report.runId), (x) => x[0]?.value === report.totals.completed))[0]?.value).toBe(report.totals.completed);
      // The dashboard's p99 falls back to the classic buckets: within one of them (19 %) of load.json's.
      const [p99] = await plain.query(fill(panels.find((p) => p.title === 'p99 latency')!.targets[0]!.expr, report.runId));
      const want = FROM_REPORT['p99 latency']!(report);
      expect(Math.abs(p99!.value - want) / want).toBeLessThan(0.2);
      expect(await plain.query(`outreach_load_latency_seconds{run="${report.runId}"}`)).toEqual([]);
    } finally {
      await plain.stop();
    }
  }, 300_000);

  it('3 shards: each shard\'s series apart and equal to its load.json, their sum the merged report\'s, p99 within 1 %', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-metrics-shards-'));
    const run = `metrics-shards-${Date.now()}`;
    // No start instant: each shard starts when ready, so nothing here depends on how fast the machine is.
    const shards = await Promise.all(
      [1, 2, 3].map((k) => cli(['load', 'api', '--rate', '90/s', '--duration', '4s', '--mutants', 'rate-global', '--shard', `${k}/3`, '--run', run, '--metrics', `prometheus-rw=${prom.writeUrl}`, '--out', out, '--quiet'], { timeoutMs: 280_000 })),
    );
    for (const s of shards) expect([0, 1], s.stderr).toContain(s.code);
    const merged = await cli(['load', 'merge', '--from', out, '--run', run, '--shards', '3', '--wait', '1s', '--out', out], { timeoutMs: 120_000 });
    expect([0, 1], merged.stderr).toContain(merged.code);
    const total = await reportIn(join(out, run, 'merged'));
    expect(total.totals.completed).toBe(90 * 4);
    await statsAgree(run, total);
    for (const k of [1, 2, 3]) await statsAgree(run, await reportIn(join(out, run, `shard-${k}-of-3`)), `${k}/3`);
    const perShard = await prom.query(`sum by (shard) (outreach_load_requests_total{run="${run}"})`);
    expect(perShard.map((s) => s.metric.shard).sort()).toEqual(['1/3', '2/3', '3/3']);
    expect(perShard.reduce((a, s) => a + s.value, 0)).toBe(total.totals.completed);
  }, 600_000);
});
