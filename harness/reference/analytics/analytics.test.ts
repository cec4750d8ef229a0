// Analytics over the wire, held to events written straight into the ledger (as the send path
// writes them): totals, rates, breakdowns present only when asked, time-series sums, days cut
// at local midnight in a workspace far from UTC, out-of-office exclusion, retention clamping,
// the overview, and another workspace's events never counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startReference, ALT_CHOICES, type Choices } from '../index.ts';
import { Env, type Workspace } from '../reference.test-helper.ts';
import { localParts, zonedToUtc } from '../domain/time.ts';

const TZ = 'Pacific/Kiritimati'; // UTC+14: local days start at 10:00 UTC of the day before
const HOUR = 3_600_000;

/** A reference with a database file the test can also write (the events ledger). */
async function startWithDb(choices?: Choices) {
  const dir = mkdtempSync(join(tmpdir(), 'analytics-test-'));
  const dbPath = join(dir, 'ref.sqlite');
  const env = new Env(await startReference({ dbPath, log: () => {}, backgroundTimer: false, choices }));
  const db = new Database(dbPath);
  db.pragma('busy_timeout = 5000');
  return { env, db, stop: async () => { db.close(); await env.stop(); rmSync(dir, { recursive: true, force: true }); } };
}

type Ymd = string; // YYYY-MM-DD
const ymdOf = (ms: number, tz: string): Ymd => {
  const p = localParts(ms, tz);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
};
const addDays = (d: Ymd, n: number): Ymd => {
  const [y, m, dd] = d.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, dd + n)).toISOString().slice(0, 10);
};
/** The instant of local wall time `d` + `minutes` in `tz`. */
const at = (d: Ymd, minutes: number, tz = TZ) => {
  const [y, m, dd] = d.split('-').map(Number) as [number, number, number];
  return zonedToUtc(y, m, dd, minutes, tz);
};
const NOON = 12 * 60;

interface Ev { campaignId: string | null; leadId?: string | null; accountId?: string | null; emailId?: string | null; step?: number | null; type: string; at: number; data?: unknown }

class Ledger {
  constructor(private db: Database.Database, private orgId: string) {}
  add(e: Ev) {
    this.db.prepare('INSERT INTO events (id, org_id, campaign_id, lead_id, account_id, email_id, step, type, at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(randomUUID(), this.orgId, e.campaignId, e.leadId ?? null, e.accountId ?? null, e.emailId ?? null, e.step ?? null, e.type, e.at, e.data === undefined ? null : JSON.stringify(e.data));
  }
  /** A sent campaign email (emails row + 'sent' event), as the sending engine records it. */
  sent(campaignId: string, leadId: string, accountId: string, step: number, when: number): string {
    const id = randomUUID();
    this.db.prepare("INSERT INTO emails (id, org_id, account_id, campaign_id, lead_id, doc, created_at, message_id, direction, kind, step, sent_at) VALUES (?, ?, ?, ?, ?, '{}', ?, ?, 'sent', 'campaign', ?, ?)")
      .run(id, this.orgId, accountId, campaignId, leadId, when, `<${id}@test>`, step, when);
    this.add({ campaignId, leadId, accountId, emailId: id, step, type: 'sent', at: when });
    return id;
  }
}

async function clockNow(env: Env): Promise<number> {
  return Date.parse((await env.ctl('GET', '/clock')).body.now);
}

/** Campaign A: 4 leads, 2 steps, 2 mailboxes, a known history (see the expected numbers below). */
async function scenario(env: Env, db: Database.Database, ws: Workspace, today: Ymd) {
  const [m1, m2] = [await env.mailbox(ws), await env.mailbox(ws)];
  db.prepare("UPDATE accounts SET status = 'active' WHERE id = ?").run(m1.id);
  const leads = ['l1@x.test', 'l2@x.test', 'l3@x.test', 'l4@x.test'];
  const created = await env.call(ws.key, 'POST', '/v1/campaigns', {
    body: { name: 'A', settings: {}, leads, accounts: [m1.id, m2.id], sequence: [{ subject: 's1', body: 'b1' }, { subject: 's2', body: 'b2', delayDays: 1 }], launch: true },
  });
  expect([200, 201], created.text).toContain(created.status);
  const a = created.body.campaign;
  const lead = (email: string) => (db.prepare('SELECT id FROM leads WHERE campaign_id = ? AND email = ?').get(a.id, email) as { id: string }).id;
  const [L1, L2, L3, L4] = leads.map(lead) as [string, string, string, string];
  const led = new Ledger(db, ws.orgId);
  const d2 = addDays(today, -2);
  const d1 = addDays(today, -1);
  const e1 = led.sent(a.id, L1, m1.id, 0, at(d2, NOON));
  led.sent(a.id, L2, m1.id, 0, at(d2, NOON + 1));
  led.sent(a.id, L3, m2.id, 0, at(d2, NOON + 2));
  const e4 = led.sent(a.id, L4, m2.id, 0, at(d2, NOON + 3));
  // opens and clicks recorded with the email only: mailbox and step come from the emails row
  led.add({ campaignId: a.id, leadId: L1, emailId: e1, type: 'open', at: at(d1, 60) });
  led.add({ campaignId: a.id, leadId: L1, emailId: e1, type: 'open', at: at(d1, 70) });
  led.add({ campaignId: a.id, leadId: L2, accountId: m1.id, step: 0, type: 'open', at: at(d1, 80) });
  led.add({ campaignId: a.id, leadId: L1, emailId: e1, type: 'click', at: at(d1, 90) });
  led.add({ campaignId: a.id, leadId: L1, emailId: e1, type: 'reply', at: at(d1, 100), data: { conversionValue: 120 } });
  led.add({ campaignId: a.id, leadId: L2, accountId: m1.id, step: 0, type: 'ooo', at: at(d1, 110) });
  led.add({ campaignId: a.id, leadId: L3, accountId: m2.id, step: 0, type: 'bounce_hard', at: at(d1, 120), data: { status: '5.1.1' } });
  led.add({ campaignId: a.id, leadId: L4, emailId: e4, type: 'bounce_soft', at: at(d1, 130), data: { classification: 'sender', category: 'policy', label: 'Blocked' } });
  led.add({ campaignId: a.id, leadId: L2, accountId: m1.id, step: 0, type: 'unsubscribe', at: at(d1, 140) });
  led.add({ campaignId: a.id, leadId: L4, accountId: m2.id, step: 1, type: 'failed', at: at(d1, 150) });
  led.sent(a.id, L1, m1.id, 1, at(today, 1));
  led.sent(a.id, L2, m2.id, 1, at(today, 2));
  // outside the window asked below: never counted
  led.sent(a.id, L1, m1.id, 0, at(addDays(today, -40), NOON));
  for (const [id, status] of [[L1, 'lead_replied_interested'], [L2, 'lead_converted']] as const) {
    await env.leadEvent(id, 'replied');
    const r = await env.call(ws.key, 'PATCH', `/v1/campaigns/${a.id}/leads/${id}`, { body: { status } });
    expect(r.status, r.text).toBe(200);
  }
  return { a, m1, m2, leads: { L1, L2, L3, L4 }, led };
}

/** Totals of the scenario over today-6 .. today (default choices), out-of-office answers counted. */
const EXPECTED = {
  sent: 6, failed: 1, delivered: 4, leadsContacted: 4, opens: { total: 3, uniqueLeads: 2 }, clicks: { total: 1, uniqueLeads: 1 },
  replies: 2, bounces: 2, unsubscribed: 1, positiveLeads: 2, conversions: 1, conversionValue: 120,
  rates: { open: 50, click: 25, reply: 50, bounce: 33.33, delivery: 66.67, unsubscribe: 25, conversion: 25 },
};

describe('analytics from the events ledger (default choices, Pacific/Kiritimati)', () => {
  let t: Awaited<ReturnType<typeof startWithDb>>;
  let ws: Workspace;
  let today: Ymd;
  let s: Awaited<ReturnType<typeof scenario>>;
  const get = (path: string, key = ws.key) => t.env.call(key, 'GET', path);
  const q = (p: Record<string, string>) => `?${new URLSearchParams(p)}`;
  let win: Record<string, string>;

  beforeAll(async () => {
    t = await startWithDb();
    ws = await t.env.workspace({ timezone: TZ });
    today = ymdOf(await clockNow(t.env), TZ);
    s = await scenario(t.env, t.db, ws, today);
    win = { startDate: addDays(today, -6), endDate: today };
  });
  afterAll(() => t?.stop());

  it('totals and rates count the ledger; the out-of-office flag changes replies and the reply rate only', async () => {
    const r = await get(`/v1/campaigns/${s.a.id}/analytics${q(win)}`);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['campaignId', 'period', 'totals']);
    expect(r.body.campaignId).toBe(s.a.id);
    expect(r.body.totals).toEqual(EXPECTED);
    const x = await get(`/v1/campaigns/${s.a.id}/analytics${q({ ...win, excludeOutOfOffice: 'true' })}`);
    expect(x.body.totals).toEqual({ ...EXPECTED, replies: 1, rates: { ...EXPECTED.rates, reply: 25 } });
    const f = await get(`/v1/campaigns/${s.a.id}/analytics${q({ ...win, excludeOutOfOffice: 'false' })}`);
    expect(f.body.totals).toEqual(EXPECTED);
    expect((await get(`/v1/campaigns/${s.a.id}/analytics${q({ excludeOutOfOffice: 'yes' })}`)).status).toBe(400);
  });

  it('breakdowns appear only when requested (repeated or comma-separated) and add up to the totals', async () => {
    const base = `/v1/campaigns/${s.a.id}/analytics${q(win)}`;
    const two = await get(`${base}&breakdown=smtp&breakdown=bounce`);
    expect(Object.keys(two.body).sort()).toEqual(['bounceBreakdown', 'bySmtp', 'campaignId', 'period', 'totals']);
    const all = await get(`${base}&breakdown=smtp,sequence,bounce`);
    expect(Object.keys(all.body).sort()).toEqual(['bounceBreakdown', 'bySequence', 'bySmtp', 'campaignId', 'period', 'totals']);
    expect((await get(`${base}&breakdown=smtp,weekday`)).status).toBe(400);

    const smtp = all.body.bySmtp as any[];
    expect(smtp.map((e) => [e.accountId, e.totals.sent]).sort()).toEqual([[s.m1.id, 3], [s.m2.id, 3]].sort());
    const m1 = smtp.find((e) => e.accountId === s.m1.id);
    expect(m1.email).toBe(s.m1.emailAddress);
    // m1 carried L1 and L2's first step (opened, clicked, replied, out-of-office) and L1's second
    expect(m1.totals).toEqual({
      sent: 3, delivered: 3, opens: { total: 3, uniqueLeads: 2 }, clicks: { total: 1, uniqueLeads: 1 }, replies: 2, bounces: 0,
      positiveLeads: 2, conversions: 1, conversionValue: 120,
      rates: { open: 66.67, click: 33.33, reply: 66.67, bounce: 0, delivery: 100, positive: 100, conversion: 50 },
    });
    for (const k of ['sent', 'delivered', 'replies', 'bounces'] as const) expect(smtp.reduce((n, e) => n + e.totals[k], 0), k).toBe(EXPECTED[k]);

    const seq = all.body.bySequence as any[];
    expect(seq.map((e) => [e.step, e.variant, e.totals.sent, e.totals.delivered])).toEqual([[1, s.a.sequence[0].id, 4, 2], [2, s.a.sequence[1].id, 2, 2]]);
    expect(seq.reduce((n, e) => n + e.totals.sent, 0)).toBe(EXPECTED.sent);

    expect(all.body.bounceBreakdown).toEqual({
      total: 2, hard: 1, soft: 1, senderBounces: 1, recipientBounces: 1, unknownBounces: 0,
      byCategory: [
        { category: 'bad_mailbox', label: 'Mailbox does not exist', type: 'hard', count: 1, percentage: 50 },
        { category: 'policy', label: 'Blocked', type: 'soft', count: 1, percentage: 50 },
      ],
    });
  });

  it('time series: points at local midnights, summing to the totals, interval stated, coarsened only upward', async () => {
    const totals = (await get(`/v1/campaigns/${s.a.id}/analytics${q(win)}`)).body.totals;
    for (const interval of ['day', 'week', 'month']) {
      const r = await get(`/v1/campaigns/${s.a.id}/analytics/timeseries${q({ ...win, interval })}`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.interval).toBe(interval);
      expect(r.body.period).toEqual((await get(`/v1/campaigns/${s.a.id}/analytics${q(win)}`)).body.period);
      const sum = (k: string) => r.body.data.reduce((n: number, p: any) => n + (typeof p[k] === 'number' ? p[k] : p[k].total), 0);
      for (const k of ['sent', 'delivered', 'opens', 'clicks', 'replies', 'bounces', 'unsubscribed']) expect(sum(k), `${interval} ${k}`).toBe(typeof totals[k] === 'number' ? totals[k] : totals[k].total);
    }
    const day = await get(`/v1/campaigns/${s.a.id}/analytics/timeseries${q({ ...win, interval: 'day' })}`);
    expect(day.body.data.map((p: any) => p.timestamp)).toEqual(Array.from({ length: 7 }, (_, i) => new Date(at(addDays(today, i - 6), 0)).toISOString()));
    expect(day.body.data.map((p: any) => p.sent)).toEqual([0, 0, 0, 0, 4, 0, 2]);
    expect(day.body.data[5]).toMatchObject({ bounces: 2, unsubscribed: 1, replies: 2, opens: { total: 3, uniqueLeads: 2 } });
    const ooo = await get(`/v1/campaigns/${s.a.id}/analytics/timeseries${q({ ...win, interval: 'day', excludeOutOfOffice: 'true' })}`);
    expect(ooo.body.data[5].replies).toBe(1);
    // 200 days by day: coarsened to weeks; asked by month: stays months
    const long = { startDate: addDays(today, -199), endDate: today };
    expect((await get(`/v1/campaigns/${s.a.id}/analytics/timeseries${q({ ...long, interval: 'day' })}`)).body.interval).toBe('week');
    expect((await get(`/v1/campaigns/${s.a.id}/analytics/timeseries${q({ ...long, interval: 'month' })}`)).body.interval).toBe('month');
    const longWeeks = await get(`/v1/campaigns/${s.a.id}/analytics/timeseries${q(long)}`);
    expect(longWeeks.body.interval).toBe('week');
    expect(longWeeks.body.data.reduce((n: number, p: any) => n + p.sent, 0)).toBe(7); // the send 40 days ago too
    expect((await get(`/v1/campaigns/${s.a.id}/analytics/timeseries${q({ interval: 'hour' })}`)).status).toBe(400);
  });

  it('windows: local midnights of the workspace, end inclusive, time part ignored, default end today, retention clamping', async () => {
    const c = await t.env.campaign(ws, { name: 'edges' });
    const led = new Ledger(t.db, ws.orgId);
    const d = addDays(today, -3);
    // just before and just after local midnight starting d (UTC 10:00 of the day before)
    led.add({ campaignId: c.id, type: 'sent', leadId: randomUUID(), at: at(d, 0) - 1 });
    led.add({ campaignId: c.id, type: 'sent', leadId: randomUUID(), at: at(d, 0) });
    led.add({ campaignId: c.id, type: 'sent', leadId: randomUUID(), at: at(d, 24 * 60) - 1 });
    led.add({ campaignId: c.id, type: 'sent', leadId: randomUUID(), at: at(d, 24 * 60) });
    const one = await get(`/v1/campaigns/${c.id}/analytics${q({ startDate: d, endDate: d })}`);
    expect(one.body.period).toEqual({ start: new Date(at(d, 0)).toISOString(), end: new Date(at(d, 24 * 60) - 1).toISOString(), clamped: false, retentionDays: 365 });
    expect(one.body.totals.sent).toBe(2);
    // the same dates with times: the time part is ignored
    const timed = await get(`/v1/campaigns/${c.id}/analytics${q({ startDate: `${d}T18:30:00`, endDate: `${d}T05:15:00Z` })}`);
    expect(timed.body.period).toEqual(one.body.period);
    // UTC days would differ: the UTC date of the first event is the day before d
    expect(new Date(at(d, 0)).toISOString().slice(0, 10)).toBe(addDays(d, -1));
    const ts = await get(`/v1/campaigns/${c.id}/analytics/timeseries${q({ startDate: addDays(d, -1), endDate: addDays(d, 1), interval: 'day' })}`);
    expect(ts.body.data.map((p: any) => p.sent)).toEqual([1, 2, 1]);
    // no end: through today; no start: the chosen default of 30 days
    const open = await get(`/v1/campaigns/${c.id}/analytics`);
    expect(open.body.period).toEqual({ start: new Date(at(addDays(today, -29), 0)).toISOString(), end: new Date(at(addDays(today, 1), 0) - 1).toISOString(), clamped: false, retentionDays: 365 });
    expect(open.body.totals.sent).toBe(4);
    // retention: start raised to the local midnight 365 days before today
    const far = await get(`/v1/campaigns/${c.id}/analytics${q({ startDate: addDays(today, -5000), endDate: today })}`);
    expect(far.body.period).toMatchObject({ start: new Date(at(addDays(today, -365), 0)).toISOString(), clamped: true, retentionDays: 365 });
    const edge = await get(`/v1/campaigns/${c.id}/analytics${q({ startDate: addDays(today, -365), endDate: today })}`);
    expect(edge.body.period.clamped).toBe(false);
    const gone = await get(`/v1/campaigns/${c.id}/analytics${q({ startDate: addDays(today, -900), endDate: addDays(today, -400) })}`);
    expect([gone.status, gone.body.error.code]).toEqual([400, 'validation_failed']);
    for (const bad of [{ startDate: 'last tuesday' }, { endDate: '2026-02-30' }, { startDate: today, endDate: addDays(today, -1) }] as Record<string, string>[]) {
      const r = await get(`/v1/campaigns/${c.id}/analytics${q(bad)}`);
      expect([r.status, r.body.error.code], JSON.stringify(bad)).toEqual([400, 'validation_failed']);
    }
  });

  it("overview: the workspace's campaigns only; another workspace's events never show", async () => {
    const other = await t.env.workspace({ timezone: TZ });
    const oc = await t.env.campaign(other, { name: 'theirs' });
    const theirs = new Ledger(t.db, other.orgId);
    for (let i = 0; i < 9; i++) theirs.add({ campaignId: oc.id, leadId: randomUUID(), type: 'sent', at: at(addDays(today, -1), NOON) });
    // an event of this workspace naming the other's campaign, and one of no campaign: not counted
    new Ledger(t.db, ws.orgId).add({ campaignId: oc.id, leadId: randomUUID(), type: 'sent', at: at(addDays(today, -1), NOON) });
    new Ledger(t.db, ws.orgId).add({ campaignId: null, leadId: randomUUID(), type: 'sent', at: at(addDays(today, -1), NOON) });
    // a test email of campaign A and its open: not campaign traffic
    const testId = randomUUID();
    t.db.prepare("INSERT INTO emails (id, org_id, account_id, campaign_id, lead_id, doc, created_at, direction, kind, sent_at) VALUES (?, ?, ?, ?, NULL, '{}', 0, 'sent', 'test', 0)").run(testId, ws.orgId, s.m1.id, s.a.id);
    new Ledger(t.db, ws.orgId).add({ campaignId: s.a.id, emailId: testId, type: 'open', leadId: randomUUID(), at: at(addDays(today, -1), NOON) });
    const b = await t.env.campaign(ws, { name: 'B' });
    new Ledger(t.db, ws.orgId).sent(b.id, randomUUID(), s.m2.id, 0, at(addDays(today, -1), NOON));

    const r = await get(`/v1/campaigns/analytics/overview${q(win)}`);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['activeCampaigns', 'period', 'sendingAccounts', 'topCampaigns', 'totals']);
    // campaign A's six sends, the edges campaign's four (around today-3), B's one
    expect(r.body.totals.sent).toBe(11);
    expect(r.body).toMatchObject({ activeCampaigns: 1, sendingAccounts: 1 });
    expect(r.body.topCampaigns[0]).toEqual({ campaignId: s.a.id, name: 'A', sent: 6, openRate: 50 });
    expect((await get(`/v1/campaigns/${s.a.id}/analytics${q(win)}`)).body.totals).toEqual(EXPECTED);
    expect(r.body.topCampaigns.map((x: any) => x.name)).toEqual(['A', 'edges', 'B']);
    const o = await get(`/v1/campaigns/analytics/overview${q(win)}`, other.key);
    expect(o.body).toMatchObject({ activeCampaigns: 0, sendingAccounts: 0, totals: { sent: 9 } });
    expect(o.body.topCampaigns).toEqual([{ campaignId: oc.id, name: 'theirs', sent: 9, openRate: 0 }]);
    expect((await get(`/v1/campaigns/${oc.id}/analytics`)).status).toBe(404);
    expect((await get(`/v1/campaigns/${oc.id}/analytics/timeseries`)).status).toBe(404);
  });
});

describe('analytics by the ALT choices', () => {
  let t: Awaited<ReturnType<typeof startWithDb>>;
  beforeAll(async () => {
    t = await startWithDb(ALT_CHOICES);
  });
  afterAll(() => t?.stop());

  it('window names, retention, default window, rate base and what is delivered follow the choices', async () => {
    const ws = await t.env.workspace({ timezone: TZ });
    const today = ymdOf(await clockNow(t.env), TZ);
    const s = await scenario(t.env, t.db, ws, today);
    const get = (p: Record<string, string>) => t.env.call(ws.key, 'GET', `/v1/campaigns/${s.a.id}/analytics?${new URLSearchParams(p)}`);
    const r = await get({ from: addDays(today, -6), to: today, exclude_ooo: 'true' });
    expect(r.status, r.text).toBe(200);
    // hard bounces only make a send undelivered; rates over sent emails; interested or converted are positive
    expect(r.body.totals).toEqual({
      ...EXPECTED, delivered: 5, replies: 1,
      rates: { open: 33.33, click: 16.67, reply: 16.67, bounce: 33.33, delivery: 83.33, unsubscribe: 16.67, conversion: 25 },
    });
    expect((await get({ startDate: today })).status).toBe(400); // the default names are unknown here (refused)
    const open = await get({});
    expect(open.body.period.start).toBe(new Date(at(addDays(today, -6), 0)).toISOString()); // 7 days
    const far = await get({ from: addDays(today, -200) });
    expect(far.body.period).toMatchObject({ start: new Date(at(addDays(today, -89), 0)).toISOString(), clamped: true, retentionDays: 90 });
  });
});
