// `npm run bench:shards`: n shard processes, started at different moments with one start instant,
// against the stalling server (200 ms every 770 ms, in a child process of its own), next to a
// single generator at the same total rate, in one run. Each process is harness/bench/shard-child.ts:
// the start gate, slice and generator of `load api --shard k/n --start-at`. The shards' corrected
// histograms are merged as `load merge` merges them (HDR, lossless).
// Goal: merged p50 / p90 / p99 / p99.9 within 5 % of the single generator's (2 ms floor, as
// bench:load's accuracy). Each shard's readiness margin and start skew are printed. A benchmark
// that prints figures and whether the goal was met, not a test: a missed goal is printed missed.
// Rounds alternate (single, then shards) and each side's histograms are pooled over the rounds, so
// one round's bad luck on a shared machine weighs less (measured here: one shard against one
// generator, same settings, differed by 5-13 % in p90 and p99.9 over a single 4 s round).
// Options: --shards N (default 3), --rate R (total, default 600), --duration S (default 10),
// --rounds R (default 3), --quick (one 4 s round).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { decode, merge, percentile } from '../load/report/histogram.ts';
import { forkStallServer } from './stall-server.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const quick = process.argv.includes('--quick');
const N = arg('shards', 3);
const RATE = arg('rate', 600);
const DURATION_MS = arg('duration', quick ? 4 : 10) * 1000;
const ROUNDS = arg('rounds', quick ? 1 : 3);
const PERIOD_MS = 770;
const STALL_MS = 200;
/** Between two shards' process starts: they start apart, as CI jobs and pods do. */
const STAGGER_MS = 700;
const PERCENTILES = [50, 90, 99, 99.9];
/** Room for a process to start (tsx compiles on the way) and prepare before the instant. */
const LEAD_MS = 20_000;

interface ChildResult {
  shard: string;
  sent: number;
  late: number;
  marginMs: number;
  startSkewMs: number;
  corrected: string;
}

const wallNow = () => performance.timeOrigin + performance.now();

function runChild(url: string, index: number, of: number, startAt: number): Promise<ChildResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./shard-child.ts', import.meta.url).pathname, JSON.stringify({ url, rate: RATE, durationMs: DURATION_MS, index, of, startAt })], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult) : reject(new Error(`shard ${index}/${of} exited ${code}`)))),
  );
}

/** An instant at least `aheadMs` away, at the same phase of the stall schedule as every other run. */
function alignedInstant(stallStart: number, aheadMs: number): number {
  const k = Math.ceil((wallNow() + aheadMs - stallStart) / PERIOD_MS);
  return stallStart + k * PERIOD_MS + 100;
}

async function main(): Promise<void> {
  const server = await forkStallServer({ periodMs: PERIOD_MS, stallMs: STALL_MS, log: false, maxLifetimeMs: 10 * 60_000 });
  try {
    process.stdout.write(`bench:shards: ${N} shards vs one generator at ${RATE} req/s for ${DURATION_MS / 1000} s against a server stalling ${STALL_MS} ms every ${PERIOD_MS} ms\n`);
    const singles: ChildResult[] = [];
    const parts: ChildResult[] = [];
    const instants: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      singles.push(await runChild(server.url, 1, 1, alignedInstant(server.schedule.start, LEAD_MS)));
      // Shards: one instant, processes started STAGGER_MS apart (the last well before the instant).
      const startAt = alignedInstant(server.schedule.start, LEAD_MS + N * STAGGER_MS);
      instants.push(startAt);
      const shards: Promise<ChildResult>[] = [];
      for (let k = 1; k <= N; k++) {
        shards.push(runChild(server.url, k, N, startAt));
        await new Promise((r) => setTimeout(r, STAGGER_MS));
      }
      parts.push(...(await Promise.all(shards)));
    }
    const merged = merge(parts.map((p) => decode(p.corrected)));
    const one = merge(singles.map((p) => decode(p.corrected)));
    const ms = (us: number) => (us / 1000).toFixed(1).padStart(8);
    process.stdout.write(`\n${'corrected latency'.padEnd(20)}${'single'.padStart(10)}${`${N} merged`.padStart(10)}   within 5 % (2 ms floor)\n`);
    let met = true;
    for (const p of PERCENTILES) {
      const [a, b] = [percentile(one, p), percentile(merged, p)];
      const ok = Math.abs(b - a) <= Math.max(0.05 * a, 2000);
      met &&= ok;
      process.stdout.write(`${`p${p}`.padEnd(20)}${ms(a)} ms${ms(b)} ms   ${ok ? 'yes' : 'NO'} (${(((b - a) / Math.max(a, 1)) * 100).toFixed(1)} %)\n`);
    }
    const sent = (xs: ChildResult[]) => String(xs.reduce((a, p) => a + p.sent, 0)).padStart(10);
    process.stdout.write(`${'requests'.padEnd(20)}${sent(singles)}${sent(parts)}   (${ROUNDS} round(s))\n`);
    for (let round = 0; round < ROUNDS; round++) {
      process.stdout.write(`\nround ${round + 1}: start instant ${new Date(instants[round]!).toISOString()}; each shard's start:\n`);
      for (const p of parts.slice(round * N, (round + 1) * N)) process.stdout.write(`  shard ${p.shard}: ready ${p.marginMs} ms before the instant, first request ${p.startSkewMs} ms after its time (start skew), ${p.late} late of ${p.sent}\n`);
      const single = singles[round]!;
      process.stdout.write(`  single 1/1: first request ${single.startSkewMs} ms after its time, ${single.late} late of ${single.sent}\n`);
    }
    process.stdout.write(`\ngoal (merged percentiles within 5 % of the single generator's): ${met ? 'met' : 'MISSED'}\n`);
  } finally {
    await server.close();
  }
}

await main();
