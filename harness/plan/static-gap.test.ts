import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE_PATH, loadProfile, parseProfile } from '../ground/profile.ts';
import { featureField, profileGap, staticGap, staticGaps } from './static-gap.ts';
import { fieldsNamed } from '../report/profile-gaps.ts';
import type { Feature } from '../ground/check.ts';

// What a profile lacks for a check, before the run: features, operations, declarations (`decl:`)
// and, once the control API was asked, its extensions.

const check = (...features: Feature[]) => ({ features });

describe('static gaps', async () => {
  const reference = await loadProfile(DEFAULT_PROFILE_PATH);
  const { sendingDays: _s, ...names } = reference.names;
  const { variantIdPath: _v, analytics, ...declarations } = reference.declarations;
  const { coarsening: _c, ...uncoarsened } = analytics!;
  const { 'leads.create': _l, ...operations } = reference.operations;
  const lacking = parseProfile({ ...reference, names, declarations: { ...declarations, analytics: uncoarsened }, operations });

  it('finds a decl: value the profile leaves out, at any depth, and either of its alternatives', () => {
    expect(staticGap(check('decl:declarations.variantIdPath'), reference)).toBeUndefined();
    expect(staticGap(check('sinks', 'decl:declarations.variantIdPath'), lacking)).toBe('decl:declarations.variantIdPath');
    expect(staticGap(check('decl:names.sendingDays'), lacking)).toBe('decl:names.sendingDays');
    expect(staticGap(check('decl:declarations.analytics'), lacking)).toBeUndefined();
    expect(staticGap(check('decl:declarations.analytics.coarsening'), lacking)).toBe('decl:declarations.analytics.coarsening');
    expect(staticGap(check('decl:declarations.variantIdPath|declarations.newLeadStatus'), lacking)).toBeUndefined();
    expect(staticGaps(check('op:leads.create', 'op:leads.list', 'decl:names.sendingDays'), lacking)).toEqual(['op:leads.create', 'decl:names.sendingDays']);
  });

  it('counts a control extension missing only once the control API said which it offers', () => {
    const ext = check('control:blacklist');
    expect(staticGap(ext, reference)).toBeUndefined(); // not asked: assumed available
    expect(staticGap(ext, reference, ['lead-events'])).toBe('control:blacklist');
    expect(staticGap(ext, reference, ['blacklist'])).toBeUndefined();
    expect(staticGap(ext, { ...reference, embedded: false, control: undefined })).toBe('control:blacklist');
  });

  it('words the reason as the checks do, naming the field the report reads back', () => {
    expect(profileGap('decl:declarations.variantIdPath', lacking)).toMatch(/^needs declarations\.variantIdPath declared in the profile/);
    expect(fieldsNamed(profileGap('decl:declarations.analytics.coarsening', lacking))).toEqual(['declarations.analytics.coarsening']);
    expect(fieldsNamed(profileGap('decl:declarations.variantIdPath|names.sendingDays', lacking))).toEqual(['declarations.variantIdPath', 'names.sendingDays']);
    expect(fieldsNamed(profileGap('op:leads.create', lacking))).toEqual(['operations.leads.create']);
    expect(profileGap('decl:names.sendingDays', reference)).toBeUndefined();
    expect(['decl:names.sendingDays', 'op:leads.create', 'control:blacklist', 'control', 'imap'].map(featureField)).toEqual(['names.sendingDays', 'operations.leads.create', 'control extension blacklist', 'control (the conformance-control API)', 'features.imap']);
  });
});
