import type { Clause } from './types.ts';

// Part 4.4 "Leads": PATCH, DELETE, bulk mutate and cross-campaign search. Ids: LEAD-.
const M = (id: string, text: string): Clause => ({ id, section: '4.4', text, level: 'MUST' });
const S = (id: string, text: string): Clause => ({ id, section: '4.4', text, level: 'SHOULD' });
const P = (id: string, text: string): Clause => ({ id, section: '4.4', text, level: 'PROFILE' });

export const CLAUSES_PART4_LEADS: readonly Clause[] = [
  // PATCH /v1/campaigns/{cid}/leads/{leadId}
  M('LEAD-PATCH-SCOPE', 'PATCH /v1/campaigns/{cid}/leads/{leadId} requires scope leads:write.'),
  M('LEAD-PATCH-PARTIAL', 'PATCH lead: partial body (fields not supplied keep their values).'),
  M('LEAD-PATCH-FIELDS', 'PATCH lead accepts `email`, `firstName`, `lastName`, `companyName`, `jobTitle`, `website`, `linkedinProfile`, `location`, `tags` (array), `customFields`, `customFieldLabels`, `customFieldTypes` (objects), and `status`.'),
  M('LEAD-PATCH-TAGS-ARRAY', 'PATCH lead: `tags` is an array (a non-array is rejected).'),
  M('LEAD-PATCH-CUSTOM-OBJECTS', 'PATCH lead: `customFields`, `customFieldLabels`, `customFieldTypes` are objects (a non-object is rejected).'),
  M('LEAD-PATCH-STATUS-RULES', 'PATCH lead `status`: rules in 3.3.'),
  M('LEAD-PATCH-RETURNS-LEAD', 'PATCH lead answers the lead (as updated).'),
  S('LEAD-PATCH-WRONG-CAMPAIGN', 'Reading: a lead id addressed under a campaign that does not hold it answers 404.'),
  // DELETE /v1/campaigns/{cid}/leads/{leadId}
  M('LEAD-DELETE-SCOPE', 'DELETE /v1/campaigns/{cid}/leads/{leadId} requires scope leads:write.'),
  M('LEAD-DELETE-ANSWER', 'DELETE lead answers `{ success: true, retentionDays: integer }`.'),
  // POST /v1/campaigns/{cid}/leads/mutate
  M('LEAD-MUTATE-SCOPE', 'POST /v1/campaigns/{cid}/leads/mutate requires scope leads:write.'),
  M('LEAD-MUTATE-ANSWER', 'Mutate answers `{ operation, affected, failed, errors: [string] }`.'),
  M('LEAD-MUTATE-OPERATION-ENUM', 'Mutate body: an operation (enum `set_status`, `add_tags`, `remove_tags`, `delete`); any other operation is rejected.'),
  M('LEAD-MUTATE-IDS-UUIDS', 'Mutate body: `ids` (array of lead uuids).'),
  M('LEAD-MUTATE-IDS-MAX1000', 'Mutate body: `ids` max 1000 (1000 accepted, 1001 rejected).'),
  M('LEAD-MUTATE-IDS-REQUIRED', 'Mutate body: `ids` required for every operation except a filter-based delete.'),
  M('LEAD-MUTATE-FILTER-FIELDS', 'Mutate body: `filter` (object with `search` string and `tags` array).'),
  M('LEAD-MUTATE-FILTER-DELETE-ONLY', 'Mutate body: `filter` only for `delete` (with another operation it is rejected).'),
  M('LEAD-MUTATE-FILTER-NONEMPTY', 'Mutate body: `filter` must hold at least one condition, an empty filter is rejected.'),
  M('LEAD-MUTATE-ALL-BOOLEAN', 'Mutate body: `all` (boolean).'),
  M('LEAD-MUTATE-ALL-DELETE-ONLY', 'Mutate body: `all` only for `delete` (with another operation it is rejected).'),
  M('LEAD-MUTATE-ALL-DELETES-EVERY', 'Mutate body: `all` true deletes every lead of the campaign.'),
  M('LEAD-MUTATE-ALL-EXCLUSIVE', 'Mutate body: `all` is mutually exclusive with `ids` and `filter` (together they are rejected).'),
  M('LEAD-MUTATE-EMPTY-FILTER-NEVER-ALL', 'An empty filter never deletes all (no lead is deleted).'),
  M('LEAD-MUTATE-STATUS-REQUIRED', 'Mutate body: a status, required for `set_status`.'),
  M('LEAD-MUTATE-STATUS-VALUES', 'Mutate `set_status`: user-settable values in 3.3 (a platform-managed status is rejected).'),
  M('LEAD-MUTATE-TAGS-REQUIRED', 'Mutate body: `tags` (array of string), required for `add_tags` and `remove_tags`.'),
  M('LEAD-MUTATE-SET-STATUS-EFFECT', 'Mutate `set_status` sets the status of the leads named by `ids` (3.3 conditions apply per lead).'),
  M('LEAD-MUTATE-ADD-TAGS-EFFECT', 'Mutate `add_tags` adds the tags to the leads named by `ids`.'),
  M('LEAD-MUTATE-REMOVE-TAGS-EFFECT', 'Mutate `remove_tags` removes the tags from the leads named by `ids`.'),
  M('LEAD-MUTATE-DELETE-EFFECT', 'Mutate `delete` deletes the leads named by `ids`, or matched by `filter`, or all with `all` true.'),
  S('LEAD-MUTATE-ADD-TAGS-NO-DUP', 'Reading: adding a tag a lead already has does not duplicate it.'),
  S('LEAD-MUTATE-FILTER-MATCH', 'Reading: a filter-based delete deletes exactly the leads of the campaign that match the filter (`search` a case-insensitive fragment of email or name; `tags` at least one of them), and no other.'),
  M('LEAD-MUTATE-OPERATION-ECHO', 'The response field `operation` carries the operation applied.'),
  M('LEAD-MUTATE-ERRORS', '`errors` carries messages such as a count of leads not found in the campaign.'),
  S('LEAD-MUTATE-COUNTS', 'Reading: for an id-based operation, affected + failed equals the number of ids; ids not in the campaign count as failed and are reported in `errors`.'),
  S('LEAD-MUTATE-OTHER-CAMPAIGN', 'Reading: a lead id of another campaign is not changed by a mutate of this campaign.'),
  P('LEAD-MUTATE-NAMES-PROFILE', 'Request field names for the operation and the status: not shown (profile).'),
  // GET /v1/leads/search
  M('LEAD-SEARCH-SCOPE', 'GET /v1/leads/search requires scope leads:read.'),
  M('LEAD-SEARCH-PARAM', 'GET /v1/leads/search: one query parameter with an email or fragment.'),
  M('LEAD-SEARCH-FRAGMENT', 'GET /v1/leads/search: a fragment of an email matches it.'),
  M('LEAD-SEARCH-CASE-INSENSITIVE', 'GET /v1/leads/search: case-insensitive.'),
  M('LEAD-SEARCH-ANSWER', 'GET /v1/leads/search answers `{ data: [lead search hit] }`.'),
  M('LEAD-SEARCH-MAX10', 'GET /v1/leads/search: up to 10 matches.'),
  M('LEAD-SEARCH-ONE-ROW-PER-CAMPAIGN', 'GET /v1/leads/search: one row per campaign containing the email.'),
  M('LEAD-SEARCH-CROSS-CAMPAIGN', 'Search across campaigns by email (1): a lead present in several campaigns appears once for each of them.'),
  M('LEAD-SEARCH-WORKSPACE', 'The key identifies the workspace (part 5): the search only finds leads of the caller\'s workspace.'),
  S('LEAD-SEARCH-NO-MATCH', 'Reading: a query that matches nothing answers 200 with `data: []`.'),
  P('LEAD-SEARCH-ROWS-PROFILE', 'GET /v1/leads/search: when a fragment matches several leads of one campaign, whether "one row per campaign containing the email" gives one row for that campaign or one per matching lead is not shown (profile: declarations.leadSearchRows; either reading when undeclared).'),
  P('LEAD-SEARCH-PARAM-PROFILE', 'Name of the search query parameter of GET /v1/leads/search: not shown (profile).'),
];
