import { describe, expect, it } from 'vitest';
import { loadProfile } from '../ground/profile.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { runOn, withReference } from './run.ts';

// Contacted and replied leads happen for real where the control API lacks its lead-events
// extension: a mailbox at the kit's sinks sends each lead a step, and the sink answers it over
// IMAP. The reference offers every extension but lead-events here (its events route answers 404),
// so a pass means the mail really went; the mutants show the checks still catch what they claim.

const profile = await loadProfile();
const CHECKS = ALL_CHECKS.filter((c) => /^(LEAD-PATCH\/email-contacted|LEAD-DELETE\/contacted|LEAD-STATUS\/after-reply)$/.test(c.id));
const WITHOUT_LEAD_EVENTS = { controlExtensions: ['workspace-keys', 'blacklist', 'email-unreadable'] };
const run = (mutants: string[]) => withReference(mutants, (ref) => runOn(ref, profile, CHECKS, 'default'), WITHOUT_LEAD_EVENTS);
const verdicts = (rs: { checkId: string; verdict: string; message?: string }[]) => Object.fromEntries(rs.map((r) => [r.checkId, `${r.verdict}${r.verdict === 'pass' ? '' : `: ${r.message}`}`]));

describe('leads contacted and replied by mail, without the lead-events extension', () => {
  it('the three checks pass the reference', async () => {
    expect(CHECKS).toHaveLength(3);
    expect(verdicts(await run([]))).toEqual({ 'LEAD-PATCH/email-contacted': 'pass', 'LEAD-DELETE/contacted': 'pass', 'LEAD-STATUS/after-reply': 'pass' });
  });

  it('a lead contacted by mail keeps its email: lead-email-change-after-contact is caught', async () => {
    const r = (await run(['lead-email-change-after-contact'])).find((x) => x.checkId === 'LEAD-PATCH/email-contacted');
    expect(r?.verdict, r?.message).toBe('fail');
  });
});
