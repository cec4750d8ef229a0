// `npm run bench:estimate -- DIR...`: the progress line's estimate replayed from kept runs, without
// running them again. Each DIR is a run kept by `bench:staging --out` (DIR/<target>-<depth>, its
// profile beside latest/) or a run's own directory (its profile: --profile FILE, else the one its
// run-start event recorded). The run's check events go
// through this checkout's estimator (harness/conformance/run-progress.ts) as the run would have shown them:
// the error when half the checks were done (what results.json stats.estimate.halfway records) beside
// the one the run recorded, and with --trace the time left it said every 5 s against the time
// that was left. A developer's tool (not in the package), with the benches.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { parseArgs } from '../ground/args.ts';
import { parseDepth } from '../ground/units.ts';
import { loadProfile, parseProfile } from '../ground/profile.ts';
import type { CheckEndEvent, CheckStartEvent, RunEndEvent, RunStartEvent, TargetWorkEvent } from '../ground/events.ts';
import { readEvents } from '../events/ndjson.ts';
import { defaultConcurrency, plan } from '../plan/planner.ts';
import { clockOf } from '../plan/expected.ts';
import { progressRate } from '../conformance/run.ts';
import { progressOptions, RunProgressState, sentOf, signedPercent, type ProgressEvent, type SentEvent } from '../conformance/run-progress.ts';
import { halfwayEstimate, recordingOf, timeLeftTrace } from '../conformance/progress-replay.ts';
import { writeFile } from 'node:fs/promises';
import { pacedMs } from '../plan/target-pace.ts';
import { expectedDurationMs } from '../plan/expected.ts';
import { targetHistory } from '../plan/target-history.ts';

const flags = parseArgs(process.argv.slice(2), { profile: { type: 'string', value: 'FILE', help: "the runs' profile (default: DIR/staging.json)" }, trace: { type: 'boolean', help: 'the time left every 5 s' }, record: { type: 'string', value: 'FILE', help: "keep the (one) run's progress events and expectations as a recording (harness/conformance/recorded/, a test's input)" }, about: { type: 'string', value: 'TEXT', help: 'what the recorded run was (target, depth, machine)' }, history: { type: 'string', value: 'DIR', help: "replay as if the run had learned its pace from these earlier runs, or from none (default: the pace it recorded)" } }, { positionals: true });
const dirs = flags._ ?? [];
if (dirs.length === 0) {
  process.stderr.write('usage: npm run bench:estimate -- [--profile FILE] [--trace] DIR...\n');
  process.exit(2);
}

for (const dir of dirs) {
  const eventsPath = [join(dir, 'events.ndjson'), join(dir, 'latest', 'events.ndjson')].find(existsSync);
  if (!eventsPath) {
    process.stderr.write(`${dir}: needs events.ndjson (or latest/events.ndjson)\n`);
    process.exit(2);
  }
  const events = await readEvents(eventsPath);
  const start = events.find((e): e is RunStartEvent => e.type === 'run-start');
  const end = events.find((e): e is RunEndEvent => e.type === 'run-end');
  if (!start || !end) {
    process.stderr.write(`${dir}: the run has no run-start or run-end event\n`);
    process.exit(2);
  }
  // The run as it was planned: its profile and depth, the checks it ran, the default concurrency.
  // The profile beside a kept bench run, or --profile, else the one the run recorded (secrets redacted).
  const profilePath = flags.profile === undefined ? join(dir, 'staging.json') : String(flags.profile);
  const loaded = existsSync(profilePath) ? await loadProfile(profilePath) : parseProfile(start.profile, `${dir}: the profile its run-start event recorded`);
  // An embedded run makes its poolSize of workspaces as a control API does.
  const workspaces = loaded.control || start.target.embedded ? loaded.poolSize : loaded.workspaces.length;
  const profile = { ...loaded, poolSize: workspaces };
  const ran = new Set(events.filter((e) => e.type === 'check-end').map((e) => e.checkId));
  const checks = ALL_CHECKS.filter((c) => ran.has(c.id));
  const concurrency = defaultConcurrency(profile);
  const startedAt = Date.parse(start.startedAt);
  const depth = parseDepth(start.depth);
  // The pace the run learned from earlier runs (recorded), or --history's: the replay leans on it as the run did.
  const history = flags.history === undefined ? undefined : String(flags.history);
  const learned = end.stats.estimate?.basis.pace;
  // A record from before the engine-bound kind had its own pace: those checks took the short one.
  const pace = history === undefined ? learned && { ...learned, works: learned.works ?? learned.short } : history === 'none' ? undefined : (await targetHistory(history, { baseUrl: start.target.baseUrl, clock: clockOf(profile), depth }, true)).pace;
  const planned = plan(checks, profile, workspaces, depth, concurrency, pace ? { pace } : {});
  const o = progressOptions({ plan: planned, rate: progressRate(checks, profile, depth), concurrency, clock: clockOf(profile), startedAt });
  const h = halfwayEstimate(events, checks, o, startedAt + end.stats.actualMs);
  const recorded = end.stats.estimate?.halfway;
  const said = h ? `${signedPercent(h.error)} (said ${(h.leftMs / 1000).toFixed(0)} s, ${(h.actualLeftMs / 1000).toFixed(0)} s left; ${h.from}, paces ${h.scales.short}/${h.scales.works ?? '-'}/${h.scales.waiting})` : 'none';
  const announced = `announced ${(planned.estimate.ms / 1000).toFixed(0)} s (${signedPercent((planned.estimate.ms - end.stats.actualMs) / end.stats.actualMs)}${pace ? `, learned pace ${pace.short}/${pace.works ?? '-'}/${pace.waiting}, ${Object.keys(pace.own).length} own` : ''})`;
  process.stdout.write(`${dir}: ${depth}, ${checks.length} checks, ${(end.stats.actualMs / 1000).toFixed(0)} s; ${announced}; at half ${said}; the run recorded ${recorded ? signedPercent(recorded.error) : 'none'}\n`);
  if (flags.trace)
    for (const p of timeLeftTrace(events, new RunProgressState(checks, o), startedAt, startedAt + end.stats.actualMs, 5000))
      process.stdout.write(`  ${(p.atMs / 1000).toFixed(0).padStart(4)} s  done ${String(p.done).padStart(4)}/${checks.length}  said ${(p.saidMs / 1000).toFixed(0).padStart(4)} s (${p.from})  left ${(p.actualLeftMs / 1000).toFixed(0).padStart(4)} s  ${signedPercent((p.saidMs - p.actualLeftMs) / Math.max(1, p.actualLeftMs))}\n`);
  if (flags.record !== undefined) {
    const clock = clockOf(profile);
    const expected = (id: string) => Math.round(pacedMs(id, expectedDurationMs({ id }, clock), pace));
    const head = { about: String(flags.about ?? dir), startedAt, endAt: startedAt + end.stats.actualMs, concurrency, clock, finishMs: o.finishMs ?? 0, checks: checks.map((c) => ({ id: c.id, expectedMs: expected(c.id), ...(c.solo ? { solo: true } : {}), ...(c.last ? { last: true } : {}) })) };
    await writeFile(String(flags.record), recordingOf(events, head));
    process.stdout.write(`  recorded: ${String(flags.record)}\n`);
  }
}
