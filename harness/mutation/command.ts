import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadProfile } from '../runner/profile.ts';
import { parseArgs } from '../cli/args.ts';
import { runMutation } from './run.ts';

/** `outreach-conformance mutation`: kills every mutant and writes reports/mutation.json. */
export async function mutationCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, { out: { type: 'string' }, only: { type: 'string' } });
  const profile = await loadProfile();
  const started = Date.now();
  const report = await runMutation(profile, flags.only ? new RegExp(flags.only as string) : undefined, (r) =>
    process.stdout.write(`${r.killed ? 'killed  ' : 'SURVIVED'} ${r.id.padEnd(36)} ${r.killed ? `by ${r.killedBy.slice(0, 3).join(', ')}${r.killedBy.length > 3 ? ` +${r.killedBy.length - 3}` : ''}` : `(${r.checks} checks on ${r.clauses.join(', ')} all passed)`}\n`),
  );
  const out = resolve((flags.out as string | undefined) ?? 'reports');
  await mkdir(out, { recursive: true });
  // A partial run (--only) must not stand in for the score of the whole catalog.
  const path = join(out, flags.only ? 'mutation-partial.json' : 'mutation.json');
  await writeFile(path, JSON.stringify({ score: report.score, mutants: report.mutants.map(({ checks: _c, ...m }) => m) }, null, 2) + '\n');
  const killed = report.mutants.filter((m) => m.killed).length;
  process.stdout.write(`mutation score ${(report.score * 100).toFixed(1)} % (${killed} of ${report.mutants.length} killed) in ${((Date.now() - started) / 1000).toFixed(1)} s; ${path}\n`);
  return killed === report.mutants.length ? 0 : 1;
}
