// Mutants of the resource rules of parts 2 to 4 (issue 4): mutant id -> the clause ids it breaks.
// Kept apart from catalog.ts so the people writing resource mutants edit only this file.
// Clause ids from suites/spec/clauses/{part2,part3,part4-*,part8}.ts; the rule each mutant breaks
// is in harness/reference/mutants.ts.
export const MUTANT_CLAUSES_RESOURCES: Record<string, string[]> = {
  // ---- mailboxes (2.1-2.4, 3.2, 4.2) ----
  'acct-password-returned': ['ACCT-PASSWORDS-NEVER-RETURNED', 'ACCT-IN-SMTPPASSWORD-NEVER-RETURNED'],
  'acct-signature-unsanitized': ['ACCT-IN-SIGNATURE-SANITIZED'],
  'acct-displayname-no-default': ['ACCT-IN-DISPLAYNAME-DEFAULT'],
  'acct-warmup-off-default': ['ACCT-IN-WARMUP-DEFAULT-ON'],
  'acct-bounds-maxemails-201': ['ACCT-IN-MAXEMAILSPERDAY-RANGE'],
  'acct-batch-fails-whole': ['ACCT-CREATE-INDEPENDENT', 'ACCT-CREATE-REST-CREATED'],
  'acct-duplicate-created': ['ACCT-CREATE-DUPLICATE'],
  'acct-new-status-active': ['ACCT-CREATE-START-INACTIVE', 'STATE-ACCT-CREATE-INACTIVE'],
  'acct-pause-inactive-allowed': ['ACCT-PAUSE-400-NOT-ACTIVE', 'STATE-ACCT-PAUSE-ACTIVE-ONLY'],
  'acct-email-mutable': ['ACCT-PATCH-EMAIL-IMMUTABLE', 'ACCT-EMAILADDRESS-IMMUTABLE'],
  'acct-patch-no-reverify': ['ACCT-PATCH-CREDS-ROTATE', 'STATE-ACCT-PATCH-CREDS-REVERIFY'],
  'acct-resume-no-reverify': ['STATE-ACCT-RESUME-CHECKING', 'STATE-ACCT-RESUME-FAILED-RECHECK'],
  'acct-verify-always-active': ['STATE-ACCT-CREATE-VERIFY', 'STATE-ACCT-FAILED-STATUSMESSAGE'],
  'acct-tags-filter-ignored': ['ACCT-LIST-TAG-FILTER', 'ACCT-LIST-TAGS-PARAM'],
  'acct-revoke-ignored': ['STATE-ACCT-OAUTH-REVOKED'],
  'acct-oauth-state-never-expires': ['ACCT-OAUTH-STATE-VALIDITY'],
  // ---- campaigns (2.5, 3.1, 4.3) ----
  'camp-empty-name-accepted': ['CAMP-CREATE-NAME-EMPTY', 'CAMP-NAME-NONEMPTY'],
  'camp-launch-without-lifecycle': ['CAMP-CREATE-LAUNCH-SCOPE'],
  'camp-launch-failure-400': ['STATE-CAMP-CREATE-LAUNCH-FAIL-EXISTS', 'STATE-CAMP-CREATE-LAUNCH-FAIL-FLAG', 'STATE-CAMP-CREATE-LAUNCH-FAIL-REASON'],
  'camp-leads-duplicates-as-created': ['CAMP-CREATE-LEADS-DUPLICATES', 'CAMP-CREATE-LEADS-COUNTS'],
  'camp-status-filter-ignored': ['CAMP-LIST-STATUS-FILTER'],
  'camp-patch-replaces-all': ['CAMP-PATCH-PARTIAL'],
  'camp-start-without-leads': ['STATE-CAMP-START-REQUIRES-LEADS', 'CAMP-START-400'],
  'camp-resume-without-mailbox': ['STATE-CAMP-RESUME-NEEDS-MAILBOX', 'CAMP-RESUME-400'],
  'camp-resume-blocked-by-unsendable-mailbox': ['STATE-CAMP-RESUME-UNSENDABLE-OK'],
  'camp-within-schedule-utc': ['CAMP-STATUS-WITHINSCHEDULE', 'CAMP-STATUS-WITHINSCHEDULE-CLOCK'],
  'camp-next-opens-always-set': ['CAMP-STATUS-NEXTOPENS-NULL-INWINDOW', 'CAMP-STATUS-NEXTOPENS-NULL-INACTIVE'],
  // ---- leads (2.6, 3.3, 4.4) ----
  'lead-platform-status-accepted': ['STATE-LEAD-PLATFORM-REJECTED', 'LEAD-PATCH-STATUS-RULES'],
  'lead-replied-status-before-reply': ['STATE-LEAD-REPLIED-BEFORE-REPLY', 'LEAD-PATCH-STATUS-RULES'],
  'lead-lost-needs-reply': ['STATE-LEAD-LOST-ANYTIME', 'STATE-LEAD-BLACKLISTED-ANYTIME'],
  'lead-email-change-after-contact': ['STATE-LEAD-EMAIL-CHANGE-CONTACTED'],
  'lead-delete-no-retention': ['STATE-LEAD-DELETE-RETENTION', 'LEAD-DELETE-ANSWER'],
  'lead-mutate-empty-filter-deletes-all': ['LEAD-MUTATE-FILTER-NONEMPTY', 'LEAD-MUTATE-EMPTY-FILTER-NEVER-ALL'],
  'lead-mutate-ids-1001': ['LEAD-MUTATE-IDS-MAX1000', 'LIMIT-MUTATE-IDS-1000'],
  'lead-mutate-all-with-ids': ['LEAD-MUTATE-ALL-EXCLUSIVE'],
  'lead-mutate-missing-not-reported': ['LEAD-MUTATE-ERRORS', 'LEAD-MUTATE-COUNTS'],
  'lead-search-case-sensitive': ['LEAD-SEARCH-CASE-INSENSITIVE'],
  'lead-search-more-than-10': ['LEAD-SEARCH-MAX10', 'LIMIT-SEARCH-10'],
  'lead-search-row-per-lead': ['LEAD-SEARCH-ONE-ROW-PER-CAMPAIGN'],
  // ---- lead searches (2.8, 3.4, 4.7) ----
  'lf-draft-listed': ['LF-LIST-NO-DRAFTS'],
  'lf-completedat-missing': ['STATE-LF-COMPLETEDAT-TERMINAL', 'LF-COMPLETEDAT-TS'],
  'lf-errormessage-missing': ['LF-ERRORMESSAGE-FAILED'],
  'lf-discovery-never-finished': ['STATE-LF-DISCOVERY-FINISHED'],
};
