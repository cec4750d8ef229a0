import { describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import { selectChecks } from './eligible.ts';
import { chooseChecks, formatPlan, leftOutHint, plan } from './planner.ts';
import { chooseRun, planRun } from './run-plan.ts';
import { formatSelection } from './select-depth.ts';

// The run's two questions to planning each answer what the planner's pieces answer one by one,
// with the lines the console says of them.

describe("the run's plan", () => {
  it('chooses what the depth, the selection flags and the budget choose, and says how', async () => {
    const profile = await loadProfile(DEFAULT_PROFILE_PATH);
    const out = await mkdtemp(join(tmpdir(), 'oc-run-plan-'));
    const r = await chooseRun(ALL_CHECKS, { depth: 'default', profile, workspaces: 4, timeBudgetSeconds: 120, timeBudget: '2m', select: {}, outRoot: out });
    const direct = chooseChecks(ALL_CHECKS, { depth: 'default', profile, workspaces: 4, timeBudgetSeconds: 120 });
    expect(r.checks.map((c) => c.id)).toEqual(direct.checks.map((c) => c.id));
    expect(r.said).toEqual([direct.why, formatSelection(direct.selection!, leftOutHint('default', '2m', 4))]);
    // An explicit selection runs whole: no budget, nothing left out to say.
    const named = await chooseRun(ALL_CHECKS, { depth: 'default', profile, workspaces: 4, select: { check: '^WS-' }, outRoot: out });
    expect(named.checks.map((c) => c.id)).toEqual(selectChecks(ALL_CHECKS, 'default').filter((c) => /^WS-/.test(c.id)).map((c) => c.id));
    expect(named.said).toEqual(['the selection runs whole (no request budget)']);
    await expect(chooseRun(ALL_CHECKS, { depth: 'default', profile, workspaces: 4, select: { check: '^NO-SUCH-' }, outRoot: out })).rejects.toThrow(/matches no check/);
  });

  it("plans at the default concurrency unless given, and reads no history of the embedded reference", async () => {
    const profile = await loadProfile(DEFAULT_PROFILE_PATH);
    const checks = selectChecks(ALL_CHECKS, 'quick');
    const r = await planRun(checks, { profile, workspaces: 4, depth: 'quick', embedded: true, baseUrl: 'http://127.0.0.1:1', defaultDir: tmpdir() });
    const direct = plan(checks, profile, 4, 'quick', r.concurrency, {});
    expect(r.concurrency).toBe(8);
    expect(r.plan).toEqual(direct);
    expect(r.pace).toBeUndefined();
    expect(r.said).toEqual([formatPlan(direct)]);
    expect((await planRun(checks, { profile, workspaces: 4, depth: 'quick', concurrency: 3, embedded: true, baseUrl: 'http://127.0.0.1:1', defaultDir: tmpdir() })).concurrency).toBe(3);
  });
});
