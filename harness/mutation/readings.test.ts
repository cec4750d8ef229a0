import { describe, expect, it } from 'vitest';
import { loadProfile } from '../ground/profile.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { runAgainstReference } from './run.ts';

// Readings the spec allows: where a sentence admits two readings (or says "not shown"), a target
// that chose the other one passes when its profile says so, or when it declares nothing. Here a
// mutant of the reference stands for that other, conformant target; the same mutant still fails
// the checks when the profile declares the reference's own reading (mutation.test.ts).

const base = await loadProfile();

interface Reading {
  name: string;
  /** Ids of the checks that must pass. */
  only: RegExp;
  mutants: string[];
  profile?: (p: Profile) => Profile;
  /** 'fail': the profile declares what the reference does not do, so a check must hold it to that. */
  expect?: 'pass' | 'fail';
}

const withDeclarations = (d: Partial<Profile['declarations']>) => (p: Profile): Profile => ({ ...p, declarations: { ...p.declarations, ...d } });
const without = (key: keyof Profile['declarations']) => (p: Profile): Profile => {
  const declarations = { ...p.declarations };
  delete declarations[key];
  return { ...p, declarations };
};

const withAnalytics = (a: Record<string, unknown>) => (p: Profile): Profile => {
  const analytics = { ...p.declarations.analytics!, ...a };
  for (const [k, v] of Object.entries(a)) if (v === undefined) delete (analytics as Record<string, unknown>)[k];
  return { ...p, declarations: { ...p.declarations, analytics } };
};

const READINGS: Reading[] = [
  { name: 'lead search: one row per matching lead, declared', only: /^LEAD-SEARCH\//, mutants: ['lead-search-row-per-lead'], profile: withDeclarations({ leadSearchRows: 'per-lead' }) },
  { name: 'lead search: one row per matching lead, undeclared', only: /^LEAD-SEARCH\//, mutants: ['lead-search-row-per-lead'], profile: without('leadSearchRows') },
  // Undeclared "not shown" values: the checks that need them skip, none fails.
  { name: 'new lead status undeclared', only: /^LEAD-(LIST\/referenced|STATUS\/new)$/, mutants: [], profile: without('newLeadStatus') },
  { name: 'new lead status declared otherwise: held to the declaration', only: /^LEAD-STATUS\/new$/, mutants: [], profile: withDeclarations({ newLeadStatus: 'fresh' }), expect: 'fail' },
  { name: 'verification outcome mapping declared otherwise: held to the declaration', only: /^VERIF-SINK\/active$/, mutants: [], profile: withDeclarations({ verificationStatus: { succeeded: 'ready', failed: 'broken' } }), expect: 'fail' },
  // How long a window is before the time series coarsens it: held to the declaration; without it the MUST part still runs.
  { name: 'coarsening lengths undeclared', only: /^ANLT\/timeseries-coarsening(-profile)?$/, mutants: [], profile: withAnalytics({ coarsening: undefined }) },
  { name: 'coarsening lengths declared otherwise: held to the declaration', only: /^ANLT\/timeseries-coarsening-profile$/, mutants: [], profile: withAnalytics({ coarsening: { day: 20, week: 60 } }), expect: 'fail' },
  { name: 'clamping rule declared otherwise: held to the declaration', only: /^ANLT\/clamping-profile$/, mutants: [], profile: withAnalytics({ clamping: 'days-including-today' }), expect: 'fail' },
  { name: 'verification outcome mapping undeclared', only: /^(VERIF-|ACCT-VERIF)/, mutants: [], profile: without('verificationStatus') },
  // Which lead-search phases come after discovery beyond crawl and enrich: held only as declared.
  { name: 'phases after discovery undeclared: a search in processing may say discoveryFinished false', only: /^LF-GET\/progress$/, mutants: ['lf-discovery-list-misses-processing'], profile: without('leadSearchAfterDiscovery') },
  { name: 'phases after discovery declared without verifying: a search in verifying may say false', only: /^LF-GET\/progress$/, mutants: ['lf-discovery-list-misses-verifying'], profile: withDeclarations({ leadSearchAfterDiscovery: ['processing', 'crawling', 'enriching'] }) },
  // Which campaigns make the overview's top: an empty list is held only where the ranking by sent is declared.
  { name: 'topCampaigns ranking undeclared: an empty list passes', only: /^ANLT\/overview-answer$/, mutants: ['anlt-ov-topcampaigns-empty'], profile: withAnalytics({ topCampaignsBy: undefined }) },
  { name: 'topCampaigns ranked by open rate: an empty list passes', only: /^ANLT\/overview-answer$/, mutants: ['anlt-ov-topcampaigns-empty'], profile: withAnalytics({ topCampaignsBy: 'openRate' }) },
];

describe('a target that chose another allowed reading passes; a declaration is held', () => {
  for (const r of READINGS) {
    it(r.name, async () => {
      const checks = ALL_CHECKS.filter((c) => r.only.test(c.id));
      expect(checks.length).toBeGreaterThan(0);
      const results = await runAgainstReference((r.profile ?? ((p) => p))(base), checks, r.mutants);
      const bad = results.filter((x) => x.verdict === 'fail' || x.verdict === 'error').map((x) => `${x.checkId}: ${x.message}`);
      if (r.expect === 'fail') {
        expect(results.some((x) => x.verdict === 'fail')).toBe(true);
        return;
      }
      expect(bad).toEqual([]);
      expect(results.some((x) => x.verdict === 'pass')).toBe(true);
    });
  }
});
