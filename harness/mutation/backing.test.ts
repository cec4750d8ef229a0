import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { killMatrix, type KillMatrix } from '../plan/kill-matrix.ts';
import { claimBacking } from './backing.ts';
import { VIOLATIONS } from './violations/index.ts';
import { CLAUSE_BY_ID } from '../ground/spec-model/clauses/index.ts';
import { SUMMARIES } from '../ground/spec-model/clauses/summaries.ts';

// Claims backed by kills (harness/mutation/backing.ts). The two counts may only go down: a new
// check's claim on a MUST clause needs a mutant of that clause it kills (a reference mutant in
// harness/reference/switches/mutants.ts, its clauses in catalog*.ts, then `npm run kill-matrix`).
// Lower these ceilings when the counts drop. (1107: ERR-ENVELOPE/every-error-seen's claim on
// ERR-RETRYAFTER-429 was backed by a kill that needed another check's 429; the matrix now confirms a
// run-end observer alone, and it provokes no 429.)
// 534 and 100: the mutant families (harness/reference/switches/mutant-families.ts) and the part 1
// summaries (clauses/summaries.ts) took them from 1107 and 254; the review of every clause's
// plausible violations (violations/) to 230 and 3.
const CEILING = { unbackedClaims: 230, unbackedClauses: 3 };

describe('claims backed by kills', () => {
  it('adds no unbacked claim and no MUST clause without a backed claim', () => {
    const b = claimBacking(ALL_CHECKS, killMatrix());
    expect(b.unbacked.length, 'claims on MUST clauses that no kill backs').toBeLessThanOrEqual(CEILING.unbackedClaims);
    expect(b.unbackedClauses.length, `MUST clauses whose every claim is unbacked: ${b.unbackedClauses.join(', ')}`).toBeLessThanOrEqual(CEILING.unbackedClauses);
  });

  it('names why for every MUST clause no kill backs: a known gap in its catalog of plausible violations', () => {
    const unexplained = claimBacking(ALL_CHECKS, killMatrix()).unbackedClauses.filter((k) => !(VIOLATIONS[k] ?? []).some((v) => v.gap?.trim()));
    expect(unexplained).toEqual([]);
  });

  it('backs a claim by a kill of a mutant breaking that clause, and only that', () => {
    const checks = [
      { id: 'A/strong', clauses: ['AUTH-401-MISSING', 'AUTH-401-MALFORMED'] },
      { id: 'B/weak', clauses: ['AUTH-401-MISSING'] },
    ];
    const m: KillMatrix = { source: 'test', failsClean: [], checks: ['A/strong', 'B/weak'], mutants: { 'x-missing': { clauses: ['AUTH-401-MISSING'], tried: 2, triedDigest: '', killers: ['A/strong'] } } };
    const b = claimBacking(checks, m);
    expect(b.claims).toBe(3);
    expect(b.unbacked).toEqual([
      { check: 'A/strong', clause: 'AUTH-401-MALFORMED' },
      { check: 'B/weak', clause: 'AUTH-401-MISSING' },
    ]);
    expect(b.unbackedClauses).toEqual(['AUTH-401-MALFORMED']);
  });

  it('backs a claim on a part 1 summary by a backed claim on one of its detailed clauses, by any check', () => {
    const checks = [
      { id: 'A/detail', clauses: ['AUTH-401-MISSING'] },
      { id: 'B/summary', clauses: ['SVC-KEY-EVERY-REQUEST', 'SVC-REST-JSON'] },
    ];
    const summaries = { 'SVC-KEY-EVERY-REQUEST': ['AUTH-401-MISSING'], 'SVC-REST-JSON': ['CONV-JSON-BODIES'] };
    const m: KillMatrix = { source: 'test', failsClean: [], checks: ['A/detail', 'B/summary'], mutants: { 'x-missing': { clauses: ['AUTH-401-MISSING'], tried: 2, triedDigest: '', killers: ['A/detail'] } } };
    const b = claimBacking(checks, m, summaries);
    expect(b.unbacked).toEqual([{ check: 'B/summary', clause: 'SVC-REST-JSON' }]);
    expect(b.unbackedClauses).toEqual(['SVC-REST-JSON']);
    // Without the summary table, a summary is a clause like any other.
    expect(claimBacking(checks, m, {}).unbackedClauses).toEqual(['SVC-KEY-EVERY-REQUEST', 'SVC-REST-JSON']);
  });

  it('lists as summaries only part 1 sentences, each detailed by MUST clauses of later parts', () => {
    for (const [id, details] of Object.entries(SUMMARIES)) {
      expect(CLAUSE_BY_ID.get(id)?.section, id).toBe('1');
      expect(details.length, id).toBeGreaterThan(0);
      for (const d of details) {
        expect(CLAUSE_BY_ID.get(d)?.level, `${id}: ${d}`).toBe('MUST');
        expect(CLAUSE_BY_ID.get(d)?.section, `${id}: ${d}`).not.toBe('1');
      }
    }
  });
});
