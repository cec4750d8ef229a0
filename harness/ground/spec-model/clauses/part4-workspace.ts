import type { Clause } from './types.ts';

// Part 4.7 (workspace, usage, API keys) and 2.9 rules that those endpoints carry.
export const CLAUSES_PART4_WORKSPACE: readonly Clause[] = [
  { id: 'WS-GET', section: '4.7', level: 'MUST', text: 'GET /v1/workspace (usage:read) returns the workspace identity: organizationId (uuid), name (string), timezone (IANA string).' },
  { id: 'WS-KEY-WORKSPACE', section: '4.7', level: 'MUST', text: 'The workspace returned is the one the key belongs to (two workspaces see their own identity).' },
  { id: 'USAGE-GET', section: '4.7', level: 'MUST', text: 'GET /v1/usage/{limitType} (usage:read) returns the usage of one limit: used, limit, remaining, isUnlimited, usagePercentage, limitType.' },
  { id: 'USAGE-ALL-TYPES', section: '4.7', level: 'MUST', text: 'limitType is one of the six values of 2.9; each of them is served.' },
  { id: 'USAGE-UNKNOWN-TYPE', section: '4.7', level: 'MUST', text: 'A limitType outside the six values is not a usage limit: the request is refused (not 2xx).' },
  { id: 'USAGE-LIMITTYPE-ECHO', section: '2.9', level: 'MUST', text: 'The usage answer carries the limitType asked for.' },
  { id: 'USAGE-PERCENTAGE', section: '2.9', level: 'MUST', text: 'usagePercentage is used / limit x 100.' },
  { id: 'USAGE-UNLIMITED', section: '2.9', level: 'MUST', text: 'An unlimited limit has limit null, remaining null, isUnlimited true and usagePercentage 0.' },
  { id: 'USAGE-REMAINING', section: '2.9', level: 'SHOULD', text: 'remaining is what is left of the limit: limit - used (not below 0).' },
  { id: 'USAGE-MONTHLY-EMAILS-SENDS', section: '2.9', level: 'SHOULD', text: 'Reading: `monthly_emails` used grows by one for each campaign email sent (test emails excepted, 4.3).' },
  { id: 'USAGE-ALL-PROFILE', section: '4.7', level: 'PROFILE', text: 'GET /v1/usage and GET /v1/account/subscription are referenced (usage:read); their shapes: not shown.' },
  { id: 'KEY-REVOKE', section: '4.7', level: 'MUST', text: 'DELETE /v1/api-keys/{id} (apikeys:manage) answers { success: true }.' },
  { id: 'KEY-REVOKE-IMMEDIATE', section: '4.7', level: 'MUST', text: 'Revocation is immediate: the next request with the key gets 401.' },
  { id: 'KEY-REVOKE-FINAL', section: '4.7', level: 'MUST', text: 'Revocation cannot be undone: the key stays refused as time passes.' },
  { id: 'KEY-LIST-CREATE-PROFILE', section: '4.7', level: 'PROFILE', text: 'Listing and creating API keys are referenced (apikeys:manage); their shapes: not shown.' },
];
