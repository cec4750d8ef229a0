import type { Check } from '../ground/check.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { MUTANT_CLAUSES } from './catalog.ts';
import { candidateIds, digest } from './candidates.ts';
import type { KillMatrix } from '../runner/kill-matrix.ts';

// When the kill matrix no longer describes the kit: a mutant added (no row) or whose clauses or
// candidate checks changed (a check added, removed or renamed in its area).

/** Mutants whose row is missing or was made from other clauses or other candidate checks. */
export function staleMutants(matrix: KillMatrix, checks: readonly Pick<Check, 'id' | 'clauses'>[] = ALL_CHECKS): string[] {
  return Object.entries(MUTANT_CLAUSES)
    .filter(([id, clauses]) => {
      const row = matrix.mutants[id];
      return !row || row.clauses.join() !== clauses.join() || row.triedDigest !== digest(candidateIds(clauses, checks));
    })
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
