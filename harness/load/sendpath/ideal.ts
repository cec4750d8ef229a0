// The ideal target: what a send path that loses no time to anything but caps, gaps and the
// window would send, and when. The analysis measures the target's rate against it.
import { allowedFrom, dayStartIn, MINUTE, WINDOW } from './calendar.ts';

export interface IdealInput {
  start: number;
  mailboxes: { cap: number; gapMinutes: number }[];
  /** how many leads, each getting `steps` messages */
  leads: number;
  steps: number;
  timezone: string;
  window?: { startMinute: number; endMinute: number };
}

/** Minutes of the schedule's window in one day (1,440 for the whole day). */
const windowMinutes = (w: { startMinute: number; endMinute: number }) => w.endMinute - w.startMinute + 1;

/**
 * The most sends one mailbox makes in a day: the spec's maxEmailsPerDay is a daily campaign send
 * cap of each mailbox, and its sendingGapMinutes the least time between two of its sends across
 * all campaigns, so it is the lower of its cap and the sends its gap leaves room for.
 */
export function mailboxPerDay(b: { cap: number; gapMinutes: number }, window = WINDOW): number {
  return Math.min(b.cap, windowMinutes(window) / b.gapMinutes);
}

/** Sends per day the caps and gaps allow, all mailboxes together (5 mailboxes, gap 5 min, cap 200: 1,000, not 1,440). */
export function idealPerDay(mailboxes: readonly { cap: number; gapMinutes: number }[], window = WINDOW): number {
  return mailboxes.reduce((sum, b) => sum + mailboxPerDay(b, window), 0);
}

/**
 * The send times of an ideal target, sorted: from `start` every mailbox sends as soon as its gap,
 * its daily cap (reset at local midnight) and the window allow, always to a lead whose previous
 * step went out (a step with no delay may go at the same instant, through another mailbox).
 */
export function idealSchedule(i: IdealInput): number[] {
  const expected = i.leads * i.steps;
  const window = i.window ?? WINDOW;
  const boxes = i.mailboxes.map((b) => ({ next: i.start, cap: b.cap, gap: b.gapMinutes * MINUTE, day: -1, count: 0 }));
  const countIn = (b: (typeof boxes)[number]) => (ds: number) => (ds === b.day ? b.count : 0);
  for (const b of boxes) b.next = allowedFrom(b.next, b.cap, i.timezone, countIn(b), window);
  // Leads waiting for their next step, first ready first (all are ready at the start).
  const queue: number[] = Array.from({ length: i.leads }, () => i.steps);
  let head = 0;
  const out: number[] = [];
  while (out.length < expected && boxes.length > 0) {
    let k = 0;
    for (let j = 1; j < boxes.length; j++) if (boxes[j]!.next < boxes[k]!.next) k = j;
    const b = boxes[k]!;
    const t = b.next;
    const left = queue[head++]!;
    if (left > 1) queue.push(left - 1);
    out.push(t);
    const ds = dayStartIn(t, i.timezone);
    if (ds !== b.day) {
      b.day = ds;
      b.count = 0;
    }
    b.count++;
    b.next = allowedFrom(t + b.gap, b.cap, i.timezone, countIn(b), window);
  }
  return out;
}
