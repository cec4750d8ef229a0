// `npm run bench:staging`: the kit as most users run it, in CI against a staging URL. The reference
// is served alone (its own process, the spec's rate limit), N fresh workspaces are made for each
// run through its control API, and the profile handed to the kit has no control API: the run makes
// its own mailboxes at the sinks, waits on real time, and deletes what it created afterwards.
// Each target is served once: the reference alone, then (--slow N, default 3) the reference N times
// slower on purpose (`reference --slow`: a target unlike the one the estimate was measured on), then
// the reference with a plain control API (`reference --choices serialized-drain`: drains one at a
// time, each polling every mailbox). Each is run in two legs (--legs): `staging`, the profile without
// the control API, and `control`, the profile with the reference's control API (the kit provisions
// its workspaces there and drains the target's work; its first run takes a first look at the
// control API too); the serialized target in the control leg alone.
// For each target and depth it prints the wall time, the requests the target saw (clean-up
// included, and how many of them the clean-up), the depth's budget, the floor the rate limit sets
// for those requests, the wall time over that floor, the announced time against the actual one,
// and how far the progress line's estimate of the time left was off when half the checks were done
// (the kit replays its events through it: results.json stats.estimate.halfway) and when half the
// run's time had passed (stats.estimate.midway: where the checks that run alone fill most of a run,
// half the checks end in its last seconds), and in the control
// leg the drains the run sent and how many took over a second (the floor there is none: the kit
// provisions as many workspaces as the profile's poolSize). The announced time
// is set against the run's own time (results.json stats.actualMs: from the run's start, once the
// CLI has loaded, as the announcement is), the wall time is the whole process's.
// --baseline DIR runs another checkout's kit (DIR/bin/outreach-conformance.js, e.g. the current
// main) on the same target and depth just before this one, one run after the other (never at
// once: they would share the machine and the target), so the two rows compare side by side.
//   npm run bench:staging -- [--workspaces N] [--depths quick,default,quick] [--slow N|1] [--legs staging,control] [--targets alone,slow,serialized] [--baseline DIR] [--seed S] [--out DIR]
// A depth named twice (--depths quick,default,quick) runs twice. Every run of this kit after the
// first against a target learns the target's pace (run --history) from the latest earlier run at
// its depth, else the latest at any depth: the announced column says what it rested on, so the
// first run's error (the reference's durations alone) and a learned one's stand side by side.
// --out keeps each run's reports (DIR/<target>-<depth>[-baseline]/latest/results.json...) and profile;
// `npm run measure-requests -- --no-control DIR/alone-quick/latest/results.json ...` records from them what
// checks send to a target without the control API; `npm run bench:estimate -- DIR/alone-default ...`
// replays their events through the progress estimate (harness/bench/estimate-replay.ts).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from '../ground/args.ts';
import { KIT_BIN, startChildReference, type ChildTarget } from '../load/embedded-target.ts';
import { DEPTH_BUDGETS } from '../plan/select-depth.ts';
import type { Depth } from '../ground/check.ts';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const flags = parseArgs(process.argv.slice(2), { workspaces: { type: 'string', value: 'N', help: 'workspaces made beforehand (default 8)' }, depths: { type: 'string', value: 'quick,default,quick', help: 'the depths to run, in order (a depth named twice runs twice; default quick,default,quick: a first quick run, then two that learn)' }, seed: { type: 'string', value: 'N', help: 'the runs\' seed' }, out: { type: 'string', value: 'DIR', help: 'keep each depth\'s reports' }, slow: { type: 'string', value: 'N', help: 'the slowed target\'s factor (default 3)' }, baseline: { type: 'string', value: 'DIR', help: 'another checkout whose kit runs just before this one' }, legs: { type: 'string', value: 'staging,control', help: 'the profiles run against each target: staging (no control API), control (the reference\'s control API); default both' }, targets: { type: 'string', value: 'alone,slow,serialized', help: 'the targets served (default all: slow unless --slow 1; serialized: the default choices with a serialized drain, control leg only)' } });
const keep = flags.out === undefined ? undefined : String(flags.out);
const workspaces = Number(flags.workspaces ?? 8);
const depths = String(flags.depths ?? 'quick,default,quick').split(',') as Depth[];
const seed = Number(flags.seed ?? 20261126);
const slow = Number(flags.slow ?? 3);
if (!(slow >= 1 && slow <= 20)) throw new Error(`--slow takes a factor from 1 (no slowed target) to 20, not ${flags.slow}`);
const baseline = flags.baseline === undefined ? undefined : resolve(String(flags.baseline));
type Leg = 'staging' | 'control';
const legs = String(flags.legs ?? 'staging,control').split(',') as Leg[];
if (legs.some((l) => l !== 'staging' && l !== 'control')) throw new Error(`--legs takes staging and/or control, not ${flags.legs}`);
const targetNames = String(flags.targets ?? 'alone,slow,serialized').split(',');
if (targetNames.some((t) => !['alone', 'slow', 'serialized'].includes(t))) throw new Error(`--targets takes alone, slow and/or serialized, not ${flags.targets}`);

/** A kit to run: this checkout's, or the baseline's (its own bin, run from its own directory). */
interface Kit {
  name: string;
  bin: string;
  cwd: string;
}
const kits: Kit[] = [...(baseline ? [{ name: 'baseline', bin: join(baseline, 'bin', 'outreach-conformance.js'), cwd: baseline }] : []), { name: 'this kit', bin: KIT_BIN, cwd: ROOT }];

/**
 * A staging-like profile: the served target, `n` workspaces made for this run alone (untouched rate
 * windows and test emails of the day, as a CI job's would be), no control API. Their keys reach
 * the kit through the environment, as a CI secret would: the file holds none.
 */
async function stagingProfile(served: ChildTarget, n: number, dir: string, name: string): Promise<{ path: string; env: Record<string, string> }> {
  const made: { apiKey: string; organizationId: string }[] = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(`${served.control.baseUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${served.control.token}`, 'content-type': 'application/json' }, body: '{}' });
    made.push((await r.json()) as { apiKey: string; organizationId: string });
  }
  const { control: _control, embedded: _embedded, ...rest } = served.profile!;
  const env = Object.fromEntries(made.map((w, i) => [`OC_STAGING_KEY_${i}`, w.apiKey]));
  const profile = { ...rest, name: `staging-like (${name}, no control API)`, baseUrl: served.baseUrl, workspaces: made.map((w, i) => ({ apiKey: { env: `OC_STAGING_KEY_${i}` }, organizationId: w.organizationId })) };
  const path = join(dir, 'staging.json');
  await writeFile(path, JSON.stringify(profile));
  return { path, env };
}

/**
 * The served target's own profile with its control API (the kit provisions its workspaces there,
 * drains its work and moves its clock); the token reaches the kit through the environment.
 */
async function controlProfile(served: ChildTarget, dir: string, name: string): Promise<{ path: string; env: Record<string, string> }> {
  const { embedded: _embedded, ...rest } = served.profile!;
  const profile = { ...rest, name: `${name}, with its control API`, baseUrl: served.baseUrl, control: { baseUrl: served.control.baseUrl, token: { env: 'OC_STAGING_CONTROL_TOKEN' } } };
  const path = join(dir, 'control.json');
  await writeFile(path, JSON.stringify(profile));
  return { path, env: { OC_STAGING_CONTROL_TOKEN: served.control.token } };
}

interface Row {
  wallS: number;
  requests: number;
  outsideChecks: number;
  plannedS: number;
  /** The run's own time, from its start (after the CLI loaded) to its end: what the announcement estimates. */
  runS: number;
  failures: number;
  /** Chosen checks that skipped (not those the depth left out). */
  skips: number;
  /** The progress line's error on the time left when half the checks were done (replayed), or undefined. */
  halfway?: number;
  /** The same when half the run's time had passed. */
  midway?: number;
  /** The earlier run whose pace the announcement learned (its label), if any. */
  learnedFrom?: string;
  /** With the control API: the drains the run sent, and how many of them took over a second. */
  drains?: { count: number; overSecond: number };
}

/** The drains (POST .../work/drain) in a run's events, read from their exchange lines' heads. */
function drainsOf(ndjson: string): { count: number; overSecond: number } {
  let count = 0;
  let overSecond = 0;
  for (const line of ndjson.split('\n')) {
    if (!line.startsWith('{"type":"exchange"') || !line.includes('/work/drain"')) continue;
    const e = JSON.parse(line) as { durationMs: number; request: { method: string; url: string } };
    if (e.request.method !== 'POST' || !e.request.url.endsWith('/work/drain')) continue;
    count++;
    if (e.durationMs > 1000) overSecond++;
  }
  return { count, overSecond };
}

/** An earlier run of this kit against the same target: its label and reports directory. */
interface Earlier {
  label: string;
  depth: Depth;
  dir: string;
}

async function runDepth(served: ChildTarget, targetName: string, leg: Leg, kit: Kit, depth: Depth, label: string, earlier?: Earlier): Promise<Row & { dir: string }> {
  const dir = keep ? join(keep, label) : await mkdtemp(join(tmpdir(), 'oc-staging-run-'));
  await mkdir(dir, { recursive: true });
  const profile = leg === 'control' ? await controlProfile(served, dir, targetName) : await stagingProfile(served, workspaces, dir, targetName);
  const history = earlier ? ['--history', earlier.dir] : [];
  const t0 = process.hrtime.bigint();
  await exec(process.execPath, [kit.bin, 'run', '--quiet', '--profile', profile.path, '--depth', depth, '--seed', String(seed), '--out', dir, ...history], { cwd: kit.cwd, env: { ...process.env, ...profile.env }, maxBuffer: 64 << 20, timeout: 1_800_000 }).catch((e) => {
    if (e.code !== 1) throw e; // a failing check still measures; a kit error does not
  });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const r = JSON.parse(await readFile(join(dir, 'latest', 'results.json'), 'utf8'));
  const byChecks = (r.checks as { requests?: number }[]).reduce((n, c) => n + (c.requests ?? 0), 0);
  // The kit's own replay of its progress line (results.json stats.estimate); a kit before it has none.
  const halfway = r.stats.estimate?.halfway?.error as number | undefined;
  const midway = r.stats.estimate?.midway?.error as number | undefined;
  const learned = r.stats.estimate?.basis?.pace?.firstLook ? 'a first look' : r.stats.estimate?.basis?.pace ? earlier?.label : undefined;
  const drains = (r.stats.controlRequests ?? 0) > 0 ? drainsOf(await readFile(join(dir, 'latest', 'events.ndjson'), 'utf8')) : undefined;
  return { dir, ...(drains ? { drains } : {}), wallS, requests: r.stats.requests, outsideChecks: r.stats.requests - byChecks, plannedS: (r.stats.plannedMs ?? 0) / 1000, runS: r.stats.actualMs / 1000, failures: (r.summary.fail ?? 0) + (r.summary.error ?? 0), skips: (r.summary.skip ?? 0) - (r.summary.notRun ?? 0), halfway, midway, ...(learned ? { learnedFrom: learned } : {}) };
}

/** The least time `requests` take under the rate limit: a first window per workspace, then the steady rate. */
function floorSeconds(requests: number, perWindow: number, windowSeconds: number): number {
  return Math.max(0, requests - workspaces * perWindow) / ((workspaces * perWindow) / windowSeconds);
}

const pct = (x: number | undefined) => (x === undefined ? '-' : `${(x * 100).toFixed(0)} %`);

function line(target: string, depth: Depth, kit: Kit, r: Row, rate: { requests: number; windowSeconds: number } | undefined): string {
  const floor = rate ? floorSeconds(r.requests, rate.requests, rate.windowSeconds) : 0;
  // Against the run's own time: the announcement is made once the CLI has loaded (1.5-3 s of the wall time before it).
  const eta = r.plannedS > 0 ? pct((r.plannedS - r.runS) / r.runS) : 'none';
  return (
    `${target.padEnd(16)}${depth.padEnd(8)} ${kit.name.padEnd(9)}${r.wallS.toFixed(1).padStart(7)}   ${String(r.requests).padStart(6)} (${r.outsideChecks})`.padEnd(52) +
    `${String(DEPTH_BUDGETS[depth] ?? '-').padStart(6)}  ${floor.toFixed(1).padStart(6)}  ${floor > 0 ? (r.wallS / floor).toFixed(2).padStart(10) : '         -'}  ${r.plannedS.toFixed(0).padStart(9)}  ${r.runS.toFixed(1).padStart(5)}  ${eta.padStart(9)}  ${pct(r.halfway).padStart(8)}  ${pct(r.midway).padStart(9)}  ${String(r.failures).padStart(8)}  ${String(r.skips).padStart(5)}  ${(r.drains ? `${r.drains.count} (${r.drains.overSecond})` : '-').padStart(14)}  ${r.learnedFrom ? `pace of ${r.learnedFrom}` : 'reference'}\n`
  );
}

/** The run a later one learns from: the latest earlier one at its depth, else the latest. */
function learnFrom(earlier: readonly Earlier[], depth: Depth): Earlier | undefined {
  return [...earlier].reverse().find((e) => e.depth === depth) ?? earlier.at(-1);
}

/** A target served for the bench: its label, the reference's choices and slow factor, the legs run against it. */
interface Served {
  target: string;
  name: string;
  choices: string;
  factor: number;
  legs: Leg[];
}
const served: Served[] = [
  { target: 'alone', name: 'the reference served alone', choices: 'default', factor: 1, legs },
  ...(slow > 1 ? [{ target: `slow${slow}`, name: `the reference served ${slow} times slower`, choices: 'default', factor: slow, legs }] : []),
  // A plain control API: without it the choice changes nothing, so only the control leg.
  ...(legs.includes('control') ? [{ target: 'serialized', name: 'the reference with a serialized drain', choices: 'serialized-drain', factor: 1, legs: ['control' as const] }] : []),
].filter((t) => targetNames.includes(t.target.startsWith('slow') ? 'slow' : t.target));

if (keep) await mkdir(keep, { recursive: true });
process.stdout.write(`targets: ${served.map((t) => t.name).join('; ')}; legs: ${legs.map((l) => (l === 'staging' ? `staging (${workspaces} fresh workspaces per run, no control API)` : "control (the reference's control API)")).join(', ')}; seed ${seed}${baseline ? `; baseline kit ${baseline}, run just before this one` : ''}\n`);
process.stdout.write('target          depth    kit         wall s   requests (outside checks)          budget  floor s  wall/floor  announced  run s  ETA error  at half  half time  failures  skips  drains (>1 s)  announced from\n');
const temporary: string[] = [];
try {
  for (const t of served) {
    const target = await startChildReference({ choices: t.choices, name: t.name, slow: t.factor });
    try {
      const rate = target.profile!.rateLimit as { requests: number; windowSeconds: number };
      for (const leg of t.legs) {
        // Each leg learns from its own earlier runs only: a control run's pace is not a staging run's.
        const earlier: Earlier[] = [];
        const seen = new Map<string, number>();
        const label0 = leg === 'control' ? `${t.target}-control` : t.target;
        for (const depth of depths) {
          const n = (seen.get(depth) ?? 0) + 1;
          seen.set(depth, n);
          for (const kit of kits) {
            const mine = kit.bin === KIT_BIN;
            const label = `${label0}-${depth}${n > 1 ? `-${n}` : ''}${mine ? '' : '-baseline'}`;
            // Only this kit learns (a baseline kit may predate --history).
            const r = await runDepth(target, t.name, leg, kit, depth, label, mine ? learnFrom(earlier, depth) : undefined);
            if (!keep) temporary.push(r.dir);
            if (mine) earlier.push({ label, depth, dir: r.dir });
            // The floor is the staging leg's (its fresh workspaces); the control leg provisions its own.
            process.stdout.write(line(leg === 'control' ? `${t.target} ctl` : t.target, depth, kit, r, leg === 'staging' ? rate : undefined));
          }
        }
      }
    } finally {
      await target.stop();
    }
  }
} finally {
  await Promise.all(temporary.map((d) => rm(d, { recursive: true, force: true })));
}
