import { describe, expect, it } from 'vitest';
import { loadProfile } from '../ground/profile.ts';
import { MUTANTS } from '../reference/index.ts';
import { CLAUSE_BY_ID } from '../ground/spec-model/clauses/index.ts';
import { MUTANT_CLAUSES } from './catalog.ts';
import { checksFor, proveKilled } from './run.ts';

// Proves the suite can fail (house rule 3): every mutant of the reference target is killed by a
// check that covers the clause it breaks.

const profile = await loadProfile();

describe('the mutant catalog', () => {
  it('names every mutant of the reference, and only those', () => {
    expect(Object.keys(MUTANT_CLAUSES).sort()).toEqual(MUTANTS.map((m) => m.id).sort());
  });
  it('maps every mutant to known clauses that some check covers', () => {
    for (const [id, clauses] of Object.entries(MUTANT_CLAUSES)) {
      for (const c of clauses) expect(CLAUSE_BY_ID.has(c), `${id}: clause ${c}`).toBe(true);
      expect(checksFor(clauses).length, `${id}: no check covers ${clauses.join(', ')}`).toBeGreaterThan(0);
    }
  });
});

// The clean reference passing every check is proven by harness/portability (choices 'default').
describe('every mutant is killed', () => {
  for (const m of MUTANTS) {
    it(`${m.id} (${m.rule.slice(0, 60)})`, async () => {
      const r = await proveKilled(profile, m.id);
      expect(r.killed, `no check on ${r.clauses.join(', ')} failed against mutant ${m.id}`).toBe(true);
    });
  }
});
