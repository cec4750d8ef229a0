import { describe, expect, it } from 'vitest';
import { loadProfile } from '../ground/profile.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { runAgainstReference } from './run.ts';

// Some mutants must be killed by each of several checks, not only by one of them: a check that
// passes a mutant it was written against "cannot fail". Each row: the mutant, the checks that
// must all fail against it (those that run here; skips name what is missing), and some that
// must be among them.

const profile = await loadProfile();

const KILLERS: { mutant: string; checks: RegExp; including: string[] }[] = [
  {
    // Without any idempotency store a retry of start, pause, resume or a lead PATCH answers the
    // same anyway: each replay check must make a second execution observable.
    mutant: 'idem-ignored',
    checks: /^IDEM-REPLAY\//,
    including: [
      'IDEM-REPLAY/POST /v1/campaigns/{id}/start', 'IDEM-REPLAY/POST /v1/campaigns/{id}/resume', 'IDEM-REPLAY/POST <campaigns.pause>',
      'IDEM-REPLAY/PATCH /v1/campaigns/{cid}/leads/{leadId}', 'IDEM-REPLAY/POST /v1/campaigns/{cid}/leads/mutate',
    ],
  },
  {
    // The generated cases draw deep nesting only now and then at the default depth: the
    // transport check always sends it.
    mutant: 'robust-deep-nesting-500',
    checks: /^ROBUST-TRANSPORT$/,
    including: ['ROBUST-TRANSPORT'],
  },
  { mutant: 'acct-verify-error-quotes-login', checks: /^SEC-PASSWORD-SWEEP$/, including: ['SEC-PASSWORD-SWEEP'] },
  // Only an OAuth mailbox skips checking: the resume check must try one.
  { mutant: 'acct-oauth-resume-no-reverify', checks: /^ACCT-RESUME\/oauth$/, including: ['ACCT-RESUME/oauth'] },
  // Only the follow-ups of threads the stopped mailbox started still go: the check must wait past one.
  { mutant: 'send-followups-from-paused-mailbox', checks: /^SEND\/mailbox-paused$/, including: ['SEND/mailbox-paused'] },
  { mutant: 'send-followups-from-deleted-mailbox', checks: /^SEND\/mailbox-deleted$/, including: ['SEND/mailbox-deleted'] },
  // Only the mail sent shows the signature as given: the check must read what reached the sink.
  { mutant: 'send-signature-raw', checks: /^SEC-MAIL\/signature-script$/, including: ['SEC-MAIL/signature-script'] },
  // The count that fails a mailbox is the declared one: each check of a refusal that is the mailbox's own must see it.
  { mutant: 'send-failures-threshold-late', checks: /^SEND\/failures-(auth|mail-from)$/, including: ['SEND/failures-auth', 'SEND/failures-mail-from'] },
  { mutant: 'send-failures-first-refusal', checks: /^SEND\/failures-(auth|mail-from)$/, including: ['SEND/failures-auth', 'SEND/failures-mail-from'] },
  { mutant: 'tenant-apikeys-list-leak', checks: /^SEC-ISOLATION\//, including: ['SEC-ISOLATION/every-list-and-aggregate'] },
  // Stated rules once held only as readings: the blocking check must catch each, not a warning alone.
  { mutant: 'acct-oauth-any-provider', checks: /^ACCT-OAUTH\/unknown-provider$/, including: ['ACCT-OAUTH/unknown-provider'] },
  { mutant: 'anlt-rates-fraction', checks: /^ANLT\/rates-percent$/, including: ['ANLT/rates-percent'] },
  { mutant: 'send-delay-hours-ignored', checks: /^SEND\/sequence-delay$/, including: ['SEND/sequence-delay'] },
  { mutant: 'send-step-delay-ignored', checks: /^SEND\/sequence-delay$/, including: ['SEND/sequence-delay'] },
  { mutant: 'send-display-name-ignored', checks: /^SEND\/display-name$/, including: ['SEND/display-name'] },
  { mutant: 'send-merge-unrendered', checks: /^SEND\/merge-variables$/, including: ['SEND/merge-variables'] },
  // An empty snippet, a dropped text part and a null threadId all pass a shape check: the email checks must read them.
  { mutant: 'email-snippet-empty', checks: /^EMAIL\/sent$/, including: ['EMAIL/sent'] },
  { mutant: 'email-body-text-dropped', checks: /^EMAIL\/sent$/, including: ['EMAIL/sent'] },
  { mutant: 'email-threadid-null', checks: /^EMAIL\/received$/, including: ['EMAIL/received'] },
  // The cheap reading of X-RateLimit-Remaining (a few requests) must catch what the whole-window check catches.
  ...['rate-per-key', 'rate-remaining-per-key'].map((mutant) => ({
    mutant,
    checks: /^RATE-(REMAINING\/counts-the-workspace|LIMIT\/one-workspace-two-keys)$/,
    including: ['RATE-REMAINING/counts-the-workspace', 'RATE-LIMIT/one-workspace-two-keys'],
  })),
  // The one-request-a-scope check must catch each granular scope refused on its own routes, as the matrix does.
  ...['campaigns-read', 'campaigns-write', 'campaigns-lifecycle', 'leads-read', 'leads-write', 'emails-read', 'emails-send', 'emails-write', 'accounts-read', 'accounts-write', 'metrics-read', 'leadfinder-read', 'usage-read'].map((s) => ({
    mutant: `scope-grant-${s}-refused`,
    checks: /^SCOPE-GRANT\/each-granular-scope$/,
    including: ['SCOPE-GRANT/each-granular-scope'],
  })),
  // (The whole-window check waits out a real minute against this one: its other workspace shares the bucket.)
  { mutant: 'rate-global', checks: /^RATE-REMAINING\/counts-the-workspace$/, including: ['RATE-REMAINING/counts-the-workspace'] },
];

describe('each of these checks kills the mutant it was written against', () => {
  for (const k of KILLERS) {
    it(`${k.mutant}: every check ${k.checks}`, async () => {
      const checks = ALL_CHECKS.filter((c) => k.checks.test(c.id));
      const results = await runAgainstReference(profile, checks, [k.mutant]);
      const ran = results.filter((r) => r.verdict !== 'skip');
      expect(ran.map((r) => r.checkId)).toEqual(expect.arrayContaining(k.including));
      const survived = ran.filter((r) => r.verdict !== 'fail').map((r) => `${r.checkId}: ${r.verdict} ${r.message ?? ''}`);
      expect(survived).toEqual([]);
    });
  }
});
