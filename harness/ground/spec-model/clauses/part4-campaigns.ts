import type { Clause } from './types.ts';

// Part 4.3 "Campaigns": scope, request rule and response shape of every endpoint, the test
// email rules. Ids: CAMP-, CAMP-STATUS- (status view endpoint), CAMP-TEST- (test email).
const M = (id: string, text: string): Clause => ({ id, section: '4.3', text, level: 'MUST' });
const S = (id: string, text: string): Clause => ({ id, section: '4.3', text, level: 'SHOULD' });
const P = (id: string, text: string): Clause => ({ id, section: '4.3', text, level: 'PROFILE' });

export const CLAUSES_PART4_CAMPAIGNS: readonly Clause[] = [
  // POST /v1/campaigns
  M('CAMP-CREATE-SCOPE', 'POST /v1/campaigns requires scope campaigns:write.'),
  M('CAMP-CREATE-LAUNCH-SCOPE', 'POST /v1/campaigns requires campaigns:lifecycle as well when `launch` is true (a key with campaigns:write alone gets 403).'),
  M('CAMP-CREATE-NO-LAUNCH-SCOPE', 'The scope of POST /v1/campaigns is campaigns:write, plus campaigns:lifecycle only when `launch` is true: without `launch` true, campaigns:write alone suffices.'),
  M('CAMP-CREATE-BODY', 'POST /v1/campaigns body `{ name, schedule, settings, sequence, accounts, leads, launch }`.'),
  M('CAMP-CREATE-LEADS-STRINGS', 'POST /v1/campaigns: `leads` is an array of email address strings.'),
  M('CAMP-CREATE-LEADS-OPTIONAL', 'POST /v1/campaigns: `leads` is optional (a body without it is accepted).'),
  M('CAMP-CREATE-LAUNCH-BOOLEAN', 'POST /v1/campaigns: `launch` is a boolean.'),
  M('CAMP-CREATE-NAME-EMPTY', 'POST /v1/campaigns: `name` must not be empty (2.5); an empty name is rejected (400).'),
  M('CAMP-CREATE-ANSWER', 'POST /v1/campaigns answers `{ campaign: campaign, launched: boolean, leads: { submitted, created, duplicates, invalid }, launchError: string }`.'),
  M('CAMP-CREATE-LEADS-COUNTS', 'POST /v1/campaigns answer: `leads: { submitted, created, duplicates, invalid }`.'),
  S('CAMP-CREATE-LEADS-SUM', 'Reading: `leads.submitted` is the number of strings sent and equals created + duplicates + invalid.'),
  S('CAMP-CREATE-LEADS-DUPLICATES', 'Reading: an address given twice is created once and counted in `duplicates`.'),
  S('CAMP-CREATE-LEADS-INVALID', 'Reading: a string that is not an email address is counted in `invalid` and does not fail the call.'),
  S('CAMP-CREATE-LEADSCOUNT', 'Reading: the created campaign\'s `metrics.leadsCount` equals `leads.created`.'),
  M('CAMP-CREATE-LAUNCHERROR', 'POST /v1/campaigns answer: `launchError` says why it could not launch.'),
  S('CAMP-CREATE-ECHO', 'Reading: the created campaign carries the given name, schedule, settings, sequence and accounts.'),
  // GET /v1/campaigns
  M('CAMP-LIST-SCOPE', 'GET /v1/campaigns requires scope campaigns:read.'),
  M('CAMP-LIST-ANSWER', 'GET /v1/campaigns answers `{ data: [campaign list item], meta }`.'),
  M('CAMP-LIST-CURSOR', 'GET /v1/campaigns query: cursor.'),
  M('CAMP-LIST-PAGESIZE', 'GET /v1/campaigns query: page size 1 to 100 (example 50).'),
  M('CAMP-LIST-STATUS-FILTER', 'GET /v1/campaigns query: status filter (one campaign status): only campaigns in that status are listed.'),
  M('CAMP-LIST-TAG-FILTER', 'GET /v1/campaigns query: tag ids (comma-separated; campaigns with at least one of them).'),
  S('CAMP-LIST-TAG-PARAM', 'The tag filter on mailboxes is `tags` (reading: the campaign tag filter has the same name unless the profile says otherwise).'),
  P('CAMP-LIST-PARAMS-PROFILE', 'Names of the list query parameters for the cursor, the page size and the status filter: not shown (profile).'),
  M('ACCT-LIST-TAGS-PARAM', 'The tag filter on mailboxes is `tags`.'),
  // PATCH /v1/campaigns/{id}
  M('CAMP-PATCH-SCOPE', 'PATCH /v1/campaigns/{id} requires scope campaigns:write.'),
  M('CAMP-PATCH-FIELDS', 'PATCH /v1/campaigns/{id}: partial: `name`, `schedule`, `settings`, `sequence`, `accounts`.'),
  M('CAMP-PATCH-PARTIAL', 'PATCH /v1/campaigns/{id}: only supplied sections change.'),
  M('CAMP-PATCH-ACCOUNTS-REPLACE', 'PATCH /v1/campaigns/{id}: `accounts`, when present, replaces the existing set.'),
  M('CAMP-PATCH-SEQUENCE-REPLACE', 'PATCH /v1/campaigns/{id}: `sequence`, when present, replaces the existing set.'),
  M('CAMP-PATCH-FLAT', 'PATCH /v1/campaigns/{id} answers the campaign (flat object, not wrapped).'),
  M('CAMP-PATCH-NAME-EMPTY', 'PATCH /v1/campaigns/{id}: `name` must not be empty (2.5); an empty name is rejected (400).'),
  // POST /v1/campaigns/{id}/start
  M('CAMP-START-SCOPE', 'POST /v1/campaigns/{id}/start requires scope campaigns:lifecycle.'),
  M('CAMP-START-ANSWER', 'POST /v1/campaigns/{id}/start answers `{ id, status, success }`.'),
  M('CAMP-START-400', 'POST /v1/campaigns/{id}/start: 400 when nothing to send.'),
  // POST /v1/campaigns/{id}/resume
  M('CAMP-RESUME-SCOPE', 'POST /v1/campaigns/{id}/resume requires scope campaigns:lifecycle.'),
  M('CAMP-RESUME-ANSWER', 'POST /v1/campaigns/{id}/resume answers `{ id, status, success }`.'),
  M('CAMP-RESUME-400', 'POST /v1/campaigns/{id}/resume: 400 when the workspace has no mailbox.'),
  // GET /v1/campaigns/{id}/status
  M('CAMP-STATUS-SCOPE', 'GET /v1/campaigns/{id}/status requires scope campaigns:read.'),
  M('CAMP-STATUS-ANSWER', 'GET /v1/campaigns/{id}/status answers the campaign status view.'),
  S('CAMP-STATUS-CONSISTENT', 'Reading: the status view\'s `status` and `metrics` equal the campaign\'s read at the same time.'),
  // POST /v1/campaigns/{id}/test-email
  M('CAMP-TEST-SCOPE', 'POST /v1/campaigns/{id}/test-email requires scope campaigns:lifecycle.'),
  M('CAMP-TEST-BODY', 'POST /v1/campaigns/{id}/test-email body `{ variantId, accountId, recipient, personalization, leadId }`.'),
  M('CAMP-TEST-ANSWER', 'POST /v1/campaigns/{id}/test-email answers `{ sent: boolean, messageId: string }`.'),
  M('CAMP-TEST-VARIANTID', 'Test email `variantId` (uuid): the sequence step variant to render.'),
  M('CAMP-TEST-ACCOUNTID', 'Test email `accountId` (uuid): a mailbox of the workspace.'),
  M('CAMP-TEST-ACCOUNT-DAILY-LIMIT', 'Test email `accountId`: a mailbox within its daily limit (a mailbox at its limit is refused).'),
  M('CAMP-TEST-RECIPIENT-SINGLE', 'Test email `recipient` (string): a single address.'),
  M('CAMP-TEST-BLACKLIST-ADDRESS', 'Test email `recipient`: refused if the address is on the blacklist.'),
  M('CAMP-TEST-BLACKLIST-DOMAIN', 'Test email `recipient`: refused if its domain is on the blacklist.'),
  M('CAMP-TEST-PERSONALIZATION-ENUM', 'Test email `personalization`: enum `dummy`, `lead`.'),
  M('CAMP-TEST-DUMMY', '`dummy` fills placeholders.'),
  M('CAMP-TEST-LEAD', '`lead` uses the lead named by `leadId`.'),
  M('CAMP-TEST-LEAD-REQUIRES-LEADID', '`lead` without `leadId` is rejected; `leadId` (uuid) is required when personalization is `lead`.'),
  M('CAMP-TEST-LEADID-OMITTED', '`leadId` must be omitted otherwise (given with `dummy` it is rejected).'),
  M('CAMP-TEST-REAL-MAILBOX', 'A test email goes from a real mailbox (it is delivered through that mailbox\'s SMTP server to the recipient).'),
  M('CAMP-TEST-COUNTS-DAILY', 'A test email counts toward that mailbox\'s daily limit.'),
  M('CAMP-TEST-NOT-MONTHLY', 'A test email does not count toward the monthly quota (`monthly_emails` usage is unchanged).'),
  M('CAMP-TEST-503', 'POST /v1/campaigns/{id}/test-email may also answer 503 `upstream_unavailable`.'),
  S('CAMP-TEST-MESSAGEID', 'Reading: the answer\'s `messageId` is the Message-ID of the email delivered.'),
  S('CAMP-TEST-OTHER-WORKSPACE', 'Reading: an `accountId` or `leadId` of another workspace is refused (400 or 404), and nothing is sent.'),
  M('CAMP-OTHER-WORKSPACE-404', 'A campaign id of another workspace is a resource absent from the caller\'s workspace (part 5: the key identifies the workspace; part 7: 404): 404 on every campaign endpoint, never 2xx, never 403.'),
];
