// Mutants: named, documented deviations of the reference target from the spec.
//
// Each mutant breaks exactly one rule and is switched at exactly ONE place in the code, written
// as `if (mutant('<id>'))` (or `ctx.mutant('<id>')` in a handler). `grep -rn "'<id>'"
// harness/reference` finds that place. The kit's harness/mutation maps these ids to clause ids,
// so ids are stable: never rename one, add new ones instead.

export interface MutantInfo {
  readonly id: string;
  /** The spec sentence the mutant breaks, with its section. */
  readonly rule: string;
  readonly description: string;
}

export const MUTANTS = [
  // ---- authentication (part 5, part 7) ----
  { id: 'auth-missing-header-400', rule: '5.3 A missing, invalid or revoked key gives 401 `unauthenticated`.', description: 'A request without Authorization header answers 400 validation_failed instead of 401.' },
  { id: 'auth-scheme-unchecked', rule: '5.1 Every request sends `Authorization: Bearer <API_KEY>`.', description: 'The auth scheme is not checked: `Token <key>` or a bare key is accepted.' },
  { id: 'auth-unknown-key-403', rule: '5.3 A missing, invalid or revoked key gives 401 `unauthenticated`.', description: 'An unknown key answers 403 permission_denied instead of 401.' },
  { id: 'auth-revoked-key-valid', rule: '5.3 A missing, invalid or revoked key gives 401 `unauthenticated`.', description: 'Revoked keys keep working.' },
  { id: 'auth-401-wrong-code', rule: '7 401 authentication_error unauthenticated: key missing, invalid or revoked.', description: 'Every 401 carries code `invalid_api_key` instead of `unauthenticated`.' },
  { id: 'auth-401-echoes-key', rule: '5.5 The full secret of a key is displayed once, at creation.', description: 'The 401 answer to an unknown key quotes the key sent in its message.' },
  { id: 'auth-missing-scope-401', rule: '5.4 A key lacking the scope (and any covering wildcard) gets 403 `permission_denied`.', description: 'A missing scope answers 401 unauthenticated instead of 403.' },
  // ---- scopes and wildcards (part 5) ----
  { id: 'scope-all-read-grants-write', rule: '5 Wildcards: all:read covers every read-only scope in all domains; never a write, send or lifecycle scope.', description: 'all:read also grants write, send and lifecycle scopes.' },
  { id: 'scope-all-all-grants-apikeys', rule: '5 Wildcards: all:all covers everything except `apikeys:manage`.', description: 'all:all also grants apikeys:manage.' },
  { id: 'scope-domain-wildcard-ignored', rule: '5 Wildcards: campaigns:all, leads:all, emails:all, accounts:all cover every action in that domain.', description: 'Domain wildcards (campaigns:all etc.) grant nothing.' },
  { id: 'scope-all-read-misses-reads', rule: '5 Wildcards: all:read covers every read-only scope in all domains.', description: 'all:read is not accepted for metrics:read, leadfinder:read and usage:read.' },
  { id: 'scope-write-grants-lifecycle', rule: '5 Scopes accepted per endpoint group: lifecycle endpoints accept campaigns:lifecycle, campaigns:all, all:all.', description: 'campaigns:write is accepted where campaigns:lifecycle is required.' },
  { id: 'scope-mailbox-read-refuses-write', rule: '5 Scopes accepted per endpoint group: mailbox writes accept accounts:write, accounts:all, all:all; mailbox reads add accounts:read and all:read.', description: 'Mailbox reads (GET verification, list, get, OAuth status) refuse a key holding accounts:write alone (403).' },
  { id: 'scope-wildcard-500', rule: '5 / 4.1 Any wildcard covering the granular scope is also accepted (an accepted call is served, never a 5xx).', description: 'A call authorised only through a wildcard answers 500 api_error instead of being served.' },
  { id: 'scope-wildcard-404', rule: '5 / 4.1 Any wildcard covering the granular scope is also accepted (an accepted call is served).', description: 'A call authorised only through a wildcard answers 404 not_found (the route is hidden) instead of being served.' },
  { id: 'scope-denied-404', rule: '5.4 A key lacking the scope gets 403 `permission_denied`.', description: 'A missing scope answers 404 not_found instead of 403.' },
  { id: 'scope-wildcard-cross-domain', rule: '5 Wildcards: a domain wildcard covers every action in that domain (only that domain).', description: 'accounts:all also grants every campaigns:* scope.' },
  { id: 'apikeys-subset-unchecked', rule: '5 A key holding apikeys:manage can create only keys whose scopes are a subset of its own.', description: 'API key creation does not check the subset rule (any scopes, apikeys:manage included).' },
  { id: 'apikeys-manage-grantable', rule: '5 apikeys:manage is covered by no wildcard, can be granted only from the dashboard.', description: 'A key holding apikeys:manage can create keys holding apikeys:manage through the API.' },
  { id: 'plan-api-access-402', rule: '5.4 / 7 403 permission_denied when the plan does not include API access.', description: 'A plan without API access answers 402 payment_required instead of 403.' },
  { id: 'plan-api-access-ignored', rule: '5.4 403 is also returned when the plan does not include API access.', description: 'A workspace whose plan lacks API access is served normally.' },
  // ---- conventions (4.1) ----
  { id: 'conv-start-status-undeclared', rule: '4.1 Success status codes other than 201 for POST /v1/accounts: not shown (as the profile declares).', description: 'POST /v1/campaigns/{id}/start answers 202 although the profile declares 200.' },
  { id: 'conv-answers-text-plain', rule: '4.1 Request and response bodies are JSON.', description: 'Successful answers carry their JSON labelled Content-Type text/plain.' },
  { id: 'res-unset-dates-null', rule: '2 `null` is used for an absent optional value where stated (reading: elsewhere an absent value is omitted).', description: "A campaign's unset schedule startDate and endDate are written null instead of omitted." },
  // ---- error envelope (part 7) ----
  { id: 'err-status-mismatch', rule: '7 `status` repeats the HTTP status.', description: 'On 404 responses the envelope says status 400.' },
  { id: 'err-requestid-not-uuid', rule: '7 `requestId` is a uuid string.', description: 'requestId is a non-uuid string (req_<hex>).' },
  { id: 'err-requestid-constant', rule: '7 `requestId` is a uuid string (one per request).', description: 'Every error carries the same requestId.' },
  { id: 'err-type-wrong', rule: '7 404 invalid_request_error not_found.', description: '404 errors carry type `not_found_error`.' },
  { id: 'err-validation-no-details', rule: '7 `details` (array of strings) accompanies validation failures.', description: 'Validation failures carry no details.' },
  { id: 'err-validation-wrong-code', rule: '7 400 invalid_request_error validation_failed: body or parameters invalid.', description: 'Validation failures carry code `invalid_request` instead of `validation_failed`.' },
  { id: 'err-429-no-retryafter-field', rule: '7 `retryAfter` (seconds) accompanies 429.', description: 'The 429 envelope has no retryAfter field (the header stays).' },
  { id: 'err-unknown-route-text', rule: '7 Every error response is `{ error: {...} }`; 9 unknown paths answer 404.', description: 'Unknown routes answer a plain-text 404 body.' },
  { id: 'err-malformed-json-500', rule: '7 400 validation_failed when the body is invalid.', description: 'A malformed JSON body answers 500 api_error.' },
  { id: 'robust-deep-nesting-500', rule: '7 400 validation_failed when the body is invalid (a caller\'s error is never a 5xx).', description: 'A body nested deeper than 1,000 levels overflows a recursive walk and answers 500 api_error.' },
  { id: 'err-envelope-unwrapped', rule: '7 Every error response is `{ error: { type, code, message, status, requestId, ... } }`.', description: 'On 403 the error fields are at the top level, without the `error` wrapper.' },
  // ---- idempotency (4.1) ----
  { id: 'idem-ignored', rule: '4.1 A retry with the same Idempotency-Key replays the original response.', description: 'Idempotency-Key is ignored: every retry executes again.' },
  { id: 'idem-replay-status-200', rule: '4.1 A retry with the same key replays the original response.', description: 'Replays answer 200 instead of the original status.' },
  { id: 'idem-reuse-replays', rule: '4.1 The same key with a different body gives 422 `idempotency_key_reused`.', description: 'A different body with a used key replays the first response instead of 422.' },
  { id: 'idem-no-inflight-lock', rule: '4.1 The same key while the first request is still processing gives 409 `conflict`.', description: 'No in-flight lock: concurrent requests with one key all execute.' },
  { id: 'idem-long-key-accepted', rule: '4.1 / 8 Idempotency-Key: max 255 chars.', description: 'Keys longer than 255 characters are accepted.' },
  { id: 'idem-cross-workspace', rule: '4.1 Idempotency-Key replays the original response (to its own caller; the reference scopes keys per workspace).', description: 'Idempotency keys are global: another workspace using the same key gets the first workspace\'s response (or 422).' },
  { id: 'idem-scope-per-key', rule: '4.1 Idempotency-Key replays the original response (the reference scopes keys per workspace: any key of the workspace gets the replay).', description: 'Idempotency keys are scoped per API key: a second key of the same workspace executes again.' },
  // ---- pagination (4.1, 8) ----
  { id: 'page-oldest-first', rule: '4.1 List endpoints return newest first.', description: 'Lists are ordered oldest first.' },
  { id: 'camp-create-leads-one-over', rule: '8 The size limit of the leads list in campaign creation (not shown: as the profile declares).', description: 'A campaign create takes one lead more than the declared limit.' },
  { id: 'camp-list-pagesize-clamped', rule: '4.2 GET /v1/campaigns query: page size 1 to 100.', description: 'The campaign list clamps a page size of 0 or 101 into 1..100 instead of refusing it (other lists refuse).' },
  { id: 'page-size-101-accepted', rule: '8 Page size (lists): 1 to 100.', description: 'A page size of 101 (and above) is accepted.' },
  { id: 'page-size-0-accepted', rule: '8 Page size (lists): 1 to 100.', description: 'A page size of 0 is accepted (and answers an empty page).' },
  { id: 'page-offset-cursor', rule: '4.1 Lists are stable under concurrent changes.', description: 'The cursor is an offset: inserts and deletes during a walk repeat or skip items.' },
  { id: 'page-hasmore-always-true', rule: '4.1 meta: { hasMore: boolean, nextCursor } (hasMore false on the last page).', description: 'hasMore is always true, even on the last page.' },
  { id: 'page-garbage-cursor-first-page', rule: '4.1 The next-page cursor is opaque and taken from meta.nextCursor (a garbage cursor is invalid: 400).', description: 'A garbage cursor silently answers the first page.' },
  { id: 'page-limit-ignored', rule: '4.3/4.7 query: page size 1 to 100.', description: 'The page size is ignored: pages always hold up to 100 items.' },
  { id: 'page-cursor-inclusive', rule: '4.1 Cursor pagination, stable: a walk returns each item once.', description: 'The cursor is inclusive: the last item of a page is repeated first on the next page.' },
  { id: 'page-nextcursor-null', rule: '4.1 meta: { hasMore, nextCursor: string }; the next-page cursor is taken from meta.nextCursor.', description: 'nextCursor is null even when hasMore is true.' },
  // ---- rate limit (part 8) ----
  { id: 'rate-per-key', rule: '8 API rate: 120 requests per 60 seconds, per workspace, shared by all keys of the workspace.', description: 'The limit is counted per API key, not per workspace.' },
  { id: 'rate-global', rule: '8 API rate: 120 requests per 60 seconds, per workspace.', description: 'One bucket for all workspaces together.' },
  { id: 'rate-no-retry-after-header', rule: '8 Rate-limit signals: 429 with `Retry-After` (seconds).', description: '429 responses carry no Retry-After header.' },
  { id: 'rate-no-remaining-header', rule: '8 Rate-limit signals: header `X-RateLimit-Remaining`.', description: 'No X-RateLimit-Remaining header.' },
  { id: 'rate-remaining-per-key', rule: '8 API rate: per workspace, shared by all keys (X-RateLimit-Remaining counts the workspace).', description: 'X-RateLimit-Remaining is counted per key while the limit is enforced per workspace.' },
  { id: 'rate-limit-150', rule: '8 API rate: 120 requests per 60 seconds.', description: 'The limit is 150 requests per 60 seconds.' },
  { id: 'rate-window-never-resets', rule: '8 API rate: 120 requests per 60 seconds (the window slides; after Retry-After the workspace is served).', description: 'A workspace that hit 429 stays limited for 10 minutes past the window.' },
  { id: 'rate-429-wrong-type', rule: '7 429 rate_limit_error rate_limited.', description: '429 responses carry type invalid_request_error and code too_many_requests.' },
  // ---- workspace isolation (parts 1, 5, 7) ----
  { id: 'tenant-apikeys-list-leak', rule: '5.2 The key identifies the workspace (a list shows only the caller\'s workspace).', description: 'GET /v1/api-keys lists the keys of every workspace.' },
  { id: 'tenant-isolation-broken', rule: '5.2 The key identifies the workspace; 7 404 not_found: resource absent from the workspace.', description: 'Resources of other workspaces are found by id (campaigns, leads, mailboxes, emails).' },
  // ---- versioning (part 9) ----
  { id: 'evt-listing-stale', rule: '6 Events: not shown; 3.2 poll the mailbox for the outcome (every background result shows on the reads).', description: 'The mailbox listing shows every mailbox as created (inactive), whatever its verification gave.' },
  { id: 'svc-lead-searches-trailing-slash', rule: '1 All paths are relative to {base_url}.', description: 'The lead searches list answers only at /v1/lead-searches/ (trailing slash); {base_url}/v1/lead-searches is 404.' },
  { id: 'ver-v2-alias', rule: '9 All paths carry the prefix /v1 (another version is unknown: 404).', description: '/v2/... is served like /v1/....' },
  // ---- workspace, usage, API keys (2.9, 4.7) ----
  { id: 'usage-percentage-fraction', rule: '2.9 usagePercentage: used / limit x 100.', description: 'usagePercentage is a fraction 0..1.' },
  { id: 'usage-unlimited-limit-zero', rule: '2.9 limit: number or null when unlimited.', description: 'Unlimited usage reports limit 0 instead of null.' },
  { id: 'usage-remaining-wrong', rule: '2.9 remaining: number (limit - used) or null when unlimited.', description: 'remaining equals limit (used is not subtracted).' },
  { id: 'usage-unknown-type-200', rule: '4.7 limitType is one of the six values in 2.9 (others: 404).', description: 'An unknown limitType answers 200 with zero usage.' },
  { id: 'usage-unlimited-percentage-nonzero', rule: '2.9 usagePercentage is 0 when unlimited.', description: 'Unlimited usage reports usagePercentage 100 when anything was used.' },
  { id: 'apikey-revoke-shape', rule: '4.7 DELETE /v1/api-keys/{id}: `{ success: true }`.', description: 'Revoke answers `{ revoked: true }`.' },
  { id: 'apikey-revoke-not-immediate', rule: '4.7 Revocation is immediate and cannot be undone.', description: 'A revoked key keeps working until the clock has advanced 60 seconds past the revocation.' },
  { id: 'workspace-missing-timezone', rule: '2.9 Workspace: organizationId, name, timezone.', description: 'GET /v1/workspace omits timezone.' },
  // ---- mailboxes (2.1-2.4, 3.2, 4.2) ----
  { id: 'acct-tracking-domain-dropped', rule: '2.1 Mailbox `tracking`: object with `domainId` (uuid string).', description: 'A mailbox created with a tracking domain shows tracking without its domainId.' },
  { id: 'acct-password-returned', rule: '2.1 / 2.2 smtpPassword, imapPassword: stored encrypted, never returned ("passwords are never returned").', description: 'Mailbox answers carry smtp.password (the decrypted SMTP password).' },
  { id: 'acct-verify-error-quotes-login', rule: '2.1 / 2.2 smtpPassword: stored encrypted, never returned.', description: 'A failed verification reports the SMTP error with the login it tried, password included (verification result and statusMessage).' },
  { id: 'acct-signature-unsanitized', rule: '2.2 signature: HTML, sanitized on save.', description: 'The signature is stored and returned as sent (<script>, on* handlers, javascript: URLs kept).' },
  { id: 'acct-displayname-no-default', rule: '2.2 displayName: defaults to first name plus last name.', description: 'An omitted displayName stays empty.' },
  { id: 'acct-imap-invalid-cert-ignored', rule: '2.2 imapAllowInvalidCert: accept a self-signed IMAP certificate.', description: 'imapAllowInvalidCert is ignored: a self-signed IMAP certificate always fails verification.' },
  { id: 'acct-default-maxemails-changed', rule: '2.2 Defaults of optional mailbox fields: not shown (the reference declares maxEmailsPerDay 50 in its profile).', description: 'An omitted maxEmailsPerDay defaults to 100, not the declared 50.' },
  { id: 'warmup-pool-access-undeclared', rule: '2.3 Allowed values of poolAccess: not shown (the reference declares "free").', description: 'A new warmup answers poolAccess "paid", outside the declared values.' },
  { id: 'warmup-bounds-unchecked', rule: '2.3 Bounds of warmup fields: not shown (the reference declares maxPerDay 1 to 200).', description: 'warmup.maxPerDay accepts any whole number.' },
  { id: 'camp-name-optional', rule: '2.5 Required campaign create fields: not shown (the reference declares name required).', description: 'POST /v1/campaigns without a name creates a campaign.' },
  { id: 'acct-batch-error-no-index', rule: '4.2 Shape of each element of errors: not shown (the reference declares index, emailAddress, code, message).', description: 'Batch error elements carry no index.' },
  { id: 'acct-warmup-off-default', rule: '2.2 warmup: omitted means defaults are accepted and warmup is ON.', description: 'An omitted warmup gives warmup.enabled false.' },
  { id: 'acct-bounds-maxemails-201', rule: '2.2 / 8 maxEmailsPerDay: 1 to 200.', description: 'maxEmailsPerDay 201 is accepted.' },
  { id: 'acct-batch-fails-whole', rule: '4.2 / 7 Each element is validated and created independently; batch creation does not fail as a whole on per-element errors.', description: 'One invalid element makes the whole POST /v1/accounts answer 400; nothing is created.' },
  { id: 'acct-duplicate-created', rule: '4.2 errors holds those that could not be connected (for example an email already connected elsewhere).', description: 'An address already connected is connected again (a second mailbox) instead of an element error.' },
  { id: 'acct-new-status-active', rule: '1 / 3.2 Newly connected mailboxes start `inactive` and are verified in the background.', description: 'A new mailbox starts active (before any verification).' },
  { id: 'acct-pause-inactive-allowed', rule: '3.2 / 4.2 pause: status must be active, otherwise 400.', description: 'Pausing an inactive (or failed, checking) mailbox succeeds.' },
  { id: 'acct-email-mutable', rule: '2.1 / 4.2 emailAddress cannot be changed after creation.', description: 'PATCH changes emailAddress.' },
  { id: 'acct-patch-no-reverify', rule: '3.2 / 4.2 Any `smtp*` or `imap*` field rotates credentials and re-runs verification.', description: 'A PATCH of credentials stores them but leaves status and verification as they were (no new verification).' },
  { id: 'acct-resume-no-reverify', rule: '3.2 resume: inactive or failed -> checking and re-verification.', description: 'Resume makes the mailbox active at once, without checking or re-verification.' },
  { id: 'acct-oauth-resume-no-reverify', rule: '3.2 resume: inactive or failed -> checking and re-verification.', description: 'Resume makes an OAuth mailbox active at once, without checking or re-verification (SMTP/IMAP mailboxes are re-checked).' },
  { id: 'acct-verify-always-active', rule: '3.2 / 2.1 verified in the background; a failure leaves `statusMessage` with the provider reason.', description: 'Verification reports success whatever the servers answer (wrong passwords, unreachable hosts give active).' },
  { id: 'acct-tags-filter-ignored', rule: '2.1 / 4.3 The list can be filtered by tag ids; the tag filter on mailboxes is `tags`.', description: 'GET /v1/accounts ignores `tags` (every mailbox listed).' },
  { id: 'acct-revoke-ignored', rule: '3.2 any OAuth mailbox: OAuth grant withdrawn -> revoked.', description: 'A withdrawn grant (control POST /accounts/{id}/revoke-oauth) leaves the mailbox active.' },
  { id: 'acct-oauth-any-provider', rule: '4.2 POST /v1/accounts/oauth/{provider}/init: path `provider` is `google` or `microsoft` (part 7: 400 when parameters are invalid).', description: 'An init for any other provider (yahoo) answers 200 with an authorization URL and a state.' },
  { id: 'acct-oauth-state-never-expires', rule: '4.2 `state` is an opaque handle that stays valid for `expiresInSeconds` seconds.', description: 'The OAuth status poll never reports expired: an old state stays pending.' },
  // ---- campaigns (2.5, 3.1, 4.3) ----
  { id: 'camp-empty-name-accepted', rule: '2.5 Campaign name: must not be empty.', description: 'POST /v1/campaigns accepts name "".' },
  { id: 'camp-launch-without-lifecycle', rule: '4.3 POST /v1/campaigns: campaigns:write (plus campaigns:lifecycle when `launch` is true).', description: 'launch: true works with campaigns:write alone.' },
  { id: 'camp-launch-failure-400', rule: '3.1 With `launch` true, if it cannot launch the campaign still exists, `launched` is false and `launchError` gives the reason.', description: 'A launch that cannot happen answers 400 and creates nothing.' },
  { id: 'camp-leads-duplicates-as-created', rule: '4.3 leads: { submitted, created, duplicates, invalid }.', description: 'Duplicate lead emails are counted as created (duplicates always 0).' },
  { id: 'camp-tags-filter-ignored', rule: '4.3 GET /v1/campaigns query: tag ids (comma-separated; campaigns with at least one of them); the tag filter on mailboxes is `tags`.', description: 'GET /v1/campaigns ignores its tag filter (every campaign listed).' },
  { id: 'camp-status-filter-ignored', rule: '4.3 GET /v1/campaigns: status filter (one campaign status).', description: 'The status filter is ignored (every campaign listed).' },
  { id: 'camp-patch-replaces-all', rule: '4.3 PATCH /v1/campaigns/{id}: only supplied sections change.', description: 'Sections left out of a PATCH are reset to their defaults (schedule, settings, sequence, accounts).' },
  { id: 'camp-start-without-leads', rule: '3.1 / 4.3 start: campaign has leads and a sequence; otherwise 400.', description: 'A campaign without leads (but with a sequence) starts.' },
  { id: 'camp-start-without-sequence', rule: '3.1 / 4.3 start: campaign has leads and a sequence; otherwise 400.', description: 'A campaign with leads but without a sequence starts.' },
  { id: 'camp-patch-sequence-appends', rule: '4.3 PATCH: `sequence`, when present, replaces the existing set.', description: 'A PATCH sequence is appended to the existing steps.' },
  { id: 'camp-patch-accounts-merged', rule: '4.3 PATCH: `accounts`, when present, replaces the existing set.', description: 'PATCH accounts are added to the existing senders (none removed).' },
  { id: 'camp-resume-without-mailbox', rule: '3.1 / 4.3 resume: workspace has at least one mailbox, otherwise 400.', description: 'A paused campaign resumes in a workspace without any mailbox.' },
  { id: 'camp-resume-blocked-by-unsendable-mailbox', rule: '3.1 A mailbox that exists but cannot send now does not block the resume.', description: 'Resume answers 400 unless the workspace has an active mailbox.' },
  { id: 'camp-within-schedule-utc', rule: '2.5 schedule.timezone (IANA); status view isWithinSchedule: inside the sending window (in the schedule\'s timezone).', description: 'isWithinSchedule reads the sending days and minutes in UTC, ignoring schedule.timezone.' },
  { id: 'camp-next-opens-always-set', rule: '2.5 nextScheduleOpensAt: null when in-window or not active.', description: 'nextScheduleOpensAt carries the next opening even in-window or when the campaign is not active.' },
  // ---- leads (2.6, 3.3, 4.4) ----
  { id: 'lead-platform-status-accepted', rule: '3.3 Set status to a platform-managed status such as `email_sent` or `scheduled`: rejected.', description: 'PATCH accepts any status string (email_sent, scheduled...).' },
  { id: 'lead-replied-status-before-reply', rule: '3.3 lead_replied_* and lead_converted: only when the lead has already replied.', description: 'Replied-only statuses are set on leads that never replied.' },
  { id: 'lead-lost-needs-reply', rule: '3.3 lead_lost or blacklisted: any time.', description: 'lead_lost and blacklisted are refused (400) until the lead replied.' },
  { id: 'lead-email-change-after-contact', rule: '3.3 change `email` via PATCH: lead not yet contacted; otherwise rejected.', description: 'The email of a contacted lead can be changed.' },
  { id: 'lead-delete-no-retention', rule: '3.3 / 4.4 DELETE of a contacted lead: soft-deleted, `retentionDays` returned.', description: 'DELETE of a lead answers { success: true } without retentionDays.' },
  { id: 'lead-mutate-empty-filter-deletes-all', rule: '4.4 filter must hold at least one condition, an empty filter is rejected; an empty filter never deletes all.', description: 'delete with filter {} is accepted and deletes every lead of the campaign.' },
  { id: 'lead-mutate-ids-1001', rule: '4.4 / 8 Bulk lead mutate ids: max 1000.', description: '1001 ids are accepted.' },
  { id: 'lead-mutate-all-with-ids', rule: '4.4 all: mutually exclusive with `ids` and `filter`.', description: 'delete with all: true and ids is accepted.' },
  { id: 'lead-mutate-missing-not-reported', rule: '4.4 errors carries messages such as a count of leads not found in the campaign.', description: 'Ids not found in the campaign are neither counted in failed nor reported in errors.' },
  { id: 'lead-search-case-sensitive', rule: '4.4 GET /v1/leads/search: an email or fragment, case-insensitive.', description: 'The search compares case-sensitively.' },
  { id: 'lead-search-more-than-10', rule: '4.4 / 8 Lead search by email: up to 10 matches.', description: 'The search answers up to 50 matches.' },
  { id: 'lead-new-status-other', rule: '2.6 Lead status of a lead never contacted (seen: `not_contacted`; declared in the profile).', description: 'A new lead gets the status `new_lead`, not the one chosen (and declared).' },
  { id: 'lead-search-row-per-lead', rule: '4.4 One row per campaign containing the email.', description: 'Several matching leads of one campaign give several rows.' },
  // ---- lead searches (2.8, 3.4, 4.7) ----
  { id: 'lf-draft-listed', rule: '4.7 GET /v1/lead-searches: in-progress chat drafts are not listed.', description: 'Draft searches are listed.' },
  { id: 'lf-completedat-missing', rule: '2.8 / 3.4 completedAt is set when a terminal state is reached.', description: 'completedAt stays null in completed, stopped and failed.' },
  { id: 'lf-errormessage-missing', rule: '2.8 errorMessage: set when status is `failed`.', description: 'A failed search has errorMessage null.' },
  { id: 'lf-discovery-never-finished', rule: '2.8 / 3.4 discoveryFinished becomes true when discovery ends while later phases may continue.', description: 'discoveryFinished stays false in every state.' },
  // ---- the send path (2.1 mailbox sending fields, 2.5 sequence, schedule, settings, 3.1, 3.2, 4.3 test email, 4.5) ----
  { id: 'send-nothing', rule: '3.1 POST /v1/campaigns/{id}/start: sending begins.', description: 'A started campaign never sends.' },
  { id: 'send-bcc-header', rule: '2.1 bcc: address receiving a blind copy of every email from this mailbox.', description: 'The blind copy is not blind: its address is written in a header every recipient sees (Cc).' },
  { id: 'send-no-signature', rule: '2.1 signature: HTML signature appended to outgoing emails.', description: 'The signature is not appended.' },
  { id: 'send-signature-raw', rule: '2.1 / 2.2 signature: HTML signature appended to outgoing emails; sanitized on save.', description: 'The signature is sanitized in what the API answers, but the email carries it as given (<script>, on* handlers, javascript: URLs).' },
  { id: 'send-signature-entities-decoded', rule: '2.1 / 2.2 signature: HTML signature appended to outgoing emails; sanitized on save.', description: "The signature is appended with its HTML entities decoded: markup the sanitizer kept as text (&lt;script&gt;) reaches the email as tags." },
  { id: 'send-subject-header-injection', rule: '2.5 subject (string) with merge variables: the subject of the email sent (one header).', description: 'The subject is written to the email as merged, unchecked: CR/LF in a merge value or the step subject starts new header lines (Bcc:, X-...).' },
  { id: 'send-no-reply-to', rule: '2.1 replyToAddress: where replies go when different from the mailbox address.', description: 'Outgoing emails carry no Reply-To.' },
  { id: 'send-display-name-ignored', rule: '2.1 displayName: sender display name.', description: 'From carries the mailbox address without its display name.' },
  { id: 'send-gap-per-campaign', rule: '2.1 sendingGapMinutes: minimum minutes between two sends from this mailbox, across all campaigns.', description: 'The gap is kept per campaign: two campaigns sharing a mailbox send at the same time.' },
  { id: 'send-cap-per-campaign', rule: '2.1 maxEmailsPerDay: daily campaign send cap.', description: 'The daily cap is counted per campaign, so a mailbox in two campaigns sends twice its cap.' },
  { id: 'send-slow-ramp-ignored', rule: '2.1 campaignSlowRamp: ramp campaign volume gradually when the mailbox joins a campaign.', description: 'A mailbox with campaignSlowRamp sends up to its daily cap from its first day in a campaign.' },
  { id: 'send-paused-mailbox-sends', rule: '3.2 Paused mailbox: campaigns and warmup skip it.', description: 'A paused (inactive) mailbox keeps sending campaign mail.' },
  { id: 'send-deleted-mailbox-sends', rule: '3.2 DELETE /v1/accounts/{id}: sending stops immediately.', description: 'A deleted mailbox keeps sending until its queue is empty.' },
  { id: 'send-followups-from-paused-mailbox', rule: '3.2 Paused mailbox: campaigns and warmup skip it.', description: 'A paused mailbox takes no new lead, but the follow-up steps of the threads it started still go from it.' },
  { id: 'send-followups-from-deleted-mailbox', rule: '3.2 DELETE /v1/accounts/{id}: sending stops immediately.', description: 'A deleted mailbox leaves the API at once, but the follow-up steps of the threads it started still go from it.' },
  { id: 'send-resume-restarts', rule: '3.1 Resume: sending continues from where it left off.', description: 'A resumed campaign starts its sequence over, sending every step again.' },
  { id: 'send-failures-never-fail', rule: '3.2 active -> repeated sending failures -> failed.', description: 'A mailbox whose SMTP server refuses every send stays active.' },
  { id: 'send-failures-first-refusal', rule: '3.2 active -> repeated sending failures -> failed (how many: as the profile declares).', description: 'A mailbox turns failed at its first refused send, not after the declared count.' },
  { id: 'send-failures-threshold-late', rule: '3.2 active -> repeated sending failures -> failed (how many: as the profile declares).', description: 'A mailbox turns failed only two refusals after the declared count.' },
  { id: 'send-rcpt-refusal-not-counted', rule: '3.2 repeated sending failures (a refused recipient counts as the profile declares: here a failure of the mailbox).', description: 'Recipients refused at RCPT TO never count toward the mailbox failing, although the profile declares they do.' },
  { id: 'send-statusmessage-generic', rule: '3.2 Failed mailbox: statusMessage holds the provider reason.', description: "statusMessage of a mailbox failed by SMTP refusals is a generic message, not the provider's answer." },
  { id: 'send-daily-limit-ignored', rule: "2.5 Reading of schedule: at most dailyLimit emails a day.", description: "A campaign's dailyLimit is not kept: it sends as its mailboxes allow." },
  { id: 'send-schedule-dates-ignored', rule: '2.5 Reading of schedule: not before startDate nor after endDate.', description: "A campaign sends before its startDate and after its endDate." },
  { id: 'send-sending-days-ignored', rule: '2.5 Reading of schedule: emails are sent only on sendingDays.', description: 'A campaign sends on every day of the week, whatever its sendingDays.' },
  { id: 'send-window-ignored', rule: '2.5 schedule: emails go only inside the sending window.', description: 'Campaign mail goes out at any hour and day.' },
  { id: 'send-step-delay-ignored', rule: '2.5 sequence steps: delayDays, delayHours.', description: 'Every step is sent as soon as the previous one went.' },
  { id: 'send-delay-hours-ignored', rule: '2.5 sequence steps: delayDays, delayHours (a step\'s delay).', description: 'A step waits its delayDays only: its delayHours are ignored.' },
  { id: 'send-step-twice', rule: '2.5 sequence: every step goes to every lead once.', description: 'A step is sent again to a lead that already received it.' },
  { id: 'send-merge-unrendered', rule: '2.5 merge variables such as company name and first name.', description: "Merge variables render empty instead of the lead's values." },
  { id: 'send-text-only-ignored', rule: '2.5 settings.sendAsTextOnly.', description: 'Emails carry an HTML part although sendAsTextOnly is true.' },
  { id: 'send-tracking-always', rule: '2.5 settings.trackOpens / trackClicks.', description: 'The open pixel and rewritten links are added although tracking is off.' },
  { id: 'send-metrics-not-counted', rule: '2.5 metrics.sent.', description: 'Campaign metrics.sent does not move with sends.' },
  { id: 'send-usage-not-counted', rule: '2.9 monthly_emails usage.', description: 'monthly_emails used does not move with campaign sends.' },
  { id: 'send-stop-on-reply-ignored', rule: '2.5 settings.stopOnReply.', description: 'A lead who replied keeps receiving the sequence although stopOnReply is true.' },
  { id: 'reply-not-recorded', rule: '3.3 Set a replied status: lead has already replied.', description: 'A reply found in the mailbox is stored but the lead is not marked as replied.' },
  { id: 'test-email-counts-monthly', rule: '4.3 A test email does not count toward the monthly quota.', description: 'A test email adds to monthly_emails.' },
  { id: 'test-email-no-daily-limit', rule: "4.3 A test email counts toward that mailbox's daily limit.", description: 'A test email goes out from a mailbox at its daily limit.' },
  { id: 'test-email-no-workspace-limit', rule: '8 Test emails: 12 per day per workspace.', description: 'The 13th test email of the day is sent.' },
  { id: 'test-email-blacklist-ignored', rule: '4.3 recipient: refused if the address or its domain is on the blacklist.', description: 'The blacklist is not consulted.' },
  { id: 'test-email-sent-on-refusal', rule: '4.3 { sent, messageId }; may answer 503 upstream_unavailable.', description: "An SMTP refusal answers { sent: true }." },
  { id: 'test-email-upstream-down-not-503', rule: '4.3 / 7 A test email may answer 503 `upstream_unavailable`: a dependency is temporarily unavailable.', description: "When the mailbox's SMTP server closes the connection without an answer, the test email answers 200 { sent: false } instead of 503 upstream_unavailable." },
  { id: 'test-email-foreign-mailbox', rule: '4.3 accountId: a mailbox of the workspace.', description: "A test email goes out from another workspace's mailbox named by accountId." },
  { id: 'test-email-dummy-unfilled', rule: '4.3 dummy fills placeholders.', description: 'With personalization dummy the placeholders stay as written.' },
  { id: 'email-delete-still-listed', rule: '4.5 DELETE /v1/emails/{id}: the email stops appearing in listings.', description: 'A deleted email is still listed.' },
  { id: 'email-unreadable-200', rule: '4.5 GET /v1/emails/{id}: 503 if the stored body cannot be read now (a 200 always carries real content).', description: 'An unreadable body answers 200 with a null body.' },
  { id: 'email-no-413', rule: '4.5 413 body_too_large when the message is too large to return inline.', description: 'Any email is returned inline, however large.' },
  { id: 'email-threadid-null', rule: '2.7 `threadId` (opaque string or null; pass back as is): a reply is in the conversation of the email it answers.', description: 'Every email answers threadId null, a lead\'s reply to a sent campaign email too (the listing and GET).' },
  { id: 'email-snippet-empty', rule: '2.7 `snippet` (short preview).', description: 'Every email answers an empty snippet (the listing and GET).' },
  { id: 'email-body-text-dropped', rule: '2.7 `body` (object with `html` and `text`; a null part was never stored).', description: 'GET /v1/emails/{id} answers body.text null although the text part was stored (html is kept).' },
  { id: 'email-list-with-body', rule: '4.5 GET /v1/emails/{id} is the only endpoint returning a body.', description: 'The listing carries every body too.' },
  // ---- analytics (2.10, 4.6) ----
  { id: 'anlt-overview-active-counts-unsent', rule: '2.10 Workspace overview adds `activeCampaigns` (campaigns currently sending).', description: 'activeCampaigns also counts draft, scheduled and paused campaigns.' },
  { id: 'anlt-breakdown-always', rule: '4.6 Each breakdown is present only when requested.', description: 'Every breakdown is answered, requested or not.' },
  { id: 'anlt-ooo-rate-kept', rule: '4.6 The out-of-office flag removes out-of-office auto-replies from the reply rate.', description: 'With the flag set, replies leave the auto-replies out but the reply rate still counts them.' },
  { id: 'anlt-days-in-utc', rule: "4.6 Reporting is by whole calendar day in the workspace timezone.", description: "Analytics windows are read as UTC days, whatever the workspace's timezone." },
  { id: 'anlt-ooo-always', rule: '4.6 The out-of-office flag removes out-of-office auto-replies from reply counts and the reply rate.', description: 'The flag is ignored: auto-replies always count.' },
  { id: 'anlt-end-exclusive', rule: '4.6 The end is inclusive through the end of its day.', description: 'The end day is left out of the window.' },
  { id: 'anlt-time-part-kept', rule: '4.6 The time component is ignored.', description: 'A window date with a time starts or ends at that time.' },
  { id: 'anlt-overview-all-workspaces', rule: "4.6 The overview rolls up the caller's workspace.", description: 'The overview counts every workspace.' },
  { id: 'anlt-coarsen-down', rule: '4.6 Long windows are coarsened automatically (day, then week, then month).', description: 'A request by month over a short window answers by day.' },
  { id: 'anlt-clamp-silent', rule: '4.6 period.clamped.', description: 'A window moved up to the retention floor says clamped: false.' },
  { id: 'anlt-never-coarsen', rule: '4.6 Long windows are coarsened automatically (day, then week, then month).', description: 'The time series answers by the interval asked however long the window (past the declared coarsening lengths).' },
  { id: 'anlt-coarsen-label-only', rule: '4.6 Long windows are coarsened automatically; the response states the interval used.', description: 'A long window states the coarser interval, but its points stay one per day.' },
  { id: 'anlt-interval-unknown-accepted', rule: '4.6 Timeseries interval (enum `day`, `week`, `month`); 7: invalid parameters give 400.', description: 'An interval outside the enum (hour) is answered as if none were given.' },
  { id: 'anlt-breakdown-unknown-accepted', rule: '4.6 breakdown values `smtp`, `sequence`, `bounce`.', description: 'An unknown breakdown value is ignored instead of refused.' },
  { id: 'anlt-rates-fraction', rule: '2.10 `rates` (percent numbers).', description: 'Rates are fractions of 1: a campaign whose every email was delivered shows a delivery rate of 1, not 100.' },
  { id: 'anlt-clamp-other-rule', rule: '4.6 The exact clamping rule behind period.clamped (declared in the profile).', description: 'The retention floor follows the other clamping rule than the one chosen: one day off.' },
] as const satisfies readonly MutantInfo[];

export type MutantId = (typeof MUTANTS)[number]['id'];

export const MUTANT_IDS: ReadonlySet<string> = new Set(MUTANTS.map((m) => m.id));

/** Validates a list of mutant ids; throws with the list of known ids on an unknown one. */
export function checkMutantIds(ids: readonly string[]): MutantId[] {
  const unknown = ids.filter((id) => !MUTANT_IDS.has(id));
  if (unknown.length > 0) {
    throw new Error(
      `unknown mutant id(s): ${unknown.join(', ')}; known ids: ${[...MUTANT_IDS].join(', ')}`,
    );
  }
  return [...new Set(ids)] as MutantId[];
}

/** The per-instance switch: `const mutant = mutantSwitch(['page-oldest-first'])`. */
export type MutantSwitch = (id: MutantId) => boolean;
export function mutantSwitch(ids: readonly string[]): MutantSwitch {
  const on = new Set(checkMutantIds(ids));
  return (id) => on.has(id);
}

/** Where the mutant send-followups-from-deleted-mailbox keeps a deleted mailbox (no workspace has this id). */
export const DELETED_ORG_PREFIX = 'deleted:';
export const deletedOrg = (orgId: string): string => `${DELETED_ORG_PREFIX}${orgId}`;
