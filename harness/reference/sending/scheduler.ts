// Which (lead, step, mailbox) sends are due at `now`, from the rows alone (history = the sent
// `emails` rows, so pause/resume continue where they stopped and nothing goes twice):
// - the campaign is active and inside its window (timezone, sendingDays, minutes, start/end
//   dates) and under its dailyLimit for the campaign's local day;
// - a lead gets step n+1 delayDays/delayHours after step n (step 0 at once), unless it was
//   deleted, its sequence stopped, or it is blacklisted/lost; a failed try waits for its retry;
// - a mailbox must be active, under maxEmailsPerDay for its day (campaign and test emails, never
//   warmup: warmup.ts; the day's midnight is a choice), sendingGapMinutes after its last send
//   across all campaigns, and under the slow ramp when campaignSlowRamp; at most one send per
//   mailbox per call;
// - mailboxes rotate: the least recently used eligible one takes the next lead.
import type { DB } from '../store/db.ts';
import type { Choices } from '../switches/choices.ts';
import { DELETED_ORG_PREFIX, deletedOrg, type MutantSwitch } from '../switches/mutants.ts';
import { isWithinSchedule, type CampaignDoc, type Schedule } from '../domain/campaign.ts';
import { startOfLocalDay } from '../domain/time.ts';

export interface DueSend {
  orgId: string; campaignId: string; leadId: string; step: number; accountId: string;
  /** mutants only: a stopped mailbox sends this follow-up of its own thread */
  stopped?: true;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Lead statuses that never receive campaign mail. */
const NO_MAIL = new Set(['blacklisted', 'lead_lost']);

interface AccountState { id: string; orgId: string; status: string; maxPerDay: number; gapMs: number; slowRamp: boolean; lastSent: number | null; sentToday: number }

function dayStart(now: number, tz: string): number {
  return startOfLocalDay(now, tz);
}

/** The mailbox's state at `now`: caps and gap inputs from its doc and its sent emails (or in a deletedOrg: a mutant's kept mailbox). */
function accountState(db: DB, id: string, now: number, c: Choices, mutant: MutantSwitch): AccountState | null {
  const a = db.prepare("SELECT a.id, a.org_id, a.status, a.doc, w.timezone FROM accounts a JOIN workspaces w ON (w.id = a.org_id OR a.org_id = ? || w.id) WHERE a.id = ?").get(DELETED_ORG_PREFIX, id) as
    | { id: string; org_id: string; status: string; doc: string; timezone: string }
    | undefined;
  if (!a) return null;
  const d = JSON.parse(a.doc) as { maxEmailsPerDay?: number; sendingGapMinutes?: number; campaignSlowRamp?: boolean };
  const from = dayStart(now, c.sending.mailboxDay === 'utc' ? 'UTC' : a.timezone);
  // The mutant's cap counts first steps only (new leads started a day): follow-ups go past it.
  // The other mutant's cap counts campaign mail only: a test email never spends the day campaign sends use.
  const counted = mutant('send-cap-first-steps-only') ? "kind = 'campaign' AND step = 0" : mutant('send-cap-test-emails-uncounted') ? "kind = 'campaign'" : "1 = 1";
  const h = db
    .prepare(`SELECT MAX(sent_at) AS last, SUM(CASE WHEN sent_at >= ? AND ${counted} THEN 1 ELSE 0 END) AS today FROM emails WHERE account_id = ? AND direction = 'sent' AND kind IN ('campaign', 'test')`)
    .get(from, id) as { last: number | null; today: number | null };
  return {
    id: a.id, orgId: a.org_id, status: a.status,
    maxPerDay: d.maxEmailsPerDay ?? c.mailboxDefaults.maxEmailsPerDay,
    gapMs: (d.sendingGapMinutes ?? c.mailboxDefaults.sendingGapMinutes) * MINUTE,
    slowRamp: d.campaignSlowRamp ?? false,
    // Warmup has its own budget (2.1): the mutant spends the campaign cap on it too.
    lastSent: h.last, sentToday: (h.today ?? 0) + (mutant('send-warmup-counts-toward-cap') ? warmupSince(db, id, from) : 0),
  };
}

/** Warmup attempts of a mailbox since `from` (warmup.ts writes them). */
function warmupSince(db: DB, accountId: string, from: number): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM warmup_sends WHERE account_id = ? AND at >= ?').get(accountId, from) as { n: number }).n;
}

/** Campaign sends a slow-ramping mailbox may still make today for this campaign. */
function rampRoom(db: DB, s: AccountState, campaignId: string, now: number, c: Choices, tz: string): number {
  if (!s.slowRamp) return Infinity;
  const first = db.prepare("SELECT MIN(sent_at) AS t FROM emails WHERE account_id = ? AND campaign_id = ? AND kind = 'campaign'").get(s.id, campaignId) as { t: number | null };
  const from = dayStart(now, tz);
  const days = first.t === null ? 0 : Math.max(0, Math.round((from - dayStart(first.t, tz)) / DAY));
  const today = (db.prepare("SELECT COUNT(*) AS n FROM emails WHERE account_id = ? AND campaign_id = ? AND kind = 'campaign' AND sent_at >= ?").get(s.id, campaignId, from) as { n: number }).n;
  return c.sending.slowRamp.first + days * c.sending.slowRamp.step - today;
}

/** May a mailbox in this status send campaign mail? Only an active one (3.2: a paused one is skipped). */
/** The schedule the engine keeps to (the status view reads the campaign's own): the mutants forget its dates or its days. */
function keptSchedule(s: Schedule, mutant: MutantSwitch): Schedule {
  if (mutant('send-schedule-dates-ignored')) return { ...s, startDate: null, endDate: null };
  if (mutant('send-sending-days-ignored')) return { ...s, sendingDays: [0, 1, 2, 3, 4, 5, 6] };
  if (mutant('send-window-end-ignored')) return { ...s, sendingMinutesEnd: 1440 };
  return s;
}

export function canSend(s: { mutant: MutantSwitch }, status: string): boolean {
  return status === 'active' || (status === 'inactive' && s.mutant('send-paused-mailbox-sends'));
}

/** May this mailbox send campaign mail of the workspace now? */
function sendsFor(a: AccountState, orgId: string, mutant: MutantSwitch): boolean {
  return a.orgId === orgId && canSend({ mutant }, a.status);
}

/** The mailbox that sent a lead's previous step of the campaign. */
function previousSender(db: DB, campaignId: string, leadId: string): string | undefined {
  const last = db.prepare("SELECT account_id FROM emails WHERE campaign_id = ? AND lead_id = ? AND kind = 'campaign' AND direction = 'sent' ORDER BY step DESC, sent_at DESC LIMIT 1").get(campaignId, leadId) as { account_id: string } | undefined;
  return last?.account_id;
}

/**
 * Mutants only: may a stopped mailbox still send the follow-ups of its threads? Paused
 * (send-followups-from-paused-mailbox), or deleted and kept aside (send-followups-from-deleted-mailbox
 * moves a deleted mailbox to deletedOrg; no other path puts a mailbox there).
 */
function keepsItsThreads(a: AccountState, orgId: string, paused: boolean): boolean {
  return (paused && a.orgId === orgId && a.status === 'inactive') || (a.orgId === deletedOrg(orgId) && a.status === 'active');
}

/** When the campaign's first email went (the campaign-start mutant's clock). */
function firstSendOf(db: DB, campaignId: string): number | null {
  return (db.prepare("SELECT MIN(sent_at) AS t FROM emails WHERE campaign_id = ? AND kind = 'campaign'").get(campaignId) as { t: number | null }).t;
}

export function dueSends(db: DB, now: number, c: Choices, mutant: MutantSwitch, max = 200): DueSend[] {
  const out: DueSend[] = [];
  if (mutant('send-nothing')) return out;
  const busy = new Set<string>(); // mailboxes given a send in this call
  const states = new Map<string, AccountState | null>();
  const stateOf = (id: string) => {
    if (!states.has(id)) states.set(id, accountState(db, id, now, c, mutant));
    return states.get(id)!;
  };
  // Mutants that count a mailbox's gap or cap within one campaign only (the rule is across all).
  const gapPerCampaign = mutant('send-gap-per-campaign');
  const capPerCampaign = mutant('send-cap-per-campaign');
  const rampIgnored = mutant('send-slow-ramp-ignored');
  // Mutants that let a stopped mailbox keep its threads: only then is a follow-up's previous sender looked up.
  const pausedKeeps = mutant('send-followups-from-paused-mailbox');
  const stickyThreads = pausedKeeps || !!db.prepare('SELECT 1 FROM accounts WHERE org_id LIKE ? LIMIT 1').get(`${DELETED_ORG_PREFIX}%`);
  const perCampaign = (a: AccountState, campaignId: string): AccountState => {
    if (!gapPerCampaign && !capPerCampaign) return a;
    const h = db.prepare("SELECT MAX(sent_at) AS last, COUNT(*) AS n FROM emails WHERE account_id = ? AND campaign_id = ? AND kind = 'campaign'").get(a.id, campaignId) as { last: number | null; n: number };
    return { ...a, ...(gapPerCampaign ? { lastSent: h.last } : {}), ...(capPerCampaign ? { sentToday: Math.min(a.sentToday, h.n) } : {}) };
  };
  const campaigns = db.prepare("SELECT id, org_id, doc FROM campaigns WHERE status = 'active' ORDER BY created_at").all() as { id: string; org_id: string; doc: string }[];
  for (const camp of campaigns) {
    if (out.length >= max) break;
    const doc = JSON.parse(camp.doc) as CampaignDoc;
    // The UTC mutants read the window's days and minutes in UTC, or its weekday alone from the UTC date, whatever schedule.timezone says.
    const kept = isWithinSchedule(keptSchedule(doc.schedule, mutant), now, mutant('send-window-in-utc'), mutant('send-days-on-utc-date'));
    if (doc.sequence.length === 0 || (!kept && !mutant('send-window-ignored'))) continue;
    // The campaign's day is its timezone's (the mutant counts it from UTC midnight).
    const dayZone = mutant('send-daily-limit-utc-date') ? 'UTC' : doc.schedule.timezone;
    const sentToday = (db.prepare("SELECT COUNT(*) AS n FROM emails WHERE campaign_id = ? AND kind = 'campaign' AND sent_at >= ?").get(camp.id, dayStart(now, dayZone)) as { n: number }).n;
    let room = mutant('send-daily-limit-ignored') ? Infinity : doc.schedule.dailyLimit - sentToday;
    if (room <= 0) continue;
    const leads = db
      .prepare(
        `SELECT l.id, l.status, l.doc, h.step AS last_step, h.sent_at AS last_at FROM leads l
         LEFT JOIN (SELECT lead_id, MAX(step) AS step, MAX(sent_at) AS sent_at FROM emails WHERE campaign_id = ? AND kind = 'campaign' AND direction = 'sent' GROUP BY lead_id) h ON h.lead_id = l.id
         WHERE l.campaign_id = ? AND l.deleted_at IS NULL AND l.seq_stopped_at IS NULL ORDER BY l.created_at, l.id`,
      )
      .all(camp.id, camp.id) as { id: string; status: string; doc: string; last_step: number | null; last_at: number | null }[];
    for (const l of leads) {
      if (room <= 0 || out.length >= max) break;
      if (NO_MAIL.has(l.status)) continue;
      const step = l.last_step === null ? 0 : mutant('send-step-twice') && l.last_step === 0 ? 0 : l.last_step + 1;
      if (step >= doc.sequence.length) continue;
      const s = doc.sequence[step]!;
      // The mutant times a step from the campaign's first send, not from the step before to this lead.
      const since = l.last_at !== null && mutant('send-delay-from-campaign-start') ? firstSendOf(db, camp.id) : l.last_at;
      const dueAt = since === null || mutant('send-step-delay-ignored') ? 0 : since + s.delayDays * DAY + (mutant('send-delay-hours-ignored') ? 0 : s.delayHours * 3_600_000);
      const retryAt = (JSON.parse(l.doc) as { retryAt?: number }).retryAt ?? 0;
      if (dueAt > now || retryAt > now) continue;
      // The least recently used mailbox of the campaign that may send now.
      const sticky = stickyThreads && step > 0 ? previousSender(db, camp.id, l.id) : undefined;
      const stopped = (a: AccountState) => a.id === sticky && keepsItsThreads(a, camp.org_id, pausedKeeps);
      const pick = [...doc.accounts, ...(sticky && !doc.accounts.includes(sticky) ? [sticky] : [])]
        .map(stateOf)
        .filter((a): a is AccountState => a !== null && !busy.has(a.id) && (sendsFor(a, camp.org_id, mutant) || stopped(a)))
        .map((a) => perCampaign(a, camp.id))
        .filter((a) => a.sentToday < a.maxPerDay && (a.lastSent === null || now - a.lastSent >= a.gapMs) && (rampIgnored || rampRoom(db, a, camp.id, now, c, doc.schedule.timezone) > 0))
        .sort((x, y) => (x.lastSent ?? 0) - (y.lastSent ?? 0))[0];
      if (!pick) break; // no mailbox of this campaign can send now
      busy.add(pick.id);
      out.push({ orgId: camp.org_id, campaignId: camp.id, leadId: l.id, step, accountId: pick.id, ...(sendsFor(pick, camp.org_id, mutant) ? {} : { stopped: true as const }) });
      room--;
    }
  }
  return out;
}

/** Has every lead of the campaign received its whole sequence, or stopped? (then it is completed) */
export function allLeadsDone(db: DB, campaignId: string, steps: number): boolean {
  const open = db
    .prepare(
      `SELECT COUNT(*) AS n FROM leads l WHERE l.campaign_id = ? AND l.deleted_at IS NULL AND l.seq_stopped_at IS NULL AND l.status NOT IN ('blacklisted', 'lead_lost')
       AND (SELECT COUNT(DISTINCT step) FROM emails e WHERE e.lead_id = l.id AND e.campaign_id = l.campaign_id AND e.kind = 'campaign') < ?`,
    )
    .get(campaignId, steps) as { n: number };
  const any = db.prepare('SELECT COUNT(*) AS n FROM leads WHERE campaign_id = ? AND deleted_at IS NULL').get(campaignId) as { n: number };
  return any.n > 0 && open.n === 0;
}
