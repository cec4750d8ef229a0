// Mutants of the endpoint rules of 4.4 to 4.7 and part 9 (leads, lead search, analytics queries,
// lead searches, workspace, API keys, the /v1 prefix) and of the names the profile declares:
// mutant id -> the clause ids it breaks. ALSO_BREAKS_ENDPOINTS: clauses of these sections that
// mutants catalogued elsewhere break too (merged into MUTANT_CLAUSES by catalog.ts).
export const MUTANT_CLAUSES_ENDPOINTS: Record<string, string[]> = {
  // leads (4.4)
  'lead-patch-replaces': ['LEAD-PATCH-PARTIAL'],
  'lead-patch-location-dropped': ['LEAD-PATCH-FIELDS'],
  'lead-patch-email-ignored': ['LEAD-PATCH-FIELDS', 'STATE-LEAD-EMAIL-CHANGE-UNCONTACTED'],
  'lead-mutate-set-status-ids-optional': ['LEAD-MUTATE-IDS-REQUIRED'],
  'lead-answer-patch-wrapped': ['LEAD-PATCH-RETURNS-LEAD'],
  'lead-in-customfields-coerced': ['LEAD-PATCH-CUSTOM-OBJECTS'],
  'lead-patch-custom-array-taken': ['LEAD-PATCH-CUSTOM-OBJECTS'],
  'lead-mutate-all-ignored': ['LEAD-MUTATE-ALL-DELETES-EVERY', 'LEAD-MUTATE-DELETE-EFFECT'],
  'lead-mutate-filter-deletes-nothing': ['LEAD-MUTATE-DELETE-EFFECT'],
  'lead-mutate-filter-tags-refused': ['LEAD-MUTATE-FILTER-FIELDS'],
  'lead-mutate-platform-status-accepted': ['LEAD-MUTATE-STATUS-VALUES'],
  'lead-mutate-names-undeclared': ['LEAD-MUTATE-NAMES-PROFILE'],
  'lead-search-query-ignored': ['LEAD-SEARCH-PARAM'],
  'lead-search-exact-only': ['LEAD-SEARCH-FRAGMENT'],
  'lead-search-param-undeclared': ['LEAD-SEARCH-PARAM-PROFILE'],
  'tenant-lead-search-leak': ['LEAD-SEARCH-WORKSPACE', 'TENANT-ISOLATION', 'AUTH-KEY-IDENTIFIES-WORKSPACE'],
  'tenant-lead-search-fragment-leak': ['LEAD-SEARCH-WORKSPACE', 'TENANT-ISOLATION', 'AUTH-KEY-IDENTIFIES-WORKSPACE'],
  // analytics queries (4.6)
  'anlt-breakdown-sequence-ignored': ['ANLT-CAMP-BREAKDOWN-VALUES', 'ANLT-CAMP-BREAKDOWN-PRESENT'],
  'anlt-breakdown-repeat-last': ['ANLT-CAMP-BREAKDOWN-REPEAT', 'ANLT-CAMP-BREAKDOWN-PRESENT'],
  'anlt-breakdown-comma-unsplit': ['ANLT-CAMP-BREAKDOWN-COMMA'],
  'anlt-interval-month-refused': ['ANLT-TS-INTERVAL-ENUM'],
  'anlt-campaign-ooo-refused': ['ANLT-CAMP-QUERY'],
  'anlt-campaign-window-ignored': ['ANLT-CAMP-QUERY'],
  'anlt-campaign-window-end-ignored': ['ANLT-CAMP-QUERY'],
  'anlt-ts-ooo-refused': ['ANLT-TS-QUERY'],
  'anlt-ov-window-refused': ['ANLT-OV-QUERY'],
  'anlt-window-time-part-refused': ['ANLT-WINDOW-ISO-DATES'],
  'anlt-end-required': ['ANLT-WINDOW-END-DEFAULT-NOW'],
  'anlt-end-default-start-of-today': ['ANLT-WINDOW-END-DEFAULT-NOW'],
  'anlt-params-undeclared': ['ANLT-PARAMS-PROFILE'],
  'anlt-ooo-param-undeclared': ['ANLT-PARAMS-PROFILE'],
  'anlt-ts-window-undeclared': ['ANLT-PARAMS-PROFILE'],
  'anlt-ov-window-undeclared': ['ANLT-PARAMS-PROFILE'],
  // lead searches, workspace, API keys (4.7), the prefix (9)
  'lf-list-params-undeclared': ['LF-LIST-PARAMS-PROFILE'],
  'tenant-lead-searches-list-leak': ['LF-LIST-WORKSPACE', 'TENANT-ISOLATION', 'AUTH-KEY-IDENTIFIES-WORKSPACE'],
  'tenant-lead-search-get-leak': ['LF-GET-OTHER-WORKSPACE-404', 'TENANT-ISOLATION'],
  'ws-first-workspace': ['WS-KEY-WORKSPACE', 'AUTH-KEY-IDENTIFIES-WORKSPACE'],
  'apikeys-revoke-refused': ['SCOPE-GRANT-APIKEYS-MANAGE', 'KEY-ROTATE-MANAGE', 'KEY-REVOKE'],
  'ver-usage-unprefixed': ['VER-V1-PREFIX'],
  'ver-leads-search-unprefixed': ['VER-V1-PREFIX'],
  'ver-apikey-revoke-unprefixed': ['VER-V1-PREFIX'],
  'usage-all-missing': ['USAGE-ALL-PROFILE'],
  'apikeys-list-items-renamed': ['KEY-LIST-CREATE-PROFILE'],
  'apikeys-create-scopes-ignored': ['KEY-LIST-CREATE-PROFILE'],
  // errors (7)
  'err-business-code-undeclared': ['ERR-BUSINESS-CODE'],
  'err-status-string': ['ERR-STATUS-REPEATS-HTTP'],
  'err-details-string': ['ERR-DETAILS-VALIDATION'],
  'err-401-middleware-body': ['ERR-ENVELOPE'],
  // limits (8), lists (4.1)
  'rate-remaining-only-on-success': ['RATE-REMAINING-HEADER'],
  'page-hasmore-by-full-page': ['PAGE-HASMORE-CONSISTENT'],
  'camp-list-hasmore-by-full-page': ['PAGE-HASMORE-CONSISTENT'],
  'page-size-100-refused': ['LIMIT-PAGE-SIZE', 'LF-LIST-PAGESIZE'],
  'idem-255-refused': ['IDEM-MAX-255'],
};

export const ALSO_BREAKS_ENDPOINTS: Readonly<Record<string, readonly string[]>> = {
  // the list mutants act on every list, GET /v1/lead-searches included (4.7: cursor, page size 1 to 100)
  'page-limit-ignored': ['LF-LIST-PAGESIZE'],
  'page-size-101-accepted': ['LF-LIST-PAGESIZE'],
  'page-size-0-accepted': ['LF-LIST-PAGESIZE'],
  'page-cursor-inclusive': ['LF-LIST-CURSOR'],
  'page-nextcursor-null': ['LF-LIST-CURSOR'],
  // an unreadable body answered 200 with a null body: a 200 without real content
  'email-unreadable-200': ['EMAIL-GET-200-REAL-CONTENT'],
};
