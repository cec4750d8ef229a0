// Properties over random ledgers and windows (fast-check): what the API counts equals a plain
// recount of the events between the window's local midnights, the time-series points add up to
// the totals, rates stay within 0..100, and the out-of-office flag moves replies only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startReference } from '../index.ts';
import { Env } from '../reference.test-helper.ts';
import { localParts, zonedToUtc } from '../domain/time.ts';

const ZONES = ['Pacific/Kiritimati', 'America/St_Johns', 'UTC', 'Asia/Kathmandu', 'Pacific/Pago_Pago'];
const TYPES = ['sent', 'failed', 'open', 'click', 'reply', 'ooo', 'bounce_hard', 'bounce_soft', 'unsubscribe'] as const;
const ADDITIVE = ['sent', 'delivered', 'opens', 'clicks', 'replies', 'bounces', 'unsubscribed'] as const;

interface Ev { type: (typeof TYPES)[number]; day: number; minute: number; lead: number; step: number }

const today = (now: number, tz: string) => {
  const p = localParts(now, tz);
  return { y: p.year, m: p.month, d: p.day };
};

describe('analytics properties over random ledgers', () => {
  let env: Env;
  let db: Database.Database;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'analytics-prop-'));
    const dbPath = join(dir, 'ref.sqlite');
    env = new Env(await startReference({ dbPath, log: () => {}, backgroundTimer: false }));
    db = new Database(dbPath);
    db.pragma('busy_timeout = 5000');
  });
  afterAll(async () => {
    db?.close();
    await env?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('totals equal a recount between local midnights; series add up; rates are percentages', async () => {
    const event = fc.record({
      type: fc.constantFrom(...TYPES), day: fc.integer({ min: -40, max: 0 }), minute: fc.integer({ min: 0, max: 1439 }),
      lead: fc.integer({ min: 0, max: 4 }), step: fc.integer({ min: 0, max: 1 }),
    });
    const input = fc.record({
      tz: fc.constantFrom(...ZONES),
      events: fc.array(event, { maxLength: 30 }),
      startDay: fc.integer({ min: -45, max: 0 }),
      days: fc.integer({ min: 1, max: 45 }),
      excludeOutOfOffice: fc.boolean(),
      interval: fc.constantFrom('day', 'week', 'month'),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ tz, events, startDay, days, excludeOutOfOffice, interval }) => {
        const ws = await env.workspace({ timezone: tz });
        const c = await env.campaign(ws, { name: 'p' });
        const now = Date.parse((await env.ctl('GET', '/clock')).body.now);
        const t = today(now, tz);
        const at = (day: number, minute: number) => zonedToUtc(t.y, t.m, t.d + day, minute, tz);
        const leads = Array.from({ length: 5 }, () => randomUUID());
        const insert = db.prepare('INSERT INTO events (id, org_id, campaign_id, lead_id, account_id, email_id, step, type, at, data) VALUES (?, ?, ?, ?, NULL, NULL, ?, ?, ?, NULL)');
        for (const e of events) insert.run(randomUUID(), ws.orgId, c.id, leads[e.lead], e.step, e.type, at(e.day, e.minute));

        const endDay = Math.min(0, startDay + days - 1);
        const ymd = (day: number) => new Date(Date.UTC(t.y, t.m - 1, t.d + day)).toISOString().slice(0, 10);
        const qs = new URLSearchParams({ startDate: ymd(startDay), endDate: ymd(endDay), excludeOutOfOffice: String(excludeOutOfOffice) });
        const a = await env.call(ws.key, 'GET', `/v1/campaigns/${c.id}/analytics?${qs}`);
        expect(a.status, a.text).toBe(200);
        const [from, to] = [at(startDay, 0), at(endDay + 1, 0)];
        expect(a.body.period).toEqual({ start: new Date(from).toISOString(), end: new Date(to - 1).toISOString(), clamped: false, retentionDays: 365 });
        const inWindow = events.filter((e) => at(e.day, e.minute) >= from && at(e.day, e.minute) < to);
        const n = (...types: string[]) => inWindow.filter((e) => types.includes(e.type)).length;
        const totals = a.body.totals;
        expect(totals.sent).toBe(n('sent'));
        expect(totals.failed).toBe(n('failed'));
        expect(totals.bounces).toBe(n('bounce_hard', 'bounce_soft'));
        expect(totals.replies).toBe(excludeOutOfOffice ? n('reply') : n('reply', 'ooo'));
        expect(totals.opens.total).toBe(n('open'));
        expect(totals.opens.uniqueLeads).toBe(new Set(inWindow.filter((e) => e.type === 'open').map((e) => e.lead)).size);
        expect(totals.delivered).toBeLessThanOrEqual(totals.sent);
        for (const [k, v] of Object.entries(totals.rates)) {
          expect(v, k).toBeGreaterThanOrEqual(0);
          expect(v, k).toBeLessThanOrEqual(100);
        }

        const other = await env.call(ws.key, 'GET', `/v1/campaigns/${c.id}/analytics?${new URLSearchParams({ startDate: ymd(startDay), endDate: ymd(endDay), excludeOutOfOffice: String(!excludeOutOfOffice) })}`);
        const { replies: _r, rates: { reply: _rr, ...restRates }, ...rest } = other.body.totals;
        const { replies: _r2, rates: { reply: _rr2, ...restRates2 }, ...rest2 } = totals;
        expect({ ...rest, restRates }).toEqual({ ...rest2, restRates: restRates2 });

        const ts = await env.call(ws.key, 'GET', `/v1/campaigns/${c.id}/analytics/timeseries?${qs}&interval=${interval}`);
        expect(ts.status, ts.text).toBe(200);
        expect(ts.body.interval).toBe(interval); // at most 46 days: never coarsened
        expect(ts.body.data[0].timestamp).toBe(new Date(from).toISOString());
        for (const k of ADDITIVE) {
          const sum = ts.body.data.reduce((s: number, p: any) => s + (typeof p[k] === 'number' ? p[k] : p[k].total), 0);
          expect(sum, k).toBe(typeof totals[k] === 'number' ? totals[k] : totals[k].total);
        }
      }),
      { numRuns: 30 },
    );
  });
});
