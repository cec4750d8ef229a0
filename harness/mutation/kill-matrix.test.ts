import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { MUTANTS } from '../reference/index.ts';
import { killMatrix } from '../runner/kill-matrix.ts';
import { danglingEntries, staleMutants } from './matrix-staleness.ts';
import { candidateIds } from './candidates.ts';
import { MUTANT_CLAUSES } from './catalog.ts';

// The kill matrix must describe the kit as it is: a mutant or check added, removed or renamed
// since it was made fails here, naming what to regenerate.

const matrix = killMatrix();

describe('the kill matrix (harness/runner/kill-matrix.json)', () => {
  it('has a current row for every mutant of the reference', () => {
    const stale = staleMutants(matrix);
    expect(stale, `stale rows: npm run kill-matrix regenerates them (${stale.join(', ')})`).toEqual([]);
    expect(Object.keys(matrix.mutants).sort()).toEqual(MUTANTS.map((m) => m.id).sort());
  });

  it('names no mutant or check that is gone', () => {
    expect(danglingEntries(matrix), 'npm run kill-matrix -- --all rebuilds it').toEqual([]);
    const ids = new Set(ALL_CHECKS.map((c) => c.id));
    expect(matrix.failsClean.filter((c) => !ids.has(c))).toEqual([]);
  });

  it('records only killers that were tried, and no check that fails the clean reference', () => {
    const clean = new Set(matrix.failsClean);
    for (const [id, row] of Object.entries(matrix.mutants)) {
      const tried = new Set(candidateIds(MUTANT_CLAUSES[id]!, ALL_CHECKS));
      expect(row.killers.filter((k) => !tried.has(k) || clean.has(k)), id).toEqual([]);
    }
  });

  it('fails when a check is added to a mutant\'s area, or renamed', () => {
    const [id, clauses] = Object.entries(MUTANT_CLAUSES)[0]!;
    const claimer = ALL_CHECKS.find((c) => c.clauses.some((k) => clauses.includes(k)))!;
    const renamed = ALL_CHECKS.map((c) => (c === claimer ? { ...c, id: `${c.id}-renamed` } : c));
    expect(staleMutants(matrix, renamed)).toContain(id);
    const added = [...ALL_CHECKS, { ...claimer, id: 'NEW/check' }];
    expect(staleMutants(matrix, added)).toContain(id);
    expect(danglingEntries(matrix, renamed).some((d) => d.includes(claimer.id))).toBe(matrix.mutants[id]!.killers.includes(claimer.id));
  });
});
