import { describe, expect, it } from 'vitest';
import { runPortability, type PortabilityResult } from './run.ts';

// The kit must pass every correct implementation. The
// reference is run with its default choices, with a set that differs from the default in
// every "not shown" item, with one random set, and with its control API withheld from the kit
// (workspaces handed over in the profile, as on a staging URL). 0 failures, 0 errors each; a SHOULD
// check may fail where a choice set departs from a recommended reading (it never fails the run).

function expectClean(r: PortabilityResult) {
  expect(r.problems, `choices ${r.choices}${r.control ? '' : ', without the control API'}, run seed ${r.seed}`).toEqual([]);
  expect(r.unexplainedSkips).toEqual([]);
  expect(r.results.filter((x) => x.verdict === 'pass').length).toBeGreaterThan(150);
}

// A random choice set per CI run would make a red CI unreproducible: the seed is fixed here and
// `npm run soak` sweeps others.
const RANDOM_SEED = Number(process.env.OUTREACH_CHOICES_SEED ?? 7);

describe('the suite passes every correct implementation', () => {
  it('the reference with its default choices', async () => {
    const r = await runPortability({ choices: 'default', control: true });
    expectClean(r);
    // The reference follows every recommended (SHOULD) reading in its default set.
    expect(r.shouldDepartures).toEqual([]);
  }, 600_000);
  it('the reference with the alternative choice set (every "not shown" item differs)', async () => {
    expectClean(await runPortability({ choices: 'alt', control: true }));
  }, 600_000);
  it(`the reference with random choices (seed ${RANDOM_SEED})`, async () => {
    expectClean(await runPortability({ choices: `random:${RANDOM_SEED}`, control: true }));
  }, 600_000);
  it('the reference without its control API (workspaces given in the profile)', async () => {
    const r = await runPortability({ choices: 'default', control: false });
    expectClean(r);
    // What needs the control API skips, and says so.
    const skips = r.results.filter((x) => x.verdict === 'skip');
    for (const s of skips) expect(s.message, s.checkId).toMatch(/needs|requires|not declared|missing|unavailable|not started/i);
  }, 900_000);
});
