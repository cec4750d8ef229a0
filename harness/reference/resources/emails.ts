// Emails (spec 2.7, 4.5; referenced list, reply/forward, mark read). Rows are written by the
// sending engine (sent) and the IMAP poller (received): sending/engine.ts, sending/inbox.ts.
// GET answers 413 body_too_large over the chosen inline size and 503 upstream_unavailable while
// the stored body cannot be read (the control API marks a body so); DELETE hides the email from
// every read and listing and leaves the mail server alone. The listing (referenced emails.list)
// filters by campaign and lead, newest first, without bodies (4.5: GET is the only endpoint
// returning a body).
import { ok, type Handler, type Ctx } from '../request/context.ts';
import { bodyTooLarge, notFound, upstreamUnavailable, validationFailed } from '../request/errors.ts';
import { bodyObject, isEmail, isUuid, V } from '../request/validate.ts';
import { sendFollowUp } from '../sending/replies.ts';
import { expungeOnServer } from '../sending/expunge.ts';
import { loadOwned } from '../request/owned-rows.ts';
import { emailView, type EmailRow } from '../domain/email.ts';

/** An email as the listing and GET answer it (where the mutants of 2.7's fields switch). */
function shown(ctx: Ctx, r: EmailRow, withBody: boolean) {
  const view = emailView(r, withBody);
  if (ctx.mutant('email-threadid-null')) view.threadId = null;
  if (ctx.mutant('email-snippet-empty')) view.snippet = '';
  if (view.body && ctx.mutant('email-body-text-dropped')) view.body = { ...(view.body as object), text: null };
  if (ctx.mutant('email-type-outbound') && view.type === 'sent') view.type = 'outbound';
  // The mutant reads an email the reply or forward endpoint sent (GET) with its kind as its type.
  const kind = (r as { kind?: unknown }).kind;
  if (withBody && (kind === 'reply' || kind === 'forward') && ctx.mutant('email-followup-type-kind')) view.type = kind;
  if (ctx.mutant('email-recipients-joined')) view.to = (view.to as string[]).join(', ');
  if (ctx.mutant('email-received-recipients-objects') && view.type === 'received') Object.assign(view, { to: (view.to as string[]).map((email) => ({ email, name: '' })), cc: null });
  // The mutant answers a single bcc (the mailbox's bcc setting) as the bare address: an empty bcc stays [].
  if (ctx.mutant('email-bcc-single-string') && Array.isArray(view.bcc) && view.bcc.length === 1) view.bcc = view.bcc[0];
  // The mutant leaves out from.name (a serializer that writes the address only).
  if (ctx.mutant('email-from-name-dropped') && view.from && typeof view.from === 'object') view.from = { email: (view.from as { email: string }).email };
  if (ctx.mutant('email-from-bare')) view.from = (view.from as { email: string }).email;
  if (ctx.mutant('email-mailbox-id-only')) view.mailbox = (view.mailbox as { id: string } | null)?.id ?? null;
  if (ctx.mutant('email-isunread-string')) view.isUnread = String(view.isUnread);
  if (ctx.mutant('email-sentat-epoch') && typeof view.sentAt === 'string') view.sentAt = Date.parse(view.sentAt);
  if (ctx.mutant('email-subject-missing')) delete view.subject;
  if (ctx.mutant('email-messageid-bare') && typeof view.messageId === 'string') view.messageId = view.messageId.replace(/^<|>$/g, '');
  if (ctx.mutant('email-sent-messageid-own') && view.type === 'sent') view.messageId = `<${r.id}@outreach-reference.local>`;
  if (ctx.mutant('email-hasattachments-string')) view.hasAttachments = String(view.hasAttachments);
  if (ctx.mutant('email-leadid-missing')) delete view.leadId;
  if (ctx.mutant('email-campaignid-missing')) delete view.campaignId;
  if (view.body && ctx.mutant('email-body-string')) view.body = (view.body as { html?: string | null }).html ?? '';
  // The mutants answer a received email (ingested over IMAP) by a path of its own: keyed by mailbox and
  // IMAP uid rather than its uuid, its body with the stored part only (no html key), or none (only sent mail's body is kept).
  const inbound = withBody && view.type === 'received';
  if (inbound && ctx.mutant('email-received-id-not-uuid')) view.id = `${(view.mailbox as { id: string } | null)?.id ?? 'inbox'}:${r.id.slice(0, 8)}`;
  if (inbound && view.body && ctx.mutant('email-received-body-no-html')) view.body = { text: (view.body as { text?: string | null }).text ?? '' };
  // More of that path: sentAt passed through from the Date header (RFC 2822), hasAttachments written only when true.
  if (inbound && typeof view.sentAt === 'string' && ctx.mutant('email-received-sentat-rfc2822')) view.sentAt = new Date(view.sentAt).toUTCString();
  if (inbound && view.hasAttachments === false && ctx.mutant('email-received-hasattachments-omitted')) delete view.hasAttachments;
  if (inbound && ctx.mutant('email-received-no-body')) delete view.body;
  // Still that path: its fields as the inbox ingestion stores them (no subject kept, the thread id a
  // number, the \Seen flag an integer, the Message-ID bare, a direction of its own, the mailbox's id
  // alone, the text part not read back).
  if (inbound && ctx.mutant('email-received-subject-null')) view.subject = null;
  if (inbound && view.threadId !== null && ctx.mutant('email-received-threadid-number')) view.threadId = Number.parseInt(r.id.slice(0, 8), 16);
  if (inbound && typeof view.isUnread === 'boolean' && ctx.mutant('email-received-isunread-int')) view.isUnread = view.isUnread ? 1 : 0;
  if (inbound && typeof view.messageId === 'string' && ctx.mutant('email-received-messageid-bare')) view.messageId = view.messageId.replace(/^<|>$/g, '');
  if (inbound && ctx.mutant('email-received-type-inbound')) view.type = 'inbound';
  if (inbound && ctx.mutant('email-received-mailbox-id-only')) view.mailbox = (view.mailbox as { id: string } | null)?.id ?? null;
  if (inbound && view.body && ctx.mutant('email-received-body-text-null')) view.body = { ...(view.body as object), text: null };
  // The mutant answers a received email whose body was never fetched from IMAP with a placeholder text.
  if (inbound && ctx.mutant('email-received-body-placeholder')) view.body = { html: null, text: '(message body not downloaded yet)' };
  return view;
}

export const list: Handler = async (ctx) => {
  // The second mutant keeps sent mail listed after its delete (a send log the listing unions, which DELETE does not mark).
  const where = ctx.mutant('email-delete-still-listed') ? ['org_id = ?'] : ['org_id = ?', ctx.mutant('email-delete-sent-still-listed') ? "(deleted_at IS NULL OR direction = 'sent')" : 'deleted_at IS NULL'];
  const params: unknown[] = [ctx.workspace.id];
  for (const [name, column] of [['campaignId', 'campaign_id'], ['leadId', 'lead_id']] as const) {
    const v = ctx.query.get(name);
    if (v === null) continue;
    if (!isUuid(v)) throw validationFailed([`${name}: must be a uuid`]);
    where.push(`${column} = ?`);
    params.push(v);
  }
  return ok(ctx.page({ list: 'emails', from: 'emails', where: where.join(' AND '), params, map: (r: EmailRow) => shown(ctx, r, ctx.mutant('email-list-with-body')) }));
};

type StoredEmail = EmailRow & { message_id: string | null; thread_id: string | null; direction: string | null };
function load(ctx: Ctx): StoredEmail {
  // The mutant finds an email by its id alone, whatever the workspace.
  if (ctx.mutant('email-by-id-any-workspace')) {
    const r = ctx.db.prepare('SELECT * FROM emails WHERE id = ? AND deleted_at IS NULL').get(ctx.params.id!) as StoredEmail | undefined;
    if (!r) throw notFound(`No email with id ${ctx.params.id} in this workspace.`);
    return r;
  }
  return loadOwned<StoredEmail>(ctx, 'emails', ctx.params.id!, 'email', 'AND deleted_at IS NULL');
}

export const get: Handler = async (ctx) => {
  const r = load(ctx);
  const doc = JSON.parse(r.doc) as { unreadable?: boolean };
  // 4.5: "a 200 always carries real content": a body that cannot be read now is a 503.
  if (doc.unreadable && ctx.mutant('email-unreadable-200')) return ok(emailView({ ...r, body: null }, true));
  // The second mutant fills the unreadable body with a placeholder text instead.
  if (doc.unreadable && ctx.mutant('email-unreadable-200-placeholder')) return ok({ ...emailView(r, true), body: { html: null, text: '(body unavailable)' } });
  if (doc.unreadable) throw upstreamUnavailable('The stored body of this email cannot be read right now; try again later.');
  if (Buffer.byteLength(r.body ?? '') > ctx.services.choices.sending.emailBodyInlineMax && !ctx.mutant('email-no-413'))
    throw bodyTooLarge(`This email is larger than ${ctx.services.choices.sending.emailBodyInlineMax} bytes and cannot be returned inline.`);
  return ok(shown(ctx, r, true));
};

export const remove: Handler = async (ctx) => {
  const r = load(ctx);
  ctx.db.prepare('UPDATE emails SET deleted_at = ? WHERE id = ?').run(ctx.clock.now(), r.id);
  if (ctx.mutant('email-delete-expunges-server') && r.direction === 'received' && r.account_id && r.message_id) await expungeOnServer(ctx.services, r.account_id, r.message_id);
  return ok(ctx.mutant('email-delete-answer-success') ? { id: r.id, success: true } : { id: r.id, deleted: true });
};

export const reply: Handler = async (ctx) => {
  const r = load(ctx);
  const b = bodyObject(ctx.body);
  const v = new V();
  const text = v.str(b, 'body', { required: true, nonEmpty: true, max: 100_000 });
  const accountId = v.uuid(b, 'accountId');
  v.done();
  return ok(await sendFollowUp(ctx, r as Parameters<typeof sendFollowUp>[1], { kind: 'reply', text: text!, ...(accountId ? { accountId } : {}) }));
};

export const forward: Handler = async (ctx) => {
  const r = load(ctx);
  const b = bodyObject(ctx.body);
  const v = new V();
  const to = v.str(b, 'to', { required: true, nonEmpty: true, max: 254 });
  if (to !== undefined && !isEmail(to)) v.issue('to', 'must be an email address');
  const text = v.str(b, 'body', { max: 100_000 }) ?? '';
  v.done();
  return ok(await sendFollowUp(ctx, r as Parameters<typeof sendFollowUp>[1], { kind: 'forward', to: to!, text }));
};

export const markRead: Handler = async (ctx) => {
  const r = load(ctx);
  const b = ctx.body === undefined ? {} : bodyObject(ctx.body);
  const v = new V();
  const isUnread = v.bool(b, 'isUnread') ?? false;
  v.done();
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  if (doc.isUnread !== null) doc.isUnread = isUnread;
  ctx.db.prepare('UPDATE emails SET doc = ? WHERE id = ?').run(JSON.stringify(doc), r.id);
  return ok(emailView({ ...r, doc: JSON.stringify(doc) }, false));
};
