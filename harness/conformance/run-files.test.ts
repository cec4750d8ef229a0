import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRunModuleCache, sharedCacheDir } from './module-cache.ts';
import { newRunDir, publishLatest } from './latest.ts';

// What runs beside each other write: each its own module cache (seeded from the shared one, what
// it adds kept there), each its own run directory, and `latest` replaced whole by every one of them.

const entry = (n: number) => n.toString(16).padStart(40, '0');

describe('the module cache: each run its own directory, the shared one only ever added to', () => {
  it('seeds a run from the shared entries, keeps what it added, and is untouched by a neighbour emptying its own', async () => {
    const shared = await mkdtemp(join(tmpdir(), 'oc-modcache-'));
    await writeFile(join(shared, entry(1)), 'one');
    await writeFile(join(shared, '_metadata.json'), '{"lockfileHash":"another"}');
    const a = (await openRunModuleCache(shared))!;
    const b = (await openRunModuleCache(shared))!;
    expect(a.dir).not.toBe(b.dir);
    expect([a.seeded, b.seeded]).toEqual([1, 1]);
    // vitest's metadata stays out: it would empty a run's cache (its lockfile check) for nothing.
    expect(await readdir(a.dir)).toEqual([entry(1)]);
    // What vitest does when its lockfile changed: the whole directory removed. Only that run's.
    await rm(b.dir, { recursive: true, force: true });
    await writeFile(join(a.dir, entry(2)), 'two');
    await writeFile(join(a.dir, `.tmp-${Date.now()}`), 'half');
    expect(await readFile(join(a.dir, entry(1)), 'utf8')).toBe('one');
    expect(await a.close()).toEqual({ added: 1 });
    expect(await b.close()).toEqual({ added: 0 });
    expect((await readdir(shared)).sort()).toEqual([entry(1), entry(2), '_metadata.json', 'runs']);
    expect(await readdir(join(shared, 'runs'))).toEqual([]);
    // vitest replaces a file by a rename: the shared file keeps its content.
    const c = (await openRunModuleCache(shared))!;
    await writeFile(join(c.dir, 'x'), 'new');
    await rm(join(c.dir, entry(1)));
    await c.close();
    expect(await readFile(join(shared, entry(1)), 'utf8')).toBe('one');
  });

  it('removes what a run that died left, and keeps what a living one holds', async () => {
    const shared = await mkdtemp(join(tmpdir(), 'oc-modcache-'));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await mkdir(join(shared, 'runs', `${dead}-aaaa`), { recursive: true });
    await mkdir(join(shared, 'runs', `${process.pid}-bbbb`), { recursive: true });
    const c = (await openRunModuleCache(shared))!;
    expect(existsSync(join(shared, 'runs', `${dead}-aaaa`))).toBe(false);
    expect(existsSync(join(shared, 'runs', `${process.pid}-bbbb`))).toBe(true);
    await c.close();
  });

  it('keeps installs apart (another clone, a lockfile changed) and goes without a cache it cannot write', async () => {
    const root = await mkdtemp(join(tmpdir(), 'oc-modcache-'));
    const env = { OUTREACH_VITEST_CACHE: root };
    const one = await mkdtemp(join(tmpdir(), 'oc-install-'));
    const two = await mkdtemp(join(tmpdir(), 'oc-install-'));
    await writeFile(join(one, 'package-lock.json'), '{"v":1}');
    await writeFile(join(two, 'package-lock.json'), '{"v":1}');
    const first = sharedCacheDir(one, env);
    expect(sharedCacheDir(one, env)).toBe(first);
    expect(sharedCacheDir(two, env)).not.toBe(first);
    await writeFile(join(one, 'package-lock.json'), '{"v":2}');
    expect(sharedCacheDir(one, env)).not.toBe(first);
    const file = join(root, 'a-file');
    await writeFile(file, '');
    expect(await openRunModuleCache(join(file, 'cache'))).toBeUndefined();
  });
});

describe('latest/, replaced whole', () => {
  it('every one of several runs finishing at once succeeds; latest is one whole copy; nothing is left beside it', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-latest-'));
    const runs = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const { runId, dir } = await newRunDir(out, () => `run-${i}`);
        // Several files: a copy caught half-way would show some of one run's and some of another's.
        for (let f = 0; f < 20; f++) await writeFile(join(dir, `f${f}.json`), JSON.stringify({ runId, f }));
        return dir;
      }),
    );
    const reads: string[] = [];
    let publishing = true;
    // A reader beside them: whenever latest is there, all of it is one run's.
    const reader = (async () => {
      while (publishing) {
        const seen = await Promise.all(Array.from({ length: 20 }, (_, f) => readFile(join(out, 'latest', `f${f}.json`), 'utf8').then((t) => (JSON.parse(t) as { runId: string }).runId, () => undefined)));
        const ids = new Set(seen.filter((s) => s !== undefined));
        if (seen.every((s) => s !== undefined)) expect(ids.size).toBe(1);
        reads.push(...ids);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const published = await Promise.all(runs.map((dir) => publishLatest(dir, out)));
    publishing = false;
    await reader;
    expect(published).toEqual(runs.map(() => true));
    const files = await readdir(join(out, 'latest'));
    expect(files).toHaveLength(20);
    const ids = new Set(await Promise.all(files.map(async (f) => (JSON.parse(await readFile(join(out, 'latest', f), 'utf8')) as { runId: string }).runId)));
    expect(ids.size).toBe(1);
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('a run directory is never one another run holds', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-latest-'));
    const names = ['same', 'same', 'other'];
    const first = await newRunDir(out, () => 'same');
    const second = await newRunDir(out, () => names.shift()!);
    expect(first.runId).toBe('same');
    expect(second.runId).toBe('other');
  });
});
