// Part 5: granular scopes, wildcards, and which credential covers which required scope.
// Pure data and one pure function; tested on its own (scopes.test.ts).

export const DOMAIN_SCOPES = {
  campaigns: ['campaigns:read', 'campaigns:write', 'campaigns:lifecycle'],
  leads: ['leads:read', 'leads:write'],
  emails: ['emails:read', 'emails:send', 'emails:write'],
  accounts: ['accounts:read', 'accounts:write'],
  metrics: ['metrics:read'],
  leadfinder: ['leadfinder:read'],
  usage: ['usage:read'],
  apikeys: ['apikeys:manage'],
} as const;

export type GranularScope = (typeof DOMAIN_SCOPES)[keyof typeof DOMAIN_SCOPES][number];
export const GRANULAR_SCOPES: readonly GranularScope[] = Object.values(DOMAIN_SCOPES).flat();

/** "campaigns:all, leads:all, emails:all, accounts:all: every action in that domain". */
export const DOMAIN_WILDCARDS = ['campaigns:all', 'leads:all', 'emails:all', 'accounts:all'] as const;
export const WILDCARDS = [...DOMAIN_WILDCARDS, 'all:read', 'all:all'] as const;
export type Wildcard = (typeof WILDCARDS)[number];
export type Scope = GranularScope | Wildcard;
export const ALL_SCOPES: readonly Scope[] = [...GRANULAR_SCOPES, ...WILDCARDS];

/** Read-only scopes (all:read covers exactly these): the ":read" scopes of every domain. */
export const READ_SCOPES: readonly GranularScope[] = GRANULAR_SCOPES.filter((s) => s.endsWith(':read'));

export function domainOf(scope: string): string {
  return scope.slice(0, scope.indexOf(':'));
}

/**
 * Does a key holding `keyScopes` satisfy an endpoint that requires `required`?
 * - the granular scope itself;
 * - a domain wildcard of the same domain (campaigns, leads, emails, accounts);
 * - all:read for read-only scopes, never write, send or lifecycle;
 * - all:all for everything except apikeys:manage;
 * - apikeys:manage is covered by no wildcard.
 */
export function covers(keyScopes: readonly string[], required: GranularScope): boolean {
  if (keyScopes.includes(required)) return true;
  if (required === 'apikeys:manage') return false;
  if (keyScopes.includes('all:all')) return true;
  if (keyScopes.includes('all:read') && READ_SCOPES.includes(required)) return true;
  const wildcard = `${domainOf(required)}:all`;
  return (DOMAIN_WILDCARDS as readonly string[]).includes(wildcard) && keyScopes.includes(wildcard);
}

/**
 * The endpoint-group rows of part 5 ("Scopes accepted per endpoint group"), as written:
 * "mailbox writes accept accounts:write, accounts:all, all:all; mailbox reads add accounts:read
 * and all:read; campaign writes accept ...; reads accept the read scope, the domain wildcard,
 * all:read, all:all; emails delete accepts ...". A group's list is the whole accepted set: every
 * other credential gets 403 (rule 4). `<scope>` is the endpoint's own read scope and
 * `<domain>:all` its domain wildcard, where the domain has one.
 */
export const SCOPE_GROUPS = {
  'mailbox-write': { clause: 'SCOPE-GROUP-MAILBOX-WRITE', accepts: ['accounts:write', 'accounts:all', 'all:all'] },
  // "add": the mailbox-write set plus two read credentials (so accounts:write reads mailboxes).
  'mailbox-read': { clause: 'SCOPE-GROUP-MAILBOX-READ', accepts: ['accounts:write', 'accounts:all', 'all:all', 'accounts:read', 'all:read'] },
  'campaign-write': { clause: 'SCOPE-GROUP-CAMPAIGN-WRITE', accepts: ['campaigns:write', 'campaigns:all', 'all:all'] },
  lifecycle: { clause: 'SCOPE-GROUP-LIFECYCLE', accepts: ['campaigns:lifecycle', 'campaigns:all', 'all:all'] },
  reads: { clause: 'SCOPE-GROUP-READS', accepts: ['<scope>', '<domain>:all', 'all:read', 'all:all'] },
  'email-delete': { clause: 'SCOPE-GROUP-EMAIL-DELETE', accepts: ['emails:write', 'emails:all', 'all:all'] },
} as const;
export type ScopeGroup = keyof typeof SCOPE_GROUPS;

/**
 * The credentials (one scope each) an endpoint accepts: its group's row of part 5 when it has
 * one, otherwise its granular scope and every wildcard covering it (rule 4, 4.1).
 */
export function acceptedCredentials(required: GranularScope, group?: ScopeGroup): Scope[] {
  if (!group) return ALL_SCOPES.filter((c) => covers([c], required));
  const domainWildcard = `${domainOf(required)}:all`;
  return SCOPE_GROUPS[group].accepts
    .map((a) => a.replace('<scope>', required).replace('<domain>:all', domainWildcard))
    .filter((a): a is Scope => (ALL_SCOPES as readonly string[]).includes(a));
}

/** Is `requested` a subset of `held` under the coverage rules (the API-key subset rule)? */
export function isSubset(requested: readonly string[], held: readonly string[]): boolean {
  return requested.every((s) => {
    if (held.includes(s)) return true;
    if ((GRANULAR_SCOPES as readonly string[]).includes(s)) return covers(held, s as GranularScope);
    // A wildcard is within `held` when every granular scope it covers is covered by `held`.
    const granted = GRANULAR_SCOPES.filter((g) => covers([s], g));
    return granted.length > 0 && granted.every((g) => covers(held, g));
  });
}
