// The referenced reply and forward of an inbox email (4.7 "sending replies and forwards"), sent for
// real over the SMTP server of a mailbox of the workspace (the email's own, or `accountId` for a
// reply), threaded on the original (In-Reply-To, References), and kept as a sent inbox email in
// the same thread. Shapes are the reference's choice: { body, accountId? } and { to, body? }; both
// answer the new email. An SMTP refusal answers 503 upstream_unavailable.
import type { Ctx } from '../request/context.ts';
import { stateConflict, upstreamUnavailable } from '../request/errors.ts';
import { loadOwned } from '../request/owned-rows.ts';
import { emailView, type EmailRow } from '../domain/email.ts';
import { senderOf, sentDoc } from './engine.ts';
import { escapeHtml, htmlToText } from './render.ts';
import type { RenderedEmail } from '../domain/email.ts';
import { SmtpFailure } from '../mail/transport.ts';

interface Original extends EmailRow { message_id: string | null; thread_id: string | null; direction: string | null }
type AccountRow = { id: string; org_id: string; email_address: string; status: string; doc: string; secrets: string };

export async function sendFollowUp(ctx: Ctx, original: Original, how: { kind: 'reply' | 'forward'; to?: string; text: string; accountId?: string }) {
  const s = ctx.services;
  const odoc = JSON.parse(original.doc) as { subject?: string; from?: { email?: string }; to?: string[]; messageId?: string };
  const accountId = how.accountId ?? original.account_id;
  if (!accountId) throw stateConflict('This email belongs to no mailbox of the workspace to send from.');
  const acc = loadOwned<AccountRow>(ctx, 'accounts', accountId, 'mailbox');
  if (acc.status !== 'active') throw stateConflict(`The mailbox is ${acc.status} and cannot send now.`);
  const to = how.to ?? (original.direction === 'received' ? odoc.from?.email : odoc.to?.[0]);
  if (!to) throw stateConflict('This email has no address to reply to.');
  const { box, account } = senderOf(s, acc);
  const subject = `${how.kind === 'reply' ? 'Re' : 'Fwd'}: ${(odoc.subject ?? '').replace(/^(re|fwd?):\s*/i, '')}`;
  const original_text = original.body ? ((JSON.parse(original.body) as { text?: string | null }).text ?? '') : '';
  const text = how.kind === 'forward' ? `${how.text}\n\n---------- Forwarded message ----------\n${original_text}` : how.text;
  const email: RenderedEmail = {
    messageId: `<${s.newId()}@${acc.email_address.split('@')[1] ?? 'outreach-reference.local'}>`,
    from: { name: box.displayName ?? '', address: acc.email_address },
    subject: subject.replace(/[\r\n]+/g, ' '),
    html: `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`,
    text: htmlToText(`<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`),
    links: [],
  };
  const refs = original.message_id ?? odoc.messageId;
  try {
    await s.mail!.send(account, email, to, how.kind === 'reply' && refs ? { 'In-Reply-To': refs, References: refs } : {});
  } catch (e) {
    if (e instanceof SmtpFailure) throw upstreamUnavailable(`The mailbox's SMTP server did not take the ${how.kind} (${e.responseCode || e.code}).`);
    throw e;
  }
  const now = ctx.clock.now();
  const threadId = original.thread_id ?? s.newId();
  const id = s.newId();
  const row = {
    id, org_id: ctx.workspace.id, account_id: acc.id, campaign_id: original.campaign_id, lead_id: original.lead_id,
    doc: JSON.stringify(sentDoc(email, to, { id: acc.id, email: acc.email_address }, now, threadId)), body: JSON.stringify({ html: email.html, text: email.text }), deleted_at: null, created_at: ctx.clock.stamp(),
  };
  ctx.db
    .prepare("INSERT INTO emails (id, org_id, account_id, campaign_id, lead_id, doc, body, created_at, message_id, in_reply_to, thread_id, direction, kind, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sent', ?, ?)")
    .run(row.id, row.org_id, row.account_id, row.campaign_id, row.lead_id, row.doc, row.body, row.created_at, email.messageId, refs ?? null, threadId, how.kind, now);
  return emailView(row, false);
}
