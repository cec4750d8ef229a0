import { KitError } from '../ground/errors.ts';
import { parseDuration } from '../ground/units.ts';
import { parseShard } from './report/merge.ts';
import { parseStartAt } from './generator/start-at.ts';

// The flags that make a load one shard of a run, and where a shard's files go: every shard of
// run R writes R/shard-k-of-n/load.json in the same store, which `load merge --from` reads.

/** `load api` and `load sendpath`: the option table of a shard. */
// The flags (--shard, --start-at, --start-tolerance, --run) are rows of harness/load/flags.ts.

export interface ShardFlags {
  shard?: { index: number; of: number };
  startAt?: number;
  toleranceMs: number;
  run?: string;
}

export function parseShardFlags(flags: Record<string, unknown>): ShardFlags {
  const startAt = typeof flags['start-at'] === 'string' ? parseStartAt(flags['start-at']) : undefined;
  const run = typeof flags.run === 'string' ? parseRunName(flags.run) : startAt !== undefined ? runFromInstant(startAt) : undefined;
  return {
    shard: typeof flags.shard === 'string' ? parseShard(flags.shard) : undefined,
    startAt,
    toleranceMs: parseDuration(typeof flags['start-tolerance'] === 'string' ? flags['start-tolerance'] : '50ms', '--start-tolerance'),
    run,
  };
}

/** A run's name becomes a folder or key: letters, digits, '-', '_', '.'. */
export function parseRunName(text: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(text)) throw new KitError(`--run takes a name of letters, digits, '.', '_' and '-' (at most 100), not "${text}"`);
  return text;
}

/** "load-20261128T020000Z" for 2026-11-28T02:00:00Z: shards given one instant share a run. */
export function runFromInstant(at: number): string {
  return `load-${new Date(at).toISOString().replace(/[-:]/g, '').replace(/\.000Z$/, 'Z').replace('.', '_')}`;
}

/** The folder of shard k of n inside its run. */
export const shardFolder = (run: string, index: number, of: number) => `${run}/shard-${index}-of-${of}`;

/** Where a load's files go in its store: a shard of a named run in the run's folder, else a fresh run id. */
export function reportName(s: ShardFlags, runId: string): string {
  return s.shard && s.run ? shardFolder(s.run, s.shard.index, s.shard.of) : runId;
}
