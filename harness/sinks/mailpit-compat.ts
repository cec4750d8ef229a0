// The Mailpit-compatible read subset: shapes of Mailpit's API v1 (MessagesSummary,
// MessageSummary, Message, headers) built from the sink's store, and Mailpit's search syntax as
// Mailpit reads it: from: to: cc: bcc: reply-to: addressed: subject: message-id: (parts match),
// is:read/unread/tagged, has:attachment (inline parts are not attachments) and has:inline,
// larger: smaller: (bytes, k or m), after: before: (a value that is no date left out), tag: (the sink keeps no tags: none matches),
// plain words (against what Mailpit indexes: the address headers, the subject, the body as text
// and the attachments' names; never raw headers nor HTML markup), "-" or "!" negation. A filter
// Mailpit knows and the sink does not, or one nobody knows, is refused (SearchError: HTTP 400
// naming it), never quietly matched against nothing.
import addressparser from 'nodemailer/lib/addressparser';
import { simpleParser } from 'mailparser';
import type { StoredMessage } from './message.ts';
import { bareId } from './headers.ts';

export interface MpAddress {
  Name: string;
  Address: string;
}

export interface MpSummary {
  ID: string;
  MessageID: string;
  Read: boolean;
  From: MpAddress;
  To: MpAddress[];
  Cc: MpAddress[];
  Bcc: MpAddress[];
  ReplyTo: MpAddress[];
  Subject: string;
  Created: string;
  Username: string;
  Tags: string[];
  Size: number;
  Attachments: number;
  Snippet: string;
}

const readIds = new WeakMap<StoredMessage, boolean>();
export const isRead = (m: StoredMessage) => readIds.get(m) === true;
export const markRead = (m: StoredMessage) => readIds.set(m, true);
export const setRead = (m: StoredMessage, read: boolean) => readIds.set(m, read);

function addrs(value: string | null): MpAddress[] {
  if (!value) return [];
  try {
    return addressparser(value, { flatten: true }).map((a) => ({ Name: a.name ?? '', Address: a.address ?? '' }));
  } catch {
    return [];
  }
}

function headerAll(m: StoredMessage, name: string): string | null {
  const vals = m.headers().filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
  return vals.length ? vals.join(', ') : null;
}

function bcc(m: StoredMessage, to: MpAddress[], cc: MpAddress[]): MpAddress[] {
  const seen = new Set([...to, ...cc].map((a) => a.Address.toLowerCase()));
  const out = addrs(headerAll(m, 'bcc'));
  for (const a of out) seen.add(a.Address.toLowerCase());
  for (const r of m.envelope.rcptTo) if (!seen.has(r.toLowerCase())) out.push({ Name: '', Address: r });
  return out;
}

function snippet(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 250);
}

export async function summary(m: StoredMessage): Promise<MpSummary> {
  const p = await m.parsed();
  const to = addrs(headerAll(m, 'to'));
  const cc = addrs(headerAll(m, 'cc'));
  return {
    ID: m.id,
    MessageID: m.messageIdHeader ?? '',
    Read: isRead(m),
    From: addrs(m.header('from'))[0] ?? { Name: '', Address: m.envelope.mailFrom },
    To: to,
    Cc: cc,
    Bcc: bcc(m, to, cc),
    ReplyTo: addrs(headerAll(m, 'reply-to')),
    Subject: m.subject ?? '',
    Created: new Date(m.receivedAt).toISOString(),
    Username: m.session.authUser ?? '',
    Tags: [],
    Size: m.size,
    Attachments: p.attachments.filter((a) => !a.inline).length,
    Snippet: snippet(p.text ?? (p.html ? p.html.replace(/<[^>]*>/g, ' ') : null)),
  };
}

export async function fullMessage(m: StoredMessage): Promise<Record<string, unknown>> {
  const p = await m.parsed();
  const to = addrs(headerAll(m, 'to'));
  const cc = addrs(headerAll(m, 'cc'));
  const att = (inline: boolean) =>
    p.attachments
      .map((a, i) => ({ a, i }))
      .filter(({ a }) => a.inline === inline)
      .map(({ a, i }) => ({
        PartID: String(i + 2),
        FileName: a.filename ?? '',
        ContentType: a.contentType,
        ContentID: a.contentId ? (bareId(a.contentId) ?? '') : '',
        Size: a.size,
        Checksums: { MD5: a.checksum, SHA1: '', SHA256: '' },
      }));
  const lu = m.header('list-unsubscribe');
  return {
    ID: m.id,
    MessageID: m.messageIdHeader ?? '',
    From: addrs(m.header('from'))[0] ?? { Name: '', Address: m.envelope.mailFrom },
    To: to,
    Cc: cc,
    Bcc: bcc(m, to, cc),
    ReplyTo: addrs(headerAll(m, 'reply-to')),
    ReturnPath: m.envelope.mailFrom,
    Subject: m.subject ?? '',
    ListUnsubscribe: {
      Header: lu ?? '',
      HeaderPost: m.header('list-unsubscribe-post') ?? '',
      Links: lu ? [...lu.matchAll(/<([^>]+)>/g)].map((x) => x[1]!) : [],
      Errors: '',
    },
    Date: p.date ?? new Date(m.receivedAt).toISOString(),
    Tags: [],
    Username: m.session.authUser ?? '',
    Text: p.text ?? '',
    HTML: p.html ?? '',
    Size: m.size,
    Inline: att(true),
    Attachments: att(false),
  };
}

/** Go's canonical MIME header key: "message-id" -> "Message-Id". */
export function canonicalKey(name: string): string {
  return name
    .toLowerCase()
    .split('-')
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join('-');
}

export function headersObject(m: StoredMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of m.headers()) (out[canonicalKey(k)] ??= []).push(v);
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]!]));
}

type Term = { key: string | null; value: string; negate: boolean; at?: number; bytes?: number };

/** A search the sink cannot answer truly: the HTTP API answers 400 with this message. */
export class SearchError extends Error {}

const KNOWN = ['from', 'to', 'cc', 'bcc', 'reply-to', 'addressed', 'subject', 'message-id', 'is', 'has', 'after', 'before', 'larger', 'smaller', 'tag'];
const IS_VALUES = ['read', 'unread', 'tagged'];
const HAS_VALUES = ['attachment', 'attachments', 'inline', 'inlines'];

/** Mailpit's sizes: bytes, or k/kb (x 1024) and m/mb (x 1024 x 1024), decimals allowed; 0 when not a size. */
export function sizeToBytes(v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s?([a-z]{1,2})?$/.exec(v.toLowerCase());
  if (!m) return 0;
  const unit = m[2] ?? '';
  const factor = unit === '' ? 1 : unit === 'k' || unit === 'kb' ? 1024 : unit === 'm' || unit === 'mb' ? 1024 * 1024 : 0;
  return Math.floor(Number(m[1]) * factor);
}

/** Checks one filter: a known key with a value the sink can judge (dates parsed once); null: a term Mailpit leaves out. */
function checked(t: Term): Term | null {
  if (t.key === null) return t;
  if (!KNOWN.includes(t.key)) throw new SearchError(`unknown search filter "${t.key}:" (known: ${KNOWN.map((k) => `${k}:`).join(' ')})`);
  if (t.key === 'is' && !IS_VALUES.includes(t.value)) throw new SearchError(`is:${t.value} is not a filter the sink answers (is:read, is:unread, is:tagged)`);
  if (t.key === 'has' && !HAS_VALUES.includes(t.value)) throw new SearchError(`has:${t.value} is not a filter the sink answers (has:attachment, has:inline)`);
  if (t.key === 'larger' || t.key === 'smaller') {
    // As Mailpit: a value that is no size makes the whole term a plain word.
    const bytes = sizeToBytes(t.value);
    return bytes > 0 ? { ...t, bytes } : { key: null, value: `${t.key}:${t.value}`, negate: t.negate };
  }
  if (t.key === 'after' || t.key === 'before') {
    // As Mailpit: a value that is no date leaves the term out (it logs "ignoring invalid after: date").
    const at = Date.parse(t.value);
    return Number.isNaN(at) ? null : { ...t, at };
  }
  // As Mailpit: an address filter whose value cleans to nothing is left out.
  if (ADDRESS_KEYS.includes(t.key) && cleanString(t.value) === '') return null;
  return t;
}

const ADDRESS_KEYS = ['from', 'to', 'cc', 'bcc', 'reply-to'];

export function parseQuery(q: string): Term[] {
  const terms: Term[] = [];
  for (const m of q.matchAll(/(-|!)?(?:([a-z-]+):)?(?:"([^"]*)"|(\S+))/gi)) {
    const value = (m[3] ?? m[4] ?? '').toLowerCase();
    if (!value && !m[2]) continue;
    const term = checked({ key: m[2]?.toLowerCase() ?? null, value, negate: !!m[1] });
    if (term) terms.push(term);
  }
  return terms;
}

/** Mailpit's cleanString: quotes, brackets, commas, semicolons and line breaks become spaces; lower case, spaces collapsed. */
export function cleanString(v: string): string {
  return v.replace(/\uFEFF/g, ' ').replace(/\r?\n|\t|>|<|"|,|;|\(|\)/g, ' ').trim().split(/\s+/).filter(Boolean).join(' ').toLowerCase();
}

/** HTML as the text a reader sees: no markup, no style or script, the common entities decoded. */
function htmlText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, e: string) => entities[e]!);
}

const searchTexts = new WeakMap<StoredMessage, string>();

/** What Mailpit indexes for plain words: the address headers, subject, body as text (HTML stripped, else the text part) and attachment names. */
async function searchText(m: StoredMessage): Promise<string> {
  const known = searchTexts.get(m);
  if (known !== undefined) return known;
  const p = await m.parsed();
  const addresses = ['from', 'to', 'cc', 'bcc', 'reply-to', 'return-path'].map((h) => headerAll(m, h) ?? '');
  const body = p.html ? htmlText(p.html) : (p.text ?? '');
  // Attachments' names only: an inline part (an embedded image) is not among them, as in Mailpit's index.
  const text = cleanString([m.subject ?? '', ...addresses, body, ...p.attachments.filter((a) => !a.inline).map((a) => a.filename ?? '')].join(' '));
  searchTexts.set(m, text);
  return text;
}

/** Every address the message names (From, To, Cc, Bcc, Reply-To), names included, as Mailpit's addressed: reads them. */
async function addressed(m: StoredMessage): Promise<string> {
  const s = await summary(m);
  return JSON.stringify([s.From, s.To, s.Cc, s.Bcc, s.ReplyTo]).toLowerCase();
}

/**
 * An address filter as Mailpit reads it: the field's addresses, names included, as the JSON it
 * stores, matched in part. From, To and Cc are the headers (never the SMTP envelope); Bcc is the
 * Bcc header plus the envelope's recipients no header names, as Mailpit's SMTP server adds them.
 */
async function addressJson(m: StoredMessage, key: 'from' | 'to' | 'cc' | 'bcc'): Promise<string> {
  if (key === 'from') return JSON.stringify(addrs(m.header('from'))[0] ?? { Name: m.header('from') ?? '', Address: '' }).toLowerCase();
  const s = await summary(m);
  return JSON.stringify(key === 'to' ? s.To : key === 'cc' ? s.Cc : s.Bcc).toLowerCase();
}

const attachmentsOf = async (m: StoredMessage, inline: boolean) => (await m.parsed()).attachments.filter((a) => !!a.inline === inline).length;

async function termMatches(m: StoredMessage, t: Term): Promise<boolean> {
  const has = (s: string | null | undefined) => !!s && s.toLowerCase().includes(t.value);
  switch (t.key) {
    case 'from':
    case 'to':
    case 'cc':
    case 'bcc':
      return (await addressJson(m, t.key)).includes(cleanString(t.value));
    case 'addressed':
      return (await addressed(m)).includes(cleanString(t.value));
    case 'subject':
      return has(m.subject);
    case 'message-id':
      return (m.messageIdHeader ?? '').toLowerCase().includes(cleanString(t.value));
    case 'reply-to':
      return has(headerAll(m, 'reply-to'));
    case 'is':
      return t.value === 'tagged' ? false : t.value === 'read' ? isRead(m) : !isRead(m); // the sink keeps no tags
    case 'has':
      return (await attachmentsOf(m, t.value.startsWith('inline'))) > 0;
    case 'tag':
      return false; // the sink keeps no tags
    default:
      return (await searchText(m)).includes(cleanString(t.value));
  }
}

/** larger:/smaller: as Mailpit: strictly above (below) the size, and negated strictly below (above). */
function sizeMatches(m: StoredMessage, t: Term): boolean {
  const larger = t.key === 'larger' ? !t.negate : t.negate;
  return larger ? m.size > t.bytes! : m.size < t.bytes!;
}

/** after:/before: as Mailpit: at or after (before) the instant, and negated at or before (after) it. */
function dateMatches(m: StoredMessage, t: Term): boolean {
  const after = t.key === 'after' ? !t.negate : t.negate;
  return after ? m.receivedAt >= t.at! : m.receivedAt <= t.at!;
}

export async function searchMatches(m: StoredMessage, terms: Term[]): Promise<boolean> {
  for (const t of terms) {
    const ok = t.bytes !== undefined ? sizeMatches(m, t) : t.at !== undefined ? dateMatches(m, t) : (await termMatches(m, t)) !== t.negate;
    if (!ok) return false;
  }
  return true;
}

/** Mailpit's MessagesSummary: `matched` in arrival order; pages go newest first. */
export async function messagesSummary(all: StoredMessage[], matched: StoredMessage[], start: number, limit: number): Promise<Record<string, unknown>> {
  const newestFirst = [...matched].reverse();
  const page = newestFirst.slice(start, start + limit);
  return {
    total: all.length,
    unread: all.filter((m) => !isRead(m)).length,
    messages_count: matched.length,
    messages_unread: matched.filter((m) => !isRead(m)).length,
    start,
    tags: [],
    messages: await Promise.all(page.map(summary)),
  };
}

/** One attachment of a message by the PartID fullMessage gives it (its index + 2), or null. */
export async function partOf(m: StoredMessage, partId: string): Promise<{ content: Buffer; contentType: string } | null> {
  const i = /^\d+$/.test(partId) ? Number(partId) - 2 : -1;
  const a = i >= 0 ? (await simpleParser(m.raw, { skipImageLinks: true, skipTextToHtml: true })).attachments[i] : undefined;
  return a ? { content: a.content, contentType: a.contentType || 'application/octet-stream' } : null;
}

/** Mailpit's AppInformation, from what the sink really holds and has seen since it started. */
export function appInformation(o: { version: string; messages: StoredMessage[]; accepted: { size?: number }[]; rejected: number; deleted: number; startedAt: number }): Record<string, unknown> {
  return {
    Version: o.version,
    LatestVersion: '',
    Database: '',
    DatabaseSize: o.messages.reduce((n, m) => n + m.size, 0),
    Messages: o.messages.length,
    Unread: o.messages.filter((m) => !isRead(m)).length,
    Tags: {},
    RuntimeStats: {
      Memory: process.memoryUsage().rss,
      MessagesDeleted: o.deleted,
      SMTPAccepted: o.accepted.length,
      SMTPAcceptedSize: o.accepted.reduce((n, a) => n + (a.size ?? 0), 0),
      SMTPIgnored: 0,
      SMTPRejected: o.rejected,
      Uptime: Math.floor((Date.now() - o.startedAt) / 1000),
    },
  };
}
