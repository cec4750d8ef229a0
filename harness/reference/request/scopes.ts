// Scopes and wildcards (spec part 5), read independently of harness/ground/spec-model. Pure functions.
import type { MutantSwitch } from '../switches/mutants.ts';

/** Granular scopes per domain. */
export const GRANULAR_SCOPES = [
  'campaigns:read', 'campaigns:write', 'campaigns:lifecycle',
  'leads:read', 'leads:write',
  'emails:read', 'emails:send', 'emails:write',
  'accounts:read', 'accounts:write',
  'metrics:read',
  'leadfinder:read',
  'usage:read',
  'apikeys:manage',
] as const;
export type GranularScope = (typeof GRANULAR_SCOPES)[number];

/** Domains that have a `<domain>:all` wildcard (spec part 5, "Wildcards"). */
export const WILDCARD_DOMAINS = ['campaigns', 'leads', 'emails', 'accounts'] as const;
export const WILDCARD_SCOPES = [...WILDCARD_DOMAINS.map((d) => `${d}:all`), 'all:read', 'all:all'] as const;

export const KNOWN_SCOPES: ReadonlySet<string> = new Set<string>([...GRANULAR_SCOPES, ...WILDCARD_SCOPES]);

const domainOf = (s: string) => s.slice(0, s.indexOf(':'));
const actionOf = (s: string) => s.slice(s.indexOf(':') + 1);

/**
 * One switch per granular scope (mutants scope-grant-*): the scope no longer grants its own
 * routes; wildcards still do. Written out so that each id has its one place.
 */
const OWN_GRANT_REFUSED: Readonly<Record<string, (mutant: MutantSwitch) => boolean>> = {
  'campaigns:read': (mutant) => mutant('scope-grant-campaigns-read-refused'),
  'campaigns:write': (mutant) => mutant('scope-grant-campaigns-write-refused'),
  'campaigns:lifecycle': (mutant) => mutant('scope-grant-campaigns-lifecycle-refused'),
  'leads:read': (mutant) => mutant('scope-grant-leads-read-refused'),
  'leads:write': (mutant) => mutant('scope-grant-leads-write-refused'),
  'emails:read': (mutant) => mutant('scope-grant-emails-read-refused'),
  'emails:send': (mutant) => mutant('scope-grant-emails-send-refused'),
  'emails:write': (mutant) => mutant('scope-grant-emails-write-refused'),
  'accounts:read': (mutant) => mutant('scope-grant-accounts-read-refused'),
  'accounts:write': (mutant) => mutant('scope-grant-accounts-write-refused'),
  'metrics:read': (mutant) => mutant('scope-grant-metrics-read-refused'),
  'leadfinder:read': (mutant) => mutant('scope-grant-leadfinder-read-refused'),
  'usage:read': (mutant) => mutant('scope-grant-usage-read-refused'),
};

/**
 * Does one held scope grant the required granular scope?
 * Rules: exact match; `apikeys:manage` only by itself (no wildcard); `all:all` everything else;
 * `all:read` every `*:read` scope; `<domain>:all` every scope of that domain.
 */
export function grants(held: string, required: string, mutant: MutantSwitch = () => false): boolean {
  if (held === required) return !(OWN_GRANT_REFUSED[required]?.(mutant) ?? false);
  if (required === 'apikeys:manage') {
    if (mutant('scope-all-all-grants-apikeys')) return held === 'all:all';
    return false;
  }
  if (held === 'all:all') return true;
  if (held === 'all:read') {
    if (mutant('scope-all-read-grants-write')) return true;
    if (actionOf(required) !== 'read') return false;
    if (mutant('scope-all-read-misses-reads')) return !['metrics', 'leadfinder', 'usage'].includes(domainOf(required));
    return true;
  }
  if (held === 'campaigns:write' && required === 'campaigns:lifecycle' && mutant('scope-write-grants-lifecycle')) return true;
  if (actionOf(required) === 'read' && held === `${domainOf(required)}:write` && writeGrantsRead(domainOf(required), mutant)) return true;
  if (actionOf(held) === 'all' && (WILDCARD_DOMAINS as readonly string[]).includes(domainOf(held))) {
    if (mutant('scope-domain-wildcard-ignored')) return false;
    if (domainOf(held) === domainOf(required)) return true;
    if (held === 'accounts:all' && domainOf(required) === 'campaigns' && mutant('scope-wildcard-cross-domain')) return true;
    return false;
  }
  return false;
}

/** A domain whose write scope also grants its reads, under that domain's mutant (part 5 grants reads only to mailbox writers). */
function writeGrantsRead(domain: string, mutant: MutantSwitch): boolean {
  if (domain === 'campaigns') return mutant('scope-campaigns-write-grants-read');
  if (domain === 'leads') return mutant('scope-leads-write-grants-read');
  if (domain === 'emails') return mutant('scope-emails-write-grants-read');
  return false;
}

/** Is `required` (a granular scope) covered by any of the key's scopes? */
export function covers(keyScopes: readonly string[], required: string, mutant?: MutantSwitch): boolean {
  return keyScopes.some((held) => grants(held, required, mutant));
}

/**
 * Does the key pass a route that requires `required`? Scope coverage, plus the reference's
 * reading of part 5's group rows: "mailbox writes accept accounts:write, accounts:all, all:all;
 * mailbox reads add accounts:read and all:read" — so whatever may write mailboxes may also read
 * them (the routes requiring accounts:read are exactly the mailbox reads).
 */
export function routeAccepts(keyScopes: readonly string[], required: string, mutant: MutantSwitch = () => false): boolean {
  // The mutant: the route gate expands all:all from a list that predates the metrics and Lead Finder scopes (key creation is unaffected).
  const held = mutant('scope-all-all-misses-newer') && ['metrics', 'leadfinder'].includes(domainOf(required)) ? keyScopes.filter((s) => s !== 'all:all') : keyScopes;
  if (covers(held, required, mutant)) return true;
  const impliedBy = MAILBOX_READ_ALSO[required];
  if (!impliedBy || mutant('scope-mailbox-read-refuses-write')) return false;
  return covers(held, impliedBy, mutant);
}

/** Required scope -> the scope whose holders are also served (mailbox reads accept mailbox writers). */
const MAILBOX_READ_ALSO: Readonly<Record<string, string>> = { 'accounts:read': 'accounts:write' };

/** The granular scopes a scope (granular or wildcard) stands for. */
export function expand(scope: string): GranularScope[] {
  return GRANULAR_SCOPES.filter((g) => grants(scope, g));
}

/**
 * The subset rule for key creation: every granular scope that the requested scopes stand for
 * must be covered by the creator's own scopes (so `apikeys:manage` only when the creator holds
 * it, `all:all` only when the creator holds everything but apikeys:manage, and so on).
 */
export function isSubset(requested: readonly string[], own: readonly string[], mutant: MutantSwitch = () => false): boolean {
  const within = (r: string) => expand(r).every((g) => covers(own, g, mutant));
  // The mutant takes a request when any one of its scopes is within the creator's (`some` for `every`).
  return mutant('apikeys-subset-any') ? requested.some(within) : requested.every(within);
}
