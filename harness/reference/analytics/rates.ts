// Rates as percentages (0..100, two decimals; 0 when the base is 0). Bases (a reference choice
// for open/click/reply/unsubscribe, analytics.rateBase): open and click count unique leads,
// reply and unsubscribe count events, each over delivered (or sent) emails; bounce and delivery
// are over sent emails; positive and conversion are over leads contacted.
import type { AnalyticsChoice } from '../switches/choices.ts';

export const pct = (n: number, base: number): number => (base > 0 ? Math.min(100, Math.round((n / base) * 10_000) / 100) : 0);

export interface RateInputs {
  sent: number; delivered: number; leadsContacted: number; uniqueOpens: number; uniqueClicks: number;
  replies: number; bounces: number; unsubscribed: number; positiveLeads: number; conversions: number;
}

export function ratesOf(n: RateInputs, a: AnalyticsChoice) {
  const base = a.rateBase === 'delivered' ? n.delivered : n.sent;
  return {
    open: pct(n.uniqueOpens, base),
    click: pct(n.uniqueClicks, base),
    reply: pct(n.replies, base),
    bounce: pct(n.bounces, n.sent),
    delivery: pct(n.delivered, n.sent),
    unsubscribe: pct(n.unsubscribed, base),
    positive: pct(n.positiveLeads, n.leadsContacted),
    conversion: pct(n.conversions, n.leadsContacted),
  };
}
