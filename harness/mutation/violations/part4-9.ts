import type { ViolationCatalog } from './types.ts';

// Plausible violations of the MUST and PROFILE clauses of sections 4.1, 4.4 to 4.7 and 5 to 9 (see types.ts).
export const VIOLATIONS_PART4_9: ViolationCatalog = {
  // 4.1 MUST: Request and response bodies are JSON.
  "CONV-JSON-BODIES": [
    { what: "Successful answers carry their JSON labelled Content-Type text/plain.", mutants: ["conv-answers-text-plain"] },
  ],
  // 4.1 PROFILE: Success status codes other than 201 for POST /v1/accounts: not shown.
  "CONV-SUCCESS-STATUS": [
    { what: "POST /v1/campaigns/{id}/start answers 202 although the profile declares 200.", mutants: ["conv-start-status-undeclared"] },
  ],
  // 4.1 MUST: Scope requirements are listed per endpoint; any wildcard covering the granular scope is also accepted (part 5).
  "CONV-WILDCARD-ACCEPTED": [
    { what: "Domain wildcards (campaigns:all etc.) grant nothing.", mutants: ["scope-domain-wildcard-ignored"] },
    { what: "all:read is not accepted for metrics:read, leadfinder:read and usage:read.", mutants: ["scope-all-read-misses-reads"] },
    { what: "A call authorised only through a wildcard answers 500 api_error instead of being served.", mutants: ["scope-wildcard-500"] },
    { what: "A call authorised only through a wildcard answers 404 not_found (the route is hidden) instead of being served.", mutants: ["scope-wildcard-404"] },
    { what: "The route table forgets accounts:all on one route (POST /v1/accounts/{id}/pause answers it 403).", mutants: ["scope-route-forgets-domain-wildcard"] },
    { what: "The route table forgets all:all on one route (a lifecycle route lists its granular scope and campaigns:all only).", gap: "named by a self-audit of unaudited clauses: SCOPE-MATRIX/all:all runs at default but asks one route per accepted set (15 requests), and SCOPE-ALLALL/not-apikeys-manage one route per granular scope; a route forgetting all:all elsewhere is seen only by checks using the workspace key, which do not claim the clause. To close: SCOPE-MATRIX/all:all asks every route outside apikeys:manage from default on (wildcardRoutes), 38 routes on the reference profile, about +24 requests, with a mutant of its own" },
  ],
  // 4.1 MUST: Optional header Idempotency-Key (string, max 255 chars) on state-changing endpoints.
  "IDEM-MAX-255": [
    { what: "the 255-character bound enforced on POST /v1/campaigns only (a per-route header validator): another route takes a longer key.", mutants: ["idem-bound-campaign-create-only"] },
    { what: "long keys truncated in storage: two distinct keys alike in their first characters are one key.", mutants: ["idem-key-truncated"] },
    { what: "Keys longer than 255 characters are accepted.", mutants: ["idem-long-key-accepted"] },
    { what: "A key of exactly 255 characters is refused: the bound is read as exclusive.", mutants: ["idem-255-refused"] },
  ],
  // 4.1 MUST: A retry with the same Idempotency-Key replays the original response.
  "IDEM-REPLAY": [
    { what: "Replays answer 200 instead of the original status.", mutants: ["idem-replay-status-200"] },
  ],
  // 4.1 MUST: A replayed request does not take effect again (the original response is replayed, nothing new is created).
  "IDEM-REPLAY-NO-EFFECT": [
    { what: "Idempotency-Key is ignored: every retry executes again.", mutants: ["idem-ignored"] },
  ],
  // 4.1 MUST: The same Idempotency-Key with a different body gives 422 idempotency_key_reused.
  "IDEM-REUSED-422": [
    { what: "A different body with a used key replays the first response instead of 422.", mutants: ["idem-reuse-replays"] },
    { what: "Keys kept for POST only (a layer copied from APIs that document idempotency for POST): a PATCH with a used key and another body runs again instead of 422.", mutants: ["idem-post-only"] },
  ],
  // 4.1 MUST: The same Idempotency-Key while the first request is still processing gives 409 conflict.
  "IDEM-INFLIGHT-409": [
    { what: "No in-flight lock: concurrent requests with one key all execute.", mutants: ["idem-no-inflight-lock"] },
    { what: "A duplicate that arrives while the first request runs is held until it finishes, then answered as a replay (no 409).", mutants: ["idem-inflight-waits"] },
  ],
  // 4.1 MUST: Concurrent requests with one Idempotency-Key take effect once: the others get a replay of the original response or 409 conflict.
  "IDEM-CONCURRENT-ONE-EFFECT": [
    { what: "No in-flight lock: concurrent requests with one key all execute.", mutants: ["idem-no-inflight-lock"] },
  ],
  // 4.1 MUST: A retry replays the original response to its own caller: the same Idempotency-Key sent from another workspace is a request of that workspace (the key 
  "IDEM-WORKSPACE-SCOPED": [
    { what: "Idempotency keys are global: another workspace using the same key gets the first workspace's response (or 422).", mutants: ["idem-cross-workspace"] },
  ],
  // 4.1 MUST: List endpoints use cursor pagination and return { data: [...], meta: { hasMore: boolean, nextCursor: string } }.
  "PAGE-SHAPE": [
    { what: "GET /v1/campaigns answers its items under `campaigns`.", mutants: ["camp-answer-list-items"] },
    { what: "GET /v1/lead-searches answers its items under `searches`.", mutants: ["lf-answer-list-items"] },
    { what: "A referenced list (mailboxes, leads, API keys) answered whole, without meta and without pages.", mutants: ["page-accounts-list-whole", "page-leads-list-whole", "page-apikeys-list-whole"] },
  ],
  // 4.1 MUST: List endpoints return items newest first.
  "PAGE-NEWEST-FIRST": [
    { what: "Lists are ordered oldest first.", mutants: ["page-oldest-first"] },
  ],
  // 4.1 MUST: List endpoints are stable under concurrent changes: a walk returns each item that exists throughout it exactly once.
  "PAGE-STABLE": [
    { what: "The cursor is an offset: inserts and deletes during a walk repeat or skip items.", mutants: ["page-offset-cursor"] },
    { what: "The campaign list alone pages by offset (each list its own query): a campaign created during a walk repeats an item.", mutants: ["camp-list-offset-cursor"] },
    { what: "The mailbox, lead or API key list alone pages by offset.", gap: "named by a self-audit of unaudited clauses: PAGE-STABLE on those lists runs only at full; a mutant a list (each killed only by that list's PAGE-STABLE, about 12 requests at default each) would close it" },
  ],
  // 4.1 MUST: The next-page cursor is opaque and is taken from meta.nextCursor; omit it for the first page.
  "PAGE-CURSOR-FROM-META": [
    { what: "The cursor is inclusive: the last item of a page is repeated first on the next page.", mutants: ["page-cursor-inclusive"] },
  ],
  // 4.1 MUST: meta.hasMore tells whether another page exists; when true, meta.nextCursor leads to it; a walk ends with hasMore false.
  "PAGE-HASMORE-CONSISTENT": [
    { what: "nextCursor is null even when hasMore is true.", mutants: ["page-nextcursor-null"] },
    { what: "hasMore is always true, even on the last page.", mutants: ["page-hasmore-always-true"] },
    { what: "hasMore is read from a full page (no look-ahead): a last page that is exactly full says hasMore true.", mutants: ["page-hasmore-by-full-page"] },
    { what: "The campaign list alone (its own query) reads hasMore from a full page: its exactly full last page says hasMore true and its cursor leads to an empty page.", mutants: ["camp-list-hasmore-by-full-page"] },
    { what: "A referenced list alone (mailboxes, leads, API keys) reads hasMore from a full page: its exactly full last page says hasMore true and its cursor leads to an empty page.", gap: "named by a self-audit of unaudited clauses: at default PAGE-WALK runs on the Lead Finder list only (each list is its own query), and CAMP-LIST/filters' walks hold the campaign list to it; a mutant per referenced list, killed only by that list's PAGE-WALK, would make the planner take it (as PAGE-STABLE on the campaign list)" },
  ],
  // 4.4 MUST: PATCH /v1/campaigns/{cid}/leads/{leadId} requires scope leads:write.
  "LEAD-PATCH-SCOPE": [
    { what: "The scope check of leads.update is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-update"] },
    { what: "PATCH of a lead also demands campaigns:write (a key of exactly leads:write is refused).", mutants: ["scope-lead-patch-also-campaigns"] },
  ],
  // 4.4 MUST: PATCH lead: partial body (fields not supplied keep their values).
  "LEAD-PATCH-PARTIAL": [
    { what: "PATCH replaces the lead: profile fields and tags the body does not name are cleared.", mutants: ["lead-patch-replaces"] },
  ],
  // 4.4 MUST: PATCH lead accepts `email`, `firstName`, `lastName`, `companyName`, `jobTitle`, `website`, `linkedinProfile`, `location`, `tags` (array), `customField
  "LEAD-PATCH-FIELDS": [
    { what: "A PATCH of a lead's email (not yet contacted) answers 200 but keeps the old address.", mutants: ["lead-patch-email-ignored"] },
    { what: "One accepted field (location) is answered 2xx but not stored.", mutants: ["lead-patch-location-dropped"] },
  ],
  // 4.4 MUST: PATCH lead: `tags` is an array (a non-array is rejected).
  "LEAD-PATCH-TAGS-ARRAY": [
    { what: "leads.update coerces tags (to-array) and accepts the request.", mutants: ["lead-in-tags-coerced"] },
  ],
  // 4.4 MUST: PATCH lead: `customFields`, `customFieldLabels`, `customFieldTypes` are objects (a non-object is rejected).
  "LEAD-PATCH-CUSTOM-OBJECTS": [
    { what: "leads.update drops a customFields that is not an object and accepts the request.", mutants: ["lead-in-customfields-coerced"] },
    { what: "An array is taken where an object is required (typeof x === 'object'): customFields [\"a\"] accepted.", mutants: ["lead-patch-custom-array-taken"] },
  ],
  // 4.4 MUST: PATCH lead `status`: rules in 3.3.
  "LEAD-PATCH-STATUS-RULES": [
    { what: "The replied statuses are allowed once the user set lead_lost: a lead that never replied, set lead_lost, takes lead_replied_interested.", mutants: ["lead-replied-status-after-lost"] },
    { what: "The replied statuses are tied to \"contacted\" instead of \"replied\": a lead sent a step that never answered takes lead_replied_interested.", mutants: ["lead-replied-status-after-contact"] },
    { what: "PATCH accepts any status string (email_sent, scheduled...).", mutants: ["lead-platform-status-accepted"] },
    { what: "Replied-only statuses are set on leads that never replied.", mutants: ["lead-replied-status-before-reply"] },
  ],
  // 4.4 MUST: PATCH lead answers the lead (as updated).
  "LEAD-PATCH-RETURNS-LEAD": [
    { what: "PATCH of a lead answers it wrapped as `{ lead: {...} }`.", mutants: ["lead-answer-patch-wrapped"] },
    { what: "A PATCH carrying status (its own state-machine handler) answers { id, status } instead of the lead.", mutants: ["lead-patch-status-bare"] },
  ],
  // 4.4 MUST: DELETE /v1/campaigns/{cid}/leads/{leadId} requires scope leads:write.
  "LEAD-DELETE-SCOPE": [
    { what: "The scope check of leads.delete is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-delete"] },
  ],
  // 4.4 MUST: DELETE lead answers `{ success: true, retentionDays: integer }`.
  "LEAD-DELETE-ANSWER": [
    { what: "DELETE of a lead answers { success: true } without retentionDays.", mutants: ["lead-delete-no-retention"] },
  ],
  // 4.4 MUST: POST /v1/campaigns/{cid}/leads/mutate requires scope leads:write.
  "LEAD-MUTATE-SCOPE": [
    { what: "The scope check of leads.mutate is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-mutate"] },
  ],
  // 4.4 MUST: Mutate answers `{ operation, affected, failed, errors: [string] }`.
  "LEAD-MUTATE-ANSWER": [
    { what: "Ids not found in the campaign are neither counted in failed nor reported in errors.", mutants: ["lead-mutate-missing-not-reported"] },
    { what: "Mutate answers no `affected`.", mutants: ["lead-answer-mutate-no-affected"] },
    { what: "A delete (by ids, filter or all: a row-count path) answers { operation, affected } without failed and errors.", mutants: ["lead-mutate-delete-bare"] },
  ],
  // 4.4 MUST: Mutate body: an operation (enum `set_status`, `add_tags`, `remove_tags`, `delete`); any other operation is rejected.
  "LEAD-MUTATE-OPERATION-ENUM": [
    { what: "An unknown operation is answered 200 with nothing affected instead of 400.", mutants: ["lead-mutate-unknown-operation-accepted"] },
    { what: "The operation is matched case-insensitively (a lenient enum binding): DELETE is taken.", mutants: ["lead-mutate-operation-case-insensitive"] },
    { what: "The operation bound loosely (.NET's JsonStringEnumConverter): \"DELETE\", \"Set_Status\" or an integer index taken as an operation.", mutants: ["lead-mutate-operation-enum-loose"] },
  ],
  // 4.4 MUST: Mutate body: `ids` (array of lead uuids).
  "LEAD-MUTATE-IDS-UUIDS": [
    { what: "leads.mutate coerces ids (uuids-only) and accepts the request.", mutants: ["lead-mutate-ids-coerced"] },
  ],
  // 4.4 MUST: Mutate body: `ids` max 1000 (1000 accepted, 1001 rejected).
  "LEAD-MUTATE-IDS-MAX1000": [
    { what: "1001 ids are accepted.", mutants: ["lead-mutate-ids-1001"] },
  ],
  // 4.4 MUST: Mutate body: `ids` required for every operation except a filter-based delete.
  "LEAD-MUTATE-IDS-REQUIRED": [
    { what: "set_status without ids sets the status of every lead of the campaign (the other operations still require ids).", mutants: ["lead-mutate-set-status-ids-optional"] },
    { what: "leads.mutate coerces ids (default-one) and accepts the request.", mutants: ["lead-mutate-ids-defaulted"] },
  ],
  // 4.4 MUST: Mutate body: `filter` (object with `search` string and `tags` array).
  "LEAD-MUTATE-FILTER-FIELDS": [
    { what: "A delete filter holding tags is refused (400): only search is known.", mutants: ["lead-mutate-filter-tags-refused"] },
  ],
  // 4.4 MUST: Mutate body: `filter` only for `delete` (with another operation it is rejected).
  "LEAD-MUTATE-FILTER-DELETE-ONLY": [
    { what: "A filter sent with set_status, add_tags or remove_tags is ignored instead of refused: the operation applies to its ids.", mutants: ["lead-mutate-filter-any-operation"] },
    { what: "A filter is accepted with the tag operations (bulk tagging by search) while set_status refuses it.", mutants: ["lead-mutate-filter-tags-accepted"] },
  ],
  // 4.4 MUST: Mutate body: `filter` must hold at least one condition, an empty filter is rejected.
  "LEAD-MUTATE-FILTER-NONEMPTY": [
    { what: "delete with filter {} is accepted and deletes every lead of the campaign.", mutants: ["lead-mutate-empty-filter-deletes-all"] },
  ],
  // 4.4 MUST: Mutate body: `all` (boolean).
  "LEAD-MUTATE-ALL-BOOLEAN": [
    { what: "leads.mutate coerces all (to-boolean) and accepts the request.", mutants: ["lead-mutate-all-coerced"] },
  ],
  // 4.4 MUST: Mutate body: `all` only for `delete` (with another operation it is rejected).
  "LEAD-MUTATE-ALL-DELETE-ONLY": [
    { what: "`all` sent with set_status, add_tags or remove_tags is ignored instead of refused: the operation applies to its ids.", mutants: ["lead-mutate-all-any-operation"] },
    { what: "all is accepted with set_status (a status for every lead) while the tag operations refuse it.", mutants: ["lead-mutate-all-set-status-accepted"] },
  ],
  // 4.4 MUST: Mutate body: `all` true deletes every lead of the campaign.
  "LEAD-MUTATE-ALL-DELETES-EVERY": [
    { what: "all: true is read like an empty filter: 2xx, nothing deleted.", mutants: ["lead-mutate-all-ignored"] },
  ],
  // 4.4 MUST: Mutate body: `all` is mutually exclusive with `ids` and `filter` (together they are rejected).
  "LEAD-MUTATE-ALL-EXCLUSIVE": [
    { what: "delete with all: true and ids is accepted.", mutants: ["lead-mutate-all-with-ids"] },
  ],
  // 4.4 MUST: An empty filter never deletes all (no lead is deleted).
  "LEAD-MUTATE-EMPTY-FILTER-NEVER-ALL": [
    { what: "filter { search: \"\" } (or whitespace): the key's presence counted as a condition that matches every lead.", mutants: ["lead-mutate-empty-search-matches-all"] },
    { what: "delete with filter {} is accepted and deletes every lead of the campaign.", mutants: ["lead-mutate-empty-filter-deletes-all"] },
  ],
  // 4.4 MUST: Mutate body: a status, required for `set_status`.
  "LEAD-MUTATE-STATUS-REQUIRED": [
    { what: "`set_status` without a status is answered 200 with nothing affected instead of 400.", mutants: ["lead-mutate-status-optional"] },
  ],
  // 4.4 MUST: Mutate `set_status`: user-settable values in 3.3 (a platform-managed status is rejected).
  "LEAD-MUTATE-STATUS-VALUES": [
    { what: "set_status sets a platform-managed status (email_sent) on the leads named.", mutants: ["lead-mutate-platform-status-accepted"] },
    { what: "mutate set_status refuses blacklisted (bulk status changes take the lead statuses only).", mutants: ["lead-mutate-blacklisted-refused"] },
  ],
  // 4.4 MUST: Mutate body: `tags` (array of string), required for `add_tags` and `remove_tags`.
  "LEAD-MUTATE-TAGS-REQUIRED": [
    { what: "leads.mutate coerces tags (default-one) and accepts the request.", mutants: ["lead-mutate-tags-defaulted"] },
  ],
  // 4.4 MUST: Mutate `set_status` sets the status of the leads named by `ids` (3.3 conditions apply per lead).
  "LEAD-MUTATE-SET-STATUS-EFFECT": [
    { what: "set_status answers the leads as affected and changes nothing.", mutants: ["lead-mutate-set-status-no-effect"] },
    { what: "set_status refuses every lead_replied_* status and lead_converted, even for a lead that replied (only PATCH sets them).", mutants: ["lead-mutate-replied-statuses-refused"] },
  ],
  // 4.4 MUST: Mutate `add_tags` adds the tags to the leads named by `ids`.
  "LEAD-MUTATE-ADD-TAGS-EFFECT": [
    { what: "add_tags answers the leads as affected and changes nothing.", mutants: ["lead-mutate-add-tags-no-effect"] },
  ],
  // 4.4 MUST: Mutate `remove_tags` removes the tags from the leads named by `ids`.
  "LEAD-MUTATE-REMOVE-TAGS-EFFECT": [
    { what: "remove_tags answers the leads as affected and changes nothing.", mutants: ["lead-mutate-remove-tags-no-effect"] },
    { what: "remove_tags removes only the first tag it is given (one array_remove).", mutants: ["lead-mutate-remove-tags-first-only"] },
  ],
  // 4.4 MUST: Mutate `delete` deletes the leads named by `ids`, or matched by `filter`, or all with `all` true.
  "LEAD-MUTATE-DELETE-EFFECT": [
    { what: "delete answers the leads as affected and deletes nothing.", mutants: ["lead-mutate-delete-no-effect"] },
    { what: "all: true is read like an empty filter: 2xx, nothing deleted.", mutants: ["lead-mutate-all-ignored"] },
    { what: "delete by filter answers 2xx and deletes nothing, even the lead whose whole address is searched or the only lead carrying the tag.", mutants: ["lead-mutate-filter-deletes-nothing"] },
  ],
  // 4.4 MUST: The response field `operation` carries the operation applied.
  "LEAD-MUTATE-OPERATION-ECHO": [
    { what: "The mutate answer says operation `mutate` whatever was applied.", mutants: ["lead-mutate-operation-not-echoed"] },
    { what: "a delete of every lead answers operation `delete_all` (another code path).", mutants: ["lead-mutate-delete-echo-other"] },
  ],
  // 4.4 MUST: `errors` carries messages such as a count of leads not found in the campaign.
  "LEAD-MUTATE-ERRORS": [
    { what: "Ids not found in the campaign are neither counted in failed nor reported in errors.", mutants: ["lead-mutate-missing-not-reported"] },
    { what: "A delete by ids skips the ids not in the campaign without a word (errors empty); set_status reports them.", mutants: ["lead-mutate-delete-missing-not-reported"] },
  ],
  // 4.4 PROFILE: Request field names for the operation and the status: not shown (profile).
  "LEAD-MUTATE-NAMES-PROFILE": [
    { what: "Mutate reads its operation from another field than the profile declares.", mutants: ["lead-mutate-names-undeclared"] },
  ],
  // 4.4 MUST: GET /v1/leads/search requires scope leads:read.
  "LEAD-SEARCH-SCOPE": [
    { what: "The scope check of leads.search is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-search"] },
    { what: "leads:write is accepted where leads:read is required.", mutants: ["scope-leads-write-grants-read"] },
  ],
  // 4.4 MUST: GET /v1/leads/search: one query parameter with an email or fragment.
  "LEAD-SEARCH-PARAM": [
    { what: "The search ignores its query and answers the newest leads of the workspace.", mutants: ["lead-search-query-ignored"] },
  ],
  // 4.4 MUST: GET /v1/leads/search: a fragment of an email matches it.
  "LEAD-SEARCH-FRAGMENT": [
    { what: "Only whole addresses match: a fragment finds nothing.", mutants: ["lead-search-exact-only"] },
  ],
  // 4.4 MUST: GET /v1/leads/search: case-insensitive.
  "LEAD-SEARCH-CASE-INSENSITIVE": [
    { what: "The search compares case-sensitively.", mutants: ["lead-search-case-sensitive"] },
    { what: "The query is lowered and matched against addresses as stored: a lead stored with capitals is not found.", mutants: ["lead-search-query-lowered-only"] },
  ],
  // 4.4 MUST: GET /v1/leads/search answers `{ data: [lead search hit] }`.
  "LEAD-SEARCH-ANSWER": [
    { what: "Lead search answers its hits under `results`.", mutants: ["lead-answer-search-results"] },
  ],
  // 4.4 MUST: GET /v1/leads/search: up to 10 matches.
  "LEAD-SEARCH-MAX10": [
    { what: "The search answers up to 50 matches.", mutants: ["lead-search-more-than-10"] },
  ],
  // 4.4 MUST: GET /v1/leads/search: one row per campaign containing the email.
  "LEAD-SEARCH-ONE-ROW-PER-CAMPAIGN": [
    { what: "Several matching leads of one campaign give several rows.", mutants: ["lead-search-row-per-lead"] },
  ],
  // 4.4 MUST: Search across campaigns by email (1): a lead present in several campaigns appears once for each of them.
  "LEAD-SEARCH-CROSS-CAMPAIGN": [
    { what: "Several matching leads of one campaign give several rows.", mutants: ["lead-search-row-per-lead"] },
  ],
  // 4.4 MUST: The key identifies the workspace (part 5): the search only finds leads of the caller's workspace.
  "LEAD-SEARCH-WORKSPACE": [
    { what: "The search finds the leads of every workspace.", mutants: ["tenant-lead-search-leak"] },
    { what: "The search by a fragment (no @) finds the leads of every workspace; a whole address stays scoped (two query paths, the LIKE one unscoped).", mutants: ["tenant-lead-search-fragment-leak"] },
  ],
  // 4.4 PROFILE: GET /v1/leads/search: when a fragment matches several leads of one campaign, whether "one row per campaign containing the email" gives one row for tha
  "LEAD-SEARCH-ROWS-PROFILE": [
    { what: "Several matching leads of one campaign give several rows.", mutants: ["lead-search-row-per-lead"] },
  ],
  // 4.4 PROFILE: Name of the search query parameter of GET /v1/leads/search: not shown (profile).
  "LEAD-SEARCH-PARAM-PROFILE": [
    { what: "The search reads its query from another parameter than the profile declares.", mutants: ["lead-search-param-undeclared"] },
  ],
  // 4.5 MUST: GET /v1/emails/{id} requires scope emails:read.
  "EMAIL-GET-SCOPE": [
    { what: "The scope check of emails.get is dropped: any valid key is served.", mutants: ["scope-unchecked-emails-get"] },
    { what: "emails:write is accepted where emails:read is required.", mutants: ["scope-emails-write-grants-read"] },
  ],
  // 4.5 MUST: GET /v1/emails/{id} answers the email with `body`.
  "EMAIL-GET-ANSWER": [
    { what: "GET /v1/emails/{id} answers no body.", mutants: ["email-answer-no-body"] },
    { what: "GET /v1/emails/{id} of a received email (ingested over IMAP) answers no body; sent emails keep theirs.", mutants: ["email-received-no-body"] },
  ],
  // 4.5 MUST: GET /v1/emails/{id} is the only endpoint returning a body (no other answer carries `body`).
  "EMAIL-GET-ONLY-BODY": [
    { what: "The listing carries every body too.", mutants: ["email-list-with-body"] },
  ],
  // 4.5 MUST: GET /v1/emails/{id}: 503 if the stored body cannot be read now.
  "EMAIL-GET-503-UNREADABLE": [
    { what: "An unreadable body answers 200 with a null body.", mutants: ["email-unreadable-200"] },
    { what: "An unreadable body answers 200 with a placeholder text (\"(body unavailable)\") as its body.", mutants: ["email-unreadable-200-placeholder"] },
  ],
  // 4.5 MUST: GET /v1/emails/{id}: a 200 always carries real content (the stored body, never a placeholder).
  "EMAIL-GET-200-REAL-CONTENT": [
    { what: "An unreadable body answers 200 with a null body.", mutants: ["email-unreadable-200"] },
    { what: "A received email (ingested over IMAP) answers 200 with a placeholder text as its body, not what the lead wrote; sent emails keep theirs.", mutants: ["email-received-body-placeholder"] },
    { what: "An unreadable body answers 200 with a placeholder text (\"(body unavailable)\") as its body.", mutants: ["email-unreadable-200-placeholder"] },
  ],
  // 4.5 MUST: GET /v1/emails/{id}: 413 `body_too_large` when the message is too large to return inline.
  "EMAIL-GET-413": [
    { what: "Any email is returned inline, however large.", mutants: ["email-no-413"] },
  ],
  // 4.5 MUST: DELETE /v1/emails/{id} requires scope emails:write.
  "EMAIL-DELETE-SCOPE": [
    { what: "The scope check of emails.delete is dropped: any valid key is served.", mutants: ["scope-unchecked-emails-delete"] },
    { what: "Email delete also serves a key of exactly emails:send.", mutants: ["scope-email-delete-also-emails-send"] },
  ],
  // 4.5 MUST: DELETE /v1/emails/{id} answers `{ id, deleted: true }`.
  "EMAIL-DELETE-ANSWER": [
    { what: "DELETE answers `{ id, success: true }`.", mutants: ["email-delete-answer-success"] },
  ],
  // 4.5 MUST: DELETE /v1/emails/{id}: the email stops appearing in listings.
  "EMAIL-DELETE-HIDDEN": [
    { what: "A deleted email is still listed.", mutants: ["email-delete-still-listed"] },
    { what: "A deleted sent (campaign) email is still listed: the listing unions a send log the delete does not mark.", mutants: ["email-delete-sent-still-listed"] },
  ],
  // 4.5 MUST: DELETE /v1/emails/{id}: the copy on the mail server is untouched.
  "EMAIL-DELETE-SERVER-UNTOUCHED": [
    { what: "DELETE also expunges the message from the mailbox on the IMAP server.", mutants: ["email-delete-expunges-server"] },
    { what: "DELETE sets \\Deleted on the server copy without expunging it (IMAP's own delete, completed by the next expunge of any client).", gap: "named by a self-audit of unaudited clauses: EMAIL/delete finds the message by its Message-ID but does not read its flags; it should also require no \\Deleted flag, with a mutant that stores the flag (the reference opens IMAP read-only today)" },
  ],
  // 4.6 MUST: GET /v1/campaigns/{id}/analytics requires scope metrics:read.
  "ANLT-CAMP-SCOPE": [
    { what: "The scope check of analytics.campaign is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-campaign"] },
    { what: "Campaign analytics also serves a key of exactly campaigns:read (analytics filed under the campaigns domain).", mutants: ["scope-anlt-campaign-also-campaigns-read"] },
  ],
  // 4.6 MUST: GET /v1/campaigns/{id}/analytics query: window start, window end, out-of-office exclusion flag, `breakdown`.
  "ANLT-CAMP-QUERY": [
    { what: "Campaign analytics refuses the out-of-office flag (400): only the overview knows it.", mutants: ["anlt-campaign-ooo-refused"] },
    { what: "Campaign analytics ignores the window asked and counts its default window.", mutants: ["anlt-campaign-window-ignored"] },
    { what: "Campaign analytics reads the window start only: the end is ignored and the window runs to now.", mutants: ["anlt-campaign-window-end-ignored"] },
  ],
  // 4.6 MUST: `breakdown` values `smtp`, `sequence`, `bounce`.
  "ANLT-CAMP-BREAKDOWN-VALUES": [
    { what: "breakdown=sequence is accepted but bySequence is never answered.", mutants: ["anlt-breakdown-sequence-ignored"] },
  ],
  // 4.6 MUST: `breakdown`: repeat the parameter (breakdown=smtp&breakdown=bounce requests both).
  "ANLT-CAMP-BREAKDOWN-REPEAT": [
    { what: "Of a repeated breakdown parameter only the last is read (a framework's single-value default).", mutants: ["anlt-breakdown-repeat-last"] },
  ],
  // 4.6 MUST: `breakdown`: or comma-separate (breakdown=smtp,bounce requests both).
  "ANLT-CAMP-BREAKDOWN-COMMA": [
    { what: "A comma-separated breakdown is read as one value and refused as unknown (400).", mutants: ["anlt-breakdown-comma-unsplit"] },
  ],
  // 4.6 MUST: A `breakdown` value other than `smtp`, `sequence`, `bounce` (the values the endpoint states) is invalid input: 400 validation_failed (part 7).
  "ANLT-CAMP-BREAKDOWN-UNKNOWN": [
    { what: "breakdown values matched without case: `SMTP` accepted as smtp (a lenient enum binding).", mutants: ["anlt-breakdown-case-insensitive"] },
    { what: "An unknown breakdown value is ignored instead of refused.", mutants: ["anlt-breakdown-unknown-accepted"] },
  ],
  // 4.6 MUST: GET /v1/campaigns/{id}/analytics answers `{ campaignId, period, totals, bySmtp?, bySequence?, bounceBreakdown? }`.
  "ANLT-CAMP-ANSWER": [
    { what: "Campaign analytics answers no campaignId.", mutants: ["anlt-answer-no-campaignid"] },
  ],
  // 4.6 MUST: Each breakdown is present when requested (`smtp` -> `bySmtp`, `sequence` -> `bySequence`, `bounce` -> `bounceBreakdown`).
  "ANLT-CAMP-BREAKDOWN-PRESENT": [
    { what: "breakdown=sequence is accepted but bySequence is never answered.", mutants: ["anlt-breakdown-sequence-ignored"] },
    { what: "Of a repeated breakdown only the last is read: breakdown=smtp&breakdown=bounce answers no bySmtp.", mutants: ["anlt-breakdown-repeat-last"] },
  ],
  // 4.6 MUST: Each breakdown is present only when requested (an unrequested breakdown is absent).
  "ANLT-CAMP-BREAKDOWN-ABSENT": [
    { what: "Every breakdown is answered, requested or not.", mutants: ["anlt-breakdown-always"] },
  ],
  // 4.6 MUST: GET /v1/campaigns/{id}/analytics/timeseries requires scope metrics:read.
  "ANLT-TS-SCOPE": [
    { what: "The time series requires campaigns:read (as the campaign status view beside it): a key of exactly metrics:read is refused.", mutants: ["scope-timeseries-campaigns-read"] },
    { what: "The scope check of analytics.timeseries is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-timeseries"] },
    { what: "The time series also serves a key of exactly campaigns:read (analytics filed under the campaigns domain).", mutants: ["scope-anlt-timeseries-also-campaigns-read"] },
  ],
  // 4.6 MUST: GET /v1/campaigns/{id}/analytics/timeseries query: window start, window end, out-of-office exclusion flag, interval.
  "ANLT-TS-QUERY": [
    { what: "The time series refuses the out-of-office flag (400).", mutants: ["anlt-ts-ooo-refused"] },
    { what: "The time series ignores the window asked and serves its default window.", mutants: ["anlt-ts-window-ignored"] },
  ],
  // 4.6 MUST: Timeseries `interval` (enum `day`, `week`, `month`).
  "ANLT-TS-INTERVAL-ENUM": [
    { what: "interval=month is refused (400): only day and week are served.", mutants: ["anlt-interval-month-refused"] },
  ],
  // 4.6 MUST: An interval other than `day`, `week`, `month` (the enum stated) is invalid input: 400 validation_failed (part 7).
  "ANLT-TS-INTERVAL-UNKNOWN": [
    // An empty `interval=` read as no interval is not listed: the spec does not say whether an empty parameter is a value or its absence.
    { what: "interval matched without case (`DAY`, `Week` accepted as day and week).", mutants: ["anlt-interval-case-insensitive"] },
    { what: "An interval outside the enum (hour) is answered as if none were given.", mutants: ["anlt-interval-unknown-accepted"] },
  ],
  // 4.6 MUST: GET /v1/campaigns/{id}/analytics/timeseries answers `{ campaignId, period, interval, data: [point] }`.
  "ANLT-TS-ANSWER": [
    { what: "The time series does not state its interval.", mutants: ["anlt-answer-ts-no-interval"] },
  ],
  // 4.6 MUST: Timeseries: long windows are coarsened automatically (day, then week, then month).
  "ANLT-TS-COARSEN": [
    { what: "A window asked by day past the declared day length goes straight to month, without the week between.", mutants: ["anlt-coarsen-skips-week"] },
    { what: "The week-to-month step missing (a long window never goes past week).", gap: "not on the reference's own profile, the one the mutation run serves: it declares week 728 past its retention 365, so no window it answers is longer than the week length and no check can ask the step there. ANLT/timeseries-coarsened asks it wherever retention reaches past the declared week length, as on the reference's alt choices (week 63, retention 90) and on random sets that draw week 400 with retention 730" },
    { what: "Label-only coarsening that leaves empty buckets out: a campaign without traffic answers no points, so the spacing is never seen.", mutants: ["anlt-coarsen-label-only-sparse"] },
    { what: "The time series answers by the interval asked however long the window (past the declared coarsening lengths).", mutants: ["anlt-never-coarsen"] },
    { what: "A long window states the coarser interval, but its points stay one per day.", mutants: ["anlt-coarsen-label-only"] },
    { what: "A coarsened time series states the interval asked (the query echoed), its points spaced by the coarser one.", mutants: ["anlt-ts-interval-echoes-asked"] },
  ],
  // 4.6 PROFILE: How long a window is before the time series coarsens it (the longest window answered by day, by week): not given (profile declarations.analytics.coars
  "ANLT-TS-COARSEN-PROFILE": [
    { what: "A window asked by day past the declared day length goes straight to month, without the week between.", mutants: ["anlt-coarsen-skips-week"] },
    { what: "The time series answers by the interval asked however long the window (past the declared coarsening lengths).", mutants: ["anlt-never-coarsen"] },
  ],
  // 4.6 MUST: Timeseries: the response states the interval used.
  "ANLT-TS-INTERVAL-STATED": [
    { what: "The time series does not state its interval.", mutants: ["anlt-answer-ts-no-interval"] },
    { what: "A coarsened time series states the interval asked (the query echoed), its points spaced by the coarser one.", mutants: ["anlt-ts-interval-echoes-asked"] },
    { what: "A coarsened time series states the coarser interval, its points still spaced by the one asked.", mutants: ["anlt-coarsen-label-only"] },
  ],
  // 4.6 MUST: Timeseries: includes bounces and unsubscribes.
  "ANLT-TS-BOUNCES-UNSUBS": [
    { what: "The points carry bounces, always 0: the series is built from sends, opens and replies only.", mutants: ["anlt-ts-bounces-zero"] },
    { what: "The points carry unsubscribed, always 0.", gap: "named by a self-audit of unaudited clauses: no check makes a lead unsubscribe and then reads a time series over it" },
    { what: "Time-series points carry no bounces.", mutants: ["anlt-answer-point-no-bounces"] },
  ],
  // 4.6 MUST: GET /v1/campaigns/analytics/overview requires scope metrics:read.
  "ANLT-OV-SCOPE": [
    { what: "The overview requires campaigns:read (its path sits under /v1/campaigns): a key of exactly metrics:read is refused.", mutants: ["scope-overview-campaigns-read"] },
    { what: "The scope check of analytics.overview is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-overview"] },
    { what: "The overview also serves a key of exactly campaigns:read (its path sits under /v1/campaigns).", mutants: ["scope-anlt-overview-also-campaigns-read"] },
  ],
  // 4.6 MUST: GET /v1/campaigns/analytics/overview query: window start, window end, out-of-office exclusion flag.
  "ANLT-OV-QUERY": [
    { what: "the overview ignores its window (start/end): it counts its default window.", mutants: ["anlt-ov-window-ignored"] },
    { what: "the overview ignores the out-of-office flag: auto-replies still count in its replies.", mutants: ["anlt-ov-ooo-ignored"] },
    { what: "The overview refuses a window (400): it always reports its default window.", mutants: ["anlt-ov-window-refused"] },
  ],
  // 4.6 MUST: GET /v1/campaigns/analytics/overview answers `{ period, totals, activeCampaigns, sendingAccounts, topCampaigns }`.
  "ANLT-OV-ANSWER": [
    { what: "The overview answers no sendingAccounts.", mutants: ["anlt-answer-ov-no-sendingaccounts"] },
    { what: "The overview's totals.opens is a number, not { total, uniqueLeads }.", mutants: ["anlt-answer-ov-opens-number"] },
    { what: "The overview's totals.rates carry no conversion.", mutants: ["anlt-answer-ov-rates-no-conversion"] },
    { what: "The overview's totals.conversionValue is a string (a SQL SUM of a decimal column).", mutants: ["anlt-answer-ov-conversionvalue-string"] },
  ],
  // 4.6 MUST: Reporting windows: dates are ISO 8601.
  "ANLT-WINDOW-ISO-DATES": [
    { what: "A window date with a time part (an ISO 8601 date-time) is refused (400): only YYYY-MM-DD is read.", mutants: ["anlt-window-time-part-refused"] },
  ],
  // 4.6 MUST: Reporting is by whole calendar day in the workspace timezone.
  "ANLT-WINDOW-WHOLE-DAYS": [
    { what: "the time series cuts its day buckets at UTC midnight rather than the workspace's.", mutants: ["anlt-ts-buckets-utc"] },
    { what: "the overview cuts its window at UTC midnight rather than the workspace's.", mutants: ["anlt-ov-days-in-utc"] },
    { what: "Analytics windows are read as UTC days, whatever the workspace's timezone.", mutants: ["anlt-days-in-utc"] },
  ],
  // 4.6 MUST: Reporting windows: the time component is ignored.
  "ANLT-WINDOW-TIME-IGNORED": [
    { what: "A window date with a time starts or ends at that time.", mutants: ["anlt-time-part-kept"] },
  ],
  // 4.6 MUST: Reporting windows: the start counts from the start of its day.
  "ANLT-WINDOW-START-OF-DAY": [
    { what: "Analytics windows are read as UTC days, whatever the workspace's timezone.", mutants: ["anlt-days-in-utc"] },
  ],
  // 4.6 MUST: Reporting windows: the end is inclusive through the end of its day.
  "ANLT-WINDOW-END-INCLUSIVE": [
    { what: "The end day is left out of the window.", mutants: ["anlt-end-exclusive"] },
  ],
  // 4.6 MUST: Reporting windows: the end defaults to now.
  "ANLT-WINDOW-END-DEFAULT-NOW": [
    { what: "A window with a start and no end is refused (400): both or neither.", mutants: ["anlt-end-required"] },
    { what: "Without an end the window ends at the start of today, leaving today's traffic out.", mutants: ["anlt-end-default-start-of-today"] },
  ],
  // 4.6 MUST: The out-of-office flag removes out-of-office auto-replies from reply counts.
  "ANLT-OOO-REPLIES": [
    { what: "the out-of-office exclusion applied to campaign totals only, not to timeseries, overview or the per-mailbox and per-step replies.", mutants: ["anlt-ooo-campaign-totals-only", "anlt-ov-ooo-ignored"] },
    { what: "The flag is ignored: auto-replies always count.", mutants: ["anlt-ooo-always"] },
  ],
  // 4.6 MUST: The out-of-office flag removes out-of-office auto-replies from the reply rate.
  "ANLT-OOO-RATE": [
    { what: "With the flag set, replies leave the auto-replies out but the reply rate still counts them.", mutants: ["anlt-ooo-rate-kept"] },
    { what: "A breakdown's (or the overview's) reply rate computed from the raw reply count, auto-replies included, while its reply count leaves them out.", mutants: ["anlt-breakdown-ooo-rate-raw"] },
  ],
  // 4.6 PROFILE: Names of the window and out-of-office query parameters: not shown (profile).
  "ANLT-PARAMS-PROFILE": [
    { what: "Analytics reads its window and flag from other names than the profile declares.", mutants: ["anlt-params-undeclared"] },
    { what: "the out-of-office flag read under another name than declared (the window by the declared names): the flag asked is ignored.", mutants: ["anlt-ooo-param-undeclared"] },
    { what: "the window names read as declared on campaign analytics but under other names on the time series or the overview: the window asked is ignored there.", mutants: ["anlt-ts-window-undeclared", "anlt-ov-window-undeclared"] },
  ],
  // 4.6 PROFILE: The exact clamping rule behind `period.clamped`: not shown (profile).
  "ANLT-CLAMP-PROFILE": [
    { what: "The retention floor follows the other clamping rule than the one chosen: one day off.", mutants: ["anlt-clamp-other-rule"] },
    { what: "The time series clamps by the other rule than campaign analytics (its period built apart): one day off.", mutants: ["anlt-ts-clamp-other-rule"] },
  ],
  // 4.7 MUST: GET /v1/lead-searches requires scope leadfinder:read.
  "LF-LIST-SCOPE": [
    { what: "The scope check of leadSearches.list is dropped: any valid key is served.", mutants: ["scope-unchecked-leadsearches-list"] },
    { what: "The Lead Finder list also serves a key of exactly leads:read (lead discovery filed under the leads domain).", mutants: ["scope-lf-list-also-leads-read"] },
  ],
  // 4.7 MUST: GET /v1/lead-searches answers `{ data: [search list item], meta }`.
  "LF-LIST-ANSWER": [
    { what: "GET /v1/lead-searches answers its items under `searches`.", mutants: ["lf-answer-list-items"] },
  ],
  // 4.7 MUST: GET /v1/lead-searches query: cursor.
  "LF-LIST-CURSOR": [
    { what: "The cursor is inclusive: the last item of a page is repeated first on the next page.", mutants: ["page-cursor-inclusive"] },
    { what: "nextCursor is null even when hasMore is true.", mutants: ["page-nextcursor-null"] },
  ],
  // 4.7 MUST: GET /v1/lead-searches query: page size 1 to 100 (example 50).
  "LF-LIST-PAGESIZE": [
    { what: "The page size is ignored: pages always hold up to 100 items.", mutants: ["page-limit-ignored"] },
    { what: "A page size of 101 (and above) is accepted.", mutants: ["page-size-101-accepted"] },
    { what: "A page size of 0 is accepted (and answers an empty page).", mutants: ["page-size-0-accepted"] },
    { what: "A page size of 100 is refused: the bound is read as exclusive.", mutants: ["page-size-100-refused"] },
    { what: "The page size is capped below 100 without a word (the example 50 read as the maximum).", gap: "named by a self-audit of unaudited clauses: PAGE-SIZE-BOUNDS lists 3 searches, so a cap never shows; seeing it needs more than 50 lead searches in one workspace (control API)" },
  ],
  // 4.7 PROFILE: GET /v1/lead-searches query: cursor and page size; their names, like those of the other lists (4.3), are not shown (profile).
  "LF-LIST-PARAMS-PROFILE": [
    { what: "GET /v1/lead-searches reads its cursor and page size from other names than the profile declares.", mutants: ["lf-list-params-undeclared"] },
  ],
  // 4.7 MUST: GET /v1/lead-searches: in-progress chat drafts are not listed.
  "LF-LIST-NO-DRAFTS": [
    { what: "Draft searches are listed.", mutants: ["lf-draft-listed"] },
  ],
  // 4.7 MUST: The key identifies the workspace (part 5): only the caller's workspace's searches are listed.
  "LF-LIST-WORKSPACE": [
    { what: "The Lead Finder list's next page (by its cursor) is read by a keyset query that drops the workspace: a later page shows other workspaces' searches.", gap: "named by a self-audit of unaudited clauses: SEC-LISTS-SCOPED walks the other workspace's list in one page of 100 (a pool workspace holds few searches), so a cursor page is never read there; an exclusive workspace with two searches walked one a page, every id its own, would close it" },
    { what: "GET /v1/lead-searches lists the searches of every workspace.", mutants: ["tenant-lead-searches-list-leak"] },
  ],
  // 4.7 MUST: GET /v1/lead-searches/{id} requires scope leadfinder:read.
  "LF-GET-SCOPE": [
    { what: "Reading one lead search requires leads:read: a key of exactly leadfinder:read is refused.", mutants: ["scope-lf-get-leads-read"] },
    { what: "The scope check of leadSearches.get is dropped: any valid key is served.", mutants: ["scope-unchecked-leadsearches-get"] },
    { what: "Reading one lead search also serves a key of exactly leads:read (lead discovery filed under the leads domain).", mutants: ["scope-lf-get-also-leads-read"] },
  ],
  // 4.7 MUST: GET /v1/lead-searches/{id} answers the lead search with progress counters.
  "LF-GET-ANSWER": [
    { what: "GET answers the progress counters as strings.", mutants: ["lf-progress-strings"] },
    { what: "GET /v1/lead-searches/{id} answers no progress.", mutants: ["lf-answer-no-progress"] },
  ],
  // 4.7 MUST: A search id of another workspace is a resource absent from the caller's workspace (parts 5 and 7): 404.
  "LF-GET-OTHER-WORKSPACE-404": [
    { what: "GET /v1/lead-searches/{id} serves a search of another workspace.", mutants: ["tenant-lead-search-get-leak"] },
  ],
  // 4.7 MUST: GET /v1/workspace (usage:read) returns the workspace identity: organizationId (uuid), name (string), timezone (IANA string).
  "WS-GET": [
    { what: "timezone not the workspace's: a fixed \"UTC\" (or the server's zone).", mutants: ["ws-timezone-utc"] },
    { what: "name not the workspace's: a slug of it.", mutants: ["ws-name-slug"] },
    { what: "name or timezone not the workspace's: a default name, the service's default timezone.", mutants: ["ws-name-default", "ws-timezone-default"] },
    { what: "GET /v1/workspace omits timezone.", mutants: ["workspace-missing-timezone"] },
  ],
  // 4.7 MUST: The workspace returned is the one the key belongs to (two workspaces see their own identity).
  "WS-KEY-WORKSPACE": [
    { what: "GET /v1/workspace answers the oldest workspace of the service, whatever the key.", mutants: ["ws-first-workspace"] },
  ],
  // 4.7 MUST: GET /v1/usage/{limitType} (usage:read) returns the usage of one limit: used, limit, remaining, isUnlimited, usagePercentage, limitType.
  "USAGE-GET": [
    { what: "Usage answers no usagePercentage.", mutants: ["usage-answer-no-percentage"] },
    { what: "used is a stale value (cached at the start of the month), not the current usage.", mutants: ["usage-used-stale"] },
  ],
  // 4.7 MUST: limitType is one of the six values of 2.9; each of them is served.
  "USAGE-ALL-TYPES": [
    { what: "lead_finder_credits answers 404, as if it were not a limit type.", mutants: ["usage-type-missing"] },
  ],
  // 4.7 MUST: A limitType outside the six values is not a usage limit: the request is refused (not 2xx).
  "USAGE-UNKNOWN-TYPE": [
    { what: "An unknown limitType answers 200 with zero usage.", mutants: ["usage-unknown-type-200"] },
    { what: "limitType matched case-insensitively (a lenient enum binding): MONTHLY_EMAILS answers the usage of monthly_emails.", mutants: ["usage-type-case-insensitive"] },
  ],
  // 4.7 PROFILE: GET /v1/usage and GET /v1/account/subscription are referenced (usage:read); their shapes: not shown.
  "USAGE-ALL-PROFILE": [
    { what: "GET /v1/usage answers 404: only the usage of one limit is served.", mutants: ["usage-all-missing"] },
  ],
  // 4.7 MUST: DELETE /v1/api-keys/{id} (apikeys:manage) answers { success: true }.
  "KEY-REVOKE": [
    { what: "Revoke answers `{ revoked: true }`.", mutants: ["apikey-revoke-shape"] },
    { what: "Revoking a key answers 403 even to a key holding apikeys:manage.", mutants: ["apikeys-revoke-refused"] },
  ],
  // 4.7 MUST: Revocation is immediate: the next request with the key gets 401.
  "KEY-REVOKE-IMMEDIATE": [
    { what: "A revoked key keeps working until the clock has advanced 60 seconds past the revocation.", mutants: ["apikey-revoke-not-immediate"] },
  ],
  // 4.7 MUST: Revocation cannot be undone: the key stays refused as time passes.
  "KEY-REVOKE-FINAL": [
    { what: "Revoked keys keep working.", mutants: ["auth-revoked-key-valid"] },
    { what: "A revocation held as a deny-list entry that expires (a cache TTL of an hour or a day): the key is accepted again later.", gap: "named by a self-audit of unaudited clauses: KEY-REVOKE moves the clock 120 s only (it is not solo; a longer jump would move every other check's clock); a solo check already jumping a day (SEND timing) could revoke a key before its jump and require 401 after it, claiming KEY-REVOKE-FINAL" },
  ],
  // 4.7 PROFILE: Listing and creating API keys are referenced (apikeys:manage); their shapes: not shown.
  "KEY-LIST-CREATE-PROFILE": [
    { what: "The key listing answers its keys under another name than the profile declares.", mutants: ["apikeys-list-items-renamed"] },
    { what: "The key create reads its scopes under another name than the profile declares: the new key gets the creating key's scopes.", mutants: ["apikeys-create-scopes-ignored"] },
  ],
  // 5 MUST: Every request sends Authorization: Bearer <API_KEY>.
  "AUTH-BEARER": [
    { what: "The auth scheme is not checked: `Token <key>` or a bare key is accepted.", mutants: ["auth-scheme-unchecked"] },
  ],
  // 5 MUST: The key identifies the caller and the workspace; paths never contain an organization id.
  "AUTH-KEY-IDENTIFIES-WORKSPACE": [
    { what: "GET /v1/api-keys lists the keys of every workspace.", mutants: ["tenant-apikeys-list-leak"] },
    { what: "Resources of other workspaces are found by id (campaigns, leads, mailboxes, emails).", mutants: ["tenant-isolation-broken"] },
    { what: "A lead route checks the campaign in the path but loads the lead by id alone: another workspace's lead is PATCHed through the caller's own campaign.", mutants: ["tenant-lead-by-id-alone"] },
    { what: "Emails are found by id without the workspace (GET and DELETE /v1/emails/{id}).", mutants: ["email-by-id-any-workspace"] },
    { what: "GET /v1/leads/search finds the leads of every workspace.", mutants: ["tenant-lead-search-leak"] },
    { what: "GET /v1/leads/search by a fragment (no @) finds the leads of every workspace; a whole address stays scoped.", mutants: ["tenant-lead-search-fragment-leak"] },
    { what: "GET /v1/lead-searches lists the searches of every workspace.", mutants: ["tenant-lead-searches-list-leak"] },
    { what: "GET /v1/workspace answers the oldest workspace of the service, whatever the key.", mutants: ["ws-first-workspace"] },
    { what: "The workspace overview rolls up the sends of every workspace (its queries without the key's workspace).", mutants: ["anlt-overview-all-workspaces"], gap: "named by a self-audit of unaudited clauses: killed at default only by ANLT/overview-answer and ANLT/overview-own-workspace, which do not claim this clause; SEC-ISOLATION/every-list-and-aggregate (claims it) runs at full. ANLT/overview-answer could claim it (it asserts the roll-up is its exclusive workspace's), but a section-5 claim by a 4.6 check makes every section-5 kill-matrix row stale (about 95 rows, 50 minutes to rebuild on a 2-core machine)" },
  ],
  // 5 MUST: The key identifies the workspace: a resource of another workspace is absent to it, so its id gets 404 not_found (never 200, never a 403 that tells it 
  "TENANT-ISOLATION": [
    { what: "GET /v1/api-keys lists the keys of every workspace.", mutants: ["tenant-apikeys-list-leak"] },
    { what: "Resources of other workspaces are found by id (campaigns, leads, mailboxes, emails).", mutants: ["tenant-isolation-broken"] },
    { what: "Emails alone are found by id in any workspace (a message store keyed by id): another workspace's email is read or deleted.", mutants: ["email-other-workspace-found"] },
    { what: "A lead is found by its id alone once the campaign in the path is the caller's: another workspace's lead is changed or deleted through one's own campaign.", mutants: ["tenant-lead-by-id-alone"] },
    { what: "GET /v1/leads/search finds the leads of every workspace.", mutants: ["tenant-lead-search-leak"] },
    { what: "GET /v1/leads/search by a fragment (no @) finds the leads of every workspace; a whole address stays scoped.", mutants: ["tenant-lead-search-fragment-leak"] },
    { what: "GET /v1/lead-searches lists the searches of every workspace.", mutants: ["tenant-lead-searches-list-leak"] },
    { what: "GET /v1/lead-searches/{id} serves a search of another workspace.", mutants: ["tenant-lead-search-get-leak"] },
    { what: "Emails are found by id without the workspace (GET and DELETE /v1/emails/{id}).", mutants: ["email-by-id-any-workspace"] },
  ],
  // 5 MUST: A missing key gives 401 unauthenticated.
  "AUTH-401-MISSING": [
    { what: "A request without Authorization header answers 400 validation_failed instead of 401.", mutants: ["auth-missing-header-400"] },
  ],
  // 5 MUST: An invalid key (including an Authorization header that is not a Bearer key) gives 401 unauthenticated.
  "AUTH-401-MALFORMED": [
    { what: "The auth scheme is not checked: `Token <key>` or a bare key is accepted.", mutants: ["auth-scheme-unchecked"] },
    { what: "A Bearer value not shaped like a key is refused with 400 by a format check before the lookup (a well-shaped unknown key gets 401).", mutants: ["auth-key-format-400"] },
  ],
  // 5 MUST: An invalid (unknown) key gives 401 unauthenticated.
  "AUTH-401-UNKNOWN": [
    { what: "An unknown key answers 403 permission_denied instead of 401.", mutants: ["auth-unknown-key-403"] },
    { what: "An invalid key of another shape than the service's keys (`Bearer not-a-key`) is refused with 400 by a format check before the lookup.", mutants: ["auth-key-format-400"] },
  ],
  // 5 MUST: A revoked key gives 401 unauthenticated.
  "AUTH-401-REVOKED": [
    { what: "Revoked keys keep working.", mutants: ["auth-revoked-key-valid"] },
    { what: "A revoked key answers 401 from a branch of its own with code `key_revoked`.", mutants: ["auth-revoked-key-own-code"] },
  ],
  // 5 MUST: Every route requires one granular scope.
  "SCOPE-REQUIRED": [
    { what: "A referenced read mounted without its scope guard (GET /v1/account/subscription): any valid key is served; no default matrix row refuses it.", mutants: ["scope-subscription-unguarded"] },
    { what: "The scope check of accounts.create is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-create"] },
    { what: "The scope check of accounts.update is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-update"] },
    { what: "The scope check of campaigns.create is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-create"] },
    { what: "The scope check of campaigns.list is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-list"] },
    { what: "The scope check of campaigns.start is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-start"] },
    { what: "The scope check of leads.update is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-update"] },
    { what: "The scope check of leads.search is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-search"] },
    { what: "The scope check of emails.get is dropped: any valid key is served.", mutants: ["scope-unchecked-emails-get"] },
    { what: "The scope check of emails.delete is dropped: any valid key is served.", mutants: ["scope-unchecked-emails-delete"] },
    { what: "The scope check of analytics.campaign is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-campaign"] },
    { what: "The scope check of analytics.timeseries is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-timeseries"] },
    { what: "The scope check of leadSearches.list is dropped: any valid key is served.", mutants: ["scope-unchecked-leadsearches-list"] },
    { what: "The scope check of accounts.delete is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-delete"] },
    { what: "The scope check of accounts.pause is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-pause"] },
    { what: "The scope check of accounts.verification is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-verification"] },
    { what: "The scope check of accounts.oauthInit is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-oauthinit"] },
    { what: "The scope check of campaigns.update is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-update"] },
    { what: "The scope check of campaigns.resume is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-resume"] },
    { what: "The scope check of campaigns.testEmail is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-testemail"] },
    { what: "The scope check of leads.delete is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-delete"] },
    { what: "The scope check of leads.mutate is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-mutate"] },
    { what: "The scope check of analytics.overview is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-overview"] },
    { what: "The scope check of leadSearches.get is dropped: any valid key is served.", mutants: ["scope-unchecked-leadsearches-get"] },
  ],
  // 5 MUST: A key lacking the route's scope (and any covering wildcard) gets 403 permission_denied.
  "SCOPE-403-MISSING": [
    { what: "GET /v1/account/subscription (referenced) is mounted without its scope guard: a key lacking usage:read is served.", mutants: ["scope-subscription-unguarded"] },
    { what: "A missing scope answers 401 unauthenticated instead of 403.", mutants: ["auth-missing-scope-401"] },
    { what: "A missing scope answers 404 not_found instead of 403.", mutants: ["scope-denied-404"] },
  ],
  // 5 MUST: 403 is also returned when the plan does not include API access.
  "SCOPE-403-PLAN": [
    { what: "A workspace whose plan lacks API access is served normally.", mutants: ["plan-api-access-ignored"] },
    { what: "A plan without API access answers 402 payment_required instead of 403.", mutants: ["plan-api-access-402"] },
  ],
  // 5 PROFILE: The full secret of a key is displayed once, at creation; the first key is created in the dashboard (creation through the API: its shape is not shown).
  "KEY-SECRET-ONCE": [
    { what: "The key listing shows each key created through the API with its full secret again.", mutants: ["apikeys-list-shows-secret"] },
  ],
  // 5 MUST: Later keys can be rotated through the API by a key holding apikeys:manage.
  "KEY-ROTATE-MANAGE": [
    { what: "Revoking a key answers 403 even to a key holding apikeys:manage: keys cannot be rotated through the API.", mutants: ["apikeys-revoke-refused"] },
  ],
  // 5 MUST: Scope campaigns:read grants: read campaigns.
  "SCOPE-GRANT-CAMPAIGNS-READ": [
    { what: "A key holding exactly campaigns:read is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-campaigns-read-refused"] },
  ],
  // 5 MUST: Scope campaigns:write grants: create and update campaigns.
  "SCOPE-GRANT-CAMPAIGNS-WRITE": [
    { what: "A key holding exactly campaigns:write is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-campaigns-write-refused"] },
  ],
  // 5 MUST: Scope campaigns:lifecycle grants: start, pause, resume sending; test email.
  "SCOPE-GRANT-CAMPAIGNS-LIFECYCLE": [
    { what: "A key holding exactly campaigns:lifecycle is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-campaigns-lifecycle-refused"] },
  ],
  // 5 MUST: Scope leads:read grants: read leads.
  "SCOPE-GRANT-LEADS-READ": [
    { what: "A key holding exactly leads:read is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-leads-read-refused"] },
  ],
  // 5 MUST: Scope leads:write grants: ingest and change campaign leads.
  "SCOPE-GRANT-LEADS-WRITE": [
    { what: "A key holding exactly leads:write is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-leads-write-refused"] },
  ],
  // 5 MUST: Scope emails:read grants: read emails.
  "SCOPE-GRANT-EMAILS-READ": [
    { what: "A key holding exactly emails:read is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-emails-read-refused"] },
  ],
  // 5 MUST: Scope emails:send grants: send replies and forwards (billable).
  "SCOPE-GRANT-EMAILS-SEND": [
    { what: "A key holding exactly emails:send is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-emails-send-refused"] },
  ],
  // 5 MUST: Scope emails:write grants: mark read and delete.
  "SCOPE-GRANT-EMAILS-WRITE": [
    { what: "A key holding exactly emails:write is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-emails-write-refused"] },
  ],
  // 5 MUST: Scope accounts:read grants: read mailboxes.
  "SCOPE-GRANT-ACCOUNTS-READ": [
    { what: "A key holding exactly accounts:read is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-accounts-read-refused"] },
  ],
  // 5 MUST: Scope accounts:write grants: connect and update sending mailboxes.
  "SCOPE-GRANT-ACCOUNTS-WRITE": [
    { what: "A key holding exactly accounts:write is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-accounts-write-refused"] },
  ],
  // 5 MUST: Scope metrics:read grants: campaign and workspace analytics.
  "SCOPE-GRANT-METRICS-READ": [
    { what: "A key holding exactly metrics:read is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-metrics-read-refused"] },
  ],
  // 5 MUST: Scope leadfinder:read grants: Lead Finder searches.
  "SCOPE-GRANT-LEADFINDER-READ": [
    { what: "A key holding exactly leadfinder:read is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-leadfinder-read-refused"] },
  ],
  // 5 MUST: Scope usage:read grants: plan usage, subscription, workspace identity.
  "SCOPE-GRANT-USAGE-READ": [
    { what: "A key holding exactly usage:read is refused (403) on its routes; wildcards still grant them.", mutants: ["scope-grant-usage-read-refused"] },
  ],
  // 5 MUST: Scope apikeys:manage grants: create, list, revoke API keys.
  "SCOPE-GRANT-APIKEYS-MANAGE": [
    { what: "Revoking a key answers 403 even to a key holding apikeys:manage.", mutants: ["apikeys-revoke-refused"] },
    { what: "The key list filed under a read scope (all:all then covers it): served to the workspace key either way.", gap: "a key holding only apikeys:manage is made in the dashboard, never by the kit; the slip shows as an all:all key served on the key list, which no default check asks (SCOPE-ALLALL/not-apikeys-manage asks only the revocation)" },
  ],
  // 5 MUST: campaigns:all covers every action in the campaigns domain.
  "SCOPE-WILDCARD-CAMPAIGNS": [
    { what: "Domain wildcards (campaigns:all etc.) grant nothing.", mutants: ["scope-domain-wildcard-ignored"] },
    { what: "A call authorised only through a wildcard answers 500 api_error instead of being served.", mutants: ["scope-wildcard-500"] },
  ],
  // 5 MUST: leads:all covers every action in the leads domain.
  "SCOPE-WILDCARD-LEADS": [
    { what: "Domain wildcards (campaigns:all etc.) grant nothing.", mutants: ["scope-domain-wildcard-ignored"] },
  ],
  // 5 MUST: emails:all covers every action in the emails domain.
  "SCOPE-WILDCARD-EMAILS": [
    { what: "Domain wildcards (campaigns:all etc.) grant nothing.", mutants: ["scope-domain-wildcard-ignored"] },
  ],
  // 5 MUST: accounts:all covers every action in the accounts domain.
  "SCOPE-WILDCARD-ACCOUNTS": [
    { what: "Domain wildcards (campaigns:all etc.) grant nothing.", mutants: ["scope-domain-wildcard-ignored"] },
    { what: "The route table forgets accounts:all on one route (POST /v1/accounts/{id}/pause answers it 403).", mutants: ["scope-route-forgets-domain-wildcard"] },
  ],
  // 5 MUST: A domain wildcard covers the actions of its own domain only ("every action in that domain").
  "SCOPE-WILDCARD-DOMAIN-ONLY": [
    { what: "accounts:all also grants every campaigns:* scope.", mutants: ["scope-wildcard-cross-domain"] },
  ],
  // 5 MUST: all:read covers every read-only scope in all domains.
  "SCOPE-ALLREAD-READS": [
    { what: "all:read is not accepted for metrics:read, leadfinder:read and usage:read.", mutants: ["scope-all-read-misses-reads"] },
    { what: "A call authorised only through a wildcard answers 404 not_found (the route is hidden) instead of being served.", mutants: ["scope-wildcard-404"] },
  ],
  // 5 MUST: all:read never covers a write, send or lifecycle scope.
  "SCOPE-ALLREAD-NO-WRITE": [
    { what: "all:read also grants write, send and lifecycle scopes.", mutants: ["scope-all-read-grants-write"] },
  ],
  // 5 MUST: all:all covers everything except apikeys:manage.
  "SCOPE-ALLALL": [
    { what: "all:all also grants apikeys:manage.", mutants: ["scope-all-all-grants-apikeys"] },
    { what: "all:all expanded from a list of scopes that lacks some (metrics:read, leadfinder:read): an all:all key is refused there.", mutants: ["scope-all-all-misses-newer"] },
    { what: "all:all forgotten on one route of a route table (a per-route list of accepted scopes).", gap: "SCOPE-MATRIX/all:all runs at default but asks one route per accepted set; SCOPE-ALLALL/not-apikeys-manage asks one route per granular scope (and the email delete and mailbox-read rows). Every route with all:all (38 on the reference profile, about +24 requests to SCOPE-MATRIX/all:all at default) would close it" },
  ],
  // 5 MUST: apikeys:manage is covered by no wildcard.
  "SCOPE-APIKEYS-NO-WILDCARD": [
    { what: "all:read serves the API key list (a read, taken as one that all:read covers); revocation stays refused.", mutants: ["scope-all-read-lists-keys"] },
    { what: "all:all also grants apikeys:manage.", mutants: ["scope-all-all-grants-apikeys"] },
  ],
  // 5 MUST: apikeys:manage can be granted only from the dashboard (a key created through the API never holds it).
  "SCOPE-APIKEYS-DASHBOARD-ONLY": [
    { what: "A key holding apikeys:manage can create keys holding apikeys:manage through the API.", mutants: ["apikeys-manage-grantable"] },
  ],
  // 5 MUST: A key holding apikeys:manage can create only keys whose scopes are a subset of its own.
  "SCOPE-APIKEYS-SUBSET": [
    { what: "API key creation does not check the subset rule (any scopes, apikeys:manage included).", mutants: ["apikeys-subset-unchecked"] },
    { what: "The subset rule checks that some requested scope is within the creator's, not every one: a request naming one scope it holds and one it lacks is granted.", mutants: ["apikeys-subset-any"] },
  ],
  // 5 MUST: Mailbox writes accept accounts:write, accounts:all, all:all.
  "SCOPE-GROUP-MAILBOX-WRITE": [
    { what: "The mailbox routes filed by domain: a key of exactly accounts:read is served on the mailbox writes too.", mutants: ["scope-mailbox-writes-also-accounts-read"] },
    { what: "The scope check of accounts.create is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-create"] },
    { what: "The scope check of accounts.update is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-update"] },
    { what: "The scope check of accounts.delete is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-delete"] },
    { what: "The scope check of accounts.pause is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-pause"] },
    { what: "The scope check of accounts.oauthInit is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-oauthinit"] },
  ],
  // 5 MUST: Mailbox reads accept accounts:read, accounts:write, accounts:all, all:read, all:all.
  "SCOPE-GROUP-MAILBOX-READ": [
    { what: "all:all forgotten on the read of one mailbox (accounts.get) in a per-route table; the other mailbox reads keep it.", mutants: ["scope-mailbox-get-refuses-all-all"] },
    { what: "Mailbox reads (GET verification, list, get, OAuth status) refuse a key holding accounts:write alone (403).", mutants: ["scope-mailbox-read-refuses-write"] },
    { what: "The three referenced mailbox reads (list, get, OAuth status) filed under the general reads rule: accounts:write alone refused there, the verification endpoint right.", mutants: ["scope-mailbox-ref-reads-refuse-write"] },
    { what: "The mailbox-read row without all:all: a key holding all:all alone is refused on the mailbox reads.", mutants: ["scope-mailbox-read-refuses-all-all"] },
    { what: "The scope check of accounts.verification is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-verification"] },
  ],
  // 5 MUST: Campaign writes accept campaigns:write, campaigns:all, all:all.
  "SCOPE-GROUP-CAMPAIGN-WRITE": [
    { what: "The scope check of campaigns.create is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-create"] },
    { what: "The scope check of campaigns.update is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-update"] },
    { what: "A per-route table forgets all:all on PATCH /v1/campaigns/{id} (create lists it).", gap: "named by a self-audit of unaudited clauses: at default SCOPE-MATRIX/all:all asks one route per accepted set (the campaign create), so the PATCH is asked with all:all only at full; the remedy is the all:all row asking every route but apikeys:manage from default on (as for SCOPE-GROUP-MAILBOX-WRITE and CONV-WILDCARD-ACCEPTED)" },
  ],
  // 5 MUST: Lifecycle endpoints accept campaigns:lifecycle, campaigns:all, all:all.
  "SCOPE-GROUP-LIFECYCLE": [
    { what: "all:all forgotten on the test email in a per-route table; start, resume and pause keep it.", mutants: ["scope-test-email-refuses-all-all"] },
    { what: "The scope check of campaigns.start is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-start"] },
    { what: "campaigns:write is accepted where campaigns:lifecycle is required.", mutants: ["scope-write-grants-lifecycle"] },
    { what: "The scope check of campaigns.resume is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-resume"] },
    { what: "The scope check of campaigns.testEmail is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-testemail"] },
  ],
  // 5 MUST: Reads accept the read scope, the domain wildcard, all:read, all:all.
  "SCOPE-GROUP-READS": [
    { what: "The scope check of campaigns.list is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-list"] },
    { what: "The scope check of leads.search is dropped: any valid key is served.", mutants: ["scope-unchecked-leads-search"] },
    { what: "The scope check of emails.get is dropped: any valid key is served.", mutants: ["scope-unchecked-emails-get"] },
    { what: "The scope check of analytics.campaign is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-campaign"] },
    { what: "The scope check of analytics.timeseries is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-timeseries"] },
    { what: "The scope check of leadSearches.list is dropped: any valid key is served.", mutants: ["scope-unchecked-leadsearches-list"] },
    { what: "campaigns:write is accepted where campaigns:read is required.", mutants: ["scope-campaigns-write-grants-read"] },
    { what: "leads:write is accepted where leads:read is required.", mutants: ["scope-leads-write-grants-read"] },
    { what: "emails:write is accepted where emails:read is required.", mutants: ["scope-emails-write-grants-read"] },
    { what: "The scope check of analytics.overview is dropped: any valid key is served.", mutants: ["scope-unchecked-analytics-overview"] },
    { what: "The scope check of leadSearches.get is dropped: any valid key is served.", mutants: ["scope-unchecked-leadsearches-get"] },
  ],
  // 5 MUST: Emails delete accepts emails:write, emails:all, all:all.
  "SCOPE-GROUP-EMAIL-DELETE": [
    { what: "The scope check of emails.delete is dropped: any valid key is served.", mutants: ["scope-unchecked-emails-delete"] },
    { what: "Email delete refuses a key holding all:all (without emails:write or emails:all): the row read as the email scopes only.", mutants: ["scope-email-delete-refuses-all-all"] },
    { what: "Email delete also serves a key of exactly emails:send (write-like email scopes grouped together).", mutants: ["scope-email-delete-also-emails-send"] },
  ],
  // 7 MUST: Every error response is { error: { type, code, message, status, requestId, details?, retryAfter? } }.
  "ERR-ENVELOPE": [
    { what: "An error without details carries `details: null` (a serializer that writes every field).", mutants: ["err-details-null"] },
    { what: "A method a known path does not have answers a framework's own 405 (Spring: `{ timestamp, status, error, path }`).", mutants: ["err-wrong-method-framework-body"] },
    { what: "On 403 the error fields are at the top level, without the `error` wrapper.", mutants: ["err-envelope-unwrapped"] },
    { what: "A 401 is answered by an auth middleware with its own body `{ message: \"Unauthorized\" }`.", mutants: ["err-401-middleware-body"] },
  ],
  // 7 MUST: error.status repeats the HTTP status.
  "ERR-STATUS-REPEATS-HTTP": [
    { what: "On 404 responses the envelope says status 400.", mutants: ["err-status-mismatch"] },
    { what: "The envelope carries status as text (\"404\"), not the number.", mutants: ["err-status-string"] },
  ],
  // 7 MUST: error.requestId is a uuid string.
  "ERR-REQUESTID-UUID": [
    { what: "requestId is a non-uuid string (req_<hex>).", mutants: ["err-requestid-not-uuid"] },
  ],
  // 7 MUST: error.details (array of strings) accompanies validation failures.
  "ERR-DETAILS-VALIDATION": [
    { what: "Validation failures carry no details.", mutants: ["err-validation-no-details"] },
    { what: "details is one string joining the problems, not an array.", mutants: ["err-details-string"] },
  ],
  // 7 MUST: error.retryAfter (seconds) accompanies 429.
  "ERR-RETRYAFTER-429": [
    { what: "The 429 envelope has no retryAfter field (the header stays).", mutants: ["err-429-no-retryafter-field"] },
  ],
  // 7 MUST: 400: type invalid_request_error, code validation_failed when body or parameters are invalid.
  "ERR-TABLE-400": [
    { what: "A body nested deeper than 1,000 levels overflows a recursive walk and answers 500 api_error.", mutants: ["robust-deep-nesting-500"] },
    { what: "Validation failures carry code `invalid_request` instead of `validation_failed`.", mutants: ["err-validation-wrong-code"] },
  ],
  // 7 MUST: 401: type authentication_error, code unauthenticated (key missing, invalid or revoked).
  "ERR-TABLE-401": [
    { what: "Every 401 carries code `invalid_api_key` instead of `unauthenticated`.", mutants: ["auth-401-wrong-code"] },
    { what: "A revoked key answers 401 from a branch of its own with code `key_revoked`; missing and unknown keys are right.", mutants: ["auth-revoked-key-own-code"] },
  ],
  // 7 MUST: 403: type authorization_error, code permission_denied (scope missing, or plan lacks API access).
  "ERR-TABLE-403": [
    { what: "Every 403 error carries code `forbidden`.", mutants: ["err-code-403-renamed"] },
  ],
  // 7 MUST: 404: type invalid_request_error, code not_found (resource absent from the workspace).
  "ERR-TABLE-404": [
    { what: "404 errors carry type `not_found_error`.", mutants: ["err-type-wrong"] },
    { what: "The lead and email handlers answer an absent id with a code of their own (`lead_not_found`, `email_not_found`).", mutants: ["err-404-resource-codes"] },
    { what: "The email routes alone (an inbox store of their own) answer an absent email with `email_not_found`.", mutants: ["email-404-own-code"] },
  ],
  // 7 MUST: 409: type invalid_request_error, code conflict.
  "ERR-TABLE-409": [
    { what: "Every 409 error carries code `idempotency_conflict`.", mutants: ["err-code-409-renamed"] },
    { what: "A state conflict (a contacted lead's email changed) answers 409 with a code of its own (`state_conflict`); idempotency 409s are right.", mutants: ["err-state-conflict-own-code"] },
  ],
  // 7 MUST: 413: type invalid_request_error, code body_too_large (GET email).
  "ERR-TABLE-413": [
    { what: "Every 413 error carries code `payload_too_large`.", mutants: ["err-code-413-renamed"] },
  ],
  // 7 MUST: 422: type invalid_request_error, code idempotency_key_reused.
  "ERR-TABLE-422": [
    { what: "Every 422 error carries code `unprocessable_entity`.", mutants: ["err-code-422-renamed"] },
  ],
  // 7 MUST: 429: type rate_limit_error, code rate_limited; Retry-After header in seconds.
  "ERR-TABLE-429": [
    { what: "429 responses carry type invalid_request_error and code too_many_requests.", mutants: ["rate-429-wrong-type"] },
  ],
  // 7 MUST: 503: type api_error, code upstream_unavailable (test email, GET email).
  "ERR-TABLE-503": [
    { what: "Every 503 error carries code `service_unavailable`.", mutants: ["err-code-503-renamed"] },
  ],
  // 7 MUST: A body that is not valid JSON is an invalid body: 400 validation_failed in the envelope (never a 5xx).
  "ERR-MALFORMED-JSON-400": [
    { what: "A malformed JSON body answers 500 api_error.", mutants: ["err-malformed-json-500"] },
  ],
  // 7 MUST: Business-rule refusals answer 400: pausing a mailbox that is not active; starting a campaign with no leads or sequence; resuming a campaign when the w
  "ERR-BUSINESS-400": [
    { what: "Pausing an inactive (or failed, checking) mailbox succeeds.", mutants: ["acct-pause-inactive-allowed"] },
    { what: "Pausing a mailbox that is not active answers 409 conflict (a state conflict of the table) instead of 400.", mutants: ["acct-pause-not-active-409"] },
    { what: "A campaign without leads (but with a sequence) starts.", mutants: ["camp-start-without-leads"] },
    { what: "A paused campaign resumes in a workspace without any mailbox.", mutants: ["camp-resume-without-mailbox"] },
  ],
  // 7 PROFILE: The error code used for business-rule refusals: not shown.
  "ERR-BUSINESS-CODE": [
    { what: "Business-rule refusals carry another code (bad_request) than the profile declares.", mutants: ["err-business-code-undeclared"] },
    { what: "The mailbox handler's pause refusal carries a code of its own (`invalid_state`); the campaign refusals carry the declared one.", mutants: ["acct-pause-refusal-own-code"] },
  ],
  // 7 MUST: Batch mailbox creation does not fail as a whole on per-element errors; they are reported in the errors array with the rest of the batch created.
  "ERR-BATCH-PARTIAL": [
    { what: "One invalid element makes the whole POST /v1/accounts answer 400; nothing is created.", mutants: ["acct-batch-fails-whole"] },
  ],
  // 8 MUST: API rate: 120 requests per 60 seconds, per workspace.
  "RATE-120-PER-60S": [
    { what: "The limit is 150 requests per 60 seconds.", mutants: ["rate-limit-150"] },
  ],
  // 8 MUST: The rate limit is shared by all keys of the workspace.
  "RATE-SHARED-KEYS": [
    { what: "The limit is counted per API key, not per workspace.", mutants: ["rate-per-key"] },
    { what: "X-RateLimit-Remaining is counted per key while the limit is enforced per workspace.", mutants: ["rate-remaining-per-key"] },
  ],
  // 8 MUST: The rate limit is per workspace: another workspace is unaffected.
  "RATE-PER-WORKSPACE": [
    { what: "One bucket for all workspaces together.", mutants: ["rate-global"] },
  ],
  // 8 MUST: A request over the limit gets 429 with Retry-After (seconds).
  "RATE-429": [
    { what: "429 responses carry no Retry-After header.", mutants: ["rate-no-retry-after-header"] },
  ],
  // 8 MUST: Responses carry the header X-RateLimit-Remaining.
  "RATE-REMAINING-HEADER": [
    { what: "No X-RateLimit-Remaining header.", mutants: ["rate-no-remaining-header"] },
    { what: "X-RateLimit-Remaining is set on successful answers only; error answers lack it.", mutants: ["rate-remaining-only-on-success"] },
  ],
  // 8 MUST: Retry-After tells when to retry: after that many seconds (with backoff on a repeated 429) the workspace is served again.
  "RATE-RECOVERS": [
    { what: "A workspace that hit 429 stays limited for 10 minutes past the window.", mutants: ["rate-window-never-resets"] },
  ],
  // 8 MUST: Mailboxes per create call: 1 to 50.
  "LIMIT-ACCOUNTS-PER-CALL": [
    { what: "A batch of 51 mailboxes is accepted.", mutants: ["acct-batch-51-accepted"] },
  ],
  // 8 MUST: Test emails: 12 per day per workspace.
  "LIMIT-TEST-EMAILS-12": [
    { what: "The 13th test email of the day is sent.", mutants: ["test-email-no-workspace-limit"] },
    { what: "The 12 are counted per mailbox (or campaign, or recipient), not per workspace: a second mailbox sends 12 more.", mutants: ["test-email-12-per-mailbox"] },
  ],
  // 8 MUST: Bulk lead mutate ids: max 1000.
  "LIMIT-MUTATE-IDS-1000": [
    { what: "1001 ids are accepted.", mutants: ["lead-mutate-ids-1001"] },
  ],
  // 8 MUST: Page size (lists): 1 to 100; 0 and 101 are rejected with 400.
  "LIMIT-PAGE-SIZE": [
    { what: "A page size of 101 (and above) is accepted.", mutants: ["page-size-101-accepted"] },
    { what: "The mailbox list (a referenced operation, its own handler) takes page sizes up to 1000.", mutants: ["page-size-accounts-list-1000"] },
    { what: "A campaign's lead list (a referenced operation, its own handler) takes page sizes up to 1000.", mutants: ["page-size-leads-list-1000"] },
    { what: "A page size of 0 is accepted (and answers an empty page).", mutants: ["page-size-0-accepted"] },
    { what: "The page size is ignored: pages always hold up to 100 items.", mutants: ["page-limit-ignored"] },
    { what: "A page size of 100 is refused: the bound is read as exclusive.", mutants: ["page-size-100-refused"] },
  ],
  // 8 MUST: Lead search by email: up to 10 matches.
  "LIMIT-SEARCH-10": [
    { what: "The search answers up to 50 matches.", mutants: ["lead-search-more-than-10"] },
  ],
  // 8 MUST: Analytics retention is reported as period.retentionDays.
  "LIMIT-RETENTION": [
    { what: "period.retentionDays is a string.", mutants: ["anlt-answer-retention-string"] },
    { what: "A period built per endpoint: the time series answers retentionDays as a string, the overview as null.", mutants: ["anlt-answer-ts-retention-string", "anlt-answer-ov-retention-null"] },
  ],
  // 8 MUST: Usage limit types: monthly_emails, active_contacts, ai_credits, email_validation, monthly_imports, lead_finder_credits.
  "LIMIT-USAGE-TYPES": [
    { what: "lead_finder_credits answers 404, as if it were not a limit type.", mutants: ["usage-type-missing"] },
  ],
  // 8 PROFILE: The size limit of the leads list in campaign creation (not shown): as the profile declares (declarations.campaignCreateMaxLeads).
  "LIMIT-CAMPAIGN-LEADS-PROFILE": [
    { what: "A campaign create takes one lead more than the declared limit.", mutants: ["camp-create-leads-one-over"] },
  ],
  // 9 MUST: All paths carry the prefix /v1.
  "VER-V1-PREFIX": [
    { what: "The lead search route is mounted without the prefix: /v1/leads/search answers 404.", mutants: ["ver-leads-search-unprefixed"] },
    { what: "The key revocation route is mounted without the prefix: DELETE /v1/api-keys/{id} answers 404.", mutants: ["ver-apikey-revoke-unprefixed"] },
    { what: "The usage route is mounted without the prefix: /v1/usage/{limitType} answers 404.", mutants: ["ver-usage-unprefixed"] },
  ],
};
