import { resolve } from 'node:path';
import { parseArgs, type CommandHelp } from '../ground/args.ts';
import { KitError } from '../ground/errors.ts';
import { loadProfile, resolveSecret } from '../ground/profile.ts';
import { sweepWorkspace } from '../runner/sweep.ts';
import { createClient } from '../client/client.ts';
import { Recorder } from '../client/recorder.ts';
import { RUN_NAMED, RUN_PREFIX } from '../ground/run-prefix.ts';

// `outreach-conformance sweep --profile FILE [--prefix ocXXXXXX-] [--dry-run]`: deletes what runs
// that did not finish (killed, timed out in CI) left in the profile's workspaces. A finished run
// deletes what it created itself; one that was stopped cannot. Everything a run creates carries
// its prefix (printed in the run's header): its API keys by name, its mailboxes by address. Without
// --prefix, the prefix of any run (oc, six hex digits, a dash). Campaigns stay: the spec has no
// way to delete one. Exit 0 when nothing is left, 1 when something could not be deleted.

export const SWEEP_HELP: CommandHelp = {
  usage: ['outreach-conformance sweep --profile FILE [--prefix ocXXXXXX-] [--dry-run]'],
  summary:
    "deletes the API keys and mailboxes that runs which did not finish left in the profile's workspaces\n" +
    "(that run's prefix, else any run's); campaigns stay: the spec cannot delete one",
  flags: {
    profile: { type: 'string', value: 'FILE', help: 'the workspaces to sweep (required)' },
    prefix: { type: 'string', value: 'ocXXXXXX-', help: "only what this run left (its header prints its prefix)" },
    'dry-run': { type: 'boolean', help: 'list what would be deleted, delete nothing' },
  },
  exit: 'exit codes: 0 nothing is left, 1 something could not be deleted, 2 a bad flag or profile',
};

export async function sweepCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, SWEEP_HELP.flags);
  const prefix = flags.prefix as string | undefined;
  if (prefix !== undefined && !RUN_PREFIX.test(prefix)) throw new KitError(`--prefix must be a run prefix: "oc", six hex digits and a dash (e.g. oc1a2b3c-), not "${prefix}"`);
  if (flags.profile === undefined) throw new KitError('--profile FILE is required: the workspaces to sweep are those it gives');
  const profile = await loadProfile(resolve(String(flags.profile)));
  if (profile.embedded) throw new KitError('the embedded reference starts empty on every run: there is nothing to sweep');
  if (!profile.baseUrl || profile.workspaces.length === 0) throw new KitError('the profile gives no workspaces (profile "workspaces"): a run with the control API makes its own, which no other run uses');
  const match = prefix ? (name: string) => name.startsWith(prefix) : (name: string) => RUN_NAMED.test(name);
  const recorder = new Recorder({ emit: () => {} });
  const dryRun = flags['dry-run'] === true;
  let left = 0;
  for (const [i, w] of profile.workspaces.entries()) {
    const key = resolveSecret(w.apiKey, `workspaces.${i}.apiKey`);
    recorder.redactor.add(key);
    const api = createClient({ baseUrl: profile.baseUrl.replace(/\/$/, ''), key, recorder });
    const swept = await sweepWorkspace({ api, apiKeyId: w.apiKeyId }, profile, match, { dryRun });
    left += swept.left.length;
    const verb = dryRun ? 'would delete' : 'deleted';
    const done = dryRun ? swept.found : swept.found.filter((f) => !swept.left.includes(f));
    process.stdout.write(`workspace ${i + 1}: ${verb} ${done.length}${done.length ? `:\n  ${done.join('\n  ')}` : ''}\n`);
    if (swept.left.length) process.stdout.write(`  left:\n  ${swept.left.join('\n  ')}\n`);
  }
  process.stdout.write(`campaigns of those runs stay (the spec has no way to delete a campaign)\n`);
  return left ? 1 : 0;
}
