// Warmup that really sends (sending-options.ts warmupMail): at `now` (the injectable clock, like
// the engine) each active mailbox whose warmup is enabled sends one warmup message when its day's
// warmup budget is not spent and its last warmup attempt is `intervalMinutes` old, through its own
// SMTP login to an address of the pool. The budget is warmup's own (2.1): attempts are
// `warmup_sends` rows, which the campaign cap and gap (scheduler.ts) never count (a mutant does). A paused
// mailbox (inactive) is skipped (3.2), as is every mailbox not active. A refused attempt is
// spent, never retried early, and does not count toward the mailbox failing. Only SMTP
// (`custom`) mailboxes warm up here: an OAuth mailbox would send through its provider's servers,
// which the reference never reaches (loopback only).
// Runs from POST /work/drain and from a real-time timer, like the engine.
import { randomInt, randomUUID } from 'node:crypto';
import type { Services } from '../request/context.ts';
import type { MailTransports } from '../mail/transport.ts';
import { localParts, startOfLocalDay } from '../domain/time.ts';
import { senderOf } from './engine.ts';
import { settledBy } from './verify.ts';

const MINUTE = 60_000;
const TICK_MS = 1_000;

interface WarmupRow { id: string; org_id: string; email_address: string; status: string; doc: string; secrets: string; timezone: string }
interface WarmupDoc { enabled?: boolean; maxPerDay?: number; skipWeekends?: boolean; timezone?: string }

export class WarmupSender {
  private timer: NodeJS.Timeout | null = null;
  /** Warmup sends under way, by mailbox: a mailbox is never sent for twice at once. */
  private readonly inFlight = new Map<string, { orgId: string; done: Promise<void> }>();
  private stopped = false;

  constructor(
    private readonly s: Services,
    private readonly transports: MailTransports,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.drain(this.s.clock.now()).catch((e) => this.s.log(`reference: warmup failed: ${(e as Error)?.stack ?? e}`)), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Starts the warmup due at `now` (at most one per mailbox) and returns how many it started. Like
   * verification (verify.ts), a scoped drain waits only for its workspace's sends, and the
   * deadline holds either way.
   */
  readonly drain = async (now: number, deadline = Infinity, organizationId?: string): Promise<number> => {
    if (this.stopped) return 0;
    const due = this.dueMailboxes(now).filter((a) => !this.inFlight.has(a.id));
    for (const a of due) {
      const done = this.sendOne(a, now)
        .catch((e) => this.s.log(`reference: warmup failed: ${(e as Error)?.stack ?? e}`))
        .finally(() => this.inFlight.delete(a.id));
      this.inFlight.set(a.id, { orgId: a.org_id, done });
    }
    const waitFor = [...this.inFlight.values()].filter((f) => organizationId === undefined || f.orgId === organizationId).map((f) => f.done);
    await settledBy(Promise.all(waitFor), deadline);
    return due.length;
  };

  /** Mailboxes whose warmup is enabled, that may warm up now, past the interval and under the day's budget. */
  private dueMailboxes(now: number): WarmupRow[] {
    const w = this.s.choices.sending.warmupMail;
    const paused = this.s.mutant('send-warmup-from-paused-mailbox') ? 'inactive' : 'active';
    const rows = this.s.db
      .prepare(
        `SELECT a.id, a.org_id, a.email_address, a.status, a.doc, a.secrets, ws.timezone FROM accounts a JOIN workspaces ws ON ws.id = a.org_id
         WHERE a.provider = 'custom' AND a.status IN ('active', ?) AND COALESCE(json_extract(a.doc, '$.warmup.enabled'), 1) != 0
         AND NOT EXISTS (SELECT 1 FROM warmup_sends s WHERE s.account_id = a.id AND s.at > ?)`,
      )
      .all(paused, now - w.intervalMinutes * MINUTE) as WarmupRow[];
    return rows.filter((a) => {
      const wd = ((JSON.parse(a.doc) as { warmup?: WarmupDoc }).warmup ?? {}) as WarmupDoc;
      const tz = wd.timezone ?? a.timezone;
      if (wd.skipWeekends && [0, 6].includes(localParts(now, tz).weekday)) return false;
      const budget = Math.min(w.perDay, wd.maxPerDay ?? w.perDay);
      const today = this.s.db.prepare('SELECT COUNT(*) AS n FROM warmup_sends WHERE account_id = ? AND at >= ?').get(a.id, startOfLocalDay(now, tz)) as { n: number };
      return today.n < budget;
    });
  }

  private async sendOne(a: WarmupRow, now: number): Promise<void> {
    const { box, account } = senderOf(this.s, a);
    const to = this.s.choices.sending.warmupMail.pool.replace('*', String(randomInt(1, 1000)));
    const domain = a.email_address.split('@')[1] ?? 'outreach-reference.local';
    const from = { name: box.displayName || `${box.firstName ?? ''} ${box.lastName ?? ''}`.trim(), address: a.email_address };
    const email = { messageId: `<${randomUUID()}@${domain}>`, from, subject: `Catching up ${randomInt(1000, 9999)}`, html: null, text: 'Hope your week is going well.', links: [] };
    let sent = 1;
    try {
      await this.transports.send(account, email, to);
    } catch {
      sent = 0; // spent: warmup is tried again after the interval, never counted as a sending failure
    }
    if (this.stopped) return; // the database closes with the reference
    this.s.db.prepare('INSERT INTO warmup_sends (id, org_id, account_id, recipient, at, sent) VALUES (?, ?, ?, ?, ?, ?)').run(this.s.newId(), a.org_id, a.id, to, now, sent);
  }
}
