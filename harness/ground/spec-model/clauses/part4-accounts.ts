import type { Clause } from './types.ts';

// Part 4.2 "Mailboxes": scope, request rule and response shape of every endpoint. Ids: ACCT-.
const M = (id: string, text: string): Clause => ({ id, section: '4.2', text, level: 'MUST' });
const S = (id: string, text: string): Clause => ({ id, section: '4.2', text, level: 'SHOULD' });
const P = (id: string, text: string): Clause => ({ id, section: '4.2', text, level: 'PROFILE' });

export const CLAUSES_PART4_ACCOUNTS: readonly Clause[] = [
  // POST /v1/accounts
  M('ACCT-CREATE-SCOPE', 'POST /v1/accounts requires scope accounts:write.'),
  M('ACCT-CREATE-BODY', 'POST /v1/accounts body `{ accounts: [create input, 1 to 50] }`.'),
  M('ACCT-CREATE-BATCH-MIN', 'POST /v1/accounts: `accounts` holds 1 to 50 elements; an empty array is rejected (400).'),
  M('ACCT-CREATE-BATCH-MAX', 'POST /v1/accounts: `accounts` holds 1 to 50 elements; 50 are accepted and 51 are rejected (400).'),
  S('ACCT-CREATE-BODY-MISSING', 'Reading: a body without `accounts`, or with `accounts` not an array, is rejected (400 validation_failed).'),
  M('ACCT-CREATE-INDEPENDENT', 'POST /v1/accounts: each element is validated and created independently.'),
  M('ACCT-CREATE-201', 'POST /v1/accounts answers 201.'),
  M('ACCT-CREATE-SUMMARY', 'POST /v1/accounts answer: `summary: { submitted, created, failed }`.'),
  S('ACCT-CREATE-SUMMARY-COUNTS', 'Reading: `submitted` is the number of elements sent, `created` the length of `accounts`, `failed` the length of `errors`; submitted = created + failed.'),
  M('ACCT-CREATE-ACCOUNTS', 'POST /v1/accounts answer: `accounts: [mailbox]` holds connected mailboxes.'),
  M('ACCT-CREATE-START-INACTIVE', 'POST /v1/accounts answer: the connected mailboxes start `inactive`.'),
  M('ACCT-CREATE-ERRORS', 'POST /v1/accounts answer: `errors` holds those that could not be connected.'),
  M('ACCT-CREATE-DUPLICATE', 'POST /v1/accounts: an email already connected elsewhere is reported in `errors` (not connected again).'),
  M('ACCT-CREATE-REST-CREATED', 'POST /v1/accounts: the rest of the batch is still created.'),
  S('ACCT-CREATE-INVALID-ELEMENT', 'Reading of "each element is validated independently": an element breaking a bound of 2.2 is not created and is reported (in `errors`, or the call answers 400 validation_failed); valid elements of the same batch are still created when the call answers 201.'),
  S('ACCT-CREATE-ECHO', 'Reading: each created mailbox reflects its input (names, limits, smtp/imap host, port and username).'),
  P('ACCT-CREATE-ERRORS-SHAPE-PROFILE', 'Shape of each element of `errors` in the batch response: not shown (profile).'),
  // PATCH /v1/accounts/{id}
  M('ACCT-PATCH-SCOPE', 'PATCH /v1/accounts/{id} requires scope accounts:write.'),
  M('ACCT-PATCH-PARTIAL', 'PATCH /v1/accounts/{id}: partial body (fields not supplied keep their values).'),
  M('ACCT-PATCH-FIELDS', 'PATCH /v1/accounts/{id} accepts `firstName`, `lastName`, `displayName`, `maxEmailsPerDay`, `sendingGapMinutes`, `campaignSlowRamp`, `signature`, `bcc`, `replyToAddress`, `automationLanguage`, `tracking`, `warmup`, `smtpHost`, `smtpPort`, `smtpUsername`, `smtpPassword`, `imapHost`, `imapPort`, `imapUsername`, `imapPassword`, `imapAllowInvalidCert`.'),
  M('ACCT-PATCH-EMAIL-IMMUTABLE', 'PATCH /v1/accounts/{id}: the email address cannot be changed (a PATCH carrying `emailAddress` leaves it unchanged).'),
  M('ACCT-PATCH-CREDS-ROTATE', 'PATCH /v1/accounts/{id}: any `smtp*` or `imap*` field rotates credentials and re-runs verification.'),
  M('ACCT-PATCH-RETURNS-MAILBOX', 'PATCH /v1/accounts/{id} answers the mailbox (as updated).'),
  S('ACCT-PATCH-BOUNDS', 'Reading: the bounds of 2.2 apply to the same fields in a PATCH (out-of-bounds values are rejected with 400).'),
  M('ACCT-PATCH-PASSWORD-NOT-RETURNED', 'Passwords are never returned (2.1, 2.2), so a password given in a PATCH is never returned either.'),
  // DELETE /v1/accounts/{id}
  M('ACCT-DELETE-SCOPE', 'DELETE /v1/accounts/{id} requires scope accounts:write.'),
  M('ACCT-DELETE-ANSWER', 'DELETE /v1/accounts/{id} answers `{ id, deleted: true }`.'),
  S('ACCT-DELETE-ID', 'Reading: the `id` of the delete answer is the deleted mailbox\'s id.'),
  // POST /v1/accounts/{id}/pause
  M('ACCT-PAUSE-SCOPE', 'POST /v1/accounts/{id}/pause requires scope accounts:write.'),
  M('ACCT-PAUSE-RETURNS-MAILBOX', 'POST /v1/accounts/{id}/pause answers the mailbox.'),
  M('ACCT-PAUSE-400-NOT-ACTIVE', 'POST /v1/accounts/{id}/pause: 400 if not currently active.'),
  // GET /v1/accounts/{id}/verification
  M('ACCT-VERIF-SCOPE', 'GET /v1/accounts/{id}/verification requires scope accounts:read.'),
  M('ACCT-VERIF-ANSWER', 'GET /v1/accounts/{id}/verification answers the verification result (2.4).'),
  // POST /v1/accounts/oauth/{provider}/init
  M('ACCT-OAUTH-SCOPE', 'POST /v1/accounts/oauth/{provider}/init requires scope accounts:write.'),
  M('ACCT-OAUTH-PROVIDERS', 'POST /v1/accounts/oauth/{provider}/init: path `provider` is `google` or `microsoft`.'),
  M('ACCT-OAUTH-PROVIDER-UNKNOWN', 'Path `provider` is `google` or `microsoft`: an init for any other provider is refused, 400 (part 7: parameters invalid) or 404 (as an unknown route), never a 2xx.'),
  M('ACCT-OAUTH-NO-BODY', 'POST /v1/accounts/oauth/{provider}/init: no body (a call without a body succeeds).'),
  M('ACCT-OAUTH-ANSWER', 'POST /v1/accounts/oauth/{provider}/init answers `{ authorizationUrl, state, expiresInSeconds }`.'),
  M('ACCT-OAUTH-URL', '`authorizationUrl`: open the URL in a browser so the owner grants access (an absolute URL).'),
  M('ACCT-OAUTH-STATE-OPAQUE', '`state` is an opaque handle.'),
  M('ACCT-OAUTH-STATE-VALIDITY', '`state` stays valid for `expiresInSeconds` seconds.'),
  S('ACCT-OAUTH-STATE-UNIQUE', 'Reading: two init calls give two different `state` handles.'),
  M('ACCT-OAUTH-STATUS-POLL', 'After consent, the result is polled with GET /v1/accounts/oauth/{provider}/status with the `state` as a query parameter.'),
  P('ACCT-OAUTH-STATUS-PROFILE', 'The response shape of GET /v1/accounts/oauth/{provider}/status is not given here (profile).'),
  // Cross-workspace (4.2 ids "from the workspace", part 7 404)
  M('ACCT-OTHER-WORKSPACE-404', 'A mailbox id of another workspace is a resource absent from the caller\'s workspace (part 5: the key identifies the workspace; part 7: 404): 404 on every mailbox endpoint, never 2xx, never 403.'),
];
