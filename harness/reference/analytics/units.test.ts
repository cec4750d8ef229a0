// Pure parts of analytics: buckets and coarsening, the retention floor, rates, bounce kinds.
import { describe, expect, it } from 'vitest';
import { bucketStarts, bucketize, intervalFor } from './series.ts';
import { retentionFloor } from './window.ts';
import { pct, ratesOf } from './rates.ts';
import { kindOf, bounceBreakdownOf } from './bounces.ts';
import type { LedgerEvent } from './ledger.ts';
import { DEFAULT_CHOICES, ALT_CHOICES } from '../switches/choices.ts';
import { zonedToUtc } from '../domain/time.ts';

const DAY = 86_400_000;
const ev = (type: LedgerEvent['type'], at: number, data: Record<string, unknown> = {}): LedgerEvent =>
  ({ type, at, campaignId: 'c', leadId: 'l', accountId: null, emailId: null, step: 0, data });

describe('time-series buckets', () => {
  it('cut at local midnights, months from the start day, across a DST change', () => {
    const tz = 'America/New_York';
    const start = zonedToUtc(2026, 3, 7, 0, tz);
    const end = zonedToUtc(2026, 3, 10, 0, tz) - 1;
    // 2026-03-08 has 23 hours in New York
    expect(bucketStarts(start, end, 'day', tz)).toEqual([7, 8, 9].map((d) => zonedToUtc(2026, 3, d, 0, tz)));
    const long = zonedToUtc(2026, 6, 1, 0, tz) - 1;
    expect(bucketStarts(start, long, 'month', tz)).toEqual([zonedToUtc(2026, 3, 7, 0, tz), zonedToUtc(2026, 4, 1, 0, tz), zonedToUtc(2026, 5, 1, 0, tz)]);
    expect(bucketStarts(start, long, 'week', tz)[1]).toBe(zonedToUtc(2026, 3, 14, 0, tz));
  });

  it('coarsen only upward, by the chosen lengths: day -> week beyond coarsening.day days, -> month beyond coarsening.week', () => {
    const tz = 'UTC';
    const s = Date.UTC(2024, 0, 1);
    const span = (days: number) => s + days * DAY - 1;
    for (const { coarsening: c } of [DEFAULT_CHOICES.analytics, ALT_CHOICES.analytics]) {
      expect(intervalFor('day', s, span(c.day), tz, c)).toBe('day');
      expect(intervalFor('day', s, span(c.day + 1), tz, c)).toBe('week');
      expect(intervalFor('week', s, span(c.week), tz, c)).toBe('week');
      expect(intervalFor('week', s, span(c.week + 1), tz, c)).toBe('month');
      expect(intervalFor('day', s, span(c.week + 1), tz, c)).toBe('month');
      expect(intervalFor('month', s, span(3), tz, c)).toBe('month');
      expect(intervalFor('week', s, span(3), tz, c)).toBe('week');
    }
    // the default: 92 days by day, 104 weeks by week
    expect(DEFAULT_CHOICES.analytics.coarsening).toEqual({ day: 92, week: 7 * 104 });
  });

  it('every event of the window lands in exactly one bucket', () => {
    const starts = [0, 10, 20];
    const out = bucketize([ev('sent', 0), ev('sent', 9), ev('sent', 10), ev('open', 25)], starts);
    expect(out.map((b) => b.length)).toEqual([2, 1, 1]);
  });
});

describe('retention floor', () => {
  it('days-before-today keeps retentionDays whole days before today; days-including-today one fewer', () => {
    const tz = 'Pacific/Kiritimati';
    const now = zonedToUtc(2026, 11, 25, 9 * 60, tz);
    expect(retentionFloor(now, tz, DEFAULT_CHOICES.analytics)).toBe(zonedToUtc(2026, 11, 25 - 365, 0, tz));
    expect(retentionFloor(now, tz, ALT_CHOICES.analytics)).toBe(zonedToUtc(2026, 11, 25 - 89, 0, tz));
  });
});

describe('rates', () => {
  it('percentages with two decimals, 0 on a zero base, never above 100', () => {
    expect(pct(1, 3)).toBe(33.33);
    expect(pct(2, 3)).toBe(66.67);
    expect(pct(5, 0)).toBe(0);
    expect(pct(7, 5)).toBe(100);
    const n = { sent: 10, delivered: 8, leadsContacted: 5, uniqueOpens: 4, uniqueClicks: 2, replies: 2, bounces: 2, unsubscribed: 1, positiveLeads: 1, conversions: 1 };
    expect(ratesOf(n, DEFAULT_CHOICES.analytics)).toEqual({ open: 50, click: 25, reply: 25, bounce: 20, delivery: 80, unsubscribe: 12.5, positive: 20, conversion: 20 });
    expect(ratesOf(n, ALT_CHOICES.analytics)).toMatchObject({ open: 40, click: 20, reply: 20, unsubscribe: 10, bounce: 20, delivery: 80 });
  });
});

describe('bounce kinds', () => {
  it('from the enhanced status code, overridden by the event data, unknown otherwise', () => {
    expect(kindOf(ev('bounce_hard', 0, { status: '5.1.1' }))).toEqual({ category: 'bad_mailbox', label: 'Mailbox does not exist', side: 'recipient' });
    expect(kindOf(ev('bounce_soft', 0, { status: '4.2.2' })).category).toBe('mailbox_full');
    expect(kindOf(ev('bounce_hard', 0, { status: '5.7.26' }))).toMatchObject({ category: 'policy', side: 'sender' });
    expect(kindOf(ev('bounce_hard', 0, { status: '5.4.9' }))).toMatchObject({ category: 'network', side: 'unknown' });
    expect(kindOf(ev('bounce_hard', 0, {}))).toEqual({ category: 'unknown', label: 'Unknown reason', side: 'unknown' });
    expect(kindOf(ev('bounce_hard', 0, { status: '5.1.1', classification: 'sender', category: 'custom', label: 'Custom' }))).toEqual({ category: 'custom', label: 'Custom', side: 'sender' });
    expect(kindOf(ev('bounce_hard', 0, { classification: 'elsewhere' })).side).toBe('unknown');
  });

  it('the breakdown sums to the bounces, categories per type with percentages', () => {
    const b = bounceBreakdownOf([ev('bounce_hard', 0, { status: '5.1.1' }), ev('bounce_hard', 1, { status: '5.1.1' }), ev('bounce_soft', 2), ev('sent', 3), ev('bounce_soft', 4, { status: '4.1.1' })]);
    expect(b).toMatchObject({ total: 4, hard: 2, soft: 2, recipientBounces: 3, unknownBounces: 1, senderBounces: 0 });
    expect(b.byCategory).toEqual([
      { category: 'bad_mailbox', label: 'Mailbox does not exist', type: 'hard', count: 2, percentage: 50 },
      { category: 'bad_mailbox', label: 'Mailbox does not exist', type: 'soft', count: 1, percentage: 25 },
      { category: 'unknown', label: 'Unknown reason', type: 'soft', count: 1, percentage: 25 },
    ]);
    expect(bounceBreakdownOf([])).toEqual({ total: 0, hard: 0, soft: 0, senderBounces: 0, recipientBounces: 0, unknownBounces: 0, byCategory: [] });
  });
});
