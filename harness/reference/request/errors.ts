// The spec's error envelope (part 7) and the one exception type handlers throw.
//   { error: { type, code, message, status, requestId, details?, retryAfter? } }

export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'authorization_error' | 'rate_limit_error' | 'api_error';

/** HTTP status -> error type (part 7 table). */
export const TYPE_OF_STATUS: Record<number, ErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'authorization_error',
  404: 'invalid_request_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: string[],
    readonly retryAfter?: number,
    readonly headers: Record<string, string> = {},
    /** 'business-rule': one of the three 400 refusals of part 7; 'state': another state conflict. */
    readonly kind?: 'business-rule' | 'state',
  ) {
    super(message);
  }
}

// Constructors for the errors of the part 7 table (and the reference's business-rule code).
export const validationFailed = (details: string[], message = 'The request is invalid.') =>
  new ApiError(400, 'validation_failed', message, details);
/**
 * One of the three business-rule refusals of part 7 (400; its code is "not shown": app.ts answers
 * the chosen one, choices.ts businessRuleCode).
 */
export const failedPrecondition = (message: string) => new ApiError(400, 'failed_precondition', message, undefined, undefined, {}, 'business-rule');
/**
 * Any other conflict with the current state (part 7 allows 400 or 409 `conflict`: app.ts answers
 * the chosen one, choices.ts stateConflictStatus).
 */
export const stateConflict = (message: string) => new ApiError(400, 'failed_precondition', message, undefined, undefined, {}, 'state');
export const unauthenticated = (message = 'A valid API key is required.') => new ApiError(401, 'unauthenticated', message);
export const permissionDenied = (message: string) => new ApiError(403, 'permission_denied', message);
export const notFound = (message = 'The resource does not exist in this workspace.') => new ApiError(404, 'not_found', message);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
export const idempotencyKeyReused = () =>
  new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different request.');
export const upstreamUnavailable = (message: string) => new ApiError(503, 'upstream_unavailable', message);
export const bodyTooLarge = (message: string) => new ApiError(413, 'body_too_large', message);
