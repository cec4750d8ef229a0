// The package a team adds: what `npm pack` puts in the tarball (read from npm itself, nothing
// written), against what a run reaches from the kit's entry points. The install of the tarball
// in an empty project, and from a git URL, is `npm run try-package` (minutes: the registry).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../ground/kit.ts';
import { ENTRY_POINTS, pack, packageOf, reachable, referencesOf, type PackResult, type Reach } from './contents.ts';

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as Record<string, any>;
const isSource = (f: string) => /\.(ts|js|mjs)$/.test(f);
/** What only the kit's own development uses: its tests and their helpers, CI, benches, fuzzers, snapshots. */
const DEVELOPMENT_ONLY = /\.test\.ts$|test-helpers?\.ts$|^\.ci\/|^harness\/(bench|fuzz|flakes|package)\/|__snapshots__\/|^vitest\.config\.ts$|^tsconfig\.json$/;

describe('the import scan', () => {
  it('reads imports, dynamic imports, require and files named beside a module, not "from" in a string', () => {
    const source = [
      "import { a } from './a.ts';",
      "export * from '../b.ts';",
      "import 'side-effect';",
      "const c = await import('./c.ts');",
      "const d = require('autocannon');",
      "const e = new URL('./e.json', import.meta.url);",
      "const f = 'mail from ' + x; const g = { from: './not-an-import' };",
    ].join('\n');
    expect(referencesOf(source)).toEqual(['./a.ts', '../b.ts', 'side-effect', './c.ts', 'autocannon', './e.json']);
    expect(['node:fs', '@scope/name/sub', 'tsx/esm/api'].map(packageOf)).toEqual([undefined, '@scope/name', 'tsx']);
  });
});

describe('the package', () => {
  let packed: PackResult;
  let reach: Reach;
  beforeAll(async () => {
    [packed, reach] = [await pack({ dryRun: true }), reachable()];
  });

  it('holds no test, test helper, CI script, bench, fuzzer or snapshot', () => {
    expect(packed.files.length).toBeGreaterThan(100);
    expect(packed.files.filter((f) => DEVELOPMENT_ONLY.test(f))).toEqual([]);
  });

  it('holds every file a run reaches from its entry points, and no source a run never loads', () => {
    // Not vacuous: the scan follows dynamic imports and data files read beside a module.
    expect([...reach.files]).toEqual(expect.arrayContaining([...ENTRY_POINTS, 'harness/cli/init.ts', 'harness/plan/kill-matrix.json', 'fixtures/profiles/reference.json']));
    expect([...reach.files].filter((f) => !packed.files.includes(f))).toEqual([]);
    // A new development-only module or data file goes into package.json's "files" as a "!" entry.
    const code = (f: string) => isSource(f) || (/^(harness|suites|fixtures)\//.test(f) && !f.endsWith('README.md'));
    expect(packed.files.filter((f) => code(f) && !reach.files.has(f))).toEqual([]);
  });

  it('declares every package a run imports as a dependency (devDependencies are not installed for a user), and no other', () => {
    const builtin = (p: string) => ['vitest/config', 'vitest/node'].includes(p);
    const imported = [...reach.packages].filter((p) => !builtin(p));
    expect(imported).toEqual(expect.arrayContaining(['tsx', 'vitest', 'better-sqlite3']));
    expect(imported.filter((p) => !(p in manifest.dependencies))).toEqual([]);
    // and nothing a run never loads is installed for the user: every dependency is imported by a file a run reaches
    expect(Object.keys(manifest.dependencies).filter((p) => !reach.packages.has(p))).toEqual([]);
  });

  it('is publishable: not private, licensed Apache-2.0 with its LICENSE, its bin packed', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('Apache-2.0');
    expect(packed.files).toContain('LICENSE');
    expect(readFileSync(join(PACKAGE_ROOT, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    expect(Object.values(manifest.bin)).toEqual(['bin/outreach-conformance.js']);
    expect(packed.files).toContain('bin/outreach-conformance.js');
  });

  it('supports the Node lines 20, 22 and 24, each from the release its dependencies need', () => {
    const lines = String(manifest.engines.node).split('||').map((r) => /^\s*\^(\d+)\.(\d+)\.\d+\s*$/.exec(r));
    expect(lines.every(Boolean), manifest.engines.node).toBe(true);
    expect(lines.map((m) => Number(m![1]))).toEqual([20, 22, 24]);
    // vite (under vitest) needs 20.19 and 22.12, @faker-js/faker 22.13.
    expect(lines.map((m) => `${m![1]}.${m![2]}`)).toEqual(['20.19', '22.13', '24.0']);
  });
});
