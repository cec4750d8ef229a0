import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Profile } from '../ground/profile-schema.ts';
import { helpText, parseArgs } from '../ground/args.ts';
import { LOAD_HELP, LOAD_MODES, type LoadMode } from './flags.ts';
import { Redactor } from '../client/redact.ts';
import { DEFAULT_PROFILE_PATH, loadProfile, resolveSecret } from '../ground/profile.ts';
import { KitError } from '../ground/errors.ts';
import { newRunSeed } from '../ground/seed.ts';
import { parseMix } from './generator/flows.ts';
import { parseDuration, parseRate } from '../ground/units.ts';
import { environment } from './environment.ts';
import { renderLoadHtml } from './report/html.ts';
import { decode, percentile } from './report/histogram.ts';
import { progressPrinter } from '../ground/progress.ts';
import { EMBEDDED_CAPACITY_LIMIT, startChildReference } from './embedded-target.ts';
import { LOAD_SCHEMA_VERSION, type LoadKind, type LoadReport } from './report/types.ts';
import { describeBroken, evaluateThresholds, parseThreshold, type Threshold } from './report/thresholds.ts';
import { mergeLoadReports } from './report/merge.ts';
import type { Precision } from './generator/open-model.ts';
import type { ControlEndpoint } from '../ground/control-endpoint.ts';
import { newRunPrefix } from '../ground/run-prefix.ts';
import { openStore, probeWritable, type ResultStore } from './store/store.ts';
import { parseShardFlags, reportName, type ShardFlags } from './shards.ts';
import { collectShards, readLoadJson } from './merge-shards.ts';
import { parseMetricsFlag, type MetricsTarget } from './metrics/flag.ts';
import type { RunMetrics } from './metrics/index.ts';

// `outreach-conformance load api|capacity|sendpath`: runs one load, writes
// reports/<run>/load.json and load.html (and requests.ndjson for api), prints the verdict.
// Exit 0: no violation and every threshold held; 1: a violation or a broken threshold (named);
// 2: the kit could not run (bad flag, bad profile, not enough workspaces...).

/** `load --help`: every mode's help; `load MODE --help`: that mode's. */
export function loadHelp(mode?: string): string {
  const modes = mode && mode in LOAD_HELP ? [mode as LoadMode] : LOAD_MODES;
  return modes.map((m) => helpText(LOAD_HELP[m])).join('\n');
}

export async function loadCommand(argv: string[]): Promise<number> {
  const [mode, ...rest] = argv;
  if (mode === undefined || mode === 'help' || mode === '--help' || mode === '-h') {
    process.stdout.write(loadHelp());
    return mode === undefined ? 2 : 0;
  }
  if (!(LOAD_MODES as string[]).includes(mode)) throw new KitError(`unknown load mode "${mode}"; known: ${LOAD_MODES.join(', ')}\n\n${loadHelp()}`);
  if (rest.includes('--help') || rest.includes('-h')) return process.stdout.write(loadHelp(mode)), 0;
  if (mode === 'merge') return mergeCommand(rest);
  if (mode === 'kubernetes') return (await import('./kubernetes/command.ts')).kubernetesCommand(rest);
  const flags = parseArgs(rest, LOAD_HELP[mode as LoadMode].flags) as Record<string, any>;
  const profilePath = resolve(flags.profile ?? DEFAULT_PROFILE_PATH);
  const profileText = await readFile(profilePath, 'utf8').catch((e: Error) => {
    throw new KitError(`cannot read profile ${profilePath}: ${e.message}`);
  });
  const profile = await loadProfile(profilePath);
  const thresholds = ((flags.threshold as string[] | undefined) ?? profile.load?.thresholds ?? []).map(parseThreshold);
  const quiet = !!flags.quiet;
  const say = (s: string) => quiet || process.stdout.write(`${s}\n`);
  const redactor = new Redactor();
  const seed = flags.seed ?? newRunSeed();
  const prefix = newRunPrefix();
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-load-${mode}-${randomBytes(2).toString('hex')}`;

  // Every flag value is read before the target and the sinks boot: a bad one is refused at once.
  const sharding = shardFlags(flags, mode as LoadKind);
  const api = mode === 'api' ? { ...apiFlags(flags), ...sharding } : undefined;
  const capacity = mode === 'capacity' ? capacityFlags(flags) : undefined;
  if (mode === 'sendpath') parseDuration(flags['max-wall'] ?? '10m', '--max-wall');
  const metricsFlags = metricsOf(flags);
  const out = await outputOf(flags.out, reportName(sharding, runId));
  // A load refused before it starts (a rate its workspaces cannot carry, a target that does not boot) writes nothing.
  const target = await targetOf(profile, mode as LoadKind, redactor, (flags.mutants as string[] | undefined) ?? []).catch(discardOnRefusal(out));
  let metrics: RunMetrics | undefined;
  try {
    if (metricsFlags.targets.length) {
      const run = { run: sharding.run ?? runId, shard: sharding.shard ? `${sharding.shard.index}/${sharding.shard.of}` : '1/1', kind: mode as 'api' | 'sendpath' };
      metrics = await (await import('./metrics/index.ts')).openRunMetrics(metricsFlags.targets, run, { everyMs: metricsFlags.everyMs, warn: (l) => process.stderr.write(`${redactor.text(l)}\n`) });
      say(`metrics: ${metricsFlags.targets.map((t) => `${t.kind} ${t.url}`).join(', ')}, every ${metricsFlags.everyMs / 1000}s, run="${run.run}" shard="${run.shard}"`);
    }
    say(`outreach-conformance load ${mode}: ${target.embedded ? 'embedded reference target' : profile.name} at ${target.baseUrl}, seed ${seed}`);
    const progress = progressPrinter(process.stderr, quiet);
    const common = { profile, baseUrl: target.baseUrl, control: target.control, redactor, prefix, seed };
    let body: Omit<LoadReport, 'schemaVersion' | 'kind' | 'runId' | 'environment' | 'thresholds' | 'ok'>;
    if (api) {
      const { rate, durationMs } = api;
      const { runApiLoad } = await import('./generator/api.ts');
      body = await runApiLoad({
        ...common,
        ...api,
        requestsLog: join(out.local, 'requests.ndjson'),
        onReady: (s) => say(`ready ${s.marginMs} ms before the start instant ${s.startAt} (shard ${s.shard}${s.clockOffsetMs ? `; clock offset to the target ${s.clockOffsetMs.lo}..${s.clockOffsetMs.hi} ms over ${s.clockOffsetMs.samples} Date headers` : ''}; tolerance ${s.toleranceMs} ms)`),
        onPlan: ({ plan, mix, intended, setupRequests }) => {
          say(`plan: ${intended} requests at ${(plan.perWorkspaceRate * plan.workspaces).toFixed(2).replace(/\.00$/, '')}/s${flags.shard ? ` (shard ${flags.shard} of ${rate}/s)` : ''} for ${durationMs / 1000}s over ${plan.workspaces} workspace(s) (${plan.perWorkspaceRate.toFixed(2)}/s each, at most ${plan.peakPerWindow} in any ${plan.limit.windowSeconds}s window against a limit of ${plan.limit.requests}; ${setupRequests} setup requests each)`);
          say(`mix: ${Object.entries(mix.weights).map(([f, w]) => `${f}=${w}`).join(', ')}`);
          for (const l of mix.left) say(`left out: ${l.flow} (${l.reason})`);
        },
        onProgress: (p) => progress.update({ elapsedMs: p.elapsedMs, totalMs: p.durationMs, text: `sent ${p.sent}  ${p.rate}/s  p50 ${p.p50.toFixed(1)}ms  p99 ${p.p99.toFixed(1)}ms  late ${p.late}  errors ${p.errors}` }),
        observe: metrics?.metrics.shot,
      });
    } else if (capacity) {
      const { runCapacity } = await import('./generator/capacity.ts');
      body = await runCapacity({
        ...common,
        ...capacity,
        onStep: (s) => say(`${String(s.connections).padStart(4)} connections: ${s.throughput.toFixed(0)} req/s, p50 ${(s.p50 / 1000).toFixed(1)}ms, p99 ${(s.p99 / 1000).toFixed(1)}ms, errors ${s.errors}, non-2xx ${s.non2xx}`),
      });
    } else {
      const { runSendpathCommand } = await import('./sendpath/command.ts');
      body = await runSendpathCommand({ ...common, flags, progress, say, shard: sharding.shard, run: sharding.run, onDelivery: metrics?.metrics.deliveries });
    }
    progress.done();
    const metricsLines = metrics ? await metrics.finish() : [];
    for (const l of metricsLines) (l.startsWith('metrics lost') ? process.stderr : process.stdout).write(`${redactor.text(l)}\n`);
    if (metricsLines.length) body.notes = [...(body.notes ?? []), ...metricsLines];
    const partial: LoadReport = {
      schemaVersion: LOAD_SCHEMA_VERSION,
      kind: mode as LoadKind,
      runId,
      environment: environment(target.baseUrl, profileText),
      ...body,
      thresholds: [],
      ok: false,
    };
    return await finish(partial, thresholds, out, redactor);
  } catch (e) {
    return await discardOnRefusal(out)(e);
  } finally {
    metrics?.abandon();
    await target.stop();
  }
}

/** --metrics and --metrics-every, read before anything starts. */
function metricsOf(flags: Record<string, any>): { targets: MetricsTarget[]; everyMs: number } {
  const targets = parseMetricsFlag(flags.metrics as string[] | undefined);
  const everyMs = parseDuration(flags['metrics-every'] ?? '5s', '--metrics-every');
  if (!(everyMs >= 100)) throw new KitError(`--metrics-every takes a duration of 100ms or more, not "${flags['metrics-every']}"`);
  return { targets, everyMs };
}

/** The flag values of `load api`. */
function apiFlags(flags: Record<string, any>) {
  return {
    rate: parseRate(flags.rate ?? '20/s'),
    durationMs: parseDuration(flags.duration ?? '30s', '--duration'),
    mix: flags.mix ? parseMix(flags.mix) : undefined,
    precision: parsePrecision(flags.precision),
  };
}

/** The flag values of `load capacity`. */
function capacityFlags(flags: Record<string, any>) {
  const connections = ((flags.connections as string[] | undefined) ?? ['1', '4', '16', '64']).map(Number);
  const bad = connections.find((n) => !Number.isInteger(n) || n < 1);
  if (bad !== undefined) throw new KitError(`--connections takes whole numbers of 1 or more, got ${JSON.stringify(flags.connections)}`);
  return { connections, stepMs: parseDuration(flags.step ?? '10s', '--step') };
}

function parsePrecision(v: string | undefined): Precision | undefined {
  if (v === undefined) return undefined;
  if (!['timer', 'sleep-last-ms', 'spin-last-ms'].includes(v)) throw new KitError(`--precision takes timer, sleep-last-ms or spin-last-ms, not "${v}"`);
  return v as Precision;
}

/** --shard, --start-at, --run: which modes take them. */
function shardFlags(flags: Record<string, any>, mode: LoadKind): ShardFlags {
  const s = parseShardFlags(flags);
  if (s.startAt !== undefined && mode !== 'api') throw new KitError(`--start-at is a flag of load api (a ${mode} run does not follow a shared schedule)`);
  if (s.shard && mode === 'capacity') throw new KitError('--shard is a flag of load api and load sendpath: a capacity search is not split');
  return s;
}

/** Where a run writes: a local folder (the store's, or a scratch one uploaded at the end), probed before any load. */
interface Output {
  store: ResultStore;
  name: string;
  local: string;
  /** The first folder this run made for its files (undefined: the folder was there before it). */
  made: string | undefined;
}

async function outputOf(outFlag: string | undefined, name: string): Promise<Output> {
  const store = await openStore(outFlag);
  const scratch = outFlag?.startsWith('s3://');
  const local = scratch ? await mkdtemp(join(tmpdir(), 'outreach-load-')) : store.locate(name);
  // Made before the probe, so the run knows the folders that are its own (mkdir gives the first it made).
  const made = scratch ? local : await mkdir(local, { recursive: true });
  await probeWritable(store, `${name}/.probe`).catch(async (e: unknown) => {
    if (made) await rm(made, { recursive: true, force: true });
    throw e;
  });
  return { store, name, local, made };
}

/**
 * A KitError is a refusal: the folders the run made are removed while they hold nothing (no byte
 * written: a refusal comes before the load; a folder that was there before the run stays), and the error goes on.
 */
function discardOnRefusal(out: Output): (e: unknown) => Promise<never> {
  return async (e) => {
    if (e instanceof KitError && out.made && (await holdsNothing(out.made))) await rm(out.made, { recursive: true, force: true });
    throw e;
  };
}

async function holdsNothing(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isFile() && (await stat(join(e.parentPath, e.name))).size > 0) return false;
  return true;
}

/** Thresholds judged, load.json and load.html written, the verdict printed: exit 0 or 1. */
async function finish(report: LoadReport, thresholds: Threshold[], out: Output, redactor: Redactor): Promise<number> {
  report.thresholds = evaluateThresholds(thresholds, report);
  const violations = report.violationCounts ? Object.values(report.violationCounts).reduce((a, n) => a + n, 0) : report.violations.length;
  report.ok = violations === 0 && report.thresholds.every((t) => t.ok);
  const json = redactor.text(JSON.stringify(report, null, 1));
  await writeFile(join(out.local, 'load.json'), json);
  await writeFile(join(out.local, 'load.html'), redactor.text(renderLoadHtml(JSON.parse(json) as LoadReport)));
  if (out.local !== out.store.locate(out.name)) {
    // load.json last: a reader waiting on it finds the rest already there.
    for (const f of ['requests.ndjson', 'load.html', 'load.json']) {
      const body = await readFile(join(out.local, f)).catch(() => undefined);
      if (body) await out.store.put(`${out.name}/${f}`, body);
    }
    await rm(out.local, { recursive: true, force: true });
  }
  process.stdout.write(`${verdict(report)}\nreports: ${out.store.locate(out.name)}\n`);
  return report.ok ? 0 : 1;
}

/** `load merge a.json b.json ...` or `load merge --from STORE --run R --shards n`: one report from the shards of a load. */
async function mergeCommand(argv: string[]): Promise<number> {
  const { _: files = [], ...flags } = parseArgs(argv, LOAD_HELP.merge.flags, { positionals: true }) as { _?: string[]; out?: string; threshold?: string[]; from?: string; run?: string; shards?: number; wait?: string };
  const { parts, names } = flags.from !== undefined ? await fromStore(flags) : await fromFiles(files);
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-load-merge-${randomBytes(2).toString('hex')}`;
  const out = await outputOf(flags.out, flags.run ? `${flags.run}/merged` : runId);
  const merged = { ...mergeLoadReports(parts, runId, names), thresholds: [], ok: false } as LoadReport;
  for (const s of merged.shardStarts ?? []) process.stdout.write(`shard ${s.shard}: ready ${s.marginMs} ms before ${s.startAt}, first request ${s.startSkewMs} ms after its time${s.clockOffsetMs ? `, clock offset to the target ${s.clockOffsetMs.lo}..${s.clockOffsetMs.hi} ms` : ''}\n`);
  return finish(merged, (flags.threshold ?? []).map(parseThreshold), out, new Redactor());
}

async function fromFiles(files: string[]): Promise<{ parts: LoadReport[]; names: string[] }> {
  if (files.length === 0) throw new KitError('load merge needs the load.json of every shard (load merge a/load.json b/load.json ...) or --from STORE --run NAME --shards n');
  const parts = await Promise.all(
    files.map(async (f) => {
      const text = await readFile(resolve(f), 'utf8').catch((e: Error) => {
        throw new KitError(`cannot read ${f}: ${e.message}`);
      });
      return readLoadJson(text, f);
    }),
  );
  return { parts, names: files };
}

async function fromStore(flags: { from?: string; run?: string; shards?: number; wait?: string }): Promise<{ parts: LoadReport[]; names: string[] }> {
  if (!flags.run) throw new KitError('load merge --from needs --run NAME (the run the shards were given, or load-<instant> from their --start-at)');
  const n = flags.shards;
  if (n === undefined || !Number.isInteger(n) || n < 1) throw new KitError('load merge --from needs --shards n (how many shards the run has, a whole number of 1 or more)');
  const store = await openStore(flags.from);
  return collectShards({ store, run: flags.run, of: n, waitMs: parseDuration(flags.wait ?? '10m', '--wait'), say: (s) => process.stderr.write(`${s}\n`) });
}

/** The one line that says what the run measured, in the terms of its mode. */
function headline(r: LoadReport): string {
  const c = decode(r.totals.corrected);
  const ms = (us: number) => `${(us / 1000).toFixed(1)}ms`;
  if (r.sendpath) {
    const s = r.sendpath;
    return `${r.totals.completed} of ${r.totals.sent} emails arrived at the sink (${s.simulated ? 'simulated time' : 'real time'}), ${s.emailsPerWallSecond.toFixed(0)} emails per wall second, achieved/ideal ${(s.achievedPerDay / Math.max(s.idealPerDay, Number.EPSILON)).toFixed(3)}, duplicates ${s.duplicates}, losses ${s.losses}, gap violations ${s.gapViolations}, cap violations ${s.capViolations}`;
  }
  if (r.capacity) {
    const top = r.capacity.steps[r.capacity.ceiling]!;
    return `ceiling ${top.throughput.toFixed(0)} req/s at ${top.connections} connections (closed model): p50 ${ms(top.p50)}, p99 ${ms(top.p99)}, errors ${top.errors}, non-2xx ${top.non2xx}`;
  }
  return `${r.totals.completed} requests, ${r.totals.throughput}/s, p50 ${ms(percentile(c, 50))}, p99 ${ms(percentile(c, 99))}, p99.9 ${ms(percentile(c, 99.9))} (from the intended send time), late ${r.totals.late}, errors ${r.totals.errors}`;
}

function verdict(r: LoadReport): string {
  const lines = [`${r.ok ? 'PASS' : 'FAIL'}: ${headline(r)}`];
  for (const [rule, n] of Object.entries(r.violationCounts ?? {})) lines.push(`violation: ${rule} x${n}${r.violations.find((v) => v.rule === rule) ? ` (first: ${r.violations.find((v) => v.rule === rule)!.message})` : ''}`);
  if (!r.violationCounts) for (const v of r.violations) lines.push(`violation: ${v.rule}: ${v.message}`);
  lines.push(...describeBroken(r.thresholds));
  return lines.join('\n');
}

interface Target {
  baseUrl: string;
  control?: ControlEndpoint;
  embedded: boolean;
  stop(): Promise<void>;
}

/** The profile's target, or the embedded reference (with a raised rate limit for capacity runs). */
async function targetOf(profile: Profile, mode: LoadKind, redactor: Redactor, mutants: string[]): Promise<Target> {
  if (!profile.embedded) {
    const control = profile.control ? { baseUrl: profile.control.baseUrl, token: resolveSecret(profile.control.token, 'control.token') } : undefined;
    if (control) redactor.add(control.token);
    return { baseUrl: profile.baseUrl!.replace(/\/$/, ''), control, embedded: false, stop: async () => {} };
  }
  const raised = mode === 'capacity' ? EMBEDDED_CAPACITY_LIMIT : undefined;
  if (raised) profile.rateLimit = { requests: raised.requests, windowSeconds: raised.windowMs / 1000 };
  const t = await startChildReference({ rateLimit: raised, mutants });
  redactor.add(t.control.token);
  return { baseUrl: t.baseUrl, control: t.control, embedded: true, stop: t.stop };
}
