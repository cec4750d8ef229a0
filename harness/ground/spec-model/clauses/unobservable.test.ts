import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../../../suites/checks/index.ts';
import { CLAUSE_BY_ID } from './index.ts';
import { UNOBSERVABLE } from './unobservable.ts';

describe('clauses not observable from outside', () => {
  it('name clauses of the catalog, each with a reason', () => {
    for (const [id, why] of Object.entries(UNOBSERVABLE)) {
      expect(CLAUSE_BY_ID.has(id), id).toBe(true);
      expect(why.length, id).toBeGreaterThan(20);
    }
  });
  it('are claimed by no check (a check that proves one makes the entry wrong)', () => {
    const claimed = ALL_CHECKS.flatMap((c) => c.clauses).filter((id) => id in UNOBSERVABLE);
    expect([...new Set(claimed)]).toEqual([]);
  });
});
