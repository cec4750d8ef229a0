// `npm run try-package [-- --from tarball|git] [--keep]`: the kit as a team adds it. For each way
// (the packed tarball; a git URL of this repository's HEAD), an empty project installs it from
// the registry's dependencies, then runs `npx outreach-conformance run --depth smoke` and
// `verify` on the bundle it wrote. Prints how long each install took and what it weighs.
// Minutes, not seconds (the registry), so it is a script and not part of `npm test`.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { PACKAGE_ROOT } from '../ground/kit.ts';
import { pack } from './contents.ts';
import { packagesIn } from './readme-figures.ts';

const run = promisify(execFile);
const WAYS = ['tarball', 'git'] as const;
type Way = (typeof WAYS)[number];

/** A command in `cwd`; a non-zero exit throws with the end of what it said. */
async function sh(cwd: string, cmd: string, args: string[], timeoutMs = 900_000): Promise<string> {
  try {
    const { stdout } = await run(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${err.code}:\n${String(err.stdout).slice(-3000)}\n${String(err.stderr).slice(-2000)}`);
  }
}

/** Bytes under a directory (symlinks not followed). */
async function weight(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await weight(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

/** What `npm install` is given for each way. */
async function specifier(way: Way, work: string): Promise<string> {
  if (way === 'tarball') return join(work, (await pack({ destination: work })).filename);
  const commit = (await sh(PACKAGE_ROOT, 'git', ['rev-parse', 'HEAD'])).trim();
  const dirty = (await sh(PACKAGE_ROOT, 'git', ['status', '--porcelain', '--untracked-files=no'])).trim();
  if (dirty) process.stdout.write(`note: uncommitted changes are not in the git install (it installs ${commit.slice(0, 12)})\n`);
  return `git+file://${PACKAGE_ROOT}#${commit}`;
}

async function tryWay(way: Way, work: string): Promise<void> {
  const project = join(work, `from-${way}`);
  await mkdir(project);
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: `try-${way}`, private: true, version: '0.0.0' }, null, 2)}\n`);
  const spec = await specifier(way, work);
  const started = Date.now();
  await sh(project, 'npm', ['install', '--save-dev', '--no-audit', '--no-fund', spec]);
  const seconds = (Date.now() - started) / 1000;
  const mb = (await weight(join(project, 'node_modules'))) / 1e6;
  const packages = await packagesIn(join(project, 'node_modules'));
  process.stdout.write(`${way}: npm install ${spec} took ${seconds.toFixed(0)} s; node_modules ${mb.toFixed(1)} MB, ${packages} packages\n`);
  const smoke = await sh(project, 'npx', ['outreach-conformance', 'run', '--depth', 'smoke', '--out', 'reports']);
  process.stdout.write(`${way}: ${smoke.split('\n').find((l) => /^(PASS|FAIL)\b/.test(l)) ?? smoke.slice(-500)}\n`);
  const verified = await sh(project, 'npx', ['outreach-conformance', 'verify', 'reports/latest/bundle.tgz']);
  process.stdout.write(`${way}: verify: ${verified.split('\n')[0]}\n`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { from: { type: 'string', multiple: true }, keep: { type: 'boolean' } } });
  const ways = (values.from ?? [...WAYS]) as Way[];
  const unknown = ways.filter((w) => !WAYS.includes(w));
  if (unknown.length) throw new Error(`--from takes ${WAYS.join(' or ')}, got ${unknown.join(', ')}`);
  const work = await mkdtemp(join(tmpdir(), 'oc-try-package-'));
  try {
    for (const way of ways) await tryWay(way, work);
    process.stdout.write(`every way installed and ran (${ways.join(', ')})\n`);
    return 0;
  } finally {
    if (values.keep) process.stdout.write(`kept: ${work}\n`);
    else await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: Error) => (process.stderr.write(`try-package: ${e.message}\n`), process.exit(1)),
);
