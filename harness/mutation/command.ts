import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { loadProfile } from '../ground/profile.ts';
import { chooseChecks } from '../plan/planner.ts';
import { parseDepth } from '../ground/units.ts';
import { parseArgs, type CommandHelp } from '../ground/args.ts';
import { killMatrix } from '../plan/kill-matrix.ts';
import { claimBacking, formatBacking } from './backing.ts';
import { VIOLATIONS } from './violations/index.ts';
import { formatViolationShare, violationShare } from './violations/share.ts';
import { runMutation, type AtDepth, type MutantResult } from './run.ts';
import { MEASURED_DEPTHS, measuredWhat } from './depth-kills.ts';

// `outreach-conformance mutation`: every mutant against the checks that claim its clauses, and
// reports/mutation.json. `--depth D` measures that depth's own selection instead (each mutant
// meets the chosen checks of its area, at that depth): reports/mutation-D.json, beside the
// kill matrix's prediction. Both print how many claims on MUST clauses no kill backs.

export const MUTATION_HELP: CommandHelp = {
  usage: ['outreach-conformance mutation [--out DIR] [--only REGEX] [--depth D] [--first-kill]'],
  summary: "kills every mutant of the reference target with the checks that claim its clauses (or measures a depth's own selection)",
  flags: {
    out: { type: 'string', value: 'DIR', help: 'where mutation.json goes (default: reports)' },
    only: { type: 'string', value: 'REGEX', help: 'the mutants whose id matches (a partial run: mutation-partial.json)' },
    depth: { type: 'string', value: 'smoke|quick|default|full', help: "each mutant against that depth's chosen checks (mutation-D.json)" },
    'first-kill': { type: 'boolean', help: "each mutant's cheapest recorded killer alone first, the rest only if it passes: the same score in a fraction of the time, one killer named" },
  },
  exit: 'exit codes: 0 no mutant survived, 1 a mutant survived, 2 the kit could not run',
};

const line = (r: MutantResult) =>
  `${r.killed ? 'killed  ' : 'SURVIVED'} ${r.id.padEnd(36)} ${r.killed ? `by ${r.killedBy.slice(0, 3).join(', ')}${r.killedBy.length > 3 ? ` +${r.killedBy.length - 3}` : ''}` : `(${r.checks} checks on ${r.clauses.join(', ')} all passed)`}\n`;

export async function mutationCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, MUTATION_HELP.flags);
  const profile = await loadProfile();
  const started = Date.now();
  let at: AtDepth | undefined;
  let predicted: Set<string> | undefined;
  let what: ReturnType<typeof measuredWhat> | undefined;
  if (flags.depth !== undefined) {
    const depth = parseDepth(flags.depth as string);
    const choice = chooseChecks(ALL_CHECKS, { depth, profile, workspaces: profile.poolSize });
    at = { depth, chosen: new Set(choice.checks.map((c) => c.id)) };
    // What was measured (the selection, what each mutant met of it): npm run depth-kills -- --from records the report only when its selection is the depth's.
    what = measuredWhat(choice.checks);
    const missed = new Set(choice.detection.missed.map((m) => m.mutant));
    predicted = new Set(Object.keys(killMatrix().mutants).filter((m) => !missed.has(m)));
    process.stdout.write(`depth ${depth}: ${choice.checks.length} checks chosen; the kill matrix predicts ${predicted.size} of ${Object.keys(killMatrix().mutants).length} mutants killed\n`);
  }
  const report = await runMutation(profile, { only: flags.only ? new RegExp(flags.only as string) : undefined, at, firstKill: flags['first-kill'] === true }, (r) => process.stdout.write(line(r)));
  const out = resolve((flags.out as string | undefined) ?? 'reports');
  await mkdir(out, { recursive: true });
  // A partial run (--only) must not stand in for the score of the whole catalog.
  const name = `mutation${at ? `-${at.depth}` : ''}${flags.only ? '-partial' : ''}.json`;
  const path = join(out, name);
  await writeFile(path, JSON.stringify({ score: report.score, ...(at ? { depth: at.depth, ...what } : {}), mutants: report.mutants.map(({ checks: _c, ...m }) => m) }, null, 2) + '\n');
  const killed = report.mutants.filter((m) => m.killed).length;
  process.stdout.write(`mutation score ${(report.score * 100).toFixed(1)} % (${killed} of ${report.mutants.length} killed${at ? ` by depth ${at.depth}'s own selection` : ''}) in ${((Date.now() - started) / 1000).toFixed(1)} s; ${path}\n`);
  if (predicted) {
    const surprise = report.mutants.filter((m) => m.killed !== predicted.has(m.id)).map((m) => `${m.id} (${m.killed ? 'killed, predicted missed' : 'survived, predicted killed'})`);
    process.stdout.write(surprise.length ? `differs from the kill matrix on ${surprise.length}: ${surprise.join(', ')} (npm run kill-matrix regenerates it)\n` : 'as the kill matrix predicts\n');
    // In the kit's own repository, this report is what its test holds the plan's figure to.
    if (at && !flags.only && (MEASURED_DEPTHS as readonly string[]).includes(at.depth)) process.stdout.write(`(in the kit's repository: npm run depth-kills -- --from ${path} records it)\n`);
  }
  process.stdout.write(`${formatBacking(claimBacking(ALL_CHECKS, killMatrix()))}\n`);
  const depth = at?.depth ?? 'default';
  const chosen = at ? ALL_CHECKS.filter((c) => at.chosen.has(c.id)) : chooseChecks(ALL_CHECKS, { depth, profile, workspaces: profile.poolSize }).checks;
  process.stdout.write(`${formatViolationShare(violationShare(chosen, VIOLATIONS, killMatrix(), depth))}\n`);
  return killed === report.mutants.length ? 0 : 1;
}
