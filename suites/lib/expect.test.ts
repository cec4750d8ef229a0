import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../harness/ground/api-client.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../../harness/ground/profile.ts';
import type { Profile } from '../../harness/ground/profile-schema.ts';
import { ENDPOINTS } from '../../harness/ground/spec-model/endpoints.ts';
import { envelopeProblems } from './expect.ts';
import { placeholderRequest } from './requests.ts';

// A failure message names the profile values the check read (harness/runner/profile-reads.ts):
// the business-rule code bears on a 400 alone, so a broken 401, 403 or 404 must not read it.

const reference = await loadProfile(DEFAULT_PROFILE_PATH);

/** The profile with its names recording what is read of them. */
function watched(): { profile: Profile; read: string[] } {
  const read: string[] = [];
  const names = new Proxy(reference.names, { get: (t, k, r) => (typeof k === 'string' && read.push(k), Reflect.get(t, k, r)) });
  return { profile: { ...reference, names }, read };
}

const broken = (status: number): ApiResponse => ({ status, headers: { 'content-type': 'application/json' }, body: { message: 'no' }, text: '{"message":"no"}', exchangeId: 'x', durationMs: 1 });

describe('the profile fields a failure rests on', () => {
  it('a broken 401, 403 or 404 envelope reads no business-rule code; a 400 does', () => {
    for (const status of [401, 403, 404]) {
      const { profile, read } = watched();
      expect(envelopeProblems(broken(status), profile).length).toBeGreaterThan(0);
      expect(read, `HTTP ${status}`).not.toContain('businessRuleErrorCode');
    }
    const { profile, read } = watched();
    envelopeProblems(broken(400), profile);
    expect(read).toContain('businessRuleErrorCode');
  });

  it("a placeholder request reads the business-rule code only for the route it explains (a campaign's resume)", () => {
    for (const ep of ENDPOINTS) {
      const { profile, read } = watched();
      placeholderRequest(ep, profile);
      expect(read.includes('businessRuleErrorCode'), ep.id).toBe(ep.id === 'campaigns.resume');
    }
  });
});
