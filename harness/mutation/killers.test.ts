import { describe, expect, it } from 'vitest';
import { loadProfile } from '../runner/profile.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { runAgainstReference } from './run.ts';

// Some mutants must be killed by each of several checks, not only by one of them: a check that
// passes a mutant it was written against "cannot fail". Each row: the mutant and the checks that
// must all fail against it.

const profile = await loadProfile();

const KILLERS: { mutant: string; checks: string[] }[] = [
  {
    // Without any idempotency store, a retry of these answers the same anyway: each check must
    // make the second execution observable.
    mutant: 'idem-ignored',
    checks: [
      'IDEM-REPLAY/POST /v1/campaigns/{id}/start', 'IDEM-REPLAY/POST /v1/campaigns/{id}/resume', 'IDEM-REPLAY/POST <campaigns.pause>',
      'IDEM-REPLAY/PATCH /v1/campaigns/{cid}/leads/{leadId}', 'IDEM-REPLAY/POST /v1/campaigns/{cid}/leads/mutate',
    ],
  },
];

describe('each of these checks kills the mutant it was written against', () => {
  for (const k of KILLERS) {
    it(`${k.mutant}: ${k.checks.join(', ')}`, async () => {
      const checks = ALL_CHECKS.filter((c) => k.checks.includes(c.id));
      expect(checks.map((c) => c.id).sort()).toEqual([...k.checks].sort());
      const results = await runAgainstReference(profile, checks, [k.mutant]);
      const survived = results.filter((r) => r.verdict !== 'fail').map((r) => `${r.checkId}: ${r.verdict} ${r.message ?? ''}`);
      expect(survived).toEqual([]);
    }, 180_000);
  }
});
