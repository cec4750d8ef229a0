// The sending engine: at `now` (the injectable clock) it takes the due sends (scheduler.ts),
// renders each (render.ts), sends it over the mailbox's SMTP (transport.ts) and records it in one
// transaction: the `emails` row the inbox shows, a 'sent' event, the lead (status, lastContactedAt,
// metrics, sequenceProgress), the campaign's metrics and the workspace's usage. A refusal is a
// 'failed' event, a retry later (options.ts retry) and a count toward the mailbox failing
// (failures.ts). A campaign whose leads are all done becomes `completed`.
// Runs from POST /work/drain and from a real-time timer, like verification.
import type { Services } from '../request/context.ts';
import type { CampaignDoc } from '../domain/campaign.ts';
import { recordSendFailure, recordSendSuccess } from './failures.ts';
import { renderEmail, type LeadValues } from './render.ts';
import type { RenderedEmail } from '../domain/email.ts';
import { allLeadsDone, canSend, dueSends, type DueSend } from './scheduler.ts';
import { MailTransports, SmtpFailure, type SendingAccount } from '../mail/transport.ts';
import { slowTick, slowWork } from '../switches/slow.ts';

export const SEND_TICK_MS = 250;

interface AccountRow { id: string; org_id: string; email_address: string; status: string; doc: string; secrets: string }
interface LeadRow { id: string; email: string; status: string; doc: string; last_contacted_at: number | null }

/** The mailbox as a sender: rendering fields and SMTP credentials (password decrypted here only). */
export function senderOf(s: Services, a: AccountRow): { box: Parameters<typeof renderEmail>[0]['mailbox']; account: SendingAccount } {
  const d = JSON.parse(a.doc) as Record<string, any>;
  const secrets = JSON.parse(a.secrets) as { smtpPassword?: string };
  return {
    box: {
      emailAddress: a.email_address, firstName: d.firstName, lastName: d.lastName, bcc: s.mutant('send-bcc-dropped') ? undefined : d.bcc,
      // Without a displayName the From name falls back to first and last name (render.ts).
      displayName: s.mutant('send-display-name-ignored') ? '' : s.mutant('send-from-name-first-last') ? undefined : d.displayName,
      // The mutant decodes the saved signature's entities, so escaped markup turns back into tags.
      // (signatureAsGiven exists only under the mutant send-signature-raw: resources/accounts.ts.)
      // (signatureForMail exists only under the mutant acct-signature-sanitized-at-send: the answer keeps the signature as given.)
      signature: s.mutant('send-no-signature') ? undefined : s.mutant('send-signature-entities-decoded') ? decodeEntities(d.signature) : (d.signatureForMail ?? d.signatureAsGiven ?? d.signature),
      // The mutant routes replies of a mailbox without a replyToAddress of its own through the service (reply tracking).
      replyToAddress: s.mutant('send-no-reply-to') ? undefined : ownReplies(d.replyToAddress, a.email_address) && s.mutant('send-replyto-service-default') ? 'replies@track.outreach.test' : d.replyToAddress,
    },
    account: { id: a.id, smtp: d.smtp, password: secrets.smtpPassword ? s.decrypt(secrets.smtpPassword) : '' },
  };
}

type Box = Parameters<typeof renderEmail>[0]['mailbox'];

/** Replies go to the mailbox itself: no replyToAddress, or its own address (2.2 "omit to reply to the mailbox itself"). */
const ownReplies = (replyTo: unknown, address: string) => !replyTo || String(replyTo).toLowerCase() === address.toLowerCase();
/** The mailbox a step is rendered with (the follow-up mutants leave out a part of it past the first step). */
function followUpBox(s: Services, step: number, box: Box): Box {
  if (step > 0 && s.mutant('send-followup-no-reply-to')) return { ...box, replyToAddress: undefined };
  if (step > 0 && s.mutant('send-followup-no-signature')) return { ...box, signature: undefined };
  if (step > 0 && s.mutant('send-followup-from-no-name')) return { ...box, displayName: '', firstName: '', lastName: '' };
  if (step > 0 && s.mutant('send-followup-no-bcc')) return { ...box, bcc: undefined };
  return box;
}

function decodeEntities(html: string | undefined): string | undefined {
  return html?.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

export function leadValues(l: { email: string; doc: string }): LeadValues {
  const d = JSON.parse(l.doc) as Record<string, any>;
  return { email: l.email, firstName: d.firstName, lastName: d.lastName, companyName: d.companyName, jobTitle: d.jobTitle, website: d.website, linkedinProfile: d.linkedinProfile, location: d.location, customFields: d.customFields };
}

/** The 2.7 fields of a sent email (its `emails.doc`). */
export function sentDoc(email: RenderedEmail, to: string, account: { id: string; email: string }, now: number, threadId: string) {
  const at = new Date(now).toISOString();
  return {
    threadId, messageId: email.messageId, mailbox: account, from: { email: email.from.address, name: email.from.name },
    to: [to], cc: [], bcc: email.bcc ? [email.bcc] : [], subject: email.subject, snippet: email.text.slice(0, 140),
    isUnread: false, type: 'sent', hasAttachments: false, sentAt: at, receivedAt: at,
  };
}

export class SendingEngine {
  readonly transports: MailTransports;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  /** Under its mutant only: the lead values each campaign step was first rendered with. */
  private readonly renderedWith = new Map<string, LeadValues>();

  /** `slow`: the factor of `reference --slow` (switches/slow.ts); 1 unslowed. */
  constructor(
    private readonly s: Services,
    private readonly slow = 1,
  ) {
    this.transports = new MailTransports(s.mutant);
  }

  start(): void {
    if (this.timer || this.stopped) return;
    // A round cut short by stop() fails on its closed connections: that is the stop, not news.
    this.timer = setInterval(() => void this.drain(this.s.clock.now()).catch((e) => this.stopped || this.s.log(`reference: sending failed: ${(e as Error)?.stack ?? e}`)), SEND_TICK_MS);
    this.timer.unref();
  }

  /** Stops the timer and the connections, and waits for a round in flight to end: the database closes after it. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.transports.closeAll();
    await this.running?.catch(() => {});
  }

  /** Sends everything due at `now` (one round: at most one send per mailbox); returns how many were tried. */
  readonly drain = (now: number): Promise<number> => {
    // One round at a time: the timer and POST /work/drain never send the same lead twice.
    this.running ??= this.round(now).finally(() => (this.running = null));
    return this.running;
  };

  private async round(asked: number): Promise<number> {
    const before = this.s.clock.now();
    // Slowed, a round with something to send waits before it starts; one with nothing due ends at
    // once (under the control clock every drain runs a round: most find nothing due).
    if (this.slow > 1 && dueSends(this.s.db, asked, this.s.choices, this.s.mutant).length === 0) return 0;
    await slowWork(this.slow);
    if (this.stopped) return 0;
    // Alone with test emails: what is due is read from the day's counts, sent and recorded as one step.
    return this.transports.exclusive(async () => {
      // The clock went on during a slowed pause: send what is due at its end.
      const now = asked + (this.s.clock.now() - before);
      const due = dueSends(this.s.db, now, this.s.choices, this.s.mutant);
      await Promise.all(due.map((d) => this.sendOne(d, now)));
      if (due.length) this.completeFinished(due);
      return due.length;
    });
  }

  private async sendOne(d: DueSend, now: number): Promise<void> {
    const s = this.s;
    const camp = s.db.prepare('SELECT doc, status FROM campaigns WHERE id = ?').get(d.campaignId) as { doc: string; status: string } | undefined;
    const acc = s.db.prepare('SELECT id, org_id, email_address, status, doc, secrets FROM accounts WHERE id = ?').get(d.accountId) as AccountRow | undefined;
    const lead = s.db.prepare('SELECT id, email, status, doc, last_contacted_at FROM leads WHERE id = ? AND deleted_at IS NULL').get(d.leadId) as LeadRow | undefined;
    // Paused, deleted or failed since the schedule was read: nothing goes (3.2 "stops immediately").
    if (!camp || camp.status !== 'active' || !acc || !(canSend(s, acc.status) || d.stopped) || !lead) return;
    const doc = JSON.parse(camp.doc) as CampaignDoc;
    const step = doc.sequence[d.step]!;
    const emailId = s.newId();
    const { box, account } = senderOf(s, acc);
    const settings = s.mutant('send-tracking-always') ? { ...doc.settings, trackOpens: true, trackClicks: true } : doc.settings;
    const email = renderEmail({
      // The mutants render a follow-up step (threaded as a reply) without the mailbox's Reply-To, or without its signature.
      step, lead: s.mutant('send-merge-unrendered') ? { email: lead.email } : this.valuesFor(d, lead), mailbox: followUpBox(s, d.step, box), choices: s.choices.sending,
      settings: s.mutant('send-text-only-ignored') ? { ...settings, sendAsTextOnly: false } : settings,
      // The mutant rewrites only the first link of an email for click tracking (a replace without its global flag).
      ...(s.publicUrl ? { tracking: { baseUrl: s.publicUrl, token: emailId, ...(s.mutant('send-click-rewrite-first-only') ? { firstLinkOnly: true } : {}) } } : {}),
      ...(s.mutant('send-unknown-variable-fallback') ? { unknownFallback: 'there' } : {}),
      ...(s.mutant('send-unknown-variable-subject-other') ? { subjectUnknown: s.choices.sending.unknownMergeVariable === 'verbatim' ? 'empty' as const : 'verbatim' as const } : {}),
      ...(s.mutant('send-merge-body-firstname-empty') ? { bodyBlank: 'firstName' as const } : {}),
    });
    try {
      await this.transports.send(account, email, lead.email);
    } catch (e) {
      if (!(e instanceof SmtpFailure)) throw e;
      this.recordFailure(d, e, now);
      return;
    }
    this.recordSent(d, email, emailId, lead, acc, doc, now);
  }

  /** The lead's values; under the mutant, those the step was first rendered with (a rendering cached per step), the address aside. */
  private valuesFor(d: DueSend, lead: LeadRow): LeadValues {
    const own = leadValues(lead);
    if (!this.s.mutant('send-merge-cached-per-step')) return own;
    const key = `${d.campaignId}:${d.step}`;
    const first = this.renderedWith.get(key) ?? own;
    this.renderedWith.set(key, first);
    return { ...first, email: own.email };
  }

  private recordSent(d: DueSend, email: RenderedEmail, emailId: string, lead: LeadRow, acc: AccountRow, doc: CampaignDoc, now: number): void {
    const s = this.s;
    const c = s.choices.sending;
    s.db.transaction(() => {
      const first = s.db.prepare("SELECT thread_id FROM emails WHERE lead_id = ? AND campaign_id = ? AND kind = 'campaign' ORDER BY sent_at LIMIT 1").get(d.leadId, d.campaignId) as { thread_id: string } | undefined;
      const threadId = first?.thread_id ?? s.newId();
      const body = { html: email.html, text: email.text };
      const edoc = { ...sentDoc(email, lead.email, { id: acc.id, email: acc.email_address }, now, threadId), links: email.links };
      s.db
        .prepare("INSERT INTO emails (id, org_id, account_id, campaign_id, lead_id, doc, body, created_at, message_id, thread_id, direction, kind, step, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sent', 'campaign', ?, ?)")
        .run(emailId, d.orgId, acc.id, d.campaignId, d.leadId, JSON.stringify(edoc), JSON.stringify(body), s.clock.stamp(), email.messageId, threadId, d.step, now);
      s.db.prepare("INSERT INTO events (id, org_id, campaign_id, lead_id, account_id, email_id, step, type, at) VALUES (?, ?, ?, ?, ?, ?, ?, 'sent', ?)").run(s.newId(), d.orgId, d.campaignId, d.leadId, acc.id, emailId, d.step, now);
      // The lead: contacted, its progress, a platform status unless a user status is set.
      const ld = JSON.parse(lead.doc) as Record<string, any>;
      ld.metrics = { ...ld.metrics, sent: (ld.metrics?.sent ?? 0) + 1 };
      const total = doc.sequence.length;
      const sent = d.step + 1;
      const next = doc.sequence[sent];
      ld.sequenceProgress = { ...ld.sequenceProgress, totalSteps: total, sentCount: sent, plannedCount: total - sent, nextPlannedAt: next ? new Date(now + next.delayDays * 86_400_000 + next.delayHours * 3_600_000).toISOString() : null };
      delete ld.retryAt;
      delete ld.tries;
      const platform = [s.choices.newLeadStatus, c.leadStatusAfterSend].includes(lead.status);
      // The mutant gives a lead that got its last step a platform status its declared table lacks;
      // the second one a lead that got a step before its last. The third gives it another status
      // than the one declared after a send.
      const other = c.leadStatusAfterSend === 'contacted' ? 'email_sent' : 'contacted';
      const after = !next && s.mutant('send-lead-status-finished') ? 'sequence_finished'
        : next && s.mutant('send-lead-status-mid-sequence') ? 'in_sequence'
        : s.mutant('send-lead-status-after-send-undeclared') ? other : c.leadStatusAfterSend;
      s.db.prepare('UPDATE leads SET status = ?, doc = ?, last_contacted_at = ?, updated_at = ? WHERE id = ?').run(platform ? after : lead.status, JSON.stringify(ld), now, now, d.leadId);
      // The campaign's metrics and the workspace's usage move with the send.
      const cur = s.db.prepare('SELECT doc FROM campaigns WHERE id = ?').get(d.campaignId) as { doc: string };
      const cd = JSON.parse(cur.doc) as CampaignDoc;
      if (!s.mutant('send-metrics-not-counted')) cd.metrics.sent += 1;
      s.db.prepare('UPDATE campaigns SET doc = ? WHERE id = ?').run(JSON.stringify(cd), d.campaignId);
      const ws = s.db.prepare('SELECT used FROM workspaces WHERE id = ?').get(d.orgId) as { used: string };
      const used = JSON.parse(ws.used) as Record<string, number>;
      if (!s.mutant('send-usage-not-counted')) used.monthly_emails = (used.monthly_emails ?? 0) + 1;
      if (lead.last_contacted_at === null) used.active_contacts = (used.active_contacts ?? 0) + 1;
      s.db.prepare('UPDATE workspaces SET used = ? WHERE id = ?').run(JSON.stringify(used), d.orgId);
      recordSendSuccess(s.db, acc.id);
    })();
  }

  private recordFailure(d: DueSend, f: SmtpFailure, now: number): void {
    const s = this.s;
    const r = s.choices.sending.retry;
    s.db.transaction(() => {
      s.db.prepare("INSERT INTO events (id, org_id, campaign_id, lead_id, account_id, step, type, at, data) VALUES (?, ?, ?, ?, ?, ?, 'failed', ?, ?)").run(s.newId(), d.orgId, d.campaignId, d.leadId, d.accountId, d.step, now, JSON.stringify(f.toStatus()));
      const lead = s.db.prepare('SELECT doc FROM leads WHERE id = ?').get(d.leadId) as { doc: string } | undefined;
      if (lead) {
        const ld = JSON.parse(lead.doc) as Record<string, any>;
        ld.tries = (ld.tries ?? 0) + 1;
        if (ld.tries >= r.attempts) {
          // Out of tries: this lead's sequence stops, its step counted failed.
          ld.sequenceProgress = { ...ld.sequenceProgress, failedCount: (ld.sequenceProgress?.failedCount ?? 0) + 1 };
          delete ld.retryAt;
          delete ld.tries;
          s.db.prepare('UPDATE leads SET doc = ?, seq_stopped_at = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(ld), now, now, d.leadId);
        } else {
          ld.retryAt = now + r.afterMinutes * 60_000;
          s.db.prepare('UPDATE leads SET doc = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(ld), now, d.leadId);
        }
      }
      // A refused recipient is the mailbox's failure, or that lead's bounce alone (choices).
      const recipientOnly = /^RCPT\b/i.test(f.command) && (s.choices.sending.recipientRefusal === 'lead' || s.mutant('send-rcpt-refusal-not-counted'));
      if (!recipientOnly) recordSendFailure(s.db, d.accountId, f, now, s.choices, s.mutant);
    })();
  }

  private completeFinished(due: DueSend[]): void {
    const s = this.s;
    for (const id of new Set(due.map((d) => d.campaignId))) {
      const c = s.db.prepare('SELECT status, doc FROM campaigns WHERE id = ?').get(id) as { status: string; doc: string } | undefined;
      if (c?.status === 'active' && allLeadsDone(s.db, id, (JSON.parse(c.doc) as CampaignDoc).sequence.length))
        s.db.prepare("UPDATE campaigns SET status = 'completed', updated_at = ? WHERE id = ?").run(s.clock.now(), id);
    }
  }
}
