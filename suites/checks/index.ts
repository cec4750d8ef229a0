import type { Check } from '../../harness/ground/check.ts';
import { UNAUTHENTICATED_CHECKS } from './auth/unauthenticated.ts';
import { SCOPE_GRANT_CHECKS, SCOPE_MATRIX_CHECKS } from './auth/scope-matrix.ts';
import { API_KEY_CHECKS } from './auth/api-keys.ts';
import { TENANT_CHECKS } from './auth/tenant-isolation.ts';
import { ERROR_CHECKS } from './errors/errors.ts';
import { OBSERVED_ENVELOPE_CHECKS } from './errors/envelope.ts';
import { IDEMPOTENCY_CHECKS } from './idempotency/idempotency.ts';
import { PAGINATION_CHECKS } from './pagination/pagination.ts';
import { RATE_LIMIT_CHECKS } from './ratelimit/ratelimit.ts';
import { RATE_HEADER_CHECKS } from './ratelimit/headers.ts';
import { RATE_SHARED_COUNT_CHECKS } from './ratelimit/shared-count.ts';
import { VERSIONING_CHECKS } from './versioning/versioning.ts';
import { WORKSPACE_CHECKS } from './workspace/workspace.ts';
import { RESOURCE_CHECKS } from './resources/index.ts';
import { MODEL_CHECKS } from './state/index.ts';
import { TEST_EMAIL_CHECKS } from './test-email/checks.ts';
import { SENDING_CHECKS } from './sending/index.ts';
import { EMAIL_CHECKS } from './emails/emails.ts';
import { ANALYTICS_CHECKS } from './analytics/analytics.ts';
import { ROBUSTNESS_CHECKS } from './robustness/index.ts';
import { SECURITY_SUITE_CHECKS } from './security/index.ts';
import { CONVENTION_CHECKS } from './conventions/json-answers.ts';
import { NULL_CHECKS } from './conventions/nulls.ts';
import { SUCCESS_STATUS_CHECKS } from './conventions/success-status.ts';
import { TIMESTAMP_READ_CHECKS } from './conventions/timestamps-read.ts';

/** Every check of the kit. Ids are stable: a snapshot test keeps them unique and unchanged. */
export const ALL_CHECKS: readonly Check[] = [
  // The rate-limit check first: it holds a workspace of its own for a while.
  ...RATE_LIMIT_CHECKS,
  ...RATE_SHARED_COUNT_CHECKS,
  ...UNAUTHENTICATED_CHECKS,
  ...SCOPE_MATRIX_CHECKS,
  ...SCOPE_GRANT_CHECKS,
  ...API_KEY_CHECKS,
  ...TENANT_CHECKS,
  ...WORKSPACE_CHECKS,
  ...ERROR_CHECKS,
  ...VERSIONING_CHECKS,
  ...IDEMPOTENCY_CHECKS,
  ...PAGINATION_CHECKS,
  ...RESOURCE_CHECKS,
  ...TEST_EMAIL_CHECKS,
  ...SENDING_CHECKS,
  ...EMAIL_CHECKS,
  ...ANALYTICS_CHECKS,
  ...MODEL_CHECKS,
  ...ROBUSTNESS_CHECKS,
  ...SECURITY_SUITE_CHECKS,
  ...OBSERVED_ENVELOPE_CHECKS,
  ...CONVENTION_CHECKS,
  ...TIMESTAMP_READ_CHECKS,
  ...NULL_CHECKS,
  ...SUCCESS_STATUS_CHECKS,
  ...RATE_HEADER_CHECKS,
];
