import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Check } from '../ground/check.ts';
import { loadProfile } from '../ground/profile.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { killMatrix } from '../plan/kill-matrix.ts';
import { runAgainstReference } from './run.ts';

// A run-end observer (`last`) judges what the run showed. The kill matrix records its kills once
// among every check of the mutant's area and once alone; a depth's run gives it any company in
// between. Every kill the matrix gives an observer must hold behind another check that shows
// plenty of successes and an error of the cheap statuses, but none of what the observer needs
// (a depth run of many reads once let a start answering 202 go unseen).

const profile = await loadProfile();

/** Another check's traffic: reads of the workspace, a 400, a 401 and a 404; it asserts nothing. */
const COMPANY: Check = {
  id: 'TEST/company',
  title: 'reads and errors another check of the run happened to send',
  clauses: ['CONV-JSON-BODIES'],
  level: 'MUST',
  features: [],
  budget: 8,
  async run(ctx) {
    const ws = await ctx.workspace();
    for (let i = 0; i < 5; i++) await ws.api.get('/v1/workspace');
    await ws.api.get('/v1/campaigns', { [ctx.profile.names.list.pageSize]: 0 });
    await ctx.anonymous.get('/v1/workspace', undefined, { auth: 'none' });
    await ws.api.get(`/v1/campaigns/${randomUUID()}/status`);
  },
};

const observers = new Map(ALL_CHECKS.filter((c) => c.last).map((c) => [c.id, c]));
const kills = Object.entries(killMatrix().mutants).flatMap(([mutant, row]) => row.killers.filter((k) => observers.has(k)).map((k) => ({ mutant, check: observers.get(k)! })));

describe('a run-end observer kills what the kill matrix says, whatever else ran', () => {
  it('the matrix gives observers kills to hold', () => {
    expect(kills.map((k) => k.mutant)).toContain('conv-start-status-undeclared');
  });
  for (const { mutant, check } of kills) {
    it(`${check.id} kills ${mutant} behind another check's reads and errors`, async () => {
      const results = await runAgainstReference(profile, [COMPANY, check], [mutant]);
      const mine = results.find((r) => r.checkId === check.id)!;
      expect(`${mine.verdict} ${mine.message ?? ''}`).toMatch(/^fail /);
    });
  }
});
