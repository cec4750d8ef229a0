import { z } from 'zod';
import { uuid, int } from './primitives.ts';

// The envelopes every resource's answers come in: a list (4.1) and an error (part 7).

// ---------------------------------------------------------------------------------------------
// 4.1 Lists
// ---------------------------------------------------------------------------------------------

export const PAGE_SIZE = { min: 1, max: 100, example: 50 } as const;

/**
 * `{ data: [...], meta: { hasMore, nextCursor } }`. nextCursor is typed string (4.1) and leads to
 * the next page; the spec says nothing of it when there is no next page, so on a last page
 * (hasMore false) it may be a string, null or absent. When hasMore is true it must be a
 * non-empty string.
 */
export function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    meta: z
      .looseObject({ hasMore: z.boolean(), nextCursor: z.string().nullable().optional() })
      .superRefine((m, ctx) => {
        if (m.hasMore && !(typeof m.nextCursor === 'string' && m.nextCursor.length > 0)) {
          ctx.addIssue({ code: 'custom', path: ['nextCursor'], message: 'nextCursor must be a non-empty string when hasMore is true' });
        }
      }),
  });
}

// ---------------------------------------------------------------------------------------------
// Part 7 Errors
// ---------------------------------------------------------------------------------------------

export const ERROR_TYPES = [
  'invalid_request_error', 'authentication_error', 'authorization_error', 'rate_limit_error', 'api_error',
] as const;

export interface ErrorTableRow {
  status: number;
  type: (typeof ERROR_TYPES)[number];
  code: string;
  when: string;
}

export const ERROR_TABLE: readonly ErrorTableRow[] = [
  { status: 400, type: 'invalid_request_error', code: 'validation_failed', when: 'body or parameters invalid' },
  { status: 401, type: 'authentication_error', code: 'unauthenticated', when: 'key missing, invalid or revoked' },
  { status: 403, type: 'authorization_error', code: 'permission_denied', when: 'scope missing, or plan lacks API access' },
  { status: 404, type: 'invalid_request_error', code: 'not_found', when: 'resource absent from the workspace' },
  {
    status: 409,
    type: 'invalid_request_error',
    code: 'conflict',
    when: 'conflicts with current state, same Idempotency-Key still processing, or operation partially applied',
  },
  { status: 413, type: 'invalid_request_error', code: 'body_too_large', when: 'email body too large to return inline (GET email)' },
  { status: 422, type: 'invalid_request_error', code: 'idempotency_key_reused', when: 'Idempotency-Key reused with a different body' },
  { status: 429, type: 'rate_limit_error', code: 'rate_limited', when: 'rate limit exceeded; `Retry-After` header in seconds' },
  { status: 503, type: 'api_error', code: 'upstream_unavailable', when: 'a dependency is temporarily unavailable (test email, GET email)' },
];

export function errorRow(status: number): ErrorTableRow | undefined {
  return ERROR_TABLE.find((r) => r.status === status);
}

/**
 * `{ error: { type, code, message, status, requestId, details?, retryAfter? } }`. `code` is a
 * string here: business-rule refusals answer 400 with a code that is not shown (the profile
 * declares it). Use `errorEnvelopeFor(status)` to hold an answer to the table row of its status.
 */
export const errorEnvelope = z.looseObject({
  error: z.looseObject({
    type: z.enum(ERROR_TYPES),
    code: z.string().min(1),
    message: z.string(),
    status: int().min(400).max(599),
    requestId: uuid,
    details: z.array(z.string()).optional(),
    retryAfter: z.number().min(0).optional(),
  }),
});

/**
 * The envelope for an answer with this HTTP status: `status` repeats it; type and code follow
 * the table (for 400, `extra400Codes` lists the profile's business-rule code; `'any'` when the
 * profile declares none: a 400 may then be a business-rule refusal whose code is not shown, so
 * only its type is held); 429 carries `retryAfter`.
 */
export function errorEnvelopeFor(httpStatus: number, opts: { extra400Codes?: readonly string[] | 'any' } = {}) {
  return errorEnvelope.superRefine((v, ctx) => {
    const e = v.error;
    if (e.status !== httpStatus) ctx.addIssue({ code: 'custom', path: ['error', 'status'], message: `status must repeat the HTTP status ${httpStatus}` });
    const row = errorRow(httpStatus);
    if (!row) return;
    if (e.type !== row.type) ctx.addIssue({ code: 'custom', path: ['error', 'type'], message: `type must be ${row.type} for ${httpStatus}` });
    if (httpStatus === 400 && opts.extra400Codes === 'any') return;
    const codes = httpStatus === 400 ? [row.code, ...((opts.extra400Codes as readonly string[] | undefined) ?? [])] : [row.code];
    if (!codes.includes(e.code)) ctx.addIssue({ code: 'custom', path: ['error', 'code'], message: `code must be one of ${codes.join(', ')} for ${httpStatus}` });
    if (httpStatus === 429 && e.retryAfter === undefined) ctx.addIssue({ code: 'custom', path: ['error', 'retryAfter'], message: 'retryAfter accompanies 429' });
  });
}

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
