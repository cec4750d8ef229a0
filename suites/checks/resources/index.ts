import type { Check } from '../../lib/check.ts';
import { ACCOUNT_CHECKS } from './accounts.ts';
import { BOUND_CHECKS } from './bounds.ts';
import { CAMPAIGN_CHECKS } from './campaigns.ts';
import { LEAD_CHECKS } from './leads.ts';

/** Checks of the resources of parts 2 to 4 (mailboxes, campaigns, leads, lead searches): fields, bounds, defaults, security. */
export const RESOURCE_CHECKS: Check[] = [...ACCOUNT_CHECKS, ...BOUND_CHECKS, ...CAMPAIGN_CHECKS, ...LEAD_CHECKS];
