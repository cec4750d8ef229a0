import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../../ground/spec-model/clauses/index.ts';
import { SUMMARIES } from '../../ground/spec-model/clauses/summaries.ts';
import { UNOBSERVABLE } from '../../ground/spec-model/clauses/unobservable.ts';
import type { KillMatrix } from '../../plan/kill-matrix.ts';
import { MUTANT_CLAUSES } from '../catalog.ts';
import { VIOLATIONS } from './index.ts';
import { openViolationsByClause, violationShare } from './share.ts';

const listed = (clause: string) => new Set((VIOLATIONS[clause] ?? []).flatMap((v) => v.mutants ?? []));

describe('the catalog of plausible violations', () => {
  it('has an entry for exactly the MUST and PROFILE clauses a request can break (summaries are held through their details)', () => {
    const want = CLAUSES.filter((c) => c.level !== 'SHOULD' && !(c.id in SUMMARIES) && !(c.id in UNOBSERVABLE)).map((c) => c.id).sort();
    expect(Object.keys(VIOLATIONS).sort()).toEqual(want);
  });

  it('lists at least one violation for every clause, each made by a mutant or named as a gap', () => {
    const empty = Object.entries(VIOLATIONS).filter(([, vs]) => vs.length === 0).map(([k]) => k);
    expect(empty).toEqual([]);
    const bare = Object.entries(VIOLATIONS).flatMap(([k, vs]) => vs.filter((v) => !v.what.trim() || (!(v.mutants?.length) && !v.gap?.trim())).map(() => k));
    expect(bare).toEqual([]);
  });

  it('names only mutants the mutation catalog says break that clause', () => {
    const wrong = Object.entries(VIOLATIONS).flatMap(([k, vs]) => vs.flatMap((v) => (v.mutants ?? []).filter((m) => !MUTANT_CLAUSES[m]?.includes(k)).map((m) => `${k}: ${m}`)));
    expect(wrong).toEqual([]);
  });

  it('lists every mutant that breaks a catalogued clause among that clause\'s violations', () => {
    const missing = Object.entries(MUTANT_CLAUSES).flatMap(([m, cs]) => cs.filter((k) => k in VIOLATIONS && !listed(k).has(m)).map((k) => `${k}: ${m}`));
    expect(missing).toEqual([]);
  });
});

describe('violationShare', () => {
  const matrix = (rows: Record<string, { clauses: string[]; killers: string[] }>): KillMatrix => ({
    source: 'test', failsClean: [], checks: [],
    mutants: Object.fromEntries(Object.entries(rows).map(([id, r]) => [id, { ...r, tried: 1, triedDigest: '' }])),
  });
  const catalog = {
    'AUTH-401-MISSING': [{ what: 'a', mutants: ['m1'] }, { what: 'b', mutants: ['m2'] }],
    'AUTH-401-UNKNOWN': [{ what: 'c', mutants: ['m3'] }],
    'AUTH-401-REVOKED': [{ what: 'd', gap: 'no mutant' }],
  };

  it('credits a violation only to a kill by a check that claims the clause itself', () => {
    const m = matrix({ m1: { clauses: ['AUTH-401-MISSING'], killers: ['C1'] }, m2: { clauses: ['AUTH-401-MISSING'], killers: ['OTHER'] }, m3: { clauses: ['AUTH-401-UNKNOWN'], killers: ['C2'] } });
    const s = violationShare([{ id: 'C1', clauses: ['AUTH-401-MISSING'] }, { id: 'C2', clauses: ['AUTH-401-UNKNOWN', 'AUTH-401-REVOKED'] }, { id: 'OTHER', clauses: [] }], catalog, m);
    expect(s.claimed).toBe(3);
    expect(s.strong).toBe(1);
    expect(s.weak.map((w) => [w.clause, w.open.map((o) => o.what)])).toEqual([['AUTH-401-MISSING', ['b']], ['AUTH-401-REVOKED', ['d']]]);
  });

  it('counts a check that fails the clean reference as no killer, and a clause no chosen check claims not at all', () => {
    const m = { ...matrix({ m1: { clauses: ['AUTH-401-MISSING'], killers: ['C1'] }, m2: { clauses: ['AUTH-401-MISSING'], killers: ['C1'] } }), failsClean: ['C1'] };
    const s = violationShare([{ id: 'C1', clauses: ['AUTH-401-MISSING'] }], catalog, m);
    expect(s.claimed).toBe(0);
  });

  it('gives a report the open violations of each clause the ran checks claim, none for a clause with all killed', () => {
    const m = matrix({ m1: { clauses: ['AUTH-401-MISSING'], killers: ['C1'] }, m2: { clauses: ['AUTH-401-MISSING'], killers: ['OTHER'] }, m3: { clauses: ['AUTH-401-UNKNOWN'], killers: ['C2'] } });
    const open = openViolationsByClause([{ id: 'C1', clauses: ['AUTH-401-MISSING'] }, { id: 'C2', clauses: ['AUTH-401-UNKNOWN', 'AUTH-401-REVOKED'] }], catalog, m, 'default');
    expect(open).toEqual({ 'AUTH-401-MISSING': { listed: 2, open: [{ what: 'b' }] }, 'AUTH-401-REVOKED': { listed: 1, open: [{ what: 'd', gap: 'no mutant' }] } });
  });

  it('reads the kills of a depth below default from the row\'s belowDefault', () => {
    const m = matrix({ m1: { clauses: ['AUTH-401-MISSING'], killers: ['C1'] }, m2: { clauses: ['AUTH-401-MISSING'], killers: ['C1'] } });
    (m.mutants.m2 as { belowDefault?: unknown }).belowDefault = { quick: { tried: ['C1'], missed: ['C1'] } };
    expect(violationShare([{ id: 'C1', clauses: ['AUTH-401-MISSING'] }], catalog, m, 'default').strong).toBe(1);
    expect(violationShare([{ id: 'C1', clauses: ['AUTH-401-MISSING'] }], catalog, m, 'quick').strong).toBe(0);
  });
});
