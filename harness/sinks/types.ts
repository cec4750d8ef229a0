// Shared record types of the mail sinks: what the SMTP side records, what filters select.
// Plain data only (no behaviour), so the store, the HTTP API and its client agree on shapes.

export type SmtpStage = 'AUTH' | 'MAIL' | 'RCPT' | 'DATA';
export type TlsMode = 'none' | 'starttls' | 'implicit';

/** One SMTP reply line as the client saw it (code and the text after it). */
export interface SmtpReply {
  code: number;
  text: string;
}

/** What is known about an SMTP connection when something is recorded. */
export interface SessionInfo {
  id: string;
  remoteAddress: string;
  remotePort: number;
  /** the name given with EHLO/HELO, null before one */
  ehlo: string | null;
  tls: TlsMode;
  /** TLS protocol (e.g. TLSv1.3) when tls is not 'none' */
  tlsProtocol?: string;
  /** the authenticated mailbox user, null when not authenticated */
  authUser: string | null;
  connectedAt: number;
}

export interface RcptRecord {
  address: string;
  /** the reply to this RCPT TO; absent when the connection was dropped first */
  reply?: SmtpReply;
  accepted: boolean;
}

export type AttemptOutcome =
  | 'accepted' // the final reply was 2xx
  | 'rejected' // a 4xx/5xx reply ended it
  | 'dropped' // the sink closed the connection on purpose (fault rule)
  | 'aborted'; // the client went away, reset or started over before a final reply

/**
 * One attempt: an AUTH exchange (kind 'auth') or a mail transaction from MAIL FROM to the
 * reply after DATA (kind 'mail'). Rejected and abandoned attempts are recorded too.
 */
export interface Attempt {
  id: string;
  kind: 'auth' | 'mail';
  at: number; // ms since epoch when it began
  endedAt?: number;
  session: SessionInfo;
  /** the stage the attempt reached when it ended */
  stage: SmtpStage;
  outcome: AttemptOutcome | 'open';
  /** the final reply (2xx, 4xx or 5xx), absent when dropped/aborted without one */
  reply?: SmtpReply;
  /** kind 'auth': the user name tried and the mechanism */
  authUser?: string;
  authMethod?: string;
  /** kind 'mail' */
  mailFrom?: string;
  rcpt: RcptRecord[];
  /** size in bytes of the DATA received (also when rejected) */
  size?: number;
  /** true when the raw bytes were cut at the size limit */
  truncated?: boolean;
  /** the id of the stored message when accepted */
  messageId?: string;
  /** the id of the fault rule that decided this attempt, if any */
  faultRuleId?: string;
}

/** The envelope of an accepted message (Bcc recipients are visible here). */
export interface Envelope {
  mailFrom: string;
  rcptTo: string[];
}

/** Select messages. Every given field must match (addresses compare case-insensitively). */
export interface MessageFilter {
  id?: string;
  /** an envelope recipient */
  to?: string;
  /** the envelope sender (MAIL FROM) */
  from?: string;
  /** the authenticated SMTP user */
  user?: string;
  /** substring of the Subject header (case-insensitive) */
  subject?: string;
  /** the Message-ID header, with or without angle brackets */
  messageId?: string;
  /** the In-Reply-To header, with or without angle brackets */
  inReplyTo?: string;
  /** received at or after (ms since epoch) */
  since?: number;
  /** true: only mail the sink injected; false: only mail from outside */
  injected?: boolean;
}

export interface AttemptFilter {
  kind?: 'auth' | 'mail';
  outcome?: AttemptOutcome | 'open';
  stage?: SmtpStage;
  /** the AUTH user tried, or the session's authenticated user */
  user?: string;
  from?: string;
  /** any RCPT TO (accepted or not) */
  to?: string;
  since?: number;
  /** reply code of the final reply */
  code?: number;
}

/** A stored message without its bytes (what lists and the HTTP API show). */
export interface MessageSummary {
  id: string;
  attemptId: string;
  receivedAt: number;
  envelope: Envelope;
  authUser: string | null;
  tls: TlsMode;
  ehlo: string | null;
  size: number;
  subject: string | null;
  messageIdHeader: string | null;
  injected: boolean;
  /** local mailbox users whose Maildir received a copy */
  deliveredTo: string[];
}

export interface AddressView {
  name: string;
  address: string;
}

export interface AttachmentView {
  filename: string | null;
  contentType: string;
  size: number;
  contentId: string | null;
  inline: boolean;
  checksum: string; // md5 hex, as mailparser gives it
}

/** The parsed view of a message (mailparser), built on demand. */
export interface ParsedMessage {
  id: string;
  envelope: Envelope;
  /** header name (lower case) -> every value, unfolded, in order */
  headers: Record<string, string[]>;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  date: string | null;
  subject: string | null;
  from: AddressView[];
  to: AddressView[];
  cc: AddressView[];
  replyTo: AddressView[];
  text: string | null;
  html: string | null;
  /** href targets of <a> elements in the HTML, then bare URLs of the text part */
  links: string[];
  /** src of <img> elements in the HTML */
  images: string[];
  attachments: AttachmentView[];
}
