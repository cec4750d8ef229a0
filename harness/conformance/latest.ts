import { randomBytes } from 'node:crypto';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

// `<out>/latest`: a copy of the run's directory, replaced whole. The copy is made under a temp
// name beside it and renamed into place, so a reader finds the old copy or the new one, never a
// half-written one; runs finishing together each move the copy there away and retry, so every
// one of them succeeds and the last to finish is left.

/** Renames tried at most; each failure means another run put its copy there just before. */
const ATTEMPTS = 50;

/** Makes `latest` under `outRoot` a copy of `dir`; false (and the run's own dir intact) where other runs kept winning. */
export async function publishLatest(dir: string, outRoot: string): Promise<boolean> {
  const latest = join(outRoot, 'latest');
  const temp = join(outRoot, `.latest-${process.pid}-${randomBytes(4).toString('hex')}`);
  const moved: string[] = [];
  try {
    await cp(dir, temp, { recursive: true });
    for (let i = 0; i < ATTEMPTS; i++) {
      try {
        await rename(temp, latest);
        return true;
      } catch (e) {
        if (!occupied(e)) throw e;
      }
      // A directory is there (an older run's): moved aside whole, then removed.
      const old = `${temp}-old-${i}`;
      await rename(latest, old).then(
        () => moved.push(old),
        (e: NodeJS.ErrnoException) => {
          if (e.code !== 'ENOENT') throw e;
        },
      );
    }
    return false;
  } finally {
    await Promise.all([temp, ...moved].map((p) => rm(p, { recursive: true, force: true })));
  }
}

/** rename(2) onto a directory that is not empty (Linux ENOTEMPTY, elsewhere EEXIST or EPERM). */
function occupied(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM' || code === 'EISDIR' || code === 'ENOTDIR';
}

/** The run's own directory under `outRoot`, made anew: a name another run holds is never shared. */
export async function newRunDir(outRoot: string, runId: () => string): Promise<{ runId: string; dir: string }> {
  await mkdir(outRoot, { recursive: true });
  for (;;) {
    const id = runId();
    const dir = join(outRoot, id);
    try {
      await mkdir(dir);
      return { runId: id, dir };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
