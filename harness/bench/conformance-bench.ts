// `npm run bench`: a whole `npm run conformance` against the embedded target, boot included.
// Prints wall time, requests sent, the planner's figure against a rate-limited target, and the
// actual duration; repeats (default 3) and shows each run side by side with the median.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const BIN = fileURLToPath(new URL('../../bin/outreach-conformance.js', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const depth = process.env.BENCH_DEPTH ?? 'default';
const rows: { wallS: number; requests: number; plannedS: number; actualS: number; checks: number }[] = [];

for (let i = 0; i < runs; i++) {
  const out = await mkdtemp(join(tmpdir(), 'oc-bench-'));
  const t0 = process.hrtime.bigint();
  await promisify(execFile)(process.execPath, [BIN, 'run', '--quiet', '--depth', depth, '--out', out], { maxBuffer: 64 << 20, timeout: 600_000 }).catch((e) => {
    if (e.code !== 1) throw e; // a failing check still measures; a kit error does not
  });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const r = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8'));
  rows.push({ wallS, requests: r.stats.requests, plannedS: (r.stats.plannedMs ?? 0) / 1000, actualS: r.stats.actualMs / 1000, checks: r.summary.total });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`conformance run, depth ${depth}, embedded reference, ${runs} run(s) on ${(await import('node:os')).cpus().length} cores`);
console.log('run  wall s  requests  checks  planned s (rate-limited target)  actual s');
rows.forEach((r, i) => console.log(`${String(i + 1).padEnd(4)} ${r.wallS.toFixed(1).padStart(6)}  ${String(r.requests).padStart(8)}  ${String(r.checks).padStart(6)}  ${r.plannedS.toFixed(0).padStart(31)}  ${r.actualS.toFixed(1).padStart(8)}`));
console.log(`median wall ${median(rows.map((r) => r.wallS)).toFixed(1)} s (goal: 60 s or less, boot included); median ${median(rows.map((r) => r.requests))} requests`);
