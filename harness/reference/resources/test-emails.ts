// POST /v1/campaigns/{id}/test-email (4.3, part 8): the chosen variant rendered with dummy values
// or a lead of the campaign, sent from the chosen mailbox over its own SMTP server. It counts
// toward that mailbox's daily limit (an `emails` row of kind 'test', which the scheduler counts)
// and not toward monthly_emails; 12 a day per workspace (the day: options.ts testEmailDay); a
// recipient whose address or domain is on the workspace's blacklist is refused; an SMTP refusal or
// a dropped connection answers 503 upstream_unavailable. A quota reached is refused as the choice
// says (sending-options.ts quotaRefusal): a state conflict, or 429 until the day turns. A refused
// recipient or quota answers that error, or 2xx { sent: false } (choices.ts testEmailRefusal).
import { ok, type Handler } from '../request/context.ts';
import { ApiError, notFound, stateConflict, upstreamUnavailable, validationFailed } from '../request/errors.ts';
import { V, bodyObject, isEmail } from '../request/validate.ts';
import { loadOwned } from '../request/owned-rows.ts';
import { loadCampaign } from './campaigns.ts';
import type { CampaignDoc } from '../domain/campaign.ts';
import { startOfLocalDay } from '../domain/time.ts';
import { leadValues, senderOf, sentDoc } from '../sending/engine.ts';
import { renderEmail } from '../sending/render.ts';
import { SmtpFailure } from '../mail/transport.ts';

export const TEST_EMAILS_PER_DAY = 12;

const DAY_MS = 24 * 3600 * 1000;

/** A daily quota reached: a state conflict, or 429 whose Retry-After runs to the next midnight of `tz`. */
function quotaReached(ctx: Parameters<Handler>[0], message: string, now: number, tz: string): ApiError {
  if (ctx.services.choices.sending.quotaRefusal === 'conflict') return stateConflict(message);
  // The next local midnight: a day after this one's start, then its own start (a DST day is not 24 h).
  const turn = startOfLocalDay(startOfLocalDay(now, tz) + DAY_MS + 3 * 3600 * 1000, tz);
  const seconds = Math.max(1, Math.ceil((turn - now) / 1000));
  return new ApiError(429, 'rate_limited', `${message} It resets at the day's turn.`, undefined, seconds, { 'retry-after': String(seconds) });
}

/** A refusal as the choice answers it: the error, or a 2xx saying nothing was sent. */
function refused(ctx: Parameters<Handler>[0], error: ApiError) {
  if (ctx.services.choices.testEmailRefusal === 'sent-false') return ok({ sent: false, messageId: '' });
  throw error;
}

/** One at a time with the sending engine's rounds: the day's counts are read and spent as one step. */
export const testEmail: Handler = (ctx) => ctx.services.mail!.exclusive(() => testEmailAlone(ctx));

const testEmailAlone: Handler = async (ctx) => {
  const row = loadCampaign(ctx, ctx.params.id!);
  const b = bodyObject(ctx.body);
  const v = new V();
  const variantId = v.uuid(b, 'variantId', true);
  const accountId = v.uuid(b, 'accountId', true);
  // The second mutant binds the recipient as a list too (string or array): an array's first address is taken.
  const arrayTaken = Array.isArray(b.recipient) && typeof b.recipient[0] === 'string' && ctx.mutant('test-email-recipient-array-taken');
  const given = v.str(arrayTaken ? { ...b, recipient: (b.recipient as string[])[0] } : b, 'recipient', { required: true });
  // The mutant takes a list of addresses and sends to its first.
  const listed = given !== undefined && ctx.mutant('test-email-recipient-list-first') && given.split(',').every((x) => isEmail(x.trim()));
  const recipient = listed ? given.split(',')[0]!.trim() : given;
  if (recipient !== undefined && !isEmail(recipient)) v.issue('recipient', 'must be a single email address');
  // The mutant reads any personalization but `lead` as dummy.
  const anyKind = ctx.mutant('test-email-personalization-any') && typeof b.personalization === 'string';
  // The second mutant binds the enum case-insensitively.
  const given_ = typeof b.personalization === 'string' && ctx.mutant('test-email-personalization-case-insensitive') ? { ...b, personalization: b.personalization.toLowerCase() } : b;
  const personalization = anyKind ? (b.personalization === 'lead' ? 'lead' : 'dummy') : v.oneOf(given_, 'personalization', ['dummy', 'lead'] as const, true);
  const leadId = v.uuid(b, 'leadId');
  // The mutants render a lead without leadId as dummy, and a leadId given with dummy as its lead.
  if (personalization === 'lead' && leadId === undefined && b.leadId === undefined && !ctx.mutant('test-email-lead-without-leadid-dummy')) v.issue('leadId', 'is required when personalization is lead');
  if (personalization === 'dummy' && b.leadId !== undefined && !ctx.mutant('test-email-leadid-with-dummy-kept')) v.issue('leadId', 'must be omitted unless personalization is lead');
  if (b.leadId !== undefined && ctx.mutant('test-email-leadid-unknown-field')) v.issue('leadId', 'is not a known field');
  v.done();
  const s = ctx.services;
  const doc = JSON.parse(row.doc) as CampaignDoc;
  // The mutant renders the campaign's first step, whatever variantId names.
  const step = ctx.mutant('test-email-variant-first') ? doc.sequence[0] : doc.sequence.find((x) => x.id === variantId);
  if (!step) throw notFound('No sequence step variant with this id in the campaign.');
  type AccountRow = { id: string; org_id: string; email_address: string; status: string; doc: string; secrets: string };
  const foreign = ctx.mutant('test-email-foreign-mailbox') ? (ctx.db.prepare('SELECT * FROM accounts WHERE id = ?').get(accountId!) as AccountRow | undefined) : undefined;
  // The mutant sends from the campaign's first mailbox, whatever accountId names.
  const named = ctx.mutant('test-email-campaign-mailbox') && doc.accounts[0] ? doc.accounts[0] : accountId!;
  const acc = foreign ?? loadOwned<AccountRow>(ctx, 'accounts', named, 'mailbox');
  const named_ = leadId ? loadOwned<{ id: string; email: string; doc: string }>(ctx, 'leads', leadId, 'lead', 'AND campaign_id = ? AND deleted_at IS NULL', [row.id]) : null;
  // The mutant checks the lead named but renders the campaign's first one.
  const lead = named_ && ctx.mutant('test-email-lead-first-of-campaign') ? (ctx.db.prepare('SELECT id, email, doc FROM leads WHERE campaign_id = ? AND deleted_at IS NULL ORDER BY rowid LIMIT 1').get(row.id) as typeof named_) : named_;
  const to = recipient!.trim();
  const lc = to.toLowerCase();
  // The mutant looks the domain up as the recipient spells it (a case-sensitive match; domains are not).
  const domain = (ctx.mutant('test-email-blacklist-domain-case') ? to : lc).split('@')[1] ?? '';
  // The second mutant looks the address up as the recipient spells it (an exact string match, its domain's case too).
  const address = ctx.mutant('test-email-blacklist-address-case') ? to : lc;
  const black = ctx.db.prepare('SELECT value FROM blacklist WHERE org_id = ? AND value IN (?, ?)').get(ctx.workspace.id, address, domain) as { value: string } | undefined;
  if (black && !ctx.mutant('test-email-blacklist-ignored')) return refused(ctx, validationFailed([`recipient: ${black.value} is on the workspace's blacklist`]));
  if (acc.status !== 'active') throw stateConflict(`The mailbox is ${acc.status} and cannot send now.`);
  const now = ctx.clock.now();
  const tz = s.choices.sending.testEmailDay === 'utc' ? 'UTC' : ctx.workspace.timezone;
  // The mutant keys the day's 12 per mailbox, not per workspace.
  const perMailbox = ctx.mutant('test-email-12-per-mailbox') ? ` AND account_id = '${acc.id}'` : '';
  const today = (ctx.db.prepare(`SELECT COUNT(*) AS n FROM emails WHERE org_id = ? AND kind = 'test' AND sent_at >= ?${perMailbox}`).get(ctx.workspace.id, startOfLocalDay(now, tz)) as { n: number }).n;
  if (today >= TEST_EMAILS_PER_DAY && !ctx.mutant('test-email-no-workspace-limit')) return refused(ctx, quotaReached(ctx, `The workspace sent its ${TEST_EMAILS_PER_DAY} test emails of the day.`, now, tz));
  const d = JSON.parse(acc.doc) as { maxEmailsPerDay?: number };
  const mailboxDay = startOfLocalDay(now, s.choices.sending.mailboxDay === 'utc' ? 'UTC' : ctx.workspace.timezone);
  // The mutant counts only campaign mail toward the mailbox's day (a test email counts for nothing);
  // the other keeps a test-email counter of its own (campaign mail counts for nothing here).
  const kinds = ctx.mutant('test-email-not-counted-daily') ? "('campaign')" : ctx.mutant('test-email-own-daily-counter') ? "('test')" : "('campaign', 'test')";
  const boxToday = (ctx.db.prepare(`SELECT COUNT(*) AS n FROM emails WHERE account_id = ? AND direction = 'sent' AND kind IN ${kinds} AND sent_at >= ?`).get(acc.id, mailboxDay) as { n: number }).n;
  if (boxToday >= (d.maxEmailsPerDay ?? s.choices.mailboxDefaults.maxEmailsPerDay) && !ctx.mutant('test-email-no-daily-limit')) return refused(ctx, quotaReached(ctx, 'The mailbox reached its daily limit.', now, s.choices.sending.mailboxDay === 'utc' ? 'UTC' : ctx.workspace.timezone));
  const { box, account } = senderOf(s, acc);
  // The mutant fills dummy placeholders from a lead with no values: each one becomes an empty string.
  // The mutant renders a named lead with dummy values.
  const values = lead && !ctx.mutant('test-email-lead-as-dummy') ? leadValues(lead) : 'dummy';
  // The mutants' test path renders without the mailbox's signature, or From its bare address (only campaign sends carry them).
  const shownBox = ctx.mutant('test-email-no-signature') ? { ...box, signature: undefined } : ctx.mutant('test-email-from-no-name') ? { ...box, displayName: '', firstName: '', lastName: '' } : box;
  const email = renderEmail({ step, lead: !lead && ctx.mutant('test-email-dummy-empty') ? { email: '' } : values, mailbox: shownBox, settings: { ...doc.settings, trackOpens: false, trackClicks: false }, choices: s.choices.sending });
  if (!lead && ctx.mutant('test-email-dummy-unfilled')) Object.assign(email, { subject: step.subject, html: step.body, text: step.body });
  // The mutant's test path renders without the mailbox's Reply-To (only campaign sends carry it).
  if (ctx.mutant('test-email-no-replyto')) delete (email as { replyTo?: string }).replyTo;
  // The mutant's test path sends no blind copy (only campaign sends carry the mailbox's bcc).
  if (ctx.mutant('test-email-no-bcc')) delete (email as { bcc?: string }).bcc;
  try {
    // The mutant answers sent without handing the email to the mailbox's SMTP server.
    if (!ctx.mutant('test-email-never-delivered')) await s.mail!.send(account, email, to);
  } catch (e) {
    if (e instanceof SmtpFailure && ctx.mutant('test-email-sent-on-refusal')) return ok({ sent: true, messageId: email.messageId });
    // No SMTP answer at all (the connection closed or refused): the mutant answers a 5xx other than part 7's 503.
    if (e instanceof SmtpFailure && e.responseCode === 0 && ctx.mutant('test-email-upstream-down-not-503')) throw new ApiError(500, 'internal_error', 'The SMTP server did not answer.');
    // The mutant answers a failure as a 2xx without a messageId (no message went out, so no id).
    if (e instanceof SmtpFailure && ctx.mutant('test-email-failure-sent-false-no-messageid')) return ok({ sent: false });
    if (e instanceof SmtpFailure) throw upstreamUnavailable(`The mailbox's SMTP server did not take the test email (${e.responseCode || e.code}).`);
    throw e;
  }
  const sentAt = ctx.clock.now();
  const threadId = s.newId();
  ctx.db
    .prepare("INSERT INTO emails (id, org_id, account_id, campaign_id, lead_id, doc, body, created_at, message_id, thread_id, direction, kind, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sent', 'test', ?)")
    .run(s.newId(), ctx.workspace.id, acc.id, row.id, lead?.id ?? null, JSON.stringify(sentDoc(email, to, { id: acc.id, email: acc.email_address }, sentAt, threadId)), JSON.stringify({ html: email.html, text: email.text }), ctx.clock.stamp(), email.messageId, threadId, sentAt);
  // The second mutant counts only a test email rendered for a lead (the lead send path's counter).
  if (ctx.mutant('test-email-counts-monthly') || (lead && ctx.mutant('test-email-lead-counts-monthly'))) {
    const used = JSON.parse((ctx.db.prepare('SELECT used FROM workspaces WHERE id = ?').get(ctx.workspace.id) as { used: string }).used) as Record<string, number>;
    used.monthly_emails = (used.monthly_emails ?? 0) + 1;
    ctx.db.prepare('UPDATE workspaces SET used = ? WHERE id = ?').run(JSON.stringify(used), ctx.workspace.id);
  }
  return ok({ sent: true, messageId: email.messageId });
};
