import { acceptedCredentials, type GranularScope, type Scope, type ScopeGroup } from './scopes.ts';
import type { ReferencedOperationId } from './referenced-operations.ts';

// The endpoint catalog: every endpoint of part 4 and every referenced operation.
// Checks are generated from this table (auth, scope matrix, envelope, idempotency, pagination).

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint {
  /** Stable logical id, e.g. "campaigns.start". */
  id: string;
  method: Method;
  /** Path template with {params}. For a referenced operation: taken from the profile. */
  path?: string;
  /** A referenced operation ("its shape: not shown"): method and path come from the profile. */
  referenced?: ReferencedOperationId;
  /** The granular scope the route requires (part 4 tables and part 5 grants). */
  scope: GranularScope;
  /** Its row of part 5 "Scopes accepted per endpoint group" (absent: the general rule 4 applies). */
  group?: ScopeGroup;
  /** The clauses stating this endpoint's scope (proven by the scope matrix with narrow keys). */
  scopeClauses?: string[];
  /** Extra scope needed in a case (POST /v1/campaigns with launch: true needs campaigns:lifecycle). */
  alsoScope?: { when: string; scope: GranularScope };
  section: string;
  /** Success status stated by the spec (only POST /v1/accounts: 201); otherwise any 2xx. */
  successStatus?: number;
  /** Changes state: the Idempotency-Key rules of 4.1 apply. */
  mutating: boolean;
  /** A list endpoint: cursor pagination of 4.1 applies. */
  list: boolean;
  /** Name of the response schema in ./schemas/ (SCHEMAS) (absent for referenced shapes). */
  response?: string;
}

const E = (e: Endpoint) => e;

export const ENDPOINTS: readonly Endpoint[] = [
  // 4.2 Mailboxes
  E({ id: 'accounts.create', method: 'POST', path: '/v1/accounts', scope: 'accounts:write', group: 'mailbox-write', scopeClauses: ['ACCT-CREATE-SCOPE'], section: '4.2', successStatus: 201, mutating: true, list: false, response: 'AccountsCreateResponse' }),
  E({ id: 'accounts.update', method: 'PATCH', path: '/v1/accounts/{id}', scope: 'accounts:write', group: 'mailbox-write', scopeClauses: ['ACCT-PATCH-SCOPE'], section: '4.2', mutating: true, list: false, response: 'Mailbox' }),
  E({ id: 'accounts.delete', method: 'DELETE', path: '/v1/accounts/{id}', scope: 'accounts:write', group: 'mailbox-write', scopeClauses: ['ACCT-DELETE-SCOPE'], section: '4.2', mutating: true, list: false, response: 'DeletedResponse' }),
  E({ id: 'accounts.pause', method: 'POST', path: '/v1/accounts/{id}/pause', scope: 'accounts:write', group: 'mailbox-write', scopeClauses: ['ACCT-PAUSE-SCOPE'], section: '4.2', mutating: true, list: false, response: 'Mailbox' }),
  E({ id: 'accounts.verification', method: 'GET', path: '/v1/accounts/{id}/verification', scope: 'accounts:read', group: 'mailbox-read', scopeClauses: ['ACCT-VERIF-SCOPE'], section: '4.2', mutating: false, list: false, response: 'VerificationResult' }),
  E({ id: 'accounts.oauthInit', method: 'POST', path: '/v1/accounts/oauth/{provider}/init', scope: 'accounts:write', group: 'mailbox-write', scopeClauses: ['ACCT-OAUTH-SCOPE'], section: '4.2', mutating: true, list: false, response: 'OAuthInitResponse' }),
  // 4.3 Campaigns
  E({ id: 'campaigns.create', method: 'POST', path: '/v1/campaigns', scope: 'campaigns:write', group: 'campaign-write', scopeClauses: ['CAMP-CREATE-SCOPE'], alsoScope: { when: 'launch is true', scope: 'campaigns:lifecycle' }, section: '4.3', mutating: true, list: false, response: 'CampaignCreateResponse' }),
  E({ id: 'campaigns.list', method: 'GET', path: '/v1/campaigns', scope: 'campaigns:read', group: 'reads', scopeClauses: ['CAMP-LIST-SCOPE'], section: '4.3', mutating: false, list: true, response: 'CampaignListItem' }),
  E({ id: 'campaigns.update', method: 'PATCH', path: '/v1/campaigns/{id}', scope: 'campaigns:write', group: 'campaign-write', scopeClauses: ['CAMP-PATCH-SCOPE'], section: '4.3', mutating: true, list: false, response: 'Campaign' }),
  E({ id: 'campaigns.start', method: 'POST', path: '/v1/campaigns/{id}/start', scope: 'campaigns:lifecycle', group: 'lifecycle', scopeClauses: ['CAMP-START-SCOPE', 'STATE-CAMP-START-SCOPE'], section: '4.3', mutating: true, list: false, response: 'CampaignLifecycleResponse' }),
  E({ id: 'campaigns.resume', method: 'POST', path: '/v1/campaigns/{id}/resume', scope: 'campaigns:lifecycle', group: 'lifecycle', scopeClauses: ['CAMP-RESUME-SCOPE'], section: '4.3', mutating: true, list: false, response: 'CampaignLifecycleResponse' }),
  E({ id: 'campaigns.status', method: 'GET', path: '/v1/campaigns/{id}/status', scope: 'campaigns:read', group: 'reads', scopeClauses: ['CAMP-STATUS-SCOPE'], section: '4.3', mutating: false, list: false, response: 'CampaignStatusView' }),
  E({ id: 'campaigns.testEmail', method: 'POST', path: '/v1/campaigns/{id}/test-email', scope: 'campaigns:lifecycle', group: 'lifecycle', scopeClauses: ['CAMP-TEST-SCOPE'], section: '4.3', mutating: true, list: false, response: 'TestEmailResponse' }),
  // 4.4 Leads
  E({ id: 'leads.update', method: 'PATCH', path: '/v1/campaigns/{cid}/leads/{leadId}', scope: 'leads:write', scopeClauses: ['LEAD-PATCH-SCOPE'], section: '4.4', mutating: true, list: false, response: 'Lead' }),
  E({ id: 'leads.delete', method: 'DELETE', path: '/v1/campaigns/{cid}/leads/{leadId}', scope: 'leads:write', scopeClauses: ['LEAD-DELETE-SCOPE'], section: '4.4', mutating: true, list: false, response: 'LeadDeleteResponse' }),
  E({ id: 'leads.mutate', method: 'POST', path: '/v1/campaigns/{cid}/leads/mutate', scope: 'leads:write', scopeClauses: ['LEAD-MUTATE-SCOPE'], section: '4.4', mutating: true, list: false, response: 'LeadMutateResponse' }),
  E({ id: 'leads.search', method: 'GET', path: '/v1/leads/search', scope: 'leads:read', group: 'reads', scopeClauses: ['LEAD-SEARCH-SCOPE'], section: '4.4', mutating: false, list: false, response: 'LeadSearchResponse' }),
  // 4.5 Emails
  E({ id: 'emails.get', method: 'GET', path: '/v1/emails/{id}', scope: 'emails:read', group: 'reads', scopeClauses: ['EMAIL-GET-SCOPE'], section: '4.5', mutating: false, list: false, response: 'Email' }),
  E({ id: 'emails.delete', method: 'DELETE', path: '/v1/emails/{id}', scope: 'emails:write', group: 'email-delete', scopeClauses: ['EMAIL-DELETE-SCOPE'], section: '4.5', mutating: true, list: false, response: 'DeletedResponse' }),
  // 4.6 Analytics
  E({ id: 'analytics.campaign', method: 'GET', path: '/v1/campaigns/{id}/analytics', scope: 'metrics:read', group: 'reads', scopeClauses: ['ANLT-CAMP-SCOPE'], section: '4.6', mutating: false, list: false, response: 'CampaignAnalytics' }),
  E({ id: 'analytics.timeseries', method: 'GET', path: '/v1/campaigns/{id}/analytics/timeseries', scope: 'metrics:read', group: 'reads', scopeClauses: ['ANLT-TS-SCOPE'], section: '4.6', mutating: false, list: false, response: 'CampaignTimeseries' }),
  E({ id: 'analytics.overview', method: 'GET', path: '/v1/campaigns/analytics/overview', scope: 'metrics:read', group: 'reads', scopeClauses: ['ANLT-OV-SCOPE'], section: '4.6', mutating: false, list: false, response: 'AnalyticsOverview' }),
  // 4.7 Lead Finder, workspace, API keys
  E({ id: 'leadSearches.list', method: 'GET', path: '/v1/lead-searches', scope: 'leadfinder:read', group: 'reads', scopeClauses: ['LF-LIST-SCOPE'], section: '4.7', mutating: false, list: true, response: 'LeadSearchListItem' }),
  E({ id: 'leadSearches.get', method: 'GET', path: '/v1/lead-searches/{id}', scope: 'leadfinder:read', group: 'reads', scopeClauses: ['LF-GET-SCOPE'], section: '4.7', mutating: false, list: false, response: 'LeadSearch' }),
  E({ id: 'workspace.get', method: 'GET', path: '/v1/workspace', scope: 'usage:read', group: 'reads', section: '4.7', mutating: false, list: false, response: 'Workspace' }),
  E({ id: 'usage.get', method: 'GET', path: '/v1/usage/{limitType}', scope: 'usage:read', group: 'reads', section: '4.7', mutating: false, list: false, response: 'Usage' }),
  E({ id: 'apikeys.revoke', method: 'DELETE', path: '/v1/api-keys/{id}', scope: 'apikeys:manage', section: '4.7', mutating: true, list: false, response: 'SuccessResponse' }),
  // Referenced operations (4.7 last paragraph, 4.2): shapes not shown; method and path from the profile.
  E({ id: 'apikeys.list', method: 'GET', referenced: 'apikeys.list', scope: 'apikeys:manage', section: '4.7', mutating: false, list: true }),
  E({ id: 'apikeys.create', method: 'POST', referenced: 'apikeys.create', scope: 'apikeys:manage', section: '4.7', mutating: true, list: false }),
  E({ id: 'accounts.list', method: 'GET', referenced: 'accounts.list', scope: 'accounts:read', group: 'mailbox-read', section: '4.7', mutating: false, list: true }),
  E({ id: 'accounts.get', method: 'GET', referenced: 'accounts.get', scope: 'accounts:read', group: 'mailbox-read', section: '4.7', mutating: false, list: false }),
  E({ id: 'accounts.oauthStatus', method: 'GET', referenced: 'accounts.oauthStatus', scope: 'accounts:read', group: 'mailbox-read', section: '4.2', mutating: false, list: false }),
  E({ id: 'accounts.resume', method: 'POST', referenced: 'accounts.resume', scope: 'accounts:write', group: 'mailbox-write', section: '4.7', mutating: true, list: false }),
  E({ id: 'usage.all', method: 'GET', referenced: 'usage.all', scope: 'usage:read', group: 'reads', section: '4.7', mutating: false, list: false }),
  E({ id: 'subscription.get', method: 'GET', referenced: 'subscription.get', scope: 'usage:read', group: 'reads', section: '4.7', mutating: false, list: false }),
  E({ id: 'leads.list', method: 'GET', referenced: 'leads.list', scope: 'leads:read', group: 'reads', section: '4.7', mutating: false, list: true }),
  E({ id: 'leads.create', method: 'POST', referenced: 'leads.create', scope: 'leads:write', section: '4.7', mutating: true, list: false }),
  E({ id: 'campaigns.pause', method: 'POST', referenced: 'campaigns.pause', scope: 'campaigns:lifecycle', group: 'lifecycle', section: '4.7', mutating: true, list: false }),
  E({ id: 'emails.reply', method: 'POST', referenced: 'emails.reply', scope: 'emails:send', section: '4.7', mutating: true, list: false }),
  E({ id: 'emails.forward', method: 'POST', referenced: 'emails.forward', scope: 'emails:send', section: '4.7', mutating: true, list: false }),
  E({ id: 'emails.markRead', method: 'POST', referenced: 'emails.markRead', scope: 'emails:write', section: '4.7', mutating: true, list: false }),
];

export function endpoint(id: string): Endpoint {
  const e = ENDPOINTS.find((x) => x.id === id);
  if (!e) throw new Error(`unknown endpoint id "${id}"`);
  return e;
}

/** "METHOD /path" as shown in check ids and reports (the catalog id for a referenced op). */
export function label(e: Endpoint): string {
  return e.path ? `${e.method} ${e.path}` : `${e.method} <${e.referenced}>`;
}

/** The credentials (one scope each) this endpoint serves; every other one gets 403 (part 5). */
export function acceptedBy(e: Endpoint): Scope[] {
  return acceptedCredentials(e.scope, e.group);
}
