import type { Check } from '../../../harness/ground/check.ts';
import { DELIVERY_CHECKS } from './delivery.ts';
import { FAILURE_CHECKS } from './failures.ts';
import { REPLY_CHECKS } from './replies.ts';
import { TIMING_CHECKS } from './timing.ts';
import { WARMUP_CHECKS } from './warmup.ts';

// The send path (2.1 mailbox sending fields, 2.5 sequence, schedule and settings, 3.1 resume,
// 3.2 paused, deleted and failing mailboxes and warmup, 3.3 replies): what the kit's sinks saw, held against
// what the API says.
export const SENDING_CHECKS: Check[] = [...DELIVERY_CHECKS, ...TIMING_CHECKS, ...WARMUP_CHECKS, ...FAILURE_CHECKS, ...REPLY_CHECKS];
