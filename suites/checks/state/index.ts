import type { Check } from '../../../harness/ground/check.ts';
import { CAMPAIGN_MODEL_CHECKS } from './campaign.ts';
import { MAILBOX_MODEL_CHECKS } from './mailbox.ts';
import { LEAD_MODEL_CHECKS } from './lead.ts';
import { LEAD_SEARCH_MODEL_CHECKS } from './lead-search.ts';
import { TABLE_CHECKS } from './table.ts';

/**
 * Model-based checks: the state machines of part 3 (pure state-models in suites/state-models/) driven by
 * fast-check command sequences. Ids: STATE-MODEL/<machine> (MUST rules; a failure fails the run)
 * and STATE-MODEL-READINGS/<machine> (the SHOULD readings of part 3; a failure is a warning);
 * STATE-TABLE/<machine> holds the transitions part 3 does not show to the profile's declared table.
 */
export const MODEL_CHECKS: Check[] = [...CAMPAIGN_MODEL_CHECKS, ...MAILBOX_MODEL_CHECKS, ...LEAD_MODEL_CHECKS, ...LEAD_SEARCH_MODEL_CHECKS, ...TABLE_CHECKS];
