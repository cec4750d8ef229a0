import type { Check } from '../ground/check.ts';
import { DEPTHS } from '../ground/check.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { MUTANT_CLAUSES } from './catalog.ts';
import { candidateIds, digest } from './candidates.ts';
import { killersDigest } from './check-code.ts';
import { SHALLOW_DEPTHS, type KillMatrix, type MatrixRow, type ShallowDepth } from '../plan/kill-matrix.ts';

// When the kill matrix no longer describes the kit: a mutant added (no row) or whose clauses or
// candidate checks changed (a check added, removed or renamed in its area), or whose killers'
// code changed (given their fingerprints, check-code.ts), or whose killers that ask less below
// default (Check.shallowerAt) are not the ones its row ran at those depths.

type CheckLike = Pick<Check, 'id' | 'clauses' | 'depth' | 'shallowerAt'>;

/** Check id -> its code's fingerprint (check-code.ts checkFingerprints). */
export type Fingerprints = ReadonlyMap<string, string>;

/** Mutants whose row is missing or stale, or whose runs below default are (every reader's question). */
export function staleMutants(matrix: KillMatrix, checks: readonly CheckLike[] = ALL_CHECKS, code?: Fingerprints): string[] {
  return [...new Set([...staleRows(matrix, checks, code), ...staleDepthRuns(matrix, checks)])].sort();
}

/** Mutants whose row is missing or was made from other clauses, other candidate checks or (given `code`) other killers' code. */
export function staleRows(matrix: KillMatrix, checks: readonly CheckLike[] = ALL_CHECKS, code?: Fingerprints): string[] {
  return Object.entries(MUTANT_CLAUSES)
    .filter(([id, clauses]) => {
      const row = matrix.mutants[id];
      if (!row || row.clauses.join() !== clauses.join() || row.triedDigest !== digest(candidateIds(clauses, checks))) return true;
      return !!code && row.killersCode !== killersDigest(row.killers, code);
    })
    .map(([id]) => id)
    .sort();
}

/** The killers of a row to run again at `depth`: those that ask less there and may run there, sorted. */
export function shallowKillers(row: Pick<MatrixRow, 'killers'>, depth: ShallowDepth, checks: readonly CheckLike[] = ALL_CHECKS): string[] {
  const byId = new Map(checks.map((c) => [c.id, c]));
  const eligible = (c: CheckLike) => DEPTHS.indexOf(c.depth ?? 'smoke') <= DEPTHS.indexOf(depth);
  return row.killers.filter((k) => {
    const c = byId.get(k);
    return !!c && !!c.shallowerAt?.includes(depth) && eligible(c);
  });
}

/** Mutants with a row whose runs below default tried other killers than those that now ask less there. */
export function staleDepthRuns(matrix: KillMatrix, checks: readonly CheckLike[] = ALL_CHECKS): string[] {
  return Object.entries(matrix.mutants)
    .filter(([id, row]) => MUTANT_CLAUSES[id] && SHALLOW_DEPTHS.some((d) => shallowKillers(row, d, checks).join() !== (row.belowDefault?.[d]?.tried ?? []).join()))
    .map(([id]) => id)
    .sort();
}

/** Rows for mutants that no longer exist, and killers that name no check. */
export function danglingEntries(matrix: KillMatrix, checks: readonly Pick<Check, 'id'>[] = ALL_CHECKS): string[] {
  const ids = new Set(checks.map((c) => c.id));
  return [
    ...Object.keys(matrix.mutants).filter((id) => !MUTANT_CLAUSES[id]).map((id) => `mutant ${id} (no longer in the catalog)`),
    ...Object.entries(matrix.mutants).flatMap(([m, row]) => row.killers.filter((k) => !ids.has(k)).map((k) => `check ${k} (kills ${m}; no longer a check)`)),
  ];
}
