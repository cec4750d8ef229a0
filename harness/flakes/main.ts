// npm run flakes -- --runs N [--file GLOB]
// Runs the project's tests N times, each run in fresh `vitest run` processes (every phase of
// `npm test`), and lists each test whose verdict (passed, failed, skipped, missing) changed
// between runs. Exit 0 when none changed, 1 when some did, 2 on a bad argument, 3 when vitest
// could not even list the test files. Reports go to reports/flakes/<time>/.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../ground/args.ts';
import { matchFiles } from './glob.ts';
import { compareRuns, formatChange, formatTotals, mergeVerdicts, readVerdicts, totals, type RunVerdicts } from './verdicts.ts';
import { listFiles, runPhase, testPhases, type Phase } from './vitest-run.ts';

const USAGE = `usage: npm run flakes -- --runs N [--file GLOB]

Runs the project's tests N times (N >= 2), each run in fresh vitest processes, and lists every
test whose verdict changed between runs, e.g.
  harness/x.test.ts > suite > name: passed 4/5, failed 1/5 (runs 3)

  --runs N      how many runs (required)
  --file GLOB   only the test files matching GLOB, e.g. 'harness/load/**' (quote it)
  --help, -h    this text

Exit 0: no verdict changed. 1: some did (or a run wrote no report). 2: bad argument.
3: vitest could not list the test files. Reports: reports/flakes/<time>/.`;

class UsageError extends Error {}

interface Options {
  runs: number;
  file: string | undefined;
}

function parse(argv: string[]): Options | 'help' {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv, { runs: { type: 'number', help: 'runs of each file' }, file: { type: 'string', value: 'GLOB', help: 'the test files' }, help: { type: 'boolean', short: 'h', help: 'this help' } });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (args.help) return 'help';
  const runs = args.runs as number | undefined;
  if (runs === undefined) throw new UsageError('--runs N is required');
  if (!Number.isInteger(runs) || runs < 2) throw new UsageError(`--runs takes a whole number of at least 2 (a verdict changes between runs), got ${runs}`);
  const file = args.file as string | undefined;
  if (file !== undefined && !file.trim()) throw new UsageError('--file needs a glob, got an empty string');
  return { runs, file };
}

/** What each run runs: each phase with test files, and the files to pass (all when undefined). */
interface PlannedPhase {
  phase: Phase;
  files: string[] | undefined;
  count: number;
}

async function plan(root: string, glob: string | undefined, tmp: string): Promise<PlannedPhase[]> {
  const planned: PlannedPhase[] = [];
  let known = 0;
  for (const phase of await testPhases(root)) {
    const all = await listFiles(root, phase, tmp);
    known += all.length;
    let files: string[] | undefined;
    try {
      files = glob === undefined ? undefined : matchFiles(all, glob);
    } catch (e) {
      throw new UsageError(`--file: ${(e as Error).message}`);
    }
    const count = files?.length ?? all.length;
    if (count > 0) planned.push({ phase, files, count });
  }
  if (!planned.length) throw new UsageError(`--file '${glob}' matches none of the ${known} test files (globs are relative to the project, e.g. 'harness/load/**')`);
  return planned;
}

interface Run {
  verdicts: RunVerdicts;
  ms: number;
  exitCodes: number[];
  problems: string[];
}

async function runOnce(root: string, planned: PlannedPhase[], n: number, dir: string): Promise<Run> {
  const run: Run = { verdicts: new Map(), ms: 0, exitCodes: [], problems: [] };
  const phases: RunVerdicts[] = [];
  for (const { phase, files } of planned) {
    const base = join(dir, `run-${n}-${phase.name}`);
    const r = await runPhase(root, phase, files, `${base}.json`, `${base}.log`);
    run.ms += r.ms;
    run.exitCodes.push(r.exitCode);
    if (r.report) phases.push(readVerdicts(r.report, root));
    else run.problems.push(`run ${n}, phase ${phase.name}: vitest exited ${r.exitCode} without a JSON report; its tests count as missing (see ${base}.log)`);
  }
  run.verdicts = mergeVerdicts(phases);
  return run;
}

async function main(argv: string[]): Promise<number> {
  const options = parse(argv);
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const listing = await mkdtemp(join(tmpdir(), 'flakes-'));
  const planned = await plan(root, options.file, listing).finally(() => rm(listing, { recursive: true, force: true }));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = join(root, 'reports', 'flakes', stamp);
  await mkdir(dir, { recursive: true });

  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };
  const what = planned.map((p) => `${p.count} file(s) in phase ${p.phase.name}`).join(', ');
  say(`flakes: ${options.runs} runs of ${what}${options.file ? ` matching '${options.file}'` : ''}; reports in reports/flakes/${stamp}/`);

  const runs: Run[] = [];
  for (let n = 1; n <= options.runs; n++) {
    const run = await runOnce(root, planned, n, dir);
    runs.push(run);
    const codes = run.exitCodes.join('+');
    say(`run ${n}/${options.runs}: ${formatTotals(totals(run.verdicts))} in ${(run.ms / 1000).toFixed(1)}s (vitest exit ${codes})`);
  }

  const changes = compareRuns(runs.map((r) => r.verdicts));
  const problems = runs.flatMap((r) => r.problems);
  const codes = new Set(runs.map((r) => r.exitCodes.join('+')));
  if (!changes.length && codes.size > 1) problems.push(`no test changed verdict, but vitest's exit code did (${[...codes].join(', ')}): an error outside the tests? see the run logs`);
  say('');
  if (changes.length) say(`${changes.length} test(s) changed verdict across ${options.runs} runs:`);
  else say(`no test changed verdict across ${options.runs} runs`);
  for (const c of changes) say(`  ${formatChange(c)}`);
  for (const p of problems) say(`problem: ${p}`);

  const summary = { runs: options.runs, file: options.file ?? null, phases: planned.map((p) => ({ name: p.phase.name, files: p.count })), perRun: perRun(runs), changes, problems };
  await writeFile(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await writeFile(join(dir, 'summary.txt'), `${lines.join('\n')}\n`);
  return changes.length || problems.length ? 1 : 0;
}

function perRun(runs: Run[]) {
  return runs.map((r, i) => ({ run: i + 1, ...totals(r.verdicts), seconds: +(r.ms / 1000).toFixed(1), exitCodes: r.exitCodes }));
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const usage = e instanceof UsageError;
    process.stderr.write(`flakes: ${(e as Error).message}\n${usage ? 'try: npm run flakes -- --help\n' : ''}`);
    process.exitCode = usage ? 2 : 3;
  },
);
