// The send-path load: many mailboxes at the kit's mail sinks, campaigns that share every one of
// them, a few thousand leads; the target sends, the sink measures. Nothing here trusts the API for
// what was sent: every figure comes from what arrived at the sink (through which SMTP login, to
// which lead, carrying which step's marker, when).
//
// The target is known only over the wire: its base URL, its profile (names and declarations the
// spec leaves "not shown": the numbering of sendingDays, the mailbox status after a verification,
// referenced operations such as accounts.get / accounts.list / leads.create) and, when it offers
// one, the conformance-control API.
//
// Time:
// - With the control API the run is simulated: the clock moves in steps smaller than the gap
//   (POST /clock/advance, then POST /work/drain) and every message seen after the drain of the
//   step that reached T is dated T. A step's arrivals left, in the target's time, between the
//   previous step's T and T plus the wall time of this step (a control clock may also run with
//   real time); a timing rule is reported broken only when those bounds leave no room for it.
// - Without it the run is real time (gap 1 minute by default, every mailbox in parallel), dated
//   by the sink: a message left between the start of its SMTP transaction and its arrival. The run
//   stops at maxWallMs and says what was not reached.
//
// Bounded: every wait has a limit (maxWallMs over the whole run, maxSimulatedDays of target time,
// a stall bound of one day plus two gaps without an arrival, bounded verification polling).
import { randomBytes } from 'node:crypto';
import type { Profile } from '../../ground/profile-schema.ts';
import { mailboxInput, seededFaker } from '../../../fixtures/factories/index.ts';
import { createClient } from '../../client/client.ts';
import { RateBudget } from '../../client/budget.ts';
import { createControlClient, type ConformanceControlClient } from '../../client/control.ts';
import { Recorder } from '../../client/recorder.ts';
import { Redactor } from '../../client/redact.ts';
import type { ApiClient, ApiResponse } from '../../ground/api-client.ts';
import { fieldName, fillPath, getPath, itemOf, operation, resultPath } from '../../ground/operations.ts';
import { KitError } from '../../ground/errors.ts';
import type { MailSink, StoredMessage } from '../../sinks/index.ts';
import { encode, newHistogram, record, HIGHEST_US } from '../generator/histogram.ts';
import type { SendpathMailbox, SendpathStats, Violation } from '../report/types.ts';
import type { ControlEndpoint } from '../../ground/control-endpoint.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The clauses a send-path violation breaks (harness/ground/spec-model/clauses/part2.ts). */
export const SENDPATH_CLAUSES = {
  gap: 'ACCT-SENDINGGAP-ENFORCED',
  cap: 'ACCT-MAXEMAILSPERDAY-CAP',
  once: 'CAMP-SEQUENCE-SENT-ONCE',
} as const;

/** Violations listed per rule; the counts in the stats stay exact beyond it. */
export const MAX_LISTED_PER_RULE = 50;
/** Mailboxes per POST /v1/accounts (spec 4.2: 1 to 50). */
const ACCOUNTS_PER_POST = 50;
/** Leads in the campaign create body; more go through the referenced leads.create, this many at a time. */
const LEADS_PER_REQUEST = 1000;
/** The schedule's window: the whole day, its last minute excluded (minute 1439 is the highest start of a minute). */
const WINDOW = { startMinute: 0, endMinute: 1439 };

export interface SendpathLoadOptions {
  baseUrl: string;
  profile: Profile;
  /** the conformance-control API, when the target has it */
  control?: ControlEndpoint;
  /** a workspace key (used when there is no control API; with control, a fresh workspace is created) */
  apiKey?: string;
  /** started by the caller, reachable by the target (profile sinks.host) */
  sink: MailSink;
  mailboxes: number;
  leads: number;
  /** default 2: the leads split over campaigns that SHARE every mailbox (spec 2.1: gaps and caps across campaigns) */
  campaigns?: number;
  /** sendingGapMinutes of every mailbox (default: 5 with control, 1 without) */
  gapMinutes?: number;
  /** maxEmailsPerDay of every mailbox (default 200; 1..200) */
  capPerDay?: number;
  /** sequence steps (default 1) */
  steps?: number;
  /** bound in wall time over the whole run (default 10 min) */
  maxWallMs?: number;
  /** bound in simulated time with control (default 14) */
  maxSimulatedDays?: number;
  /** a seed for the names of mailboxes (default: random) */
  seed?: number;
  onProgress?(p: { sent: number; expected: number; simulatedMinutes?: number; wallMs: number }): void;
}

export type SendpathStop = 'complete' | 'max-wall' | 'max-simulated-days' | 'stalled';

export interface SendpathLoadResult {
  stats: SendpathStats;
  violations: Violation[];
  /** wall time of the whole run, setup included */
  wallMs: number;
  /** wall time of the sending phase (stepping the clock, or waiting in real time) */
  sendingWallMs: number;
  /** requests to the target's API (control calls excluded) */
  setupRequests: number;
  /** requests to the control API (0 without it) */
  controlRequests: number;
  /** why the sending phase ended */
  stopped: SendpathStop;
  /** messages expected at the sink: leads x steps */
  expected: number;
  /** distinct expected (lead, step) messages that arrived */
  delivered: number;
  /** target time the sending phase covered (ms), from the campaigns' start to its end */
  targetMs: number;
  /** ms of target time an ideal target needs for every expected message (see analyzeSendpath) */
  idealMs: number;
  /** with control: seconds per clock step */
  stepSeconds?: number;
  /** the schedule's (and, with control, the workspace's) timezone: the day of the caps */
  timezone: string;
  gapMinutes: number;
  capPerDay: number;
  campaigns: number;
  steps: number;
  /** messages from the run's mailboxes that are not an expected (lead, step): other recipients or no step marker */
  unexpected: number;
  /** latencies above the histogram's highest value (one hour), recorded as one hour */
  clampedLatencies: number;
  /** what the reader should know: unconfirmed verification, what was not reached, ... */
  notes: string[];
}

// ---------------------------------------------------------------------------------------------
// Calendar helpers in an IANA timezone (the load never imports the reference's own)
// ---------------------------------------------------------------------------------------------

const fmtCache = new Map<string, Intl.DateTimeFormat>();
function fmt(tz: string): Intl.DateTimeFormat {
  let f = fmtCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    fmtCache.set(tz, f);
  }
  return f;
}

function offsetMs(ms: number, tz: string): number {
  const p = Object.fromEntries(fmt(tz).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant local midnight begins the day that holds `ms` in `tz`. */
export function dayStartIn(ms: number, tz: string): number {
  if (tz === 'UTC' || tz === 'Etc/UTC') return Math.floor(ms / DAY) * DAY;
  const localMidnightAsUtc = Math.floor((ms + offsetMs(ms, tz)) / DAY) * DAY;
  let t = localMidnightAsUtc - offsetMs(localMidnightAsUtc, tz);
  t = localMidnightAsUtc - offsetMs(t, tz);
  return t > ms ? dayStartIn(t - 1, tz) : t;
}

/** The start of the local day after the one that holds `ms` (days are 23 to 25 hours long). */
export function nextDayStartIn(ms: number, tz: string): number {
  return dayStartIn(dayStartIn(ms, tz) + 26 * HOUR, tz);
}

const isoDay = (ms: number, tz: string) => {
  const p = Object.fromEntries(fmt(tz).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
};

/**
 * The earliest instant at or after `t` a mailbox may send: inside the window and under its cap
 * for that day (`sentInDay(dayStart)` counts its sends of that day). Minutes of the window count
 * from local midnight.
 */
function allowedFrom(t: number, cap: number, tz: string, sentInDay: (dayStart: number) => number, window = WINDOW): number {
  for (let i = 0; i < 1000; i++) {
    const ds = dayStartIn(t, tz);
    const minute = (t - ds) / MINUTE;
    if (minute < window.startMinute) t = ds + window.startMinute * MINUTE;
    else if (minute >= window.endMinute || sentInDay(ds) >= cap) t = nextDayStartIn(t, tz);
    else return t;
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// The ideal schedule and the analysis (pure: unit-tested without a target)
// ---------------------------------------------------------------------------------------------

export interface IdealInput {
  start: number;
  mailboxes: { cap: number; gapMinutes: number }[];
  /** how many leads, each getting `steps` messages */
  leads: number;
  steps: number;
  timezone: string;
  window?: { startMinute: number; endMinute: number };
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

/** One message of the run as the sink saw it, with bounds on when it left (target time, ms). */
export interface ArrivalRecord {
  /** index into the run's mailboxes */
  mailbox: number;
  /** index into the run's leads */
  lead: number;
  /** 0-based step */
  step: number;
  /** the date the run gives it: the clock step it was seen at (simulated), its arrival (real time) */
  at: number;
  /** it left at or after this */
  lo: number;
  /** it left at or before this */
  hi: number;
}

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

const fmtDur = (ms: number) => (ms >= 2 * HOUR ? `${(ms / HOUR).toFixed(1)} h` : ms >= 2 * MINUTE ? `${(ms / MINUTE).toFixed(1)} min` : `${(ms / SECOND).toFixed(1)} s`);

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
 * - achieved / ideal (sends per day of target time):
 *     span(t)      = t - start + gap            (one gap for the last send's slot, so a run whose
 *                                               sends all go at once has a span)
 *     W            = the last expected arrival when every message arrived, else the run's end
 *     achieved     = delivered / span(W)
 *     ideal        = idealCount(W) / span(min(idealFinish, W))
 *   where idealCount(W) is what the ideal schedule (idealSchedule) sends by W and idealFinish its
 *   last send. A complete run compares times (ideal span over achieved span: 1 when the target is
 *   as fast as caps and gaps allow); a run cut short compares counts over the same window.
 */
export function analyzeSendpath(a: AnalyzeInput): Analysis {
  const tz = a.timezone;
  const gapOf = (m: number) => a.mailboxes[m]!.gapMinutes * MINUTE;
  const violations: Violation[] = [];
  const listed = new Map<string, number>();
  const more = new Map<string, { n: number; clauses: string[] }>();
  const add = (v: Violation) => {
    const n = listed.get(v.rule) ?? 0;
    if (n < MAX_LISTED_PER_RULE) {
      violations.push(v);
      listed.set(v.rule, n + 1);
    } else {
      const m = more.get(v.rule) ?? { n: 0, clauses: v.clauses ?? [] };
      m.n++;
      more.set(v.rule, m);
    }
  };
  const rel = (t: number) => t - a.start;

  // Per mailbox, its sends in date order.
  const byBox: ArrivalRecord[][] = a.mailboxes.map(() => []);
  for (const r of a.arrivals) byBox[r.mailbox]!.push(r);
  for (const list of byBox) list.sort((x, y) => x.at - y.at || x.lo - y.lo || x.lead - y.lead);

  // Gap: certain only when the latest possible distance is below the gap.
  let gapViolations = 0;
  byBox.forEach((list, m) => {
    const gap = gapOf(m);
    for (let i = 1; i < list.length; i++) {
      const p = list[i - 1]!;
      const q = list[i]!;
      const latest = q.hi - p.lo;
      if (latest < gap) {
        gapViolations++;
        add({
          rule: 'sendingGapMinutes',
          clauses: [SENDPATH_CLAUSES.gap],
          message: `mailbox ${a.mailboxes[m]!.address} sent twice within at most ${fmtDur(latest)} (to ${a.leads[p.lead]!.address} step ${p.step + 1}, then ${a.leads[q.lead]!.address} step ${q.step + 1}); its sendingGapMinutes is ${a.mailboxes[m]!.gapMinutes}`,
          at: rel(q.at),
        });
      }
    }
  });

  // Cap: sends certainly inside one local day.
  let capViolations = 0;
  byBox.forEach((list, m) => {
    const cap = a.mailboxes[m]!.cap;
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
      capViolations++;
      add({
        rule: 'maxEmailsPerDay',
        clauses: [SENDPATH_CLAUSES.cap],
        message: `mailbox ${a.mailboxes[m]!.address} sent at least ${d.n} campaign emails on ${isoDay(ds, tz)} (${tz}); its maxEmailsPerDay is ${cap}`,
        at: rel(d.last),
      });
    }
  });

  // Every step to every lead once.
  const seen = new Map<string, ArrivalRecord[]>();
  for (const r of a.arrivals) {
    const k = `${r.lead}:${r.step}`;
    const l = seen.get(k);
    if (l) l.push(r);
    else seen.set(k, [r]);
  }
  let duplicates = 0;
  for (const rs of seen.values()) {
    if (rs.length < 2) continue;
    duplicates++;
    const r = rs[0]!;
    add({
      rule: 'sent once',
      clauses: [SENDPATH_CLAUSES.once],
      message: `${a.leads[r.lead]!.address} received step ${r.step + 1} ${rs.length} times (through ${[...new Set(rs.map((x) => a.mailboxes[x.mailbox]!.address))].join(', ')})`,
      at: rel(rs[1]!.at),
    });
  }
  const expected = a.leads.length * a.steps;
  const delivered = seen.size;
  const losses = expected - delivered;

  // The ideal schedule over the same mailboxes.
  const ideal = idealSchedule({ start: a.start, mailboxes: a.mailboxes, leads: a.leads.length, steps: a.steps, timezone: tz });
  const idealFinish = ideal.length ? ideal[ideal.length - 1]! : a.start;
  const idealCountBy = (t: number) => {
    let lo = 0;
    let hi = ideal.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ideal[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const notes: string[] = [];
  const gapMax = Math.max(...a.mailboxes.map((b) => b.gapMinutes)) * MINUTE;
  const slack = 2 * gapMax + (a.stepMs ?? 0);
  if (losses > 0) {
    const missing: string[] = [];
    for (let l = 0; l < a.leads.length && missing.length < 5; l++) for (let s = 0; s < a.steps && missing.length < 5; s++) if (!seen.has(`${l}:${s}`)) missing.push(`${a.leads[l]!.address} step ${s + 1}`);
    if (idealFinish + slack <= a.end || a.stalled) {
      let lastAt = a.start;
      for (const r of a.arrivals) lastAt = Math.max(lastAt, r.at);
      const why = a.stalled
        ? `nothing arrived during the last ${fmtDur(a.end - lastAt)} of the run although the schedule was open every day`
        : `although caps and gaps allowed every one by +${fmtDur(idealFinish - a.start)} and the run watched until +${fmtDur(a.end - a.start)}`;
      add({
        rule: 'sent once',
        clauses: [SENDPATH_CLAUSES.once],
        message: `${losses} of ${expected} expected messages never arrived, ${why} (e.g. ${missing.join(', ')})`,
        at: rel(a.end),
      });
    } else {
      notes.push(`${losses} of ${expected} expected messages were not reached within the bound: the run ended at +${fmtDur(a.end - a.start)} of target time, an ideal target needs until +${fmtDur(idealFinish - a.start)} (e.g. ${missing.join(', ')})`);
    }
  }

  // Latency from the moment each send became allowed.
  const h = newHistogram();
  let clamped = 0;
  const firstOf = (lead: number, step: number) => seen.get(`${lead}:${step}`)?.reduce((x, y) => (y.at < x.at ? y : x));
  byBox.forEach((list, m) => {
    const { cap } = a.mailboxes[m]!;
    const gap = gapOf(m);
    const perDay = new Map<number, number>();
    let prev: ArrivalRecord | undefined;
    for (const r of list) {
      let allowed = a.campaignStarts[a.leads[r.lead]!.campaign] ?? a.start;
      if (r.step > 0) {
        const before = firstOf(r.lead, r.step - 1);
        if (before) allowed = Math.max(allowed, before.at);
      }
      if (prev) allowed = Math.max(allowed, prev.at + gap);
      allowed = allowedFrom(allowed, cap, tz, (ds) => perDay.get(ds) ?? 0);
      const us = Math.max(0, r.at - allowed) * 1000;
      if (us > HIGHEST_US) clamped++;
      record(h, us);
      const ds = dayStartIn(r.at, tz);
      perDay.set(ds, (perDay.get(ds) ?? 0) + 1);
      prev = r;
    }
  });

  // Achieved against ideal (formula above).
  let lastExpected = a.start;
  for (const rs of seen.values()) {
    let first = Infinity;
    for (const r of rs) first = Math.min(first, r.at);
    lastExpected = Math.max(lastExpected, first);
  }
  const W = losses === 0 ? lastExpected : a.end;
  const span = (t: number) => (t - a.start + gapMax) / DAY;
  const achievedPerDay = delivered / span(W);
  const idealPerDay = idealCountBy(W) / span(Math.min(idealFinish, W));

  for (const [rule, m] of more) violations.push({ rule, clauses: m.clauses, message: `... and ${m.n} more "${rule}" violations (not listed)` });

  const mailboxes: SendpathMailbox[] = a.mailboxes.map((b, m) => ({ id: b.id, address: b.address, cap: b.cap, gapMinutes: b.gapMinutes, sends: byBox[m]!.map((r) => r.at - a.start) }));
  const wallS = a.sendingWallMs / 1000;
  return {
    stats: {
      simulated: a.simulated,
      leads: a.leads.length,
      mailboxes,
      fromAllowed: encode(h),
      duplicates,
      losses,
      achievedPerDay: round(achievedPerDay),
      idealPerDay: round(idealPerDay),
      emailsPerWallSecond: wallS > 0 ? round(a.messagesThroughSink / wallS) : 0,
      gapViolations,
      capViolations,
    },
    violations,
    delivered,
    idealMs: idealFinish - a.start,
    clampedLatencies: clamped,
    notes,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

interface Defaults {
  campaigns: number;
  gapMinutes: number;
  capPerDay: number;
  steps: number;
  maxWallMs: number;
  maxSimulatedDays: number;
}

function checkInt(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) throw new KitError(`sendpath load: ${name} must be a whole number from ${min} to ${max}, got ${v}`);
}

/** Validates the options (a clear KitError per problem) and fills the defaults. */
export function resolveSendpathOptions(o: SendpathLoadOptions): Defaults {
  const d: Defaults = {
    campaigns: o.campaigns ?? 2,
    gapMinutes: o.gapMinutes ?? (o.control ? 5 : 1),
    capPerDay: o.capPerDay ?? 200,
    steps: o.steps ?? 1,
    maxWallMs: o.maxWallMs ?? 10 * MINUTE,
    maxSimulatedDays: o.maxSimulatedDays ?? 14,
  };
  checkInt('mailboxes', o.mailboxes, 1, 10_000);
  checkInt('leads', o.leads, 1, 1_000_000);
  checkInt('campaigns', d.campaigns, 1, Math.min(100, o.leads));
  // spec 2.2: maxEmailsPerDay 1 to 200, sendingGapMinutes 1 to 300
  checkInt('capPerDay (maxEmailsPerDay)', d.capPerDay, 1, 200);
  checkInt('gapMinutes (sendingGapMinutes)', d.gapMinutes, 1, 300);
  checkInt('steps', d.steps, 1, 20);
  if (!(d.maxWallMs > 0) || !Number.isFinite(d.maxWallMs)) throw new KitError(`sendpath load: maxWallMs must be a positive number of ms, got ${d.maxWallMs}`);
  if (!(d.maxSimulatedDays > 0) || !Number.isFinite(d.maxSimulatedDays)) throw new KitError(`sendpath load: maxSimulatedDays must be a positive number, got ${d.maxSimulatedDays}`);
  if (!o.control && !o.apiKey) throw new KitError('sendpath load: give a workspace apiKey, or the control API (which creates a fresh workspace)');
  if (!o.profile.names.sendingDays) throw new KitError('sendpath load: the profile does not declare names.sendingDays (the numbering of schedule.sendingDays is not shown in the spec); the campaigns need a schedule open every day');
  try {
    new URL(o.baseUrl);
  } catch {
    throw new KitError(`sendpath load: baseUrl is not a URL: ${o.baseUrl}`);
  }
  return d;
}

/** Seconds per clock step: a fifth of the gap, at least a minute, yet always below half the gap. */
export function stepSecondsFor(gapMinutes: number): number {
  const gapS = gapMinutes * 60;
  return Math.round(Math.max(gapS / 5, Math.min(60, gapS / 2)));
}

/** schedule.sendingDays for every day of the week, in the profile's numbering. */
function everyDay(profile: Profile): number[] {
  const n = profile.names.sendingDays!;
  const days = [0, 1, 2, 3, 4, 5, 6].map((js) => (n === '0-sunday' ? js : n === '1-monday' ? (js === 0 ? 7 : js) : (js + 6) % 7));
  return days.sort((x, y) => x - y);
}

const snip = (r: ApiResponse) => (r.text ?? '').slice(0, 300);
const is2xx = (r: ApiResponse) => r.status >= 200 && r.status < 300;

interface Box {
  id: string;
  address: string;
  smtpUser: string;
}

interface Lead {
  address: string;
  campaign: number;
}

export async function runSendpathLoad(opts: SendpathLoadOptions): Promise<SendpathLoadResult> {
  const d = resolveSendpathOptions(opts);
  const { profile, sink } = opts;
  const wall0 = Date.now();
  const wallEnd = wall0 + d.maxWallMs;
  const wallLeft = () => wallEnd - Date.now();
  const notes: string[] = [];
  const redactor = new Redactor();
  const recorder = new Recorder({ emit() {} }, redactor);
  const safe = (s: string) => redactor.text(s);
  const fail = (s: string): never => {
    throw new KitError(safe(`sendpath load: ${s}`));
  };
  const tag = randomBytes(3).toString('hex');
  const f = seededFaker(opts.seed ?? randomBytes(4).readUInt32BE(0));

  // --- workspace and clients ---
  let control: ConformanceControlClient | undefined;
  let apiKey = opts.apiKey;
  if (opts.control) {
    control = createControlClient({ baseUrl: opts.control.baseUrl, token: opts.control.token, recorder });
    const ws = await control.createWorkspace({ name: `sendpath-${tag}`, timezone: 'UTC' });
    apiKey = ws.apiKey;
  }
  redactor.add(apiKey!);
  const budget = new RateBudget({ requests: profile.rateLimit.requests, windowMs: profile.rateLimit.windowSeconds * 1000 });
  const api: ApiClient = createClient({ baseUrl: opts.baseUrl, key: apiKey!, budget, recorder });
  const must = async (what: string, p: Promise<ApiResponse>): Promise<ApiResponse> => {
    const r = await p;
    if (!is2xx(r)) fail(`${what} answered ${r.status}: ${snip(r)}`);
    return r;
  };

  // The day of the caps: the schedule's timezone, which is the workspace's (so whichever of the two
  // a target counts its mailbox day in, they agree).
  const wsRes = await must('GET /v1/workspace', api.get('/v1/workspace'));
  const timezone = typeof wsRes.body?.timezone === 'string' && wsRes.body.timezone ? wsRes.body.timezone : 'UTC';
  try {
    fmt(timezone).format(0);
  } catch {
    fail(`the workspace's timezone "${timezone}" is not an IANA timezone this kit knows`);
  }

  // --- mailboxes at the sink ---
  if (!sink.imap) notes.push(`the IMAP sink is unavailable (${sink.imapUnavailableReason ?? 'no reason given'}): the mailboxes' IMAP settings point nowhere`);
  const host = profile.sinks?.host ?? sink.smtp.host;
  const boxes: Box[] = [];
  for (let i = 0; i < opts.mailboxes; i += ACCOUNTS_PER_POST) {
    const batch: Record<string, unknown>[] = [];
    for (let j = i; j < Math.min(opts.mailboxes, i + ACCOUNTS_PER_POST); j++) {
      const address = `sp${tag}-m${j}@sink.outreach.test`;
      const c = await sink.addUser(address);
      redactor.add(c.password);
      const imap = c.imap ?? { host, port: 9, username: address, password: c.password };
      batch.push(
        mailboxInput(f, `sp${tag}-`, { smtpHost: host, smtpPort: sink.smtp.port, imapHost: profile.sinks?.host ?? imap.host, imapPort: imap.port }, {
          emailAddress: address,
          smtpUsername: c.smtp.username,
          smtpPassword: c.smtp.password,
          imapUsername: imap.username,
          imapPassword: imap.password,
          imapAllowInvalidCert: true,
          maxEmailsPerDay: d.capPerDay,
          sendingGapMinutes: d.gapMinutes,
          campaignSlowRamp: false,
          warmup: { enabled: false },
        }),
      );
    }
    const r = await must('POST /v1/accounts', api.post('/v1/accounts', { accounts: batch }));
    const created = Array.isArray(r.body?.accounts) ? (r.body.accounts as any[]) : [];
    if (created.length !== batch.length) fail(`POST /v1/accounts created ${created.length} of ${batch.length} mailboxes; errors: ${JSON.stringify(r.body?.errors ?? null).slice(0, 300)}`);
    for (const el of batch) {
      const a = created.find((x) => String(x?.emailAddress ?? '').toLowerCase() === String(el.emailAddress).toLowerCase());
      if (!a || typeof a.id !== 'string') fail(`POST /v1/accounts did not answer the mailbox ${String(el.emailAddress)} with an id`);
      boxes.push({ id: a.id, address: String(el.emailAddress).toLowerCase(), smtpUser: String(el.smtpUsername).toLowerCase() });
    }
  }

  // --- verification ---
  await verify({ profile, api, control, boxes, notes, fail, wallLeft });

  // --- campaigns ---
  const leads: Lead[] = Array.from({ length: opts.leads }, (_, i) => ({ address: `sp${tag}-l${i}@leads.sink.test`, campaign: Math.floor((i * d.campaigns) / opts.leads) }));
  const schedule = {
    timezone,
    sendingDays: everyDay(profile),
    sendingMinutesStart: WINDOW.startMinute,
    sendingMinutesEnd: WINDOW.endMinute,
    // high enough never to bind: the most the mailboxes can send in a day
    dailyLimit: Math.max(1, opts.mailboxes * d.capPerDay),
  };
  const sequence = Array.from({ length: d.steps }, (_, s) => ({ subject: `Hello from the load ${tag}-s${s + 1}`, body: `<p>Step ${s + 1} of a send-path load.</p>`, delayDays: 0, delayHours: 0 }));
  const campaignIds: string[] = [];
  const leadsOp = operation(profile, 'leads.create');
  for (let c = 0; c < d.campaigns; c++) {
    const mine = leads.filter((l) => l.campaign === c).map((l) => l.address);
    const inBody = leadsOp ? mine.slice(0, LEADS_PER_REQUEST) : mine;
    const r = await must('POST /v1/campaigns', api.post('/v1/campaigns', {
      name: `sendpath ${tag} ${c + 1}`,
      schedule,
      settings: { trackOpens: false, trackClicks: false, sendAsTextOnly: false, stopOnReply: true },
      sequence,
      accounts: boxes.map((b) => b.id),
      leads: inBody,
    }));
    const id = r.body?.campaign?.id;
    if (typeof id !== 'string') fail(`POST /v1/campaigns answered ${r.status} without campaign.id: ${snip(r)}`);
    const createdLeads = r.body?.leads?.created;
    if (typeof createdLeads === 'number' && createdLeads !== inBody.length) fail(`POST /v1/campaigns created ${createdLeads} of ${inBody.length} leads: ${snip(r)}`);
    for (let i = inBody.length; i < mine.length; i += LEADS_PER_REQUEST) {
      const chunk = mine.slice(i, i + LEADS_PER_REQUEST);
      const lr = await must(`${leadsOp!.method} ${leadsOp!.path} (leads.create)`, api.request({ method: leadsOp!.method as 'POST', path: fillPath(leadsOp!.path, { id }), body: { [fieldName(leadsOp!, 'leads')]: chunk.map((email) => ({ email })) } }));
      const n = getPath(lr.body, resultPath(leadsOp!, 'created'));
      if (typeof n === 'number' && n !== chunk.length) fail(`leads.create created ${n} of ${chunk.length} leads: ${snip(lr)}`);
    }
    campaignIds.push(id);
  }

  // --- start, at the beginning of a local day when the clock is ours to move ---
  let start: number;
  const campaignStarts: number[] = [];
  const targetNow = async () => (control ? (await control.now()).getTime() : Date.now());
  if (control) {
    // The campaigns start one minute into a local day: a run's days are whole and its figures do
    // not depend on the hour it ran at.
    const now = await targetNow();
    const s = Math.ceil((nextDayStartIn(now, timezone) + MINUTE - now) / 1000);
    await control.advance(s);
    budget.shift(s * 1000);
    await control.drain(30_000);
  }
  start = await targetNow();
  for (const id of campaignIds) {
    campaignStarts.push(await targetNow());
    await must('POST /v1/campaigns/{id}/start', api.post(`/v1/campaigns/${encodeURIComponent(id)}/start`));
  }
  start = Math.min(start, ...campaignStarts);
  const setupRequests = recorder.stats.requests;
  if (wallLeft() <= 0) fail(`the setup alone took ${((Date.now() - wall0) / 1000).toFixed(1)} s, beyond maxWallMs (${d.maxWallMs} ms): the campaigns were started but nothing was measured`);

  // --- the sending phase ---
  const byUser = new Map<string, number>();
  boxes.forEach((b, i) => {
    byUser.set(b.smtpUser, i);
    byUser.set(b.address, i);
  });
  const leadIndex = new Map(leads.map((l, i) => [l.address, i]));
  const marker = new RegExp(`${tag}-s(\\d+)`);
  const arrivals: ArrivalRecord[] = [];
  const seenIds = new Set<string>();
  const got = new Set<string>();
  let unexpected = 0;
  let ours = 0;
  const expected = opts.leads * d.steps;
  const boxOf = (m: StoredMessage): number | undefined => byUser.get((m.session.authUser ?? '').toLowerCase()) ?? byUser.get(m.envelope.mailFrom.toLowerCase());
  const perBoxDay = new Map<string, number>();
  let lastArrival: number | undefined;

  /** Takes the sink's new messages of this run, dated by `date(m)`. */
  const observe = (date: (m: StoredMessage) => { at: number; lo: number; hi: number }) => {
    for (const m of sink.messages((x) => !seenIds.has(x.id))) {
      seenIds.add(m.id);
      if (m.injected) continue;
      const box = boxOf(m);
      if (box === undefined) continue;
      ours++;
      const lead = m.envelope.rcptTo.map((r) => leadIndex.get(r.toLowerCase())).find((x) => x !== undefined);
      const step = Number(marker.exec(m.subject ?? '')?.[1] ?? NaN) - 1;
      if (lead === undefined || !(step >= 0 && step < d.steps)) {
        unexpected++;
        continue;
      }
      const t = date(m);
      arrivals.push({ mailbox: box, lead, step, ...t });
      got.add(`${lead}:${step}`);
      const k = `${box}:${dayStartIn(t.at, timezone)}`;
      perBoxDay.set(k, (perBoxDay.get(k) ?? 0) + 1);
      lastArrival = Math.max(lastArrival ?? t.at, t.at);
    }
  };

  const sending0 = Date.now();
  let lastProgress = 0;
  const progress = (simulatedMinutes?: number, force = false) => {
    if (!opts.onProgress) return;
    const now = Date.now();
    if (!force && now - lastProgress < 250) return;
    lastProgress = now;
    opts.onProgress({ sent: got.size, expected, ...(simulatedMinutes !== undefined ? { simulatedMinutes } : {}), wallMs: now - wall0 });
  };

  let stopped: SendpathStop = 'complete';
  let end: number;
  const gapMs = d.gapMinutes * MINUTE;
  let stepS: number | undefined;
  if (control) {
    stepS = stepSecondsFor(d.gapMinutes);
    const stepMs = stepS * 1000;
    const maxSim = d.maxSimulatedDays * DAY;
    let T = start;
    let advancedAt = Date.now();
    const drainAndObserve = async (lo: number) => {
      await control!.drain(Math.max(1000, Math.min(30_000, wallLeft())));
      const w = Date.now() - advancedAt;
      observe(() => ({ at: T, lo, hi: T + w }));
    };
    await drainAndObserve(start);
    for (;;) {
      progress((T - start) / MINUTE);
      if (got.size >= expected) break;
      if (Date.now() >= wallEnd) {
        stopped = 'max-wall';
        break;
      }
      if (T - start >= maxSim) {
        stopped = 'max-simulated-days';
        break;
      }
      if (T - (lastArrival ?? start) > DAY + 2 * gapMs) {
        stopped = 'stalled';
        break;
      }
      // Every mailbox at its cap for today and quiet for a gap: nothing may go until the next
      // day, so the clock jumps to at most one step before it (arrivals of the jump are still
      // dated, and counted for the day, as any step's); the next step then reaches midnight.
      let adv = stepS;
      const today = dayStartIn(T, timezone);
      const allCapped = boxes.every((_, i) => (perBoxDay.get(`${i}:${today}`) ?? 0) >= d.capPerDay);
      if (allCapped && T - (lastArrival ?? start) >= gapMs + stepMs) {
        const jump = Math.ceil((nextDayStartIn(T, timezone) - T) / 1000) - stepS;
        if (jump > stepS) adv = jump;
      }
      adv = Math.max(1, Math.min(adv, Math.ceil((start + maxSim - T) / 1000)));
      const lo = T;
      T = (await control.advance(adv)).getTime();
      advancedAt = Date.now();
      budget.shift(adv * 1000);
      await drainAndObserve(lo);
    }
    end = T;
  } else {
    // Real time: a message left between the start of its SMTP transaction and its arrival.
    const attemptAt = new Map<string, number>();
    const dateReal = (m: StoredMessage) => {
      if (!attemptAt.has(m.attemptId)) for (const x of sink.attempts({ kind: 'mail', since: start - MINUTE })) attemptAt.set(x.id, x.at);
      const lo = Math.min(attemptAt.get(m.attemptId) ?? m.receivedAt, m.receivedAt);
      return { at: m.receivedAt, lo, hi: m.receivedAt };
    };
    for (;;) {
      observe(dateReal);
      progress();
      if (got.size >= expected) break;
      const left = wallLeft();
      if (left <= 0) {
        stopped = 'max-wall';
        break;
      }
      await sink.waitFor((m) => !seenIds.has(m.id) && boxOf(m) !== undefined, { timeout: Math.max(1, Math.min(1000, left)) }).catch(() => undefined);
    }
    end = Date.now();
  }
  const sendingWallMs = Date.now() - sending0;
  progress(control ? (end - start) / MINUTE : undefined, true);

  if (stopped === 'max-wall') notes.push(`the run reached its wall-clock bound (maxWallMs ${d.maxWallMs} ms) after ${fmtDur(end - start)} of target time`);
  if (stopped === 'max-simulated-days') notes.push(`the run reached its bound of ${d.maxSimulatedDays} simulated days`);
  if (stopped === 'stalled') notes.push(`nothing arrived for ${fmtDur(end - (lastArrival ?? start))} of target time (more than a day and two gaps): the run stopped`);
  if (unexpected > 0) notes.push(`${unexpected} messages from the run's mailboxes were not an expected (lead, step): another recipient, or a subject without the step marker "${tag}-sN"`);

  const analysis = analyzeSendpath({
    simulated: !!control,
    start,
    end,
    timezone,
    mailboxes: boxes.map((b) => ({ id: b.id, address: b.address, cap: d.capPerDay, gapMinutes: d.gapMinutes })),
    leads,
    campaignStarts,
    steps: d.steps,
    arrivals,
    messagesThroughSink: ours,
    sendingWallMs,
    ...(stepS !== undefined ? { stepMs: stepS * 1000 } : {}),
    stalled: stopped === 'stalled',
  });
  if (analysis.clampedLatencies > 0) notes.push(`${analysis.clampedLatencies} sends arrived more than an hour after they were allowed (recorded as one hour in fromAllowed)`);

  return {
    stats: analysis.stats,
    violations: analysis.violations,
    wallMs: Date.now() - wall0,
    sendingWallMs,
    setupRequests,
    controlRequests: recorder.stats.controlRequests,
    stopped,
    expected,
    delivered: analysis.delivered,
    targetMs: end - start,
    idealMs: analysis.idealMs,
    ...(stepS !== undefined ? { stepSeconds: stepS } : {}),
    timezone,
    gapMinutes: d.gapMinutes,
    capPerDay: d.capPerDay,
    campaigns: d.campaigns,
    steps: d.steps,
    unexpected,
    clampedLatencies: analysis.clampedLatencies,
    notes: [...notes, ...analysis.notes].map(safe),
  };
}

/**
 * Brings every mailbox to the declared verification success (declarations.verificationStatus):
 * with control by draining background work, without it by waiting; the status is read through
 * the referenced accounts.list (a page of 100 at a time) or else accounts.get per mailbox. A
 * mailbox that ends elsewhere is an error naming the status seen. Without the declaration or a
 * way to read a mailbox, the run goes on and says so.
 */
async function verify(x: {
  profile: Profile;
  api: ApiClient;
  control?: ConformanceControlClient;
  boxes: Box[];
  notes: string[];
  fail: (s: string) => never;
  wallLeft: () => number;
}): Promise<void> {
  const { profile, api, control, boxes, notes, fail } = x;
  const ok = profile.declarations.verificationStatus?.succeeded;
  const failed = profile.declarations.verificationStatus?.failed;
  const listOp = operation(profile, 'accounts.list');
  const getOp = operation(profile, 'accounts.get');
  const bound = Math.min(control ? 30_000 : 120_000, Math.max(1000, x.wallLeft()));
  const until = Date.now() + bound;
  if (!ok || (!listOp && !getOp)) {
    if (control) await control.drain(Math.min(30_000, bound));
    else await new Promise((r) => setTimeout(r, Math.min(10_000, bound)));
    notes.push(
      !ok
        ? 'verification not confirmed: the profile does not declare declarations.verificationStatus (the mailbox status after a verification)'
        : 'verification not confirmed: the profile declares neither accounts.list nor accounts.get (a way to read a mailbox)',
    );
    return;
  }
  const statuses = async (pending: Set<string>): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    if (listOp) {
      let cursor: string | undefined;
      for (let page = 0; page < 1000; page++) {
        const r = await api.request({ method: listOp.method as 'GET', path: listOp.path, query: { [profile.names.list.pageSize]: 100, [profile.names.list.cursor]: cursor } });
        if (!is2xx(r)) fail(`${listOp.method} ${listOp.path} (accounts.list) answered ${r.status}: ${snip(r)}`);
        const items = getPath(r.body, resultPath(listOp, 'items'));
        if (!Array.isArray(items)) fail(`${listOp.method} ${listOp.path} (accounts.list): no array at "${resultPath(listOp, 'items')}"`);
        for (const m of items as any[]) if (typeof m?.id === 'string' && pending.has(m.id)) out.set(m.id, String(m.status));
        if (r.body?.meta?.hasMore !== true || typeof r.body?.meta?.nextCursor !== 'string') break;
        cursor = r.body.meta.nextCursor;
      }
    } else {
      for (const id of pending) {
        const r = itemOf(getOp!, await api.request({ method: getOp!.method as 'GET', path: fillPath(getOp!.path, { id }) }));
        if (!is2xx(r)) fail(`${getOp!.method} ${getOp!.path} (accounts.get) answered ${r.status}: ${snip(r)}`);
        out.set(id, String((r.body as any)?.status));
      }
    }
    return out;
  };
  const pending = new Set(boxes.map((b) => b.id));
  let last = new Map<string, string>();
  for (;;) {
    if (control) await control.drain(Math.max(1000, Math.min(30_000, until - Date.now())));
    last = await statuses(pending);
    for (const [id, s] of last) if (s === ok) pending.delete(id);
    if (pending.size === 0) return;
    const settledElsewhere = [...pending].filter((id) => last.get(id) === failed);
    if (settledElsewhere.length > 0 || Date.now() >= until) break;
    await new Promise((r) => setTimeout(r, control ? 200 : 1000));
  }
  const seen = new Map<string, number>();
  for (const id of pending) {
    const s = last.get(id) ?? '(not listed)';
    seen.set(s, (seen.get(s) ?? 0) + 1);
  }
  const which = [...seen].map(([s, n]) => `${n} ${s}`).join(', ');
  fail(`${pending.size} of ${boxes.length} mailboxes at the kit's sinks did not verify: status ${which} after ${Math.round(bound / 1000)} s, where the profile declares "${ok}" (declarations.verificationStatus.succeeded); are the sinks reachable from the target at the profile's sinks.host?`);
}
