// Reading the sink for one run. Nothing trusts the API for what was sent: a message is the run's
// when it came through one of its mailboxes (by SMTP login, else by sender), it is an expected
// (lead, step) by its recipient and the step marker in its subject, and its date is given by
// whoever drives the run (the clock step, or the sink's own times).
import type { MailSink, StoredMessage } from '../../sinks/index.ts';
import { dayStartIn } from './calendar.ts';
import type { ArrivalRecord, Box, Lead } from './types.ts';

/** When a message left: the date the run gives it and the bounds it certainly left within. */
export type Dating = (m: StoredMessage) => { at: number; lo: number; hi: number };

export class ArrivalLog {
  readonly arrivals: ArrivalRecord[] = [];
  /** the distinct expected (lead, step) pairs that arrived, as "lead:step" */
  readonly got = new Set<string>();
  /** messages of the run's mailboxes that are not an expected (lead, step) */
  unexpected = 0;
  /** every message of the run's mailboxes */
  ours = 0;
  lastArrival: number | undefined;
  private readonly seenIds = new Set<string>();
  private readonly perBoxDay = new Map<string, number>();
  private readonly byUser = new Map<string, number>();
  private readonly leadIndex: Map<string, number>;
  private readonly marker: RegExp;

  constructor(
    private readonly sink: MailSink,
    boxes: Box[],
    leads: Lead[],
    tag: string,
    private readonly steps: number,
    private readonly timezone: string,
  ) {
    boxes.forEach((b, i) => {
      this.byUser.set(b.smtpUser, i);
      this.byUser.set(b.address, i);
    });
    this.leadIndex = new Map(leads.map((l, i) => [l.address, i]));
    this.marker = new RegExp(`${tag}-s(\\d+)`);
  }

  /** The index of the run's mailbox a message came through, if any. */
  boxOf(m: StoredMessage): number | undefined {
    return this.byUser.get((m.session.authUser ?? '').toLowerCase()) ?? this.byUser.get(m.envelope.mailFrom.toLowerCase());
  }

  /** A message of the run's mailboxes not yet observed: what a real-time wait waits for. */
  isNewOfRun(m: StoredMessage): boolean {
    return !this.seenIds.has(m.id) && this.boxOf(m) !== undefined;
  }

  /** How many of the run's messages mailbox `box` sent in the local day beginning at `dayStart`. */
  sentInDay(box: number, dayStart: number): number {
    return this.perBoxDay.get(`${box}:${dayStart}`) ?? 0;
  }

  /** Takes the sink's new messages of this run, dated by `date(m)`. */
  observe(date: Dating): void {
    for (const m of this.sink.messages((x) => !this.seenIds.has(x.id))) {
      this.seenIds.add(m.id);
      if (m.injected) continue;
      const box = this.boxOf(m);
      if (box === undefined) continue;
      this.ours++;
      const lead = m.envelope.rcptTo.map((r) => this.leadIndex.get(r.toLowerCase())).find((x) => x !== undefined);
      const step = Number(this.marker.exec(m.subject ?? '')?.[1] ?? NaN) - 1;
      if (lead === undefined || !(step >= 0 && step < this.steps)) {
        this.unexpected++;
        continue;
      }
      const t = date(m);
      this.arrivals.push({ mailbox: box, lead, step, ...t });
      this.got.add(`${lead}:${step}`);
      const k = `${box}:${dayStartIn(t.at, this.timezone)}`;
      this.perBoxDay.set(k, (this.perBoxDay.get(k) ?? 0) + 1);
      this.lastArrival = Math.max(this.lastArrival ?? t.at, t.at);
    }
  }
}
