// Clauses no check can prove from outside the target: what the API, the mail it sends and the
// mail it reads never show. They stay "not covered" on purpose; the report gives each reason.

export const UNOBSERVABLE: Readonly<Record<string, string>> = {
  'ACCT-MAXEMAILSPERDAY-WARMUP-SEPARATE': 'warmup mail goes to the provider\'s warmup pool, not to an address the kit controls, so its budget cannot be counted',
  'ACCT-AUTOLANG-BEHAVIOUR': 'no endpoint returns auto-generated content, so its language cannot be read',
  'ACCT-IN-SMTPPASSWORD-ENCRYPTED': 'storage at rest is not visible over the wire (the kit checks that passwords are never returned)',
  'ACCT-IN-IMAPPASSWORD-ENCRYPTED': 'storage at rest is not visible over the wire (the kit checks that passwords are never returned)',
  'ACCT-STATUSMESSAGE-NULL-SERVICE-SIDE': 'a failure inside the service cannot be provoked from outside without a mutant of the target',
  'LIMIT-ACCOUNTS-PER-WORKSPACE': '"no limit" cannot be proved by a finite number of mailboxes',
  'KEY-SECRET-ONCE': 'keys are shown in the dashboard, which the API does not expose',
};
