import { z } from 'zod';
import { absent, uuid, isoTimestamp, messageId } from './primitives.ts';

// ---------------------------------------------------------------------------------------------
// 2.7 Email
// ---------------------------------------------------------------------------------------------

export const EMAIL_TYPES = ['sent', 'received'] as const;

const emailShape = {
  id: uuid,
  // opaque: pass back as is, never parse
  threadId: z.string().nullable(),
  messageId,
  mailbox: z.looseObject({ id: uuid, email: z.string() }),
  from: z.looseObject({ email: z.string(), name: absent(z.string()) }),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  snippet: z.string(),
  // null when the email is in no conversation
  isUnread: z.boolean().nullable(),
  type: z.enum(EMAIL_TYPES),
  // campaignId and leadId carry no stated type beyond the id convention; an inbox email that
  // belongs to no campaign has none, so they may be absent.
  campaignId: absent(uuid),
  leadId: absent(uuid),
  hasAttachments: z.boolean(),
  receivedAt: absent(isoTimestamp),
  sentAt: absent(isoTimestamp),
};

/** An email as listed (no body). */
export const emailSummary = z.looseObject(emailShape);

/** GET /v1/emails/{id}: the email with its body; a null part was never stored. */
export const email = z.looseObject({
  ...emailShape,
  body: z.looseObject({ html: z.string().nullable(), text: z.string().nullable() }),
});

export type Email = z.infer<typeof email>;
