// Emails (spec 2.7, 4.5; referenced reply/forward/mark read). Emails are written by the mailbox
// and sending work (later); until then the table is empty and every id answers 404.
// TODO(resources): sending replies/forwards over SMTP; 413 body_too_large; 503 when the body
// cannot be read.
import { ok, type Handler, type Ctx } from '../context.ts';
import { upstreamUnavailable } from '../errors.ts';
import { bodyObject, V } from '../validate.ts';
import { loadOwned } from './shared.ts';

export interface EmailRow {
  id: string; org_id: string; account_id: string | null; campaign_id: string | null; lead_id: string | null;
  doc: string; body: string | null; deleted_at: number | null; created_at: number;
}

export function emailView(r: EmailRow, withBody: boolean) {
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  const view: Record<string, unknown> = { id: r.id, ...doc, campaignId: r.campaign_id, leadId: r.lead_id };
  if (withBody) view.body = r.body ? JSON.parse(r.body) : { html: null, text: null };
  return view;
}

const load = (ctx: Ctx) => loadOwned<EmailRow>(ctx, 'emails', ctx.params.id!, 'email', 'AND deleted_at IS NULL');

export const get: Handler = async (ctx) => ok(emailView(load(ctx), true));

export const remove: Handler = async (ctx) => {
  const r = load(ctx);
  ctx.db.prepare('UPDATE emails SET deleted_at = ? WHERE id = ?').run(ctx.clock.now(), r.id);
  return ok({ id: r.id, deleted: true });
};

export const reply: Handler = async (ctx) => {
  load(ctx);
  const b = bodyObject(ctx.body);
  const v = new V();
  v.str(b, 'body', { required: true, nonEmpty: true });
  v.uuid(b, 'accountId');
  v.done();
  throw upstreamUnavailable('Sending replies is not available yet.');
};

export const forward: Handler = async (ctx) => {
  load(ctx);
  const b = bodyObject(ctx.body);
  const v = new V();
  v.str(b, 'to', { required: true, nonEmpty: true, max: 254 });
  v.str(b, 'body');
  v.done();
  throw upstreamUnavailable('Forwarding is not available yet.');
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
