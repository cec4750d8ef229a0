// The minimal-but-real resource handlers: campaigns, leads, mailboxes (and the 404 stubs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Env, mailboxInput, envelopeProblems, type Workspace } from './reference.test-helper.ts';

let env: Env;
let ws: Workspace;
beforeAll(async () => {
  env = await Env.start();
  ws = await env.workspace();
});
afterAll(() => env.stop());
const ABSENT = '5b0b6f57-6d1e-4a55-9a3c-2f5b8e0c1d2e';

describe('campaigns (2.5, 3.1, 4.3)', () => {
  it('create: validation, defaults, leads summary, launch', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 5 }, { name: 'x', schedule: { sendingDays: [7] } }, { name: 'x', sequence: [{ subject: 1 }] }, { name: 'x', accounts: [ABSENT] }, { name: 'x', leads: 'a@b.c' }, { name: 'x', launch: 'yes' }]) {
      const r = await env.call(ws.key, 'POST', '/v1/campaigns', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('validation_failed');
      expect(r.body.error.details.length).toBeGreaterThan(0);
    }
    const r = await env.call(ws.key, 'POST', '/v1/campaigns', { body: { name: 'Spring', leads: ['a@x.test', 'A@x.test', 'nope', 'b@x.test'], launch: true } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ launched: false, leads: { submitted: 4, created: 2, duplicates: 1, invalid: 1 } });
    expect(r.body.launchError).toMatch(/sequence/);
    expect(r.body.campaign).toMatchObject({ name: 'Spring', status: 'draft', metrics: { leadsCount: 2, sent: 0 }, tags: [], sequence: [], accounts: [] });
    const ok = await env.call(ws.key, 'POST', '/v1/campaigns', { body: { name: 'Go', leads: ['a@x.test'], sequence: [{ subject: 'Hi {{firstName}}', body: '<p>x</p>', delayDays: 0 }], launch: true } });
    expect(ok.body).toMatchObject({ launched: true, campaign: { status: 'active' } });
    expect(ok.body).not.toHaveProperty('launchError');
  });
  it('list: status filter, list item shape', async () => {
    const w = await env.workspace();
    await env.campaign(w, { name: 'd' });
    await env.campaign(w, { name: 'a', leads: ['x@y.test'], sequence: [{ subject: 's', body: 'b' }], launch: true });
    const r = await env.call(w.key, 'GET', '/v1/campaigns?status=active');
    expect(r.body.data).toHaveLength(1);
    expect(Object.keys(r.body.data[0]).sort()).toEqual(['createdAt', 'id', 'leadsCount', 'name', 'status', 'tags']);
    expect(r.body.data[0]).toMatchObject({ name: 'a', leadsCount: 1 });
    expect((await env.call(w.key, 'GET', '/v1/campaigns?status=running')).status).toBe(400);
  });
  it('patch: partial sections, replace sequence and accounts', async () => {
    const w = await env.workspace();
    const m = await env.mailbox(w);
    const c = await env.campaign(w, { name: 'p', schedule: { timezone: 'Asia/Tokyo', dailyLimit: 10 }, sequence: [{ subject: 'a', body: 'b' }] });
    const r = await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { schedule: { dailyLimit: 20 }, accounts: [m.id], settings: { trackOpens: false } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: c.id, name: 'p', schedule: { timezone: 'Asia/Tokyo', dailyLimit: 20 }, settings: { trackOpens: false, trackClicks: true }, accounts: [m.id] });
    expect(r.body.sequence).toHaveLength(1);
    const r2 = await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { sequence: [], name: 'q' } });
    expect(r2.body).toMatchObject({ name: 'q', sequence: [], accounts: [m.id] });
    expect((await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { name: '' } })).status).toBe(400);
    expect((await env.call(w.key, 'PATCH', `/v1/campaigns/${ABSENT}`, { body: { name: 'z' } })).status).toBe(404);
  });
  it('lifecycle: start needs leads and a sequence, pause, resume needs a mailbox, status view', async () => {
    const w = await env.workspace();
    const c = await env.campaign(w, { name: 'l' });
    const s1 = await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/start`);
    expect(s1.status).toBe(400);
    expect(s1.body.error).toMatchObject({ type: 'invalid_request_error', code: 'failed_precondition' });
    await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/leads`, { body: { leads: [{ email: 'l@x.test' }] } });
    expect((await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/start`)).body.error.message).toMatch(/sequence/);
    await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { sequence: [{ subject: 's', body: 'b' }] } });
    const s2 = await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/start`);
    expect(s2.body).toEqual({ id: c.id, status: 'active', success: true });
    expect((await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/resume`)).status).toBe(400);
    expect((await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/pause`)).body).toEqual({ id: c.id, status: 'paused', success: true });
    const noMailbox = await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/resume`);
    expect(noMailbox.status).toBe(400);
    expect(noMailbox.body.error).toMatchObject({ code: 'failed_precondition', message: 'The workspace has no mailbox.' });
    await env.mailbox(w); // inactive mailbox: does not block the resume
    expect((await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/resume`)).body).toEqual({ id: c.id, status: 'active', success: true });
    const st = await env.call(w.key, 'GET', `/v1/campaigns/${c.id}/status`);
    expect(Object.keys(st.body).sort()).toEqual(['id', 'isWithinSchedule', 'metrics', 'nextScheduleOpensAt', 'status']);
    expect(st.body.metrics.leadsCount).toBe(1);
    if (st.body.isWithinSchedule) expect(st.body.nextScheduleOpensAt).toBeNull();
    else expect(Date.parse(st.body.nextScheduleOpensAt)).toBeGreaterThan(Date.parse((await env.ctl('GET', '/clock')).body.now));
  });
  it('status view: window on the clock (Mon-Fri 09:00-17:00 UTC)', async () => {
    const env2 = await Env.start();
    try {
      const w = await env2.workspace();
      const c = await env2.campaign(w, { name: 's', leads: ['a@b.test'], sequence: [{ subject: 's', body: 'b' }], launch: true, schedule: { timezone: 'UTC', sendingDays: [1, 2, 3, 4, 5], sendingMinutesStart: 540, sendingMinutesEnd: 1020 } });
      // move the clock to the next Saturday 12:00 UTC
      const now = new Date((await env2.ctl('GET', '/clock')).body.now);
      const sat = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + ((6 - now.getUTCDay() + 7) % 7 || 7), 12));
      await env2.ctl('POST', '/clock/advance', { seconds: (sat.getTime() - now.getTime()) / 1000 });
      const st = await env2.call(w.key, 'GET', `/v1/campaigns/${c.id}/status`);
      expect(st.body.isWithinSchedule).toBe(false);
      const monday = new Date(sat.getTime() + 2 * 86400_000 - 3 * 3600_000); // Monday 09:00
      expect(st.body.nextScheduleOpensAt).toBe(monday.toISOString());
      // The same window in Asia/Tokyo (UTC+9, no DST): Saturday 12:00 UTC is Saturday 21:00 there;
      // it opens Monday 09:00 Tokyo = Monday 00:00 UTC; Monday 01:00 UTC (10:00 Tokyo) is inside.
      const tokyo = await env2.campaign(w, { name: 't', leads: ['a@b.test'], sequence: [{ subject: 's', body: 'b' }], launch: true, schedule: { timezone: 'Asia/Tokyo', sendingDays: [1, 2, 3, 4, 5], sendingMinutesStart: 540, sendingMinutesEnd: 1020 } });
      const sunday = await env2.campaign(w, { name: 'u', schedule: { timezone: 'Asia/Tokyo', sendingDays: [0], sendingMinutesStart: 0, sendingMinutesEnd: 1440 } });
      const view = async (id: string) => (await env2.call(w.key, 'GET', `/v1/campaigns/${id}/status`)).body;
      expect(await view(tokyo.id)).toMatchObject({ isWithinSchedule: false, nextScheduleOpensAt: new Date(sat.getTime() + 36 * 3600_000).toISOString() });
      expect(await view(sunday.id)).toMatchObject({ isWithinSchedule: false, nextScheduleOpensAt: null }); // draft: not active
      await env2.ctl('POST', '/clock/advance', { seconds: 4 * 3600 }); // Saturday 16:00 UTC = Sunday 01:00 Tokyo
      expect((await view(sunday.id)).isWithinSchedule).toBe(true); // 0 = Sunday, in the schedule's timezone
      await env2.ctl('POST', '/clock/advance', { seconds: 33 * 3600 }); // Monday 01:00 UTC = Monday 10:00 Tokyo
      expect(await view(tokyo.id)).toMatchObject({ isWithinSchedule: true, nextScheduleOpensAt: null });
      expect((await view(c.id)).isWithinSchedule).toBe(false); // 01:00 UTC is outside 09:00-17:00 UTC
      expect((await view(sunday.id)).isWithinSchedule).toBe(false);
    } finally {
      await env2.stop();
    }
  });
  it('test email: validation and 404s (sending comes later)', async () => {
    const c = await env.campaign(ws, { name: 't', sequence: [{ subject: 's', body: 'b' }] });
    const bad = await env.call(ws.key, 'POST', `/v1/campaigns/${c.id}/test-email`, { body: { variantId: c.sequence[0].id, accountId: ABSENT, recipient: 'r@x.test', personalization: 'lead' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContain('leadId: is required when personalization is lead');
    const nf = await env.call(ws.key, 'POST', `/v1/campaigns/${c.id}/test-email`, { body: { variantId: c.sequence[0].id, accountId: ABSENT, recipient: 'r@x.test', personalization: 'dummy' } });
    expect(nf.status).toBe(404);
  });
});

describe('leads (2.6, 3.3, 4.4)', () => {
  it('create, list, patch rules, delete, search, mutate', async () => {
    const w = await env.workspace();
    const c = await env.campaign(w, { name: 'Leads' });
    const cr = await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/leads`, { body: { leads: [{ email: 'Ann@Corp.test', firstName: 'Ann' }, { email: 'bob@corp.test' }, { email: 'ann@corp.test' }, { email: 'x' }] } });
    expect(cr.status).toBe(201);
    expect(cr.body).toMatchObject({ submitted: 4, created: 2, duplicates: 1, invalid: 1 });
    const [ann, bob] = cr.body.leads;
    expect(ann).toMatchObject({ email: 'Ann@Corp.test', firstName: 'Ann', status: 'not_contacted' });
    expect(ann).not.toHaveProperty('lastContactedAt'); // no value yet: omitted, not null
    const l = await env.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`);
    expect(l.body.data.map((x: { id: string }) => x.id)).toEqual([bob.id, ann.id]);
    // status rules
    const replied = await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${ann.id}`, { body: { status: 'lead_replied_interested' } });
    expect(replied.status).toBe(400);
    expect(replied.body.error.code).toBe('failed_precondition');
    expect((await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${ann.id}`, { body: { status: 'email_sent' } })).body.error.code).toBe('validation_failed');
    const lost = await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${ann.id}`, { body: { status: 'lead_lost', jobTitle: 'CTO', tags: ['t1'] } });
    expect(lost.body).toMatchObject({ status: 'lead_lost', jobTitle: 'CTO', tags: ['t1'] });
    expect((await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${bob.id}`, { body: { email: 'ann@corp.test' } })).status).toBe(409);
    expect((await env.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${bob.id}`, { body: { email: 'robert@corp.test' } })).body.email).toBe('robert@corp.test');
    // search
    const c2 = await env.campaign(w, { name: 'Other', leads: ['zed@CORP.test'] });
    const s = await env.call(w.key, 'GET', '/v1/leads/search?email=corp.TEST');
    expect(s.body.data).toHaveLength(2); // one row per campaign
    expect(s.body.data[1]).toEqual({ id: bob.id, email: 'robert@corp.test', campaignId: c.id, campaignName: 'Leads', firstName: '', lastName: '' });
    expect(s.body.data[0]).toMatchObject({ email: 'zed@CORP.test', campaignId: c2.id });
    expect((await env.call(w.key, 'GET', '/v1/leads/search')).status).toBe(400);
    // mutate
    const mt = await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/leads/mutate`, { body: { operation: 'add_tags', ids: [ann.id, bob.id, ABSENT], tags: ['x'] } });
    expect(mt.body).toMatchObject({ operation: 'add_tags', affected: 2, failed: 1 });
    expect(mt.body.errors[0]).toMatch(/1 lead/);
    for (const body of [{ operation: 'delete', filter: {} }, { operation: 'delete', all: true, ids: [ann.id] }, { operation: 'set_status', ids: [ann.id] }, { operation: 'nuke', ids: [ann.id] }]) {
      expect((await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/leads/mutate`, { body })).status, JSON.stringify(body)).toBe(400);
    }
    const del = await env.call(w.key, 'POST', `/v1/campaigns/${c.id}/leads/mutate`, { body: { operation: 'delete', filter: { search: 'robert' } } });
    expect(del.body).toMatchObject({ operation: 'delete', affected: 1, failed: 0 });
    // delete one: contacted -> soft-deleted with a retention window; never contacted -> gone (0)
    await env.leadEvent(ann.id, 'contacted');
    const d = await env.call(w.key, 'DELETE', `/v1/campaigns/${c.id}/leads/${ann.id}`);
    expect(d.body).toEqual({ success: true, retentionDays: 30 });
    expect((await env.call(w.key, 'DELETE', `/v1/campaigns/${c.id}/leads/${ann.id}`)).status).toBe(404);
    expect((await env.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`)).body.data).toEqual([]);
  });
});

describe('lead rules after contact and reply (3.3), through the control events extension', () => {
  it('replied-only statuses after a reply, email frozen after contact, mutate per lead, soft delete purged after retention', async () => {
    const e2 = await Env.start();
    try {
      const w = await e2.workspace();
      const c = await e2.campaign(w, { name: 'r', leads: ['r1@corp.test', 'r2@corp.test', 'r3@corp.test'] });
      const [l3, l2, l1] = (await e2.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`)).body.data;
      await e2.leadEvent(l1.id, 'replied');
      await e2.leadEvent(l2.id, 'contacted');
      const patch = (id: string, body: unknown) => e2.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${id}`, { body });
      const r1 = await patch(l1.id, { status: 'lead_replied_interested' });
      expect(r1.body).toMatchObject({ status: 'lead_replied_interested', metrics: { replied: 1 } });
      expect(typeof r1.body.lastRepliedAt).toBe('string');
      expect((await patch(l1.id, { status: 'lead_converted' })).body.status).toBe('lead_converted');
      expect((await patch(l2.id, { status: 'lead_converted' })).status).toBe(400);
      expect((await patch(l2.id, { status: 'blacklisted' })).body.status).toBe('blacklisted');
      const frozen = await patch(l2.id, { email: 'new@corp.test' });
      expect(frozen.status).toBe(400);
      expect(frozen.body.error.code).toBe('failed_precondition');
      expect((await patch(l3.id, { email: 'new@corp.test' })).body.email).toBe('new@corp.test');
      const m = await e2.call(w.key, 'POST', `/v1/campaigns/${c.id}/leads/mutate`, { body: { operation: 'set_status', status: 'lead_replied_meeting_request', ids: [l1.id, l2.id, l3.id] } });
      expect(m.body).toMatchObject({ operation: 'set_status', affected: 1, failed: 2 });
      expect(m.body.errors.join(' ')).toMatch(/2 lead/);
      // delete: contacted -> soft (30 days), never contacted -> at once (0)
      expect((await e2.call(w.key, 'DELETE', `/v1/campaigns/${c.id}/leads/${l2.id}`)).body).toEqual({ success: true, retentionDays: 30 });
      expect((await e2.call(w.key, 'DELETE', `/v1/campaigns/${c.id}/leads/${l3.id}`)).body).toEqual({ success: true, retentionDays: 0 });
      expect((await e2.call(w.key, 'GET', '/v1/leads/search?email=r2@corp')).body.data).toEqual([]);
      await e2.ctl('POST', '/clock/advance', { seconds: 30 * 86400 + 1 });
      expect((await e2.drain()).body.processed).toBeGreaterThanOrEqual(1); // the soft-deleted lead is purged
    } finally {
      await e2.stop();
    }
  });
});

describe('mailboxes (2.1-2.4, 3.2, 4.2)', () => {
  it('batch create: 1..50, per-element errors, passwords never returned, status inactive', async () => {
    const w = await env.workspace();
    for (const body of [{}, { accounts: [] }, { accounts: Array.from({ length: 51 }, () => mailboxInput()) }, { accounts: 'x' }]) {
      const r = await env.call(w.key, 'POST', '/v1/accounts', { body });
      expect(r.status).toBe(400);
      expect(envelopeProblems(r)).toEqual([]);
    }
    const good = mailboxInput({ signature: '<p onclick="x()">Hi</p><script>alert(1)</script>', warmup: { enabled: false } });
    const dup = mailboxInput({ emailAddress: good.emailAddress });
    const badPort = mailboxInput({ smtpPort: 70000, maxEmailsPerDay: 0, automationLanguage: 'xx' });
    const r = await env.call(w.key, 'POST', '/v1/accounts', { body: { accounts: [good, dup, badPort, 'junk'] } });
    expect(r.status).toBe(201);
    expect(r.body.summary).toEqual({ submitted: 4, created: 1, failed: 3 });
    const m = r.body.accounts[0];
    expect(m).toMatchObject({ emailAddress: good.emailAddress, status: 'inactive', provider: 'custom', displayName: 'Ada Lovelace', signature: '<p>Hi</p>', statusMessage: null, imap: { host: 'imap.example.test', port: 993 } });
    expect(m.warmup).toMatchObject({ enabled: false });
    expect(m.verification.overallStatus).toBe('pending');
    expect(JSON.stringify(r.body)).not.toContain('s3cret');
    expect(r.body.errors.map((e: { index: number; code: string }) => [e.index, e.code])).toEqual([[1, 'conflict'], [2, 'validation_failed'], [3, 'validation_failed']]);
    expect(r.body.errors[1].details).toEqual(expect.arrayContaining(['accounts[2].smtpPort: must be from 1 to 65535', 'accounts[2].maxEmailsPerDay: must be from 1 to 200']));
    const other = await env.workspace(); // "already connected elsewhere"
    const r2 = await env.call(other.key, 'POST', '/v1/accounts', { body: { accounts: [dup] } });
    expect(r2.body.summary).toEqual({ submitted: 1, created: 0, failed: 1 });
  });
  it('get, list, patch, pause, resume, verification, delete', async () => {
    const w = await env.workspace();
    const m = await env.mailbox(w);
    expect((await env.call(w.key, 'GET', `/v1/accounts/${m.id}`)).body).toEqual(m);
    expect((await env.call(w.key, 'GET', '/v1/accounts')).body.data).toEqual([m]);
    const p = await env.call(w.key, 'PATCH', `/v1/accounts/${m.id}`, { body: { maxEmailsPerDay: 25, smtpPassword: 'new-secret' } });
    expect(p.body).toMatchObject({ maxEmailsPerDay: 25, status: 'checking' });
    expect(JSON.stringify(p.body)).not.toContain('new-secret');
    const e = await env.call(w.key, 'PATCH', `/v1/accounts/${m.id}`, { body: { emailAddress: 'other@x.test' } });
    expect(e.status).toBe(400);
    const pause = await env.call(w.key, 'POST', `/v1/accounts/${m.id}/pause`);
    expect(pause.status).toBe(400);
    expect(pause.body.error.code).toBe('failed_precondition');
    expect((await env.call(w.key, 'POST', `/v1/accounts/${m.id}/resume`)).status).toBe(400); // checking
    await env.drain(); // smtp.example.test does not resolve: failed
    expect((await env.call(w.key, 'GET', `/v1/accounts/${m.id}`)).body.status).toBe('failed');
    expect((await env.call(w.key, 'POST', `/v1/accounts/${m.id}/resume`)).body.status).toBe('checking');
    const v = await env.call(w.key, 'GET', `/v1/accounts/${m.id}/verification`);
    expect(v.body).toMatchObject({ overallStatus: 'pending', smtp: { status: 'not_checked', error: null }, imap: { status: 'not_checked', error: null } });
    expect(v.body.lastVerifiedAt).toBeUndefined();
    expect((await env.call(w.key, 'DELETE', `/v1/accounts/${m.id}`)).body).toEqual({ id: m.id, deleted: true });
    expect((await env.call(w.key, 'GET', `/v1/accounts/${m.id}`)).status).toBe(404);
  });
  it('oauth: init, consent through the control API, status, revoke', async () => {
    const w = await env.workspace();
    const init = await env.call(w.key, 'POST', '/v1/accounts/oauth/google/init');
    expect(init.body).toMatchObject({ expiresInSeconds: 600 });
    expect(init.body.authorizationUrl).toContain(init.body.state);
    const st = (q: string) => env.call(w.key, 'GET', `/v1/accounts/oauth/google/status?state=${q}`);
    expect((await st(init.body.state)).body).toEqual({ status: 'pending' });
    const consent = await env.ctl('POST', '/oauth/google/consent', { state: init.body.state, emailAddress: `o${Date.now()}@gmail.test` });
    expect((await st(init.body.state)).body).toEqual({ status: 'completed', accountId: consent.body.accountId });
    const mb = (await env.call(w.key, 'GET', `/v1/accounts/${consent.body.accountId}`)).body;
    expect(mb).toMatchObject({ provider: 'google', status: 'active', statusMessage: null });
    expect((await env.call(w.key, 'PATCH', `/v1/accounts/${mb.id}`, { body: { smtpPassword: 'x' } })).status).toBe(400);
    expect((await env.call(w.key, 'PATCH', `/v1/accounts/${mb.id}`, { body: { displayName: 'Olga' } })).body.displayName).toBe('Olga');
    // pause, then resume: checking and re-verification of the grant, then active
    expect((await env.call(w.key, 'POST', `/v1/accounts/${mb.id}/pause`)).body.status).toBe('inactive');
    expect((await env.call(w.key, 'POST', `/v1/accounts/${mb.id}/resume`)).body).toMatchObject({ status: 'checking', verification: { overallStatus: 'pending' } });
    await env.drain();
    expect((await env.call(w.key, 'GET', `/v1/accounts/${mb.id}`)).body).toMatchObject({ status: 'active', verification: { overallStatus: 'active' } });
    const rv = await env.ctl('POST', `/accounts/${consent.body.accountId}/revoke-oauth`);
    expect(rv.body).toEqual({ id: consent.body.accountId, status: 'revoked' });
    expect((await env.call(w.key, 'GET', `/v1/accounts/${consent.body.accountId}`)).body).toMatchObject({ provider: 'google', status: 'revoked' });
    expect((await env.call(w.key, 'POST', `/v1/accounts/${consent.body.accountId}/resume`)).status).toBe(400); // must be reconnected
    // microsoft, and a state that expired before consent
    const ms = await env.call(w.key, 'POST', '/v1/accounts/oauth/microsoft/init');
    expect(new URL(ms.body.authorizationUrl).host).toBe('login.microsoftonline.com');
    expect(ms.body.state).not.toBe(init.body.state);
    const env3 = await Env.start();
    try {
      const w3 = await env3.workspace();
      const i3 = (await env3.call(w3.key, 'POST', '/v1/accounts/oauth/microsoft/init')).body;
      await env3.ctl('POST', '/clock/advance', { seconds: i3.expiresInSeconds });
      expect((await env3.call(w3.key, 'GET', `/v1/accounts/oauth/microsoft/status?state=${i3.state}`)).body).toEqual({ status: 'expired' });
      expect((await env3.ctl('POST', '/oauth/microsoft/consent', { state: i3.state, emailAddress: 'late@outlook.test' })).status).toBe(400);
    } finally {
      await env3.stop();
    }
    expect((await env.call(w.key, 'POST', '/v1/accounts/oauth/yahoo/init')).status).toBe(400);
    expect((await st('unknown')).status).toBe(404);
  });
});

describe('emails and analytics', () => {
  it('emails: absent ids are 404', async () => {
    for (const [m, p] of [['GET', `/v1/emails/${ABSENT}`], ['DELETE', `/v1/emails/${ABSENT}`], ['POST', `/v1/emails/${ABSENT}/read`]] as const) {
      const r = await env.call(ws.key, m, p);
      expect(r.status).toBe(404);
      expect(envelopeProblems(r)).toEqual([]);
    }
  });
  it('analytics: shapes, breakdowns on request, validation', async () => {
    const c = await env.campaign(ws, { name: 'an' });
    const a = await env.call(ws.key, 'GET', `/v1/campaigns/${c.id}/analytics?breakdown=smtp&breakdown=bounce`);
    expect(a.status).toBe(200);
    expect(a.body).toHaveProperty('bySmtp');
    expect(a.body).toHaveProperty('bounceBreakdown');
    expect(a.body).not.toHaveProperty('bySequence');
    expect(a.body.period).toMatchObject({ clamped: false, retentionDays: 365 });
    expect((await env.call(ws.key, 'GET', `/v1/campaigns/${c.id}/analytics?breakdown=foo`)).status).toBe(400);
    expect((await env.call(ws.key, 'GET', `/v1/campaigns/${c.id}/analytics?startDate=2020-13-01`)).status).toBe(400);
    const ts = await env.call(ws.key, 'GET', `/v1/campaigns/${c.id}/analytics/timeseries?startDate=2026-01-01&endDate=2026-01-03&interval=day`);
    expect(ts.body.data).toHaveLength(3);
    expect(ts.body.interval).toBe('day');
    const ov = await env.call(ws.key, 'GET', '/v1/campaigns/analytics/overview');
    expect(ov.body).toMatchObject({ activeCampaigns: expect.any(Number), sendingAccounts: 0, topCampaigns: [] });
    expect((await env.call(ws.key, 'GET', `/v1/campaigns/${ABSENT}/analytics`)).status).toBe(404);
  });
});
