import { z } from 'zod';
import { uuid, isoTimestamp, int } from './primitives.ts';

// ---------------------------------------------------------------------------------------------
// 2.10 Analytics
// ---------------------------------------------------------------------------------------------

export const ANALYTICS_BREAKDOWNS = ['smtp', 'sequence', 'bounce'] as const;
export const ANALYTICS_INTERVALS = ['day', 'week', 'month'] as const;

export const period = z.looseObject({
  start: isoTimestamp,
  end: isoTimestamp,
  clamped: z.boolean(),
  retentionDays: int().min(0),
});

export const openClickCount = z.looseObject({ total: z.number(), uniqueLeads: z.number() });

export const totals = z.looseObject({
  sent: z.number(),
  failed: z.number(),
  delivered: z.number(),
  leadsContacted: z.number(),
  opens: openClickCount,
  clicks: openClickCount,
  replies: z.number(),
  bounces: z.number(),
  unsubscribed: z.number(),
  positiveLeads: z.number(),
  conversions: z.number(),
  conversionValue: z.number(),
  rates: z.looseObject({
    open: z.number(),
    click: z.number(),
    reply: z.number(),
    bounce: z.number(),
    delivery: z.number(),
    unsubscribe: z.number(),
    conversion: z.number(),
  }),
});

/**
 * Totals of one mailbox or one sequence step. The spec lists `opens` and `clicks` without a
 * shape here (in `totals` they are `{ total, uniqueLeads }`): either a number or that object.
 */
export const breakdownTotals = z.looseObject({
  sent: z.number(),
  delivered: z.number(),
  opens: z.union([z.number(), openClickCount]),
  clicks: z.union([z.number(), openClickCount]),
  replies: z.number(),
  bounces: z.number(),
  positiveLeads: z.number(),
  conversions: z.number(),
  conversionValue: z.number(),
  rates: z.looseObject({
    open: z.number(),
    click: z.number(),
    reply: z.number(),
    bounce: z.number(),
    delivery: z.number(),
    positive: z.number(),
    conversion: z.number(),
  }),
});

export const bySmtpItem = z.looseObject({ accountId: uuid, email: z.string(), totals: breakdownTotals });
export const bySequenceItem = z.looseObject({ step: int(), variant: z.string(), totals: breakdownTotals });

export const bounceBreakdown = z.looseObject({
  total: z.number(),
  hard: z.number(),
  soft: z.number(),
  senderBounces: z.number(),
  recipientBounces: z.number(),
  unknownBounces: z.number(),
  byCategory: z.array(
    z.looseObject({ category: z.string(), label: z.string(), type: z.string(), count: z.number(), percentage: z.number() }),
  ),
});

export const timeseriesPoint = z.looseObject({
  timestamp: isoTimestamp,
  sent: z.number(),
  delivered: z.number(),
  opens: openClickCount,
  clicks: openClickCount,
  replies: z.number(),
  bounces: z.number(),
  unsubscribed: z.number(),
});

/** GET /v1/campaigns/{id}/analytics. Each breakdown is present only when requested. */
export const campaignAnalytics = z.looseObject({
  campaignId: uuid,
  period,
  totals,
  bySmtp: z.array(bySmtpItem).optional(),
  bySequence: z.array(bySequenceItem).optional(),
  bounceBreakdown: bounceBreakdown.optional(),
});

/** Which breakdown keys an analytics answer must (and must not) carry for a request. */
export const BREAKDOWN_KEYS = { smtp: 'bySmtp', sequence: 'bySequence', bounce: 'bounceBreakdown' } as const;

/** campaignAnalytics plus "present only when requested" for the requested breakdowns. */
export function campaignAnalyticsFor(requested: readonly (typeof ANALYTICS_BREAKDOWNS)[number][]) {
  return campaignAnalytics.superRefine((v, ctx) => {
    for (const [b, key] of Object.entries(BREAKDOWN_KEYS) as [(typeof ANALYTICS_BREAKDOWNS)[number], string][]) {
      const present = (v as Record<string, unknown>)[key] !== undefined;
      if (requested.includes(b) && !present) ctx.addIssue({ code: 'custom', path: [key], message: `${key} was requested but is missing` });
      if (!requested.includes(b) && present) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is present but was not requested` });
    }
  });
}

/** GET /v1/campaigns/{id}/analytics/timeseries. */
export const campaignTimeseries = z.looseObject({
  campaignId: uuid,
  period,
  interval: z.enum(ANALYTICS_INTERVALS),
  data: z.array(timeseriesPoint),
});

/** GET /v1/campaigns/analytics/overview. */
export const analyticsOverview = z.looseObject({
  period,
  totals,
  activeCampaigns: z.number(),
  sendingAccounts: z.number(),
  topCampaigns: z.array(z.looseObject({ campaignId: uuid, name: z.string(), sent: z.number(), openRate: z.number() })),
});
