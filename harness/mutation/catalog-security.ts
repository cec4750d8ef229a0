// Mutants of the security and robustness rules: mutant id -> the clause ids it breaks.
// The checks that catch them: suites/checks/robustness/ and suites/checks/security/.
export const MUTANT_CLAUSES_SECURITY: Record<string, string[]> = {
  'robust-deep-nesting-500': ['ERR-TABLE-400'],
  'send-subject-header-injection': ['CAMP-SEQUENCE-NO-HEADER-INJECTION'],
  'send-signature-entities-decoded': ['ACCT-IN-SIGNATURE-SANITIZED'],
  'send-signature-raw': ['ACCT-IN-SIGNATURE-SANITIZED', 'ACCT-SIGNATURE-APPENDED'],
  'tenant-apikeys-list-leak': ['TENANT-ISOLATION'],
  'apikeys-list-shows-secret': ['KEY-SECRET-ONCE'],
  'ts-millis-refused': ['RES-TS-MILLIS'],
  'ts-patch-whole-seconds-refused': ['RES-TS-MILLIS'],
  'auth-401-echoes-key': ['KEY-SECRET-NEVER-ECHOED'],
  'acct-verify-error-quotes-login': ['ACCT-IN-SMTPPASSWORD-NEVER-RETURNED'],
};
