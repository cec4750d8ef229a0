// Clauses no check can prove from outside the target: what the API, the mail it sends and the
// mail it reads never show, "not shown" items that leave a target nothing of its own to be held
// to (no profile field, any answer accepted), and rules for clients rather than targets. They
// stay "not covered" on purpose; the report gives each reason.

export const UNOBSERVABLE: Readonly<Record<string, string>> = {
  'ACCT-AUTOLANG-BEHAVIOUR': 'no endpoint returns auto-generated content, so its language cannot be read',
  'ACCT-IN-SMTPPASSWORD-ENCRYPTED': 'storage at rest is not visible over the wire (the kit checks that passwords are never returned)',
  'ACCT-IN-IMAPPASSWORD-ENCRYPTED': 'storage at rest is not visible over the wire (the kit checks that passwords are never returned)',
  'VERIF-VALUES-PROFILE': 'the sets of verification status values (overallStatus, smtp, imap, dns) are not shown and the profile has no field for them, so a target has no declared set to be held to; their types are checked under VERIF-MAILBOX-* and VERIF-ENDPOINT-*, the mailbox status a verification gives under STATE-ACCT-VERIFY-MAPPING-PROFILE',
  'ACCT-STATUSMESSAGE-NULL-SERVICE-SIDE': 'a failure inside the service cannot be provoked from outside without a mutant of the target',
  'LIMIT-ACCOUNTS-PER-WORKSPACE': '"no limit" cannot be proved by a finite number of mailboxes',
  'EVT-NOT-SHOWN': 'part 6 shows no events, webhooks or callbacks and the profile has no field for any a target offers, so there is none to subscribe to or wait for: outcomes are observed by polling (EVT-POLLING)',
  'RATE-CLIENT-BACKOFF': "a rule for clients, not for the target: the kit's own client backs off exponentially on a repeated 429 (Retry-After, then at least 2 s, 4 s, 8 s..., up to 60 s); what the target answers meanwhile is checked under RATE-429 and RATE-RECOVERS",
  'LEAD-VERIFICATION-OBJECT': "a lead's email verification and its provider are the platform's own findings, which nothing from outside can make a target produce; where a lead shows them, the lead schema types them (LEAD-SHAPE)",
  'LEAD-PROVIDER-STRING': "a lead's provider is the platform's own finding (seen `google`), which nothing from outside can make a target produce; where a lead shows one, the lead schema types it (LEAD-SHAPE)",
  'STATE-LF-TRANSITIONS-PROFILE': 'the transitions between lead search states are not shown, and over the wire a search moves only when the kit\'s control API moves it: a table would hold the kit\'s own moves, not the target\'s (the lead search model holds the stated invariants, STATE-LF-*)',
  'LIMIT-QUOTAS': "plan quota values are each workspace's plan's and the profile has no field for them: the kit reads quotas from GET /v1/usage/{limitType} (or sets them through the control API), assuming no value; the size limit of a campaign create's leads list is declared apart (declarations.campaignCreateMaxLeads, LIMIT-CAMPAIGN-LEADS-PROFILE)",
};
