import type { Check } from '../../../harness/ground/check.ts';
import { ISOLATION_CHECK } from './isolation.ts';
import { KEY_CANARY_CHECK, PASSWORD_SWEEP_CHECK } from './secrets.ts';
import { MAIL_CHECKS } from './mail.ts';
import { CROSS_WORKSPACE_IDEMPOTENCY_CHECKS } from '../idempotency/cross-workspace.ts';

// Security against any target: isolation on every list and roll-up and of idempotency keys,
// key secrets never shown again, mail injection at the sinks. (Ids of other workspaces, mailbox passwords and signatures
// on save: suites/checks/security/resources.ts; a revoked key on every endpoint: auth/.)
export const SECURITY_SUITE_CHECKS: Check[] = [ISOLATION_CHECK, KEY_CANARY_CHECK, PASSWORD_SWEEP_CHECK, ...MAIL_CHECKS, ...CROSS_WORKSPACE_IDEMPOTENCY_CHECKS];
