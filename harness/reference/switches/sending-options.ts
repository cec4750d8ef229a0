// The sending engine's choices where the spec is silent, one object of the reference's choice
// sets (choices.ts `sending`). Each is read at one place, named in its comment.

export interface SendingChoices {
  /** Merge variable names, logical field -> the name between double braces (render.ts). */
  mergeNames: 'camel' | 'snake';
  /** What a merge variable nobody knows renders to (render.ts). */
  unknownMergeVariable: 'empty' | 'verbatim';
  /** Consecutive SMTP refusals that turn an active mailbox failed (failures.ts). */
  failuresBeforeFailed: number;
  /** A recipient refused at RCPT TO: a sending failure of the mailbox, or a bounce of that lead alone (engine.ts). */
  recipientRefusal: 'mailbox' | 'lead';
  /** Minutes before a refused send is tried again, and tries before the lead's step counts failed (engine.ts). */
  retry: { afterMinutes: number; attempts: number };
  /** Whose midnight starts a mailbox's day for maxEmailsPerDay (scheduler.ts). */
  mailboxDay: 'workspace' | 'utc';
  /** campaignSlowRamp: campaign sends a mailbox may make on its n-th day in a campaign = first + n * step (scheduler.ts). */
  slowRamp: { first: number; step: number };
  /** Platform-managed lead statuses after the first send and after a reply (engine.ts, inbox.ts). */
  leadStatusAfterSend: string;
  leadStatusAfterReply: string;
  /** Seconds between two IMAP polls of one mailbox, on the clock (inbox.ts). */
  imapPollSeconds: number;
  /** Largest email (bytes of its body parts) GET /v1/emails/{id} answers inline (resources/emails.ts). */
  emailBodyInlineMax: number;
  /** The day that counts test emails (12 per workspace, part 8) (test-email.ts). */
  testEmailDay: 'workspace' | 'utc';
  /**
   * A test email past a daily quota (the workspace's 12, the mailbox's maxEmailsPerDay; part 8
   * gives no status): a state conflict, or 429 rate_limited with a Retry-After until the day
   * turns, hours rather than the rate window's seconds (test-email.ts).
   */
  quotaRefusal: 'conflict' | 'rate-limited';
  /**
   * Warmup that really sends (2.1 "warmup has its own budget", 2.2 omitted warmup means ON, 3.2
   * a paused mailbox is skipped): each active mailbox whose warmup is enabled sends up to
   * `perDay` warmup messages a day of its warmup timezone (its warmup.maxPerDay when lower; none
   * on a weekend with skipWeekends), `intervalMinutes` apart, through its own SMTP login to an
   * address of `pool` (`*` stands for a number) (warmup.ts).
   */
  warmupMail: { pool: string; perDay: number; intervalMinutes: number };
  /**
   * The HTML part's document (render.ts): the body alone in a bare document, or a document
   * titled with the subject and opening with a hidden preheader (the text's first words), as
   * email builders write them.
   */
  htmlDocument: 'bare' | 'titled';
}

export const DEFAULT_SENDING: SendingChoices = {
  mergeNames: 'camel',
  unknownMergeVariable: 'empty',
  failuresBeforeFailed: 3,
  recipientRefusal: 'mailbox',
  retry: { afterMinutes: 10, attempts: 3 },
  mailboxDay: 'workspace',
  slowRamp: { first: 10, step: 10 },
  leadStatusAfterSend: 'email_sent',
  leadStatusAfterReply: 'replied',
  imapPollSeconds: 60,
  emailBodyInlineMax: 1024 * 1024,
  testEmailDay: 'workspace',
  quotaRefusal: 'conflict',
  warmupMail: { pool: 'warmup-*@pool.warmup.test', perDay: 3, intervalMinutes: 60 },
  htmlDocument: 'bare',
};

export const ALT_SENDING: SendingChoices = {
  mergeNames: 'snake',
  unknownMergeVariable: 'verbatim',
  failuresBeforeFailed: 2,
  recipientRefusal: 'lead',
  retry: { afterMinutes: 5, attempts: 2 },
  mailboxDay: 'utc',
  slowRamp: { first: 5, step: 5 },
  leadStatusAfterSend: 'contacted',
  leadStatusAfterReply: 'lead_replied',
  imapPollSeconds: 120,
  emailBodyInlineMax: 256 * 1024,
  testEmailDay: 'utc',
  quotaRefusal: 'rate-limited',
  warmupMail: { pool: 'seed*@inbox-network.test', perDay: 5, intervalMinutes: 40 },
  htmlDocument: 'titled',
};

/** The merge variable of a logical field under a naming (firstName -> first_name). */
export function mergeName(c: SendingChoices, field: string): string {
  return c.mergeNames === 'camel' ? field : field.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
}

/** What the kit's profile declares of these choices (harness/ground/profile-schema.ts `declarations`). */
export function sendingDeclarations(c: SendingChoices): Record<string, unknown> {
  return {
    mergeVariables: { firstName: mergeName(c, 'firstName'), companyName: mergeName(c, 'companyName') },
    unknownMergeVariable: c.unknownMergeVariable,
    sendFailuresBeforeFailed: c.failuresBeforeFailed,
    recipientRefusal: c.recipientRefusal,
    emailBodyInlineMax: c.emailBodyInlineMax,
    tracking: { openPixel: true, clickRedirect: true },
    sending: {
      leadStatusAfterSend: c.leadStatusAfterSend,
      leadStatusAfterReply: c.leadStatusAfterReply,
      mailboxDay: c.mailboxDay === 'utc' ? 'UTC midnight' : "the workspace's midnight",
      testEmailDay: c.testEmailDay === 'utc' ? 'UTC midnight' : "the workspace's midnight",
      quotaRefusal: c.quotaRefusal === 'rate-limited' ? '429 rate_limited, Retry-After until the day turns' : 'a state conflict',
      slowRamp: `day n of a mailbox in a campaign (n from 0): at most ${c.slowRamp.first} + n x ${c.slowRamp.step} campaign sends`,
      retry: `a refused send is tried again after ${c.retry.afterMinutes} minutes, ${c.retry.attempts} tries in all, then the lead's sequence stops`,
      imapPollSeconds: c.imapPollSeconds,
      warmupMail: `up to ${c.warmupMail.perDay} a day per active mailbox with warmup enabled (its maxPerDay when lower), ${c.warmupMail.intervalMinutes} minutes apart, apart from maxEmailsPerDay`,
    },
    warmupMail: { poolAddress: c.warmupMail.pool },
  };
}
