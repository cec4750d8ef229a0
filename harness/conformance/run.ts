import { mkdir, readFile } from 'node:fs/promises';
import { resolve, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CLAUSES } from '../ground/spec-model/clauses/index.ts';
import { profileForReport } from '../runner/profile-report.ts';
import { KitError } from '../ground/errors.ts';
import { plan, type Plan } from '../plan/planner.ts';
import { chooseRun, planRun } from '../plan/run-plan.ts';
import type { KeyObject } from 'node:crypto';
import { cleansUp, clockOf, expectedCleanup, targetRequests } from '../plan/expected.ts';
import { halfwayEstimate, midwayEstimate } from './progress-replay.ts';
import type { Check } from '../ground/check.ts';
import { newRunSeed } from '../ground/seed.ts';
import { RUN_CONTEXT_ENV, type RunContext } from '../runner/context.ts';
import { createNdjsonSink, readEvents } from '../events/ndjson.ts';
import { writeRunReports } from '../report/index.ts';
import { newRunPrefix } from '../ground/run-prefix.ts';
import { Redactor } from '../client/redact.ts';
import { levelOf } from '../ground/spec-model/levels.ts';
import type { EstimateRecord, FirstLookEvent, RunEvent } from '../ground/events.ts';
import { parseArgs, type CommandHelp, type FlagSpec } from '../ground/args.ts';
import { startEmbeddedTarget } from './embedded.ts';
import { settleFlags, type RunFlags } from './settings.ts';
import { openRunModuleCache, sharedCacheDir } from './module-cache.ts';
import { newRunDir, publishLatest } from './latest.ts';
import { machineLine } from './machine.ts';
import { progressOptions, startRunProgress, type RunProgress, type RunProgressOptions } from './run-progress.ts';
import { probeTarget, resolveControl } from './preflight.ts';
import { firstLookPaceOf, firstLookSaid, formatFirstLook, referenceLook, takesFirstLook, withoutType } from './first-look.ts';
import { targetWorkStats } from '../plan/target-pace.ts';
import { announcedExtensions } from '../client/control.ts';
import { NOT_STARTED_FOR_BUDGET } from '../runner/request-budget.ts';
import { ranDetection } from '../plan/detection.ts';
import { killMatrix } from '../plan/kill-matrix.ts';
import { VIOLATIONS } from '../mutation/violations/index.ts';
import { openViolationsByClause } from '../mutation/violations/share.ts';
import type { Profile } from '../ground/profile-schema.ts';
import type { Depth } from '../ground/check.ts';

import { KIT as pkg, PACKAGE_ROOT } from '../ground/kit.ts';
export { PACKAGE_ROOT };

const FLAGS = {
  profile: { type: 'string', value: 'FILE', help: "the target's profile (default: the embedded reference target)" },
  depth: { type: 'string', value: 'smoke|quick|default|full', help: 'how much runs (default: default)' },
  'time-budget': { type: 'string', value: '5m', help: 'choose only the checks that fit this time' },
  out: { type: 'string', value: 'DIR', help: 'where <run>/ and latest/ go (default: reports)' },
  history: { type: 'string', value: 'DIR|none', help: "earlier runs' reports the time estimate learns this target's pace from (default: --out's; none of them: a first look at the target first, where the rate limit does not bound the run; none: neither)" },
  'first-look': { type: 'boolean', help: "take a first look at the target even where the run would not (the embedded reference's own: the baseline npm run measure-requests records)" },
  only: { type: 'string', value: 'REGEX', help: 'the checks whose id matches' },
  check: { type: 'string', value: 'REGEX', help: 'choose checks by id' },
  clause: { type: 'list', value: 'ID,..', help: 'choose the checks that prove these clauses' },
  section: { type: 'list', value: '4.2,..', help: "choose the checks of these spec sections" },
  'rerun-failed': { type: 'boolean', help: 'the checks that failed or errored in the last run (latest/results.json)' },
  seed: { type: 'number', help: 'replay a run exactly' },
  concurrency: { type: 'number', help: 'checks at a time inside the run' },
  mutants: { type: 'list', value: 'a,b', help: '(embedded target only) serve these mutants of the reference' },
  workspaces: { type: 'number', help: 'workspaces the run makes through the control API' },
  quiet: { type: 'boolean', help: 'no progress lines' },
  spec: { type: 'string', value: 'FILE', help: 'compare a spec file with the one the kit was written from' },
  baseline: { type: 'string', value: 'FILE', help: 'known failures (expected, with a reason; a stale entry fails the run)' },
  sinks: { type: 'string', value: 'URL', help: 'use a standalone "sinks" the target can reach (its HTTP API URL)' },
  'vitest-output': { type: 'boolean', help: "also show vitest's own runner lines (hidden: the kit's summary speaks for the run)" },
  sign: { type: 'string', value: 'KEY.pem|env:VAR', help: 'sign the bundle with an Ed25519 private key: bundle.intoto.jsonl beside it' },
} as const satisfies FlagSpec;

export const RUN_HELP: CommandHelp = {
  usage: ['outreach-conformance run [flags]'],
  summary: 'runs the conformance checks against a target (or the embedded reference) and writes reports/<run>/',
  flags: FLAGS,
  exit: 'exit codes: 0 every MUST check passed, 1 a MUST check failed, 2 the kit itself could not run (or checked nothing)',
};

export interface RunOutcome {
  exitCode: 0 | 1 | 2;
  dir?: string;
}

/**
 * `outreach-conformance run`: exit 0 all MUST checks pass, 1 one failed, 2 the kit could not run.
 * `all` is every check of the kit, given by the command that starts the run (the worker, a process
 * of its own, takes the chosen ones by id from the same list): this room imports no check.
 */
export async function runCommand(argv: string[], all: readonly Check[]): Promise<number> {
  try {
    return (await conformanceRun(parseArgs(argv, FLAGS) as RunFlags, all)).exitCode;
  } catch (e) {
    if (e instanceof KitError) {
      process.stderr.write(`outreach-conformance: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

export type { RunFlags } from './settings.ts';

export async function conformanceRun(flags: RunFlags, all: readonly Check[]): Promise<RunOutcome> {
  // Every flag, the profile, keys, baseline and sinks settled before anything boots (harness/conformance/settings.ts).
  const { depth, timeBudgetSeconds, signWith, profile, spec, baseline, sinksUrl } = await settleFlags(flags, all);
  const say = (s: string) => flags.quiet || process.stdout.write(`${s}\n`);
  const started = Date.now();

  const embedded = profile.embedded ? await startEmbeddedTarget(flags.mutants ?? []) : undefined;
  try {
    const baseUrl = (embedded?.baseUrl ?? profile.baseUrl)!.replace(/\/$/, '');
    await probeTarget(baseUrl);
    const control = embedded?.control ?? (await resolveControl(profile));
    // What the control API offers decides which checks can run: asked before choosing (the worker asks again).
    const extensions = control ? await announcedExtensions(control).then((a) => ('extensions' in a ? a.extensions : undefined)) : undefined;

    const seed = flags.seed ?? newRunSeed();
    const outRoot = resolve(flags.out ?? join(process.cwd(), 'reports'));
    const workspaces = control ? profile.poolSize : profile.workspaces.length;
    // The run is resolved once: the depth's checks, narrowed by --check/--clause/--rerun-failed, cut to
    // the depth's request budget and --time-budget (harness/plan/run-plan.ts).
    const choice = await chooseRun(all, { depth, profile, workspaces, timeBudgetSeconds, timeBudget: flags['time-budget'], select: { ...flags, rerunFailed: flags['rerun-failed'] }, outRoot, extensions });
    const checks = choice.checks;
    // The run's directory is its own: made anew, under a name no other run beside it holds.
    const { runId, dir } = await newRunDir(outRoot, () => `${new Date(started).toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`);
    const eventsPath = join(dir, 'events.ndjson');
    say(`outreach-conformance ${pkg.version}: ${embedded ? 'embedded reference target' : profile.name} at ${baseUrl}${embedded?.mutants.length ? ` (mutants: ${embedded.mutants.join(', ')})` : ''}`);
    say(`run ${runId}, depth ${depth}, seed ${seed} (replay with --seed ${seed})`);
    // What the run creates carries its prefix: a run stopped before its clean-up leaves it to sweep.
    const prefix = newRunPrefix();
    if (cleansUp(profile)) say(`what this run creates carries the prefix ${prefix} (a run stopped before its clean-up: outreach-conformance sweep --profile ${flags.profile ?? 'FILE'} --prefix ${prefix})`);
    for (const line of choice.said) say(line);
    if (sinksUrl) say(`mail sinks: ${sinksUrl} (a standalone sinks process)`);
    // What this machine lacks that the chosen checks need (an IMAP server): said before they run.
    const machine = await machineLine(profile, checks, sinksUrl);
    if (machine) say(machine);
    // The estimate, at this target's pace where its earlier runs showed it.
    const { plan: announced, concurrency, pace, said } = await planRun(checks, { profile, workspaces, depth, concurrency: flags.concurrency, embedded: !!embedded, baseUrl, history: flags.history, defaultDir: outRoot, extensions });
    for (const line of said) say(line);
    // A first run against this target: a first look at it before the checks, and the estimate made again from it.
    const firstLook = takesFirstLook({ embedded: !!embedded, profile, checks, history: flags.history, learned: !!pace, plan: announced, force: !!flags['first-look'] });
    if (firstLook) say(firstLookSaid(profile));
    const replan = (e: FirstLookEvent) => {
      const pace = e.answerMs === undefined ? undefined : firstLookPaceOf(e, checks, depth, profile, started);
      return pace ? plan(checks, profile, workspaces, depth, concurrency, { extensions, pace }) : undefined;
    };

    const redactor = new Redactor();
    if (control) redactor.add(control.token);
    const head = createNdjsonSink(eventsPath);
    head.emit({
      type: 'run-start',
      runId,
      startedAt: new Date(started).toISOString(),
      kit: { name: pkg.name, version: pkg.version },
      spec,
      target: { baseUrl, name: profile.name, embedded: !!embedded },
      depth,
      profile: profileForReport(profile, redactor),
      ...(baseline ? { baseline } : {}),
      detection: choice.detection,
    });
    await head.close();

    const context: RunContext = { runId, baseUrl, control, profile, depth, seed, prefix, checkIds: checks.map((c) => c.id), concurrency, ...(choice.selection?.budget !== undefined ? { requestBudget: choice.selection.budget } : {}), eventsPath, ...(sinksUrl ? { sinksUrl } : {}), ...(firstLook ? { firstLook } : {}) };
    // Progress on stderr while the worker runs the checks (harness/conformance/run-progress.ts); --quiet has none.
    const estimating: Estimating = { checks, plan: announced, concurrency, clock: clockOf(profile), startedAt: started, rate: progressRate(checks, profile, depth), ...(firstLook ? { firstLook: replan } : {}) };
    const sayLook = (e: FirstLookEvent) => {
      const made = replan(e);
      say(formatFirstLook(e, made, referenceLook(profile)));
      return made;
    };
    const progress = flags.quiet ? undefined : startRunProgress({ eventsPath, ...estimating, ...(firstLook ? { firstLook: sayLook } : {}) });
    const workerErrors = await runInVitest(context, !!flags['vitest-output'], progress);
    await setupFailure(eventsPath, checks.length, workerErrors, (t) => redactor.text(t));

    return await finishRun({ dir, outRoot, eventsPath, baseUrl, announced, requestBudget: context.requestBudget, estimating, started, embedded: !!embedded, redact: (t) => redactor.text(t), signWith, profile, depth, all });
  } finally {
    await embedded?.stop();
  }
}

/** What the progress line's estimate reads: the live one and, after the run, its replay. */
type Estimating = Pick<RunProgressOptions, 'checks' | 'plan' | 'concurrency' | 'clock' | 'startedAt' | 'rate'> & { firstLook?: (e: FirstLookEvent) => Plan | undefined };

/** Each check's measured requests during its run and its clean-up's DELETEs (sent right after it ends: no requests of the check), and the rate limit. */
export function progressRate(checks: readonly Check[], profile: Profile, depth: Depth): RunProgressOptions['rate'] {
  const byId = new Map(checks.map((c) => [c.id, c]));
  const cleanup = cleansUp(profile);
  const cleanupOf = (id: string) => {
    const c = byId.get(id);
    return c && cleanup ? expectedCleanup(c) : 0;
  };
  const requestsOf = (id: string) => {
    const c = byId.get(id);
    return c ? targetRequests(c, depth, profile) - cleanupOf(id) : 0;
  };
  return { requestsOf, cleanupOf, perWindow: profile.rateLimit.requests, windowMs: profile.rateLimit.windowSeconds * 1000 };
}

/** The first estimate, what it rested on, its error, and the progress line's at half the checks (replayed). */
function estimateRecord(o: Estimating, profile: Profile, events: Awaited<ReturnType<typeof readEvents>>, actualMs: number): EstimateRecord {
  const e = o.plan.estimate;
  const halfway = halfwayEstimate(events, o.checks, progressOptions(o), o.startedAt + actualMs);
  const midway = midwayEstimate(events, o.checks, progressOptions(o), o.startedAt + actualMs);
  return {
    firstMs: Math.round(e.ms),
    basis: {
      durations: o.clock === 'real' ? 'reference served alone' : 'embedded reference',
      ...(o.plan.basis?.pace ? { pace: o.plan.basis.pace } : {}),
      rateLimit: { requests: profile.rateLimit.requests, windowSeconds: profile.rateLimit.windowSeconds },
      workspaces: o.plan.workspaces ?? 0,
      concurrency: o.concurrency,
      checksMs: Math.round(e.checksMs),
      rateFloorMs: Math.round(e.rateFloorMs),
      from: e.from,
    },
    finalError: (e.ms - actualMs) / Math.max(1, actualMs),
    ...(halfway ? { halfway } : {}),
    ...(midway ? { midway } : {}),
  };
}

interface Finish {
  estimating: Estimating;
  dir: string;
  outRoot: string;
  eventsPath: string;
  baseUrl: string;
  announced: Plan;
  /** The request budget the runner held the run to, if any. */
  requestBudget?: number;
  started: number;
  embedded: boolean;
  /** Erases the run's secrets once more from the bundle (a last guard). */
  redact: (text: string) => string;
  signWith?: KeyObject;
  profile: Profile;
  depth: Depth;
  /** Every check of the kit: the reports list them all. */
  all: readonly Check[];
}

/**
 * The worker could not prepare (its setup-error event), or started no check at all (vitest could
 * not load it): exit 2 with the cause, and no report that would read the unrun checks as a verdict.
 */
async function setupFailure(eventsPath: string, chosen: number, workerErrors: string[], redact: (t: string) => string): Promise<void> {
  const events = await readEvents(eventsPath);
  const setup = events.find((e) => e.type === 'setup-error');
  if (setup) throw new KitError(`the run could not prepare, so no check ran: ${setup.message}`);
  if (chosen > 0 && !events.some((e) => e.type === 'check-start')) {
    const why = workerErrors.length ? workerErrors.map(redact).join('; ') : 'no error was reported (run with --vitest-output to see the worker)';
    throw new KitError(`the check worker started none of the ${chosen} chosen checks: ${why}`);
  }
}

/** After the checks: the run-end event, the reports, the bundle (signed with --sign), latest/, the verdict. */
async function finishRun(o: Finish): Promise<RunOutcome> {
  const { dir, outRoot, eventsPath, baseUrl, started, signWith } = o;
  const events = await readEvents(eventsPath);
  // A first look made the estimate again: that one is the run's announced estimate.
  const look = events.find((e): e is FirstLookEvent => e.type === 'first-look');
  const remade = look && o.estimating.firstLook?.(look);
  const announced = remade ?? o.announced;
  const estimating = remade ? { ...o.estimating, plan: remade, firstLook: undefined } : o.estimating;
  const exchanges = events.filter((e) => e.type === 'exchange');
  const requests = exchanges.filter((e) => e.request.url.startsWith(`${baseUrl}/`)).length;
  const tail = createNdjsonSink(eventsPath, { append: true });
  const actualMs = Date.now() - started;
  const estimate = { ...estimateRecord(estimating, o.profile, events, actualMs), ...(remade ? { beforeFirstLookMs: Math.round(o.announced.estimate.ms) } : {}) };
  const finished = {
    type: 'run-end' as const,
    finishedAt: new Date().toISOString(),
    stats: { requests, controlRequests: exchanges.length - requests, plannedRequests: announced.requests, ...budgetStats(o.requestBudget, events), unplanned429: countUnplanned429(events), plannedMs: Math.round(announced.estimate.ms), actualMs, estimate, ...targetWorkStats(events), ...(look ? { firstLook: withoutType(look) } : {}) },
    detection: ranDetection(events.filter((e) => e.type === 'check-end'), { profile: o.profile, depth: o.depth, all: o.all, kitVersion: pkg.version }),
  };
  tail.emit(finished);
  await tail.close();
  // The reports, the bundle (signed with --sign) and the console's summary, written by one call.
  const input = {
    events: [...events, finished],
    clauses: [...CLAUSES],
    checks: o.all.map((c) => ({ id: c.id, title: c.title, clauses: c.clauses, level: levelOf(c.clauses), features: c.features })),
    mutation: o.embedded ? await readMutation(join(outRoot, 'mutation.json')) : undefined,
    violations: knownGaps(events, o.depth, o.all),
  };
  const { summary, bundle, attestation, exitCode, results } = await writeRunReports(dir, input, { redact: o.redact, ...(signWith ? { signWith } : {}) });
  const latest = join(outRoot, 'latest');
  // Replaced whole (harness/conformance/latest.ts): runs beside this one finishing at once each succeed.
  const published = await publishLatest(dir, outRoot);
  // The verdict is always printed, --quiet or not.
  const signed = attestation ? `attestation: ${attestation.path} (in-toto, DSSE, signed by key ${attestation.keyid}; verify --key PUB.pem checks it)\n` : '';
  process.stdout.write(`${summary}\nreports: ${dir} (${published ? `also ${latest}` : `${latest} was left to the runs that finished beside this one`})\nbundle: ${bundle.path} (sha256 ${bundle.sha256}; outreach-conformance verify checks it)\n${signed}`);
  // Nothing checked is no verdict: exit 2 with the cause on stderr too, where CI logs look for it.
  if (results.verdict === 'nothing-checked') process.stderr.write(`outreach-conformance: ${summary.split('\n')[0]}\n`);
  return { exitCode, dir };
}

/** The budget the run was held to, and how many chosen checks it did not start (their skip message says why). */
function budgetStats(budget: number | undefined, events: Awaited<ReturnType<typeof readEvents>>): { requestBudget?: number; notStartedForBudget?: number } {
  if (budget === undefined) return {};
  const notStarted = events.filter((e) => e.type === 'check-end' && e.verdict === 'skip' && e.message?.startsWith(NOT_STARTED_FOR_BUDGET)).length;
  return { requestBudget: budget, ...(notStarted ? { notStartedForBudget: notStarted } : {}) };
}

/** The last `npm run mutation` result beside the reports: evidence the suite can fail. */
async function readMutation(path: string) {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as { score: number; mutants: { id: string; clauses: string[]; killed: boolean; killedBy: string[] }[] };
  } catch {
    return undefined;
  }
}

function countUnplanned429(events: Awaited<ReturnType<typeof readEvents>>): number {
  // Probes mean to hit the limit; everything else that met a 429 was unplanned.
  const probes = new Set(events.filter((e) => e.type === 'check-end' && e.checkId.startsWith('RATE-')).map((e) => (e as { checkId: string }).checkId));
  return events.filter((e) => e.type === 'exchange' && e.response?.status === 429 && !(e.checkId && probes.has(e.checkId))).length;
}

/** A reporter that prints nothing: the kit's own summary and progress speak for the run. */
const SILENT_REPORTER = { onInit() {} };

/** Runs the worker; returns the errors vitest saw outside the checks (a file that failed to load, a failed hook). */
async function runInVitest(context: RunContext, vitestOutput: boolean, progress?: RunProgress): Promise<string[]> {
  const { startVitest } = await import('vitest/node');
  process.env[RUN_CONTEXT_ENV] = JSON.stringify(context);
  // The checks' transformed modules, kept between runs in a cache each run has its own copy of.
  const cache = await openRunModuleCache(sharedCacheDir(PACKAGE_ROOT));
  try {
    const vitest = await startVitest('test', [], {
      experimental: cache ? { fsModuleCache: true, fsModuleCachePath: cache.dir } : { fsModuleCache: false },
      run: true,
      root: PACKAGE_ROOT,
      config: join(PACKAGE_ROOT, 'harness/worker/vitest.conformance.config.ts'),
      // Every check of a phase starts at once in vitest and waits for the runner's admission
      // (context.concurrency at a time, where its requests fit a rate window): no vitest timeout
      // counts that wait; the runner times each check from its admission.
      maxConcurrency: Math.max(1, context.checkIds.length),
      testTimeout: 0,
      // The progress reporter goes first: it clears its line before vitest's own reporter writes
      // (shown only with --vitest-output; otherwise its lines would mix with the kit's summary).
      reporters: [progress ? progress.reporter : SILENT_REPORTER, ...(vitestOutput ? [['default', { summary: false }] as ['default', { summary: boolean }]] : [])],
      watch: false,
      passWithNoTests: true,
    });
    const errors = [...(vitest?.state.getFiles() ?? []).flatMap((f) => f.result?.errors ?? []), ...(vitest?.state.getUnhandledErrors() ?? [])];
    await vitest?.close();
    return errors.map((e) => firstLineOf((e as { message?: string }).message ?? String(e)));
  } finally {
    progress?.stop();
    await cache?.close().catch(() => {});
    delete process.env[RUN_CONTEXT_ENV];
    process.exitCode = undefined; // the CLI decides the exit code from the verdicts
  }
}

const firstLineOf = (s: string) => s.split('\n')[0]!.slice(0, 500);

export { mkdir };

/** Per clause, the catalog's plausible violations no check of this run that claims it and ran to a verdict kills (its known gaps). */
function knownGaps(events: readonly RunEvent[], depth: Depth, all: readonly Check[]) {
  const ran = new Set(events.flatMap((e) => (e.type === 'check-end' && (e.verdict === 'pass' || e.verdict === 'fail') ? [e.checkId] : [])));
  return openViolationsByClause(all.filter((c) => ran.has(c.id)), VIOLATIONS, killMatrix(), depth);
}
