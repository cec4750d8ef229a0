// Analytics (spec 2.10, 4.6). Query names (reference choice): startDate, endDate,
// excludeOutOfOffice (true|false), breakdown (repeat or comma-separate: smtp, sequence, bounce),
// interval (day|week|month). Reporting is by whole calendar days in the workspace timezone.
// TODO(resources): real counters from the sending/IMAP work; today every counter is 0.
import { ok, type Handler, type Ctx } from '../context.ts';
import { isoOf } from '../clock.ts';
import { validationFailed } from '../errors.ts';
import { loadOwned } from './shared.ts';
import { datePart, zonedToUtc, startOfLocalDay, localParts } from './time.ts';

export const RETENTION_DAYS = 365;
const DAY = 86_400_000;

export function period(ctx: Ctx) {
  const tz = ctx.workspace.timezone;
  const details: string[] = [];
  const now = ctx.clock.now();
  const parse = (name: string) => {
    const raw = ctx.query.get(name);
    if (raw === null || raw === '') return null;
    const d = datePart(raw);
    if (!d || Number.isNaN(Date.parse(raw.length === 10 ? `${raw}T00:00:00Z` : raw))) {
      details.push(`${name}: must be an ISO 8601 date`);
      return null;
    }
    return d;
  };
  const s = parse('startDate');
  const e = parse('endDate');
  const ooo = ctx.query.get('excludeOutOfOffice');
  if (ooo !== null && ooo !== 'true' && ooo !== 'false') details.push('excludeOutOfOffice: must be true or false');
  if (details.length) throw validationFailed(details);
  const endDay = e ? zonedToUtc(e.year, e.month, e.day, 0, tz) : startOfLocalDay(now, tz);
  const endP = localParts(endDay + 12 * 3600_000, tz);
  const end = zonedToUtc(endP.year, endP.month, endP.day + 1, 0, tz) - 1;
  let start = s ? zonedToUtc(s.year, s.month, s.day, 0, tz) : startOfLocalDay(end - 29 * DAY, tz);
  if (start > end) throw validationFailed(['startDate: must not be after endDate']);
  const floor = startOfLocalDay(now - RETENTION_DAYS * DAY, tz);
  let clamped = false;
  if (start < floor) {
    start = floor;
    clamped = true;
  }
  return { start: isoOf(start)!, end: isoOf(end)!, clamped, retentionDays: RETENTION_DAYS, startMs: start, endMs: end };
}

const zeroRates = () => ({ open: 0, click: 0, reply: 0, bounce: 0, delivery: 0, unsubscribe: 0, conversion: 0 });
export const zeroTotals = () => ({
  sent: 0, failed: 0, delivered: 0, leadsContacted: 0, opens: { total: 0, uniqueLeads: 0 }, clicks: { total: 0, uniqueLeads: 0 },
  replies: 0, bounces: 0, unsubscribed: 0, positiveLeads: 0, conversions: 0, conversionValue: 0, rates: zeroRates(),
});

function breakdowns(ctx: Ctx): Set<string> {
  const vals = ctx.query.getAll('breakdown').flatMap((b) => b.split(',')).map((b) => b.trim()).filter(Boolean);
  const bad = vals.filter((b) => !['smtp', 'sequence', 'bounce'].includes(b));
  if (bad.length) throw validationFailed([`breakdown: unknown value(s) ${bad.join(', ')}; use smtp, sequence, bounce`]);
  return new Set(vals);
}

export const campaign: Handler = async (ctx) => {
  const c = loadOwned<{ id: string; doc: string }>(ctx, 'campaigns', ctx.params.id!, 'campaign');
  const p = period(ctx);
  const want = breakdowns(ctx);
  const out: Record<string, unknown> = {
    campaignId: c.id, period: { start: p.start, end: p.end, clamped: p.clamped, retentionDays: p.retentionDays }, totals: zeroTotals(),
  };
  if (want.has('smtp')) out.bySmtp = [];
  if (want.has('sequence')) out.bySequence = [];
  if (want.has('bounce')) out.bounceBreakdown = { total: 0, hard: 0, soft: 0, senderBounces: 0, recipientBounces: 0, unknownBounces: 0, byCategory: [] };
  return ok(out);
};

export const timeseries: Handler = async (ctx) => {
  const c = loadOwned<{ id: string }>(ctx, 'campaigns', ctx.params.id!, 'campaign');
  const p = period(ctx);
  const raw = ctx.query.get('interval');
  if (raw !== null && !['day', 'week', 'month'].includes(raw)) throw validationFailed(['interval: must be one of day, week, month']);
  let interval = raw ?? 'day';
  const days = Math.ceil((p.endMs - p.startMs) / DAY);
  // Coarsen long windows: at most 92 day points, at most 104 week points.
  if (interval === 'day' && days > 92) interval = 'week';
  if (interval === 'week' && days > 7 * 104) interval = 'month';
  const tz = ctx.workspace.timezone;
  const data: unknown[] = [];
  let t = p.startMs;
  while (t <= p.endMs && data.length < 1000) {
    data.push({ timestamp: isoOf(t), sent: 0, delivered: 0, opens: { total: 0, uniqueLeads: 0 }, clicks: { total: 0, uniqueLeads: 0 }, replies: 0, bounces: 0, unsubscribed: 0 });
    const lp = localParts(t + 12 * 3600_000, tz);
    if (interval === 'day') t = zonedToUtc(lp.year, lp.month, lp.day + 1, 0, tz);
    else if (interval === 'week') t = zonedToUtc(lp.year, lp.month, lp.day + 7, 0, tz);
    else t = zonedToUtc(lp.year, lp.month + 1, 1, 0, tz);
  }
  return ok({ campaignId: c.id, period: { start: p.start, end: p.end, clamped: p.clamped, retentionDays: p.retentionDays }, interval, data });
};

export const overview: Handler = async (ctx) => {
  const p = period(ctx);
  const active = ctx.db.prepare("SELECT COUNT(*) AS n FROM campaigns WHERE org_id = ? AND status = 'active'").get(ctx.workspace.id) as { n: number };
  const sending = ctx.db.prepare("SELECT COUNT(*) AS n FROM accounts WHERE org_id = ? AND status = 'active'").get(ctx.workspace.id) as { n: number };
  return ok({
    period: { start: p.start, end: p.end, clamped: p.clamped, retentionDays: p.retentionDays },
    totals: zeroTotals(), activeCampaigns: active.n, sendingAccounts: sending.n, topCampaigns: [],
  });
};
