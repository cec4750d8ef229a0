import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// vitest's module cache (experimental.fsModuleCache) for one run. vitest writes its cache with a
// temp file and a rename, but empties the whole directory when the lockfile it last saw differs:
// a run of another install beside it (another clone, a packed kit) emptied a directory this run
// was writing to, and the run started none of its checks. So each run has a directory of its own,
// seeded from a shared one by hard links (vitest never writes a file in place: a rename replaces
// the run's link, never the shared file), and what it added is linked back when it ends (a link
// is atomic: a file is there whole or not at all; the first of two runs adding one wins).

/** A run's own module cache directory; `close` keeps what it added in the shared one and removes it. */
export interface RunModuleCache {
  dir: string;
  /** Files linked in from the shared cache at the start. */
  seeded: number;
  close(): Promise<{ added: number }>;
}

/** The shared cache of this install: the user's, under the temp directory or OUTREACH_VITEST_CACHE. */
export function sharedCacheDir(packageRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const root = env.OUTREACH_VITEST_CACHE || join(tmpdir(), `outreach-conformance-vitest-${process.getuid?.() ?? 'user'}`);
  // One install's modules apart from another's: a lockfile change (new dependencies) starts afresh.
  const install = createHash('sha256').update(packageRoot).update('\0').update(lockfileOf(packageRoot)).digest('hex').slice(0, 16);
  return join(root, install);
}

const LOCKFILES = ['node_modules/.package-lock.json', 'package-lock.json', 'node_modules/.pnpm/lock.yaml', 'node_modules/.yarn-state.yml', 'bun.lock'];

/** The lockfile that describes the dependencies this install runs with (the nearest up from it), or ''. */
function lockfileOf(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const f of LOCKFILES) {
      try {
        return readFileSync(join(dir, f), 'utf8');
      } catch {
        /* the next */
      }
    }
    if (dirname(dir) === dir) return '';
  }
}

/** A cache entry vitest wrote (a sha1 name): not its metadata, not a temp file. */
const isEntry = (name: string) => /^[0-9a-f]{40}$/.test(name);

/**
 * A directory of the run's own under `shared`/runs, seeded with the shared entries; undefined where
 * the shared directory cannot be written (vitest waits for ever on a cache it cannot write).
 */
export async function openRunModuleCache(shared: string): Promise<RunModuleCache | undefined> {
  const runs = join(shared, 'runs');
  try {
    await mkdir(runs, { recursive: true });
    accessSync(shared, constants.W_OK);
  } catch {
    return undefined;
  }
  await removeOrphans(runs);
  const dir = join(runs, `${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(dir);
  const have = (await readdir(shared)).filter(isEntry);
  let seeded = 0;
  for (const name of have) if (await linkOrCopy(join(shared, name), join(dir, name))) seeded++;
  const close = async () => {
    let added = 0;
    try {
      const known = new Set(await readdir(shared));
      // A run whose vitest emptied its directory (its lockfile check) adds nothing.
      for (const name of (await readdir(dir).catch(() => [] as string[])).filter((n) => isEntry(n) && !known.has(n))) if (await linkOrCopy(join(dir, name), join(shared, name))) added++;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return { added };
  };
  return { dir, seeded, close };
}

/**
 * `to` made to hold `from`'s file, atomically: a hard link, else (another file system, one without
 * links) a copy under a temp name renamed into place. False where `to` exists (another run's, the
 * same content: the key is the content's) or `from` went away.
 */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOENT') return false;
  }
  const temp = join(dirname(to), `.copy-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await copyFile(from, temp);
    await rename(temp, to);
    return true;
  } catch {
    await unlink(temp).catch(() => {});
    return false;
  }
}

/** Run directories left by runs that died before their end (their process is gone). */
async function removeOrphans(runs: string): Promise<void> {
  for (const name of await readdir(runs).catch(() => [] as string[])) {
    const pid = Number(name.split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) await rm(join(runs, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: a process of another user holds that pid, so it lives.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

