// THE ROUTE TABLE of the reference target: one line per endpoint of spec part 4 and per
// referenced operation of docs/ARCHITECTURE.md. method | path | required granular scope
// (wildcards per part 5 are resolved by scopes.ts) | handler (module.function) | op id.
//
// Conventions (the reference's DEFAULT choices where the spec says "not shown"; see ARCHITECTURE.md;
// each is switchable in choices.ts, and app.ts moves referenced routes to the chosen paths):
// - `{id}`, `{cid}`, `{leadId}` must be uuids (400 validation_failed otherwise, after auth/scope);
//   a uuid that names nothing in the caller's workspace -> 404 not_found.
// - success: 201 for creates (POST /v1/accounts, /v1/campaigns, /v1/api-keys,
//   /v1/campaigns/{id}/leads), 200 otherwise.
// - lists: query `cursor`, `limit` (1..100, default 50), filters `status`, `tags` (comma-separated
//   tag ids); answer `{ data, meta: { hasMore, nextCursor } }`, newest first; nextCursor is a
//   string when hasMore is true and null when hasMore is false.
// - business-rule refusals: 400 `failed_precondition` (type invalid_request_error).
// - Idempotency-Key applies to every POST/PATCH/PUT/DELETE route (app.ts).
// - Any other path or method (including /, /v2/..., trailing slashes) -> 404 envelope.
import type { Handler } from '../request/context.ts';
import * as apikeys from '../resources/apikeys.ts';
import * as workspace from '../resources/workspace.ts';
import * as leadSearches from '../resources/lead-searches.ts';
import * as accounts from '../resources/accounts.ts';
import * as campaigns from '../resources/campaigns.ts';
import { testEmail } from '../resources/test-emails.ts';
import * as leads from '../resources/leads.ts';
import * as emails from '../resources/emails.ts';
import * as analytics from '../resources/analytics.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteDef {
  method: Method;
  path: string;
  scope: string;
  handler: Handler;
  op: string;
}

/** Path params that must be uuids. */
export const UUID_PARAMS: ReadonlySet<string> = new Set(['id', 'cid', 'leadId']);

const r = (method: Method, path: string, scope: string, handler: Handler, op: string): RouteDef => ({ method, path, scope, handler, op });

export const ROUTES: readonly RouteDef[] = [
  // 4.2 Mailboxes (+ referenced: list, get, resume, oauth status)
  r('POST',   '/v1/accounts',                              'accounts:write',      accounts.create,        'accounts.create'),
  r('GET',    '/v1/accounts',                              'accounts:read',       accounts.list,          'accounts.list'),
  r('GET',    '/v1/accounts/{id}',                         'accounts:read',       accounts.get,           'accounts.get'),
  r('PATCH',  '/v1/accounts/{id}',                         'accounts:write',      accounts.patch,         'accounts.update'),
  r('DELETE', '/v1/accounts/{id}',                         'accounts:write',      accounts.remove,        'accounts.delete'),
  r('POST',   '/v1/accounts/{id}/pause',                   'accounts:write',      accounts.pause,         'accounts.pause'),
  r('POST',   '/v1/accounts/{id}/resume',                  'accounts:write',      accounts.resume,        'accounts.resume'),
  r('GET',    '/v1/accounts/{id}/verification',            'accounts:read',       accounts.verification,  'accounts.verification'),
  r('POST',   '/v1/accounts/oauth/{provider}/init',        'accounts:write',      accounts.oauthInit,     'accounts.oauthInit'),
  r('GET',    '/v1/accounts/oauth/{provider}/status',      'accounts:read',       accounts.oauthStatus,   'accounts.oauthStatus'),
  // 4.3 Campaigns (+ referenced: pause)
  r('POST',   '/v1/campaigns',                             'campaigns:write',     campaigns.create,       'campaigns.create'), // + campaigns:lifecycle when launch is true
  r('GET',    '/v1/campaigns',                             'campaigns:read',      campaigns.list,         'campaigns.list'),
  r('PATCH',  '/v1/campaigns/{id}',                        'campaigns:write',     campaigns.patch,        'campaigns.update'),
  r('POST',   '/v1/campaigns/{id}/start',                  'campaigns:lifecycle', campaigns.start,        'campaigns.start'),
  r('POST',   '/v1/campaigns/{id}/pause',                  'campaigns:lifecycle', campaigns.pause,        'campaigns.pause'),
  r('POST',   '/v1/campaigns/{id}/resume',                 'campaigns:lifecycle', campaigns.resume,       'campaigns.resume'),
  r('GET',    '/v1/campaigns/{id}/status',                 'campaigns:read',      campaigns.status,       'campaigns.status'),
  r('POST',   '/v1/campaigns/{id}/test-email',             'campaigns:lifecycle', testEmail,              'campaigns.testEmail'),
  // 4.4 Leads (+ referenced: list, create)
  r('GET',    '/v1/campaigns/{id}/leads',                  'leads:read',          leads.list,             'leads.list'),
  r('POST',   '/v1/campaigns/{id}/leads',                  'leads:write',         leads.create,           'leads.create'),
  r('PATCH',  '/v1/campaigns/{cid}/leads/{leadId}',        'leads:write',         leads.patch,            'leads.update'),
  r('DELETE', '/v1/campaigns/{cid}/leads/{leadId}',        'leads:write',         leads.remove,           'leads.delete'),
  r('POST',   '/v1/campaigns/{cid}/leads/mutate',          'leads:write',         leads.mutate,           'leads.mutate'),
  r('GET',    '/v1/leads/search',                          'leads:read',          leads.search,           'leads.search'), // query `email`
  // 4.5 Emails (+ referenced: reply, forward, mark read)
  r('GET',    '/v1/emails',                                'emails:read',         emails.list,            'emails.list'),
  r('GET',    '/v1/emails/{id}',                           'emails:read',         emails.get,             'emails.get'),
  r('DELETE', '/v1/emails/{id}',                           'emails:write',        emails.remove,          'emails.delete'),
  r('POST',   '/v1/emails/{id}/reply',                     'emails:send',         emails.reply,           'emails.reply'),
  r('POST',   '/v1/emails/{id}/forward',                   'emails:send',         emails.forward,         'emails.forward'),
  r('POST',   '/v1/emails/{id}/read',                      'emails:write',        emails.markRead,        'emails.markRead'),
  // 4.6 Analytics (query `startDate`, `endDate`, `excludeOutOfOffice`, `breakdown`, `interval`)
  r('GET',    '/v1/campaigns/{id}/analytics',              'metrics:read',        analytics.campaign,     'analytics.campaign'),
  r('GET',    '/v1/campaigns/{id}/analytics/timeseries',   'metrics:read',        analytics.timeseries,   'analytics.timeseries'),
  r('GET',    '/v1/campaigns/analytics/overview',          'metrics:read',        analytics.overview,     'analytics.overview'),
  // 4.7 Lead Finder, workspace, usage, subscription, API keys
  r('GET',    '/v1/lead-searches',                         'leadfinder:read',     leadSearches.list,      'leadSearches.list'),
  r('GET',    '/v1/lead-searches/{id}',                    'leadfinder:read',     leadSearches.get,       'leadSearches.get'),
  r('GET',    '/v1/workspace',                             'usage:read',          workspace.get,          'workspace.get'),
  r('GET',    '/v1/usage',                                 'usage:read',          workspace.usageAll,     'usage.all'),
  r('GET',    '/v1/usage/{limitType}',                     'usage:read',          workspace.usageOne,     'usage.get'),
  r('GET',    '/v1/account/subscription',                  'usage:read',          workspace.subscription, 'subscription.get'),
  r('GET',    '/v1/api-keys',                              'apikeys:manage',      apikeys.list,           'apikeys.list'),
  r('POST',   '/v1/api-keys',                              'apikeys:manage',      apikeys.create,         'apikeys.create'),
  r('DELETE', '/v1/api-keys/{id}',                         'apikeys:manage',      apikeys.revoke,         'apikeys.revoke'),
];
