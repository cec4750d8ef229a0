import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { helpText, parseArgs, type CommandHelp, type FlagSpec } from '../../ground/args.ts';
import { Redactor } from '../../client/redact.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../../ground/profile.ts';
import { KitError } from '../../ground/errors.ts';
import { newRunSeed } from '../../ground/seed.ts';
import type { MailSink } from '../../sinks/index.ts';
import { MIN_RAISED_RATE } from '../generator/capacity.ts';
import { renderCompareHtml } from './html.ts';
import { compareExitCode, COMPARE_SCHEMA_VERSION, DEFAULT_ALPHA, DEFAULT_THRESHOLD, explainVerdict, fmtRatio, judgeMetrics, METRICS, overallVerdict, parseMetricThresholds, tooFewPairs, type CompareMode, type CompareReport } from './metrics.ts';
import type { RunFigures } from './run.ts';
import { ORDER_TEXT, apiRunner, runPairs, sendpathRunner, type PairsResult, type SideRunner } from './session.ts';
import { checkSlowdown, parseSide, serveSide, type ServedSide } from './sides.ts';
import { environment } from '../environment.ts';
import { formatLatency } from '../report/html.ts';
import { pairsToReach, smallestP } from './stats.ts';
import { parseDuration } from '../../ground/units.ts';

// `outreach-conformance compare --base X --head Y`: the same declared load against two builds,
// interleaved on one machine, judged metric by metric on the paired ratios head/base. Writes
// reports/<run>/compare.json and compare.html. Exit 0: nothing failed (warnings allowed); 1: a
// metric failed (its ratio past its threshold AND its one-sided test significant); 2: no verdict
// to go by: the kit could not run (a bad flag or side, named), or the comparison is INCONCLUSIVE
// (too few pairs for the test ever to reach alpha, so no metric could fail).

const FLAGS = {
  base: { type: 'string', value: '<dir|git rev|url>', help: 'the build compared against (sides: below)' },
  head: { type: 'string', value: '<dir|.|url>', help: 'the build judged' },
  pairs: { type: 'number', help: 'paired runs (default 5)' },
  mode: { type: 'string', value: 'api|sendpath', help: 'the load each side gets (default api)' },
  profile: { type: 'string', value: 'FILE', help: "the profile of both URL sides (default: the kit's reference)" },
  'base-profile': { type: 'string', value: 'FILE', help: "the base side's profile" },
  'head-profile': { type: 'string', value: 'FILE', help: "the head side's profile" },
  threshold: { type: 'list', value: 'METRIC=SHARE', help: `how much worse a metric may get, e.g. cpu=5% p99=20% (default ${DEFAULT_THRESHOLD * 100}% each)` },
  alpha: { type: 'number', help: `the significance level (default ${DEFAULT_ALPHA})` },
  seed: { type: 'number', help: 'replay the same loads' },
  out: { type: 'string', value: 'DIR', help: 'where <run>/ goes (default: reports)' },
  quiet: { type: 'boolean', help: 'no progress lines' },
  requests: { type: 'number', help: 'api: measured requests per run (default 2000)' },
  warmup: { type: 'number', help: 'api: warm-up requests per run (default 5000)' },
  connections: { type: 'number', help: 'api: connections (default 4)' },
  reads: { type: 'string', value: 'reads|one', help: 'api: reads (four read endpoints, cycled; the default) or one (GET /v1/workspace)' },
  mailboxes: { type: 'number', help: 'sendpath: mailboxes (default 10)' },
  leads: { type: 'number', help: 'sendpath: leads (default 100)' },
  'max-run': { type: 'string', value: '2m', help: 'the longest one run may take (api 2m, sendpath 5m)' },
  'base-slowdown': { type: 'number', value: 'SHARE', help: 'a served reference made slower on purpose (e.g. 0.2: about 20 % more CPU per request)' },
  'head-slowdown': { type: 'number', value: 'SHARE', help: 'the same, for the head side' },
} as const satisfies FlagSpec;

export const COMPARE_HELP: CommandHelp = {
  usage: ['outreach-conformance compare --base <dir|git rev|url> --head <dir|.|url> [flags]'],
  summary: 'a regression compare: the same load against two builds, interleaved, judged metric by metric (compare.json, compare.html)',
  flags: FLAGS,
  notes: [
    `metrics: api ${METRICS.api.map((m) => m.id).join(', ')}; sendpath ${METRICS.sendpath.map((m) => m.id).join(', ')}`,
    'sides: "." this checkout; a directory holding a checkout of this kit; a git revision of this checkout (checked out in a',
    '       temporary worktree); a URL of a running target (its CPU per request only with load.cpu.pid or load.cpu.metricsUrl in its profile)',
  ],
  exit:
    'exit codes: 0 no metric failed, 1 a metric failed, 2 the kit could not run or the verdict is INCONCLUSIVE\n' +
    `            (too few pairs for the test to reach alpha: ${pairsToReach(DEFAULT_ALPHA)} at alpha ${DEFAULT_ALPHA}, 7 at 0.01)`,
};

/** A whole number flag within bounds, or the flag named. */
function whole(flags: Record<string, unknown>, name: string, dflt: number, min: number, max: number, why = ''): number {
  const v = (flags[name] as number | undefined) ?? dflt;
  if (!Number.isInteger(v) || v < min || v > max) throw new KitError(`--${name} takes a whole number from ${min} to ${max}, not ${v}${why ? `: ${why}` : ''}`);
  return v;
}

function slowdownOf(flags: Record<string, unknown>, name: string): number | undefined {
  const v = flags[name] as number | undefined;
  if (v !== undefined && !(v > 0 && v <= 10)) throw new KitError(`--${name} takes a share of CPU per request above 0 and at most 10 (e.g. 0.2), not ${v}`);
  return v;
}

export async function compareCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) return process.stdout.write(helpText(COMPARE_HELP)), 0;
  const flags = parseArgs(argv, FLAGS) as Record<string, any>;
  const o = compareOptions(flags);
  const say = (s: string) => o.quiet || process.stdout.write(`${s}\n`);
  const sides = await readSides(flags, o);

  const redactor = new Redactor();
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-compare-${o.mode}-${randomBytes(2).toString('hex')}`;
  const dir = join(resolve(flags.out ?? join(process.cwd(), 'reports')), runId);
  const startedAt = new Date();
  const session: Session = { served: [], runners: [] };
  // Interrupted (Ctrl-C, a cancelled CI job): stop the targets and remove a revision's worktree first.
  const onSignal = () => void Promise.allSettled(session.served.map((s) => s.stop())).then(() => process.exit(130));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const [base, head] = await serveSides(sides, o, redactor, say, session.served);
    await startRunners(o, base, head, session);
    say(`compare ${o.mode}: ${o.pairs} pairs, ${ORDER_TEXT}; seed ${o.seed}`);
    const paired = await runPairs(session.runners[0]!, session.runners[1]!, {
      pairs: o.pairs,
      onRun: (r) => say('warmup' in r ? `warm-up ${r.warmup}: ${line(r.figures)}` : `pair ${r.pair} ${r.side}: ${line(r.figures)}`),
    });
    const report = await judgedReport({ runId, startedAt }, o, sides, [base, head], paired);
    await writeCompareFiles(dir, report, redactor);
    process.stdout.write(`${summary(report)}\nreports: ${dir}\n`);
    return compareExitCode(report.verdict);
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await closeSession(session);
  }
}

/** The flags checked and defaulted before anything starts, so that a bad one is named (exit 2) at once. */
function compareOptions(flags: Record<string, any>) {
  if (!flags.base || !flags.head) throw new KitError(`compare needs --base and --head\n\n${helpText(COMPARE_HELP)}`);
  const mode = (flags.mode ?? 'api') as CompareMode;
  if (!['api', 'sendpath'].includes(mode)) throw new KitError(`--mode takes api or sendpath, not "${mode}"`);
  const pairs = (flags.pairs as number | undefined) ?? 5;
  if (pairs < 3) throw new KitError(`--pairs ${pairs}: a comparison needs at least 3 pairs (with n pairs the smallest one-sided p-value is 2^-n: 5 pairs or more can reach 0.05)`);
  whole(flags, 'pairs', 5, 3, 100);
  const alpha = (flags.alpha as number | undefined) ?? DEFAULT_ALPHA;
  if (!(alpha > 0 && alpha < 0.5)) throw new KitError(`--alpha takes a level above 0 and below 0.5, not ${alpha}`);
  const thresholds = parseMetricThresholds((flags.threshold as string[] | undefined) ?? [], mode);
  const reads = (flags.reads ?? 'reads') as 'reads' | 'one';
  if (!['reads', 'one'].includes(reads)) throw new KitError(`--reads takes reads (four read endpoints, cycled) or one (GET /v1/workspace), not "${reads}"`);
  const run =
    mode === 'api'
      ? { requests: whole(flags, 'requests', 2000, 1, 10_000_000), warmup: whole(flags, 'warmup', 5000, 1, 10_000_000), connections: whole(flags, 'connections', 4, 1, 1024), reads }
      : { mailboxes: whole(flags, 'mailboxes', 10, 1, 10_000), leads: whole(flags, 'leads', 100, 1, 1_000_000) };
  const maxRunMs = parseDuration(flags['max-run'] ?? (mode === 'api' ? '2m' : '5m'), '--max-run');
  const slowdown = { base: slowdownOf(flags, 'base-slowdown'), head: slowdownOf(flags, 'head-slowdown') };
  const seed = (flags.seed as number | undefined) ?? newRunSeed();
  return { mode, pairs, alpha, thresholds, reads, run, maxRunMs, slowdown, seed, quiet: !!flags.quiet };
}

type CompareOptions = ReturnType<typeof compareOptions>;

/** Each side parsed, with the profile it runs with; checked before any is served, so that a refusal leaves nothing running. */
async function readSides(flags: Record<string, any>, { mode, slowdown }: CompareOptions) {
  const referenceProfile = await loadProfile(DEFAULT_PROFILE_PATH);
  const readProfile = async (path: string | undefined) => (path ? { profile: await loadProfile(resolve(path)), text: await readFile(resolve(path), 'utf8') } : undefined);
  const given = await readProfile(flags.profile);
  const perSide = { base: (await readProfile(flags['base-profile'])) ?? given, head: (await readProfile(flags['head-profile'])) ?? given };
  const specs = { base: await parseSide(String(flags.base), 'base'), head: await parseSide(String(flags.head), 'head') };
  for (const flag of ['base', 'head'] as const) {
    const spec = specs[flag];
    checkSlowdown(spec, flag, slowdown[flag]);
    if (spec.kind !== 'url') continue;
    // A running target is not the kit's reference: only its own profile says its names and its rate limit.
    const p = perSide[flag]?.profile;
    if (!p) throw new KitError(`--${flag} ${spec.text} is a running target: give its profile with --profile (or --${flag}-profile): names, workspaces or control, its rate limit`);
    if (mode === 'api' && p.rateLimit.requests / p.rateLimit.windowSeconds < MIN_RAISED_RATE)
      throw new KitError(`--${flag} ${spec.text}: compare --mode api runs closed loops of reads and needs a target that runs with a raised rate limit, declared in its profile's "rateLimit" (it says ${p.rateLimit.requests} per ${p.rateLimit.windowSeconds} s; at least ${MIN_RAISED_RATE} per second)`);
  }
  return { referenceProfile, given, perSide, specs };
}

type Sides = Awaited<ReturnType<typeof readSides>>;

/** What the command must stop on its way out, however it leaves. */
interface Session {
  served: ServedSide[];
  runners: SideRunner[];
  sink?: MailSink;
}

/** Both sides served at once; each that started goes into `served` even when the other failed, so that it is stopped. */
async function serveSides({ specs, perSide, referenceProfile }: Sides, { slowdown }: CompareOptions, redactor: Redactor, say: (s: string) => void, served: ServedSide[]): Promise<[ServedSide, ServedSide]> {
  const started = await Promise.allSettled(
    (['base', 'head'] as const).map((flag) => serveSide(specs[flag], { flag, profile: perSide[flag]?.profile ?? referenceProfile, referenceProfile, redactor, slowdown: slowdown[flag], log: say })),
  );
  for (const s of started) if (s.status === 'fulfilled') served.push(s.value);
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  for (const s of served) say(`--${s.info.flag} ${s.info.given}: ${s.info.kind === 'url' ? 'running target' : 'reference served'} at ${s.baseUrl}${s.info.commit ? ` (commit ${s.info.commit.slice(0, 12)})` : ''}; CPU: ${s.info.cpu}${s.info.slowdown ? `; slowed by ${s.info.slowdown}` : ''}`);
  return served as [ServedSide, ServedSide];
}

/** A runner per side for the mode, into the session; a sendpath comparison also starts the kit's mail sinks there. */
async function startRunners({ mode, run, reads, maxRunMs, seed, pairs }: CompareOptions, base: ServedSide, head: ServedSide, session: Session): Promise<void> {
  if (mode === 'api') {
    const o = { requests: run.requests as number, warmupRequests: run.warmup as number, connections: run.connections as number, reads, maxRunMs, seed };
    session.runners.push(await apiRunner(base, o), await apiRunner(head, o));
    return;
  }
  const profile = base.profile;
  if ([base, head].some((s) => !s.profile.embedded && !s.profile.features.sinks)) throw new KitError('compare --mode sendpath needs targets whose mailboxes reach the kit\'s mail sinks: "features": { "sinks": true } and "sinks": { "host" } in the profile');
  const { startSinks } = await import('../../sinks/index.ts');
  // alive for every run (two warm-ups and two per pair, each bounded by --max-run) and some slack
  const sink = await startSinks({ host: profile.sinks?.host ?? '127.0.0.1', requireAuth: true, maxLifetimeMs: (pairs * 2 + 2) * maxRunMs + 5 * 60_000 });
  session.sink = sink;
  const o = { mailboxes: run.mailboxes as number, leads: run.leads as number, maxRunMs, seed, sink };
  session.runners.push(sendpathRunner(base, o), sendpathRunner(head, o));
}

/** The runs judged metric by metric, with the notes that qualify the verdict: compare.json as written. */
async function judgedReport(id: { runId: string; startedAt: Date }, o: CompareOptions, { given }: Sides, [base, head]: [ServedSide, ServedSide], { warmup, runs }: PairsResult): Promise<CompareReport> {
  const { mode, pairs, alpha, seed, run, maxRunMs } = o;
  const metrics = judgeMetrics(mode, runs, { thresholds: o.thresholds, alpha, seed });
  const notes = compareNotes(o, [base, head], runs);
  const profileText = given?.text ?? (await readFile(DEFAULT_PROFILE_PATH, 'utf8'));
  return {
    schemaVersion: COMPARE_SCHEMA_VERSION,
    kind: 'compare',
    runId: id.runId,
    mode,
    startedAt: id.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    environment: environment(head.baseUrl, profileText),
    base: base.info,
    head: head.info,
    settings: { pairs, alpha, seed, order: ORDER_TEXT, run: Object.fromEntries(Object.entries({ ...run, maxRunMs }).filter(([, v]) => v !== undefined)) as Record<string, number | string> },
    warmup,
    runs,
    metrics,
    verdict: overallVerdict(metrics),
    pairsNeeded: pairsToReach(alpha),
    notes,
  };
}

/** What a reader needs to weigh the verdict: the load, served references, too few pairs, cut runs, a slowed side. */
function compareNotes({ mode, run, reads, maxRunMs, pairs, alpha, slowdown }: CompareOptions, served: readonly ServedSide[], runs: PairsResult['runs']): string[] {
  return [
    `${mode === 'api' ? `each run: ${run.requests} reads in a closed loop over ${run.connections} connections (${reads === 'one' ? 'GET /v1/workspace' : 'four read endpoints, cycled'}); warm-up ${run.warmup} reads` : `each run: a load of the send path with ${run.mailboxes} mailboxes and ${run.leads} leads, fresh each time`}; every run bounded by ${maxRunMs / 1000} s`,
    ...served.filter((s) => s.info.kind !== 'url').map((s) => `--${s.info.flag}: the reference of that checkout, served in its own process with a raised rate limit (outside the spec) so that the runs measure the target, not its limiter`),
    ...fewPairsNote(pairs, alpha),
    ...runs.filter((r) => r.figures.cut).map((r) => `pair ${r.pair} ${r.side}: the run stopped at its time bound before its count`),
    ...(slowdown.base || slowdown.head ? ['a side was slowed on purpose (--base-slowdown / --head-slowdown): a known regression, outside the spec'] : []),
  ];
}

/** When too few pairs can never reach alpha, the note saying no metric can decide: the page and the console both say it. */
function fewPairsNote(pairs: number, alpha: number): string[] {
  return smallestP(pairs) >= alpha ? [`INCONCLUSIVE: no metric can decide; ${tooFewPairs(pairs, alpha)}`] : [];
}

/** compare.json and compare.html, secrets erased; the page is drawn from the JSON as written, so both say the same. */
async function writeCompareFiles(dir: string, report: CompareReport, redactor: Redactor): Promise<void> {
  await mkdir(dir, { recursive: true });
  const json = redactor.text(JSON.stringify(report, null, 1));
  await writeFile(join(dir, 'compare.json'), json);
  await writeFile(join(dir, 'compare.html'), redactor.text(renderCompareHtml(JSON.parse(json) as CompareReport)));
}

/** Runners first, then the sink they send to, then the targets (and a revision's worktree). */
async function closeSession(session: Session): Promise<void> {
  await Promise.allSettled(session.runners.map((r) => r.close()));
  await session.sink?.stop();
  await Promise.allSettled(session.served.map((s) => s.stop()));
}

function line(f: RunFigures): string {
  return `${f.requests} in ${Math.round(f.wallMs)} ms, ${f.throughput}/s, p50 ${formatLatency(f.p50)}, p99 ${formatLatency(f.p99)}${f.cpuPerRequestUs !== undefined ? `, CPU ${f.cpuPerRequestUs.toFixed(1)} µs each` : ''}${f.achieved !== undefined ? `, achieved/ideal ${f.achieved.toFixed(3)}` : ''}${f.errors ? `, errors ${f.errors}` : ''}`;
}

/** The verdict and one line per metric, for the console. */
export function summary(r: CompareReport): string {
  const lines = [`${r.verdict.toUpperCase()}: ${r.head.given} against ${r.base.given} (${r.mode}, ${r.settings.pairs} pairs)`];
  const fewPairs = fewPairsNote(r.settings.pairs, r.settings.alpha);
  for (const m of r.metrics)
    lines.push(`  ${m.verdict.toUpperCase().padEnd(12)} ${m.label.padEnd(24)} ratio ${fmtRatio(m.medianRatio)}${m.ci ? ` [${fmtRatio(m.ci.low)}, ${fmtRatio(m.ci.high)}]` : ''}  ${explainVerdict(m, r.settings.alpha, { briefly: fewPairs.length > 0 }).replace(/^\w+: /, '')}`);
  for (const note of fewPairs) lines.push(`  note: ${note}`);
  return lines.join('\n');
}
