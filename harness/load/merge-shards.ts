import { KitError } from '../ground/errors.ts';
import { LOAD_SCHEMA_VERSION, type LoadReport } from './report/types.ts';
import type { ResultStore } from './store/store.ts';
import { shardFolder } from './shards.ts';

// `load merge --from`: the shards of a run, read where they wrote (a mounted volume or a bucket),
// waited for until a deadline; the missing ones are named, a cut-short report refused by name.

/** A load.json's text as a report; a cut-short or foreign file is refused naming it. */
export function readLoadJson(text: string, name: string): LoadReport {
  let r: LoadReport;
  try {
    r = JSON.parse(text) as LoadReport;
  } catch (e) {
    throw new KitError(`${name} is cut short or is not a load.json (${(e as Error).message}): run that shard again`);
  }
  if (r?.schemaVersion !== LOAD_SCHEMA_VERSION) throw new KitError(`${name} is not a load.json this kit reads (schemaVersion ${r?.schemaVersion}, this kit reads ${LOAD_SCHEMA_VERSION})`);
  const missing = (['kind', 'plan', 'totals', 'environment', 'timeline', 'violations'] as const).filter((k) => r[k] === undefined);
  if (missing.length) throw new KitError(`${name} is cut short: it has no ${missing.join(', ')}`);
  return r;
}

export interface CollectOptions {
  store: ResultStore;
  run: string;
  of: number;
  /** how long to wait for the last shard */
  waitMs: number;
  /** between two looks (default 2 s) */
  pollMs?: number;
  say(line: string): void;
}

/** Every shard's load.json, once all n are there; past the deadline, an error naming the missing ones. */
export async function collectShards(o: CollectOptions): Promise<{ parts: LoadReport[]; names: string[] }> {
  const names = Array.from({ length: o.of }, (_, i) => `${shardFolder(o.run, i + 1, o.of)}/load.json`);
  const texts = new Map<number, string>();
  const deadline = Date.now() + o.waitMs;
  let told = -1;
  for (;;) {
    for (const [i, name] of names.entries()) {
      if (texts.has(i)) continue;
      const t = await o.store.get(name);
      if (t !== undefined) texts.set(i, t);
    }
    if (texts.size === o.of) break;
    const missing = names.map((_, i) => i).filter((i) => !texts.has(i)).map((i) => `${i + 1}/${o.of}`);
    if (Date.now() >= deadline)
      throw new KitError(`load merge: shard(s) ${missing.join(', ')} of run ${o.run} did not write ${o.store.where}/${shardFolder(o.run, 0, o.of).replace('shard-0', 'shard-k')}/load.json within ${Math.round(o.waitMs / 1000)} s`);
    if (texts.size !== told) o.say(`waiting for shard(s) ${missing.join(', ')} of run ${o.run} at ${o.store.where} (${texts.size} of ${o.of} there)`);
    told = texts.size;
    await new Promise((r) => setTimeout(r, Math.min(o.pollMs ?? 2000, Math.max(0, deadline - Date.now()))));
  }
  const located = names.map((n) => o.store.locate(n));
  return { parts: names.map((_, i) => readLoadJson(texts.get(i)!, located[i]!)), names: located };
}
