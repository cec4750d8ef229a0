// `npm run bench`: a whole `npm run conformance` against the embedded target, boot included.
// Prints wall time, requests sent, the planner's figure against a rate-limited target, and the
// actual duration; repeats (default 3) and shows each run side by side with the median.
//   npm run bench -- --against <git-rev>   the same runs of that revision too, alternating in one
//                                          sitting (a worktree in a temporary directory, sharing
//                                          this clone's node_modules), so the two compare fairly
// Environment: BENCH_RUNS (default 3), BENCH_DEPTH (default `default`).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from '../ground/args.ts';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const depth = process.env.BENCH_DEPTH ?? 'default';
const flags = parseArgs(process.argv.slice(2), { against: { type: 'string', value: 'REV', help: 'a git revision to measure beside this checkout' } });

interface Row {
  wallS: number;
  requests: number;
  plannedS: number;
  actualS: number;
  checks: number;
}

async function once(root: string): Promise<Row> {
  const out = await mkdtemp(join(tmpdir(), 'oc-bench-'));
  const t0 = process.hrtime.bigint();
  await exec(process.execPath, [join(root, 'bin/outreach-conformance.js'), 'run', '--quiet', '--depth', depth, '--out', out], { cwd: root, maxBuffer: 64 << 20, timeout: 900_000 }).catch((e) => {
    if (e.code !== 1) throw e; // a failing check still measures; a kit error does not
  });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const r = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8'));
  await rm(out, { recursive: true, force: true });
  return { wallS, requests: r.stats.requests, plannedS: (r.stats.plannedMs ?? 0) / 1000, actualS: r.stats.actualMs / 1000, checks: r.summary.total };
}

/** A worktree of `rev` beside this clone, with its node_modules. */
async function worktree(rev: string): Promise<{ root: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'oc-bench-rev-'));
  await exec('git', ['-C', ROOT, 'worktree', 'add', '--detach', root, rev]);
  await symlink(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  return { root, remove: async () => void (await exec('git', ['-C', ROOT, 'worktree', 'remove', '--force', root])) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sides: { name: string; root: string; rows: Row[] }[] = [{ name: 'this tree', root: ROOT, rows: [] }];
const other = flags.against ? await worktree(flags.against as string) : undefined;
if (other) sides.push({ name: `${flags.against}`, root: other.root, rows: [] });
try {
  // Alternate the sides so a machine that slows down during the sitting slows both alike.
  for (let i = 0; i < runs; i++) for (const s of sides) s.rows.push(await once(s.root));
} finally {
  await other?.remove();
}

console.log(`conformance run, depth ${depth}, embedded reference, ${runs} run(s) per side on ${cpus().length} cores`);
console.log('side        run  wall s  requests  checks  planned s (rate-limited target)  actual s');
for (const s of sides)
  s.rows.forEach((r, i) =>
    console.log(`${s.name.slice(0, 10).padEnd(10)}  ${String(i + 1).padEnd(3)} ${r.wallS.toFixed(1).padStart(6)}  ${String(r.requests).padStart(8)}  ${String(r.checks).padStart(6)}  ${r.plannedS.toFixed(0).padStart(31)}  ${r.actualS.toFixed(1).padStart(8)}`),
  );
for (const s of sides) console.log(`${s.name}: median wall ${median(s.rows.map((r) => r.wallS)).toFixed(1)} s (goal: 60 s or less, boot included); median ${median(s.rows.map((r) => r.requests))} requests`);
if (sides.length === 2) {
  const [a, b] = sides.map((s) => median(s.rows.map((r) => r.wallS)));
  console.log(`this tree / ${sides[1]!.name}: ${(a! / b!).toFixed(2)}x wall time (${a! <= b! ? 'at or under' : 'OVER'} the other revision)`);
}
