// What the published package holds, and what a run needs from it: the files `npm pack` would
// put in the tarball, and the files a run can reach from the kit's entry points (imports,
// dynamic imports and files named with `new URL('...', import.meta.url)`), with the packages
// those files import. The package test compares the two; try-package.ts installs the tarball.
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../ground/kit.ts';

const run = promisify(execFile);

/** Where a run starts: the command, and the conformance run vitest loads by path (cli/run.ts). */
export const ENTRY_POINTS = ['bin/outreach-conformance.js', 'harness/worker/vitest.conformance.config.ts', 'harness/worker/conformance.run.ts'];

export interface PackResult {
  files: string[];
  /** bytes of the gzipped tarball and of its files unpacked */
  size: number;
  unpackedSize: number;
  filename: string;
}

/** `npm pack --json` of the kit (with `dryRun`, nothing written); `destination` is where the tarball goes. */
export async function pack(o: { dryRun?: boolean; destination?: string } = {}): Promise<PackResult> {
  const args = ['pack', '--json', ...(o.dryRun ? ['--dry-run'] : []), ...(o.destination ? ['--pack-destination', o.destination] : [])];
  const { stdout } = await run('npm', args, { cwd: PACKAGE_ROOT, maxBuffer: 16 * 1024 * 1024 });
  const [r] = JSON.parse(stdout) as { files: { path: string }[]; size: number; unpackedSize: number; filename: string }[];
  return { files: r!.files.map((f) => f.path).sort(), size: r!.size, unpackedSize: r!.unpackedSize, filename: r!.filename };
}

// `import ... from '...'` (and export), `import('...')`, a bare `import '...'`, `require('...')` and
// `new URL('...', import.meta.url)`: a string alone after "from" inside code is not an import.
const REFERENCE =
  /(?:^|\s)(?:import|export)\s[^'";]*?from\s*(['"])([^'"]+)\1|\bimport\(\s*(['"])([^'"]+)\3\s*\)|^import\s*(['"])([^'"]+)\5|\brequire\(\s*(['"])([^'"]+)\7\s*\)|new URL\(\s*(['"])([^'"]+)\9\s*,\s*import\.meta\.url\s*\)/gm;

/** The specifiers one source file names (relative paths and packages alike). */
export function referencesOf(source: string): string[] {
  return [...source.matchAll(REFERENCE)].map((m) => m[2] ?? m[4] ?? m[6] ?? m[8] ?? m[10]!);
}

/** A package's name from a bare specifier (`@scope/name/sub` -> `@scope/name`), or undefined for node: builtins. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export interface Reach {
  /** files (package-relative) a run can read */
  files: Set<string>;
  /** packages those files import */
  packages: Set<string>;
}

/** Every file reachable from `entries` through relative references, and the packages they import. */
export function reachable(entries: readonly string[] = ENTRY_POINTS, root = PACKAGE_ROOT): Reach {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [...entries];
  while (todo.length) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(ts|js|mjs)$/.test(file)) continue;
    for (const spec of referencesOf(readFileSync(join(root, file), 'utf8'))) {
      if (!spec.startsWith('.')) {
        const name = packageOf(spec);
        if (name) packages.add(name);
        continue;
      }
      const target = relative(root, resolve(root, dirname(file), spec));
      if (!target.startsWith('..') && statSync(join(root, target), { throwIfNoEntry: false })?.isFile()) todo.push(target);
    }
  }
  return { files, packages };
}
