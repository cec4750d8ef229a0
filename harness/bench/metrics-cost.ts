// What `--metrics` costs the generator: the same open-model load (open-model.ts, the kit's
// transport, HDR recording as every run does) against a server that never stalls, side by side
// without and with the metrics (each completed request folded by LoadMetrics, a push every 5 s as
// by default, to a remote-write receiver: a real Prometheus when one is installed, else a loopback
// HTTP server that reads and discards, and the line says which). Rounds alternate off/on so the
// machine's other load falls on both; CPU per request is this process's user+system time over its
// requests (the receiver runs in its own process). Beside it, the metrics' own work timed alone
// (steadier on a busy machine): CPU to fold a request and CPU per push, as a share of the
// generator's CPU per request at the default push interval and at one push a second.
// Goal: at most 5 % more, by both.
import { createServer, type Server } from 'node:http';
import { runOpenModel } from '../load/generator/open-model.ts';
import { createTransport } from '../load/generator/transport.ts';
import { newHistogram, record } from '../load/report/histogram.ts';
import { openRunMetrics, parseMetricsFlag } from '../load/metrics/index.ts';
import { LoadMetrics } from '../load/metrics/load-metrics.ts';
import { remoteWriteExporter } from '../load/metrics/remote-write.ts';
import { prometheusMissing, startPrometheus } from '../load/metrics/prometheus.test-helper.ts';

export interface MetricsCost {
  receiver: string;
  /** the metrics' own work, timed alone: CPU per folded request, and per push (snapshot, encoding, sending) */
  direct: { shotUs: number; pushMs: number; buckets: number };
  rate: number;
  durationMs: number;
  /** CPU per request, µs, one figure a round */
  off: number[];
  on: number[];
  late: { off: number; on: number };
  pushes: string[];
}

/** The metrics' own work alone: a steady stream of requests folded, then pushes of what they made. */
async function directCost(writeUrl: string): Promise<MetricsCost['direct']> {
  const metrics = new LoadMetrics({ run: `bench-direct-${Date.now()}`, shard: '1/1', kind: 'api' });
  const exporter = remoteWriteExporter(parseMetricsFlag([`prometheus-rw=${writeUrl}`], {})[0]!);
  // Latencies spread over two decades (0.5 to 50 ms): about 850 buckets reached, more than a loopback run.
  const N = 300_000;
  const shot = { intended: 0, sent: 0, done: 0, status: 200, late: false };
  const t0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    shot.done = 0.5 * 100 ** ((i * 0.618) % 1);
    metrics.shot(shot);
  }
  const t1 = process.cpuUsage(t0);
  const PUSHES = 30;
  await exporter.push(metrics.snapshot(), 5_000);
  const t2 = process.cpuUsage();
  for (let i = 0; i < PUSHES; i++) await exporter.push(metrics.snapshot(), 5_000);
  const t3 = process.cpuUsage(t2);
  return { shotUs: (t1.user + t1.system) / N, pushMs: (t3.user + t3.system) / 1000 / PUSHES, buckets: metrics.snapshot().latency.counts.length };
}

/** `--metrics-every`'s default. */
const DEFAULT_EVERY_MS = 5_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function discardingReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const srv: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(srv.address() as { port: number }).port}/api/v1/write`, close: () => new Promise((r) => srv.close(() => r())) };
}

async function oneRound(url: string, rate: number, durationMs: number, writeUrl: string | undefined): Promise<{ cpuUs: number; late: number; line?: string }> {
  const transport = createTransport(url);
  const corrected = newHistogram();
  const service = newHistogram();
  try {
    await runOpenModel({ rate, durationMs: 1_000, send: async () => ({ status: (await transport.send({ method: 'GET', path: '/' })).status }) });
    const cpu0 = process.cpuUsage();
    const metrics = writeUrl ? await openRunMetrics(parseMetricsFlag([`prometheus-rw=${writeUrl}`], {}), { run: `bench-${Date.now()}`, shard: '1/1', kind: 'api' }, { everyMs: DEFAULT_EVERY_MS, warn: () => undefined }) : undefined;
    const r = await runOpenModel({
      rate,
      durationMs,
      send: async () => ({ status: (await transport.send({ method: 'GET', path: '/' })).status }),
      onShot: (s) => {
        record(corrected, (s.done - s.intended) * 1000);
        record(service, (s.done - s.sent) * 1000);
        metrics?.metrics.shot(s);
      },
    });
    const line = metrics ? (await metrics.finish())[0] : undefined;
    const cpu = process.cpuUsage(cpu0);
    return { cpuUs: (cpu.user + cpu.system) / r.completed, late: r.late, line };
  } finally {
    await transport.close();
  }
}

export async function measureMetricsCost(url: string, o: { rate: number; durationMs: number; rounds: number }): Promise<MetricsCost> {
  const missing = prometheusMissing();
  const prom = missing ? undefined : await startPrometheus({ lifetimeS: 600 });
  const sink = prom ? undefined : await discardingReceiver();
  const writeUrl = prom?.writeUrl ?? sink!.url;
  const out: MetricsCost = { receiver: prom ? 'a real Prometheus (remote-write receiver, native histograms on), own process' : `a loopback HTTP server that discards (${missing})`, direct: { shotUs: 0, pushMs: 0, buckets: 0 }, rate: o.rate, durationMs: o.durationMs, off: [], on: [], late: { off: 0, on: 0 }, pushes: [] };
  try {
    out.direct = await directCost(writeUrl);
    for (let i = 0; i < o.rounds; i++) {
      const off = await oneRound(url, o.rate, o.durationMs, undefined);
      const on = await oneRound(url, o.rate, o.durationMs, writeUrl);
      out.off.push(off.cpuUs);
      out.on.push(on.cpuUs);
      out.late.off += off.late;
      out.late.on += on.late;
      if (on.line) out.pushes.push(on.line);
    }
  } finally {
    await prom?.stop();
    await sink?.close();
  }
  return out;
}

export function printMetricsCost(c: MetricsCost, heading: string): boolean {
  const ratio = median(c.on) / median(c.off);
  const paired = c.on.map((x, i) => x / c.off[i]!);
  console.log(`\n${heading} What --metrics costs: ${c.rate} req/s for ${c.durationMs / 1000} s a round, ${c.off.length} rounds alternating without/with, a push every ${DEFAULT_EVERY_MS / 1000} s and one at the end to ${c.receiver}`);
  console.log(`  CPU per request without --metrics: ${c.off.map((x) => x.toFixed(1)).join(', ')} us (median ${median(c.off).toFixed(1)})`);
  console.log(`  CPU per request with --metrics:    ${c.on.map((x) => x.toFixed(1)).join(', ')} us (median ${median(c.on).toFixed(1)})`);
  console.log(`  with / without: ${ratio.toFixed(3)} (median of each side); round by round ${paired.map((x) => x.toFixed(2)).join(', ')} (median ${median(paired).toFixed(3)}); late sends ${c.late.off} without, ${c.late.on} with`);
  const perRequest = (everyS: number) => c.direct.shotUs + (c.direct.pushMs * 1000) / (c.rate * everyS);
  console.log(`  the metrics' own work, timed alone: ${c.direct.shotUs.toFixed(3)} us to fold a request, ${c.direct.pushMs.toFixed(2)} ms of CPU a push (${c.direct.buckets} latency buckets reached)`);
  console.log(`    at ${c.rate} req/s: ${perRequest(DEFAULT_EVERY_MS / 1000).toFixed(2)} us a request with a push every ${DEFAULT_EVERY_MS / 1000} s (the default), ${perRequest(1).toFixed(2)} us every 1 s: ${((perRequest(DEFAULT_EVERY_MS / 1000) / median(c.off)) * 100).toFixed(1)} % and ${((perRequest(1) / median(c.off)) * 100).toFixed(1)} % of the generator's ${median(c.off).toFixed(1)} us`);
  for (const l of new Set(c.pushes)) console.log(`  ${l.replace(/\d+ pushes/, 'N pushes')}`);
  // Judged on the work timed alone (steady under load) and on the side-by-side medians together.
  return ratio <= 1.05 && perRequest(DEFAULT_EVERY_MS / 1000) / median(c.off) <= 0.05;
}
