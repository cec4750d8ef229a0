// `npm run bench:staging`: the kit as most users run it, in CI against a staging URL. The reference
// is served alone (its own process, the spec's rate limit), N workspaces are made beforehand
// through its control API, and the profile handed to the kit has no control API: the run makes
// its own mailboxes at the sinks, waits on real time, and deletes what it created afterwards.
// For each depth it prints the wall time, the requests the target saw (clean-up included, and
// how many of them the clean-up), the depth's budget, the floor the rate limit sets for those
// requests, the wall time over that floor, and the announced time against the actual one.
//   npm run bench:staging -- [--workspaces N] [--depths quick,default] [--seed S] [--out DIR]
// --out keeps each depth's reports (DIR/<depth>/latest/results.json...) and the staging profile;
// `npm run measure-requests -- --no-control DIR/quick/latest/results.json ...` records from them what
// checks send to a target without the control API.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from '../ground/args.ts';
import { KIT_BIN, startChildReference, type ChildTarget } from '../load/generator/embedded-target.ts';
import { DEPTH_BUDGETS } from '../runner/select-depth.ts';
import type { Depth } from '../ground/check.ts';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const flags = parseArgs(process.argv.slice(2), { workspaces: { type: 'string', value: 'N', help: 'workspaces made beforehand (default 8)' }, depths: { type: 'string', value: 'quick,default', help: 'the depths to run' }, seed: { type: 'string', value: 'N', help: 'the runs\' seed' }, out: { type: 'string', value: 'DIR', help: 'keep each depth\'s reports' } });
const keep = flags.out === undefined ? undefined : String(flags.out);
const workspaces = Number(flags.workspaces ?? 8);
const depths = String(flags.depths ?? 'quick,default').split(',') as Depth[];
const seed = Number(flags.seed ?? 20261126);

/** The workspaces' keys, by the environment variable the profile names for each. */
const keyEnv: Record<string, string> = {};

/** A staging-like profile: the served target, `n` workspaces made beforehand, no control API. */
async function stagingProfile(served: ChildTarget, n: number): Promise<string> {
  const made: { apiKey: string; organizationId: string }[] = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(`${served.control.baseUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${served.control.token}`, 'content-type': 'application/json' }, body: '{}' });
    made.push((await r.json()) as { apiKey: string; organizationId: string });
  }
  const { control: _control, embedded: _embedded, ...rest } = served.profile!;
  // The keys reach the kit through the environment, as a CI secret would: the file holds none.
  made.forEach((w, i) => (keyEnv[`OC_STAGING_KEY_${i}`] = w.apiKey));
  const profile = { ...rest, name: 'staging-like (reference served alone, no control API)', baseUrl: served.baseUrl, workspaces: made.map((w, i) => ({ apiKey: { env: `OC_STAGING_KEY_${i}` }, organizationId: w.organizationId })) };
  const path = join(keep ?? (await mkdtemp(join(tmpdir(), 'oc-staging-'))), 'staging.json');
  await writeFile(path, JSON.stringify(profile));
  return path;
}

interface Row {
  depth: Depth;
  wallS: number;
  requests: number;
  outsideChecks: number;
  plannedS: number;
  failures: number;
}

async function runDepth(profilePath: string, depth: Depth): Promise<Row> {
  const out = keep ? join(keep, depth) : await mkdtemp(join(tmpdir(), 'oc-staging-run-'));
  const t0 = process.hrtime.bigint();
  await exec(process.execPath, [KIT_BIN, 'run', '--quiet', '--profile', profilePath, '--depth', depth, '--seed', String(seed), '--out', out], { cwd: ROOT, env: { ...process.env, ...keyEnv }, maxBuffer: 64 << 20, timeout: 1_800_000 }).catch((e) => {
    if (e.code !== 1) throw e; // a failing check still measures; a kit error does not
  });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const r = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8'));
  if (!keep) await rm(out, { recursive: true, force: true });
  const byChecks = (r.checks as { requests?: number }[]).reduce((n, c) => n + (c.requests ?? 0), 0);
  return { depth, wallS, requests: r.stats.requests, outsideChecks: r.stats.requests - byChecks, plannedS: (r.stats.plannedMs ?? 0) / 1000, failures: r.summary.fail ?? 0 };
}

/** The least time `requests` take under the rate limit: a first window per workspace, then the steady rate. */
function floorSeconds(requests: number, perWindow: number, windowSeconds: number): number {
  return Math.max(0, requests - workspaces * perWindow) / ((workspaces * perWindow) / windowSeconds);
}

if (keep) await mkdir(keep, { recursive: true });
const served = await startChildReference({ choices: 'default', name: 'the reference served alone' });
try {
  const profilePath = await stagingProfile(served, workspaces);
  const rate = served.profile!.rateLimit as { requests: number; windowSeconds: number };
  process.stdout.write(`staging-like target: the reference served alone, ${workspaces} workspaces, no control API, seed ${seed}\n`);
  process.stdout.write('depth     wall s   requests (clean-up, outside checks)  budget   floor s   wall/floor   announced s   ETA error   failures\n');
  for (const depth of depths) {
    const r = await runDepth(profilePath, depth);
    const floor = floorSeconds(r.requests, rate.requests, rate.windowSeconds);
    const budget = DEPTH_BUDGETS[depth];
    const eta = r.plannedS > 0 ? `${(((r.plannedS - r.wallS) / r.wallS) * 100).toFixed(0)} %` : 'none announced';
    process.stdout.write(
      `${depth.padEnd(8)} ${r.wallS.toFixed(1).padStart(7)}   ${String(r.requests).padStart(8)} (${r.outsideChecks})`.padEnd(55) +
        `${String(budget ?? '-').padStart(6)}   ${floor.toFixed(1).padStart(7)}   ${floor > 0 ? (r.wallS / floor).toFixed(2).padStart(10) : '         -'}   ${r.plannedS.toFixed(0).padStart(11)}   ${eta.padStart(9)}   ${String(r.failures).padStart(8)}\n`,
    );
  }
} finally {
  await served.stop();
}
