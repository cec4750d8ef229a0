import type { Check } from '../../lib/check.ts';
import { CAMPAIGN_MODEL_CHECKS } from './campaign.ts';
import { MAILBOX_MODEL_CHECKS } from './mailbox.ts';
import { LEAD_MODEL_CHECKS } from './lead.ts';

/** Model-based checks: the state machines of part 3 driven by fast-check command sequences. */
export const MODEL_CHECKS: Check[] = [...CAMPAIGN_MODEL_CHECKS, ...MAILBOX_MODEL_CHECKS, ...LEAD_MODEL_CHECKS];
