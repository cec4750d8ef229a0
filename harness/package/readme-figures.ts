// `npm run readme:figures [-- --check] [--install]`: the figures the README gives about the kit
// itself, measured here rather than typed by hand. Each sits between markers in README.md,
// <!-- figure:NAME -->value<!-- /figure --> (invisible when rendered), and this script writes
// them: the tarball's size and files (`npm pack --dry-run`), the mutants the plan predicts a quick
// run kills, the share of clauses whose every plausible violation is killed at default, and with --install what an install from the tarball brings (minutes: the registry).
// --check writes nothing and exits 1 naming each figure that differs from what is measured now.
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { PACKAGE_ROOT } from '../ground/kit.ts';
import { pack } from './contents.ts';

const run = promisify(execFile);
export const README = join(PACKAGE_ROOT, 'README.md');
const MARKED = /<!-- figure:([a-z0-9-]+) -->([\s\S]*?)<!-- \/figure -->/g;

/** The marked figures of a text, by name. */
export function figuresIn(text: string): Map<string, string> {
  return new Map([...text.matchAll(MARKED)].map((m) => [m[1]!, m[2]!]));
}

/** The text with each named figure replaced (names not given are left as they are). */
export function withFigures(text: string, figures: ReadonlyMap<string, string>): string {
  return text.replace(MARKED, (whole, name: string) => (figures.has(name) ? `<!-- figure:${name} -->${figures.get(name)}<!-- /figure -->` : whole));
}

/** What `npm pack` would put in the tarball: its size in MB and its file count. */
export async function tarballFigures(): Promise<Map<string, string>> {
  const p = await pack({ dryRun: true });
  return new Map([
    ['tarball-mb', (p.size / 1e6).toFixed(2)],
    ['tarball-files', String(p.files.length)],
  ]);
}

/** The plan's prediction for a quick run against the embedded reference: "N of M" mutants killed. */
export async function quickDetection(): Promise<Map<string, string>> {
  const { stdout } = await run(process.execPath, [join(PACKAGE_ROOT, 'bin/outreach-conformance.js'), 'plan', '--depth', 'quick'], { cwd: PACKAGE_ROOT, maxBuffer: 16 * 1024 * 1024 });
  const m = /predicted: (\d+) of (\d+) reference mutants/.exec(stdout);
  if (!m) throw new Error(`plan --depth quick printed no prediction:\n${stdout.slice(0, 1000)}`);
  return new Map([['quick-predicted', `${m[1]} of ${m[2]}`]]);
}

/** The share of claimed clauses whose every plausible violation is killed at default, as `plan --depth default` prints it: "N of M". */
export async function violationShareFigure(): Promise<Map<string, string>> {
  const { stdout } = await run(process.execPath, [join(PACKAGE_ROOT, 'bin/outreach-conformance.js'), 'plan', '--depth', 'default'], { cwd: PACKAGE_ROOT, maxBuffer: 16 * 1024 * 1024 });
  const m = /plausible violations: (\d+) of (\d+) MUST and PROFILE clauses/.exec(stdout);
  if (!m) throw new Error(`plan --depth default printed no violation share:\n${stdout.slice(0, 1000)}`);
  return new Map([['violation-share', `${m[1]} of ${m[2]}`]]);
}

/** Packages under a node_modules (each folder holding a package.json, nested ones included). */
export async function packagesIn(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.name.startsWith('@')) n += await packagesIn(p);
    else {
      n += 1;
      n += await packagesIn(join(p, 'node_modules'));
    }
  }
  return n;
}

/** An install from the tarball in an empty project (`npm run try-package -- --from tarball`): node_modules' MB and packages. */
async function installFigures(): Promise<Map<string, string>> {
  const { stdout } = await run('npm', ['run', '--silent', 'try-package', '--', '--from', 'tarball'], { cwd: PACKAGE_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 1_800_000 });
  const m = /node_modules ([\d.]+) MB, (\d+) packages/.exec(stdout);
  if (!m) throw new Error(`try-package printed no install figures:\n${stdout.slice(-1000)}`);
  return new Map([
    ['install-mb', String(Math.round(Number(m[1])))],
    ['install-packages', m[2]!],
  ]);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { check: { type: 'boolean' }, install: { type: 'boolean' } } });
  const measured = new Map([...(await tarballFigures()), ...(await quickDetection()), ...(await violationShareFigure()), ...(values.install ? await installFigures() : [])]);
  const text = await readFile(README, 'utf8');
  const shown = figuresIn(text);
  const stale = [...measured].filter(([name, v]) => shown.has(name) && shown.get(name) !== v);
  for (const [name] of measured) if (!shown.has(name)) process.stderr.write(`README.md has no marker for ${name}\n`);
  for (const [name, v] of stale) process.stdout.write(`${name}: README ${shown.get(name)}, measured ${v}\n`);
  if (values.check) return stale.length ? 1 : 0;
  if (stale.length) await writeFile(README, withFigures(text, measured));
  process.stdout.write(stale.length ? `README.md: ${stale.length} figure(s) written\n` : 'README.md: every figure is as measured\n');
  return 0;
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) process.exitCode = await main();
