import type { Clause } from './types.ts';

// Part 2 "Resources and their fields": conventions (RES-), mailbox (ACCT-), mailbox create input
// (ACCT-IN-), warmup (WARMUP-), verification (VERIF-), campaign (CAMP-), lead (LEAD-, LEADHIT-),
// email (EMAIL-), lead search (LF-), workspace and usage (WS-, USAGE-), analytics (ANLT-).
// Field-shape clauses are proved by the zod schemas in ../schemas/; behaviour clauses by flows.
const M = (id: string, section: string, text: string): Clause => ({ id, section, text, level: 'MUST' });
const S = (id: string, section: string, text: string): Clause => ({ id, section, text, level: 'SHOULD' });
const P = (id: string, section: string, text: string): Clause => ({ id, section, text, level: 'PROFILE' });

const CONVENTIONS: Clause[] = [
  M('RES-ID-UUID', '2', 'Conventions: ids are UUID strings.'),
  M('RES-TS-ISO8601', '2', 'Conventions: timestamps are ISO 8601 strings.'),
  M('RES-TS-MILLIS', '2', 'Timestamps are ISO 8601 strings (some carry milliseconds): both forms, with and without milliseconds, are valid timestamps.'),
  M('RES-CAMELCASE', '2', 'Conventions: field names are camelCase.'),
  M('RES-NULL-WHERE-STATED', '2', '`null` is used for an absent optional value where stated (a field stated as "or null" carries null, not omission, when absent).'),
  S('RES-NULL-ONLY-WHERE-STATED', '2', '`null` is used for an absent optional value where stated (reading: a field whose nullability is not stated is never null; when it has no value it is omitted).'),
  M('RES-TAG-ID', '2.1', 'Tag object: `id` (uuid).'),
  M('RES-TAG-NAME', '2.1', 'Tag object: `name` (string).'),
  M('RES-TAG-COLOR', '2.1', 'Tag object: `color` (string, hex color).'),
];

const MAILBOX: Clause[] = [
  M('ACCT-ID-UUID', '2.1', 'Mailbox `id`: uuid string.'),
  M('ACCT-EMAILADDRESS-STRING', '2.1', 'Mailbox `emailAddress`: string.'),
  M('ACCT-EMAILADDRESS-IMMUTABLE', '2.1', 'Mailbox `emailAddress`: cannot be changed after creation.'),
  M('ACCT-NAMES-STRING', '2.1', 'Mailbox `firstName`, `lastName`: string.'),
  M('ACCT-DISPLAYNAME-STRING', '2.1', 'Mailbox `displayName`: string, the sender display name.'),
  M('ACCT-DISPLAYNAME-SENDER', '2.1', '`displayName` is the sender display name: the From header of the mailbox\'s outgoing emails carries it, as the name of the mailbox\'s address.'),
  M('ACCT-PROVIDER-ENUM', '2.1', 'Mailbox `provider`: enum `custom`, `google`, `microsoft`.'),
  S('ACCT-PROVIDER-CUSTOM', '2.1', '`custom` is any SMTP/IMAP mailbox (reading: a mailbox connected by POST /v1/accounts has provider `custom`; one connected by OAuth has its OAuth provider).'),
  M('ACCT-STATUS-ENUM', '2.1', 'Mailbox `status`: enum `active`, `inactive`, `checking`, `revoked`, `failed` (see part 3).'),
  M('ACCT-MAXEMAILSPERDAY-NUMBER', '2.1', 'Mailbox `maxEmailsPerDay`: number.'),
  M('ACCT-MAXEMAILSPERDAY-CAP', '2.1', '`maxEmailsPerDay` is the daily campaign send cap: a mailbox sends no more campaign emails in a day.'),
  M('ACCT-MAXEMAILSPERDAY-WARMUP-SEPARATE', '2.1', '`maxEmailsPerDay`: warmup has its own budget (warmup emails do not count toward the campaign cap).'),
  M('ACCT-SENDINGGAP-NUMBER', '2.1', 'Mailbox `sendingGapMinutes`: number.'),
  M('ACCT-SENDINGGAP-ENFORCED', '2.1', '`sendingGapMinutes`: minimum minutes between two sends from this mailbox, across all campaigns.'),
  M('ACCT-SLOWRAMP-BOOLEAN', '2.1', 'Mailbox `campaignSlowRamp`: boolean.'),
  S('ACCT-SLOWRAMP-BEHAVIOUR', '2.1', '`campaignSlowRamp`: ramp campaign volume gradually when the mailbox joins a campaign.'),
  M('ACCT-REPLYTO-STRING', '2.1', 'Mailbox `replyToAddress`: string.'),
  M('ACCT-REPLYTO-BEHAVIOUR', '2.1', '`replyToAddress`: where replies go when different from the mailbox address (outgoing emails carry it as Reply-To).'),
  M('ACCT-SIGNATURE-STRING', '2.1', 'Mailbox `signature`: string.'),
  M('ACCT-SIGNATURE-APPENDED', '2.1', '`signature`: HTML signature appended to outgoing emails.'),
  M('ACCT-BCC-STRING', '2.1', 'Mailbox `bcc`: string.'),
  M('ACCT-BCC-BEHAVIOUR', '2.1', '`bcc`: address receiving a blind copy of every email from this mailbox.'),
  M('ACCT-AUTOLANG-ENUM', '2.1', '`automationLanguage` allowed values: en, ar, bn, zh, cs, da, nl, fi, fr, de, el, he, hi, hu, id, it, ja, ko, ms, no, pl, pt, ro, ru, es, sv, th, tr, uk, vi (ISO 639-1).'),
  S('ACCT-AUTOLANG-BEHAVIOUR', '2.1', '`automationLanguage`: language of auto-generated content.'),
  M('ACCT-WARMUP-OBJECT', '2.1', 'Mailbox `warmup`: object (see 2.3).'),
  M('ACCT-TRACKING-OBJECT', '2.1', 'Mailbox `tracking`: object with `domainId` (uuid string).'),
  M('ACCT-STATUSMESSAGE-NULLABLE', '2.1', 'Mailbox `statusMessage`: object or null (last provider failure).'),
  M('ACCT-STATUSMESSAGE-NULL-HEALTHY', '2.1', '`statusMessage` is null when healthy.'),
  M('ACCT-STATUSMESSAGE-NULL-SERVICE-SIDE', '2.1', '`statusMessage` is also null when the failure was on the service side.'),
  M('ACCT-STATUSMESSAGE-FIELDS', '2.1', '`statusMessage` fields: `code` (string), `command` (string), `responseCode` (number), `response` (string), `message` (string), `occurredAt` (timestamp).'),
  M('ACCT-TAGS-ARRAY', '2.1', 'Mailbox `tags`: array of tag.'),
  M('ACCT-TAGS-READONLY', '2.1', '`tags` are read-only here; created and deleted in the dashboard (a PATCH cannot change them).'),
  M('ACCT-LIST-TAG-FILTER', '2.1', 'The mailbox list can be filtered by tag ids.'),
  M('ACCT-HEALTHSCORE-RANGE', '2.1', 'Mailbox `healthScore`: number 0 to 100 (deliverability health).'),
  M('ACCT-SMTP-OBJECT', '2.1', 'Mailbox `smtp`: object with `host`, `port`, `username`.'),
  M('ACCT-PASSWORDS-NEVER-RETURNED', '2.1', 'Mailbox `smtp`: passwords are never returned.'),
  M('ACCT-IMAP-NULLABLE', '2.1', 'Mailbox `imap`: object (`host`, `port`, `username`) or null.'),
  M('ACCT-IMAP-NULL-NONE', '2.1', '`imap` is null when no IMAP is configured (and an object when IMAP is configured).'),
  M('ACCT-VERIFICATION-OBJECT', '2.1', 'Mailbox `verification`: object with `overallStatus`, `smtp`, `imap`, and `dns` with `mx`, `spf`, `dkim`, `dmarc`.'),
  M('ACCT-TIMESTAMPS', '2.1', 'Mailbox `createdAt`, `updatedAt`: timestamp.'),
  S('ACCT-UPDATEDAT-ORDER', '2.1', '`createdAt`, `updatedAt` (reading: updatedAt is never before createdAt and advances when the mailbox changes).'),
];

// 2.2: one element of `accounts`. Bounds as data: ../schemas/accounts.ts ACCOUNT_INPUT_BOUNDS.
function stringField(key: string, field: string, required: boolean, max?: number, extra = ''): Clause[] {
  const out: Clause[] = [
    required
      ? M(`ACCT-IN-${key}-REQUIRED`, '2.2', `Mailbox create input \`${field}\` (string): required; an element without it is rejected.`)
      : M(`ACCT-IN-${key}-OPTIONAL`, '2.2', `Mailbox create input \`${field}\` (string): not required; an element without it is accepted.`),
  ];
  if (max !== undefined) out.push(M(`ACCT-IN-${key}-MAX${max}`, '2.2', `Mailbox create input \`${field}\`: max ${max} chars${extra}; ${max} is accepted and ${max + 1} is rejected.`));
  return out;
}
function numberField(key: string, field: string, required: boolean, min: number, max: number): Clause[] {
  return [
    required
      ? M(`ACCT-IN-${key}-REQUIRED`, '2.2', `Mailbox create input \`${field}\` (number): required; an element without it is rejected.`)
      : M(`ACCT-IN-${key}-OPTIONAL`, '2.2', `Mailbox create input \`${field}\` (number): not required; an element without it is accepted.`),
    M(`ACCT-IN-${key}-RANGE`, '2.2', `Mailbox create input \`${field}\`: ${min} to ${max}; ${min} and ${max} are accepted, ${min - 1} and ${max + 1} are rejected.`),
  ];
}
function booleanField(key: string, field: string): Clause[] {
  return [
    M(`ACCT-IN-${key}-OPTIONAL`, '2.2', `Mailbox create input \`${field}\` (boolean): not required; an element without it is accepted.`),
  ];
}

const INPUT: Clause[] = [
  M('ACCT-IN-TYPES', '2.2', 'Mailbox create input: each field has the type of the table (string, number, boolean, enum, object); an element with a value of another type is rejected.'),
  ...stringField('EMAIL', 'emailAddress', true, 254),
  S('ACCT-IN-EMAIL-FORMAT', '2.2', '`emailAddress` (reading: a value that is not an email address is rejected).'),
  ...stringField('FIRSTNAME', 'firstName', true, 128),
  ...stringField('LASTNAME', 'lastName', true, 128),
  ...stringField('DISPLAYNAME', 'displayName', false, 128),
  M('ACCT-IN-DISPLAYNAME-DEFAULT', '2.2', '`displayName`: defaults to first name plus last name.'),
  ...stringField('SMTPHOST', 'smtpHost', true, 255),
  ...numberField('SMTPPORT', 'smtpPort', true, 1, 65535),
  ...stringField('SMTPUSERNAME', 'smtpUsername', true, 255),
  ...stringField('SMTPPASSWORD', 'smtpPassword', true, 1024),
  M('ACCT-IN-SMTPPASSWORD-ENCRYPTED', '2.2', '`smtpPassword`: stored encrypted.'),
  M('ACCT-IN-SMTPPASSWORD-NEVER-RETURNED', '2.2', '`smtpPassword`: never returned (no response carries the value).'),
  ...stringField('IMAPHOST', 'imapHost', true, 255),
  ...numberField('IMAPPORT', 'imapPort', true, 1, 65535),
  ...stringField('IMAPUSERNAME', 'imapUsername', true, 255),
  ...stringField('IMAPPASSWORD', 'imapPassword', true, 1024),
  M('ACCT-IN-IMAPPASSWORD-ENCRYPTED', '2.2', '`imapPassword`: stored encrypted.'),
  M('ACCT-IN-IMAPPASSWORD-NEVER-RETURNED', '2.2', '`imapPassword`: never returned (no response carries the value).'),
  S('ACCT-IN-PORT-INTEGER', '2.2', '`smtpPort`, `imapPort`: 1 to 65535 (reading: a port is a whole number; 587.5 is rejected).'),
  ...booleanField('IMAPALLOWINVALIDCERT', 'imapAllowInvalidCert'),
  M('ACCT-IN-IMAPALLOWINVALIDCERT-BEHAVIOUR', '2.2', '`imapAllowInvalidCert`: accept a self-signed IMAP certificate.'),
  ...numberField('MAXEMAILSPERDAY', 'maxEmailsPerDay', false, 1, 200),
  ...numberField('SENDINGGAP', 'sendingGapMinutes', false, 1, 300),
  S('ACCT-IN-COUNTS-INTEGER', '2.2', '`maxEmailsPerDay` 1 to 200, `sendingGapMinutes` 1 to 300 (reading: whole numbers; a fraction is rejected).'),
  ...booleanField('SLOWRAMP', 'campaignSlowRamp'),
  ...stringField('SIGNATURE', 'signature', false),
  M('ACCT-IN-SIGNATURE-SANITIZED', '2.2', '`signature`: HTML, sanitized on save (script content given does not come back).'),
  ...stringField('BCC', 'bcc', false, 254),
  S('ACCT-IN-BCC-FORMAT', '2.2', '`bcc` (reading: an address; a value that is not an email address is rejected).'),
  ...stringField('REPLYTO', 'replyToAddress', false, 254),
  S('ACCT-IN-REPLYTO-FORMAT', '2.2', '`replyToAddress` (reading: an address; a value that is not an email address is rejected).'),
  M('ACCT-IN-REPLYTO-OMIT-SELF', '2.2', '`replyToAddress`: omit to reply to the mailbox itself.'),
  M('ACCT-IN-AUTOLANG-OPTIONAL', '2.2', 'Mailbox create input `automationLanguage`: not required.'),
  M('ACCT-IN-AUTOLANG-ENUM', '2.2', 'Mailbox create input `automationLanguage`: enum, values of 2.1; any other value is rejected.'),
  M('ACCT-IN-TRACKING-OPTIONAL', '2.2', 'Mailbox create input `tracking`: not required.'),
  M('ACCT-IN-TRACKING-DOMAINID', '2.2', 'Mailbox create input `tracking`: object with `domainId` (uuid); a non-uuid domainId is rejected.'),
  M('ACCT-IN-WARMUP-OPTIONAL', '2.2', 'Mailbox create input `warmup`: object, not required.'),
  M('ACCT-IN-WARMUP-DEFAULT-ON', '2.2', '`warmup` omitted means defaults are accepted and warmup is ON (`warmup.enabled` is true).'),
  P('ACCT-IN-DEFAULTS-PROFILE', '2.2', 'Defaults of optional mailbox fields other than displayName and warmup: not shown (the profile declares them; the check holds the target to its declaration).'),
];

const WARMUP: Clause[] = [
  M('WARMUP-WRITABLE-TYPES', '2.3', 'Writable fields: `enabled` (boolean), `strategy` (string; value seen: `standard`), `maxPerDay` (number), `replyRatePercentage` (number), `rampupEnabled` (boolean), `dailyRampup` (number), `randomizer` (number), `skipWeekends` (boolean), `timezone` (IANA timezone string), `trackingEnabled` (boolean).'),
  M('WARMUP-WRITABLE', '2.3', 'Writable fields: a value given at create or by PATCH is stored and reported back in `warmup`.'),
  M('WARMUP-READONLY-TYPES', '2.3', 'Read-only fields: `phase` (string; value seen: `warming_up`), `startedAt` (timestamp), `poolAccess` (string; value seen: `free`).'),
  M('WARMUP-READONLY', '2.3', 'Read-only fields `phase`, `startedAt`, `poolAccess`: a client write does not change them.'),
  P('WARMUP-VALUES-PROFILE', '2.3', 'Allowed values of strategy, phase and poolAccess: not shown (profile).'),
  P('WARMUP-BOUNDS-PROFILE', '2.3', 'The bounds and defaults of warmup fields: not shown (profile).'),
];

const VERIFICATION: Clause[] = [
  M('VERIF-MAILBOX-OVERALL', '2.4', 'In the mailbox object: `verification.overallStatus` (string; value seen: `pending`).'),
  M('VERIF-MAILBOX-SMTP-IMAP', '2.4', 'In the mailbox object: `verification.smtp` and `verification.imap` (strings; values seen: `active`, `not_checked`).'),
  M('VERIF-MAILBOX-DNS', '2.4', 'In the mailbox object: `verification.dns.mx|spf|dkim|dmarc` (strings; value seen: `not_checked`).'),
  S('VERIF-MAILBOX-NEW-PENDING', '2.4', '`verification.overallStatus` (value seen: `pending`) (reading: a just-created mailbox whose verification has not finished reports `pending`).'),
  M('VERIF-ENDPOINT-OVERALL', '2.4', 'The verification endpoint returns `overallStatus`.'),
  M('VERIF-ENDPOINT-SMTP', '2.4', 'The verification endpoint returns `smtp` (`status`, `error`).'),
  M('VERIF-ENDPOINT-IMAP', '2.4', 'The verification endpoint returns `imap` (`status`, `error`).'),
  M('VERIF-ENDPOINT-DNS', '2.4', 'The verification endpoint returns `dns` (object).'),
  M('VERIF-ENDPOINT-LASTVERIFIEDAT', '2.4', 'The verification endpoint returns `lastVerifiedAt` (timestamp).'),
  S('VERIF-ENDPOINT-CONSISTENT', '2.4', 'Reading: the endpoint\'s `overallStatus` agrees with the mailbox\'s `verification.overallStatus` read at the same time.'),
  P('VERIF-VALUES-PROFILE', '2.4', 'Complete sets of verification status values: not shown (profile).'),
];

const CAMPAIGN: Clause[] = [
  M('CAMP-ID-UUID', '2.5', 'Campaign `id`: uuid.'),
  M('CAMP-NAME-STRING', '2.5', 'Campaign `name`: string.'),
  M('CAMP-NAME-NONEMPTY', '2.5', 'Campaign `name`: must not be empty (an empty name is rejected).'),
  M('CAMP-STATUS-ENUM', '2.5', 'Campaign `status`: enum `draft`, `scheduled`, `active`, `paused`, `stopped`, `completed`, `failed`.'),
  M('CAMP-SCHEDULE-FIELDS', '2.5', 'Campaign `schedule`: object: `timezone` (IANA string), `sendingDays` (array of integers), `sendingMinutesStart` (integer), `sendingMinutesEnd` (integer), `dailyLimit` (integer), `startDate` (timestamp), `endDate` (timestamp).'),
  S('CAMP-SCHEDULE-WINDOW', '2.5', 'Reading of `schedule`: emails are sent only on `sendingDays`, between `sendingMinutesStart` and `sendingMinutesEnd` minutes after midnight in `timezone`, at most `dailyLimit` per day, not before `startDate` nor after `endDate`.'),
  P('CAMP-SCHEDULE-DAYS-PROFILE', '2.5', '`sendingDays` is an array of integers; their numbering (which integer is which weekday) is among the campaign create details not shown (profile).'),
  M('CAMP-SETTINGS-FIELDS', '2.5', 'Campaign `settings`: object: `trackOpens`, `trackClicks`, `sendAsTextOnly`, `stopOnReply` (all boolean).'),
  S('CAMP-SETTINGS-STOPONREPLY-BEHAVIOUR', '2.5', 'Reading of `stopOnReply`: when true, a lead who replied receives no further sequence steps.'),
  S('CAMP-SETTINGS-TEXTONLY-BEHAVIOUR', '2.5', 'Reading of `sendAsTextOnly`: when true, emails go out as text/plain without an HTML part.'),
  P('CAMP-SETTINGS-TRACKING-PROFILE', '2.5', 'How opens and clicks are tracked when `trackOpens`/`trackClicks` is true is not given (profile: declarations.tracking): a declared open pixel is in the email and fetching it counts an open; a declared click redirect rewrites links, answers a redirect to the original and counts a click.'),
  S('CAMP-SETTINGS-TRACKING-BEHAVIOUR', '2.5', 'Reading of `trackOpens`/`trackClicks`: when false, outgoing emails carry no open pixel / no rewritten links.'),
  M('CAMP-METRICS-FIELDS', '2.5', 'Campaign `metrics`: object: `leadsCount`, `sent`, `opens`, `clicks`, `replies` (integers).'),
  M('CAMP-TAGS-ARRAY', '2.5', 'Campaign `tags`: array of tag.'),
  M('CAMP-CREATEDAT-TS', '2.5', 'Campaign `createdAt`: timestamp.'),
  M('CAMP-UPDATEDAT-TS', '2.5', 'Campaign `updatedAt`: timestamp.'),
  M('CAMP-SEQUENCE-STEPS', '2.5', 'Campaign `sequence`: array; steps: `subject` (string), `body` (HTML string), `delayDays` (integer), `delayHours` (integer).'),
  M('CAMP-SEQUENCE-MERGE-ACCEPTED', '2.5', 'Subject and body may hold merge variables written with double braces, such as company name and first name (they are accepted and stored as given).'),
  P('CAMP-SEQUENCE-MERGE-RENDERED', '2.5', 'Merge variables such as company name and first name are replaced by the lead\'s values in the email sent; their exact names are not given (profile: declarations.mergeVariables, which a target that declares them keeps to).'),
  S('CAMP-SEQUENCE-NO-HEADER-INJECTION', '2.5', 'Reading: a step\'s subject and the values merged into it or written to a header (a lead\'s names and custom fields, a mailbox\'s names) stay inside their field: CR/LF in them adds no header and no recipient to the email sent (it goes to the lead, with one subject).'),
  S('CAMP-SEQUENCE-MERGE-HTML-ESCAPED', '2.5', 'Reading: a step body is HTML and a lead\'s values are text: a value merged into the HTML body is escaped, never markup.'),
  P('CAMP-SEQUENCE-UNKNOWN-VARIABLE-PROFILE', '2.5', 'What a merge variable the target does not know renders to is not given (profile: declarations.unknownMergeVariable, `empty` or `verbatim`).'),
  S('CAMP-SEQUENCE-SENT-ONCE', '2.5', 'Reading: a started campaign sends every step of its sequence to every lead once, in order, from one of the campaign\'s mailboxes (nothing twice, nothing lost).'),
  M('CAMP-SEQUENCE-DELAY', '2.5', 'A step\'s `delayDays` and `delayHours` are its delay: the second step goes to a lead no sooner than its days and hours after the first went to that lead.'),
  S('CAMP-METRICS-SENT-COUNT', '2.5', 'Reading: campaign `metrics.sent` counts the campaign emails sent (as seen at the mail sink).'),
  M('CAMP-ACCOUNTS-UUIDS', '2.5', 'Campaign `accounts`: array of uuid, ids of sending mailboxes.'),
  P('CAMP-CREATE-REQUIRED-PROFILE', '2.5', 'Required fields and bounds of the campaign create fields: not shown (profile).'),
  M('CAMP-LISTITEM-FIELDS', '2.5', 'Campaign list item: `id`, `name`, `status`, `leadsCount`, `tags`, `createdAt`.'),
  S('CAMP-LISTITEM-CONSISTENT', '2.5', 'Reading: a list item\'s values equal the campaign\'s (`leadsCount` equals `metrics.leadsCount`).'),
  M('CAMP-STATUS-FIELDS', '2.5', 'Campaign status view: `id`, `status`, `isWithinSchedule` (boolean), `metrics` (as above), `nextScheduleOpensAt` (timestamp or null).'),
  M('CAMP-STATUS-WITHINSCHEDULE', '2.5', '`isWithinSchedule`: true inside the sending window, false outside it.'),
  M('CAMP-STATUS-NEXTOPENS-NULL-INWINDOW', '2.5', '`nextScheduleOpensAt` is null when in-window.'),
  M('CAMP-STATUS-NEXTOPENS-NULL-INACTIVE', '2.5', '`nextScheduleOpensAt` is null when not active.'),
  S('CAMP-STATUS-NEXTOPENS-SET', '2.5', 'Reading: for an active campaign outside its window, `nextScheduleOpensAt` is the future instant its next sending window opens (in the schedule\'s timezone).'),
  S('CAMP-STATUS-WITHINSCHEDULE-CLOCK', '2.5', 'Reading: `isWithinSchedule` is computed from the schedule (days, minutes, timezone) and the current time.'),
];

const LEAD: Clause[] = [
  M('LEAD-ID-UUID', '2.6', 'Lead `id`: uuid.'),
  M('LEAD-EMAIL-STRING', '2.6', 'Lead `email`: string.'),
  M('LEAD-TEXT-FIELDS', '2.6', 'Lead `firstName`, `lastName`, `companyName`, `jobTitle`, `website`, `linkedinProfile`, `location`: string.'),
  M('LEAD-TAGS-STRINGS', '2.6', 'Lead `tags`: array of string.'),
  M('LEAD-CUSTOMFIELDS-OBJECT', '2.6', 'Lead `customFields`: object (name to value).'),
  M('LEAD-CUSTOMFIELD-LABELS-TYPES', '2.6', 'Update also accepts `customFieldLabels` and `customFieldTypes` objects.'),
  M('LEAD-STATUS-STRING', '2.6', 'Lead `status`: string; values in part 3.'),
  P('LEAD-STATUS-NEW', '2.6', 'Lead `status` of a lead never contacted (seen: `not_contacted`; lead status values beyond part 3: not shown): the profile declares it (declarations.newLeadStatus).'),
  M('LEAD-VERIFICATION-OBJECT', '2.6', 'Lead `verification`: object: `status`, `subStatus` (strings; seen `valid`, `email_ok`).'),
  M('LEAD-METRICS-OBJECT', '2.6', 'Lead `metrics`: object: `sent`, `opened`, `clicked`, `replied` (integers).'),
  M('LEAD-PROVIDER-STRING', '2.6', 'Lead `provider`: string (seen: `google`).'),
  M('LEAD-SEQPROGRESS-COUNTS', '2.6', 'Lead `sequenceProgress`: object: `totalSteps`, `sentCount`, `plannedCount`, `failedCount` (integers).'),
  M('LEAD-SEQPROGRESS-NEXTPLANNEDAT', '2.6', 'Lead `sequenceProgress.nextPlannedAt` (timestamp).'),
  S('LEAD-SEQPROGRESS-TOTALSTEPS', '2.6', 'Reading: `sequenceProgress.totalSteps` equals the number of steps of the campaign\'s sequence.'),
  S('LEAD-LASTCONTACTEDAT-SET', '2.6', 'Reading: once an email of the campaign went to the lead, `lastContactedAt` is set (and `metrics.sent` counts it).'),
  S('LEAD-LASTREPLIEDAT-SET', '2.6', 'Reading: once the lead replied, `lastRepliedAt` is set (and `metrics.replied` counts it).'),
  M('LEAD-TIMESTAMPS', '2.6', 'Lead `createdAt`, `lastContactedAt`, `lastRepliedAt`: timestamp.'),
  P('LEAD-VALUES-PROFILE', '2.6', 'Sets of verification status and subStatus values and of lead status values other than those in part 3: not shown (profile).'),
  M('LEADHIT-FIELDS', '2.6', 'Lead search hit (cross-campaign search): `id`, `email`, `campaignId`, `campaignName`, `firstName`, `lastName`.'),
  S('LEADHIT-CONSISTENT', '2.6', 'Reading: a hit\'s `id` is the lead\'s id in campaign `campaignId`, and `campaignName` is that campaign\'s name.'),
];

const EMAIL: Clause[] = [
  M('EMAIL-ID-UUID', '2.7', 'Email `id` (uuid).'),
  M('EMAIL-THREADID', '2.7', 'Email `threadId` (opaque string or null).'),
  S('EMAIL-THREADID-STABLE', '2.7', '`threadId`: pass back as is, never parse (reading: emails of one conversation carry the same threadId, a string: a lead\'s reply carries the threadId of the sent email it answers, as that email shows it).'),
  M('EMAIL-MESSAGEID', '2.7', 'Email `messageId` (RFC 5322 Message-ID).'),
  S('EMAIL-MESSAGEID-WIRE', '2.7', 'Reading: `messageId` equals the Message-ID header of the message as sent or received.'),
  M('EMAIL-MAILBOX', '2.7', 'Email `mailbox` (`id`, `email`).'),
  M('EMAIL-FROM', '2.7', 'Email `from` (`email`, `name`).'),
  M('EMAIL-RECIPIENTS', '2.7', 'Email `to`, `cc`, `bcc` (arrays of address strings).'),
  M('EMAIL-SUBJECT', '2.7', 'Email `subject`.'),
  M('EMAIL-SNIPPET', '2.7', 'Email `snippet` (short preview): a non-empty piece of the email\'s own content, for an email that has content.'),
  M('EMAIL-ISUNREAD', '2.7', 'Email `isUnread` (boolean, null when the email is in no conversation).'),
  M('EMAIL-TYPE-ENUM', '2.7', 'Email `type` (enum `sent`, `received`).'),
  M('EMAIL-CAMPAIGNID', '2.7', 'Email `campaignId`.'),
  M('EMAIL-LEADID', '2.7', 'Email `leadId`.'),
  M('EMAIL-HASATTACHMENTS', '2.7', 'Email `hasAttachments` (boolean).'),
  M('EMAIL-TIMESTAMPS', '2.7', 'Email `receivedAt`, `sentAt` (timestamps).'),
  M('EMAIL-BODY-OBJECT', '2.7', 'Email `body` (object with `html` and `text`).'),
  M('EMAIL-BODY-NULL-PART', '2.7', '`body`: a null part was never stored (a part that was stored is never null).'),
];

const LEAD_SEARCH: Clause[] = [
  M('LF-ID-UUID', '2.8', 'Lead search `id`.'),
  M('LF-QUERY-STRING', '2.8', 'Lead search `query` (string).'),
  M('LF-STATUS-ENUM', '2.8', 'Lead search `status` (enum `draft`, `queued`, `discovering`, `processing`, `crawling`, `enriching`, `verifying`, `completed`, `stopped`, `failed`).'),
  M('LF-SEARCHMODE-ENUM', '2.8', 'Lead search `searchMode` (enum `companies`, `people`).'),
  M('LF-MAXRESULTS-INT', '2.8', 'Lead search `maxResults` (integer).'),
  M('LF-DISCOVERYFINISHED-BOOLEAN', '2.8', 'Lead search `discoveryFinished` (boolean).'),
  M('LF-DISCOVERYFINISHED-PHASES', '2.8', '`discoveryFinished`: crawl and enrich may still run (true does not imply a terminal status).'),
  M('LF-PROGRESS', '2.8', 'Lead search `progress` (`companiesFound`, `companiesProcessed`, `emailsFound`, integers).'),
  M('LF-TIMESTAMPS', '2.8', 'Lead search `createdAt`, `updatedAt` (timestamps).'),
  M('LF-ERRORMESSAGE-FAILED', '2.8', '`errorMessage` (string; set when status is `failed`).'),
  M('LF-ERRORMESSAGE-NULL', '2.8', '`errorMessage`: otherwise null.'),
  M('LF-COMPLETEDAT-TS', '2.8', '`completedAt` (timestamp).'),
  M('LF-COMPLETEDAT-NULL-RUNNING', '2.8', '`completedAt`: null while running.'),
  M('LF-LISTITEM-FIELDS', '2.8', 'List items carry `id`, `query`, `status`, `searchMode`, `maxResults`, `createdAt`, `completedAt`.'),
  S('LF-LISTITEM-CONSISTENT', '2.8', 'Reading: a list item\'s values equal those of the same search read by id.'),
];

const WORKSPACE_USAGE: Clause[] = [
  M('WS-ORGANIZATIONID-UUID', '2.9', 'Workspace: `organizationId` (uuid).'),
  M('WS-NAME-STRING', '2.9', 'Workspace: `name` (string).'),
  M('WS-TIMEZONE-IANA', '2.9', 'Workspace: `timezone` (IANA string).'),
  M('USAGE-USED-NUMBER', '2.9', 'Usage of one limit: `used` (number).'),
  M('USAGE-LIMIT-NULL-UNLIMITED', '2.9', 'Usage: `limit` (number or null when unlimited).'),
  M('USAGE-REMAINING-NULL-UNLIMITED', '2.9', 'Usage: `remaining` (number or null when unlimited).'),
  M('USAGE-ISUNLIMITED-BOOLEAN', '2.9', 'Usage: `isUnlimited` (boolean).'),
  M('USAGE-PERCENTAGE-FORMULA', '2.9', 'Usage: `usagePercentage` (number: used / limit x 100).'),
  M('USAGE-PERCENTAGE-ZERO-UNLIMITED', '2.9', 'Usage: `usagePercentage` is 0 when unlimited.'),
  M('USAGE-LIMITTYPE-ENUM', '2.9', 'Usage: `limitType` (enum `monthly_emails`, `active_contacts`, `ai_credits`, `email_validation`, `monthly_imports`, `lead_finder_credits`).'),
  S('USAGE-REMAINING-MEANING', '2.9', 'Reading: `remaining` is what is left of `limit` after `used` (limit minus used, never below 0).'),
];

const ANALYTICS: Clause[] = [
  M('ANLT-PERIOD-START-END', '2.10', '`period`: `start`, `end` (timestamps).'),
  M('ANLT-PERIOD-CLAMPED', '2.10', '`period`: `clamped` (boolean).'),
  M('ANLT-PERIOD-RETENTIONDAYS', '2.10', '`period`: `retentionDays` (integer).'),
  M('ANLT-TOTALS-COUNTS', '2.10', '`totals`: `sent`, `failed`, `delivered`, `leadsContacted`, `replies`, `bounces`, `unsubscribed`, `positiveLeads`, `conversions`, `conversionValue` (numbers).'),
  M('ANLT-TOTALS-OPENS-CLICKS', '2.10', '`totals`: `opens` and `clicks` (each `total`, `uniqueLeads`).'),
  M('ANLT-TOTALS-RATES', '2.10', '`totals.rates` (percent numbers: `open`, `click`, `reply`, `bounce`, `delivery`, `unsubscribe`, `conversion`).'),
  M('ANLT-RATES-PERCENT', '2.10', '`rates` are percent numbers: on a 0 to 100 scale (every email delivered is a delivery rate of 100), not fractions of 1.'),
  S('ANLT-UNIQUE-LE-TOTAL', '2.10', 'Reading: `opens.uniqueLeads` <= `opens.total` and `clicks.uniqueLeads` <= `clicks.total`.'),
  M('ANLT-BYSMTP-FIELDS', '2.10', '`bySmtp[]`: `accountId`, `email`, `totals`.'),
  M('ANLT-BYSMTP-TOTALS', '2.10', '`bySmtp[].totals`: sent, delivered, opens, clicks, replies, bounces, positiveLeads, conversions, conversionValue, rates with `open`, `click`, `reply`, `bounce`, `delivery`, `positive`, `conversion`.'),
  M('ANLT-BYSEQUENCE-FIELDS', '2.10', '`bySequence[]`: `step` (integer), `variant` (string), `totals` (same shape as in bySmtp).'),
  M('ANLT-BOUNCE-FIELDS', '2.10', '`bounceBreakdown`: `total`, `hard`, `soft`, `senderBounces`, `recipientBounces`, `unknownBounces`.'),
  M('ANLT-BOUNCE-BYCATEGORY', '2.10', '`bounceBreakdown.byCategory[]` (`category`, `label`, `type`, `count`, `percentage`).'),
  M('ANLT-POINT-FIELDS', '2.10', 'Time-series point: `timestamp`, `sent`, `delivered`, `opens` and `clicks` (`total`, `uniqueLeads`), `replies`, `bounces`, `unsubscribed`.'),
  M('ANLT-OVERVIEW-ACTIVECAMPAIGNS', '2.10', 'Workspace overview adds `activeCampaigns` (campaigns currently sending).'),
  M('ANLT-OVERVIEW-SENDINGACCOUNTS', '2.10', 'Workspace overview adds `sendingAccounts` (connected sending accounts).'),
  M('ANLT-OVERVIEW-TOPCAMPAIGNS', '2.10', 'Workspace overview adds `topCampaigns[]` (`campaignId`, `name`, `sent`, `openRate`).'),
];

export const CLAUSES_PART2: readonly Clause[] = [
  ...CONVENTIONS,
  ...MAILBOX,
  ...INPUT,
  ...WARMUP,
  ...VERIFICATION,
  ...CAMPAIGN,
  ...LEAD,
  ...EMAIL,
  ...LEAD_SEARCH,
  ...WORKSPACE_USAGE,
  ...ANALYTICS,
];
