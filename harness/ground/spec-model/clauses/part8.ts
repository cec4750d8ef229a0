import type { Clause } from './types.ts';

// Part 8: limits (rows that restate part 2.2 bounds are clauses of 2.2, not repeated here).
export const CLAUSES_PART8: readonly Clause[] = [
  { id: 'RATE-120-PER-60S', section: '8', level: 'MUST', text: 'API rate: 120 requests per 60 seconds, per workspace.' },
  { id: 'RATE-SHARED-KEYS', section: '8', level: 'MUST', text: 'The rate limit is shared by all keys of the workspace.' },
  { id: 'RATE-PER-WORKSPACE', section: '8', level: 'MUST', text: 'The rate limit is per workspace: another workspace is unaffected.' },
  { id: 'RATE-429', section: '8', level: 'MUST', text: 'A request over the limit gets 429 with Retry-After (seconds).' },
  { id: 'RATE-REMAINING-HEADER', section: '8', level: 'MUST', text: 'Responses carry the header X-RateLimit-Remaining.' },
  { id: 'RATE-RECOVERS', section: '8', level: 'MUST', text: 'Retry-After tells when to retry: after that many seconds (with backoff on a repeated 429) the workspace is served again.' },
  { id: 'RATE-CLIENT-BACKOFF', section: '8', level: 'SHOULD', text: 'Clients should back off exponentially on repeated 429 (the kit does; a target keeps answering 429 with Retry-After meanwhile).' },
  { id: 'LIMIT-ACCOUNTS-PER-CALL', section: '8', level: 'MUST', text: 'Mailboxes per create call: 1 to 50.' },
  { id: 'LIMIT-ACCOUNTS-PER-WORKSPACE', section: '8', level: 'MUST', text: 'Mailboxes per workspace: no limit.' },
  { id: 'LIMIT-TEST-EMAILS-12', section: '8', level: 'MUST', text: 'Test emails: 12 per day per workspace.' },
  { id: 'LIMIT-MUTATE-IDS-1000', section: '8', level: 'MUST', text: 'Bulk lead mutate ids: max 1000.' },
  { id: 'LIMIT-PAGE-SIZE', section: '8', level: 'MUST', text: 'Page size (lists): 1 to 100; 0 and 101 are rejected with 400.' },
  { id: 'LIMIT-SEARCH-10', section: '8', level: 'MUST', text: 'Lead search by email: up to 10 matches.' },
  { id: 'LIMIT-RETENTION', section: '8', level: 'MUST', text: 'Analytics retention is reported as period.retentionDays.' },
  { id: 'LIMIT-USAGE-TYPES', section: '8', level: 'MUST', text: 'Usage limit types: monthly_emails, active_contacts, ai_credits, email_validation, monthly_imports, lead_finder_credits.' },
  { id: 'LIMIT-QUOTAS', section: '8', level: 'PROFILE', text: 'Plan quota values and the size limit of the leads list in campaign creation: not shown.' },
  { id: 'LIMIT-CAMPAIGN-LEADS-PROFILE', section: '8', level: 'PROFILE', text: 'The size limit of the leads list in campaign creation (not shown): as the profile declares (declarations.campaignCreateMaxLeads).' },
];
