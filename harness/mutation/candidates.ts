import { createHash } from 'node:crypto';
import type { Check } from '../ground/check.ts';
import { CLAUSE_BY_ID } from '../ground/spec-model/clauses/index.ts';

// The checks the kill matrix tries against a mutant: every check that claims one of the clauses
// it breaks, and every check of its area (a check claiming any clause of the same spec section).
// A check outside this set is not tried, so the matrix can only under-state what kills a mutant.

const sectionOf = (clause: string): string | undefined => CLAUSE_BY_ID.get(clause)?.section;

/** Ids of the checks to try against a mutant that breaks `clauses`, sorted. */
export function candidateIds(clauses: readonly string[], checks: readonly Pick<Check, 'id' | 'clauses'>[]): string[] {
  const sections = new Set(clauses.map(sectionOf).filter((s): s is string => !!s));
  return checks
    .filter((c) => c.clauses.some((k) => clauses.includes(k) || sections.has(sectionOf(k) ?? '')))
    .map((c) => c.id)
    .sort();
}

/** A short digest of a list of ids: the matrix keeps it to tell when a mutant's candidates changed. */
export function digest(ids: readonly string[]): string {
  return createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 16);
}
