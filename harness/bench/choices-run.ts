// Runs the whole conformance suite against reference targets that chose differently wherever the
// spec is silent: for each set (default, alt, random:SEED), start the reference with it, write
// its profile (profileFor) and run the kit with that profile as a vendor would.
//   node --import tsx harness/bench/choices-run.ts [SET ...] [--only REGEX] [--out DIR]
// (default sets: default alt random:1). Prints one line per set; exit 1 when any set fails.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseChoices, profileFor, startReference } from '../reference/index.ts';

const BIN = fileURLToPath(new URL('../../bin/outreach-conformance.js', import.meta.url));
const argv = process.argv.slice(2);
const sets: string[] = [];
let only: string | undefined;
let outRoot: string | undefined;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--only') only = argv[++i];
  else if (argv[i] === '--out') outRoot = argv[++i];
  else sets.push(argv[i]!);
}
if (sets.length === 0) sets.push('default', 'alt', 'random:1');
outRoot ??= await mkdtemp(join(tmpdir(), 'oc-choices-'));
await mkdir(outRoot, { recursive: true });

let failed = false;
for (const name of sets) {
  const choices = parseChoices(name);
  const ref = await startReference({ choices, log: () => {} });
  try {
    const dir = join(outRoot, name.replace(/[^a-z0-9]+/gi, '-'));
    const profile = join(outRoot, `${name.replace(/[^a-z0-9]+/gi, '-')}.profile.json`);
    await writeFile(profile, JSON.stringify(profileFor(choices, { baseUrl: ref.baseUrl, control: { baseUrl: ref.controlUrl, token: ref.controlToken } }), null, 2));
    const args = [BIN, 'run', '--profile', profile, '--quiet', '--out', dir, ...(only ? ['--only', only] : [])];
    // async: the reference answers from this process while the kit runs
    const code = await new Promise<number | null>((resolve) => spawn(process.execPath, args, { stdio: 'ignore' }).on('exit', resolve));
    const r = JSON.parse(await readFile(join(dir, 'latest', 'results.json'), 'utf8'));
    const bad = (r.checks as { id: string; verdict: string; blocking?: boolean }[]).filter((c) => c.verdict === 'fail' || c.verdict === 'error');
    console.log(`${name.padEnd(12)} exit ${code}  ${r.summary.pass} pass, ${r.summary.fail} fail, ${r.summary.error} error, ${r.summary.skip} skip  ${dir}`);
    for (const c of bad) console.log(`  ${c.verdict} ${c.id}${c.blocking === false ? ' (not blocking)' : ''}`);
    if (code !== 0) failed = true;
  } finally {
    await ref.stop();
  }
}
process.exit(failed ? 1 : 0);
