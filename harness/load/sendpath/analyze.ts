// The analysis of what the sink received (pure: unit-tested without a target): every figure and
// violation comes from the arrivals, held to the mailboxes' gaps and caps, to "every step to every
// lead once", and to what an ideal target would have sent in the same time.
import { encode, newHistogram, record, HIGHEST_US, type Histogram } from '../report/histogram.ts';
import type { SendpathMailbox, SendpathStats, Violation } from '../report/types.ts';
import { allowedFrom, DAY, dayStartIn, fmtDur, isoDay, MINUTE, nextDayStartIn } from './calendar.ts';
import { idealPerDay, idealSchedule } from './ideal.ts';
import type { ArrivalRecord } from './types.ts';

/** The clauses a send-path violation breaks (harness/ground/spec-model/clauses/part2.ts). */
export const SENDPATH_CLAUSES = {
  gap: 'ACCT-SENDINGGAP-ENFORCED',
  cap: 'ACCT-MAXEMAILSPERDAY-CAP',
  once: 'CAMP-SEQUENCE-SENT-ONCE',
} as const;

/** Violations listed per rule; the counts in the stats stay exact beyond it. */
export const MAX_LISTED_PER_RULE = 50;

export interface AnalyzeInput {
  simulated: boolean;
  /** target time the campaigns were started (the earliest moment anything was allowed) */
  start: number;
  /** target time the sending phase ended */
  end: number;
  timezone: string;
  mailboxes: { id: string; address: string; cap: number; gapMinutes: number }[];
  leads: { address: string; campaign: number }[];
  /** target time each campaign was started */
  campaignStarts: number[];
  steps: number;
  arrivals: ArrivalRecord[];
  /** every message of the run's mailboxes (duplicates and unexpected included) and the wall ms of the sending phase */
  messagesThroughSink: number;
  sendingWallMs: number;
  /** with control: the clock step (ms); the resolution of dates */
  stepMs?: number;
  /** the run stopped because nothing arrived for a day and two gaps while messages were expected */
  stalled?: boolean;
}

export interface Analysis {
  stats: SendpathStats;
  violations: Violation[];
  delivered: number;
  idealMs: number;
  clampedLatencies: number;
  notes: string[];
}

/** Arrivals grouped by the (lead, step) they deliver, keyed "lead:step". */
type ByLeadStep = Map<string, ArrivalRecord[]>;

/** The ideal schedule's last send and how many it sends by a given time. */
interface Ideal {
  finish: number;
  countBy(t: number): number;
}

/** Violations as a report lists them: a full list would drown the reader, so beyond a number per rule only a count. */
class ViolationList {
  private readonly listed: Violation[] = [];
  private readonly perRule = new Map<string, number>();
  private readonly more = new Map<string, { n: number; clauses: string[] }>();

  add(v: Violation): void {
    const n = this.perRule.get(v.rule) ?? 0;
    if (n < MAX_LISTED_PER_RULE) {
      this.listed.push(v);
      this.perRule.set(v.rule, n + 1);
    } else {
      const m = this.more.get(v.rule) ?? { n: 0, clauses: v.clauses ?? [] };
      m.n++;
      this.more.set(v.rule, m);
    }
  }

  /** The listed violations, then a line per rule for those not listed. */
  all(): Violation[] {
    const out = [...this.listed];
    for (const [rule, m] of this.more) out.push({ rule, clauses: m.clauses, message: `... and ${m.n} more "${rule}" violations (not listed)` });
    return out;
  }
}

/**
 * What the sink saw, held to the mailboxes' gaps and caps and to "every step to every lead once".
 *
 * - gap: for two consecutive sends a, b of one mailbox (by date), b left at most `b.hi - a.lo`
 *   after a. Only when even that latest possible distance is below the gap is the gap certainly
 *   broken (a violation); anything closer to the gap is within the measurement's resolution.
 * - cap: a send is counted in a day only when its bounds [lo, hi] lie wholly inside that local
 *   day (the schedule's timezone); more than the cap of such sends in one day is certainly over.
 * - duplicates: (lead, step) pairs that arrived more than once; losses: expected pairs that never
 *   arrived. A loss is a violation only when an ideal target would have sent every expected
 *   message two gaps (plus one clock step) before the run ended, or when the run stalled (nothing
 *   arrived for a day and two gaps while the schedule was open); otherwise it is "not reached".
 * - fromAllowed: per send, its date minus the moment it became allowed: the latest of its
 *   campaign's start, its lead's previous step, the mailbox's previous send plus the gap, and the
 *   start of the next day once the mailbox reached its cap for the day (and the window).
 * - achieved / ideal, a ratio of rates over the run:
 *     span(t)      = t - start + gap            (one gap for the last send's slot, so a run whose
 *                                               sends all go at once has a span)
 *     W            = the last expected arrival when every message arrived, else the run's end
 *     ratio        = (delivered / span(W)) / (idealCount(W) / span(min(idealFinish, W)))
 *   where idealCount(W) is what the ideal schedule (idealSchedule) sends by W and idealFinish its
 *   last send. A complete run compares times (ideal span over achieved span: 1 when the target is
 *   as fast as caps and gaps allow); a run cut short compares counts over the same window.
 * - per day: idealPerDay is what the caps and gaps allow in a whole day (ideal.ts: the sum over
 *   the mailboxes of min(cap, 1,440 / gap)), achievedPerDay = ratio x idealPerDay. A run shorter
 *   than a day is not scaled up to a day, which would ignore the caps.
 */
export function analyzeSendpath(a: AnalyzeInput): Analysis {
  const violations = new ViolationList();
  const notes: string[] = [];
  const byBox = sendsByMailbox(a);
  // The order of the checks is the order the report lists their violations in.
  const gapViolations = findGapViolations(a, byBox, violations);
  const capViolations = findCapViolations(a, byBox, violations);
  const seen = groupByLeadAndStep(a.arrivals);
  const duplicates = findDuplicates(a, seen, violations);
  const delivered = seen.size;
  const losses = a.leads.length * a.steps - delivered;
  const ideal = idealOf(a);
  const gapMax = Math.max(...a.mailboxes.map((b) => b.gapMinutes)) * MINUTE;
  if (losses > 0) judgeLosses(a, seen, losses, ideal, gapMax, violations, notes);
  const latency = latencyFromAllowed(a, byBox, seen);
  const rates = sendRates(a, seen, losses, ideal, gapMax);
  const mailboxes: SendpathMailbox[] = a.mailboxes.map((b, m) => ({ id: b.id, address: b.address, cap: b.cap, gapMinutes: b.gapMinutes, sends: byBox[m]!.map((r) => r.at - a.start) }));
  const wallS = a.sendingWallMs / 1000;
  return {
    stats: {
      simulated: a.simulated,
      leads: a.leads.length,
      mailboxes,
      fromAllowed: encode(latency.histogram),
      duplicates,
      losses,
      achievedPerDay: round(rates.achievedPerDay),
      idealPerDay: round(rates.idealPerDay),
      emailsPerWallSecond: wallS > 0 ? round(a.messagesThroughSink / wallS) : 0,
      gapViolations,
      capViolations,
    },
    violations: violations.all(),
    delivered,
    idealMs: ideal.finish - a.start,
    clampedLatencies: latency.clamped,
    notes,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Per mailbox, its sends in date order. */
function sendsByMailbox(a: AnalyzeInput): ArrivalRecord[][] {
  const byBox: ArrivalRecord[][] = a.mailboxes.map(() => []);
  for (const r of a.arrivals) byBox[r.mailbox]!.push(r);
  for (const list of byBox) list.sort((x, y) => x.at - y.at || x.lo - y.lo || x.lead - y.lead);
  return byBox;
}

/** Gap: certain only when the latest possible distance is below the gap. */
function findGapViolations(a: AnalyzeInput, byBox: ArrivalRecord[][], out: ViolationList): number {
  let count = 0;
  byBox.forEach((list, m) => {
    const box = a.mailboxes[m]!;
    const gap = box.gapMinutes * MINUTE;
    for (let i = 1; i < list.length; i++) {
      const p = list[i - 1]!;
      const q = list[i]!;
      const latest = q.hi - p.lo;
      if (latest < gap) {
        count++;
        out.add({
          rule: 'sendingGapMinutes',
          clauses: [SENDPATH_CLAUSES.gap],
          message: `mailbox ${box.address} sent twice within at most ${fmtDur(latest)} (to ${a.leads[p.lead]!.address} step ${p.step + 1}, then ${a.leads[q.lead]!.address} step ${q.step + 1}); its sendingGapMinutes is ${box.gapMinutes}`,
          at: q.at - a.start,
        });
      }
    }
  });
  return count;
}

/** Cap: sends certainly inside one local day. */
function findCapViolations(a: AnalyzeInput, byBox: ArrivalRecord[][], out: ViolationList): number {
  const tz = a.timezone;
  let count = 0;
  byBox.forEach((list, m) => {
    const { cap, address } = a.mailboxes[m]!;
    const perDay = new Map<number, { n: number; last: number }>();
    for (const r of list) {
      const ds = dayStartIn(r.lo, tz);
      if (r.hi >= nextDayStartIn(r.lo, tz)) continue; // straddles midnight: not certainly in either day
      const d = perDay.get(ds) ?? { n: 0, last: r.at };
      d.n++;
      d.last = r.at;
      perDay.set(ds, d);
    }
    for (const [ds, d] of perDay) {
      if (d.n <= cap) continue;
      count++;
      out.add({
        rule: 'maxEmailsPerDay',
        clauses: [SENDPATH_CLAUSES.cap],
        message: `mailbox ${address} sent at least ${d.n} campaign emails on ${isoDay(ds, tz)} (${tz}); its maxEmailsPerDay is ${cap}`,
        at: d.last - a.start,
      });
    }
  });
  return count;
}

function groupByLeadAndStep(arrivals: ArrivalRecord[]): ByLeadStep {
  const seen: ByLeadStep = new Map();
  for (const r of arrivals) {
    const k = `${r.lead}:${r.step}`;
    const l = seen.get(k);
    if (l) l.push(r);
    else seen.set(k, [r]);
  }
  return seen;
}

/** Every step to every lead once: a (lead, step) that arrived twice or more is one duplicate. */
function findDuplicates(a: AnalyzeInput, seen: ByLeadStep, out: ViolationList): number {
  let duplicates = 0;
  for (const rs of seen.values()) {
    if (rs.length < 2) continue;
    duplicates++;
    const r = rs[0]!;
    out.add({
      rule: 'sent once',
      clauses: [SENDPATH_CLAUSES.once],
      message: `${a.leads[r.lead]!.address} received step ${r.step + 1} ${rs.length} times (through ${[...new Set(rs.map((x) => a.mailboxes[x.mailbox]!.address))].join(', ')})`,
      at: rs[1]!.at - a.start,
    });
  }
  return duplicates;
}

/** The ideal schedule over the same mailboxes. */
function idealOf(a: AnalyzeInput): Ideal {
  const ideal = idealSchedule({ start: a.start, mailboxes: a.mailboxes, leads: a.leads.length, steps: a.steps, timezone: a.timezone });
  return {
    finish: ideal.length ? ideal[ideal.length - 1]! : a.start,
    countBy: (t: number) => {
      let lo = 0;
      let hi = ideal.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ideal[mid]! <= t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
  };
}

/** Losses are a violation only when the run gave an ideal target time enough (or stalled); else a note. */
function judgeLosses(a: AnalyzeInput, seen: ByLeadStep, losses: number, ideal: Ideal, gapMax: number, out: ViolationList, notes: string[]): void {
  const expected = a.leads.length * a.steps;
  const slack = 2 * gapMax + (a.stepMs ?? 0);
  const missing: string[] = [];
  for (let l = 0; l < a.leads.length && missing.length < 5; l++) for (let s = 0; s < a.steps && missing.length < 5; s++) if (!seen.has(`${l}:${s}`)) missing.push(`${a.leads[l]!.address} step ${s + 1}`);
  if (ideal.finish + slack <= a.end || a.stalled) {
    out.add({
      rule: 'sent once',
      clauses: [SENDPATH_CLAUSES.once],
      message: `${losses} of ${expected} expected messages never arrived, ${whyLost(a, ideal)} (e.g. ${missing.join(', ')})`,
      at: a.end - a.start,
    });
  } else {
    notes.push(`${losses} of ${expected} expected messages were not reached within the bound: the run ended at +${fmtDur(a.end - a.start)} of target time, an ideal target needs until +${fmtDur(ideal.finish - a.start)} (e.g. ${missing.join(', ')})`);
  }
}

function whyLost(a: AnalyzeInput, ideal: Ideal): string {
  if (!a.stalled) return `although caps and gaps allowed every one by +${fmtDur(ideal.finish - a.start)} and the run watched until +${fmtDur(a.end - a.start)}`;
  let lastAt = a.start;
  for (const r of a.arrivals) lastAt = Math.max(lastAt, r.at);
  return `nothing arrived during the last ${fmtDur(a.end - lastAt)} of the run although the schedule was open every day`;
}

/** Latency from the moment each send became allowed, per mailbox in date order. */
function latencyFromAllowed(a: AnalyzeInput, byBox: ArrivalRecord[][], seen: ByLeadStep): { histogram: Histogram; clamped: number } {
  const histogram = newHistogram();
  let clamped = 0;
  const firstOf = (lead: number, step: number) => seen.get(`${lead}:${step}`)?.reduce((x, y) => (y.at < x.at ? y : x));
  byBox.forEach((list, m) => {
    const { cap, gapMinutes } = a.mailboxes[m]!;
    const perDay = new Map<number, number>();
    let prev: ArrivalRecord | undefined;
    for (const r of list) {
      let allowed = a.campaignStarts[a.leads[r.lead]!.campaign] ?? a.start;
      if (r.step > 0) {
        const before = firstOf(r.lead, r.step - 1);
        if (before) allowed = Math.max(allowed, before.at);
      }
      if (prev) allowed = Math.max(allowed, prev.at + gapMinutes * MINUTE);
      allowed = allowedFrom(allowed, cap, a.timezone, (ds) => perDay.get(ds) ?? 0);
      const us = Math.max(0, r.at - allowed) * 1000;
      if (us > HIGHEST_US) clamped++;
      record(histogram, us);
      const ds = dayStartIn(r.at, a.timezone);
      perDay.set(ds, (perDay.get(ds) ?? 0) + 1);
      prev = r;
    }
  });
  return { histogram, clamped };
}

/** Achieved against ideal, per day (the formulas above analyzeSendpath). */
function sendRates(a: AnalyzeInput, seen: ByLeadStep, losses: number, ideal: Ideal, gapMax: number): { achievedPerDay: number; idealPerDay: number } {
  let lastExpected = a.start;
  for (const rs of seen.values()) {
    let first = Infinity;
    for (const r of rs) first = Math.min(first, r.at);
    lastExpected = Math.max(lastExpected, first);
  }
  const W = losses === 0 ? lastExpected : a.end;
  const span = (t: number) => (t - a.start + gapMax) / DAY;
  const idealRate = ideal.countBy(W) / span(Math.min(ideal.finish, W));
  const ratio = idealRate > 0 ? seen.size / span(W) / idealRate : 0;
  const perDay = idealPerDay(a.mailboxes);
  return { achievedPerDay: ratio * perDay, idealPerDay: perDay };
}
