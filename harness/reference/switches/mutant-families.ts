// Mutant FAMILIES: mutants generated from tables, each family switched at ONE place in the code
// (a call of its switch function below; mutants.test.ts counts those calls). A family's table
// row is the whole mutant: its id, what it changes, and (in mutants.ts style) its rule. The ids
// are stable like every mutant id: never rename a row, add new ones instead.
//
//   scopeUnchecked(mutant, op)          a route's scope check is dropped (any valid key is served)
//   renamedErrorCode(mutant, status)    an error status carries another code than part 7's table
//   missingInput(mutant, op, body)      an optional input field (or the optional body) is required
//   answerMutated(mutant, op, body)     a success answer's field dropped, retyped or renamed
//   coercedInput(mutant, op, body)      an input the spec rejects is silently coerced and accepted

/** As mutants.ts's MutantInfo (kept here so that mutants.ts imports this file, not the reverse). */
interface MutantInfo {
  readonly id: string;
  readonly rule: string;
  readonly description: string;
}
/** The instance's mutant switch, as far as the families ask it. */
type MutantSwitch = (id: FamilyMutantId) => boolean;

// ---- scope-unchecked-<op>: the routes whose scope is stated per endpoint (part 4 tables) ----
export const SCOPED_OPS = [
  'accounts.create', 'accounts.update', 'campaigns.create', 'campaigns.list', 'campaigns.start', 'leads.update', 'leads.search', 'emails.get', 'emails.delete', 'analytics.campaign', 'analytics.timeseries', 'leadSearches.list',
  'accounts.delete', 'accounts.pause', 'accounts.verification', 'accounts.oauthInit', 'campaigns.update', 'campaigns.resume', 'campaigns.testEmail',
  'leads.delete', 'leads.mutate', 'analytics.overview', 'leadSearches.get',
] as const;
type ScopedOp = (typeof SCOPED_OPS)[number];
type Dashed<S extends string> = S extends `${infer A}.${infer B}` ? `${A}-${B}` : S;
const kebab = (op: string) => op.replace(/\./g, '-').toLowerCase();
export const scopeUncheckedId = (op: string) => `scope-unchecked-${kebab(op)}`;

// ---- err-code-<status>-renamed: part 7's table, one status at a time ----
export const RENAMED_CODES = { 403: 'forbidden', 409: 'idempotency_conflict', 413: 'payload_too_large', 422: 'unprocessable_entity', 503: 'service_unavailable' } as const;

// ---- optional input made required: [id, op, where the input elements are, field (null: the body)] ----
export const REQUIRED_INPUTS = [
  ['acct-in-displayname-required', 'accounts.create', 'accounts[]', 'displayName'],
  ['acct-in-maxemailsperday-required', 'accounts.create', 'accounts[]', 'maxEmailsPerDay'],
  ['acct-in-sendinggap-required', 'accounts.create', 'accounts[]', 'sendingGapMinutes'],
  ['acct-in-slowramp-required', 'accounts.create', 'accounts[]', 'campaignSlowRamp'],
  ['acct-in-signature-required', 'accounts.create', 'accounts[]', 'signature'],
  ['acct-in-bcc-required', 'accounts.create', 'accounts[]', 'bcc'],
  ['acct-in-replyto-required', 'accounts.create', 'accounts[]', 'replyToAddress'],
  ['acct-in-autolang-required', 'accounts.create', 'accounts[]', 'automationLanguage'],
  ['acct-in-warmup-required', 'accounts.create', 'accounts[]', 'warmup'],
  ['acct-in-imapallowinvalidcert-required', 'accounts.create', 'accounts[]', 'imapAllowInvalidCert'],
  ['acct-in-tracking-required', 'accounts.create', 'accounts[]', 'tracking'],
  ['acct-oauth-init-body-required', 'accounts.oauthInit', '', null],
  ['camp-create-leads-required', 'campaigns.create', '', 'leads'],
] as const;

// ---- input the spec rejects, coerced into one it accepts: [id, op, where the objects are, field, coercion, a value to refuse] ----
type Coercion = 'to-array' | 'to-boolean' | 'boolean-words' | 'uuids-only' | 'default-one' | 'drop-empty' | 'drop-bad-domain' | 'drop-unless-lead' | 'drop-non-object';
export const COERCED_INPUTS = [
  ['lead-in-tags-coerced', 'leads.update', '', 'tags', 'to-array', 'vip'],
  ['lead-in-customfields-coerced', 'leads.update', '', 'customFields', 'drop-non-object', 'x'],
  ['camp-in-patch-name-empty-kept', 'campaigns.update', '', 'name', 'drop-empty', ''],
  ['lead-mutate-all-coerced', 'leads.mutate', '', 'all', 'to-boolean', 'yes'],
  ['lead-mutate-ids-coerced', 'leads.mutate', '', 'ids', 'uuids-only', ['not-a-uuid']],
  ['lead-mutate-tags-defaulted', 'leads.mutate', '', 'tags', 'default-one', undefined],
  ['lead-mutate-ids-defaulted', 'leads.mutate', '', 'ids', 'default-one', undefined],
  ['acct-in-tracking-coerced', 'accounts.create', 'accounts[]', 'tracking', 'drop-bad-domain', { domainId: 'not-a-uuid' }],
  ['camp-in-leads-coerced', 'campaigns.create', '', 'leads', 'to-array', 'lead@example.test'],
  ['camp-in-launch-coerced', 'campaigns.create', '', 'launch', 'to-boolean', 'yes'],
  // A binder that reads only the words "true" and "false" (a query-string style converter), refusing "yes".
  ['camp-in-launch-true-string', 'campaigns.create', '', 'launch', 'boolean-words', 'true'],
] as const satisfies readonly (readonly [string, string, string, string, Coercion, unknown])[];

// ---- answers: [id, where (op -> path of the object), field path in it, change, description] ----
type Change = 'drop' | 'omit-null' | 'string' | 'json' | 'epoch' | 'date-only' | 'prefix' | 'not' | 'unbrace' | 'join' | 'id-objects' | 'relative-url' | `rename:${string}` | `wrap:${string}` | `set:${string}` | `swap:${string}`;
type Where = Readonly<Record<string, string>>;
const MAILBOX: Where = { 'accounts.create': 'accounts[]', 'accounts.get': '', 'accounts.list': 'data[]', 'accounts.update': '', 'accounts.pause': '', 'accounts.resume': '' };
const LEAD: Where = { 'leads.list': 'data[]', 'leads.update': '' };
const CAMPAIGN: Where = { 'campaigns.create': 'campaign', 'campaigns.update': '' };
const op = (o: string, path = ''): Where => ({ [o]: path });

export const ANSWERS = [
  // mailboxes (2.1, 2.3, 2.4, 4.2)
  ['acct-answer-id-not-uuid', MAILBOX, 'id', 'prefix', 'Mailbox ids are answered as `acct_<uuid>`.'],
  ['acct-answer-statusmessage-omitted', MAILBOX, 'statusMessage', 'omit-null', 'A healthy mailbox omits `statusMessage` instead of answering null.'],
  ['acct-answer-verification-no-overall', MAILBOX, 'verification.overallStatus', 'drop', "The mailbox's verification has no overallStatus."],
  ['acct-answer-verification-no-imap', MAILBOX, 'verification.imap', 'drop', "The mailbox's verification has no imap."],
  ['acct-answer-warmup-maxperday-string', MAILBOX, 'warmup.maxPerDay', 'string', 'warmup.maxPerDay is a string.'],
  ['acct-answer-warmup-phase-number', MAILBOX, 'warmup.phase', 'set:1', 'warmup.phase is a number.'],
  ['acct-answer-imap-null', MAILBOX, 'imap', 'set:null', 'A mailbox with IMAP configured answers imap null.'],
  ['acct-answer-imap-no-username', MAILBOX, 'imap.username', 'drop', "The mailbox's imap object carries no username."],
  ['acct-answer-statusmessage-code-string', MAILBOX, 'statusMessage.responseCode', 'string', 'statusMessage.responseCode is the SMTP reply code as a string ("535").'],
  ['acct-answer-statusmessage-occurredat-epoch', MAILBOX, 'statusMessage.occurredAt', 'epoch', 'statusMessage.occurredAt is epoch milliseconds.'],
  ['acct-answer-statusmessage-text', MAILBOX, 'statusMessage', 'set:"535 5.7.8 Authentication failed"', "A mailbox with a provider failure answers statusMessage as the provider's text (a string), not the object; healthy ones null."],
  ['acct-answer-status-unlisted', MAILBOX, 'status', 'swap:inactive=disabled', 'An inactive mailbox says status `disabled`.'],
  ['acct-answer-new-active', op('accounts.create', 'accounts[]'), 'status', 'swap:inactive=active', 'A newly connected mailbox is answered `active` before any verification.'],
  ['acct-answer-delete-success', op('accounts.delete'), 'deleted', 'rename:success', 'DELETE /v1/accounts/{id} answers `{ id, success: true }`.'],
  ['acct-answer-create-mailboxes', op('accounts.create'), 'accounts', 'rename:mailboxes', 'POST /v1/accounts answers the mailboxes under `mailboxes`.'],
  ['acct-answer-create-no-errors', op('accounts.create'), 'errors', 'drop', 'POST /v1/accounts answers no `errors`.'],
  ['acct-answer-verif-no-overall', op('accounts.verification'), 'overallStatus', 'drop', 'The verification endpoint answers no overallStatus.'],
  ['acct-answer-verif-no-dns', op('accounts.verification'), 'dns', 'drop', 'The verification endpoint answers no dns.'],
  ['acct-answer-verif-no-lastverifiedat', op('accounts.verification'), 'lastVerifiedAt', 'drop', 'The verification endpoint answers no lastVerifiedAt.'],
  ['acct-answer-verif-no-smtp', op('accounts.verification'), 'smtp', 'drop', 'The verification endpoint answers no smtp.'],
  ['acct-answer-verif-no-imap', op('accounts.verification'), 'imap', 'drop', 'The verification endpoint answers no imap.'],
  ['acct-answer-oauth-no-expiry', op('accounts.oauthInit'), 'expiresInSeconds', 'drop', 'OAuth init answers no expiresInSeconds.'],
  ['acct-answer-oauth-relative-url', op('accounts.oauthInit'), 'authorizationUrl', 'relative-url', 'OAuth init answers a relative authorizationUrl.'],
  ['acct-answer-pause-no-email', op('accounts.pause'), 'emailAddress', 'drop', 'POST /v1/accounts/{id}/pause answers the mailbox without emailAddress.'],
  ['acct-answer-pause-still-active', op('accounts.pause'), 'status', 'swap:inactive=active', 'POST /v1/accounts/{id}/pause answers the mailbox still active (it turns inactive only afterwards).'],
  // campaigns (2.5, 3.1, 4.3)
  ['camp-answer-id-not-uuid', CAMPAIGN, 'id', 'prefix', 'Campaign ids are answered as `camp_<uuid>`.'],
  ['camp-answer-createdat-snake-case', CAMPAIGN, 'createdAt', 'rename:created_at', 'A campaign answers `created_at` (a snake_case column name) instead of `createdAt`.'],
  ['camp-answer-patch-createdat-epoch', op('campaigns.update'), 'createdAt', 'epoch', 'The PATCH answer (the campaign read back from the store) carries createdAt as epoch milliseconds; the create answer is right.'],
  ['camp-answer-name-object', CAMPAIGN, 'name', 'wrap:text', 'A campaign name is answered as `{ text }`.'],
  ['camp-answer-created-scheduled', op('campaigns.create', 'campaign'), 'status', 'swap:draft=scheduled', 'A campaign created without launch is answered `scheduled`.'],
  ['camp-answer-status-unlisted', CAMPAIGN, 'status', 'swap:draft=new', 'A draft campaign says status `new`.'],
  ['camp-answer-sendingdays-string', CAMPAIGN, 'schedule.sendingDays', 'join', 'schedule.sendingDays is a comma-separated string.'],
  ['camp-answer-trackopens-string', CAMPAIGN, 'settings.trackOpens', 'string', 'settings.trackOpens is a string.'],
  ['camp-answer-delaydays-string', CAMPAIGN, 'sequence[].delayDays', 'string', 'A step delayDays is a string.'],
  ['camp-answer-merge-dropped', CAMPAIGN, 'sequence[].subject', 'unbrace', 'Merge variables are stripped from stored subjects.'],
  ['camp-answer-accounts-objects', CAMPAIGN, 'accounts', 'id-objects', 'Campaign accounts are `{ id }` objects.'],
  ['camp-answer-create-no-launched', op('campaigns.create'), 'launched', 'drop', 'POST /v1/campaigns answers no `launched`.'],
  ['camp-answer-launcherror-empty', op('campaigns.create'), 'launchError', 'set:""', 'A failed launch answers an empty launchError.'],
  ['camp-answer-list-items', op('campaigns.list'), 'data', 'rename:campaigns', 'GET /v1/campaigns answers its items under `campaigns`.'],
  ['camp-answer-listitem-no-leadscount', op('campaigns.list', 'data[]'), 'leadsCount', 'drop', 'Campaign list items carry no leadsCount.'],
  ['camp-answer-listitem-status-running', op('campaigns.list', 'data[]'), 'status', 'swap:active=running', 'Campaign list items say `running` for an active campaign (a display name off the enum); drafts stay `draft`.'],
  ['camp-answer-patch-tags-json', op('campaigns.update'), 'tags', 'json', 'The PATCH answer (the flat campaign) carries tags as a JSON-encoded string (the text column as stored); list items are right.'],
  ['camp-answer-start-no-success', op('campaigns.start'), 'success', 'drop', 'POST .../start answers no `success`.'],
  ['camp-answer-start-status-other', op('campaigns.start'), 'status', 'swap:active=scheduled,scheduled=active', 'POST .../start reports another status than the campaign then has.'],
  ['camp-answer-status-no-withinschedule', op('campaigns.status'), 'isWithinSchedule', 'drop', 'The status view has no isWithinSchedule.'],
  ['camp-answer-nextopens-omitted', op('campaigns.status'), 'nextScheduleOpensAt', 'omit-null', 'The status view omits nextScheduleOpensAt instead of answering null.'],
  ['camp-answer-withinschedule-inverted', op('campaigns.status'), 'isWithinSchedule', 'not', 'isWithinSchedule says the opposite of the window.'],
  ['camp-answer-status-nextopens-omitted', op('campaigns.status'), 'nextScheduleOpensAt', 'omit-null', 'The status view leaves nextScheduleOpensAt out instead of answering null (in-window, not active).'],
  ['camp-answer-status-view-running', op('campaigns.status'), 'status', 'swap:active=running,paused=on_hold', 'The status view names an active campaign `running` and a paused one `on_hold` (display names off the enum); drafts stay `draft`.'],
  ['camp-answer-status-nextopens-epoch', op('campaigns.status'), 'nextScheduleOpensAt', 'epoch', 'The status view answers nextScheduleOpensAt, where it is set (an active campaign outside its window), as epoch milliseconds.'],
  // leads (2.6, 4.4)
  ['lead-answer-email-object', LEAD, 'email', 'wrap:address', 'A lead email is answered as `{ address }`.'],
  ['lead-answer-status-object', LEAD, 'status', 'wrap:value', 'A lead status is answered as `{ value }`.'],
  ['lead-answer-id-not-uuid', LEAD, 'id', 'prefix', 'Lead ids are answered with a type prefix (`x_<uuid>`).'],
  ['lead-answer-companyname-object', LEAD, 'companyName', 'wrap:name', 'A lead companyName is answered as a company object `{ name }`.'],
  ['lead-answer-companyname-snake-case', LEAD, 'companyName', 'rename:company_name', 'Leads answer `company_name` (a snake_case column name) instead of `companyName`.'],
  ['lead-answer-lastcontactedat-epoch', LEAD, 'lastContactedAt', 'epoch', 'A contacted lead answers lastContactedAt as epoch milliseconds.'],
  ['lead-answer-lastrepliedat-epoch', LEAD, 'lastRepliedAt', 'epoch', 'A lead that replied answers lastRepliedAt as epoch milliseconds.'],
  ['lead-answer-tags-string', LEAD, 'tags', 'join', 'Lead tags are answered as one comma-separated string.'],
  ['lead-answer-customfields-json', LEAD, 'customFields', 'json', 'Lead customFields are answered as a JSON-encoded string (a text column as stored).'],
  ['lead-answer-metrics-campaign-names', LEAD, 'metrics.opened', 'rename:opens', 'Lead metrics use the campaign metrics names (`opens` for `opened`).'],
  ['lead-answer-createdat-epoch', LEAD, 'createdAt', 'epoch', 'A lead createdAt is epoch milliseconds.'],
  ['lead-answer-progress-strings', LEAD, 'sequenceProgress.totalSteps', 'string', 'Lead sequenceProgress.totalSteps is a string.'],
  // The listing's own serializer (the PATCH answer right):
  ['lead-answer-list-email-object', op('leads.list', 'data[]'), 'email', 'wrap:address', 'The lead listing answers email as `{ address }`; the PATCH answer is right.'],
  ['lead-answer-list-status-object', op('leads.list', 'data[]'), 'status', 'wrap:value', 'The lead listing answers status as `{ value }`; the PATCH answer is right.'],
  ['lead-answer-list-metrics-strings', op('leads.list', 'data[]'), 'metrics.sent', 'string', 'The lead listing answers metrics.sent as a string (a COUNT as text); the PATCH answer is right.'],
  ['lead-answer-list-companyname-object', op('leads.list', 'data[]'), 'companyName', 'wrap:name', 'The lead listing answers companyName as a company object `{ name }` (a joined table); the PATCH answer is right.'],
  ['lead-answer-list-tags-objects', op('leads.list', 'data[]'), 'tags', 'id-objects', 'The lead listing answers tags as objects (a join on a tags table); the PATCH answer is right.'],
  ['lead-answer-mutate-no-affected', op('leads.mutate'), 'affected', 'drop', 'Mutate answers no `affected`.'],
  ['lead-answer-patch-wrapped', op('leads.update'), '', 'wrap:lead', 'PATCH of a lead answers it wrapped as `{ lead: {...} }`.'],
  ['lead-answer-search-results', op('leads.search'), 'data', 'rename:results', 'Lead search answers its hits under `results`.'],
  // lead searches (2.8, 4.7)
  ['lf-answer-id-not-uuid', op('leadSearches.get'), 'id', 'prefix', 'A lead search id is answered as `ls_<uuid>`.'],
  ['lf-answer-query-object', op('leadSearches.get'), 'query', 'wrap:text', 'A lead search query is answered as `{ text }`.'],
  ['lf-answer-no-progress', op('leadSearches.get'), 'progress', 'drop', 'GET /v1/lead-searches/{id} answers no progress.'],
  ['lf-answer-searchmode-person', op('leadSearches.get'), 'searchMode', 'swap:people=person', 'GET /v1/lead-searches/{id} answers a people search as `person` (companies stay right).'],
  ['lf-answer-status-stopped-cancelled', op('leadSearches.get'), 'status', 'swap:stopped=cancelled', 'GET /v1/lead-searches/{id} answers a stopped search as `cancelled` (the running phases and completed stay right).'],
  ['lf-answer-errormessage-omitted', op('leadSearches.get'), 'errorMessage', 'omit-null', 'A lead search without an error leaves errorMessage out instead of answering null.'],
  ['lf-answer-list-items', op('leadSearches.list'), 'data', 'rename:searches', 'GET /v1/lead-searches answers its items under `searches`.'],
  ['lf-answer-listitem-no-completedat', op('leadSearches.list', 'data[]'), 'completedAt', 'drop', 'Lead search list items carry no completedAt.'],
  ['lf-answer-listitem-completedat-null', op('leadSearches.list', 'data[]'), 'completedAt', 'set:null', 'Lead search list items answer completedAt null whatever the search\'s state (the list query does not select it); GET is right.'],
  ['lf-answer-discoveryfinished-snake-case', op('leadSearches.get'), 'discoveryFinished', 'rename:discovery_finished', 'A lead search (a service of its own) answers `discovery_finished` (a snake_case column name) instead of `discoveryFinished`.'],
  // emails (2.7, 4.5)
  ['email-answer-id-not-uuid', op('emails.get'), 'id', 'prefix', 'GET /v1/emails/{id} answers the id as `em_<uuid>`.'],
  ['email-answer-no-body', op('emails.get'), 'body', 'drop', 'GET /v1/emails/{id} answers no body.'],
  ['email-answer-threadid-object', op('emails.get'), 'threadId', 'wrap:value', 'GET /v1/emails/{id} answers threadId as `{ value }`.'],
  // analytics (2.10, 4.6)
  ['anlt-answer-no-campaignid', op('analytics.campaign'), 'campaignId', 'drop', 'Campaign analytics answers no campaignId.'],
  ['anlt-answer-period-epoch', op('analytics.campaign'), 'period.start', 'epoch', 'period.start is epoch milliseconds.'],
  ['anlt-answer-clamped-string', op('analytics.campaign'), 'period.clamped', 'string', 'period.clamped is a string.'],
  ['anlt-answer-retention-string', op('analytics.campaign'), 'period.retentionDays', 'string', 'period.retentionDays is a string.'],
  ['anlt-answer-totals-sent-string', op('analytics.campaign'), 'totals.sent', 'string', 'totals.sent is a string.'],
  ['anlt-answer-opens-number', op('analytics.campaign'), 'totals.opens', 'set:0', 'totals.opens is a number, not { total, uniqueLeads }.'],
  ['anlt-answer-rates-strings', op('analytics.campaign'), 'totals.rates.open', 'string', 'totals.rates.open is a string.'],
  ['anlt-answer-bysmtp-no-accountid', op('analytics.campaign'), 'bySmtp[].accountId', 'drop', 'bySmtp rows carry no accountId.'],
  ['anlt-answer-bysmtp-totals-no-rates', op('analytics.campaign'), 'bySmtp[].totals.rates', 'drop', 'bySmtp rows carry totals without rates.'],
  ['anlt-answer-bysequence-no-variant', op('analytics.campaign'), 'bySequence[].variant', 'drop', 'bySequence rows carry no variant.'],
  ['anlt-answer-bounce-no-sender', op('analytics.campaign'), 'bounceBreakdown.senderBounces', 'drop', 'bounceBreakdown carries no senderBounces.'],
  ['anlt-answer-bounce-no-bycategory', op('analytics.campaign'), 'bounceBreakdown.byCategory', 'drop', 'bounceBreakdown carries no byCategory.'],
  ['anlt-answer-ts-no-interval', op('analytics.timeseries'), 'interval', 'drop', 'The time series does not state its interval.'],
  ['anlt-answer-ts-period-date-only', op('analytics.timeseries'), 'period.start', 'date-only', 'The time series answers period.start as a date ("2026-12-01"): its windows are whole days.'],
  ['anlt-answer-ts-retention-string', op('analytics.timeseries'), 'period.retentionDays', 'string', 'The time series answers period.retentionDays as a string.'],
  ['anlt-answer-ov-period-end-null', op('analytics.overview'), 'period.end', 'set:null', 'The overview answers period.end null.'],
  ['anlt-answer-ov-retention-null', op('analytics.overview'), 'period.retentionDays', 'set:null', 'The overview answers period.retentionDays null.'],
  ['anlt-answer-ts-clamped-missing', op('analytics.timeseries'), 'period.clamped', 'drop', 'The time series answers a period without clamped.'],
  ['anlt-answer-ov-clamped-null', op('analytics.overview'), 'period.clamped', 'set:null', 'The overview answers period.clamped null.'],
  ['anlt-answer-ov-clamped-string', op('analytics.overview'), 'period.clamped', 'string', 'The overview answers period.clamped as a string ("false").'],
  ['anlt-answer-point-no-bounces', op('analytics.timeseries'), 'data[].bounces', 'drop', 'Time-series points carry no bounces.'],
  ['anlt-answer-ov-opens-number', op('analytics.overview'), 'totals.opens', 'set:0', "The overview's totals.opens is a number, not { total, uniqueLeads }."],
  ['anlt-answer-ov-rates-no-conversion', op('analytics.overview'), 'totals.rates.conversion', 'drop', "The overview's totals.rates carry no conversion (the roll-up's own serializer); the campaign's are whole."],
  ['anlt-answer-ov-conversionvalue-string', op('analytics.overview'), 'totals.conversionValue', 'string', "The overview's totals.conversionValue is a string (a SQL SUM of a decimal column, as node-postgres answers it); the campaign's is a number."],
  ['anlt-answer-ov-no-sendingaccounts', op('analytics.overview'), 'sendingAccounts', 'drop', 'The overview answers no sendingAccounts.'],
  ['anlt-answer-topcampaigns-no-openrate', op('analytics.overview'), 'topCampaigns[].openRate', 'drop', 'topCampaigns rows carry no openRate.'],
  // workspace, usage (2.9, 4.7)
  ['ws-answer-timezone-offset', op('workspace.get'), 'timezone', 'set:"+01:00"', 'The workspace timezone is a UTC offset, not an IANA name.'],
  ['usage-answer-no-percentage', op('usage.get'), 'usagePercentage', 'drop', 'Usage answers no usagePercentage.'],
  // test email (4.3)
  ['test-email-answer-no-messageid', op('campaigns.testEmail'), 'messageId', 'drop', 'A test email answers no messageId.'],
] as const satisfies readonly (readonly [string, Where, string, Change, string])[];

export type FamilyMutantId =
  | `scope-unchecked-${Lowercase<Dashed<ScopedOp>>}`
  | `err-code-${keyof typeof RENAMED_CODES}-renamed`
  | (typeof REQUIRED_INPUTS)[number][0]
  | (typeof ANSWERS)[number][0]
  | (typeof COERCED_INPUTS)[number][0];

/** The families: each one's switch function (called at exactly one place) and its mutants. */
export const FAMILIES: readonly { switchName: string; mutants: readonly MutantInfo[] }[] = [
  {
    switchName: 'scopeUnchecked',
    mutants: SCOPED_OPS.map((o) => ({ id: scopeUncheckedId(o), rule: `4 / 5 The route ${o} requires its granular scope (part 4 table); a key lacking it (and any covering wildcard) gets 403.`, description: `The scope check of ${o} is dropped: any valid key is served.` })),
  },
  {
    switchName: 'renamedErrorCode',
    mutants: Object.entries(RENAMED_CODES).map(([s, code]) => ({ id: `err-code-${s}-renamed`, rule: `7 The table of statuses gives each status its code (${s}).`, description: `Every ${s} error carries code \`${code}\`.` })),
  },
  {
    switchName: 'missingInput',
    mutants: REQUIRED_INPUTS.map(([id, o, , f]) => ({ id, rule: `2.2 / 4 ${o}: ${f ?? 'the body'} is not required.`, description: `${o} refuses (400) a request without ${f ?? 'a body'}.` })),
  },
  {
    switchName: 'coercedInput',
    mutants: COERCED_INPUTS.map(([id, o, , f, c, bad]) => ({ id, rule: `2 / 4 ${o}: the spec rejects ${f} = ${JSON.stringify(bad) ?? 'absent'} (400).`, description: `${o} coerces ${f} (${c}) and accepts the request.` })),
  },
  {
    switchName: 'answerMutated',
    mutants: ANSWERS.map(([id, where, field, , description]) => ({ id, rule: `2 / 4 The answer of ${Object.keys(where).join(', ')} carries \`${field || 'the object'}\` as the spec shows it.`, description })),
  },
];

export const FAMILY_MUTANTS: readonly MutantInfo[] = FAMILIES.flatMap((f) => f.mutants);

// ---- the switches ----

/** Is the scope check of `op` dropped? */
export function scopeUnchecked(mutant: MutantSwitch, o: string): boolean {
  return (SCOPED_OPS as readonly string[]).includes(o) && mutant(scopeUncheckedId(o) as FamilyMutantId);
}

/** The code an error of `status` carries (renamed by its mutant). */
export function renamedErrorCode(mutant: MutantSwitch, status: number, code: string): string {
  const renamed = (RENAMED_CODES as Record<number, string>)[status];
  return renamed && mutant(`err-code-${status}-renamed` as FamilyMutantId) ? renamed : code;
}

/** The field an input of `op` lacks that a mutant requires, or null. */
export function missingInput(mutant: MutantSwitch, o: string, body: unknown): string | null {
  for (const [id, rowOp, where, field] of REQUIRED_INPUTS) {
    if (rowOp !== o || !mutant(id)) continue;
    if (field === null) return body === undefined ? 'body: required' : null;
    const missing = objectsAt(body, where).some((x) => !(field in x));
    if (missing) return `${where ? `${where}.` : ''}${field}: required`;
  }
  return null;
}

/** A uuid naming no lead: what a coerced id list holds instead of what it could not read. */
const NOBODY = '00000000-0000-4000-8000-000000000000';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The body of `op`, with what the coercion mutants that are on turn into an accepted input. */
export function coercedInput(mutant: MutantSwitch, o: string, body: unknown): unknown {
  let out = body;
  for (const [id, rowOp, where, field, c] of COERCED_INPUTS) {
    if (rowOp !== o || !mutant(id)) continue;
    out = structuredClone(out);
    for (const x of objectsAt(out, where)) {
      const v = x[field];
      if (c === 'default-one') { if (v === undefined && x.operation !== 'delete') x[field] = [field === 'ids' ? NOBODY : 'untagged']; }
      else if (v === undefined) continue;
      else if (c === 'to-array') { if (!Array.isArray(v)) x[field] = [String(v)]; }
      else if (c === 'to-boolean') { if (typeof v !== 'boolean') x[field] = Boolean(v); }
      else if (c === 'boolean-words') { if (v === 'true' || v === 'false') x[field] = v === 'true'; }
      else if (c === 'uuids-only') { if (Array.isArray(v)) x[field] = v.map((e) => (typeof e === 'string' && UUID_RE.test(e) ? e : NOBODY)); }
      else if (c === 'drop-empty') { if (v === '') delete x[field]; }
      else if (c === 'drop-bad-domain') { if (!isObj(v) || typeof v.domainId !== 'string' || !UUID_RE.test(v.domainId)) delete x[field]; }
      else if (c === 'drop-non-object') { if (!isObj(v)) delete x[field]; }
      else if (c === 'drop-unless-lead') { if (x.personalization !== 'lead') delete x[field]; }
    }
  }
  return out;
}

/** A success answer of `op`, changed by the answer mutants that are on. */
export function answerMutated(mutant: MutantSwitch, o: string, body: unknown): unknown {
  let out = body;
  for (const [id, where, field, change] of ANSWERS) {
    const base = where[o];
    if (base === undefined || !mutant(id)) continue;
    out = structuredClone(out);
    const holder = { root: out };
    const path = ['root', ...(base ? base.split('.') : []), ...(field ? field.split('.') : [])];
    for (const [parent, key] of slots(holder, path)) applyChange(parent, key, change);
    out = holder.root;
  }
  return out;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The objects at `where` ('' the value itself, `a[]` each element of array a, `a.b` nested). */
function objectsAt(v: unknown, where: string): Obj[] {
  let vs: unknown[] = [v];
  for (const seg of where ? where.split('.') : []) {
    const key = seg.replace(/\[\]$/, '');
    vs = vs.flatMap((x) => (isObj(x) ? (seg.endsWith('[]') ? (Array.isArray(x[key]) ? (x[key] as unknown[]) : []) : [x[key]]) : []));
  }
  return vs.filter(isObj);
}

/** Every (parent, key) that `path` names; a segment `x[]` walks each element of array x. */
function slots(holder: Obj, path: readonly string[]): [Obj, string][] {
  let at: [Obj, string][] = [];
  let parents: Obj[] = [holder];
  for (const [i, seg] of path.entries()) {
    const each = seg.endsWith('[]');
    const key = each ? seg.slice(0, -2) : seg;
    if (i === path.length - 1 && !each) {
      at = parents.filter((p) => key in p).map((p) => [p, key]);
      break;
    }
    parents = parents.flatMap((p) => {
      const v = p[key];
      if (each) return Array.isArray(v) ? v.filter(isObj) : [];
      return isObj(v) ? [v] : [];
    });
    if (i === path.length - 1) at = [];
  }
  return at;
}

function applyChange(p: Obj, k: string, change: Change): void {
  const v = p[k];
  const [kind, arg = ''] = change.split(/:(.*)/s) as [string, string?];
  if (kind === 'drop') delete p[k];
  else if (kind === 'omit-null') { if (v === null) delete p[k]; }
  else if (kind === 'string') { if (v !== null && v !== undefined) p[k] = String(v); }
  else if (kind === 'json') { if (v !== undefined) p[k] = JSON.stringify(v); }
  else if (kind === 'epoch') { if (typeof v === 'string') p[k] = Date.parse(v); }
  else if (kind === 'date-only') { if (typeof v === 'string') p[k] = v.slice(0, 10); }
  else if (kind === 'prefix') { if (typeof v === 'string') p[k] = `x_${v}`; }
  else if (kind === 'not') { if (typeof v === 'boolean') p[k] = !v; }
  else if (kind === 'unbrace') { if (typeof v === 'string') p[k] = v.replace(/\{\{[^}]*\}\}/g, ''); }
  else if (kind === 'join') { if (Array.isArray(v)) p[k] = v.join(','); }
  else if (kind === 'id-objects') { if (Array.isArray(v)) p[k] = v.map((id) => ({ id })); }
  else if (kind === 'relative-url') { if (typeof v === 'string') p[k] = v.replace(/^[a-z]+:\/\/[^/]*/i, ''); }
  else if (kind === 'rename') { delete p[k]; p[arg] = v; }
  else if (kind === 'wrap') p[k] = { [arg]: v };
  else if (kind === 'set') { if (v !== null && v !== undefined) p[k] = JSON.parse(arg); }
  else if (kind === 'swap') {
    const pairs = Object.fromEntries(arg.split(',').map((x) => x.split('=')));
    if (typeof v === 'string' && pairs[v] !== undefined) p[k] = pairs[v];
  }
}
