import type { Profile } from '../ground/profile-schema.ts';

// What a profile lacks for a check, known before the run: a feature it does not declare, a
// referenced operation or a `decl:` value it leaves out, a control extension the control API
// does not announce. The planner counts such a check as neither covering nor killing, and the
// runner skips it with the reason (runner.ts featureGap asks profileGap for the profile's part).

/** What the planning functions know of the target beyond its profile. */
export interface TargetKnown {
  /**
   * The extensions the control API announced (GET /capabilities); undefined: not probed, each
   * `control:<ext>` is assumed available wherever the profile has a control API.
   */
  extensions?: readonly string[];
}

/** Why a check skips on this profile whatever the target answers (a feature the profile does not declare), or undefined. */
export function staticGap<F extends string>(check: { features: readonly F[] }, profile: Profile, extensions?: readonly string[]): F | undefined {
  return check.features.find((f) => missing(f, profile, extensions));
}

/** Every feature the check needs that the profile (and the announced extensions) lack. */
export function staticGaps<F extends string>(check: { features: readonly F[] }, profile: Profile, extensions?: readonly string[]): F[] {
  return check.features.filter((f) => missing(f, profile, extensions));
}

function missing(f: string, profile: Profile, extensions: readonly string[] | undefined): boolean {
  const control = !!profile.control || !!profile.embedded;
  if (f === 'control') return !control;
  if (f.startsWith('control:')) return !control || (extensions !== undefined && !extensions.includes(f.slice('control:'.length)));
  if (f === 'sinks') return !profile.features.sinks;
  if (f === 'imap') return !profile.features.imap;
  if (f === 'testEmail') return !profile.features.testEmail;
  if (f === 'oauth') return !profile.features.oauth;
  return profileGap(f, profile) !== undefined;
}

/**
 * Why an `op:` or `decl:` feature is missing from the profile, worded like the checks' own skip
 * reasons: each names the profile field (report/profile-gaps.ts reads it back out of the reason).
 */
export function profileGap(f: string, profile: Profile): string | undefined {
  if (f.startsWith('op:')) {
    const op = f.slice(3);
    return (profile.operations as Record<string, unknown>)[op] ? undefined : `needs the referenced operation "${op}" declared in the profile (operations.${op})`;
  }
  if (f.startsWith('decl:')) {
    const paths = declPaths(f);
    if (paths.some((p) => declared(profile, p))) return undefined;
    return `needs ${paths.join(' or ')} declared in the profile (the spec does not give it; the check holds the target to the declared value)`;
  }
  return undefined;
}

/** The dotted profile paths a `decl:` feature names (one, or its `|` alternatives). */
export function declPaths(f: string): string[] {
  return f.slice('decl:'.length).split('|');
}

/** Whether the profile holds a value at a dotted path ("declarations.analytics.coarsening"). */
export function declared(profile: unknown, path: string): boolean {
  const v = path.split('.').reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), profile);
  return v !== undefined && v !== null;
}

/** How plan names what a feature needs of the profile: "declarations.variantIdPath", "operations.leads.create", "control extension lead-events". */
export function featureField(f: string): string {
  if (f.startsWith('decl:')) return declPaths(f).join(' or ');
  if (f.startsWith('op:')) return `operations.${f.slice(3)}`;
  if (f.startsWith('control:')) return `control extension ${f.slice('control:'.length)}`;
  if (f === 'control') return 'control (the conformance-control API)';
  return `features.${f}`;
}
