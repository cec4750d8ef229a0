import type { Check } from '../../../harness/ground/check.ts';
import { ACCOUNT_CHECKS } from './accounts.ts';
import { BOUND_CHECKS } from './bounds.ts';
import { CAMPAIGN_CHECKS } from './campaigns.ts';
import { LEAD_CHECKS } from './leads.ts';
import { LEAD_SEARCH_CHECKS } from './lead-searches.ts';
import { SECURITY_CHECKS } from '../security/resources.ts';
import { VERIFICATION_CHECKS } from './verification.ts';
import { DECLARATION_CHECKS } from './declarations.ts';

/**
 * Checks of the resources of parts 2 to 4 (mailboxes, campaigns, leads, lead searches): fields,
 * bounds (generated from the spec model), defaults, background verification against the sinks,
 * security. Each names the clause ids it proves.
 */
export const RESOURCE_CHECKS: Check[] = [
  ...VERIFICATION_CHECKS, // first: they wait on background work
  ...ACCOUNT_CHECKS,
  ...BOUND_CHECKS,
  ...CAMPAIGN_CHECKS,
  ...LEAD_CHECKS,
  ...LEAD_SEARCH_CHECKS,
  ...SECURITY_CHECKS,
  ...DECLARATION_CHECKS,
];
