import type { ViolationCatalog } from './types.ts';

// Plausible violations of the MUST and PROFILE clauses of sections 1 and 2.1 to 2.6 (see types.ts).
export const VIOLATIONS_PART1_2: ViolationCatalog = {
  // 2 MUST: Conventions: ids are UUID strings.
  "RES-ID-UUID": [
    { what: "Mailbox ids are answered as `acct_<uuid>`.", mutants: ["acct-answer-id-not-uuid"] },
    { what: "Campaign ids are answered as `camp_<uuid>`.", mutants: ["camp-answer-id-not-uuid"] },
    { what: "Lead ids are answered with a type prefix.", mutants: ["lead-answer-id-not-uuid"] },
    { what: "A lead search id is answered as `ls_<uuid>`.", mutants: ["lf-answer-id-not-uuid"] },
    { what: "GET /v1/emails/{id} answers the id as `em_<uuid>`.", mutants: ["email-answer-id-not-uuid"] },
    { what: "A received email (ingested over IMAP, another table) is keyed `<mailbox id>:<uid>`; sent emails are right.", mutants: ["email-received-id-not-uuid"] },
  ],
  // 2 MUST: Conventions: timestamps are ISO 8601 strings.
  "RES-TS-ISO8601": [
    { what: "createdAt and updatedAt are epoch milliseconds.", mutants: ["acct-timestamps-epoch"] },
    { what: "A campaign answers createdAt and updatedAt as epoch milliseconds.", mutants: ["camp-timestamps-epoch"] },
    { what: "A lead createdAt is epoch milliseconds.", mutants: ["lead-answer-createdat-epoch"] },
    { what: "A contacted lead answers lastContactedAt as epoch milliseconds.", mutants: ["lead-answer-lastcontactedat-epoch"] },
    { what: "A campaign PATCH answers the updatedAt it rewrote in SQL DATETIME form (`2026-12-07 17:40:00`).", mutants: ["camp-patch-updatedat-sql"] },
    { what: "A received email's sentAt passed through from its Date header (RFC 2822).", mutants: ["email-received-sentat-rfc2822"] },
    { what: "A campaign PATCH answers createdAt, read back from the store, as epoch milliseconds.", mutants: ["camp-answer-patch-createdat-epoch"] },
    { what: "The status view's nextScheduleOpensAt, where set, is epoch milliseconds.", mutants: ["camp-answer-status-nextopens-epoch"] },
    { what: "A lead search (Lead Finder, often a service of its own) answers createdAt and updatedAt as epoch milliseconds.", mutants: ["lf-timestamps-epoch"] },
  ],
  // 2 MUST: Timestamps are ISO 8601 strings (some carry milliseconds): both forms, with and without milliseconds, are valid timestamps.
  "RES-TS-MILLIS": [
    { what: "A schedule startDate or endDate written with milliseconds is refused (400) as not a timestamp.", mutants: ["ts-millis-refused"] },
    { what: "The campaign PATCH (a validator of its own) refuses schedule dates without milliseconds; the create takes both forms.", mutants: ["ts-patch-whole-seconds-refused"] },
  ],
  // 2 MUST: Conventions: field names are camelCase.
  "RES-CAMELCASE": [
    { what: "The mailbox answers `sending_gap_minutes` instead of `sendingGapMinutes`.", mutants: ["acct-field-snake-case"] },
    { what: "Leads answer `company_name` instead of `companyName`.", mutants: ["lead-answer-companyname-snake-case"] },
    { what: "A campaign answers `created_at` instead of `createdAt`.", mutants: ["camp-answer-createdat-snake-case"] },
    { what: "A lead search (Lead Finder, a service of its own) answers `discovery_finished` instead of `discoveryFinished`.", mutants: ["lf-answer-discoveryfinished-snake-case"] },
  ],
  // 2 MUST: `null` is used for an absent optional value where stated (a field stated as "or null" carries null, not omission, when absent).
  "RES-NULL-WHERE-STATED": [
    { what: "A healthy mailbox omits `statusMessage` instead of answering null.", mutants: ["acct-answer-statusmessage-omitted"] },
    { what: "The status view omits nextScheduleOpensAt instead of answering null.", mutants: ["camp-answer-nextopens-omitted"] },
    { what: "A lead search without an error leaves errorMessage out instead of answering null.", mutants: ["lf-answer-errormessage-omitted"] },
    { what: "An unlimited usage leaves limit and remaining out, or an email without a thread its threadId, instead of answering null.", gap: "named by a self-audit of unaudited clauses: no claiming check reads an unlimited usage or an email without a thread at default; USAGE-COMPUTED (control API) and EMAIL/* could claim the clause for the schemas they apply" },
  ],
  // 2.1 MUST: Tag object: `id` (uuid).
  "RES-TAG-ID": [
    { what: "tags is an array of tag names, not tag objects.", mutants: ["acct-tags-as-names"] },
  ],
  // 2.1 MUST: Tag object: `name` (string).
  "RES-TAG-NAME": [
    { what: "tags is an array of tag names, not tag objects.", mutants: ["acct-tags-as-names"] },
  ],
  // 2.1 MUST: Tag object: `color` (string, hex color).
  "RES-TAG-COLOR": [
    { what: "tags is an array of tag names, not tag objects.", mutants: ["acct-tags-as-names"] },
  ],
  // 2.1 MUST: Mailbox `id`: uuid string.
  "ACCT-ID-UUID": [
    { what: "Mailbox ids are answered as `acct_<uuid>`.", mutants: ["acct-answer-id-not-uuid"] },
  ],
  // 2.1 MUST: Mailbox `emailAddress`: string.
  "ACCT-EMAILADDRESS-STRING": [
    { what: "Mailboxes answer emailAddress as an object { address }.", mutants: ["acct-emailaddress-object"] },
  ],
  // 2.1 MUST: Mailbox `emailAddress`: cannot be changed after creation.
  "ACCT-EMAILADDRESS-IMMUTABLE": [
    { what: "PATCH changes emailAddress.", mutants: ["acct-email-mutable"] },
  ],
  // 2.1 MUST: Mailbox `firstName`, `lastName`: string.
  "ACCT-NAMES-STRING": [
    { what: "Mailboxes answer firstName and lastName null.", mutants: ["acct-names-null"] },
    { what: "A mailbox connected by OAuth (no names in its input) answers firstName and lastName null; mailboxes created with names are right.", mutants: ["acct-oauth-names-null"] },
  ],
  // 2.1 MUST: Mailbox `displayName`: string, the sender display name.
  "ACCT-DISPLAYNAME-STRING": [
    { what: "Mailboxes answer displayName null.", mutants: ["acct-displayname-null"] },
    { what: "A mailbox created without it answers displayName null (the default name computed only when sending).", mutants: ["acct-displayname-null-unset"] },
  ],
  // 2.1 MUST: `displayName` is the sender display name: the From header of the mailbox's outgoing emails carries it, as the name of the mailbox's address.
  "ACCT-DISPLAYNAME-SENDER": [
    { what: "From carries the mailbox address without its display name.", mutants: ["send-display-name-ignored"] },
    { what: "From carries the mailbox's first and last name, not its displayName.", mutants: ["send-from-name-first-last"] },
    { what: "A test email (another render path) goes From the bare address, without the displayName.", mutants: ["test-email-from-no-name"] },
    { what: "A follow-up step (threaded as a reply) goes From the bare address; the first step carries the displayName.", mutants: ["send-followup-from-no-name"] },
  ],
  // 2.1 MUST: Mailbox `provider`: enum `custom`, `google`, `microsoft`.
  "ACCT-PROVIDER-ENUM": [
    { what: "an OAuth mailbox answers provider `gmail`, `outlook` or `oauth` (SMTP mailboxes right).", mutants: ["acct-oauth-provider-alias"] },
    { what: "a Google OAuth mailbox alone answers provider `gmail` (a per-provider name table; Microsoft right).", mutants: ["acct-oauth-google-gmail"] },
    { what: "An SMTP/IMAP mailbox shows provider `smtp` instead of `custom`.", mutants: ["acct-provider-smtp"] },
  ],
  // 2.1 MUST: Mailbox `status`: enum `active`, `inactive`, `checking`, `revoked`, `failed` (see part 3).
  "ACCT-STATUS-ENUM": [
    { what: "Mailboxes answer status in upper case.", mutants: ["acct-status-uppercase"] },
    { what: "An inactive mailbox says status `disabled`.", mutants: ["acct-answer-status-unlisted"] },
    { what: "The states other than a new mailbox's inactive answered under names off the list: failed as `error`, checking as `verifying`, revoked as `disconnected`.", mutants: ["acct-status-internal-names"] },
    { what: "A mailbox being checked (after a resume or a credential PATCH) answered as `verifying`, the other states right.", mutants: ["acct-status-checking-verifying"] },
    { what: "A paused (inactive) mailbox answered as `paused`, the other states right.", mutants: ["acct-status-paused-named"] },
  ],
  // 2.1 MUST: Mailbox `maxEmailsPerDay`: number.
  "ACCT-MAXEMAILSPERDAY-NUMBER": [
    { what: "Mailboxes answer maxEmailsPerDay as a string of digits.", mutants: ["acct-maxemails-string"] },
    { what: "A mailbox created without it answers maxEmailsPerDay null (\"no cap\", a nullable column).", mutants: ["acct-maxemails-null-unset"] },
  ],
  // 2.1 MUST: `maxEmailsPerDay` is the daily campaign send cap: a mailbox sends no more campaign emails in a day.
  "ACCT-MAXEMAILSPERDAY-CAP": [
    { what: "The cap counts only first steps (new leads started a day): follow-up steps go out past it.", mutants: ["send-cap-first-steps-only"] },
    { what: "The daily cap is counted per campaign, so a mailbox in two campaigns sends twice its cap.", mutants: ["send-cap-per-campaign"] },
  ],
  // 2.1 MUST: `maxEmailsPerDay`: warmup has its own budget (warmup emails do not count toward the campaign cap).
  "ACCT-MAXEMAILSPERDAY-WARMUP-SEPARATE": [
    { what: "The mailbox's warmup mail of the day is counted against its campaign cap, so the campaign sends fewer than maxEmailsPerDay.", mutants: ["send-warmup-counts-toward-cap"] },
  ],
  // 2.1 MUST: Mailbox `sendingGapMinutes`: number.
  "ACCT-SENDINGGAP-NUMBER": [
    { what: "The mailbox answers `sending_gap_minutes` instead of `sendingGapMinutes`.", mutants: ["acct-field-snake-case"] },
    { what: "A mailbox created without it answers sendingGapMinutes null (\"no gap\", a nullable column).", mutants: ["acct-sendinggap-null-unset"] },
  ],
  // 2.1 MUST: `sendingGapMinutes`: minimum minutes between two sends from this mailbox, across all campaigns.
  "ACCT-SENDINGGAP-ENFORCED": [
    { what: "The gap is kept per campaign: two campaigns sharing a mailbox send at the same time.", mutants: ["send-gap-per-campaign"] },
  ],
  // 2.1 MUST: Mailbox `campaignSlowRamp`: boolean.
  "ACCT-SLOWRAMP-BOOLEAN": [
    { what: "Mailboxes answer campaignSlowRamp as the string \"true\" or \"false\".", mutants: ["acct-slowramp-string"] },
    { what: "A mailbox created without campaignSlowRamp answers it null (a nullable column).", mutants: ["acct-slowramp-null-unset"] },
  ],
  // 2.1 MUST: Mailbox `replyToAddress`: string.
  "ACCT-REPLYTO-STRING": [
    { what: "Mailboxes answer replyToAddress null.", mutants: ["acct-replyto-null"] },
  ],
  // 2.1 MUST: `replyToAddress`: where replies go when different from the mailbox address (outgoing emails carry it as Reply-To).
  "ACCT-REPLYTO-BEHAVIOUR": [
    { what: "Outgoing emails carry no Reply-To.", mutants: ["send-no-reply-to"] },
    { what: "A test email (another render path) carries no Reply-To.", mutants: ["test-email-no-replyto"] },
    { what: "A follow-up step (threaded as a reply) carries no Reply-To; the first step does.", mutants: ["send-followup-no-reply-to"] },
  ],
  // 2.1 MUST: Mailbox `signature`: string.
  "ACCT-SIGNATURE-STRING": [
    { what: "Mailboxes answer signature null.", mutants: ["acct-signature-null"] },
  ],
  // 2.1 MUST: `signature`: HTML signature appended to outgoing emails.
  "ACCT-SIGNATURE-APPENDED": [
    { what: "The signature is not appended.", mutants: ["send-no-signature"] },
    { what: "A test email (another render path) goes without the signature.", mutants: ["test-email-no-signature"] },
    { what: "A follow-up step (threaded as a reply) goes without the signature; the first step carries it.", mutants: ["send-followup-no-signature"] },
    { what: "The signature is sanitized in what the API answers, but the email carries it as given (<script>, on* handlers, javascript: URLs).", mutants: ["send-signature-raw"] },
  ],
  // 2.1 MUST: Mailbox `bcc`: string.
  "ACCT-BCC-STRING": [
    { what: "Mailboxes answer bcc null.", mutants: ["acct-bcc-null"] },
  ],
  // 2.1 MUST: `bcc`: address receiving a blind copy of every email from this mailbox.
  "ACCT-BCC-BEHAVIOUR": [
    { what: "The blind copy is not blind: its address is written in a header every recipient sees (Cc).", mutants: ["send-bcc-header"] },
    { what: "The mailbox bcc receives no copy (it is stored and answered, never sent to).", mutants: ["send-bcc-dropped"] },
    { what: "A test email, or a follow-up step (threaded as a reply), goes without the blind copy; the first step carries it.", mutants: ["test-email-no-bcc", "send-followup-no-bcc"] },
  ],
  // 2.1 MUST: `automationLanguage` allowed values: en, ar, bn, zh, cs, da, nl, fi, fr, de, el, he, hi, hu, id, it, ja, ko, ms, no, pl, pt, ro, ru, es, sv, th, tr, u
  "ACCT-AUTOLANG-ENUM": [
    { what: "Mailboxes answer automationLanguage in upper case.", mutants: ["acct-autolang-uppercase"] },
    { what: "A mailbox created without it answers automationLanguage null (a nullable column; 2.2 states no default).", mutants: ["acct-autolang-null-unset"] },
  ],
  // 2.1 MUST: Mailbox `warmup`: object (see 2.3).
  "ACCT-WARMUP-OBJECT": [
    { what: "Mailboxes answer warmup as a JSON string.", mutants: ["acct-warmup-string"] },
    { what: "A switched-off warmup is answered null (or without its writable fields).", mutants: ["acct-warmup-off-null"] },
  ],
  // 2.1 MUST: Mailbox `tracking`: object with `domainId` (uuid string).
  "ACCT-TRACKING-OBJECT": [
    { what: "A mailbox created with a tracking domain shows tracking without its domainId.", mutants: ["acct-tracking-domain-dropped"] },
  ],
  // 2.1 MUST: Mailbox `statusMessage`: object or null (last provider failure).
  "ACCT-STATUSMESSAGE-NULLABLE": [
    { what: "A healthy mailbox omits `statusMessage` instead of answering null.", mutants: ["acct-answer-statusmessage-omitted"] },
    { what: "A mailbox with a provider failure answers statusMessage as the provider's text (a string), not an object.", mutants: ["acct-answer-statusmessage-text"] },
  ],
  // 2.1 MUST: `statusMessage` is null when healthy.
  "ACCT-STATUSMESSAGE-NULL-HEALTHY": [
    { what: "A healthy mailbox omits `statusMessage` instead of answering null.", mutants: ["acct-answer-statusmessage-omitted"] },
    { what: "\"Last provider failure\" kept after the mailbox recovers: failed by a refused login, resumed with a working one, active again with the old statusMessage.", mutants: ["acct-statusmessage-kept-when-healthy"] },
  ],
  // 2.1 MUST: `statusMessage` fields: `code` (string), `command` (string), `responseCode` (number), `response` (string), `message` (string), `occurredAt` (timestamp
  "ACCT-STATUSMESSAGE-FIELDS": [
    { what: "statusMessage.responseCode is the SMTP reply code as a string (\"535\").", mutants: ["acct-answer-statusmessage-code-string"] },
    { what: "statusMessage.occurredAt is epoch milliseconds.", mutants: ["acct-answer-statusmessage-occurredat-epoch"] },
    { what: "statusMessage is the provider's text (a string), so none of its fields is there.", mutants: ["acct-answer-statusmessage-text"] },
  ],
  // 2.1 MUST: Mailbox `tags`: array of tag.
  "ACCT-TAGS-ARRAY": [
    { what: "tags is an array of tag names, not tag objects.", mutants: ["acct-tags-as-names"] },
  ],
  // 2.1 MUST: `tags` are read-only here; created and deleted in the dashboard (a PATCH cannot change them).
  "ACCT-TAGS-READONLY": [
    { what: "PATCH /v1/accounts/{id} with `tags` replaces the mailbox tags.", mutants: ["acct-tags-patch-writable"] },
    { what: "Only a non-empty list of tag ids replaces them (`[]` read as no change).", mutants: ["acct-tags-patch-nonempty-writable"] },
  ],
  // 2.1 MUST: The mailbox list can be filtered by tag ids.
  "ACCT-LIST-TAG-FILTER": [
    { what: "GET /v1/accounts ignores `tags` (every mailbox listed).", mutants: ["acct-tags-filter-ignored"] },
  ],
  // 2.1 MUST: Mailbox `healthScore`: number 0 to 100 (deliverability health).
  "ACCT-HEALTHSCORE-RANGE": [
    { what: "healthScore on a 0 to 1 fraction scale (a new mailbox shows 1 or 0.97): inside 0..100.", gap: "named by an independent audit of 40 passing clauses, and no check can tell it from outside: the spec states only a number 0 to 100 for deliverability health, no value for any mailbox (a new, a failed or a warmed one), so a score of 1 is a correct poor health as much as a full one on another scale" },
    { what: "healthScore is answered on a 0 to 1,000 scale (a new mailbox shows 1000).", mutants: ["acct-healthscore-per-mille"] },
  ],
  // 2.1 MUST: Mailbox `smtp`: object with `host`, `port`, `username`.
  "ACCT-SMTP-OBJECT": [
    { what: "Mailboxes answer smtp as one \"host:port\" string.", mutants: ["acct-smtp-string"] },
    { what: "A mailbox connected by OAuth (no SMTP input; it sends through the provider) answers smtp null.", mutants: ["acct-oauth-smtp-null"] },
  ],
  // 2.1 MUST: Mailbox `smtp`: passwords are never returned.
  "ACCT-PASSWORDS-NEVER-RETURNED": [
    { what: "Mailbox answers carry smtp.password (the decrypted SMTP password).", mutants: ["acct-password-returned"] },
    { what: "Mailbox answers carry imap.password (the decrypted IMAP password).", mutants: ["acct-imap-password-returned"] },
  ],
  // 2.1 MUST: Mailbox `imap`: object (`host`, `port`, `username`) or null.
  "ACCT-IMAP-NULLABLE": [
    { what: "an OAuth mailbox's answer leaves imap out (neither its settings nor null; a serializer dropping nulls).", mutants: ["acct-oauth-imap-omitted"] },
    { what: "an OAuth mailbox's imap is {} (neither its settings nor null).", mutants: ["acct-oauth-imap-empty-object"] },
    { what: "The mailbox's imap object carries no username.", mutants: ["acct-answer-imap-no-username"] },
  ],
  // 2.1 MUST: `imap` is null when no IMAP is configured (and an object when IMAP is configured).
  "ACCT-IMAP-NULL-NONE": [
    { what: "A mailbox with IMAP configured answers imap null.", mutants: ["acct-answer-imap-null"] },
  ],
  // 2.1 MUST: Mailbox `verification`: object with `overallStatus`, `smtp`, `imap`, and `dns` with `mx`, `spf`, `dkim`, `dmarc`.
  "ACCT-VERIFICATION-OBJECT": [
    { what: "The verification object of a mailbox has no dns.", mutants: ["acct-verification-no-dns"] },
    { what: "The object rebuilt once a background verification ran: dns null (no lookup result), while a new, pending mailbox shows it right.", mutants: ["acct-verified-dns-null"] },
    { what: "The object rebuilt once a background verification ran: smtp and imap as the verification endpoint's { status, error } objects.", mutants: ["acct-verified-smtp-imap-objects"] },
  ],
  // 2.1 MUST: Mailbox `createdAt`, `updatedAt`: timestamp.
  "ACCT-TIMESTAMPS": [
    { what: "createdAt and updatedAt are epoch milliseconds.", mutants: ["acct-timestamps-epoch"] },
  ],
  // 2.2 MUST: Mailbox create input: each field has the type of the table (string, number, boolean, enum, object); an element with a value of another type is rejecte
  "ACCT-IN-TYPES": [
    { what: "A number field given as a numeric string (\"587\") is coerced and accepted.", mutants: ["acct-in-numeric-strings-coerced"] },
    { what: "a per-field slip: one field's parser lenient where the others are strict (imapPort \"993\", imapAllowInvalidCert \"true\", warmup true, a name given as 42).", mutants: ["acct-in-imapport-string-coerced", "acct-in-allowinvalidcert-string-coerced", "acct-in-warmup-true-accepted", "acct-in-names-stringified"] },
  ],
  // 2.2 MUST: Mailbox create input `emailAddress` (string): required; an element without it is rejected.
  "ACCT-IN-EMAIL-REQUIRED": [
    { what: "An element without emailAddress is connected under its smtpUsername.", mutants: ["acct-in-email-from-username"] },
  ],
  // 2.2 MUST: Mailbox create input `emailAddress`: max 254 chars; 254 is accepted and 255 is rejected.
  "ACCT-IN-EMAIL-MAX254": [
    { what: "An address longer than 254 characters is accepted.", mutants: ["acct-in-email-unbounded"] },
  ],
  // 2.2 MUST: Mailbox create input `firstName` (string): required; an element without it is rejected.
  "ACCT-IN-FIRSTNAME-REQUIRED": [
    { what: "An element without firstName, or with one longer than 128 characters, is accepted.", mutants: ["acct-in-firstname-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `firstName`: max 128 chars; 128 is accepted and 129 is rejected.
  "ACCT-IN-FIRSTNAME-MAX128": [
    { what: "the bound counted in UTF-8 bytes where the profile declares characters: a value of the bound's length in \"é\" (twice as many bytes) is refused.", mutants: ["acct-in-maxlen-bytes"] },
    { what: "An element without firstName, or with one longer than 128 characters, is accepted.", mutants: ["acct-in-firstname-unchecked"] },
    { what: "The maximum is taken as exclusive: a firstName of 128 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `lastName` (string): required; an element without it is rejected.
  "ACCT-IN-LASTNAME-REQUIRED": [
    { what: "An element without lastName, or with one longer than 128 characters, is accepted.", mutants: ["acct-in-lastname-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `lastName`: max 128 chars; 128 is accepted and 129 is rejected.
  "ACCT-IN-LASTNAME-MAX128": [
    { what: "the bound counted in UTF-8 bytes where the profile declares characters: a value of the bound's length in \"é\" (twice as many bytes) is refused.", mutants: ["acct-in-maxlen-bytes"] },
    { what: "An element without lastName, or with one longer than 128 characters, is accepted.", mutants: ["acct-in-lastname-unchecked"] },
    { what: "The maximum is taken as exclusive: a lastName of 128 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `displayName` (string): not required; an element without it is accepted.
  "ACCT-IN-DISPLAYNAME-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without displayName.", mutants: ["acct-in-displayname-required"] },
  ],
  // 2.2 MUST: Mailbox create input `displayName`: max 128 chars; 128 is accepted and 129 is rejected.
  "ACCT-IN-DISPLAYNAME-MAX128": [
    { what: "the bound counted in UTF-8 bytes where the profile declares characters: a value of the bound's length in \"é\" (twice as many bytes) is refused.", mutants: ["acct-in-maxlen-bytes"] },
    { what: "A displayName longer than 128 characters is accepted.", mutants: ["acct-in-displayname-unbounded"] },
    { what: "The maximum is taken as exclusive: a displayName of 128 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: `displayName`: defaults to first name plus last name.
  "ACCT-IN-DISPLAYNAME-DEFAULT": [
    { what: "An omitted displayName stays empty.", mutants: ["acct-displayname-no-default"] },
    { what: "An omitted displayName is stored and answered null (the default name computed only when sending).", mutants: ["acct-displayname-null-unset"] },
  ],
  // 2.2 MUST: Mailbox create input `smtpHost` (string): required; an element without it is rejected.
  "ACCT-IN-SMTPHOST-REQUIRED": [
    { what: "An element without smtpHost, or with one longer than 255 characters, is accepted.", mutants: ["acct-in-smtphost-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `smtpHost`: max 255 chars; 255 is accepted and 256 is rejected.
  "ACCT-IN-SMTPHOST-MAX255": [
    { what: "An element without smtpHost, or with one longer than 255 characters, is accepted.", mutants: ["acct-in-smtphost-unchecked"] },
    { what: "The maximum is taken as exclusive: a smtpHost of 255 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `smtpPort` (number): required; an element without it is rejected.
  "ACCT-IN-SMTPPORT-REQUIRED": [
    { what: "An element without smtpPort, or with one outside 1 to 65535, is accepted.", mutants: ["acct-in-smtpport-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `smtpPort`: 1 to 65535; 1 and 65535 are accepted, 0 and 65536 are rejected.
  "ACCT-IN-SMTPPORT-RANGE": [
    { what: "An element without smtpPort, or with one outside 1 to 65535, is accepted.", mutants: ["acct-in-smtpport-unchecked"] },
    { what: "The range is taken as exclusive: smtpPort 1 or 65535 is refused.", mutants: ["acct-in-range-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `smtpUsername` (string): required; an element without it is rejected.
  "ACCT-IN-SMTPUSERNAME-REQUIRED": [
    { what: "An element without smtpUsername, or with one longer than 255 characters, is accepted.", mutants: ["acct-in-smtpusername-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `smtpUsername`: max 255 chars; 255 is accepted and 256 is rejected.
  "ACCT-IN-SMTPUSERNAME-MAX255": [
    { what: "the bound counted in UTF-8 bytes where the profile declares characters: a value of the bound's length in \"é\" (twice as many bytes) is refused.", mutants: ["acct-in-maxlen-bytes"] },
    { what: "An element without smtpUsername, or with one longer than 255 characters, is accepted.", mutants: ["acct-in-smtpusername-unchecked"] },
    { what: "The maximum is taken as exclusive: a smtpUsername of 255 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `smtpPassword` (string): required; an element without it is rejected.
  "ACCT-IN-SMTPPASSWORD-REQUIRED": [
    { what: "An element without smtpPassword, or with one longer than 1024 characters, is accepted.", mutants: ["acct-in-smtppassword-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `smtpPassword`: max 1024 chars; 1024 is accepted and 1025 is rejected.
  "ACCT-IN-SMTPPASSWORD-MAX1024": [
    { what: "the bound counted in UTF-8 bytes where the profile declares characters: a value of the bound's length in \"é\" (twice as many bytes) is refused.", mutants: ["acct-in-maxlen-bytes"] },
    { what: "An element without smtpPassword, or with one longer than 1024 characters, is accepted.", mutants: ["acct-in-smtppassword-unchecked"] },
    { what: "The maximum is taken as exclusive: a smtpPassword of 1024 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: `smtpPassword`: never returned (no response carries the value).
  "ACCT-IN-SMTPPASSWORD-NEVER-RETURNED": [
    { what: "Mailbox answers carry smtp.password (the decrypted SMTP password).", mutants: ["acct-password-returned"] },
    { what: "A failed verification reports the SMTP error with the login it tried, password included (verification result and statusMessage).", mutants: ["acct-verify-error-quotes-login"] },
  ],
  // 2.2 MUST: Mailbox create input `imapHost` (string): required; an element without it is rejected.
  "ACCT-IN-IMAPHOST-REQUIRED": [
    { what: "IMAP optional as a group: an element with no imap* field at all is created (imap null) though imapHost is required.", mutants: ["acct-in-imap-optional-as-group"] },
    { what: "An element without imapHost, or with one longer than 255 characters, is accepted.", mutants: ["acct-in-imaphost-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `imapHost`: max 255 chars; 255 is accepted and 256 is rejected.
  "ACCT-IN-IMAPHOST-MAX255": [
    { what: "An element without imapHost, or with one longer than 255 characters, is accepted.", mutants: ["acct-in-imaphost-unchecked"] },
    { what: "The maximum is taken as exclusive: a imapHost of 255 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `imapPort` (number): required; an element without it is rejected.
  "ACCT-IN-IMAPPORT-REQUIRED": [
    { what: "IMAP optional as a group: an element with no imap* field at all is created (imap null) though imapPort is required.", mutants: ["acct-in-imap-optional-as-group"] },
    { what: "An element without imapPort, or with one outside 1 to 65535, is accepted.", mutants: ["acct-in-imapport-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `imapPort`: 1 to 65535; 1 and 65535 are accepted, 0 and 65536 are rejected.
  "ACCT-IN-IMAPPORT-RANGE": [
    { what: "An element without imapPort, or with one outside 1 to 65535, is accepted.", mutants: ["acct-in-imapport-unchecked"] },
    { what: "The range is taken as exclusive: imapPort 1 or 65535 is refused.", mutants: ["acct-in-range-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `imapUsername` (string): required; an element without it is rejected.
  "ACCT-IN-IMAPUSERNAME-REQUIRED": [
    { what: "IMAP optional as a group: an element with no imap* field at all is created (imap null) though imapUsername is required.", mutants: ["acct-in-imap-optional-as-group"] },
    { what: "An element without imapUsername, or with one longer than 255 characters, is accepted.", mutants: ["acct-in-imapusername-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `imapUsername`: max 255 chars; 255 is accepted and 256 is rejected.
  "ACCT-IN-IMAPUSERNAME-MAX255": [
    { what: "the bound counted in UTF-8 bytes where the profile declares characters: a value of the bound's length in \"é\" (twice as many bytes) is refused.", mutants: ["acct-in-maxlen-bytes"] },
    { what: "An element without imapUsername, or with one longer than 255 characters, is accepted.", mutants: ["acct-in-imapusername-unchecked"] },
    { what: "The maximum is taken as exclusive: a imapUsername of 255 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `imapPassword` (string): required; an element without it is rejected.
  "ACCT-IN-IMAPPASSWORD-REQUIRED": [
    { what: "IMAP optional as a group: an element with no imap* field at all is created (imap null) though imapPassword is required.", mutants: ["acct-in-imap-optional-as-group"] },
    { what: "An element without imapPassword, or with one longer than 1024 characters, is accepted.", mutants: ["acct-in-imappassword-unchecked"] },
  ],
  // 2.2 MUST: Mailbox create input `imapPassword`: max 1024 chars; 1024 is accepted and 1025 is rejected.
  "ACCT-IN-IMAPPASSWORD-MAX1024": [
    { what: "the bound counted in UTF-8 bytes where the profile declares characters: a value of the bound's length in \"é\" (twice as many bytes) is refused.", mutants: ["acct-in-maxlen-bytes"] },
    { what: "An element without imapPassword, or with one longer than 1024 characters, is accepted.", mutants: ["acct-in-imappassword-unchecked"] },
    { what: "The maximum is taken as exclusive: a imapPassword of 1024 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: `imapPassword`: never returned (no response carries the value).
  "ACCT-IN-IMAPPASSWORD-NEVER-RETURNED": [
    { what: "Mailbox answers carry imap.password (the decrypted IMAP password).", mutants: ["acct-imap-password-returned"] },
    { what: "A failed verification reports the IMAP error with the login it tried, password included.", mutants: ["acct-verify-imap-error-quotes-login"] },
  ],
  // 2.2 MUST: Mailbox create input `imapAllowInvalidCert` (boolean): not required; an element without it is accepted.
  "ACCT-IN-IMAPALLOWINVALIDCERT-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without imapAllowInvalidCert.", mutants: ["acct-in-imapallowinvalidcert-required"] },
  ],
  // 2.2 MUST: `imapAllowInvalidCert`: accept a self-signed IMAP certificate.
  "ACCT-IN-IMAPALLOWINVALIDCERT-BEHAVIOUR": [
    { what: "imapAllowInvalidCert is ignored: a self-signed IMAP certificate always fails verification.", mutants: ["acct-imap-invalid-cert-ignored"] },
    { what: "The flag is taken at create only: set true by PATCH, the mailbox keeps refusing the self-signed certificate.", mutants: ["acct-patch-allowinvalidcert-ignored"] },
    { what: "The flag is honoured by the verification only: the inbox poll that ingests replies refuses the self-signed certificate.", gap: "named by a self-audit of unaudited clauses: no check ingests a reply from a mailbox on the IMAP sink's self-signed port (EMAIL/* read the plain port); a reply to a campaign step of such a mailbox, read in the inbox listing, would show it at the cost of an IMAP poll wait" },
  ],
  // 2.2 MUST: Mailbox create input `maxEmailsPerDay` (number): not required; an element without it is accepted.
  "ACCT-IN-MAXEMAILSPERDAY-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without maxEmailsPerDay.", mutants: ["acct-in-maxemailsperday-required"] },
  ],
  // 2.2 MUST: Mailbox create input `maxEmailsPerDay`: 1 to 200; 1 and 200 are accepted, 0 and 201 are rejected.
  "ACCT-IN-MAXEMAILSPERDAY-RANGE": [
    { what: "maxEmailsPerDay 201 is accepted.", mutants: ["acct-bounds-maxemails-201"] },
    { what: "maxEmailsPerDay 0 is accepted (read as \"no cap\").", mutants: ["acct-bounds-maxemails-zero"] },
  ],
  // 2.2 MUST: Mailbox create input `sendingGapMinutes` (number): not required; an element without it is accepted.
  "ACCT-IN-SENDINGGAP-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without sendingGapMinutes.", mutants: ["acct-in-sendinggap-required"] },
  ],
  // 2.2 MUST: Mailbox create input `sendingGapMinutes`: 1 to 300; 1 and 300 are accepted, 0 and 301 are rejected.
  "ACCT-IN-SENDINGGAP-RANGE": [
    { what: "A sendingGapMinutes outside 1 to 300 is accepted.", mutants: ["acct-in-sendinggap-unbounded"] },
    { what: "The range is taken as exclusive: sendingGapMinutes 1 or 300 is refused.", mutants: ["acct-in-range-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `campaignSlowRamp` (boolean): not required; an element without it is accepted.
  "ACCT-IN-SLOWRAMP-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without campaignSlowRamp.", mutants: ["acct-in-slowramp-required"] },
  ],
  // 2.2 MUST: Mailbox create input `signature` (string): not required; an element without it is accepted.
  "ACCT-IN-SIGNATURE-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without signature.", mutants: ["acct-in-signature-required"] },
  ],
  // 2.2 MUST: `signature`: HTML, sanitized on save (script content given does not come back).
  "ACCT-IN-SIGNATURE-SANITIZED": [
    { what: "The signature is stored and returned as sent (<script>, on* handlers, javascript: URLs kept).", mutants: ["acct-signature-unsanitized"] },
    { what: "The signature is appended with its HTML entities decoded: markup the sanitizer kept as text (&lt;script&gt;) reaches the email as tags.", mutants: ["send-signature-entities-decoded"] },
    { what: "The signature is sanitized in what the API answers, but the email carries it as given (<script>, on* handlers, javascript: URLs).", mutants: ["send-signature-raw"] },
    { what: "Sanitized at render only: the email is clean, but the signature is stored and answered as given (<script> comes back).", mutants: ["acct-signature-sanitized-at-send"] },
    { what: "The sanitizer is called in the create handler only: a signature given by PATCH is stored and answered as given.", mutants: ["acct-signature-patch-unsanitized"] },
  ],
  // 2.2 MUST: Mailbox create input `bcc` (string): not required; an element without it is accepted.
  "ACCT-IN-BCC-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without bcc.", mutants: ["acct-in-bcc-required"] },
  ],
  // 2.2 MUST: Mailbox create input `bcc`: max 254 chars; 254 is accepted and 255 is rejected.
  "ACCT-IN-BCC-MAX254": [
    { what: "A bcc address longer than 254 characters is accepted.", mutants: ["acct-in-bcc-unbounded"] },
    { what: "The maximum is taken as exclusive: a bcc of 254 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: Mailbox create input `replyToAddress` (string): not required; an element without it is accepted.
  "ACCT-IN-REPLYTO-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without replyToAddress.", mutants: ["acct-in-replyto-required"] },
  ],
  // 2.2 MUST: Mailbox create input `replyToAddress`: max 254 chars; 254 is accepted and 255 is rejected.
  "ACCT-IN-REPLYTO-MAX254": [
    { what: "A replyToAddress longer than 254 characters is accepted.", mutants: ["acct-in-replyto-unbounded"] },
    { what: "The maximum is taken as exclusive: a replyToAddress of 254 characters is refused.", mutants: ["acct-in-max-length-exclusive"] },
  ],
  // 2.2 MUST: `replyToAddress`: omit to reply to the mailbox itself.
  "ACCT-IN-REPLYTO-OMIT-SELF": [
    { what: "An omitted replyToAddress defaults to `noreply@` the mailbox domain.", mutants: ["acct-replyto-default-noreply"] },
    { what: "The mail of a mailbox without replyToAddress carries a Reply-To of the service's own (reply tracking); the answer shows none.", mutants: ["send-replyto-service-default"] },
  ],
  // 2.2 MUST: Mailbox create input `automationLanguage`: not required.
  "ACCT-IN-AUTOLANG-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without automationLanguage.", mutants: ["acct-in-autolang-required"] },
  ],
  // 2.2 MUST: Mailbox create input `automationLanguage`: enum, values of 2.1; any other value is rejected.
  "ACCT-IN-AUTOLANG-ENUM": [
    { what: "automationLanguage is compared case-insensitively: `EN` is accepted (and stored `en`).", mutants: ["acct-in-autolang-case-folded"] },
    { what: "Validated as any ISO 639-1 code: `sw`, not listed in 2.1, is accepted.", mutants: ["acct-in-autolang-iso639-any"] },
    { what: "Validated against a library's older list: `he` refused (Hebrew is `iw` there).", mutants: ["acct-in-autolang-old-codes"] },
  ],
  // 2.2 MUST: Mailbox create input `tracking`: not required.
  "ACCT-IN-TRACKING-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without tracking.", mutants: ["acct-in-tracking-required"] },
  ],
  // 2.2 MUST: Mailbox create input `tracking`: object with `domainId` (uuid); a non-uuid domainId is rejected.
  "ACCT-IN-TRACKING-DOMAINID": [
    { what: "accounts.create coerces tracking (drop-bad-domain) and accepts the request.", mutants: ["acct-in-tracking-coerced"] },
  ],
  // 2.2 MUST: Mailbox create input `warmup`: object, not required.
  "ACCT-IN-WARMUP-OPTIONAL": [
    { what: "accounts.create refuses (400) a request without warmup.", mutants: ["acct-in-warmup-required"] },
  ],
  // 2.2 MUST: `warmup` omitted means defaults are accepted and warmup is ON (`warmup.enabled` is true).
  "ACCT-IN-WARMUP-DEFAULT-ON": [
    { what: "An omitted warmup gives warmup.enabled false.", mutants: ["acct-warmup-off-default"] },
  ],
  // 2.2 PROFILE: Defaults of optional mailbox fields other than displayName and warmup: not shown (the profile declares them; the check holds the target to its declara
  "ACCT-IN-DEFAULTS-PROFILE": [
    { what: "An omitted maxEmailsPerDay defaults to 100, not the declared 50.", mutants: ["acct-default-maxemails-changed"] },
    { what: "The create answer shows the declared default, but the mailbox stores another (two sources of defaults): read back it differs.", mutants: ["acct-default-stored-other"] },
  ],
  // 2.3 MUST: Writable fields: `enabled` (boolean), `strategy` (string; value seen: `standard`), `maxPerDay` (number), `replyRatePercentage` (number), `rampupEnable
  "WARMUP-WRITABLE-TYPES": [
    { what: "warmup.maxPerDay is a string.", mutants: ["acct-answer-warmup-maxperday-string"] },
    { what: "A switched-off warmup answers its numbers null (\"not warming\").", mutants: ["warmup-off-numbers-null"] },
  ],
  // 2.3 MUST: Writable fields: a value given at create or by PATCH is stored and reported back in `warmup`.
  "WARMUP-WRITABLE": [
    { what: "warmup.rampupEnabled and warmup.trackingEnabled given at create or by PATCH are dropped (the warmup keeps its defaults).", mutants: ["warmup-flags-ignored"] },
    { what: "The numeric warmup fields (maxPerDay, replyRatePercentage, dailyRampup, randomizer) given at create or by PATCH are validated but dropped.", mutants: ["warmup-numbers-ignored"] },
    { what: "Only at create: the warmup values given are dropped (PATCH keeps them); or a PATCH answer echoes values that are not stored.", mutants: ["warmup-create-values-dropped", "warmup-patch-answer-not-stored"] },
  ],
  // 2.3 MUST: Read-only fields: `phase` (string; value seen: `warming_up`), `startedAt` (timestamp), `poolAccess` (string; value seen: `free`).
  "WARMUP-READONLY-TYPES": [
    { what: "warmup.phase is a number.", mutants: ["acct-answer-warmup-phase-number"] },
    { what: "warmup.startedAt, written when warmup really starts (the mailbox verified active), is epoch milliseconds; a pending mailbox shows it right.", mutants: ["warmup-startedat-epoch-active"] },
    { what: "warmup.startedAt written by a third writer, a warmup restarted by PATCH (off, then { enabled: true }), is epoch milliseconds.", mutants: ["acct-warmup-restart-startedat-epoch"] },
  ],
  // 2.3 MUST: Read-only fields `phase`, `startedAt`, `poolAccess`: a client write does not change them.
  "WARMUP-READONLY": [
    { what: "A warmup object sent at create or by PATCH overwrites phase, startedAt and poolAccess.", mutants: ["warmup-readonly-writable"] },
    { what: "Only at create: the input's warmup is spread over the defaults, read-only fields too (PATCH ignores them).", mutants: ["warmup-readonly-writable-at-create"] },
  ],
  // 2.3 PROFILE: Allowed values of strategy, phase and poolAccess: not shown (profile).
  "WARMUP-VALUES-PROFILE": [
    { what: "A new warmup answers poolAccess \"paid\", outside the declared values.", mutants: ["warmup-pool-access-undeclared"] },
    { what: "A switched-off warmup says a phase outside the declared values (`off`); a warming-up one is right.", mutants: ["warmup-phase-off-undeclared"] },
  ],
  // 2.3 PROFILE: The bounds and defaults of warmup fields: not shown (profile).
  "WARMUP-BOUNDS-PROFILE": [
    { what: "warmup.maxPerDay accepts any whole number.", mutants: ["warmup-bounds-unchecked"] },
    { what: "The declared bounds are held on PATCH only: a create (its own validator) accepts a warmup number past them.", mutants: ["warmup-bounds-unchecked-at-create"] },
  ],
  // 2.4 MUST: In the mailbox object: `verification.overallStatus` (string; value seen: `pending`).
  "VERIF-MAILBOX-OVERALL": [
    { what: "The mailbox's verification has no overallStatus.", mutants: ["acct-answer-verification-no-overall"] },
    { what: "Once a background verification ran, the object says `status` (the verification record's name) instead of overallStatus.", mutants: ["acct-verified-overall-renamed"] },
  ],
  // 2.4 MUST: In the mailbox object: `verification.smtp` and `verification.imap` (strings; values seen: `active`, `not_checked`).
  "VERIF-MAILBOX-SMTP-IMAP": [
    { what: "The mailbox's verification has no imap.", mutants: ["acct-answer-verification-no-imap"] },
    { what: "Once a background verification ran, smtp and imap are the verification endpoint's { status, error } objects, not strings.", mutants: ["acct-verified-smtp-imap-objects"] },
  ],
  // 2.4 MUST: In the mailbox object: `verification.dns.mx|spf|dkim|dmarc` (strings; value seen: `not_checked`).
  "VERIF-MAILBOX-DNS": [
    { what: "The verification object of a mailbox has no dns.", mutants: ["acct-verification-no-dns"] },
    { what: "Once a background verification ran, dns is null (no lookup result).", mutants: ["acct-verified-dns-null"] },
  ],
  // 2.4 MUST: The verification endpoint returns `overallStatus`.
  "VERIF-ENDPOINT-OVERALL": [
    { what: "The verification endpoint answers no overallStatus.", mutants: ["acct-answer-verif-no-overall"] },
    { what: "Once a verification ran (the stored record's serializer), the overall outcome is answered as `status`, not overallStatus.", mutants: ["verif-ran-overall-as-status"] },
  ],
  // 2.4 MUST: The verification endpoint returns `smtp` (`status`, `error`).
  "VERIF-ENDPOINT-SMTP": [
    { what: "The verification endpoint answers no smtp.", mutants: ["acct-answer-verif-no-smtp"] },
    { what: "After a successful verification, smtp without its error key (written only when set).", mutants: ["verif-endpoint-ok-error-omitted"] },
    { what: "After a successful verification, smtp as the status string (the mailbox view's form).", mutants: ["verif-endpoint-ok-status-string"] },
  ],
  // 2.4 MUST: The verification endpoint returns `imap` (`status`, `error`).
  "VERIF-ENDPOINT-IMAP": [
    { what: "The verification endpoint answers no imap.", mutants: ["acct-answer-verif-no-imap"] },
    { what: "After a verification whose SMTP check failed (IMAP never tried), imap is null or left out.", mutants: ["verif-failed-imap-null", "verif-failed-imap-omitted"] },
    { what: "After a successful verification, imap as the status string (the mailbox view's form).", mutants: ["verif-endpoint-ok-imap-status-string"] },
  ],
  // 2.4 MUST: The verification endpoint returns `dns` (object).
  "VERIF-ENDPOINT-DNS": [
    { what: "The verification endpoint answers no dns.", mutants: ["acct-answer-verif-no-dns"] },
    { what: "A pending mailbox's verification endpoint answers `dns: null` (no DNS check ran yet); after a verification it is an object.", gap: "named by a self-audit of unaudited clauses: the only reader of a pending mailbox's endpoint, ACCT-VERIF/shape, runs at full only; ACCT-CREATE/shape could GET /v1/accounts/{id}/verification of its mailbox (unreachable servers, so still pending) and hold dns an object (+1 request), with a mutant answering dns null while pending" },
  ],
  // 2.4 MUST: The verification endpoint returns `lastVerifiedAt` (timestamp).
  "VERIF-ENDPOINT-LASTVERIFIEDAT": [
    { what: "The verification endpoint answers no lastVerifiedAt.", mutants: ["acct-answer-verif-no-lastverifiedat"] },
  ],
  // 2.5 MUST: Campaign `id`: uuid.
  "CAMP-ID-UUID": [
    { what: "Campaign ids are answered as `camp_<uuid>`.", mutants: ["camp-answer-id-not-uuid"] },
  ],
  // 2.5 MUST: Campaign `name`: string.
  "CAMP-NAME-STRING": [
    { what: "A campaign name is answered as `{ text }`.", mutants: ["camp-answer-name-object"] },
  ],
  // 2.5 MUST: Campaign `name`: must not be empty (an empty name is rejected).
  "CAMP-NAME-NONEMPTY": [
    { what: "POST /v1/campaigns accepts name \"\".", mutants: ["camp-empty-name-accepted"] },
  ],
  // 2.5 MUST: Campaign `status`: enum `draft`, `scheduled`, `active`, `paused`, `stopped`, `completed`, `failed`.
  "CAMP-STATUS-ENUM": [
    { what: "A draft campaign says status `new`.", mutants: ["camp-answer-status-unlisted"] },
    { what: "An active campaign says status `running` (a display name off the enum) while drafts say `draft`: the create answer shows only a draft.", mutants: ["camp-answer-listitem-status-running"] },
    { what: "The status view names an active campaign `running` and a paused one `on_hold`; drafts stay `draft`.", mutants: ["camp-answer-status-view-running"] },
  ],
  // 2.5 MUST: Campaign `schedule`: object: `timezone` (IANA string), `sendingDays` (array of integers), `sendingMinutesStart` (integer), `sendingMinutesEnd` (intege
  "CAMP-SCHEDULE-FIELDS": [
    { what: "schedule.sendingDays is a comma-separated string.", mutants: ["camp-answer-sendingdays-string"] },
    { what: "startDate and endDate are answered in SQL DATETIME form (\"2031-01-10 09:30:15\": no T, no zone).", mutants: ["camp-schedule-dates-sql"] },
  ],
  // 2.5 PROFILE: `sendingDays` is an array of integers; their numbering (which integer is which weekday) is among the campaign create details not shown (profile).
  "CAMP-SCHEDULE-DAYS-PROFILE": [
    { what: "sendingDays are read one weekday off the declared numbering (a Monday-first week under a Sunday-first declaration), written back as given.", mutants: ["camp-sending-days-shifted"] },
  ],
  // 2.5 MUST: Campaign `settings`: object: `trackOpens`, `trackClicks`, `sendAsTextOnly`, `stopOnReply` (all boolean).
  "CAMP-SETTINGS-FIELDS": [
    { what: "settings.trackOpens is a string.", mutants: ["camp-answer-trackopens-string"] },
    { what: "A campaign created without settings gets partial defaults (trackOpens and trackClicks only; sendAsTextOnly and stopOnReply missing).", mutants: ["camp-default-settings-partial"] },
  ],
  // 2.5 PROFILE: How opens and clicks are tracked when `trackOpens`/`trackClicks` is true is not given (profile: declarations.tracking): a declared open pixel is in th
  "CAMP-SETTINGS-TRACKING-PROFILE": [
    { what: "The click redirect leads to the link without its query string (its utm parameters lost).", mutants: ["send-click-redirect-drops-query"] },
    { what: "Only the first link of an email is rewritten (a replace without its global flag): later links go out untracked.", mutants: ["send-click-rewrite-first-only"] },
    { what: "A fetched open pixel counts on the lead only: the campaign's metrics.opens stays 0.", mutants: ["send-open-campaign-uncounted"] },
  ],
  // 2.5 MUST: Campaign `metrics`: object: `leadsCount`, `sent`, `opens`, `clicks`, `replies` (integers).
  "CAMP-METRICS-FIELDS": [
    { what: "The status view answers the metrics as strings.", mutants: ["camp-metrics-strings"] },
    { what: "A started campaign's metrics (a live view; a draft's are zeros from the campaign row) carry the lead's names (opened, clicked, replied).", mutants: ["camp-status-started-metrics-lead-names"] },
  ],
  // 2.5 MUST: Campaign `tags`: array of tag.
  "CAMP-TAGS-ARRAY": [
    { what: "The Campaign object of a tagged campaign (the PATCH answer, another serializer) carries its tags as a JSON-encoded string; list items are right.", mutants: ["camp-answer-patch-tags-json"] },
    { what: "A campaign answers its tags as one comma-separated string.", mutants: ["camp-tags-string"] },
  ],
  // 2.5 MUST: Campaign `createdAt`: timestamp.
  "CAMP-CREATEDAT-TS": [
    { what: "A campaign answers createdAt and updatedAt as epoch milliseconds.", mutants: ["camp-timestamps-epoch"] },
    { what: "A campaign answers `created_at` instead of `createdAt`.", mutants: ["camp-answer-createdat-snake-case"] },
    { what: "The PATCH answer, read back from the store, carries createdAt as epoch milliseconds (or an SQL DATETIME) while the create answer (the object in memory) is right.", mutants: ["camp-answer-patch-createdat-epoch"] },
  ],
  // 2.5 MUST: Campaign `updatedAt`: timestamp.
  "CAMP-UPDATEDAT-TS": [
    { what: "A campaign answers createdAt and updatedAt as epoch milliseconds.", mutants: ["camp-timestamps-epoch"] },
    { what: "A campaign PATCH answers the updatedAt it rewrote (by the database) in SQL DATETIME form.", mutants: ["camp-patch-updatedat-sql"] },
  ],
  // 2.5 MUST: Campaign `sequence`: array; steps: `subject` (string), `body` (HTML string), `delayDays` (integer), `delayHours` (integer).
  "CAMP-SEQUENCE-STEPS": [
    { what: "A step delayDays is a string.", mutants: ["camp-answer-delaydays-string"] },
  ],
  // 2.5 MUST: Subject and body may hold merge variables written with double braces, such as company name and first name (they are accepted and stored as given).
  "CAMP-SEQUENCE-MERGE-ACCEPTED": [
    { what: "Merge variables are stripped from stored subjects.", mutants: ["camp-answer-merge-dropped"] },
  ],
  // 2.5 PROFILE: Merge variables such as company name and first name are replaced by the lead's values in the email sent; their exact names are not given (profile: dec
  "CAMP-SEQUENCE-MERGE-RENDERED": [
    { what: "Merge variables render empty instead of the lead's values.", mutants: ["send-merge-unrendered"] },
    { what: "a rendering cached per step: every later lead gets the first lead's values.", mutants: ["send-merge-cached-per-step"] },
    { what: "the body renders the firstName variable empty (the subject carries it).", mutants: ["send-merge-body-firstname-empty"] },
  ],
  // 2.5 PROFILE: What a merge variable the target does not know renders to is not given (profile: declarations.unknownMergeVariable, `empty` or `verbatim`).
  "CAMP-SEQUENCE-UNKNOWN-VARIABLE-PROFILE": [
    { what: "a subject rendered by another path leaves an unknown {{variable}} as written where the declared reading is empty (or renders it to nothing where it is as written); the body as declared.", mutants: ["send-unknown-variable-subject-other"] },
    { what: "An unknown merge variable renders to the fallback word \"there\" where the declared reading is empty.", mutants: ["send-unknown-variable-fallback"] },
  ],
  // 2.5 MUST: A step's `delayDays` and `delayHours` are its delay: the second step goes to a lead no sooner than its days and hours after the first went to that lea
  "CAMP-SEQUENCE-DELAY": [
    { what: "Every step is sent as soon as the previous one went.", mutants: ["send-step-delay-ignored"] },
    { what: "A step waits its delayDays only: its delayHours are ignored.", mutants: ["send-delay-hours-ignored"] },
    { what: "A step's delay is counted from the campaign's first send, not from the step before to that lead.", mutants: ["send-delay-from-campaign-start"] },
  ],
  // 2.5 MUST: Campaign `accounts`: array of uuid, ids of sending mailboxes.
  "CAMP-ACCOUNTS-UUIDS": [
    { what: "A campaign created without mailboxes answers accounts null (a nullable column), not [].", mutants: ["camp-accounts-null-when-none"] },
    { what: "The PATCH answer (the flat campaign, another serializer) gives accounts as `{ id }` objects.", mutants: ["camp-patch-accounts-objects"] },
    { what: "Campaign accounts are `{ id }` objects.", mutants: ["camp-answer-accounts-objects"] },
  ],
  // 2.5 PROFILE: Required fields and bounds of the campaign create fields: not shown (profile).
  "CAMP-CREATE-REQUIRED-PROFILE": [
    { what: "POST /v1/campaigns without a name creates a campaign.", mutants: ["camp-name-optional"] },
  ],
  // 2.5 MUST: Campaign list item: `id`, `name`, `status`, `leadsCount`, `tags`, `createdAt`.
  "CAMP-LISTITEM-FIELDS": [
    { what: "Campaign list items carry no leadsCount.", mutants: ["camp-answer-listitem-no-leadscount"] },
    { what: "Campaign list items say `running` for an active campaign.", mutants: ["camp-answer-listitem-status-running"] },
    { what: "Campaign list items carry their tags as tag ids (a list query joining the link table only); untagged campaigns show [] either way.", mutants: ["camp-listitem-tags-ids"] },
  ],
  // 2.5 MUST: Campaign status view: `id`, `status`, `isWithinSchedule` (boolean), `metrics` (as above), `nextScheduleOpensAt` (timestamp or null).
  "CAMP-STATUS-FIELDS": [
    { what: "The status view has no isWithinSchedule.", mutants: ["camp-answer-status-no-withinschedule"] },
    { what: "A started campaign's status view carries metrics under the lead's names (opened, clicked, replied).", mutants: ["camp-status-started-metrics-lead-names"] },
    { what: "nextScheduleOpensAt, where it is set (an active campaign outside its window), is epoch milliseconds (or an SQL DATETIME); null elsewhere, so only that view shows it.", mutants: ["camp-answer-status-nextopens-epoch"] },
  ],
  // 2.5 MUST: `isWithinSchedule`: true inside the sending window, false outside it.
  "CAMP-STATUS-WITHINSCHEDULE": [
    { what: "isWithinSchedule reads the sending days and minutes in UTC, ignoring schedule.timezone.", mutants: ["camp-within-schedule-utc"], gap: "what the window is (minutes after midnight in schedule.timezone) is a reading the spec does not state: only the SHOULD check CAMP-STATUS/window (CAMP-STATUS-WITHINSCHEDULE-CLOCK) holds it, no MUST check can" },
    { what: "isWithinSchedule says the opposite of the window.", mutants: ["camp-answer-withinschedule-inverted"] },
    { what: "isWithinSchedule is true whenever the campaign is active (never false for an active campaign outside its days).", mutants: ["camp-within-schedule-is-active"] },
  ],
  // 2.5 MUST: `nextScheduleOpensAt` is null when in-window.
  "CAMP-STATUS-NEXTOPENS-NULL-INWINDOW": [
    { what: "nextScheduleOpensAt carries the next opening even in-window or when the campaign is not active.", mutants: ["camp-next-opens-always-set"] },
    { what: "The status view omits nextScheduleOpensAt instead of answering null.", mutants: ["camp-answer-nextopens-omitted"] },
  ],
  // 2.5 MUST: `nextScheduleOpensAt` is null when not active.
  "CAMP-STATUS-NEXTOPENS-NULL-INACTIVE": [
    { what: "nextScheduleOpensAt carries the next opening even in-window or when the campaign is not active.", mutants: ["camp-next-opens-always-set"] },
    { what: "nextScheduleOpensAt is guarded by `status !== 'draft'` instead of active: a paused campaign outside its window reports its next opening.", mutants: ["camp-next-opens-unless-draft"] },
    { what: "The status view omits nextScheduleOpensAt instead of answering null.", mutants: ["camp-answer-nextopens-omitted"] },
  ],
  // 2.6 MUST: Lead `id`: uuid.
  "LEAD-ID-UUID": [
    { what: "Lead ids are answered with a type prefix.", mutants: ["lead-answer-id-not-uuid"] },
  ],
  // 2.6 MUST: Lead `email`: string.
  "LEAD-EMAIL-STRING": [
    { what: "A lead email is answered as `{ address }`.", mutants: ["lead-answer-email-object"] },
    { what: "The lead listing (its own serializer) answers email as `{ address }`; the PATCH answer is right.", mutants: ["lead-answer-list-email-object"] },
  ],
  // 2.6 MUST: Lead `firstName`, `lastName`, `companyName`, `jobTitle`, `website`, `linkedinProfile`, `location`: string.
  "LEAD-TEXT-FIELDS": [
    { what: "A lead companyName is answered as a company object `{ name }`.", mutants: ["lead-answer-companyname-object"] },
    { what: "Leads answer `company_name` instead of `companyName`.", mutants: ["lead-answer-companyname-snake-case"] },
    { what: "The lead listing answers companyName as `{ name }` (a joined company table); the PATCH answer is right.", mutants: ["lead-answer-list-companyname-object"] },
  ],
  // 2.6 MUST: Lead `tags`: array of string.
  "LEAD-TAGS-STRINGS": [
    { what: "Lead tags are answered as one comma-separated string.", mutants: ["lead-answer-tags-string"] },
    { what: "The lead listing answers tags as objects (a join on a tags table); the PATCH answer is right.", mutants: ["lead-answer-list-tags-objects"] },
  ],
  // 2.6 MUST: Lead `customFields`: object (name to value).
  "LEAD-CUSTOMFIELDS-OBJECT": [
    { what: "Lead customFields are answered as a JSON-encoded string (a text column as stored).", mutants: ["lead-answer-customfields-json"] },
    { what: "The lead listing answers customFields as the stored JSON text (a string) or as `[{ name, value }]` rows, while the PATCH answer is right.", gap: "named by a self-audit of unaudited clauses: LEAD-PATCH/fields reads the PATCH answer only, and the listing is read at default only by checks that set no custom fields; it could list the lead after its PATCH (one request) and apply the Lead schema with the values compared (the same read closes the LEAD-TEXT-FIELDS gap), with a family mutant on op('leads.list', 'data[]') customFields 'json'" },
  ],
  // 2.6 MUST: Update also accepts `customFieldLabels` and `customFieldTypes` objects.
  "LEAD-CUSTOMFIELD-LABELS-TYPES": [
    { what: "A lead PATCH holding customFieldLabels or customFieldTypes is refused (400): the body schema lists only the lead's own fields.", mutants: ["lead-patch-labels-refused"] },
  ],
  // 2.6 MUST: Lead `status`: string; values in part 3.
  "LEAD-STATUS-STRING": [
    { what: "A lead status is answered as `{ value }`.", mutants: ["lead-answer-status-object"] },
    { what: "The lead listing answers status as `{ value }`; the PATCH answer is right.", mutants: ["lead-answer-list-status-object"] },
  ],
  // 2.6 PROFILE: Lead `status` of a lead never contacted (seen: `not_contacted`; lead status values beyond part 3: not shown): the profile declares it (declarations.ne
  "LEAD-STATUS-NEW": [
    { what: "A new lead gets the status `new_lead`, not the one chosen (and declared).", mutants: ["lead-new-status-other"] },
  ],
  // 2.6 MUST: Lead `metrics`: object: `sent`, `opened`, `clicked`, `replied` (integers).
  "LEAD-METRICS-OBJECT": [
    { what: "Lead metrics use the campaign metrics names (`opens` for `opened`).", mutants: ["lead-answer-metrics-campaign-names"] },
    { what: "The lead listing answers metrics counts as strings (a COUNT the listing query answers as text); the PATCH answer is right.", mutants: ["lead-answer-list-metrics-strings"] },
  ],
  // 2.6 MUST: Lead `sequenceProgress`: object: `totalSteps`, `sentCount`, `plannedCount`, `failedCount` (integers).
  "LEAD-SEQPROGRESS-COUNTS": [
    { what: "Lead sequenceProgress.totalSteps is a string.", mutants: ["lead-answer-progress-strings"] },
  ],
  // 2.6 MUST: Lead `sequenceProgress.nextPlannedAt` (timestamp).
  "LEAD-SEQPROGRESS-NEXTPLANNEDAT": [
    { what: "A lead with no step planned yet answers sequenceProgress.nextPlannedAt as an empty string (not a timestamp; the reference omits it).", mutants: ["lead-nextplannedat-empty"] },
    { what: "A lead whose next step is planned (a started campaign, its first step sent) answers nextPlannedAt as epoch milliseconds or an SQL DATETIME.", gap: "not asked at default: the claiming checks read leads of draft campaigns only (nothing planned, the field absent); a claimant must read a lead of a started two-step campaign after its first step, e.g. SEND/sequence-delay listing its leads once both first steps went (one request; it would make every 2.6 mutant's kill-matrix row stale)" },
  ],
  // 2.6 MUST: Lead `createdAt`, `lastContactedAt`, `lastRepliedAt`: timestamp.
  "LEAD-TIMESTAMPS": [
    { what: "A lead createdAt is epoch milliseconds.", mutants: ["lead-answer-createdat-epoch"] },
    { what: "A contacted lead answers lastContactedAt as epoch milliseconds.", mutants: ["lead-answer-lastcontactedat-epoch"] },
    { what: "A lead that replied answers lastRepliedAt as epoch milliseconds (no claimant read a replied lead).", mutants: ["lead-answer-lastrepliedat-epoch"] },
  ],
  // 2.6 PROFILE: Sets of verification status and subStatus values and of lead status values other than those in part 3: not shown (profile).
  "LEAD-VALUES-PROFILE": [
    { what: "A lead sent a step takes another status than the one the profile names after a send (declarations.sending.leadStatusAfterSend).", mutants: ["send-lead-status-after-send-undeclared"] },
    { what: "A lead whose reply is read takes another status than the one the profile names after a reply (declarations.sending.leadStatusAfterReply): lead_replied_uncategorized.", mutants: ["send-lead-reply-moves-undeclared"] },
    { what: "A new lead gets the status `new_lead`, not the one chosen (and declared).", mutants: ["lead-new-status-other"] },
  ],
  // 2.6 MUST: Lead search hit (cross-campaign search): `id`, `email`, `campaignId`, `campaignName`, `firstName`, `lastName`.
  "LEADHIT-FIELDS": [
    { what: "Search hits have no campaignName.", mutants: ["lead-search-hit-no-campaign-name"] },
    { what: "Search hits carry the name as one `name`, without firstName and lastName.", mutants: ["lead-search-hit-one-name"] },
  ],
};
