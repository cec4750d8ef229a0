import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { selectChecks } from './eligible.ts';
import { plan } from './planner.ts';
import { expectedData, expectedRequests } from './expected.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import { DEPTH_BUDGETS } from './select-depth.ts';
import { cliOk } from '../cli/cli.test-helper.ts';

// The planner announces what a run will send; a plan off by half makes every estimate of a
// run's duration against a rate-limited target wrong.

const REMEASURE = 'run every check of the default depth twice (outreach-conformance run --check . --out DIR) and record it: npm run measure-requests -- <results.json> <results.json>';

/** A real run against the embedded reference through the CLI: its results.json. */
async function realRun(...args: string[]) {
  const out = await mkdtemp(join(tmpdir(), 'oc-plan-'));
  await cliOk(['run', '--quiet', '--out', out, ...args], { timeoutMs: 280_000 });
  return JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8'));
}

describe('planner', () => {
  it('has a measurement for every check of the default depth, and no budget below it', () => {
    const measured = expectedData().byDepth.default ?? {};
    const checks = selectChecks(ALL_CHECKS, 'default');
    expect(checks.filter((c) => measured[c.id] === undefined).map((c) => c.id), `checks never measured: ${REMEASURE}`).toEqual([]);
    // A budget is what a check may send at most: never below what it was seen to send.
    expect(checks.filter((c) => measured[c.id]! > c.budget).map((c) => `${c.id}: budget ${c.budget}, sends ${measured[c.id]}`)).toEqual([]);
  });

  it('announces the expected requests and the budgets as the upper bound', async () => {
    const profile = await loadProfile(DEFAULT_PROFILE_PATH);
    const checks = selectChecks(ALL_CHECKS, 'default');
    const p = plan(checks, profile, 12, 'default');
    expect(p.requests).toBe(checks.reduce((n, c) => n + expectedRequests(c, 'default'), 0));
    expect(p.atMost).toBeGreaterThanOrEqual(p.requests);
    // An unmeasured check counts with its budget.
    expect(expectedRequests({ id: 'NEW-CHECK', budget: 7 }, 'full', { source: '', byDepth: {} })).toBe(7);
  });

  it('is within 10 % of what a default run against the embedded reference sends, and the run stays within the default budget', async () => {
    const results = await realRun();
    const { plannedRequests, requests } = results.stats;
    expect(requests, 'requests sent to the target by a default run').toBeLessThanOrEqual(DEPTH_BUDGETS.default!);
    expect(typeof plannedRequests).toBe('number');
    // Every target request is counted for the check that sent it.
    expect(results.checks.reduce((n: number, c: { requests: number }) => n + c.requests, 0)).toBe(requests);
    expect(Math.abs(plannedRequests - requests) / requests, `planned ${plannedRequests}, sent ${requests}: ${REMEASURE}`).toBeLessThanOrEqual(0.1);
  }, 300_000);

  it('a smoke run sends at most 120 requests to the target', async () => {
    const results = await realRun('--depth', 'smoke');
    expect(results.depth).toBe('smoke');
    expect(results.stats.requests, 'requests sent to the target by a smoke run').toBeLessThanOrEqual(DEPTH_BUDGETS.smoke!);
    // Chosen by kills per request: about 40 checks (the bigger killers cost more of the 120).
    expect(results.checks.filter((c: { ran: boolean }) => c.ran).length).toBeGreaterThanOrEqual(35);
  });
});
