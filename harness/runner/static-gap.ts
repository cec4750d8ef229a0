import type { Profile } from '../ground/profile-schema.ts';

/** Why a check skips on this profile whatever the target answers (a feature the profile does not declare), or undefined. */
export function staticGap<F extends string>(check: { features: readonly F[] }, profile: Profile): F | undefined {
  const control = !!profile.control || !!profile.embedded;
  return check.features.find((f) => {
    if (f === 'control' || f.startsWith('control:')) return !control;
    if (f === 'sinks') return !profile.features.sinks;
    if (f === 'imap') return !profile.features.imap;
    if (f === 'testEmail') return !profile.features.testEmail;
    if (f.startsWith('op:')) return !(profile.operations as Record<string, unknown>)[f.slice(3)];
    return false;
  });
}
