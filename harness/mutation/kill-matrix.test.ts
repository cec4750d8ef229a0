import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { MUTANTS } from '../reference/index.ts';
import { killersAt, killMatrix, SHALLOW_DEPTHS } from '../plan/kill-matrix.ts';
import { danglingEntries, staleDepthRuns, staleMutants } from './matrix-staleness.ts';
import { candidateIds } from './candidates.ts';
import { readFileSync } from 'node:fs';
import { checkCode, checkFingerprints } from './check-code.ts';
import { MUTANT_CLAUSES } from './catalog.ts';
import { expectedData } from '../plan/expected.ts';

// The kill matrix must describe the kit as it is: a mutant or check added, removed or renamed
// since it was made fails here, naming what to regenerate.

const matrix = killMatrix();
const code = await checkFingerprints(ALL_CHECKS);

describe('the kill matrix (harness/plan/kill-matrix.json)', () => {
  it('has a current row for every mutant of the reference', () => {
    const stale = staleMutants(matrix, ALL_CHECKS, code);
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

  it('fails when a killer\'s code changes, and not when a check that kills nothing does', async () => {
    const all = await checkCode(ALL_CHECKS);
    // The source as if `id`'s definition had been edited (a statement added to its text).
    const editing = (id: string) => {
      const { file, definition } = all.get(id)!;
      return (f: string) => (f === file ? readFileSync(f, 'utf8').replace(definition, `${definition.slice(0, -1)}/* edited */}`) : readFileSync(f, 'utf8'));
    };
    const [id, row] = Object.entries(matrix.mutants).find(([, r]) => r.killers.includes('ACCT-CREATE/shape'))!;
    expect(staleMutants(matrix, ALL_CHECKS, await checkFingerprints(ALL_CHECKS, editing('ACCT-CREATE/shape')))).toContain(id);
    const killing = new Set(Object.values(matrix.mutants).flatMap((r) => r.killers));
    const idle = ALL_CHECKS.find((c) => !killing.has(c.id) && all.get(c.id)!.definition.includes(`'${c.id}'`))!;
    expect(staleMutants(matrix, ALL_CHECKS, await checkFingerprints(ALL_CHECKS, editing(idle.id)))).toEqual([]);
    expect(row.killers.length).toBeGreaterThan(0);
  });

  it('runs again below default the killers that ask less there, and fails when one begins or stops to', () => {
    for (const [id, row] of Object.entries(matrix.mutants))
      for (const d of SHALLOW_DEPTHS) {
        const run = row.belowDefault?.[d];
        if (!run) continue;
        expect(run.tried.filter((k) => !row.killers.includes(k)), `${id} at ${d}`).toEqual([]);
        expect(run.missed.filter((k) => !run.tried.includes(k)), `${id} at ${d}`).toEqual([]);
      }
    // A killer that kills at default and asks less at quick: its rows name it tried at quick.
    const [id, row] = Object.entries(matrix.mutants).find(([, r]) => r.belowDefault?.quick?.tried.includes('SCOPE-MATRIX/accounts:all'))!;
    const plain = ALL_CHECKS.map((c) => (c.id === 'SCOPE-MATRIX/accounts:all' ? { ...c, shallowerAt: undefined } : c));
    expect(staleDepthRuns(matrix, plain)).toContain(id);
    expect(staleMutants(matrix, plain)).toContain(id);
    const plainKiller = row.killers.find((k) => !ALL_CHECKS.find((c) => c.id === k)!.shallowerAt)!;
    const shallower = ALL_CHECKS.map((c) => (c.id === plainKiller ? { ...c, shallowerAt: ['quick'] as const } : c));
    expect(staleDepthRuns(matrix, shallower)).toContain(id);
  });

  it('counts at smoke and quick only the kills measured there', () => {
    const row = matrix.mutants['scope-route-forgets-domain-wildcard']!;
    expect(row.killers).toContain('SCOPE-MATRIX/accounts:all');
    expect(killersAt(row, 'default')).toContain('SCOPE-MATRIX/accounts:all');
    // The pause route is asked of accounts:all only from default on (suites/checks/auth/scope-matrix.ts).
    expect(killersAt(row, 'quick')).not.toContain('SCOPE-MATRIX/accounts:all');
    expect(killersAt(row, 'smoke')).not.toContain('SCOPE-MATRIX/accounts:all');
  });

  it('knows every check measured sending fewer requests at smoke or quick than at default as one that asks less there', () => {
    // What a check sends is measured per depth against the reference with the control API
    // (expected-requests.json byDepth): fewer requests below default is asking less there, which
    // the kill matrix must measure (Check.shallowerAt). The real-time measures without the control
    // API vary from run to run with the clock, so they say nothing of depth.
    const { byDepth } = expectedData();
    const fewer = (id: string, d: (typeof SHALLOW_DEPTHS)[number]) => (byDepth[d]?.[id] ?? Infinity) < (byDepth.default?.[id] ?? 0);
    const undeclared = ALL_CHECKS.flatMap((c) => SHALLOW_DEPTHS.filter((d) => fewer(c.id, d) && !c.shallowerAt?.includes(d)).map((d) => `${c.id} at ${d}`));
    expect(undeclared).toEqual([]);
  });
});
