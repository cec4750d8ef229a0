// Counting a set of ledger events into the 2.10 totals. Every count is of events in the window:
// sent, failed, opens, clicks, replies (out-of-office answers too unless excluded), bounces
// (hard + soft), unsubscribes; delivered = sends in the window that never bounced (by the chosen
// bounce kinds); positive leads and conversions = leads that answered in the window whose status
// is positive (chosen list) / lead_converted; conversionValue = the sum of the events' numeric
// data.conversionValue.
import type { AnalyticsChoice } from '../switches/choices.ts';
import { sendKeys, type LedgerEvent } from './ledger.ts';
import { ratesOf } from './rates.ts';

export interface CountInputs {
  choice: AnalyticsChoice;
  excludeOutOfOffice: boolean;
  /** Keys (ledger.ts sendKeys) of sent emails that bounced. */
  bounced: Set<string>;
  /** leadId -> current status */
  statuses: Map<string, string>;
  /** Set by a mutant: the reply rate of totals counts out-of-office answers even when they are excluded. */
  oooInRate?: boolean;
  /** Set by a mutant: rates are fractions of 1 (0.5 for 50 percent) instead of percent numbers. */
  fractionRates?: boolean;
}

export const isReply = (e: LedgerEvent, excludeOutOfOffice: boolean) => e.type === 'reply' || (e.type === 'ooo' && !excludeOutOfOffice);
const isBounce = (e: LedgerEvent) => e.type === 'bounce_hard' || e.type === 'bounce_soft';
const distinctLeads = (es: LedgerEvent[]) => new Set(es.map((e) => e.leadId).filter((l): l is string => l !== null));

/** The bounce event types that make a send undelivered. */
export const undeliveredTypes = (a: AnalyticsChoice) => (a.undelivered === 'hard-only' ? ['bounce_hard' as const] : ['bounce_hard' as const, 'bounce_soft' as const]);

/** The event counts every view shares (totals, breakdown totals, time-series points). */
export function counts(events: LedgerEvent[], x: CountInputs) {
  const of = (t: LedgerEvent['type']) => events.filter((e) => e.type === t);
  const sent = of('sent');
  const opens = of('open');
  const clicks = of('click');
  const answered = distinctLeads(events.filter((e) => e.type === 'reply' || e.type === 'ooo'));
  const status = (l: string) => x.statuses.get(l) ?? '';
  return {
    sent: sent.length,
    failed: of('failed').length,
    delivered: sent.filter((e) => !sendKeys(e).some((k) => x.bounced.has(k))).length,
    leadsContacted: distinctLeads(sent).size,
    opens: { total: opens.length, uniqueLeads: distinctLeads(opens).size },
    clicks: { total: clicks.length, uniqueLeads: distinctLeads(clicks).size },
    replies: events.filter((e) => isReply(e, x.excludeOutOfOffice)).length,
    bounces: events.filter(isBounce).length,
    unsubscribed: of('unsubscribe').length,
    positiveLeads: [...answered].filter((l) => x.choice.positiveStatuses.includes(status(l))).length,
    conversions: [...answered].filter((l) => status(l) === 'lead_converted').length,
    conversionValue: events.reduce((sum, e) => sum + (typeof e.data.conversionValue === 'number' && Number.isFinite(e.data.conversionValue) ? e.data.conversionValue : 0), 0),
  };
}
export type Counts = ReturnType<typeof counts>;

const rateInputs = (c: Counts) => ({ ...c, uniqueOpens: c.opens.uniqueLeads, uniqueClicks: c.clicks.uniqueLeads });

/** The rates of these counts (as fractions of 1 under the mutant). */
function rates(c: Counts, x: CountInputs) {
  const r = ratesOf(rateInputs(c), x.choice);
  return x.fractionRates ? (Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v / 100])) as typeof r) : r;
}

/** `totals` of 2.10 (campaign analytics and the overview). */
export function totalsOf(events: LedgerEvent[], x: CountInputs) {
  const c = counts(events, x);
  const r = rates(x.oooInRate ? counts(events, { ...x, excludeOutOfOffice: false }) : c, x);
  return {
    ...c,
    rates: { open: r.open, click: r.click, reply: r.reply, bounce: r.bounce, delivery: r.delivery, unsubscribe: r.unsubscribe, conversion: r.conversion },
  };
}

/** `totals` of one bySmtp or bySequence entry (2.10). */
export function breakdownTotalsOf(events: LedgerEvent[], x: CountInputs) {
  const c = counts(events, x);
  const r = rates(x.oooInRate ? counts(events, { ...x, excludeOutOfOffice: false }) : c, x);
  return {
    sent: c.sent, delivered: c.delivered, opens: c.opens, clicks: c.clicks, replies: c.replies, bounces: c.bounces,
    positiveLeads: c.positiveLeads, conversions: c.conversions, conversionValue: c.conversionValue,
    rates: { open: r.open, click: r.click, reply: r.reply, bounce: r.bounce, delivery: r.delivery, positive: r.positive, conversion: r.conversion },
  };
}

/** One time-series point's counts (2.10). */
export function pointOf(timestamp: string, events: LedgerEvent[], x: CountInputs) {
  const c = counts(events, x);
  return { timestamp, sent: c.sent, delivered: c.delivered, opens: c.opens, clicks: c.clicks, replies: c.replies, bounces: c.bounces, unsubscribed: c.unsubscribed };
}
