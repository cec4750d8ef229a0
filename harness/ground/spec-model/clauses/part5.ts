import type { Clause } from './types.ts';
import { GRANULAR_SCOPES } from '../scopes.ts';

// Part 5: authentication, scopes and wildcards.
const GRANTS: Record<string, string> = {
  'campaigns:read': 'read campaigns',
  'campaigns:write': 'create and update campaigns',
  'campaigns:lifecycle': 'start, pause, resume sending; test email',
  'leads:read': 'read leads',
  'leads:write': 'ingest and change campaign leads',
  'emails:read': 'read emails',
  'emails:send': 'send replies and forwards (billable)',
  'emails:write': 'mark read and delete',
  'accounts:read': 'read mailboxes',
  'accounts:write': 'connect and update sending mailboxes',
  'metrics:read': 'campaign and workspace analytics',
  'leadfinder:read': 'Lead Finder searches',
  'usage:read': 'plan usage, subscription, workspace identity',
  'apikeys:manage': 'create, list, revoke API keys',
};

/** SCOPE-GRANT-CAMPAIGNS-READ etc.: one clause per row of the granular scope table. */
export function grantClauseId(scope: string): string {
  return `SCOPE-GRANT-${scope.replace(':', '-').toUpperCase()}`;
}

export const CLAUSES_PART5: readonly Clause[] = [
  { id: 'AUTH-BEARER', section: '5', level: 'MUST', text: 'Every request sends Authorization: Bearer <API_KEY>.' },
  { id: 'AUTH-KEY-IDENTIFIES-WORKSPACE', section: '5', level: 'MUST', text: 'The key identifies the caller and the workspace; paths never contain an organization id.' },
  { id: 'TENANT-ISOLATION', section: '5', level: 'MUST', text: 'The key identifies the workspace: a resource of another workspace is absent to it, so its id gets 404 not_found (never 200, never a 403 that tells it exists), and lists show only the caller\'s workspace.' },
  { id: 'AUTH-401-MISSING', section: '5', level: 'MUST', text: 'A missing key gives 401 unauthenticated.' },
  { id: 'AUTH-401-MALFORMED', section: '5', level: 'MUST', text: 'An invalid key (including an Authorization header that is not a Bearer key) gives 401 unauthenticated.' },
  { id: 'AUTH-401-UNKNOWN', section: '5', level: 'MUST', text: 'An invalid (unknown) key gives 401 unauthenticated.' },
  { id: 'AUTH-401-REVOKED', section: '5', level: 'MUST', text: 'A revoked key gives 401 unauthenticated.' },
  { id: 'SCOPE-REQUIRED', section: '5', level: 'MUST', text: 'Every route requires one granular scope.' },
  { id: 'SCOPE-403-MISSING', section: '5', level: 'MUST', text: 'A key lacking the route\'s scope (and any covering wildcard) gets 403 permission_denied.' },
  { id: 'SCOPE-403-PLAN', section: '5', level: 'MUST', text: '403 is also returned when the plan does not include API access.' },
  { id: 'KEY-SECRET-ONCE', section: '5', level: 'PROFILE', text: 'The full secret of a key is displayed once, at creation; the first key is created in the dashboard (creation through the API: its shape is not shown).' },
  { id: 'KEY-SECRET-NEVER-ECHOED', section: '5', level: 'SHOULD', text: 'Reading of "the full secret of a key is displayed once, at creation": no later answer carries a key\'s secret (the key list, any read made with it, the 401 answers to it once unknown, malformed or revoked).' },
  { id: 'KEY-ROTATE-MANAGE', section: '5', level: 'MUST', text: 'Later keys can be rotated through the API by a key holding apikeys:manage.' },
  ...GRANULAR_SCOPES.map((s): Clause => ({ id: grantClauseId(s), section: '5', level: 'MUST', text: `Scope ${s} grants: ${GRANTS[s]}.` })),
  { id: 'SCOPE-WILDCARD-CAMPAIGNS', section: '5', level: 'MUST', text: 'campaigns:all covers every action in the campaigns domain.' },
  { id: 'SCOPE-WILDCARD-LEADS', section: '5', level: 'MUST', text: 'leads:all covers every action in the leads domain.' },
  { id: 'SCOPE-WILDCARD-EMAILS', section: '5', level: 'MUST', text: 'emails:all covers every action in the emails domain.' },
  { id: 'SCOPE-WILDCARD-ACCOUNTS', section: '5', level: 'MUST', text: 'accounts:all covers every action in the accounts domain.' },
  { id: 'SCOPE-WILDCARD-DOMAIN-ONLY', section: '5', level: 'MUST', text: 'A domain wildcard covers the actions of its own domain only ("every action in that domain").' },
  { id: 'SCOPE-ALLREAD-READS', section: '5', level: 'MUST', text: 'all:read covers every read-only scope in all domains.' },
  { id: 'SCOPE-ALLREAD-NO-WRITE', section: '5', level: 'MUST', text: 'all:read never covers a write, send or lifecycle scope.' },
  { id: 'SCOPE-ALLALL', section: '5', level: 'MUST', text: 'all:all covers everything except apikeys:manage.' },
  { id: 'SCOPE-APIKEYS-NO-WILDCARD', section: '5', level: 'MUST', text: 'apikeys:manage is covered by no wildcard.' },
  { id: 'SCOPE-APIKEYS-DASHBOARD-ONLY', section: '5', level: 'MUST', text: 'apikeys:manage can be granted only from the dashboard (a key created through the API never holds it).' },
  { id: 'SCOPE-APIKEYS-SUBSET', section: '5', level: 'MUST', text: 'A key holding apikeys:manage can create only keys whose scopes are a subset of its own.' },
  { id: 'SCOPE-GROUP-MAILBOX-WRITE', section: '5', level: 'MUST', text: 'Mailbox writes accept accounts:write, accounts:all, all:all.' },
  { id: 'SCOPE-GROUP-MAILBOX-READ', section: '5', level: 'MUST', text: 'Mailbox reads accept accounts:read, accounts:write, accounts:all, all:read, all:all.' },
  { id: 'SCOPE-GROUP-CAMPAIGN-WRITE', section: '5', level: 'MUST', text: 'Campaign writes accept campaigns:write, campaigns:all, all:all.' },
  { id: 'SCOPE-GROUP-LIFECYCLE', section: '5', level: 'MUST', text: 'Lifecycle endpoints accept campaigns:lifecycle, campaigns:all, all:all.' },
  { id: 'SCOPE-GROUP-READS', section: '5', level: 'MUST', text: 'Reads accept the read scope, the domain wildcard, all:read, all:all.' },
  { id: 'SCOPE-GROUP-EMAIL-DELETE', section: '5', level: 'MUST', text: 'Emails delete accepts emails:write, emails:all, all:all.' },
];
