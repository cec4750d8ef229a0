import type { Clause } from './types.ts';

// Part 7: the error envelope and the error table.
export const CLAUSES_PART7: readonly Clause[] = [
  { id: 'ERR-ENVELOPE', section: '7', level: 'MUST', text: 'Every error response is { error: { type, code, message, status, requestId, details?, retryAfter? } }.' },
  { id: 'ERR-STATUS-REPEATS-HTTP', section: '7', level: 'MUST', text: 'error.status repeats the HTTP status.' },
  { id: 'ERR-REQUESTID-UUID', section: '7', level: 'MUST', text: 'error.requestId is a uuid string.' },
  { id: 'ERR-REQUESTID-DISTINCT', section: '7', level: 'SHOULD', text: 'error.requestId identifies one request: two requests never share one.' },
  { id: 'ERR-DETAILS-VALIDATION', section: '7', level: 'MUST', text: 'error.details (array of strings) accompanies validation failures.' },
  { id: 'ERR-RETRYAFTER-429', section: '7', level: 'MUST', text: 'error.retryAfter (seconds) accompanies 429.' },
  { id: 'ERR-TABLE-400', section: '7', level: 'MUST', text: '400: type invalid_request_error, code validation_failed when body or parameters are invalid.' },
  { id: 'ERR-TABLE-401', section: '7', level: 'MUST', text: '401: type authentication_error, code unauthenticated (key missing, invalid or revoked).' },
  { id: 'ERR-TABLE-403', section: '7', level: 'MUST', text: '403: type authorization_error, code permission_denied (scope missing, or plan lacks API access).' },
  { id: 'ERR-TABLE-404', section: '7', level: 'MUST', text: '404: type invalid_request_error, code not_found (resource absent from the workspace).' },
  { id: 'ERR-TABLE-409', section: '7', level: 'MUST', text: '409: type invalid_request_error, code conflict.' },
  { id: 'ERR-TABLE-413', section: '7', level: 'MUST', text: '413: type invalid_request_error, code body_too_large (GET email).' },
  { id: 'ERR-TABLE-422', section: '7', level: 'MUST', text: '422: type invalid_request_error, code idempotency_key_reused.' },
  { id: 'ERR-TABLE-429', section: '7', level: 'MUST', text: '429: type rate_limit_error, code rate_limited; Retry-After header in seconds.' },
  { id: 'ERR-TABLE-503', section: '7', level: 'MUST', text: '503: type api_error, code upstream_unavailable (test email, GET email).' },
  { id: 'ERR-MALFORMED-JSON-400', section: '7', level: 'MUST', text: 'A body that is not valid JSON is an invalid body: 400 validation_failed in the envelope (never a 5xx).' },
  { id: 'ERR-BUSINESS-400', section: '7', level: 'MUST', text: 'Business-rule refusals answer 400: pausing a mailbox that is not active; starting a campaign with no leads or sequence; resuming a campaign when the workspace has no mailbox.' },
  { id: 'ERR-BUSINESS-CODE', section: '7', level: 'PROFILE', text: 'The error code used for business-rule refusals: not shown.' },
  { id: 'ERR-BATCH-PARTIAL', section: '7', level: 'MUST', text: 'Batch mailbox creation does not fail as a whole on per-element errors; they are reported in the errors array with the rest of the batch created.' },
];
