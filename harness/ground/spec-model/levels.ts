import type { Level } from './clauses/types.ts';
import { CLAUSE_BY_ID } from './clauses/index.ts';

// A rule is MUST, SHOULD or PROFILE in one place: the clause catalog. A check's level follows
// from the clauses it claims, so a check asserting a SHOULD reading can never fail a run.

/** The levels of these clauses (unknown ids are left out). */
export function clauseLevels(clauses: readonly string[]): Set<Level> {
  const out = new Set<Level>();
  for (const id of clauses) {
    const c = CLAUSE_BY_ID.get(id);
    if (c) out.add(c.level);
  }
  return out;
}

/** A check claiming a SHOULD reading together with a MUST or PROFILE clause: split it. */
export function mixesLevels(clauses: readonly string[]): boolean {
  const l = clauseLevels(clauses);
  return l.has('SHOULD') && (l.has('MUST') || l.has('PROFILE'));
}

/**
 * SHOULD when every clause is a SHOULD reading; MUST when one is stated by the spec; PROFILE
 * when the check rests on the profile's declarations alone. A check that mixes (a kit defect that
 * suites/ids.test.ts refuses) keeps its blocking level: a MUST failure is never hidden.
 */
export function levelOf(clauses: readonly string[]): Level {
  const l = clauseLevels(clauses);
  if (l.has('MUST')) return 'MUST';
  if (l.has('PROFILE')) return 'PROFILE';
  return l.has('SHOULD') ? 'SHOULD' : 'MUST';
}
