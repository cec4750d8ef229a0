import { describe, expect, it } from 'vitest';
import { runPortability } from './run.ts';
import { expectClean } from './expect-clean.ts';

// The kit must pass every correct implementation. The reference is run with its default choices,
// with a set that differs from the default in every "not shown" item (its control API the plain
// one too: drains one at a time, each polling every mailbox, no scoped-drain) and with one random set
// (and, in portability-no-control.test.ts, a file of its own so that the two long runs share the
// machine's cores, with its control API withheld). 0 failures, 0 errors each; a SHOULD check may
// fail where a choice set departs from a recommended reading (it never fails the run).

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
});
