import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import type { Check } from '../ground/check.ts';
import { provenNeeds, unlistedFields } from './needs.ts';

// Every check lists what it cannot run without (`op:`, `decl:` features), so the planner knows
// before a run what a profile costs (harness/plan/static-gap.ts). Proven by running: each check
// against the reference with a profile holding, of the optional values, only those it lists
// (needs.ts). A check that then skips naming a profile field it does not list, or errors, needs
// more than it says. Two copies of real checks with their need struck out are run alongside:
// each must be caught, so the test cannot pass by not looking.

const unlisted = (c: Check, id: string): Check => ({ ...c, id, features: c.features.filter((f) => !f.startsWith('op:') && !f.startsWith('decl:')) });
const byId = (id: string) => ALL_CHECKS.find((c) => c.id === id)!;
const CONTROLS = [unlisted(byId('PROFILE-DECL/mailbox-defaults'), 'NEEDS-CONTROL/decl-struck-out'), unlisted(byId('ACCT-GET'), 'NEEDS-CONTROL/op-struck-out')];

describe('checks declare the profile values they need', () => {
  it('no check skips for, or errors without, an optional profile value it does not list; the reference passes with only what each lists', async () => {
    const r = await provenNeeds([...ALL_CHECKS, ...CONTROLS]);
    expect(r.results).toHaveLength(ALL_CHECKS.length + CONTROLS.length);
    // The controls are caught, each naming the field struck out.
    const caught = r.unlisted.filter((u) => u.startsWith('NEEDS-CONTROL/'));
    expect(caught).toHaveLength(2);
    expect(caught).toEqual(
      expect.arrayContaining([expect.stringMatching(/^NEEDS-CONTROL\/decl-struck-out: skipped naming declarations\.mailboxDefaults,/), expect.stringMatching(/^NEEDS-CONTROL\/op-struck-out: skipped naming operations\.accounts\.get,/)]),
    );
    expect(r.unlisted.filter((u) => !u.startsWith('NEEDS-CONTROL/'))).toEqual([]);
    expect(r.errors).toEqual([]);
    // Each check ran with what it lists present: the check struck from the first control passes with it.
    expect(r.results.find((x) => x.checkId === 'PROFILE-DECL/mailbox-defaults')?.verdict).toBe('pass');
    expect(r.groups).toBeGreaterThan(10);
    // Without the optional values a check does not list, a correct target still passes (SHOULD readings aside).
    expect(r.results.filter((x) => x.verdict === 'fail' && x.level !== 'SHOULD').map((x) => `${x.checkId}: ${x.message}`)).toEqual([]);
  }, 900_000);

  it('matches a skip to what the check lists by field, within a listed field or holding one', () => {
    const c = { features: ['decl:declarations.analytics', 'op:leads.list', 'imap'] as Check['features'] };
    expect(unlistedFields(c, 'declarations.analytics.clamping "x" is none the kit can check')).toEqual([]);
    expect(unlistedFields(c, 'needs operations.leads.list and features.imap')).toEqual([]);
    expect(unlistedFields(c, 'needs declarations.variantIdPath in the profile')).toEqual(['declarations.variantIdPath']);
    expect(unlistedFields({ features: ['decl:declarations.mergeVariables.firstName'] }, 'needs declarations.mergeVariables')).toEqual([]);
    expect(unlistedFields({ features: ['decl:declarations.warmupDefaults|declarations.warmupValues'] }, 'neither declarations.warmupDefaults nor declarations.warmupValues')).toEqual([]);
  });
});
