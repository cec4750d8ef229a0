import type { ViolationCatalog } from './types.ts';

// Plausible violations of the MUST and PROFILE clauses of sections 2.7 to 2.10, 3, 4.2 and 4.3 (see types.ts).
export const VIOLATIONS_PART2_4: ViolationCatalog = {
  // 2.7 MUST: Email `id` (uuid).
  "EMAIL-ID-UUID": [
    { what: "GET /v1/emails/{id} answers the id as `em_<uuid>`.", mutants: ["email-answer-id-not-uuid"] },
    { what: "A received email (ingested over IMAP) is keyed by mailbox and uid, not a uuid.", mutants: ["email-received-id-not-uuid"] },
  ],
  // 2.7 MUST: Email `threadId` (opaque string or null).
  "EMAIL-THREADID": [
    { what: "GET /v1/emails/{id} answers threadId as `{ value }`.", mutants: ["email-answer-threadid-object"] },
    { what: "A received email's threadId is a number (the IMAP thread id as stored); sent emails are right.", mutants: ["email-received-threadid-number"] },
  ],
  // 2.7 MUST: Email `messageId` (RFC 5322 Message-ID).
  "EMAIL-MESSAGEID": [
    { what: "messageId is answered without its angle brackets.", mutants: ["email-messageid-bare"] },
    { what: "A received email's Message-ID is answered bare (a parser's id without angle brackets); sent emails are right.", mutants: ["email-received-messageid-bare"] },
  ],
  // 2.7 MUST: Email `mailbox` (`id`, `email`).
  "EMAIL-MAILBOX": [
    { what: "`mailbox` is the mailbox id alone.", mutants: ["email-mailbox-id-only"] },
    { what: "A received email's mailbox is the mailbox id alone; sent emails are right.", mutants: ["email-received-mailbox-id-only"] },
  ],
  // 2.7 MUST: Email `from` (`email`, `name`).
  "EMAIL-FROM": [
    { what: "`from` is a bare address string.", mutants: ["email-from-bare"] },
    { what: "`from` carries the address only, no `name`, even for a campaign email from a mailbox with a name (the schema lets name be absent, for a received email without a display name).", mutants: ["email-from-name-dropped"] },
  ],
  // 2.7 MUST: Email `to`, `cc`, `bcc` (arrays of address strings).
  "EMAIL-RECIPIENTS": [
    { what: "`to` is one comma-separated string.", mutants: ["email-recipients-joined"] },
    { what: "A received email shows `to` as address objects `{ email, name }` and `cc` as null (sent emails stay right).", mutants: ["email-received-recipients-objects"] },
    { what: "A sent email from a mailbox with a bcc setting answers `bcc` as that bare address (the setting copied), not an array; an empty bcc is [] either way.", mutants: ["email-bcc-single-string"] },
    { what: "A non-empty `cc` answered as address objects (a received email with a Cc header).", gap: "not asked: no email of the kit carries a Cc (campaign emails have none, and the injected replies set no Cc header)" },
  ],
  // 2.7 MUST: Email `subject`.
  "EMAIL-SUBJECT": [
    { what: "Emails are answered without subject.", mutants: ["email-subject-missing"] },
    { what: "A received email (the inbox ingestion's own path) answers subject null; sent emails are right.", mutants: ["email-received-subject-null"] },
  ],
  // 2.7 MUST: Email `snippet` (short preview): a non-empty piece of the email's own content, for an email that has content.
  "EMAIL-SNIPPET": [
    { what: "Every email answers an empty snippet (the listing and GET).", mutants: ["email-snippet-empty"] },
    { what: "A received email's snippet is cut from its raw MIME source (header words such as Received, Content-Type, boundary); sent emails are right.", mutants: ["email-received-snippet-raw"] },
    { what: "A received email with a text body answers an empty snippet; sent emails are right.", mutants: ["email-received-snippet-empty"] },
  ],
  // 2.7 MUST: Email `isUnread` (boolean, null when the email is in no conversation).
  "EMAIL-ISUNREAD": [
    { what: "isUnread is the string \"true\", \"false\" or \"null\".", mutants: ["email-isunread-string"] },
    { what: "A received email's isUnread is 0 or 1 (the \\Seen flag in an integer column); sent emails are right.", mutants: ["email-received-isunread-int"] },
  ],
  // 2.7 MUST: Email `type` (enum `sent`, `received`).
  "EMAIL-TYPE-ENUM": [
    { what: "A sent email shows type `outbound`.", mutants: ["email-type-outbound"] },
    { what: "GET of a received email answers type `inbound` (the listing says `received`); the claimant read only `sent`.", mutants: ["email-received-type-inbound"] },
    { what: "GET of an email the API's reply or forward endpoint sent (a third writer) answers its kind as its type (`reply`, `forward`).", mutants: ["email-followup-type-kind"] },
  ],
  // 2.7 MUST: Email `campaignId`.
  "EMAIL-CAMPAIGNID": [
    { what: "Emails are answered without campaignId.", mutants: ["email-campaignid-missing"] },
  ],
  // 2.7 MUST: Email `leadId`.
  "EMAIL-LEADID": [
    { what: "Emails are answered without leadId.", mutants: ["email-leadid-missing"] },
    { what: "A lead's reply is ingested with its campaignId but without leadId (matched to the campaign through its thread); sent emails are right.", mutants: ["email-received-leadid-missing"] },
  ],
  // 2.7 MUST: Email `hasAttachments` (boolean).
  "EMAIL-HASATTACHMENTS": [
    { what: "hasAttachments is the string \"true\" or \"false\".", mutants: ["email-hasattachments-string"] },
    { what: "A received email (another writer, IMAP ingestion) without an attachment answers no hasAttachments key.", mutants: ["email-received-hasattachments-omitted"] },
  ],
  // 2.7 MUST: Email `receivedAt`, `sentAt` (timestamps).
  "EMAIL-TIMESTAMPS": [
    { what: "sentAt is epoch milliseconds.", mutants: ["email-sentat-epoch"] },
    { what: "A received email's sentAt passed through from its Date header (RFC 2822).", mutants: ["email-received-sentat-rfc2822"] },
  ],
  // 2.7 MUST: Email `body` (object with `html` and `text`).
  "EMAIL-BODY-OBJECT": [
    { what: "GET /v1/emails/{id} answers body as the HTML string.", mutants: ["email-body-string"] },
    { what: "A received, text-only reply answers body without its html key.", mutants: ["email-received-body-no-html"] },
  ],
  // 2.7 MUST: `body`: a null part was never stored (a part that was stored is never null).
  "EMAIL-BODY-NULL-PART": [
    { what: "GET /v1/emails/{id} answers body.text null although the text part was stored (html is kept).", mutants: ["email-body-text-dropped"] },
    { what: "A received reply (text only) answers body.text null although its text part was stored; sent emails are right.", mutants: ["email-received-body-text-null"] },
  ],
  // 2.8 MUST: Lead search `id`.
  "LF-ID-UUID": [
    { what: "A lead search id is answered as `ls_<uuid>`.", mutants: ["lf-answer-id-not-uuid"] },
  ],
  // 2.8 MUST: Lead search `query` (string).
  "LF-QUERY-STRING": [
    { what: "A lead search query is answered as `{ text }`.", mutants: ["lf-answer-query-object"] },
  ],
  // 2.8 MUST: Lead search `status` (enum `draft`, `queued`, `discovering`, `processing`, `crawling`, `enriching`, `verifying`, `completed`, `stopped`, `failed`).
  "LF-STATUS-ENUM": [
    { what: "A lead search answers its status in upper case.", mutants: ["lf-status-uppercase"] },
    { what: "GET of a stopped search answers status `cancelled` (a terminal state outside the enum; the running phases and completed are right).", mutants: ["lf-answer-status-stopped-cancelled"] },
  ],
  // 2.8 MUST: Lead search `searchMode` (enum `companies`, `people`).
  "LF-SEARCHMODE-ENUM": [
    { what: "searchMode is answered in the singular: `person`, `company`.", mutants: ["lf-searchmode-person"] },
    { what: "GET of a people search answers searchMode `person` while companies stay right (the list item is right).", mutants: ["lf-answer-searchmode-person"] },
  ],
  // 2.8 MUST: Lead search `maxResults` (integer).
  "LF-MAXRESULTS-INT": [
    { what: "GET answers maxResults as a string.", mutants: ["lf-maxresults-string"] },
  ],
  // 2.8 MUST: Lead search `discoveryFinished` (boolean).
  "LF-DISCOVERYFINISHED-BOOLEAN": [
    { what: "discoveryFinished is 0 or 1.", mutants: ["lf-discoveryfinished-number"] },
    { what: "discoveryFinished answered as `discovery_finished` (a snake_case column name).", mutants: ["lf-answer-discoveryfinished-snake-case"] },
  ],
  // 2.8 MUST: `discoveryFinished`: crawl and enrich may still run (true does not imply a terminal status).
  "LF-DISCOVERYFINISHED-PHASES": [
    { what: "discoveryFinished turns true only when the search reaches a terminal status, never while crawling or enriching.", mutants: ["lf-discovery-finished-terminal-only"] },
    { what: "discoveryFinished derived from a list of the phases after discovery that misses crawling: a search still crawling after discovery ended says false.", mutants: ["lf-discovery-list-misses-crawling"] },
  ],
  // 2.8 MUST: Lead search `progress` (`companiesFound`, `companiesProcessed`, `emailsFound`, integers).
  "LF-PROGRESS": [
    { what: "GET answers the progress counters as strings.", mutants: ["lf-progress-strings"] },
  ],
  // 2.8 MUST: Lead search `createdAt`, `updatedAt` (timestamps).
  "LF-TIMESTAMPS": [
    { what: "A lead search answers createdAt and updatedAt as epoch milliseconds.", mutants: ["lf-timestamps-epoch"] },
  ],
  // 2.8 MUST: `errorMessage` (string; set when status is `failed`).
  "LF-ERRORMESSAGE-FAILED": [
    { what: "A failed search has errorMessage null.", mutants: ["lf-errormessage-missing"] },
  ],
  // 2.8 MUST: `errorMessage`: otherwise null.
  "LF-ERRORMESSAGE-NULL": [
    { what: "errorMessage is an empty string when nothing failed.", mutants: ["lf-errormessage-empty"] },
    { what: "a stopped search records a reason too (\"Stopped by user.\").", mutants: ["lf-stopped-errormessage"] },
  ],
  // 2.8 MUST: `completedAt` (timestamp).
  "LF-COMPLETEDAT-TS": [
    { what: "completedAt stays null in completed, stopped and failed.", mutants: ["lf-completedat-missing"] },
  ],
  // 2.8 MUST: `completedAt`: null while running.
  "LF-COMPLETEDAT-NULL-RUNNING": [
    { what: "completedAt carries the creation time while the search runs.", mutants: ["lf-completedat-while-running"] },
  ],
  // 2.8 MUST: List items carry `id`, `query`, `status`, `searchMode`, `maxResults`, `createdAt`, `completedAt`.
  "LF-LISTITEM-FIELDS": [
    { what: "Lead search list items carry no completedAt.", mutants: ["lf-answer-listitem-no-completedat"] },
    { what: "A completed search's list item answers completedAt null (the list query does not select it; GET is right): the list showed only running searches.", mutants: ["lf-answer-listitem-completedat-null"] },
  ],
  // 2.9 MUST: Workspace: `organizationId` (uuid).
  "WS-ORGANIZATIONID-UUID": [
    { what: "GET /v1/workspace answers organizationId as org_<uuid>.", mutants: ["ws-organizationid-prefixed"] },
  ],
  // 2.9 MUST: Workspace: `name` (string).
  "WS-NAME-STRING": [
    { what: "GET /v1/workspace answers name null.", mutants: ["ws-name-null"] },
  ],
  // 2.9 MUST: Workspace: `timezone` (IANA string).
  "WS-TIMEZONE-IANA": [
    { what: "The workspace timezone is a UTC offset, not an IANA name.", mutants: ["ws-answer-timezone-offset"] },
    { what: "GET /v1/workspace omits timezone.", mutants: ["workspace-missing-timezone"] },
  ],
  // 2.9 MUST: Usage of one limit: `used` (number).
  "USAGE-USED-NUMBER": [
    { what: "used null for an unlimited limit (mirroring limit and remaining).", mutants: ["usage-unlimited-used-null"] },
    { what: "used is a string of digits.", mutants: ["usage-used-string"] },
  ],
  // 2.9 MUST: Usage: `limit` (number or null when unlimited).
  "USAGE-LIMIT-NULL-UNLIMITED": [
    { what: "Unlimited usage reports limit 0 instead of null.", mutants: ["usage-unlimited-limit-zero"] },
  ],
  // 2.9 MUST: Usage: `remaining` (number or null when unlimited).
  "USAGE-REMAINING-NULL-UNLIMITED": [
    { what: "Unlimited usage reports remaining 0 instead of null.", mutants: ["usage-unlimited-remaining-zero"] },
    { what: "remaining is null for a limit that is not unlimited too (limit, isUnlimited and usagePercentage stay right).", mutants: ["usage-limited-remaining-null"] },
    { what: "A limit of 0 (a plan without that resource) answers remaining null: a falsy-zero test `limit ? limit - used : null`.", mutants: ["usage-zero-limit-remaining-null"] },
  ],
  // 2.9 MUST: Usage: `isUnlimited` (boolean).
  "USAGE-ISUNLIMITED-BOOLEAN": [
    { what: "isUnlimited is the string \"true\" or \"false\".", mutants: ["usage-isunlimited-string"] },
  ],
  // 2.9 MUST: Usage: `usagePercentage` (number: used / limit x 100).
  "USAGE-PERCENTAGE-FORMULA": [
    { what: "usagePercentage capped at 100 when used exceeds the limit (1200 of 1000 answers 100, not 120).", mutants: ["usage-percentage-capped"] },
    { what: "usagePercentage is a fraction 0..1.", mutants: ["usage-percentage-fraction"] },
  ],
  // 2.9 MUST: Usage: `usagePercentage` is 0 when unlimited.
  "USAGE-PERCENTAGE-ZERO-UNLIMITED": [
    { what: "Unlimited usage reports usagePercentage 100 when anything was used.", mutants: ["usage-unlimited-percentage-nonzero"] },
  ],
  // 2.9 MUST: Usage: `limitType` (enum `monthly_emails`, `active_contacts`, `ai_credits`, `email_validation`, `monthly_imports`, `lead_finder_credits`).
  "USAGE-LIMITTYPE-ENUM": [
    { what: "limitType is answered in upper case.", mutants: ["usage-limittype-uppercase"] },
  ],
  // 2.10 MUST: `period`: `start`, `end` (timestamps).
  "ANLT-PERIOD-START-END": [
    { what: "period.start is epoch milliseconds.", mutants: ["anlt-answer-period-epoch"] },
    { what: "a period built per endpoint: the time series answers start as a date only, the overview end as null.", mutants: ["anlt-answer-ts-period-date-only", "anlt-answer-ov-period-end-null"] },
    { what: "the time series and the overview answer end null when no end is asked (an open window).", mutants: ["anlt-rollup-open-end-null"] },
  ],
  // 2.10 MUST: `period`: `clamped` (boolean).
  "ANLT-PERIOD-CLAMPED": [
    { what: "period.clamped is a string.", mutants: ["anlt-answer-clamped-string"] },
    { what: "a period built per endpoint: the time series answers it without clamped, the overview with clamped null or a string.", mutants: ["anlt-answer-ts-clamped-missing", "anlt-answer-ov-clamped-null", "anlt-answer-ov-clamped-string"] },
  ],
  // 2.10 MUST: `period`: `retentionDays` (integer).
  "ANLT-PERIOD-RETENTIONDAYS": [
    { what: "period.retentionDays is a string.", mutants: ["anlt-answer-retention-string"] },
    { what: "a period built per endpoint: the time series answers retentionDays as a string, the overview as null.", mutants: ["anlt-answer-ts-retention-string", "anlt-answer-ov-retention-null"] },
  ],
  // 2.10 MUST: `totals`: `sent`, `failed`, `delivered`, `leadsContacted`, `replies`, `bounces`, `unsubscribed`, `positiveLeads`, `conversions`, `conversionValue` (nu
  "ANLT-TOTALS-COUNTS": [
    { what: "totals.sent is a string.", mutants: ["anlt-answer-totals-sent-string"] },
    { what: "The overview's totals.conversionValue is a string (its own roll-up query: a SQL SUM of a decimal column); the campaign's totals are right.", mutants: ["anlt-answer-ov-conversionvalue-string"] },
  ],
  // 2.10 MUST: `totals`: `opens` and `clicks` (each `total`, `uniqueLeads`).
  "ANLT-TOTALS-OPENS-CLICKS": [
    { what: "the overview's totals.opens/clicks as plain numbers (a separate aggregate query).", mutants: ["anlt-answer-ov-opens-number"] },
    { what: "totals.opens is a number, not { total, uniqueLeads }.", mutants: ["anlt-answer-opens-number"] },
  ],
  // 2.10 MUST: `totals.rates` (percent numbers: `open`, `click`, `reply`, `bounce`, `delivery`, `unsubscribe`, `conversion`).
  "ANLT-TOTALS-RATES": [
    { what: "totals.rates.open is a string.", mutants: ["anlt-answer-rates-strings"] },
    { what: "The overview's totals.rates carry no conversion (the roll-up's own serializer) while the campaign's are whole.", mutants: ["anlt-answer-ov-rates-no-conversion"] },
  ],
  // 2.10 MUST: `rates` are percent numbers: on a 0 to 100 scale (every email delivered is a delivery rate of 100), not fractions of 1.
  "ANLT-RATES-PERCENT": [
    { what: "Rates are fractions of 1: a campaign whose every email was delivered shows a delivery rate of 1, not 100.", mutants: ["anlt-rates-fraction"] },
    { what: "The workspace overview's totals.rates are fractions of 1 (the roll-up's own query and serializer) while the campaign analytics are percent.", mutants: ["anlt-ov-rates-fraction"] },
    { what: "bySequence rows' totals.rates are fractions of 1 (the per-step breakdown's query) while totals and bySmtp are percent.", mutants: ["anlt-bysequence-rates-fraction"] },
    { what: "open, click or reply rates as fractions of 1 while delivery is percent (a rate computed elsewhere).", gap: "not asked: the kit's traffic campaign has no tracked opens or replies, so those rates are 0 on either scale; a check would need a tracked open on a campaign whose analytics it reads" },
  ],
  // 2.10 MUST: `bySmtp[]`: `accountId`, `email`, `totals`.
  "ANLT-BYSMTP-FIELDS": [
    { what: "bySmtp rows carry no accountId.", mutants: ["anlt-answer-bysmtp-no-accountid"] },
    { what: "Each bySmtp row's email is the mailbox's display name (the sender identity), not its address.", mutants: ["anlt-bysmtp-email-display-name"] },
  ],
  // 2.10 MUST: `bySmtp[].totals`: sent, delivered, opens, clicks, replies, bounces, positiveLeads, conversions, conversionValue, rates with `open`, `click`, `reply`,
  "ANLT-BYSMTP-TOTALS": [
    { what: "bySmtp rows carry totals without rates.", mutants: ["anlt-answer-bysmtp-totals-no-rates"] },
  ],
  // 2.10 MUST: `bySequence[]`: `step` (integer), `variant` (string), `totals` (same shape as in bySmtp).
  "ANLT-BYSEQUENCE-FIELDS": [
    { what: "bySequence rows carry no variant.", mutants: ["anlt-answer-bysequence-no-variant"] },
  ],
  // 2.10 MUST: `bounceBreakdown`: `total`, `hard`, `soft`, `senderBounces`, `recipientBounces`, `unknownBounces`.
  "ANLT-BOUNCE-FIELDS": [
    { what: "bounceBreakdown carries no senderBounces.", mutants: ["anlt-answer-bounce-no-sender"] },
    { what: "Once there is a bounce, bounceBreakdown leaves out its counts of 0 (built from grouped rows).", mutants: ["anlt-bounce-zero-counts-dropped"] },
  ],
  // 2.10 MUST: `bounceBreakdown.byCategory[]` (`category`, `label`, `type`, `count`, `percentage`).
  "ANLT-BOUNCE-BYCATEGORY": [
    { what: "bounceBreakdown carries no byCategory.", mutants: ["anlt-answer-bounce-no-bycategory"] },
  ],
  // 2.10 MUST: Time-series point: `timestamp`, `sent`, `delivered`, `opens` and `clicks` (`total`, `uniqueLeads`), `replies`, `bounces`, `unsubscribed`.
  "ANLT-POINT-FIELDS": [
    { what: "Time-series points carry no bounces.", mutants: ["anlt-answer-point-no-bounces"] },
  ],
  // 2.10 MUST: Workspace overview adds `activeCampaigns` (campaigns currently sending).
  "ANLT-OVERVIEW-ACTIVECAMPAIGNS": [
    { what: "activeCampaigns also counts draft, scheduled and paused campaigns.", mutants: ["anlt-overview-active-counts-unsent"] },
  ],
  // 2.10 MUST: Workspace overview adds `sendingAccounts` (connected sending accounts).
  "ANLT-OVERVIEW-SENDINGACCOUNTS": [
    { what: "The overview answers no sendingAccounts.", mutants: ["anlt-answer-ov-no-sendingaccounts"] },
  ],
  // 2.10 MUST: Workspace overview adds `topCampaigns[]` (`campaignId`, `name`, `sent`, `openRate`).
  "ANLT-OVERVIEW-TOPCAMPAIGNS": [
    { what: "topCampaigns rows carry no openRate.", mutants: ["anlt-answer-topcampaigns-no-openrate"] },
    { what: "topCampaigns never filled, even while the workspace's one campaign sends (held where the profile declares the ranking by sent: analytics.topCampaignsBy).", mutants: ["anlt-ov-topcampaigns-empty"] },
    { what: "topCampaigns rows whose name or sent is not the campaign's: the name empty, sent 0, or sent counted in all time rather than in the window asked.", mutants: ["anlt-ov-topcampaigns-name-lost", "anlt-ov-topcampaigns-sent-zero", "anlt-ov-topcampaigns-all-time"] },
  ],
  // 3.1 MUST: Campaign states: `draft`, `scheduled`, `active`, `paused`, `stopped`, `completed`, `failed` (a campaign is always in one of them).
  "STATE-CAMP-STATES": [
    { what: "A draft campaign says status `new`.", mutants: ["camp-answer-status-unlisted"] },
    { what: "An active campaign says `running` (a paused one `on_hold`) in the status view or the list, display names off the list; drafts say `draft`, so the create answer shows nothing.", mutants: ["camp-answer-status-view-running", "camp-answer-listitem-status-running"] },
  ],
  // 3.1 MUST: (none) -> POST /v1/campaigns, valid body -> draft.
  "STATE-CAMP-CREATE-DRAFT": [
    { what: "A campaign created without launch is answered `scheduled`.", mutants: ["camp-answer-created-scheduled"] },
    { what: "The create answers `draft` while the campaign is stored with another status (a column default): listed and viewed as scheduled.", mutants: ["camp-created-stored-scheduled"] },
  ],
  // 3.1 MUST: POST /v1/campaigns: with `launch` true a launch is attempted.
  "STATE-CAMP-CREATE-LAUNCH-ATTEMPT": [
    { what: "launch: true is ignored: the campaign stays a draft, launched false, no launchError.", mutants: ["camp-launch-never-attempted"] },
  ],
  // 3.1 MUST: POST /v1/campaigns with `launch` true: if it cannot launch the campaign still exists.
  "STATE-CAMP-CREATE-LAUNCH-FAIL-EXISTS": [
    { what: "A launch that cannot happen answers 400 and creates nothing.", mutants: ["camp-launch-failure-400"] },
  ],
  // 3.1 MUST: POST /v1/campaigns with `launch` true: if it cannot launch, `launched` is false.
  "STATE-CAMP-CREATE-LAUNCH-FAIL-FLAG": [
    { what: "A launch that cannot happen answers 400 and creates nothing.", mutants: ["camp-launch-failure-400"] },
  ],
  // 3.1 MUST: POST /v1/campaigns with `launch` true: if it cannot launch, `launchError` gives the reason.
  "STATE-CAMP-CREATE-LAUNCH-FAIL-REASON": [
    { what: "A launch that cannot happen answers 400 and creates nothing.", mutants: ["camp-launch-failure-400"] },
  ],
  // 3.1 MUST: POST /v1/campaigns/{id}/start: condition: campaign has leads; otherwise 400.
  "STATE-CAMP-START-REQUIRES-LEADS": [
    { what: "A campaign without leads (but with a sequence) starts.", mutants: ["camp-start-without-leads"] },
    { what: "A campaign whose leads were all deleted starts: the start condition counts soft-deleted (contacted, then deleted) leads.", mutants: ["camp-start-counts-deleted-leads"] },
  ],
  // 3.1 MUST: POST /v1/campaigns/{id}/start: condition: campaign has a sequence; otherwise 400.
  "STATE-CAMP-START-REQUIRES-SEQUENCE": [
    { what: "A campaign with leads but without a sequence starts.", mutants: ["camp-start-without-sequence"] },
    { what: "A campaign whose sequence was emptied by PATCH starts: the start condition reads a step count (or a has-sequence flag) written at create.", mutants: ["camp-start-steps-from-create"] },
  ],
  // 3.1 MUST: Start from any startable state: sending begins.
  "STATE-CAMP-START-BEGINS": [
    { what: "A started campaign never sends.", mutants: ["send-nothing"] },
  ],
  // 3.1 MUST: Start: the status after the call is in the response `status` field (the campaign read afterwards has that status).
  "STATE-CAMP-START-STATUS-REPORTED": [
    { what: "The start answer reports a status of its own (from the schedule) rather than the campaign's: a campaign whose startDate is still to come is answered scheduled while it is active (or the other way round); only a draft that goes straight to sending was started.", mutants: ["camp-start-status-from-schedule"] },
    { what: "POST .../start reports another status than the campaign then has.", mutants: ["camp-answer-start-status-other"] },
  ],
  // 3.1 MUST: Start: needs scope `campaigns:lifecycle`.
  "STATE-CAMP-START-SCOPE": [
    { what: "The scope check of campaigns.start is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-start"] },
  ],
  // 3.1 MUST: paused -> POST /v1/campaigns/{id}/resume -> sending continues.
  "STATE-CAMP-RESUME-FROM-PAUSED": [
    { what: "A resumed campaign starts its sequence over, sending every step again.", mutants: ["send-resume-restarts"] },
  ],
  // 3.1 MUST: Resume: condition: workspace has at least one mailbox, otherwise 400.
  "STATE-CAMP-RESUME-NEEDS-MAILBOX": [
    { what: "Resume checks the campaign's own mailboxes, not the workspace's: a paused campaign whose mailbox was deleted is refused with 400 although the workspace still has another mailbox.", gap: "named by a self-audit of unaudited clauses: CAMP-RESUME/no-mailbox asks the 400 only with no mailbox left, CAMP-RESUME/unsendable-mailbox the 2xx only with the campaign's own mailbox; CAMP-RESUME/no-mailbox could first resume with a second workspace mailbox still there (2xx), pause again, delete it and ask the 400 (+4 requests), with a mutant switching the resume rule to the campaign's accounts" },
    { what: "Resume checks the campaign's own mailbox list, kept stale: a campaign that listed a mailbox deleted since resumes in a workspace with no mailbox.", mutants: ["camp-resume-stale-campaign-accounts"] },
    { what: "A paused campaign resumes in a workspace without any mailbox.", mutants: ["camp-resume-without-mailbox"] },
  ],
  // 3.1 MUST: Resume: sending continues from where it left off (no email already sent is sent again).
  "STATE-CAMP-RESUME-CONTINUES": [
    { what: "A resumed campaign starts its sequence over, sending every step again.", mutants: ["send-resume-restarts"] },
  ],
  // 3.1 MUST: Resume: a mailbox that exists but cannot send now (disconnected, reauthorizing, DNS below the sending floor) does not block the resume.
  "STATE-CAMP-RESUME-UNSENDABLE-OK": [
    { what: "Resume answers 400 unless the workspace has an active mailbox.", mutants: ["camp-resume-blocked-by-unsendable-mailbox"] },
    { what: "Resume answers 400 when the workspace's only mailbox is revoked (disconnected): the rule asks for a connected mailbox.", mutants: ["camp-resume-needs-connected-mailbox"] },
  ],
  // 3.1 PROFILE: Transitions for pause, stop, complete, fail and schedule: not shown (profile).
  "STATE-CAMP-OTHER-PROFILE": [
    { what: "Starting a paused campaign moves it to scheduled, a transition its declared table does not hold.", mutants: ["camp-start-paused-schedules"] },
    { what: "A campaign whose leads have all had their sequence moves to a state its declared table does not hold (active -> stopped, back to draft), or never leaves active though completion is declared.", gap: "named by a self-audit of unaudited clauses: STATE-TABLE/campaign walks start, pause and resume only; no check reads a campaign's status after its last step while holding transitions.campaign. SEND/one-email (one lead, one step, at default) could read the status once the step has gone and hold the move against the table (about two requests), with a mutant that completes to `stopped`" },
  ],
  // 3.2 MUST: Mailbox states: `active`, `inactive`, `checking`, `revoked`, `failed`.
  "STATE-ACCT-STATES": [
    { what: "Mailboxes answer status in upper case.", mutants: ["acct-status-uppercase"] },
    { what: "An inactive mailbox says status `disabled`.", mutants: ["acct-answer-status-unlisted"] },
    { what: "The states other than a new mailbox's inactive answered under names off the list: failed as `error`, checking as `verifying`, revoked as `disconnected`.", mutants: ["acct-status-internal-names"] },
    { what: "A mailbox being checked (after a resume or a credential PATCH) answered as `verifying`, the other states right.", mutants: ["acct-status-checking-verifying"] },
    { what: "A paused (inactive) mailbox answered as `paused`, the other states right.", mutants: ["acct-status-paused-named"] },
  ],
  // 3.2 MUST: (none) -> POST /v1/accounts, element valid -> inactive.
  "STATE-ACCT-CREATE-INACTIVE": [
    { what: "A new mailbox starts active (before any verification).", mutants: ["acct-new-status-active"] },
    { what: "A mailbox whose SMTP server answers at once starts active (an inline check at create); one whose server does not answer starts inactive.", mutants: ["acct-create-reachable-active"] },
  ],
  // 3.2 MUST: POST /v1/accounts: verified in the background; poll the mailbox for the outcome (the outcome becomes visible on the mailbox without another call).
  "STATE-ACCT-CREATE-VERIFY": [
    { what: "Verification reports success whatever the servers answer (wrong passwords, unreachable hosts give active).", mutants: ["acct-verify-always-active"] },
  ],
  // 3.2 MUST: POST /v1/accounts/{id}/pause: status must be active, otherwise 400.
  "STATE-ACCT-PAUSE-ACTIVE-ONLY": [
    { what: "An \"already paused\" rule: only an inactive mailbox is refused, so a failed, checking or revoked mailbox is paused to inactive.", mutants: ["acct-pause-only-inactive-refused"] },
    { what: "Pausing an inactive (or failed, checking) mailbox succeeds.", mutants: ["acct-pause-inactive-allowed"] },
  ],
  // 3.2 MUST: active -> pause -> inactive.
  "STATE-ACCT-PAUSE-INACTIVE": [
    { what: "POST /v1/accounts/{id}/pause answers the mailbox still active (it turns inactive only afterwards).", mutants: ["acct-answer-pause-still-active"] },
  ],
  // 3.2 MUST: Paused mailbox: campaigns skip it (the warmup half of the rule: STATE-ACCT-PAUSE-WARMUP-SKIPPED).
  "STATE-ACCT-PAUSE-SKIPPED": [
    { what: "A paused (inactive) mailbox keeps sending campaign mail.", mutants: ["send-paused-mailbox-sends"] },
    { what: "A paused mailbox takes no new lead, but the follow-up steps of the threads it started still go from it.", mutants: ["send-followups-from-paused-mailbox"] },
  ],
  // 3.2 MUST: Paused mailbox: warmup skips it.
  "STATE-ACCT-PAUSE-WARMUP-SKIPPED": [
    { what: "A paused (inactive) mailbox keeps sending its warmup mail.", mutants: ["send-warmup-from-paused-mailbox"] },
  ],
  // 3.2 MUST: Paused mailbox: nothing re-activates it automatically, only a resume.
  "STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE": [
    { what: "A credentials PATCH on a paused mailbox re-runs verification, and its outcome is written as the status: the mailbox becomes active without a resume.", gap: "named by a self-audit of unaudited clauses: no check PATCHes a paused mailbox; VERIF-SINK/pause could PATCH smtpPassword (the same value) after the pause, wait for the new lastVerifiedAt (or the sink's AUTH without the control API) and require inactive (+1 PATCH and its polls), with a mutant in verify.ts ignoring `paused` when the outcome is written" },
    { what: "Pause does not stick: a background re-check makes the paused mailbox active again.", mutants: ["acct-pause-rechecked-active"] },
  ],
  // 3.2 MUST: inactive or failed -> resume (referenced) -> checking and re-verification.
  "STATE-ACCT-RESUME-CHECKING": [
    { what: "Resume makes the mailbox active at once, without checking or re-verification.", mutants: ["acct-resume-no-reverify"] },
    { what: "Resume makes an OAuth mailbox active at once, without checking or re-verification (SMTP/IMAP mailboxes are re-checked).", mutants: ["acct-oauth-resume-no-reverify"] },
  ],
  // 3.2 MUST: A failed mailbox is re-checked by resume.
  "STATE-ACCT-RESUME-FAILED-RECHECK": [
    { what: "Resume makes the mailbox active at once, without checking or re-verification.", mutants: ["acct-resume-no-reverify"] },
  ],
  // 3.2 MUST: any -> PATCH with any `smtp*` or `imap*` field: credentials rotated.
  "STATE-ACCT-PATCH-CREDS-ROTATE": [
    { what: "A PATCH of smtp*/imap* fields re-runs verification but keeps the old credentials.", mutants: ["acct-patch-creds-not-stored"] },
    { what: "The new credentials are stored, but the re-verification logs in with the old ones (an SMTP transport cached per mailbox).", mutants: ["acct-patch-reverify-cached-login"] },
    { what: "A PATCH of a password alone re-runs verification with the old password (the secret store written at create only): no answer shows a password, so only a verification against a server that knows the passwords tells.", mutants: ["acct-patch-password-not-stored"] },
  ],
  // 3.2 MUST: any -> PATCH with any `smtp*` or `imap*` field: verification re-run.
  "STATE-ACCT-PATCH-CREDS-REVERIFY": [
    { what: "A PATCH of credentials stores them but leaves status and verification as they were (no new verification).", mutants: ["acct-patch-no-reverify"] },
    { what: "Only smtp* fields trigger the re-verification: a PATCH of imap* fields alone stores them and verifies nothing.", mutants: ["acct-patch-imap-no-reverify"] },
    { what: "Only a server change triggers the re-verification: a PATCH of a password alone stores it and verifies nothing.", mutants: ["acct-patch-password-no-reverify"] },
  ],
  // 3.2 MUST: active -> repeated sending failures (system) -> failed.
  "STATE-ACCT-SEND-FAILURES-FAILED": [
    { what: "Only login refusals count as sending failures: a server that refuses the sender at MAIL FROM (550) on every send leaves the mailbox active.", gap: "named by a self-audit of unaudited clauses: at default only SEND/failures-auth runs (535 at AUTH); SEND/failures-mail-from claims the clause but runs only at full. A mutant in sending/failures.ts counting AUTH refusals only would make the planner take it at default (its requests to be weighed against the 1,824 room)" },
    { what: "A mailbox whose SMTP server refuses every send stays active.", mutants: ["send-failures-never-fail"] },
  ],
  // 3.2 MUST: Failed mailbox: `statusMessage` holds the provider reason.
  "STATE-ACCT-FAILED-STATUSMESSAGE": [
    { what: "Verification reports success whatever the servers answer (wrong passwords, unreachable hosts give active).", mutants: ["acct-verify-always-active"] },
    { what: "statusMessage of a mailbox failed by SMTP refusals is a generic message, not the provider's answer.", mutants: ["send-statusmessage-generic"] },
    { what: "statusMessage is written on the login error path only: a mailbox failed by repeated refusals at MAIL FROM keeps a generic message or null.", gap: "named by a self-audit of unaudited clauses: at default the sending failure asked is a refused AUTH (SEND/failures-auth); SEND/failures-mail-from asks MAIL FROM at full only. A mutant writing the provider's answer for AUTH failures only would make the plan take SEND/failures-mail-from (about 13 requests, solo), which the default plan's request room barely holds" },
  ],
  // 3.2 PROFILE: How many repeated sending failures turn an active mailbox failed, and whether a recipient refused at RCPT TO counts as one: not shown (profile: declar
  "STATE-ACCT-SEND-FAILURES-PROFILE": [
    { what: "A mailbox turns failed at its first refused send, not after the declared count.", mutants: ["send-failures-first-refusal"] },
    { what: "A mailbox turns failed only two refusals after the declared count.", mutants: ["send-failures-threshold-late"] },
    { what: "Recipients refused at RCPT TO never count toward the mailbox failing, although the profile declares they do.", mutants: ["send-rcpt-refusal-not-counted"] },
  ],
  // 3.2 MUST: any OAuth mailbox -> OAuth grant withdrawn (system) -> revoked.
  "STATE-ACCT-OAUTH-REVOKED": [
    { what: "A withdrawn grant (control POST /accounts/{id}/revoke-oauth) leaves the mailbox active.", mutants: ["acct-revoke-ignored"] },
    { what: "A withdrawn grant is noticed only where the service uses the token (sends, the active mailboxes' refresh): a paused (inactive) OAuth mailbox stays inactive.", mutants: ["acct-revoke-active-only"] },
  ],
  // 3.2 MUST: Revoked mailbox: the mailbox must be reconnected (it does not become active by itself).
  "STATE-ACCT-REVOKED-RECONNECT": [
    { what: "After a withdrawn grant the service retries it in the background: the revoked mailbox becomes active again by itself.", mutants: ["acct-revoked-comes-back"] },
    { what: "A revoked mailbox comes back by itself later (a grant retry with backoff, a periodic reconcile): unseen while the clock stands still.", mutants: ["acct-revoked-retried-later"] },
  ],
  // 3.2 MUST: any -> DELETE /v1/accounts/{id} -> removed (later reads of it answer 404).
  "STATE-ACCT-DELETE-REMOVED": [
    { what: "A soft-deleted mailbox is still listed (the mailbox listing ignores the deleted flag) while every read by id answers 404.", gap: "named by a self-audit of unaudited clauses: no check lists mailboxes after a delete; ACCT-DELETE could list them after the delete and require the id absent (in an exclusive workspace, or filtered, one request), with a mutant keeping the deleted row that the list query does not filter" },
    { what: "Deleting an active mailbox stops it (inactive, out of its campaigns) but keeps it readable: GET and its verification still answer 200 (a fresh mailbox is removed).", mutants: ["send-deleted-mailbox-readable"] },
  ],
  // 3.2 MUST: DELETE /v1/accounts/{id}: sending stops immediately.
  "STATE-ACCT-DELETE-STOPS-SENDING": [
    { what: "A deleted mailbox keeps sending until its queue is empty.", mutants: ["send-deleted-mailbox-sends"] },
    { what: "A deleted mailbox leaves the API at once, but the follow-up steps of the threads it started still go from it.", mutants: ["send-followups-from-deleted-mailbox"] },
    { what: "A deleted mailbox stops its campaign sends, but warmup (a scheduler of its own) keeps sending from it.", gap: "not asked: SEND/mailbox-deleted watches 90 minutes after the delete, less than a warmup day; SEND/warmup-paused-mailbox holds the pause analog. A check alike for DELETE (a warming mailbox and a twin, watched 26 hours) would close it" },
  ],
  // 3.2 PROFILE: Mapping of verification outcomes to status values: not shown (profile).
  "STATE-ACCT-VERIFY-MAPPING-PROFILE": [
    { what: "A failed verification leaves the mailbox inactive, not in the status the profile declares for a failure.", mutants: ["acct-verify-failure-inactive"] },
    { what: "A server that answers nothing is taken as transient: the mailbox stays inactive, while refused credentials give the declared failure status.", mutants: ["acct-verify-unreachable-inactive"] },
  ],
  // 3.3 MUST: User-settable statuses: `lead_replied_interested`, `lead_replied_meeting_request`, `lead_replied_out_of_office`, `lead_replied_wrong_person`, `lead_re
  "STATE-LEAD-USER-SETTABLE": [
    { what: "A settable list missing one of the lead_replied_* statuses (e.g. lead_replied_uncategorized or lead_replied_out_of_office): setting it after a reply is rejected.", gap: "named by a self-audit of unaudited clauses: at default only lead_replied_interested (PATCH) and lead_converted (mutate) are set after a real reply, lead_lost and blacklisted any time; REPLY/status-settable could PATCH each lead_replied_* status in turn (+6 requests), or LEAD-STATUS/after-reply (control API) enter the default plan, with a mutant dropping one status from the reference's settable list" },
    { what: "PATCH accepts any status string (email_sent, scheduled...).", mutants: ["lead-platform-status-accepted"] },
    { what: "lead_lost and blacklisted are refused (400) until the lead replied.", mutants: ["lead-lost-needs-reply"] },
    { what: "PATCH refuses lead_converted even after a reply (its replied statuses by the `lead_replied_` prefix); the lead_replied_* statuses are set.", mutants: ["lead-patch-converted-refused"] },
  ],
  // 3.3 MUST: Set status (PATCH lead, or mutate `set_status`) to a `lead_replied_*` status or `lead_converted`, when the lead has already replied: status set.
  "STATE-LEAD-REPLIED-AFTER-REPLY": [
    { what: "A reply found in the mailbox is stored but the lead is not marked as replied.", mutants: ["reply-not-recorded"] },
    { what: "By mutate set_status a replied lead cannot take a lead_replied_* status or lead_converted.", mutants: ["lead-mutate-replied-statuses-refused"] },
    { what: "PATCH refuses lead_converted even after a reply (its replied statuses by the `lead_replied_` prefix); the lead_replied_* statuses are set.", mutants: ["lead-patch-converted-refused"] },
  ],
  // 3.3 MUST: Set status to a `lead_replied_*` status or `lead_converted`: condition "lead has already replied" (a lead that has not replied keeps its status; the r
  "STATE-LEAD-REPLIED-BEFORE-REPLY": [
    { what: "The replied statuses are allowed once the user set lead_lost: a lead that never replied, set lead_lost, takes lead_replied_interested.", mutants: ["lead-replied-status-after-lost"] },
    { what: "The replied statuses are tied to \"contacted\" instead of \"replied\": a lead sent a step that never answered takes lead_replied_interested.", mutants: ["lead-replied-status-after-contact"] },
    { what: "Replied-only statuses are set on leads that never replied.", mutants: ["lead-replied-status-before-reply"] },
    { what: "mutate set_status skips 3.3's rules (a replied status is set on a lead that never replied); PATCH keeps them.", mutants: ["lead-mutate-status-rules-skipped"] },
    { what: "mutate set_status guards the before-reply rule by the `lead_replied_` prefix alone: lead_converted is set in bulk on a lead that never replied (PATCH refuses it).", mutants: ["lead-mutate-converted-unguarded"] },
  ],
  // 3.3 MUST: Set status to `lead_lost`: any time: status set.
  "STATE-LEAD-LOST-ANYTIME": [
    { what: "A lead that replied is made terminal: lead_lost refused after a reply (only the lead_replied_* statuses and lead_converted allowed).", mutants: ["lead-lost-refused-after-reply"] },
    { what: "A blacklisted lead is frozen: lead_lost refused once it is blacklisted.", mutants: ["lead-blacklisted-frozen"] },
    { what: "lead_lost and blacklisted are refused (400) until the lead replied.", mutants: ["lead-lost-needs-reply"] },
  ],
  // 3.3 MUST: Set status to `blacklisted`: any time: status set.
  "STATE-LEAD-BLACKLISTED-ANYTIME": [
    { what: "lead_lost and blacklisted are refused (400) until the lead replied.", mutants: ["lead-lost-needs-reply"] },
    { what: "A lead that replied is refused blacklisted (after a reply only the replied statuses and lead_lost).", mutants: ["lead-blacklisted-refused-after-reply"] },
  ],
  // 3.3 MUST: Set status to a platform-managed status such as `email_sent` or `scheduled`: rejected.
  "STATE-LEAD-PLATFORM-REJECTED": [
    { what: "PATCH accepts any status string (email_sent, scheduled...).", mutants: ["lead-platform-status-accepted"] },
  ],
  // 3.3 MUST: The status rules hold for both ways of setting it: PATCH lead and mutate `set_status`.
  "STATE-LEAD-RULES-BOTH-PATHS": [
    { what: "mutate set_status skips 3.3's rules (a replied status is set on a lead that never replied); PATCH keeps them.", mutants: ["lead-mutate-status-rules-skipped"] },
    { what: "mutate set_status refuses the replied statuses even for a lead that replied; PATCH sets them.", mutants: ["lead-mutate-replied-statuses-refused"] },
    { what: "mutate set_status guards the before-reply rule by the `lead_replied_` prefix alone: lead_converted is set in bulk on a lead that never replied (PATCH refuses it).", mutants: ["lead-mutate-converted-unguarded"] },
  ],
  // 3.3 MUST: Change `email` via PATCH when the lead is not yet contacted: email changed.
  "STATE-LEAD-EMAIL-CHANGE-UNCONTACTED": [
    { what: "A PATCH of a lead's email (not yet contacted) answers 200 but keeps the old address.", mutants: ["lead-patch-email-ignored"] },
    { what: "The email of a lead can never change, even before any contact (refused as a state conflict).", mutants: ["lead-email-never-changes"] },
    { what: "The PATCH answer shows the new email, but the UPDATE leaves the email (the dedupe key, its own column) as it was: the lead keeps its old address in the listing.", mutants: ["lead-email-change-answer-only"] },
  ],
  // 3.3 MUST: Change `email` via PATCH: otherwise (lead already contacted) rejected.
  "STATE-LEAD-EMAIL-CHANGE-CONTACTED": [
    { what: "The email of a contacted lead can be changed.", mutants: ["lead-email-change-after-contact"] },
  ],
  // 3.3 MUST: DELETE lead, contacted lead: soft-deleted.
  "STATE-LEAD-DELETE-SOFT": [
    { what: "DELETE of a lead answers { success: true } without retentionDays.", mutants: ["lead-delete-no-retention"] },
  ],
  // 3.3 MUST: DELETE lead: a retention window in days is returned as `retentionDays`.
  "STATE-LEAD-DELETE-RETENTION": [
    { what: "DELETE of a lead answers { success: true } without retentionDays.", mutants: ["lead-delete-no-retention"] },
  ],
  // 3.3 PROFILE: Transitions of platform-managed lead statuses: not shown (profile).
  "STATE-LEAD-PLATFORM-PROFILE": [
    { what: "A send moves its lead to another status than the declared one (contacted where email_sent is declared), a move the declared table does not hold.", mutants: ["send-lead-status-after-send-undeclared"] },
    { what: "A reply moves its lead to lead_replied_uncategorized, a move the declared table does not hold.", mutants: ["send-lead-reply-moves-undeclared"] },
    { what: "A hard bounce moves its lead to bounced, a move the declared table does not hold.", mutants: ["send-lead-bounce-moves-undeclared"] },
    { what: "A lead that got the last step of its sequence moves to sequence_finished, a platform status its declared table does not hold.", mutants: ["send-lead-status-finished"] },
    { what: "A lead sent a step before the last of its sequence moves to in_sequence, a platform status its declared table does not hold.", mutants: ["send-lead-status-mid-sequence"] },
    { what: "A tracked open or click moves its lead to opened or clicked, a platform status its declared table does not hold.", mutants: ["send-lead-open-moves-undeclared", "send-lead-click-moves-undeclared"] },
  ],
  // 3.4 MUST: Lead search states are listed in 2.8.
  "STATE-LF-STATES": [
    { what: "A lead search answers its status in upper case.", mutants: ["lf-status-uppercase"] },
    { what: "GET of a stopped search answers status `cancelled` (a terminal state outside the enum; the running phases and completed are right).", mutants: ["lf-answer-status-stopped-cancelled"] },
  ],
  // 3.4 MUST: `discoveryFinished` becomes true when discovery ends while later phases may continue.
  "STATE-LF-DISCOVERY-FINISHED": [
    { what: "discoveryFinished stays false in every state.", mutants: ["lf-discovery-never-finished"] },
    { what: "discoveryFinished turns true only when the search reaches a terminal status, never while crawling or enriching.", mutants: ["lf-discovery-finished-terminal-only"] },
    { what: "a flag derived from a list of the phases after discovery that misses one: processing, crawling or verifying says false (which phases come after discovery: the spec names crawl and enrich, the profile declares the rest: declarations.leadSearchAfterDiscovery).", mutants: ["lf-discovery-list-misses-processing", "lf-discovery-list-misses-crawling", "lf-discovery-list-misses-verifying"] },
  ],
  // 3.4 MUST: `completedAt` is set when a terminal state is reached.
  "STATE-LF-COMPLETEDAT-TERMINAL": [
    { what: "completedAt stays null in completed, stopped and failed.", mutants: ["lf-completedat-missing"] },
  ],
  // 4.3 PROFILE: Names of the list query parameters for the cursor, the page size and the status filter: not shown.
  "PAGE-PARAM-NAMES": [
    { what: "The campaign list reads its status filter under `state`, not the declared name: a list asked by the declared name is not filtered.", mutants: ["camp-list-status-param-renamed"] },
    { what: "The campaign list reads its page size under `per_page`, not the declared name: every page has the default size, 0 and 101 are taken.", mutants: ["camp-list-pagesize-param-renamed"] },
    { what: "The campaign list reads its cursor under `after`, not the declared name: a page asked with the declared cursor is the first page again.", mutants: ["camp-list-cursor-param-renamed"] },
  ],
  // 4.2 MUST: POST /v1/accounts requires scope accounts:write.
  "ACCT-CREATE-SCOPE": [
    { what: "The mailbox routes filed by domain: a key of exactly accounts:read is served on the mailbox writes too.", mutants: ["scope-mailbox-writes-also-accounts-read"] },
    { what: "The scope check of accounts.create is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-create"] },
  ],
  // 4.2 MUST: POST /v1/accounts body `{ accounts: [create input, 1 to 50] }`.
  "ACCT-CREATE-BODY": [
    { what: "The elements are read from another key than `accounts` (or the body must be a bare array).", mutants: ["acct-create-body-key-renamed"] },
  ],
  // 4.2 MUST: POST /v1/accounts: `accounts` holds 1 to 50 elements; an empty array is rejected (400).
  "ACCT-CREATE-BATCH-MIN": [
    { what: "An empty accounts array is accepted (201, nothing created).", mutants: ["acct-batch-empty-accepted"] },
  ],
  // 4.2 MUST: POST /v1/accounts: `accounts` holds 1 to 50 elements; 50 are accepted and 51 are rejected (400).
  "ACCT-CREATE-BATCH-MAX": [
    { what: "A batch of 51 mailboxes is accepted.", mutants: ["acct-batch-51-accepted"] },
  ],
  // 4.2 MUST: POST /v1/accounts: each element is validated and created independently.
  "ACCT-CREATE-INDEPENDENT": [
    { what: "One invalid element makes the whole POST /v1/accounts answer 400; nothing is created.", mutants: ["acct-batch-fails-whole"] },
  ],
  // 4.2 MUST: POST /v1/accounts answers 201.
  "ACCT-CREATE-201": [
    { what: "POST /v1/accounts answers 200.", mutants: ["acct-create-200"] },
    { what: "A batch whose every element fails (an address connected elsewhere) answers 400 or 422, a refusal of the request, instead of a success (4.2: 201) with every element in errors.", mutants: ["acct-batch-none-created-400"] },
  ],
  // 4.2 MUST: POST /v1/accounts answer: `summary: { submitted, created, failed }`.
  "ACCT-CREATE-SUMMARY": [
    { what: "The summary has no `failed` count.", mutants: ["acct-create-summary-no-failed"] },
  ],
  // 4.2 MUST: POST /v1/accounts answer: `accounts: [mailbox]` holds connected mailboxes.
  "ACCT-CREATE-ACCOUNTS": [
    { what: "POST /v1/accounts answers the mailboxes under `mailboxes`.", mutants: ["acct-answer-create-mailboxes"] },
  ],
  // 4.2 MUST: POST /v1/accounts answer: the connected mailboxes start `inactive`.
  "ACCT-CREATE-START-INACTIVE": [
    { what: "A new mailbox starts active (before any verification).", mutants: ["acct-new-status-active"] },
    { what: "A mailbox whose SMTP server answers at once starts active (an inline check at create); one whose server does not answer starts inactive.", mutants: ["acct-create-reachable-active"] },
  ],
  // 4.2 MUST: POST /v1/accounts answer: `errors` holds those that could not be connected.
  "ACCT-CREATE-ERRORS": [
    { what: "POST /v1/accounts answers no `errors`.", mutants: ["acct-answer-create-no-errors"] },
  ],
  // 4.2 MUST: POST /v1/accounts: an email already connected elsewhere is reported in `errors` (not connected again).
  "ACCT-CREATE-DUPLICATE": [
    { what: "An address already connected is connected again (a second mailbox) instead of an element error.", mutants: ["acct-duplicate-created"] },
    { what: "The duplicate lookup compares the address as spelled (a case-sensitive unique column): the connected address with its domain in capitals is connected again.", mutants: ["acct-duplicate-case-sensitive"] },
  ],
  // 4.2 MUST: POST /v1/accounts: the rest of the batch is still created.
  "ACCT-CREATE-REST-CREATED": [
    { what: "One invalid element makes the whole POST /v1/accounts answer 400; nothing is created.", mutants: ["acct-batch-fails-whole"] },
  ],
  // 4.2 PROFILE: Shape of each element of `errors` in the batch response: not shown (profile).
  "ACCT-CREATE-ERRORS-SHAPE-PROFILE": [
    { what: "The duplicate-address element reported by another path (at insert) as { emailAddress, message }, without the declared fields (index, code).", mutants: ["acct-batch-duplicate-error-raw"] },
    { what: "An index 1-based or always 0.", gap: "named by an independent audit of 40 passing clauses; not checkable as the spec and profile stand: the profile declares the fields' names, not which one is the index, and the spec states no numbering (0- or 1-based are both correct)" },
    { what: "Batch error elements carry no index.", mutants: ["acct-batch-error-no-index"] },
  ],
  // 4.2 MUST: PATCH /v1/accounts/{id} requires scope accounts:write.
  "ACCT-PATCH-SCOPE": [
    { what: "The mailbox routes filed by domain: a key of exactly accounts:read is served on the mailbox writes too.", mutants: ["scope-mailbox-writes-also-accounts-read"] },
    { what: "The scope check of accounts.update is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-update"] },
  ],
  // 4.2 MUST: PATCH /v1/accounts/{id}: partial body (fields not supplied keep their values).
  "ACCT-PATCH-PARTIAL": [
    { what: "The settings a PATCH leaves out (maxEmailsPerDay, sendingGapMinutes, ...) are reset to their defaults.", mutants: ["acct-patch-resets-unsupplied"] },
    { what: "A PATCH without warmup resets warmup, signature, bcc, replyToAddress, slow ramp and language to the create defaults.", mutants: ["acct-patch-omitted-to-create-defaults"] },
  ],
  // 4.2 MUST: PATCH /v1/accounts/{id} accepts `firstName`, `lastName`, `displayName`, `maxEmailsPerDay`, `sendingGapMinutes`, `campaignSlowRamp`, `signature`, `bcc`
  "ACCT-PATCH-FIELDS": [
    { what: "A PATCH of replyToAddress is answered 200 but the field is silently ignored.", mutants: ["acct-patch-replyto-ignored"] },
    { what: "A PATCH of signature is answered 200 but silently ignored (the old signature kept).", mutants: ["acct-patch-signature-ignored"] },
    { what: "A PATCH of tracking { domainId } is answered 200 but silently ignored.", mutants: ["acct-patch-tracking-ignored"] },
    { what: "A PATCH of maxEmailsPerDay is answered as applied but never stored.", mutants: ["acct-patch-answer-not-stored"] },
  ],
  // 4.2 MUST: PATCH /v1/accounts/{id}: the email address cannot be changed (a PATCH carrying `emailAddress` leaves it unchanged).
  "ACCT-PATCH-EMAIL-IMMUTABLE": [
    { what: "PATCH changes emailAddress.", mutants: ["acct-email-mutable"] },
  ],
  // 4.2 MUST: PATCH /v1/accounts/{id}: any `smtp*` or `imap*` field rotates credentials and re-runs verification.
  "ACCT-PATCH-CREDS-ROTATE": [
    { what: "A PATCH of credentials stores them but leaves status and verification as they were (no new verification).", mutants: ["acct-patch-no-reverify"] },
    { what: "The re-verification after a PATCH logs in with the old credentials (an SMTP transport cached per mailbox).", mutants: ["acct-patch-reverify-cached-login"] },
    { what: "A password-only rotation (smtpPassword or imapPassword) stores the secret without re-running verification; host and port changes do re-run it.", mutants: ["acct-patch-password-no-reverify"] },
    { what: "Only smtp* fields trigger the re-verification: a PATCH of imap* fields alone stores them and verifies nothing.", mutants: ["acct-patch-imap-no-reverify"] },
    { what: "A PATCH of a password alone re-runs verification with the old password (the secret store written at create only): no answer shows a password, so only a verification against a server that knows the passwords tells.", mutants: ["acct-patch-password-not-stored"] },
  ],
  // 4.2 MUST: PATCH /v1/accounts/{id} answers the mailbox (as updated).
  "ACCT-PATCH-RETURNS-MAILBOX": [
    { what: "PATCH answers the mailbox as it was before the update.", mutants: ["acct-patch-answers-before"] },
    { what: "PATCH answers the patched mailbox while its store misses a field (an UPDATE without the column): later reads keep the old value.", mutants: ["acct-patch-answer-not-stored"] },
  ],
  // 4.2 MUST: Passwords are never returned (2.1, 2.2), so a password given in a PATCH is never returned either.
  "ACCT-PATCH-PASSWORD-NOT-RETURNED": [
    { what: "Mailbox answers carry smtp.password (the decrypted SMTP password).", mutants: ["acct-password-returned"] },
  ],
  // 4.2 MUST: DELETE /v1/accounts/{id} requires scope accounts:write.
  "ACCT-DELETE-SCOPE": [
    { what: "The mailbox routes filed by domain: a key of exactly accounts:read is served on the mailbox writes too.", mutants: ["scope-mailbox-writes-also-accounts-read"] },
    { what: "The scope check of accounts.delete is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-delete"] },
  ],
  // 4.2 MUST: DELETE /v1/accounts/{id} answers `{ id, deleted: true }`.
  "ACCT-DELETE-ANSWER": [
    { what: "DELETE /v1/accounts/{id} answers `{ id, success: true }`.", mutants: ["acct-answer-delete-success"] },
  ],
  // 4.2 MUST: POST /v1/accounts/{id}/pause requires scope accounts:write.
  "ACCT-PAUSE-SCOPE": [
    { what: "The mailbox routes filed by domain: a key of exactly accounts:read is served on the mailbox writes too.", mutants: ["scope-mailbox-writes-also-accounts-read"] },
    { what: "The scope check of accounts.pause is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-pause"] },
  ],
  // 4.2 MUST: POST /v1/accounts/{id}/pause answers the mailbox.
  "ACCT-PAUSE-RETURNS-MAILBOX": [
    { what: "POST /v1/accounts/{id}/pause answers the mailbox without emailAddress.", mutants: ["acct-answer-pause-no-email"] },
  ],
  // 4.2 MUST: POST /v1/accounts/{id}/pause: 400 if not currently active.
  "ACCT-PAUSE-400-NOT-ACTIVE": [
    { what: "Pause refuses a mailbox already paused or failed only: a new mailbox, still unverified (or a checking one), is paused.", gap: "named by a self-audit of unaudited clauses: at default the claimants pause a paused mailbox (VERIF-SINK/pause) and a failed one (SEND/failures-auth); ACCT-PAUSE/not-active, which pauses a new one, is left out, and its mailbox (servers refusing at once) may already be failed when it asks, so it is no reliable killer; a new mailbox whose servers stall (the sink's stall fault) paused before its verification ends would close it" },
    { what: "An \"already paused\" rule: only an inactive mailbox is refused, so a failed, checking or revoked mailbox is paused to inactive.", mutants: ["acct-pause-only-inactive-refused"] },
    { what: "Pausing an inactive (or failed, checking) mailbox succeeds.", mutants: ["acct-pause-inactive-allowed"] },
    { what: "Pausing a mailbox that is not active answers 409 conflict instead of 400.", mutants: ["acct-pause-not-active-409"] },
  ],
  // 4.2 MUST: GET /v1/accounts/{id}/verification requires scope accounts:read.
  "ACCT-VERIF-SCOPE": [
    { what: "The scope check of accounts.verification is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-verification"] },
  ],
  // 4.2 MUST: GET /v1/accounts/{id}/verification answers the verification result (2.4).
  "ACCT-VERIF-ANSWER": [
    { what: "The verification endpoint answers no overallStatus.", mutants: ["acct-answer-verif-no-overall"] },
    { what: "The verification endpoint answers no dns.", mutants: ["acct-answer-verif-no-dns"] },
    { what: "The verification endpoint answers no lastVerifiedAt.", mutants: ["acct-answer-verif-no-lastverifiedat"] },
    { what: "The verification endpoint answers no smtp.", mutants: ["acct-answer-verif-no-smtp"] },
    { what: "The verification endpoint answers no imap.", mutants: ["acct-answer-verif-no-imap"] },
    { what: "Once a verification ran, the answer comes from another serializer: overallStatus named `status`.", mutants: ["verif-ran-overall-as-status"] },
    { what: "After a failed SMTP check (IMAP never tried), imap null or left out.", mutants: ["verif-failed-imap-null", "verif-failed-imap-omitted"] },
  ],
  // 4.2 MUST: POST /v1/accounts/oauth/{provider}/init requires scope accounts:write.
  "ACCT-OAUTH-SCOPE": [
    { what: "The scope check of accounts.oauthInit is dropped: any valid key is served.", mutants: ["scope-unchecked-accounts-oauthinit"] },
  ],
  // 4.2 MUST: POST /v1/accounts/oauth/{provider}/init: path `provider` is `google` or `microsoft`.
  "ACCT-OAUTH-PROVIDERS": [
    { what: "OAuth init knows only Google: an init for Microsoft is refused (400).", mutants: ["acct-oauth-microsoft-refused"] },
  ],
  // 4.2 MUST: Path `provider` is `google` or `microsoft`: an init for any other provider is refused, 400 (part 7: parameters invalid) or 404 (as an unknown route), 
  "ACCT-OAUTH-PROVIDER-UNKNOWN": [
    { what: "An init for any other provider (yahoo) answers 200 with an authorization URL and a state.", mutants: ["acct-oauth-any-provider"] },
    { what: "The init checks the provider against the mailbox provider list (custom, google, microsoft): an init for `custom` answers 200 with an authorization URL and a state.", mutants: ["acct-oauth-provider-custom"] },
  ],
  // 4.2 MUST: POST /v1/accounts/oauth/{provider}/init: no body (a call without a body succeeds).
  "ACCT-OAUTH-NO-BODY": [
    { what: "accounts.oauthInit refuses (400) a request without a body.", mutants: ["acct-oauth-init-body-required"] },
  ],
  // 4.2 MUST: POST /v1/accounts/oauth/{provider}/init answers `{ authorizationUrl, state, expiresInSeconds }`.
  "ACCT-OAUTH-ANSWER": [
    { what: "OAuth init answers no expiresInSeconds.", mutants: ["acct-answer-oauth-no-expiry"] },
  ],
  // 4.2 MUST: `authorizationUrl`: open the URL in a browser so the owner grants access (an absolute URL).
  "ACCT-OAUTH-URL": [
    { what: "OAuth init answers a relative authorizationUrl.", mutants: ["acct-answer-oauth-relative-url"] },
  ],
  // 4.2 MUST: `state` is an opaque handle.
  "ACCT-OAUTH-STATE-OPAQUE": [
    { what: "state is readable (the workspace id, a counter) rather than opaque.", gap: "opaque binds the client, which must not read meaning into it: no answer can show a target breaking it" },
    { what: "The answered state is not the flow's handle (an encoded copy of it): the status poll and the consent do not know it.", mutants: ["acct-oauth-state-answer-encoded"] },
  ],
  // 4.2 MUST: `state` stays valid for `expiresInSeconds` seconds.
  "ACCT-OAUTH-STATE-VALIDITY": [
    { what: "The state store's lifetime shorter than the advertised expiresInSeconds but over half of it (two constants): a consent near the end is refused.", mutants: ["acct-oauth-state-store-shorter"] },
    { what: "expiresInSeconds given in milliseconds (600000 for a state that lives 600 seconds).", mutants: ["acct-oauth-expiry-in-ms"] },
    { what: "The OAuth status poll never reports expired: an old state stays pending.", mutants: ["acct-oauth-state-never-expires"] },
  ],
  // 4.2 MUST: After consent, the result is polled with GET /v1/accounts/oauth/{provider}/status with the `state` as a query parameter.
  "ACCT-OAUTH-STATUS-POLL": [
    { what: "The status poll reads the state under `oauthState`: a poll with the declared parameter is refused (400).", mutants: ["acct-oauth-status-state-renamed"] },
  ],
  // 4.2 PROFILE: The response shape of GET /v1/accounts/oauth/{provider}/status is not given here (profile).
  "ACCT-OAUTH-STATUS-PROFILE": [
    { what: "A completed OAuth flow answers { status: completed } without naming the mailbox it connected.", mutants: ["acct-oauth-status-no-account"] },
  ],
  // 4.2 MUST: A mailbox id of another workspace is a resource absent from the caller's workspace (part 5: the key identifies the workspace; part 7: 404): 404 on eve
  "ACCT-OTHER-WORKSPACE-404": [
    { what: "Resources of other workspaces are found by id (campaigns, leads, mailboxes, emails).", mutants: ["tenant-isolation-broken"] },
  ],
  // 4.3 MUST: POST /v1/campaigns requires scope campaigns:write.
  "CAMP-CREATE-SCOPE": [
    { what: "The launch scope is asked unless launch is false: a create without `launch` by a key holding campaigns:write alone gets 403.", mutants: ["camp-launch-scope-unless-false"] },
    { what: "\"campaigns:write, plus campaigns:lifecycle when launch is true\" read as \"instead\": a key holding only campaigns:lifecycle creates with launch true.", mutants: ["scope-create-launch-instead"] },
    { what: "The create is served to a key holding campaigns:lifecycle as well as campaigns:write.", mutants: ["scope-create-accepts-lifecycle"] },
    { what: "The scope check of campaigns.create is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-create"] },
  ],
  // 4.3 MUST: POST /v1/campaigns requires campaigns:lifecycle as well when `launch` is true (a key with campaigns:write alone gets 403).
  "CAMP-CREATE-LAUNCH-SCOPE": [
    { what: "launch: true works with campaigns:write alone.", mutants: ["camp-launch-without-lifecycle"] },
    { what: "The launch scope is asked only where the launch happens, after the insert: the key without campaigns:lifecycle gets 403, yet the campaign is created.", mutants: ["camp-launch-scope-after-insert"] },
  ],
  // 4.3 MUST: The scope of POST /v1/campaigns is campaigns:write, plus campaigns:lifecycle only when `launch` is true: without `launch` true, campaigns:write alone 
  "CAMP-CREATE-NO-LAUNCH-SCOPE": [
    { what: "The launch scope is asked unless launch is false: a create without `launch` by a key holding campaigns:write alone gets 403.", mutants: ["camp-launch-scope-unless-false"] },
    { what: "A create that holds leads also asks leads:write: a key holding campaigns:write alone gets 403.", mutants: ["camp-create-leads-need-leads-write"] },
  ],
  // 4.3 MUST: POST /v1/campaigns body `{ name, schedule, settings, sequence, accounts, leads, launch }`.
  "CAMP-CREATE-BODY": [
    { what: "the create ignores the settings it is given (kept at their defaults, e.g. trackClicks true when false was sent).", mutants: ["camp-create-settings-ignored"] },
    { what: "the create drops the schedule values it is given (the default window, days, daily limit and zone kept).", mutants: ["camp-create-schedule-ignored"] },
    { what: "The create validates `accounts` but keeps none of them: the campaign has no mailbox.", mutants: ["camp-create-accounts-dropped"] },
    { what: "The leads given are counted as submitted but none is created (leads are added by leads.create only).", mutants: ["camp-create-leads-dropped"] },
  ],
  // 4.3 MUST: POST /v1/campaigns: `leads` is an array of email address strings.
  "CAMP-CREATE-LEADS-STRINGS": [
    { what: "leads given as one address string (not an array) is taken as a list of that one address and accepted.", mutants: ["camp-in-leads-coerced"] },
    { what: "Lead elements given as { email } objects (the referenced leads.create shape) are taken as leads.", mutants: ["camp-create-leads-objects-taken"] },
  ],
  // 4.3 MUST: POST /v1/campaigns: `leads` is optional (a body without it is accepted).
  "CAMP-CREATE-LEADS-OPTIONAL": [
    { what: "campaigns.create refuses (400) a request without leads.", mutants: ["camp-create-leads-required"] },
  ],
  // 4.3 MUST: POST /v1/campaigns: `launch` is a boolean.
  "CAMP-CREATE-LAUNCH-BOOLEAN": [
    { what: "launch \"yes\" (a string) is read as true and accepted.", mutants: ["camp-in-launch-coerced"] },
    { what: "launch \"true\" (the word, a string) is read as true and accepted; \"yes\" is refused (a converter that knows only true and false).", mutants: ["camp-in-launch-true-string"] },
  ],
  // 4.3 MUST: POST /v1/campaigns: `name` must not be empty (2.5); an empty name is rejected (400).
  "CAMP-CREATE-NAME-EMPTY": [
    { what: "POST /v1/campaigns accepts name \"\".", mutants: ["camp-empty-name-accepted"] },
  ],
  // 4.3 MUST: POST /v1/campaigns answers `{ campaign: campaign, launched: boolean, leads: { submitted, created, duplicates, invalid }, launchError: string }`.
  "CAMP-CREATE-ANSWER": [
    { what: "The leads counts of the create answer have no `invalid`.", mutants: ["camp-create-leads-no-invalid"] },
    { what: "POST /v1/campaigns answers no `launched`.", mutants: ["camp-answer-create-no-launched"] },
    { what: "A create whose launch happened answers by the launch path's own shape, without `leads`.", mutants: ["camp-create-launched-answer-no-leads"] },
    { what: "A create whose launch succeeded answers { campaign, launched: true } without the leads counts (the launch path answers by itself).", mutants: ["camp-launch-ok-no-leads"] },
    { what: "A create without leads answers leads: null instead of the counts.", mutants: ["camp-create-no-leads-null"] },
  ],
  // 4.3 MUST: POST /v1/campaigns answer: `leads: { submitted, created, duplicates, invalid }`.
  "CAMP-CREATE-LEADS-COUNTS": [
    { what: "Duplicate lead emails are counted as created (duplicates always 0).", mutants: ["camp-leads-duplicates-as-created"], gap: "which addresses count as duplicates (case, within the request) is read by the SHOULD check CAMP-CREATE/echo; no MUST check holds the counts' meaning" },
    { what: "The leads counts of the create answer have no `invalid`.", mutants: ["camp-create-leads-no-invalid"] },
  ],
  // 4.3 MUST: POST /v1/campaigns answer: `launchError` says why it could not launch.
  "CAMP-CREATE-LAUNCHERROR": [
    { what: "A failed launch answers an empty launchError.", mutants: ["camp-answer-launcherror-empty"] },
  ],
  // 4.3 MUST: GET /v1/campaigns requires scope campaigns:read.
  "CAMP-LIST-SCOPE": [
    { what: "The scope check of campaigns.list is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-list"] },
    { what: "campaigns:write is accepted where campaigns:read is required.", mutants: ["scope-campaigns-write-grants-read"] },
  ],
  // 4.3 MUST: GET /v1/campaigns answers `{ data: [campaign list item], meta }`.
  "CAMP-LIST-ANSWER": [
    { what: "GET /v1/campaigns answers its items under `campaigns`.", mutants: ["camp-answer-list-items"] },
    { what: "A started campaign's list item in another shape (an active campaign listed as `running`, outside the enum).", mutants: ["camp-list-active-item-running"] },
    { what: "A filtered list (status or tag filter, its own query path) answers { data } without meta.", mutants: ["camp-list-filtered-no-meta"] },
  ],
  // 4.3 MUST: GET /v1/campaigns query: cursor.
  "CAMP-LIST-CURSOR": [
    { what: "The campaign list reads its cursor under `after`, not the declared name: a page asked with the declared cursor is the first page again.", mutants: ["camp-list-cursor-param-renamed"] },
  ],
  // 4.3 MUST: GET /v1/campaigns query: page size 1 to 100 (example 50).
  "CAMP-LIST-PAGESIZE": [
    { what: "The campaign list reads its page size under `per_page`, not the declared name: every page has the default size, 0 and 101 are taken.", mutants: ["camp-list-pagesize-param-renamed"] },
    { what: "The campaign list clamps a page size of 0 or 101 into 1..100 instead of refusing it (other lists refuse).", mutants: ["camp-list-pagesize-clamped"] },
    { what: "The campaign list holds the page size on the first page only: a page asked with a cursor holds up to 100 campaigns.", mutants: ["camp-list-page-size-first-only"] },
  ],
  // 4.3 MUST: GET /v1/campaigns query: status filter (one campaign status): only campaigns in that status are listed.
  "CAMP-LIST-STATUS-FILTER": [
    { what: "The campaign list reads its status filter under `state`, not the declared name: a list asked by the declared name is not filtered.", mutants: ["camp-list-status-param-renamed"] },
    { what: "The status filter is ignored (every campaign listed).", mutants: ["camp-status-filter-ignored"] },
    { what: "The status filter holds on the first page only: a page asked by its cursor lists every status (a keyset query that knows the position, not the filter).", mutants: ["camp-list-status-filter-dropped-on-cursor"] },
    { what: "A paused campaign is stored as active with a pause flag (its status shown as paused) and the filter reads the stored column: status=paused lists nothing, status=active lists the paused campaign.", mutants: ["camp-list-paused-filtered-as-active"] },
  ],
  // 4.3 MUST: GET /v1/campaigns query: tag ids (comma-separated; campaigns with at least one of them).
  "CAMP-LIST-TAG-FILTER": [
    { what: "GET /v1/campaigns ignores its tag filter (every campaign listed).", mutants: ["camp-tags-filter-ignored"] },
    { what: "The tag filter holds on the first page only: a page asked by its cursor lists campaigns with or without the tags.", mutants: ["camp-list-tag-filter-dropped-on-cursor"] },
  ],
  // 4.3 PROFILE: Names of the list query parameters for the cursor, the page size and the status filter: not shown (profile).
  "CAMP-LIST-PARAMS-PROFILE": [
    { what: "The campaign list reads its status filter under `state`, not the declared name: a list asked by the declared name is not filtered.", mutants: ["camp-list-status-param-renamed"] },
    { what: "The campaign list reads its page size under `per_page`, not the declared name: every page has the default size, 0 and 101 are taken.", mutants: ["camp-list-pagesize-param-renamed"] },
    { what: "The campaign list reads its cursor under `after`, not the declared name: a page asked with the declared cursor is the first page again.", mutants: ["camp-list-cursor-param-renamed"] },
  ],
  // 4.3 MUST: The tag filter on mailboxes is `tags`.
  "ACCT-LIST-TAGS-PARAM": [
    { what: "GET /v1/accounts ignores `tags` (every mailbox listed).", mutants: ["acct-tags-filter-ignored"] },
  ],
  // 4.3 MUST: PATCH /v1/campaigns/{id} requires scope campaigns:write.
  "CAMP-PATCH-SCOPE": [
    { what: "The scope check of campaigns.update is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-update"] },
    { what: "PATCH of a campaign also serves a key of exactly campaigns:lifecycle (lifecycle read as implying write).", mutants: ["scope-patch-also-campaigns-lifecycle"] },
  ],
  // 4.3 MUST: PATCH /v1/campaigns/{id}: partial: `name`, `schedule`, `settings`, `sequence`, `accounts`.
  "CAMP-PATCH-FIELDS": [
    { what: "Sections left out of a PATCH are reset to their defaults (schedule, settings, sequence, accounts).", mutants: ["camp-patch-replaces-all"] },
  ],
  // 4.3 MUST: PATCH /v1/campaigns/{id}: only supplied sections change.
  "CAMP-PATCH-PARTIAL": [
    { what: "Sections left out of a PATCH are reset to their defaults (schedule, settings, sequence, accounts).", mutants: ["camp-patch-replaces-all"] },
  ],
  // 4.3 MUST: PATCH /v1/campaigns/{id}: `accounts`, when present, replaces the existing set.
  "CAMP-PATCH-ACCOUNTS-REPLACE": [
    { what: "PATCH accounts are added to the existing senders (none removed).", mutants: ["camp-patch-accounts-merged"] },
  ],
  // 4.3 MUST: PATCH /v1/campaigns/{id}: `sequence`, when present, replaces the existing set.
  "CAMP-PATCH-SEQUENCE-REPLACE": [
    { what: "A PATCH sequence is appended to the existing steps.", mutants: ["camp-patch-sequence-appends"] },
    { what: "A PATCH with sequence [] is read as not supplied: the old steps stay.", mutants: ["camp-patch-empty-sequence-ignored"] },
  ],
  // 4.3 MUST: PATCH /v1/campaigns/{id} answers the campaign (flat object, not wrapped).
  "CAMP-PATCH-FLAT": [
    { what: "PATCH answers `{ campaign: {...} }`.", mutants: ["camp-patch-wrapped"] },
  ],
  // 4.3 MUST: PATCH /v1/campaigns/{id}: `name` must not be empty (2.5); an empty name is rejected (400).
  "CAMP-PATCH-NAME-EMPTY": [
    { what: "campaigns.update coerces name (drop-empty) and accepts the request.", mutants: ["camp-in-patch-name-empty-kept"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/start requires scope campaigns:lifecycle.
  "CAMP-START-SCOPE": [
    { what: "The scope check of campaigns.start is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-start"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/start answers `{ id, status, success }`.
  "CAMP-START-ANSWER": [
    { what: "POST .../start answers no `success`.", mutants: ["camp-answer-start-no-success"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/start: 400 when nothing to send.
  "CAMP-START-400": [
    { what: "A campaign without leads (but with a sequence) starts.", mutants: ["camp-start-without-leads"] },
    { what: "A campaign with leads but without a sequence starts.", mutants: ["camp-start-without-sequence"] },
    { what: "A campaign whose sequence was emptied by PATCH starts (a step count kept from create).", mutants: ["camp-start-steps-from-create"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/resume requires scope campaigns:lifecycle.
  "CAMP-RESUME-SCOPE": [
    { what: "Resume requires campaigns:write: a key of exactly campaigns:lifecycle is refused.", mutants: ["scope-resume-campaigns-write"] },
    { what: "The scope check of campaigns.resume is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-resume"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/resume answers `{ id, status, success }`.
  "CAMP-RESUME-ANSWER": [
    { what: "The resume answer has no `success`.", mutants: ["camp-resume-answer-no-success"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/resume: 400 when the workspace has no mailbox.
  "CAMP-RESUME-400": [
    { what: "Resume checks the campaign's own mailbox list, kept stale: a campaign that listed a mailbox deleted since resumes in a workspace with no mailbox.", mutants: ["camp-resume-stale-campaign-accounts"] },
    { what: "A paused campaign resumes in a workspace without any mailbox.", mutants: ["camp-resume-without-mailbox"] },
  ],
  // 4.3 MUST: GET /v1/campaigns/{id}/status requires scope campaigns:read.
  "CAMP-STATUS-SCOPE": [
    { what: "The campaign status view requires campaigns:lifecycle (as start and pause): a key of exactly campaigns:read is refused.", mutants: ["scope-status-campaigns-lifecycle"] },
    { what: "campaigns:write is accepted where campaigns:read is required.", mutants: ["scope-campaigns-write-grants-read"] },
    { what: "The status view also serves a key of exactly campaigns:lifecycle (status filed with start, pause and resume).", mutants: ["scope-status-also-campaigns-lifecycle"] },
  ],
  // 4.3 MUST: GET /v1/campaigns/{id}/status answers the campaign status view.
  "CAMP-STATUS-ANSWER": [
    { what: "The status view has no isWithinSchedule.", mutants: ["camp-answer-status-no-withinschedule"] },
    { what: "The status view leaves nextScheduleOpensAt out instead of answering null (in-window, not active): a framework dropping null fields.", mutants: ["camp-answer-status-nextopens-omitted"] },
    { what: "Once the campaign has left draft, the status view's metrics carry the lead's counter names (opened, clicked, replied): another code path (a live engine view) than the draft's.", mutants: ["camp-status-started-metrics-lead-names"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/test-email requires scope campaigns:lifecycle.
  "CAMP-TEST-SCOPE": [
    { what: "The test email requires emails:send (it sends mail): a key of exactly campaigns:lifecycle is refused.", mutants: ["scope-test-email-emails-send"] },
    { what: "The scope check of campaigns.testEmail is dropped: any valid key is served.", mutants: ["scope-unchecked-campaigns-testemail"] },
    { what: "The test email also serves a key of exactly emails:send (it sends mail).", mutants: ["scope-test-email-also-emails-send"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/test-email body `{ variantId, accountId, recipient, personalization, leadId }`.
  "CAMP-TEST-BODY": [
    { what: "The test-email body refuses `leadId` as an unknown field (400), so personalization lead can never be used.", mutants: ["test-email-leadid-unknown-field"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/test-email answers `{ sent: boolean, messageId: string }`.
  "CAMP-TEST-ANSWER": [
    { what: "A test email answers no messageId.", mutants: ["test-email-answer-no-messageid"] },
    { what: "A test email that failed answers 2xx { sent: false } without messageId (or null): no message, no id.", mutants: ["test-email-failure-sent-false-no-messageid"] },
  ],
  // 4.3 MUST: Test email `variantId` (uuid): the sequence step variant to render.
  "CAMP-TEST-VARIANTID": [
    { what: "The test email renders the campaign's first step, whatever variantId names.", mutants: ["test-email-variant-first"] },
  ],
  // 4.3 MUST: Test email `accountId` (uuid): a mailbox of the workspace.
  "CAMP-TEST-ACCOUNTID": [
    { what: "The test email goes from the campaign's first mailbox, whatever accountId names.", mutants: ["test-email-campaign-mailbox"] },
  ],
  // 4.3 MUST: Test email `accountId`: a mailbox within its daily limit (a mailbox at its limit is refused).
  "CAMP-TEST-ACCOUNT-DAILY-LIMIT": [
    { what: "A test email goes out from a mailbox at its daily limit.", mutants: ["test-email-no-daily-limit"] },
  ],
  // 4.3 MUST: Test email `recipient` (string): a single address.
  "CAMP-TEST-RECIPIENT-SINGLE": [
    { what: "A recipient holding several comma-separated addresses is accepted; the test email goes to the first.", mutants: ["test-email-recipient-list-first"] },
    { what: "A recipient given as an array of addresses (a binder taking a string or a list) is accepted; the test email goes to the first.", mutants: ["test-email-recipient-array-taken"] },
  ],
  // 4.3 MUST: Test email `recipient`: refused if the address is on the blacklist.
  "CAMP-TEST-BLACKLIST-ADDRESS": [
    { what: "A blacklisted address matched as the recipient spells it: the same address with its domain in capitals is sent to.", mutants: ["test-email-blacklist-address-case"] },
    { what: "The blacklist is not consulted.", mutants: ["test-email-blacklist-ignored"] },
  ],
  // 4.3 MUST: Test email `recipient`: refused if its domain is on the blacklist.
  "CAMP-TEST-BLACKLIST-DOMAIN": [
    { what: "The blacklist is not consulted.", mutants: ["test-email-blacklist-ignored"] },
    { what: "A case-sensitive domain match: the recipient's domain in other case than the listed one passes.", mutants: ["test-email-blacklist-domain-case"] },
  ],
  // 4.3 MUST: Test email `personalization`: enum `dummy`, `lead`.
  "CAMP-TEST-PERSONALIZATION-ENUM": [
    { what: "Any personalization other than `lead` (`custom`, `none`) is accepted and read as dummy.", mutants: ["test-email-personalization-any"] },
    { what: "personalization is matched case-insensitively (a lenient enum converter): DUMMY is taken.", mutants: ["test-email-personalization-case-insensitive"] },
  ],
  // 4.3 MUST: `dummy` fills placeholders.
  "CAMP-TEST-DUMMY": [
    { what: "With personalization dummy the placeholders stay as written.", mutants: ["test-email-dummy-unfilled"] },
    { what: "With personalization dummy every lead placeholder is filled with an empty string.", mutants: ["test-email-dummy-empty"] },
  ],
  // 4.3 MUST: `lead` uses the lead named by `leadId`.
  "CAMP-TEST-LEAD": [
    { what: "With personalization lead the named lead is checked, but the email is rendered with dummy values.", mutants: ["test-email-lead-as-dummy"] },
    { what: "With personalization lead the named lead is checked, but the campaign's first lead is rendered.", mutants: ["test-email-lead-first-of-campaign"] },
  ],
  // 4.3 MUST: `lead` without `leadId` is rejected; `leadId` (uuid) is required when personalization is `lead`.
  "CAMP-TEST-LEAD-REQUIRES-LEADID": [
    { what: "personalization lead without leadId is accepted and rendered with dummy values.", mutants: ["test-email-lead-without-leadid-dummy"] },
  ],
  // 4.3 MUST: `leadId` must be omitted otherwise (given with `dummy` it is rejected).
  "CAMP-TEST-LEADID-OMITTED": [
    { what: "A leadId given with personalization dummy is accepted, and its lead rendered.", mutants: ["test-email-leadid-with-dummy-kept"] },
  ],
  // 4.3 MUST: A test email goes from a real mailbox (it is delivered through that mailbox's SMTP server to the recipient).
  "CAMP-TEST-REAL-MAILBOX": [
    { what: "The test email answers { sent: true, messageId } without handing anything to the mailbox's SMTP server.", mutants: ["test-email-never-delivered"] },
  ],
  // 4.3 MUST: A test email counts toward that mailbox's daily limit.
  "CAMP-TEST-COUNTS-DAILY": [
    { what: "Test emails count for nothing toward their mailbox's daily limit (only campaign mail does).", mutants: ["test-email-not-counted-daily"] },
    { what: "a test-email counter of its own per mailbox: campaign mail does not count toward the test emails' limit, and test emails never spend the budget campaign sends use (after a test email spends the day, a campaign step still goes out).", mutants: ["test-email-own-daily-counter", "send-cap-test-emails-uncounted"] },
  ],
  // 4.3 MUST: A test email does not count toward the monthly quota (`monthly_emails` usage is unchanged).
  "CAMP-TEST-NOT-MONTHLY": [
    { what: "A test email adds to monthly_emails.", mutants: ["test-email-counts-monthly"] },
    { what: "A test email personalised for a lead (personalization lead, through the lead send path) adds to monthly_emails; a dummy one does not.", mutants: ["test-email-lead-counts-monthly"] },
  ],
  // 4.3 MUST: POST /v1/campaigns/{id}/test-email may also answer 503 `upstream_unavailable`.
  "CAMP-TEST-503": [
    { what: "An SMTP refusal answers { sent: true }.", mutants: ["test-email-sent-on-refusal"] },
    { what: "When the mailbox's SMTP server closes the connection without an answer, the test email answers 500 internal_error instead of 503 upstream_unavailable (200 { sent: false } would be correct too).", mutants: ["test-email-upstream-down-not-503"] },
  ],
  // 4.3 MUST: A campaign id of another workspace is a resource absent from the caller's workspace (part 5: the key identifies the workspace; part 7: 404): 404 on ev
  "CAMP-OTHER-WORKSPACE-404": [
    { what: "Resources of other workspaces are found by id (campaigns, leads, mailboxes, emails).", mutants: ["tenant-isolation-broken"] },
  ],
  // 2.9 MUST: The usage answer carries the limitType asked for.
  "USAGE-LIMITTYPE-ECHO": [
    { what: "limitType is answered in upper case.", mutants: ["usage-limittype-uppercase"] },
  ],
  // 2.9 MUST: usagePercentage is used / limit x 100.
  "USAGE-PERCENTAGE": [
    { what: "usagePercentage capped at 100 when used exceeds the limit (1200 of 1000 answers 100, not 120).", mutants: ["usage-percentage-capped"] },
    { what: "usagePercentage is a fraction 0..1.", mutants: ["usage-percentage-fraction"] },
  ],
  // 2.9 MUST: An unlimited limit has limit null, remaining null, isUnlimited true and usagePercentage 0.
  "USAGE-UNLIMITED": [
    { what: "Unlimited usage reports limit 0 instead of null.", mutants: ["usage-unlimited-limit-zero"] },
    { what: "Unlimited usage reports usagePercentage 100 when anything was used.", mutants: ["usage-unlimited-percentage-nonzero"] },
    { what: "Unlimited usage reports remaining 0 instead of null.", mutants: ["usage-unlimited-remaining-zero"] },
  ],
};
