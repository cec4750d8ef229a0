// What this machine lacks, as a cause of skips: named apart from what the profile leaves
// undeclared, so a run that checked less because of the machine says so, and what to install,
// at the top of the run and in its summary. Data: a cause's id, its name and its remedy.

export const MACHINE_CAUSES = {
  'no-imap-server': {
    name: 'no IMAP server ran (Dovecot is not installed)',
    short: 'no IMAP server (Dovecot)',
    fix: 'install Dovecot: apt-get install dovecot-imapd (or point OUTREACH_DOVECOT at its binary)',
  },
  'sinks-unreachable': {
    name: "the target did not log in to the kit's mail sinks (it may not reach them)",
    short: 'mail sinks the target does not reach',
    fix: 'give the profile a sinks.host the target reaches, or run `outreach-conformance sinks` where it can and pass --sinks URL',
  },
} as const;

export type MachineCause = keyof typeof MACHINE_CAUSES;

export const isMachineCause = (s: unknown): s is MachineCause => typeof s === 'string' && Object.hasOwn(MACHINE_CAUSES, s);
