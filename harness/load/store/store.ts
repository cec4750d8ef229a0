import { mkdir, readFile, writeFile, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { KitError } from '../../ground/errors.ts';
import type { ResultStore } from './result-store.ts';

export type { ResultStore };

// Where a load's files go and `load merge` reads them: a directory (a volume every pod or job
// mounts) or an S3-compatible bucket (`s3://bucket/prefix`). Names inside are relative paths
// ("run/shard-2-of-4/load.json").


/** `--out` as given: s3://bucket[/prefix] or a directory (default ./reports). */
export async function openStore(out: string | undefined): Promise<ResultStore> {
  if (out?.startsWith('s3://')) {
    const { s3Store } = await import('./s3-store.ts');
    return s3Store(out);
  }
  if (out !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(out)) throw new KitError(`--out takes a directory or s3://bucket/prefix, not "${out}"`);
  return dirStore(resolve(out ?? join(process.cwd(), 'reports')));
}

export function dirStore(root: string): ResultStore {
  const at = (name: string) => join(root, name);
  return {
    where: root,
    async put(name, body) {
      await mkdir(dirname(at(name)), { recursive: true });
      await writeFile(at(name), body);
    },
    get: (name) => readFile(at(name), 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e))),
    remove: (name) => unlink(at(name)).catch(() => {}),
    locate: at,
  };
}

/**
 * Writes and removes a probe file where the shard will write its report: a store that cannot be
 * written fails the shard now, before its start instant, not after its load.
 */
export async function probeWritable(store: ResultStore, name: string): Promise<void> {
  try {
    await store.put(name, `probe ${new Date().toISOString()}\n`);
    if ((await store.get(name)) === undefined) throw new Error('a file written there could not be read back');
    await store.remove(name);
  } catch (e) {
    throw new KitError(`--out ${store.where} cannot be written (${(e as Error).message}): the shard stops before its start instant`);
  }
}
