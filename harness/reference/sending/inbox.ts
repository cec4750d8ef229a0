// IMAP polling (part 6: no events; the product finds replies by reading its mailboxes): every
// active mailbox with IMAP that has sent mail is read when its poll is due (options.ts
// imapPollSeconds, on the clock) and on drain. New messages (UID above the last one seen, per
// UIDVALIDITY) become `received` inbox emails and, when they answer a sent email, events of its
// campaign: a reply moves the lead to replied (lastRepliedAt, metrics) and stops its sequence
// under stopOnReply; an out-of-office reply is recorded as such; a hard bounce and an unsubscribe
// request stop the lead's sequence. The server copy is never touched (read with BODY.PEEK).
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import type { Services } from '../request/context.ts';
import type { CampaignDoc } from '../domain/campaign.ts';
import { classify, type Classified } from './classify.ts';

const TICK_MS = 1000;
const PARALLEL = 8;

interface Box { id: string; org_id: string; email_address: string; doc: string; secrets: string }
interface SentRow { id: string; org_id: string; campaign_id: string | null; lead_id: string | null; account_id: string; thread_id: string | null; step: number | null }

/** 2.7 `snippet`: a short preview of the text the message carries (where the mutants of a received email's snippet switch). */
function receivedSnippet(s: Services, text: string | null, raw: string): string {
  // The mutants preview the raw MIME source (headers first), or leave the preview empty.
  if (s.mutant('email-received-snippet-raw')) return raw.replace(/\s+/g, ' ').trim().slice(0, 140);
  if (s.mutant('email-received-snippet-empty')) return '';
  return (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 140);
}

/** The lead a received email belongs to: the lead of the sent campaign email it answers (the mutant drops it, the campaign kept). */
const receivedLead = (s: Services, sent: SentRow | undefined): string | null => (s.mutant('email-received-leadid-missing') ? null : sent?.lead_id ?? null);

/** A mailparser header value as text: structured ones (Content-Type...) keep their parameters. */
function headerText(v: unknown): string {
  if (typeof v === 'string') return v;
  const o = v as { value?: unknown; params?: Record<string, string>; text?: string } | null;
  if (o && typeof o.value === 'string') return [o.value, ...Object.entries(o.params ?? {}).map(([k, x]) => `${k}="${x}"`)].join('; ');
  if (o && typeof o.text === 'string') return o.text;
  return JSON.stringify(v);
}

/**
 * The mail server went away (reset, closed, refused): the session is dropped and the next poll
 * connects again, as a product would, without a line in the log (at the end of a run the kit's
 * sinks stop while a poll may be under way).
 */
function gone(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return /^(ECONNRESET|EPIPE|ECONNREFUSED|NoConnection|EConnectionClosed)$/.test(err?.code ?? '') || /ECONNRESET|EPIPE|ECONNREFUSED|Connection not available|Connection closed|socket (hang up|closed)/i.test(err?.message ?? '');
}

export class InboxPoller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private readonly sessions = new Map<string, { key: string; client: ImapFlow }>();

  constructor(private readonly s: Services) {
    s.db.exec('CREATE TABLE IF NOT EXISTS imap_state (account_id TEXT PRIMARY KEY, uidvalidity TEXT, last_uid INTEGER NOT NULL, polled_at INTEGER NOT NULL)');
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.poll(this.s.clock.now()).catch(() => 0), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const id of [...this.sessions.keys()]) this.drop(id);
  }

  /**
   * Drainer: polls every mailbox whose poll is due (`everyMailbox`: every mailbox, due or not);
   * returns how many new messages it stored.
   */
  readonly drain = (now: number, _deadline?: number, _organizationId?: string, everyMailbox = false): Promise<number> => this.poll(now, everyMailbox);

  private poll(now: number, everyMailbox = false): Promise<number> {
    this.running ??= this.round(now, everyMailbox).finally(() => (this.running = null));
    return this.running;
  }

  private async round(now: number, everyMailbox: boolean): Promise<number> {
    if (this.stopped) return 0;
    const every = everyMailbox ? 0 : this.s.choices.sending.imapPollSeconds * 1000;
    const boxes = this.s.db
      .prepare(
        `SELECT a.id, a.org_id, a.email_address, a.doc, a.secrets FROM accounts a LEFT JOIN imap_state st ON st.account_id = a.id
         WHERE a.status = 'active' AND (st.polled_at IS NULL OR st.polled_at + ? <= ?)
         AND EXISTS (SELECT 1 FROM emails e WHERE e.account_id = a.id AND e.direction = 'sent')`,
      )
      .all(every, now) as Box[];
    let stored = 0;
    for (let i = 0; i < boxes.length; i += PARALLEL) {
      const got = await Promise.all(boxes.slice(i, i + PARALLEL).map((b) => this.pollBox(b, now).catch((e) => (gone(e) || this.s.log(`reference: IMAP poll of ${b.id} failed: ${(e as Error).message}`), 0))));
      stored += got.reduce((a, b) => a + b, 0);
    }
    return stored;
  }

  /** An open IMAP session on the mailbox's INBOX, kept between polls (login once, not per poll). */
  private async session(b: Box, d: Record<string, any>, password: string): Promise<ImapFlow> {
    const key = `${d.imap.host}:${d.imap.port}:${d.imap.username}:${password}:${d.imapAllowInvalidCert === true}`;
    const have = this.sessions.get(b.id);
    if (have && have.key === key && have.client.usable) return have.client;
    if (have) this.drop(b.id);
    const client = new ImapFlow({
      host: d.imap.host, port: d.imap.port, secure: d.imap.port === 993,
      auth: { user: d.imap.username, pass: password },
      tls: { rejectUnauthorized: d.imapAllowInvalidCert !== true },
      logger: false, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 60_000,
    });
    client.on('error', () => this.drop(b.id));
    client.on('close', () => this.drop(b.id));
    await client.connect();
    await client.mailboxOpen('INBOX', { readOnly: true });
    this.sessions.set(b.id, { key, client });
    return client;
  }

  private drop(accountId: string): void {
    const have = this.sessions.get(accountId);
    if (!have) return;
    this.sessions.delete(accountId);
    have.client.close();
  }

  private async pollBox(b: Box, now: number): Promise<number> {
    const d = JSON.parse(b.doc) as Record<string, any>;
    if (!d.imap) return 0;
    const secrets = JSON.parse(b.secrets) as { imapPassword?: string };
    const state = this.s.db.prepare('SELECT uidvalidity, last_uid FROM imap_state WHERE account_id = ?').get(b.id) as { uidvalidity: string | null; last_uid: number } | undefined;
    this.s.db.prepare('INSERT INTO imap_state (account_id, uidvalidity, last_uid, polled_at) VALUES (?, NULL, 0, ?) ON CONFLICT(account_id) DO UPDATE SET polled_at = excluded.polled_at').run(b.id, now);
    let stored = 0;
    try {
      const client = await this.session(b, d, secrets.imapPassword ? this.s.decrypt(secrets.imapPassword) : '');
      await client.noop(); // the server tells what arrived since the last poll
      const mbox = client.mailbox;
      // The server closed the session (its user removed at a check's end): gone, the next poll logs in again.
      if (!mbox) throw Object.assign(new Error('INBOX is not selected'), { code: 'EConnectionClosed' });
      const validity = String(mbox.uidValidity);
      const from = state && state.uidvalidity === validity ? state.last_uid + 1 : 1;
      let last = from - 1;
      if (mbox.exists > 0) {
        for await (const msg of client.fetch(`${from}:*`, { uid: true, source: true }, { uid: true })) {
          if (msg.uid < from || !msg.source) continue;
          last = Math.max(last, msg.uid);
          if (await this.store(b, msg.source, now)) stored++;
        }
      }
      this.s.db.prepare('UPDATE imap_state SET uidvalidity = ?, last_uid = ? WHERE account_id = ?').run(validity, last, b.id);
    } catch (e) {
      this.drop(b.id);
      throw e;
    }
    return stored;
  }

  /** Stores one inbound message and applies what it means; false when it was seen already. */
  private async store(b: Box, source: Buffer, now: number): Promise<boolean> {
    const p = await simpleParser(source);
    const messageId = p.messageId ?? `<${this.s.newId()}@inbound.invalid>`;
    if (this.s.db.prepare("SELECT 1 FROM emails WHERE account_id = ? AND message_id = ? AND direction = 'received'").get(b.id, messageId)) return false;
    const headers = new Map<string, string>();
    for (const [k, v] of p.headers) headers.set(k.toLowerCase(), headerText(v));
    if (p.inReplyTo) headers.set('in-reply-to', p.inReplyTo);
    if (p.references) headers.set('references', Array.isArray(p.references) ? p.references.join(' ') : p.references);
    headers.set('message-id', messageId);
    const raw = source.toString('utf8');
    const c = classify({ headers, subject: p.subject ?? '', text: p.text ?? '', raw });
    const sent = this.answered(c);
    const html = typeof p.html === 'string' ? p.html : null;
    const text = p.text ?? null;
    const from = p.from?.value?.[0];
    const to = (Array.isArray(p.to) ? p.to : p.to ? [p.to] : []).flatMap((a) => a.value.map((x) => x.address ?? '')).filter(Boolean);
    const cc = (Array.isArray(p.cc) ? p.cc : p.cc ? [p.cc] : []).flatMap((a) => a.value.map((x) => x.address ?? '')).filter(Boolean);
    const at = new Date(now).toISOString();
    const emailId = this.s.newId();
    const doc = {
      threadId: sent?.thread_id ?? null, messageId, mailbox: { id: b.id, email: b.email_address }, from: { email: from?.address ?? '', name: from?.name ?? '' },
      to, cc, bcc: [], subject: p.subject ?? '', snippet: receivedSnippet(this.s, text, raw),
      isUnread: sent ? true : null, type: 'received', hasAttachments: (p.attachments ?? []).some((a) => a.contentDisposition === 'attachment'),
      receivedAt: at, sentAt: p.date ? p.date.toISOString() : at, classification: c.kind,
    };
    this.s.db.transaction(() => {
      this.s.db
        .prepare("INSERT INTO emails (id, org_id, account_id, campaign_id, lead_id, doc, body, created_at, message_id, in_reply_to, thread_id, direction, kind, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'received', 'inbound', ?)")
        .run(emailId, b.org_id, b.id, sent?.campaign_id ?? null, receivedLead(this.s, sent), JSON.stringify(doc), JSON.stringify({ html, text }), this.s.clock.stamp(), messageId, c.refersTo[0] ?? null, sent?.thread_id ?? null, now);
      if (sent?.campaign_id && sent.lead_id) this.apply(sent, c, emailId, now);
    })();
    return true;
  }

  /** The sent campaign email an inbound message answers, if any. */
  private answered(c: Classified): SentRow | undefined {
    for (const id of c.refersTo) {
      const r = this.s.db.prepare("SELECT id, org_id, campaign_id, lead_id, account_id, thread_id, step FROM emails WHERE message_id = ? AND direction = 'sent'").get(id) as SentRow | undefined;
      if (r) return r;
    }
    return undefined;
  }

  /** The lead and the campaign learn what the answer means. */
  private apply(sent: SentRow, c: Classified, emailId: string, now: number): void {
    const s = this.s;
    s.db.prepare('INSERT INTO events (id, org_id, campaign_id, lead_id, account_id, email_id, step, type, at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(s.newId(), sent.org_id, sent.campaign_id, sent.lead_id, sent.account_id, emailId, sent.step, c.kind, now, c.status ? JSON.stringify({ status: c.status }) : null);
    const lead = s.db.prepare('SELECT status, doc FROM leads WHERE id = ?').get(sent.lead_id) as { status: string; doc: string } | undefined;
    const camp = s.db.prepare('SELECT doc FROM campaigns WHERE id = ?').get(sent.campaign_id) as { doc: string } | undefined;
    if (!lead || !camp) return;
    const cd = JSON.parse(camp.doc) as CampaignDoc;
    const ld = JSON.parse(lead.doc) as Record<string, any>;
    const replied = (c.kind === 'reply' || c.kind === 'ooo' || c.kind === 'unsubscribe') && !s.mutant('reply-not-recorded');
    let stop = c.kind === 'bounce_hard' || c.kind === 'unsubscribe';
    if (replied) {
      ld.metrics = { ...ld.metrics, replied: (ld.metrics?.replied ?? 0) + 1 };
      cd.metrics.replies += 1;
      // An auto-reply is no answer from the lead: only a real reply stops the sequence.
      if (c.kind === 'reply' && cd.settings.stopOnReply && !s.mutant('send-stop-on-reply-ignored')) stop = true;
    }
    const platform = [s.choices.newLeadStatus, s.choices.sending.leadStatusAfterSend, s.choices.sending.leadStatusAfterReply].includes(lead.status);
    let status = replied && c.kind !== 'ooo' && platform ? s.choices.sending.leadStatusAfterReply : lead.status;
    // Mutants: a move the profile's transition table does not declare (a reply auto-categorized, a bounce of its own status).
    if (replied && c.kind === 'reply' && s.mutant('send-lead-reply-moves-undeclared')) status = 'lead_replied_uncategorized';
    if (c.kind === 'bounce_hard' && s.mutant('send-lead-bounce-moves-undeclared')) status = 'bounced';
    s.db
      .prepare(`UPDATE leads SET status = ?, doc = ?, updated_at = ?${replied ? ', last_replied_at = ?' : ''}${stop ? ', seq_stopped_at = COALESCE(seq_stopped_at, ?)' : ''} WHERE id = ?`)
      .run(...[status, JSON.stringify(ld), now, ...(replied ? [now] : []), ...(stop ? [now] : []), sent.lead_id]);
    s.db.prepare('UPDATE campaigns SET doc = ? WHERE id = ?').run(JSON.stringify(cd), sent.campaign_id);
  }
}
