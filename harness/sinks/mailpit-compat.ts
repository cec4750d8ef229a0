// The Mailpit-compatible read subset: shapes of Mailpit's API v1 (MessagesSummary,
// MessageSummary, Message, headers) built from the sink's store, and Mailpit's search syntax
// (from: to: cc: bcc: reply-to: subject: message-id: is:read/unread, has:attachment, after: before:,
// tag: (the sink keeps no tags: none matches), plain words, "-" negation). A filter Mailpit knows and
// the sink does not, or one nobody knows, is refused (SearchError: HTTP 400 naming it), never
// quietly matched against nothing.
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

type Term = { key: string | null; value: string; negate: boolean; at?: number };

/** A search the sink cannot answer truly: the HTTP API answers 400 with this message. */
export class SearchError extends Error {}

const KNOWN = ['from', 'to', 'cc', 'bcc', 'reply-to', 'subject', 'message-id', 'is', 'has', 'after', 'before', 'tag'];
const IS_VALUES = ['read', 'unread'];
const HAS_VALUES = ['attachment', 'attachments'];

/** Checks one filter: a known key with a value the sink can judge (dates parsed once). */
function checked(t: Term): Term {
  if (t.key === null) return t;
  if (!KNOWN.includes(t.key)) throw new SearchError(`unknown search filter "${t.key}:" (known: ${KNOWN.map((k) => `${k}:`).join(' ')})`);
  if (t.key === 'is' && !IS_VALUES.includes(t.value)) throw new SearchError(`is:${t.value} is not a filter the sink answers (is:read, is:unread)`);
  if (t.key === 'has' && !HAS_VALUES.includes(t.value)) throw new SearchError(`has:${t.value} is not a filter the sink answers (has:attachment)`);
  if (t.key === 'after' || t.key === 'before') {
    const at = Date.parse(t.value);
    if (Number.isNaN(at)) throw new SearchError(`${t.key}:${t.value} is not a date (YYYY-MM-DD, or an ISO 8601 time)`);
    return { ...t, at };
  }
  return t;
}

export function parseQuery(q: string): Term[] {
  const terms: Term[] = [];
  for (const m of q.matchAll(/(-|!)?(?:([a-z-]+):)?(?:"([^"]*)"|(\S+))/gi)) {
    const value = (m[3] ?? m[4] ?? '').toLowerCase();
    if (!value && !m[2]) continue;
    terms.push(checked({ key: m[2]?.toLowerCase() ?? null, value, negate: !!m[1] }));
  }
  return terms;
}

async function termMatches(m: StoredMessage, t: Term): Promise<boolean> {
  const has = (s: string | null | undefined) => !!s && s.toLowerCase().includes(t.value);
  switch (t.key) {
    case 'from':
      return has(m.header('from')) || has(m.envelope.mailFrom);
    case 'to':
      return has(headerAll(m, 'to')) || has(headerAll(m, 'cc')) || m.envelope.rcptTo.some((r) => has(r));
    case 'cc':
      return has(headerAll(m, 'cc'));
    case 'bcc':
      return m.envelope.rcptTo.some((r) => has(r));
    case 'subject':
      return has(m.subject);
    case 'message-id':
      return (m.messageIdHeader ?? '').toLowerCase() === (bareId(t.value) ?? '');
    case 'reply-to':
      return has(headerAll(m, 'reply-to'));
    case 'is':
      return t.value === 'read' ? isRead(m) : !isRead(m);
    case 'has':
      return (await m.parsed()).attachments.length > 0;
    case 'after':
      return m.receivedAt > t.at!;
    case 'before':
      return m.receivedAt < t.at!;
    case 'tag':
      return false; // the sink keeps no tags
    default:
      return has(m.raw.toString('utf8'));
  }
}

export async function searchMatches(m: StoredMessage, terms: Term[]): Promise<boolean> {
  for (const t of terms) if ((await termMatches(m, t)) === t.negate) return false;
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
