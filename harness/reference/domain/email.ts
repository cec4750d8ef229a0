// An email's record (2.7) as stored by the sending engine and the IMAP poller, and its view.
export interface EmailRow {
  id: string; org_id: string; account_id: string | null; campaign_id: string | null; lead_id: string | null;
  doc: string; body: string | null; deleted_at: number | null; created_at: number;
}

/** Fields of the stored doc that are the reference's own bookkeeping, never shown. */
const INTERNAL = new Set(['links', 'classification', 'unreadable']);

export function emailView(r: EmailRow, withBody: boolean) {
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  const view: Record<string, unknown> = { id: r.id, ...Object.fromEntries(Object.entries(doc).filter(([k]) => !INTERNAL.has(k))), campaignId: r.campaign_id, leadId: r.lead_id };
  if (withBody) view.body = r.body ? JSON.parse(r.body) : { html: null, text: null };
  return view;
}

/** An email as rendered for sending (2.5 sequence step, 2.1 mailbox fields), before the wire. */
export interface RenderedEmail {
  messageId: string;
  from: { name: string; address: string };
  replyTo?: string;
  /** Envelope only: never a header. */
  bcc?: string;
  subject: string;
  /** The subject as merged, before it was made header-safe. */
  mergedSubject?: string;
  html: string | null;
  text: string;
  /** Original URLs of the rewritten links, by their index in the redirect path. */
  links: string[];
}
