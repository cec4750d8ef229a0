// Builds the lead-side messages the sink injects: replies threaded on a recorded message,
// DSN bounces (multipart/report + message/delivery-status), out-of-office answers
// (Auto-Submitted: auto-replied) and unsubscribe replies. Pure functions: bytes in, bytes out.
import { randomBytes } from 'node:crypto';
import { headerEnd } from './headers.ts';

export const SINK_DOMAIN = 'outreach-sink.localhost';

export interface Original {
  /** Message-ID header of the recorded message, without brackets */
  messageId: string;
  /** References header values, without brackets */
  references: string[];
  subject: string;
  /** the address the recorded message came from (the target's mailbox) */
  sender: string;
  /** the recipient (the lead) */
  recipient: string;
  receivedAt: number;
  /** the text part, quoted in replies */
  text: string | null;
  raw: Buffer;
}

export interface Composed {
  mailFrom: string; // '' = null sender
  rcptTo: string;
  messageId: string;
  raw: Buffer;
}

export function newMessageId(): string {
  return `${Date.now().toString(36)}.${randomBytes(6).toString('hex')}@${SINK_DOMAIN}`;
}

const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

/** RFC 2047 encoding for header values that are not printable ASCII. */
export function encodeHeader(value: string): string {
  const clean = value.replace(/[\r\n]+/g, ' ');
  return isAscii(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
}

function mailbox(name: string | undefined, address: string): string {
  return name ? `${encodeHeader(`"${name.replace(/["\\]/g, '')}"`)} <${address}>` : `<${address}>`;
}

function rfc2822(ms: number): string {
  return new Date(ms).toUTCString().replace('GMT', '+0000');
}

function textBody(text: string): { headers: [string, string][]; body: string } {
  const crlf = text.replace(/\r?\n/g, '\r\n');
  if (isAscii(crlf.replace(/\r\n/g, '')) && crlf.split('\r\n').every((l) => l.length <= 900)) {
    return { headers: [['Content-Type', 'text/plain; charset=utf-8'], ['Content-Transfer-Encoding', '7bit']], body: crlf };
  }
  const b64 = Buffer.from(crlf, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  return { headers: [['Content-Type', 'text/plain; charset=utf-8'], ['Content-Transfer-Encoding', 'base64']], body: b64 };
}

function assemble(headers: [string, string][], body: string): Buffer {
  const head = headers.map(([k, v]) => `${k}: ${v}`).join('\r\n');
  return Buffer.from(`${head}\r\n\r\n${body.endsWith('\r\n') ? body : body + '\r\n'}`, 'utf8');
}

function threading(o: Original): [string, string][] {
  const refs = [...o.references.filter((r) => r !== o.messageId), o.messageId].map((r) => `<${r}>`);
  return [
    ['In-Reply-To', `<${o.messageId}>`],
    ['References', refs.join(' ')],
  ];
}

function quote(o: Original): string {
  const lines = (o.text ?? '').replace(/\r\n/g, '\n').split('\n').slice(0, 20);
  return `On ${rfc2822(o.receivedAt)}, ${o.sender} wrote:\n` + lines.map((l) => `> ${l}`).join('\n');
}

const reSubject = (s: string) => (/^re:/i.test(s.trim()) ? s.trim() : `Re: ${s.trim()}`);

export interface ReplyOptions {
  /** the lead's address (default: the recorded recipient) */
  from?: string;
  fromName?: string;
  /** the mailbox that receives it (default: the recorded sender) */
  to?: string;
  subject?: string;
  body?: string;
}

export function composeReply(o: Original, opts: ReplyOptions = {}): Composed {
  const from = opts.from ?? o.recipient;
  const to = opts.to ?? o.sender;
  const messageId = newMessageId();
  const text = `${opts.body ?? 'Thanks for reaching out. This sounds interesting: can we talk next week?'}\n\n${quote(o)}\n`;
  const b = textBody(text);
  const raw = assemble(
    [
      ['From', mailbox(opts.fromName, from)],
      ['To', `<${to}>`],
      ['Subject', encodeHeader(opts.subject ?? reSubject(o.subject))],
      ['Date', rfc2822(Date.now())],
      ['Message-ID', `<${messageId}>`],
      ...threading(o),
      ['MIME-Version', '1.0'],
      ...b.headers,
    ],
    b.body,
  );
  return { mailFrom: from, rcptTo: to, messageId, raw };
}

export interface OutOfOfficeOptions {
  from?: string;
  to?: string;
  /** default "Automatic reply: <subject>" */
  subject?: string;
  body?: string;
  /** ISO date the lead is back (in the text) */
  returnDate?: string;
}

export function composeOutOfOffice(o: Original, opts: OutOfOfficeOptions = {}): Composed {
  const from = opts.from ?? o.recipient;
  const to = opts.to ?? o.sender;
  const messageId = newMessageId();
  const back = opts.returnDate ?? new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
  const b = textBody(opts.body ?? `I am out of the office until ${back} with limited access to email.\nI will reply to your message when I am back.\n`);
  const raw = assemble(
    [
      ['From', `<${from}>`],
      ['To', `<${to}>`],
      ['Subject', encodeHeader(opts.subject ?? `Automatic reply: ${o.subject.trim()}`)],
      ['Date', rfc2822(Date.now())],
      ['Message-ID', `<${messageId}>`],
      ...threading(o),
      ['Auto-Submitted', 'auto-replied'],
      ['X-Autoreply', 'yes'],
      ['X-Auto-Response-Suppress', 'All'],
      ['Precedence', 'auto_reply'],
      ['MIME-Version', '1.0'],
      ...b.headers,
    ],
    b.body,
  );
  return { mailFrom: from, rcptTo: to, messageId, raw };
}

export interface UnsubscribeOptions {
  from?: string;
  to?: string;
  body?: string;
}

export function composeUnsubscribe(o: Original, opts: UnsubscribeOptions = {}): Composed {
  return composeReply(o, { from: opts.from, to: opts.to, body: opts.body ?? 'Please unsubscribe me and remove me from your list. Do not contact me again.' });
}

export interface BounceOptions {
  /** hard: Action failed, 5.x.x; soft: Action delayed, 4.x.x */
  kind?: 'hard' | 'soft';
  /** the failed recipient (default: the recorded recipient) */
  recipient?: string;
  /** the mailbox that receives the DSN (default: the recorded sender) */
  to?: string;
  /** RFC 3463 status (default 5.1.1 hard, 4.2.2 soft) */
  status?: string;
  /** default: a Postfix-like SMTP diagnostic */
  diagnostic?: string;
}

export function composeBounce(o: Original, opts: BounceOptions = {}): Composed {
  const kind = opts.kind ?? 'hard';
  const status = opts.status ?? (kind === 'hard' ? '5.1.1' : '4.2.2');
  if (!/^[45]\.\d{1,3}\.\d{1,3}$/.test(status) || (kind === 'hard') !== status.startsWith('5')) {
    throw new Error(`bounce status ${JSON.stringify(status)} does not fit a ${kind} bounce (hard: 5.x.x, soft: 4.x.x)`);
  }
  const rcpt = opts.recipient ?? o.recipient;
  const to = opts.to ?? o.sender;
  const domain = rcpt.split('@')[1] ?? 'example.invalid';
  const code = kind === 'hard' ? '550' : '452';
  const diagnostic =
    opts.diagnostic ??
    (kind === 'hard' ? `${code} ${status} <${rcpt}>: Recipient address rejected: User unknown` : `${code} ${status} <${rcpt}>: Mailbox full, try again later`);
  const messageId = newMessageId();
  const boundary = `dsn-${randomBytes(8).toString('hex')}`;
  const { end } = headerEnd(o.raw);
  const originalHeaders = o.raw.subarray(0, end).toString('utf8').replace(/\r?\n/g, '\r\n');
  const human =
    kind === 'hard'
      ? `This is the mail system at host ${SINK_DOMAIN}.\r\n\r\nI'm sorry to have to inform you that your message could not\r\nbe delivered to one or more recipients.\r\n\r\n<${rcpt}>: host mx.${domain} said: ${diagnostic}\r\n`
      : `This is the mail system at host ${SINK_DOMAIN}.\r\n\r\n####################################################################\r\n# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #\r\n####################################################################\r\n\r\nYour message could not be delivered for some time and is still queued.\r\n\r\n<${rcpt}>: host mx.${domain} said: ${diagnostic}\r\n`;
  const status_ = [
    `Reporting-MTA: dns; ${SINK_DOMAIN}`,
    `Arrival-Date: ${rfc2822(o.receivedAt)}`,
    '',
    `Final-Recipient: rfc822; ${rcpt}`,
    `Original-Recipient: rfc822; ${rcpt}`,
    `Action: ${kind === 'hard' ? 'failed' : 'delayed'}`,
    `Status: ${status}`,
    `Remote-MTA: dns; mx.${domain}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    ...(kind === 'soft' ? [`Will-Retry-Until: ${rfc2822(Date.now() + 5 * 86400_000)}`] : []),
  ].join('\r\n');
  const body = [
    'This is a MIME-encapsulated message.',
    '',
    `--${boundary}`,
    'Content-Description: Notification',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    human,
    `--${boundary}`,
    'Content-Description: Delivery report',
    'Content-Type: message/delivery-status',
    '',
    status_,
    '',
    `--${boundary}`,
    'Content-Description: Undelivered Message Headers',
    'Content-Type: text/rfc822-headers',
    '',
    originalHeaders,
    '',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const raw = assemble(
    [
      ['From', `"Mail Delivery System" <MAILER-DAEMON@${SINK_DOMAIN}>`],
      ['To', `<${to}>`],
      ['Subject', kind === 'hard' ? 'Undelivered Mail Returned to Sender' : 'Delayed Mail (still being retried)'],
      ['Date', rfc2822(Date.now())],
      ['Message-ID', `<${messageId}>`],
      ['Auto-Submitted', 'auto-replied'],
      ['MIME-Version', '1.0'],
      ['Content-Type', `multipart/report; report-type=delivery-status; boundary="${boundary}"`],
    ],
    body,
  );
  return { mailFrom: '', rcptTo: to, messageId, raw };
}
