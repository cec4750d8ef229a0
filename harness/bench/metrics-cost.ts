// What `--metrics` costs the generator: the same open-model load (open-model.ts, the kit's
// transport, HDR recording as every run does) against a server that never stalls, side by side
// without and with the metrics (each completed request folded by LoadMetrics, a push every second,
// five times as often as the default, to a remote-write receiver: a real Prometheus when one is
// installed, else a loopback HTTP server that reads and discards, and the line says which). Rounds
// alternate off/on so the machine's other load falls on both; CPU per request is this process's
// user+system time over its requests (the receiver runs in its own process). Goal: at most 5 % more.
import { createServer, type Server } from 'node:http';
import { runOpenModel } from '../load/generator/open-model.ts';
import { createTransport } from '../load/generator/transport.ts';
import { newHistogram, record } from '../load/report/histogram.ts';
import { openRunMetrics, parseMetricsFlag } from '../load/metrics/index.ts';
import { prometheusMissing, startPrometheus } from '../load/metrics/prometheus.test-helper.ts';

export interface MetricsCost {
  receiver: string;
  rate: number;
  durationMs: number;
  /** CPU per request, µs, one figure a round */
  off: number[];
  on: number[];
  late: { off: number; on: number };
  pushes: string[];
}

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
    const metrics = writeUrl ? await openRunMetrics(parseMetricsFlag([`prometheus-rw=${writeUrl}`], {}), { run: `bench-${Date.now()}`, shard: '1/1', kind: 'api' }, { everyMs: 1_000, warn: () => undefined }) : undefined;
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
  const out: MetricsCost = { receiver: prom ? 'a real Prometheus (remote-write receiver), own process' : `a loopback HTTP server that discards (${missing})`, rate: o.rate, durationMs: o.durationMs, off: [], on: [], late: { off: 0, on: 0 }, pushes: [] };
  try {
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
  console.log(`\n${heading} What --metrics costs: ${c.rate} req/s for ${c.durationMs / 1000} s a round, ${c.off.length} rounds alternating without/with, pushes every 1 s to ${c.receiver}`);
  console.log(`  CPU per request without --metrics: ${c.off.map((x) => x.toFixed(1)).join(', ')} us (median ${median(c.off).toFixed(1)})`);
  console.log(`  CPU per request with --metrics:    ${c.on.map((x) => x.toFixed(1)).join(', ')} us (median ${median(c.on).toFixed(1)})`);
  console.log(`  with / without: ${ratio.toFixed(3)} (median of each side); late sends ${c.late.off} without, ${c.late.on} with`);
  for (const l of new Set(c.pushes)) console.log(`  ${l.replace(/\d+ pushes/, 'N pushes')}`);
  return ratio <= 1.05;
}
