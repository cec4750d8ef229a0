import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs, type CommandHelp } from '../ground/args.ts';
import { KitError } from '../ground/errors.ts';
import { runPortability, type PortabilityResult } from './run.ts';

// `outreach-conformance soak`: the whole suite against the reference again and again, each run
// with another seed (and, with --choices random, another random choice set). It prints every
// failure with the seeds that replay it and every check whose verdict changed between runs
// within one choice set (a flake), and writes reports/soak.json. Exit 1 when either list is not empty.

export const SOAK_HELP: CommandHelp = {
  usage: ['outreach-conformance soak [--runs N] [--choices default|alt|random] [--no-control] [--seed N] [--out DIR]'],
  summary: 'the suite against the reference again and again: every failure with the seeds that replay it, every verdict that changed',
  flags: {
    runs: { type: 'number', help: 'how many runs (1 to 500, default 5)' },
    choices: { type: 'string', value: 'default|alt|random', help: "the reference's choice set (random: another for each run)" },
    'no-control': { type: 'boolean', help: 'runs without the control API, as against a staging target' },
    seed: { type: 'number', help: "the first run's seed (each next run: one more)" },
    out: { type: 'string', value: 'DIR', help: 'where soak.json goes (default: reports)' },
  },
  exit: 'exit codes: 0 no failure and no verdict changed, 1 a failure or a changed verdict, 2 the kit could not run',
};
const FLAGS = SOAK_HELP.flags;

export async function soakCommand(argv: string[]): Promise<number> {
  const f = parseArgs(argv, FLAGS) as { runs?: number; choices?: string; 'no-control'?: boolean; seed?: number; out?: string };
  const runs = f.runs ?? 5;
  if (!Number.isInteger(runs) || runs < 1 || runs > 500) throw new KitError(`--runs must be a whole number from 1 to 500, not ${runs}`);
  const mode = f.choices ?? 'default';
  if (!['random', 'default', 'alt'].includes(mode)) throw new KitError(`--choices must be random, default or alt, not "${mode}"`);
  const base = f.seed ?? Math.floor(Date.now() % 1_000_000);
  const control = !f['no-control'];
  const all: PortabilityResult[] = [];
  for (let i = 0; i < runs; i++) {
    const seed = base + i;
    const choices = mode === 'random' ? `random:${seed}` : mode;
    const started = Date.now();
    const r = await runPortability({ choices, control, seed });
    all.push(r);
    process.stdout.write(
      `run ${i + 1}/${runs}  choices ${choices}  seed ${seed}${control ? '' : '  without control'}: ` +
        `${r.results.filter((x) => x.verdict === 'pass').length} pass, ${r.problems.length} fail/error ` +
        `(${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
    );
    for (const p of r.problems) process.stdout.write(`  ${p}\n`);
  }
  const flakes = verdictChanges(all);
  if (flakes.length) {
    process.stdout.write(`\nchecks whose verdict changed between runs (${flakes.length}):\n`);
    for (const fl of flakes) process.stdout.write(`  ${fl.checkId}: ${fl.verdicts.map((v) => `${v.verdict}@${v.choices}/seed ${v.seed}`).join(', ')}\n`);
  }
  const failures = all.reduce((n, r) => n + r.problems.length, 0);
  process.stdout.write(`\n${runs} runs, ${failures} failures or errors, ${flakes.length} verdict changes\n`);
  const out = resolve(f.out ?? 'reports');
  await mkdir(out, { recursive: true });
  await writeFile(
    join(out, 'soak.json'),
    JSON.stringify({ runs: all.map((r) => ({ choices: r.choices, control: r.control, seed: r.seed, problems: r.problems })), flakes }, null, 2) + '\n',
  );
  return failures || flakes.length ? 1 : 0;
}

/**
 * Checks whose verdict differs between runs of the same choice set where each ran: a flake.
 * Between different choice sets a verdict may rightly change (a SHOULD reading one set departs
 * from), and skips by choice are not flakes; a MUST failure is reported as a failure anyway.
 */
export function verdictChanges(all: PortabilityResult[]) {
  const by = new Map<string, { checkId: string; verdicts: { verdict: string; choices: string; seed: number }[] }>();
  for (const r of all)
    for (const x of r.results) {
      const key = `${x.checkId}\u0000${r.choices}`;
      const entry = by.get(key) ?? { checkId: x.checkId, verdicts: [] };
      entry.verdicts.push({ verdict: x.verdict, choices: r.choices, seed: r.seed });
      by.set(key, entry);
    }
  return [...by.values()].filter((e) => new Set(e.verdicts.filter((v) => v.verdict !== 'skip').map((v) => v.verdict)).size > 1);
}
