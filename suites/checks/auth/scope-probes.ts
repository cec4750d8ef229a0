import type { Depth } from '../../../harness/ground/check.ts';
import { acceptedBy, ENDPOINTS, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';
import { DOMAIN_SCOPES, domainOf, GRANULAR_SCOPES, SCOPE_GROUPS, type Scope } from '../../../harness/ground/spec-model/scopes.ts';
import { grantClauseId } from '../../../harness/ground/spec-model/clauses/part5.ts';

// What SCOPE-GRANT asks (part 5): every route twice, with exactly its own scope (served) and with
// the key its route table most plausibly serves by mistake (refused), so a route that checks no
// scope, checks another one, or also files itself under a neighbouring one fails on one request of
// the two. Pure data: each probe names the clauses its answer holds (one claim a clause).
//   - refused, by route: the neighbouring scopes of NEIGHBOUR_REFUSALS where a route has them; else
//     a write, send or lifecycle route gets all:read (the read wildcard taken for a write), a read
//     its own domain's write-like scope (a write scope taken for the read), else the neighbouring
//     domain's read scope a route table plausibly files it under (NEIGHBOUR_DOMAIN);
//   - beyond a route's own scope: the mailbox reads served to accounts:write (the one group row
//     adding a write scope), and the wildcard rows a per-route table forgets or overreaches:
//     accounts:all served on a mailbox write and refused on a campaigns route, all:all served on the
//     test email, all:read on a usage read; all:all and all:read refused on the API-key routes, which
//     no wildcard covers.
// apikeys:manage routes are asked only refused: the kit cannot make a key holding only that scope.

/** The granular scopes the kit can grant a key (apikeys:manage only from the dashboard). */
export const NARROW = GRANULAR_SCOPES.filter((s) => s !== 'apikeys:manage');

/** The endpoints whose own scope is `scope` (and accept it): the routes the scope's grant is asked on. */
export const ownEndpoints = (scope: Scope) => ENDPOINTS.filter((e) => e.scope === scope && acceptedBy(e).includes(scope));

/** The mailbox reads (part 5's row: accounts:write and all:all among those served). */
export const MAILBOX_READS = ENDPOINTS.filter((e) => e.group === 'mailbox-read');

/**
 * Neighbouring scopes a route table plausibly files a route under as well (email delete with the other
 * write-like email scopes, the Lead Finder routes under the leads domain, the status view and PATCH with
 * the lifecycle routes, the test email with the sending scope, analytics under the campaigns domain).
 */
export const NEIGHBOUR_REFUSALS: readonly (readonly [string, Scope])[] = [
  ['emails.delete', 'emails:send'], ['emails.delete', 'emails:read'], ['leadSearches.list', 'leads:read'], ['leadSearches.get', 'leads:read'],
  // The status view filed with start, pause and resume, lifecycle read as implying write, the test email
  // filed with the sending scope; analytics paths sit under /v1/campaigns.
  ['campaigns.status', 'campaigns:lifecycle'], ['campaigns.update', 'campaigns:lifecycle'], ['campaigns.testEmail', 'emails:send'],
  ['analytics.campaign', 'campaigns:read'], ['analytics.timeseries', 'campaigns:read'], ['analytics.overview', 'campaigns:read'],
  // Referenced reads: the subscription and usage under the accounts word, a mailbox read under usage.
  ['subscription.get', 'accounts:read'], ['usage.all', 'accounts:read'], ['accounts.get', 'usage:read'], ['accounts.oauthStatus', 'usage:read'],
  // The mailbox writes filed by domain (any accounts:* scope).
  ['accounts.create', 'accounts:read'], ['accounts.update', 'accounts:read'], ['accounts.delete', 'accounts:read'], ['accounts.pause', 'accounts:read'],
];

/** A read route's refused scope of its own domain, the write-like first (a write scope serving reads is the plausible slip). */
const WRITE_LIKE = [':write', ':send', ':lifecycle'];

/** Where a read's own domain has no scope it refuses: the neighbouring domain a route table plausibly files the route under. */
const NEIGHBOUR_DOMAIN: Readonly<Record<string, Scope>> = {
  accounts: 'usage:read', // the workspace's own settings and limits sit beside its mailboxes
  metrics: 'campaigns:read', // a campaign's analytics under the campaigns domain
  leadfinder: 'leads:read', // lead discovery under the leads domain
  usage: 'metrics:read', // usage counted beside the metrics
};

const isRead = (e: Endpoint) => acceptedBy(e).includes('all:read');
const refuses = (e: Endpoint, s: Scope) => !acceptedBy(e).includes(s);

/** The key a route without a neighbouring refusal is asked with, refused there. */
export function plausibleKeyOf(e: Endpoint): Scope {
  if (!isRead(e)) return 'all:read';
  const own = (DOMAIN_SCOPES[domainOf(e.scope) as keyof typeof DOMAIN_SCOPES] as readonly Scope[]).filter((s) => refuses(e, s));
  const pick = WRITE_LIKE.flatMap((suffix) => own.filter((s) => s.endsWith(suffix)))[0] ?? NEIGHBOUR_DOMAIN[domainOf(e.scope)];
  if (!pick || !refuses(e, pick)) throw new Error(`SCOPE-GRANT: no refused key for ${e.id}`);
  return pick;
}

export interface ScopeProbe {
  ep: Endpoint;
  /** The one scope the asking key holds. */
  scope: Scope;
  /** Whether the route's row serves the key (else 403 permission_denied is due). */
  served: boolean;
  /** The clauses the answer holds. */
  clauses: readonly string[];
}

const byId = (id: string) => ENDPOINTS.find((e) => e.id === id)!;
const groupClauses = (e: Endpoint) => (e.group ? [SCOPE_GROUPS[e.group].clause] : []);

function ownServed(ep: Endpoint, scope: Scope): ScopeProbe {
  return { ep, scope, served: true, clauses: [grantClauseId(scope), ...(ep.scopeClauses ?? []), ...groupClauses(ep)] };
}

function refused(ep: Endpoint, scope: Scope, extra: readonly string[] = []): ScopeProbe {
  const wildcard = scope === 'all:read' ? ['SCOPE-ALLREAD-NO-WRITE'] : [];
  return { ep, scope, served: false, clauses: [...(ep.scopeClauses ?? []), ...groupClauses(ep), 'SCOPE-REQUIRED', 'SCOPE-403-MISSING', ...wildcard, ...extra] };
}

/** One refusal a route outside apikeys:manage (two where NEIGHBOUR_REFUSALS names two), in route order. */
function routeRefusals(): ScopeProbe[] {
  return ENDPOINTS.filter((e) => e.scope !== 'apikeys:manage').flatMap((e) => {
    const named = NEIGHBOUR_REFUSALS.filter(([op]) => op === e.id).map(([, s]) => s);
    return (named.length ? named : [plausibleKeyOf(e)]).map((s) => refused(e, s));
  });
}

/** The wildcard rows a per-route table plausibly forgets (served) or overreaches (refused). */
function wildcardProbes(): ScopeProbe[] {
  return [
    { ep: byId('accounts.pause'), scope: 'accounts:all', served: true, clauses: ['SCOPE-WILDCARD-ACCOUNTS', 'SCOPE-GROUP-MAILBOX-WRITE'] },
    { ep: byId('campaigns.testEmail'), scope: 'all:all', served: true, clauses: ['SCOPE-ALLALL', 'SCOPE-GROUP-LIFECYCLE'] },
    { ep: byId('workspace.get'), scope: 'all:read', served: true, clauses: ['SCOPE-ALLREAD-READS', 'SCOPE-GROUP-READS'] },
    refused(byId('campaigns.list'), 'accounts:all', ['SCOPE-WILDCARD-DOMAIN-ONLY']),
    refused(byId('apikeys.revoke'), 'all:all', ['SCOPE-APIKEYS-NO-WILDCARD', 'SCOPE-ALLALL']),
    refused(byId('apikeys.list'), 'all:read', ['SCOPE-APIKEYS-NO-WILDCARD']),
  ];
}

/**
 * The probes at a depth. default: every route served to its own scope, the mailbox reads to
 * accounts:write, one refusal a route, the wildcard rows. quick: the same on the routes part 4
 * lists with their scope; of the referenced routes (their scope only implied by part 5's grants)
 * just the neighbouring refusals, the mailbox reads to accounts:write and a scope's first route where
 * it has no listed one (emails:send). smoke: one key a granular scope asked twice, its first route
 * (served) and the first route that refuses it (the first of routeRefusals).
 */
export function grantProbes(depth: Depth): ScopeProbe[] {
  const refusals = routeRefusals();
  if (depth === 'smoke') {
    return NARROW.flatMap((s) => [
      ...ownEndpoints(s).slice(0, 1).map((e) => ownServed(e, s)),
      ...refusals.filter((p) => p.scope === s).slice(0, 1),
    ]);
  }
  const groupServed = MAILBOX_READS.map((ep): ScopeProbe => ({ ep, scope: 'accounts:write', served: true, clauses: ['SCOPE-GROUP-MAILBOX-READ'] }));
  const served = NARROW.flatMap((s) => ownEndpoints(s).map((e) => ownServed(e, s)));
  if (depth !== 'quick') return [...served, ...groupServed, ...refusals, ...wildcardProbes()];
  const listed = (p: ScopeProbe) => !p.ep.referenced;
  const firstOfUnlisted = NARROW.filter((s) => !ownEndpoints(s).some((e) => !e.referenced)).flatMap((s) => served.filter((p) => p.scope === s).slice(0, 1));
  const neighbour = (p: ScopeProbe) => NEIGHBOUR_REFUSALS.some(([op, s]) => op === p.ep.id && s === p.scope);
  return [...served.filter(listed), ...firstOfUnlisted, ...groupServed, ...refusals.filter((p) => listed(p) || neighbour(p)), ...wildcardProbes()];
}
