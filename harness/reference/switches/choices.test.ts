// The reference's choice sets: ALT differs from DEFAULT in every item, random sets are
// deterministic, every set's profile is a valid kit profile, DEFAULT's is reference.json's; and
// over the wire, the reference really answers by the ALT choices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Profile } from '../../ground/profile-schema.ts';
import { ALT_CHOICES, DEFAULT_CHOICES, parseChoices, profileFor, randomChoices, startReference, type Choices } from '../index.ts';
import { Env, mailboxInput } from '../reference.test-helper.ts';
import { bodyOf, chosenRoutes, queryOf } from '../http/chosen.ts';
import { ROUTES } from '../http/routes.ts';

const reference = JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/profiles/reference.json', import.meta.url)), 'utf8'));
const target = { baseUrl: 'http://127.0.0.1:1', control: { baseUrl: 'http://127.0.0.1:2', token: 't' } };
const ITEMS = Object.keys(DEFAULT_CHOICES).filter((k) => k !== 'name') as (keyof Choices)[];
/** Items whose every entry differs between DEFAULT and ALT (the others differ as a whole). */
const PER_ENTRY: (keyof Choices)[] = ['listParams', 'analyticsParams', 'analytics', 'mutateFields', 'mailboxDefaults', 'warmupDefaults', 'warmupBounds', 'batchErrorFields', 'campaignDefaults'];

describe('choice sets', () => {
  it('ALT differs from DEFAULT in every item (and in every entry of the named ones)', () => {
    for (const k of ITEMS) expect(ALT_CHOICES[k], k).not.toEqual(DEFAULT_CHOICES[k]);
    for (const k of PER_ENTRY) {
      const d = DEFAULT_CHOICES[k] as Record<string, unknown>;
      const a = ALT_CHOICES[k] as Record<string, unknown>;
      for (const e of Object.keys(d)) expect(a[e], `${k}.${e}`).not.toEqual(d[e]);
    }
    // every referenced operation whose path the spec does not name moves
    const named = ['accounts.list', 'accounts.get', 'accounts.resume', 'accounts.oauthStatus', 'usage.all', 'subscription.get'];
    for (const [id, op] of Object.entries(ALT_CHOICES.operations)) if (!named.includes(id)) expect(op.path, id).not.toBe(DEFAULT_CHOICES.operations[id as keyof Choices['operations']].path);
  });

  it('random sets are deterministic per seed, draw every item, and vary across seeds', () => {
    expect(randomChoices(7)).toEqual(randomChoices(7));
    expect(parseChoices('random:7')).toEqual(randomChoices(7));
    const sets = Array.from({ length: 30 }, (_, i) => randomChoices(i));
    for (const k of ITEMS) {
      for (const s of sets) expect(s[k], `${s.name} ${k}`).toBeDefined();
      const seen = new Set(sets.map((s) => JSON.stringify(s[k])));
      expect(seen.size, `${k} takes several values over 30 seeds`).toBeGreaterThan(1);
    }
  });

  it('parseChoices: default, alt, random:SEED; a clear error otherwise', () => {
    expect(parseChoices('default')).toBe(DEFAULT_CHOICES);
    expect(parseChoices('alt')).toBe(ALT_CHOICES);
    expect(parseChoices('serialized-drain')).toEqual({ ...DEFAULT_CHOICES, name: 'serialized-drain', drain: 'serialized' });
    for (const bad of ['', 'ALT', 'random', 'random:', 'random:-1', 'random:x', 'other']) expect(() => parseChoices(bad), bad).toThrow(/give default, alt, serialized-drain or random:SEED/);
  });

  it('a random set may require a sequence on create: one step at least, and a PATCH may still empty it', async () => {
    const seed = Array.from({ length: 60 }, (_, i) => i).find((i) => randomChoices(i).campaignRequiredFields.includes('sequence'));
    expect(seed).toBeDefined();
    const e = new Env(await startReference({ choices: { ...DEFAULT_CHOICES, campaignRequiredFields: randomChoices(seed!).campaignRequiredFields }, log: () => {}, backgroundTimer: false }));
    try {
      const w = await e.workspace();
      for (const body of [{ name: 'x' }, { name: 'x', sequence: [] }]) expect((await e.call(w.key, 'POST', '/v1/campaigns', { body })).body.error.details).toEqual(['sequence: is required (at least one step)']);
      const c = await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'x', sequence: [{ subject: 's', body: 'b' }] } });
      expect(c.status).toBe(201);
      expect((await e.call(w.key, 'PATCH', `/v1/campaigns/${c.body.campaign.id}`, { body: { sequence: [] } })).body.sequence).toEqual([]);
    } finally {
      await e.stop();
    }
  });

  it('profileFor gives a valid kit profile for default, alt and 40 random sets', () => {
    for (const c of [DEFAULT_CHOICES, ALT_CHOICES, ...Array.from({ length: 40 }, (_, i) => randomChoices(i * 7919))]) {
      const p = profileFor(c, target);
      const parsed = Profile.safeParse(p);
      expect(parsed.success, `${c.name}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`).toBe(true);
      expect(p).toMatchObject({ embedded: false, baseUrl: target.baseUrl, control: target.control });
    }
    expect(profileFor(DEFAULT_CHOICES, { baseUrl: 'http://x.test' })).not.toHaveProperty('control');
  });

  it("DEFAULT's profile declares what fixtures/profiles/reference.json declares", () => {
    const p = profileFor(DEFAULT_CHOICES, target);
    expect(p.names).toEqual(reference.names);
    expect(p.operations).toEqual(reference.operations);
    expect(p.declarations).toEqual(reference.declarations);
    expect(p.features).toEqual(reference.features);
    expect(p.rateLimit).toEqual(reference.rateLimit);
  });
});

describe('the reference answers by ALT', () => {
  let env: Env;
  let ws: Awaited<ReturnType<Env['workspace']>>;
  let key: string;
  const call = (method: string, path: string, body?: unknown) => env.call(key, method, path, { body });
  beforeAll(async () => {
    env = new Env(await startReference({ choices: ALT_CHOICES, log: () => {}, backgroundTimer: false }));
    ws = await env.workspace();
    key = ws.key;
  });
  afterAll(() => env?.stop());

  it('list names, default page size, absent last cursor, unknown query parameters refused', async () => {
    for (let i = 0; i < 21; i++) expect((await call('POST', '/v1/campaigns', { name: `c${i}`, settings: {} })).status).toBe(200);
    const first = await call('GET', '/v1/campaigns');
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta.hasMore).toBe(true);
    const last = await call('GET', `/v1/campaigns?page_token=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect(last.body.data).toHaveLength(1);
    expect(last.body.meta).toEqual({ hasMore: false });
    expect((await call('GET', '/v1/campaigns?per_page=5&state=draft')).body.data).toHaveLength(5);
    const unknown = await call('GET', '/v1/campaigns?limit=5');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual(['limit: unknown query parameter']);
  });

  it('a form-encoded body is parsed as fields (so its missing settings are named, not its form)', async () => {
    const form = await env.call(key, 'POST', '/v1/campaigns', { raw: 'name=formed', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([form.status, form.body.error.details]).toEqual([400, ['settings: is required']]);
  });

  it('campaign settings required, sendingDays 1 = Monday ... 7 = Sunday', async () => {
    expect((await call('POST', '/v1/campaigns', { name: 'x' })).body.error.details).toEqual(['settings: is required']);
    const c = await call('POST', '/v1/campaigns', { name: 'days', settings: {}, schedule: { sendingDays: [7, 1] } });
    expect(c.body.campaign.schedule.sendingDays).toEqual([1, 7]);
    expect((await call('POST', '/v1/campaigns', { name: 'x', settings: {}, schedule: { sendingDays: [0] } })).status).toBe(400);
    const d = await call('POST', '/v1/campaigns', { name: 'default days', settings: {} });
    expect(d.body.campaign.schedule.sendingDays).toEqual([1, 2, 3, 4, 5, 6, 7]); // every day, Sunday = 7
    expect(d.body.campaign.settings).toEqual(ALT_CHOICES.campaignDefaults.settings);
  });

  it('business-rule code, 409 for other state conflicts, errors replayed under an Idempotency-Key', async () => {
    const c = (await call('POST', '/v1/campaigns', { name: 'r', settings: {} })).body.campaign;
    const start = await call('POST', `/v1/campaigns/${c.id}/start`);
    expect([start.status, start.body.error.code]).toEqual([400, 'business_rule_violation']);
    const resume = await call('POST', `/v1/campaigns/${c.id}/resume`);
    expect([resume.status, resume.body.error.code]).toEqual([409, 'conflict']);
    const a = await env.call(key, 'POST', `/v1/campaigns/${c.id}/start`, { idem: 'k-err' });
    const b = await env.call(key, 'POST', `/v1/campaigns/${c.id}/start`, { idem: 'k-err' });
    expect(b.status).toBe(400);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });

  it('repeated start and pause are state conflicts (409); pause answers at the chosen path and shape', async () => {
    const c = (await call('POST', '/v1/campaigns', { name: 'rep', settings: {}, leads: ['rep@x.test'], sequence: [{ subject: 's', body: 'b' }] })).body.campaign;
    expect((await call('POST', `/v1/campaigns/${c.id}/start`)).status).toBe(200);
    expect((await call('POST', `/v1/campaigns/${c.id}/start`)).status).toBe(409);
    const p = await call('POST', `/v1/campaigns/${c.id}/hold`);
    expect(p.body).toEqual({ campaign: { id: c.id, status: 'paused' }, success: true });
    expect((await call('POST', `/v1/campaigns/${c.id}/hold`)).status).toBe(409);
    const init = await call('POST', '/v1/accounts/oauth/google/init');
    const poll = await call('GET', `/v1/accounts/oauth/google/status?handle=${init.body.state}`);
    expect(poll.body).toEqual({ flow: { state: 'pending' } });
  });

  it('api keys at /v1/keys with { label, permissions } -> { apiKey: { id, secret, scopes } }; subset refusal 400', async () => {
    const r = await call('POST', '/v1/keys', { label: 'k', permissions: ['campaigns:read'] });
    expect(r.status).toBe(200);
    expect(r.body.apiKey).toMatchObject({ label: 'k', scopes: ['campaigns:read'] });
    expect(typeof r.body.apiKey.secret).toBe('string');
    expect((await call('POST', '/v1/api-keys', { name: 'k', scopes: ['campaigns:read'] })).status).toBe(404);
    expect((await call('GET', '/v1/keys')).body.data.find((k: { id: string }) => k.id === r.body.apiKey.id)).toMatchObject({ label: 'k' });
    const narrow = r.body.apiKey.secret as string;
    expect((await env.call(narrow, 'GET', '/v1/keys')).status).toBe(403);
    const manager = await env.dashboardKey(ws, ['apikeys:manage', 'campaigns:read']);
    const beyond = await env.call(manager.key, 'POST', '/v1/keys', { body: { label: 'w', permissions: ['campaigns:write'] } });
    expect([beyond.status, beyond.body.error.code]).toEqual([400, 'validation_failed']);
  });

  it('mailbox defaults, warmup defaults and bounds, batch error fields', async () => {
    const r = await call('POST', '/v1/accounts', { accounts: [mailboxInput(), mailboxInput({ smtpPort: 0 })] });
    expect(r.status).toBe(201); // stated by the spec whatever the create status choice
    const m = r.body.accounts[0];
    expect(m).toMatchObject(ALT_CHOICES.mailboxDefaults);
    expect(m.warmup).toMatchObject({ enabled: true, ...ALT_CHOICES.warmupDefaults });
    expect(Object.keys(r.body.errors[0])).toEqual(expect.arrayContaining(['position', 'email', 'reason', 'detail']));
    expect((await call('PATCH', `/v1/accounts/${m.id}`, { warmup: { maxPerDay: 81 } })).status).toBe(400);
    expect((await call('PATCH', `/v1/accounts/${m.id}`, { warmup: { maxPerDay: 80 } })).status).toBe(200);
    expect((await call('GET', `/v1/accounts/${m.id}`)).body.account).toMatchObject({ id: m.id, emailAddress: m.emailAddress });
  });

  it('leads: path, field and result names, new status, search parameter and rows, mutate names, unknown limitType', async () => {
    const c = (await call('POST', '/v1/campaigns', { name: 'l', settings: {} })).body.campaign;
    const r = await call('POST', `/v1/campaigns/${c.id}/contacts`, { contacts: [{ email: 'ab1@x.test' }, { email: 'ab2@x.test' }] });
    expect(r.status).toBe(200);
    expect(r.body.summary).toMatchObject({ submitted: 2, created: 2 });
    expect(r.body.contacts.map((l: { status: string }) => l.status)).toEqual(['new', 'new']);
    const s = await call('GET', '/v1/leads/search?q=ab');
    expect(s.body.data).toHaveLength(2); // per-lead rows
    const m = await call('POST', `/v1/campaigns/${c.id}/leads/mutate`, { action: 'set_status', newStatus: 'lead_lost', ids: [r.body.contacts[0].id] });
    expect(m.body).toMatchObject({ operation: 'set_status', affected: 1 });
    // An empty tags filter is a condition no lead matches: taken, nothing deleted.
    const none = await call('POST', `/v1/campaigns/${c.id}/leads/mutate`, { action: 'delete', filter: { tags: [] } });
    expect([none.status, none.body.affected]).toEqual([200, 0]);
    expect((await call('GET', `/v1/campaigns/${c.id}/contacts`)).body.data).toHaveLength(2);
    const u = await call('GET', '/v1/usage/bogus');
    expect([u.status, u.body.error.code]).toEqual([400, 'validation_failed']);
    expect(Object.keys((await call('GET', '/v1/usage')).body)).toEqual(['usage']);
  });
});

describe('chosen.ts: the request side of a choice set', () => {
  it('renames query parameters per route, keeps the mailbox tag filter `tags`, ignores or refuses unknown ones', () => {
    const q = (s: string) => new URLSearchParams(s);
    expect([...queryOf('campaigns.list', q('per_page=5&tag_ids=a&state=draft&x=1'), { ...ALT_CHOICES, unknownQueryParams: 'ignore' })]).toEqual([['limit', '5'], ['tags', 'a'], ['status', 'draft']]);
    expect([...queryOf('accounts.list', q('tags=a'), ALT_CHOICES)]).toEqual([['tags', 'a']]);
    expect(() => queryOf('accounts.list', q('tag_ids=a&limit=1'), ALT_CHOICES)).toThrow(expect.objectContaining({ status: 400, details: ['tag_ids: unknown query parameter', 'limit: unknown query parameter'] }));
    expect([...queryOf('leads.search', q('q=ab&email=cd'), { ...ALT_CHOICES, unknownQueryParams: 'ignore' })]).toEqual([['email', 'ab']]);
    expect([...queryOf('workspace.get', q('a=1'), DEFAULT_CHOICES)]).toEqual([]);
  });

  it('renames body fields of referenced operations and of mutate; a handler name the target does not use is not read', () => {
    expect(bodyOf('apikeys.create', { label: 'k', permissions: ['x'], name: 'ignored' }, ALT_CHOICES)).toEqual({ name: 'k', scopes: ['x'] });
    expect(bodyOf('leads.mutate', { action: 'delete', all: true }, ALT_CHOICES)).toEqual({ operation: 'delete', all: true });
    expect(bodyOf('apikeys.create', { name: 'k', scopes: [] }, DEFAULT_CHOICES)).toEqual({ name: 'k', scopes: [] });
    expect(bodyOf('apikeys.create', [1], ALT_CHOICES)).toEqual([1]);
  });

  it('moves the referenced routes to the chosen method and path', () => {
    const routes = chosenRoutes(ROUTES, ALT_CHOICES);
    expect(routes.find((r) => r.op === 'emails.markRead')).toMatchObject({ method: 'PATCH', path: '/v1/emails/{id}/read-state' });
    expect(routes.find((r) => r.op === 'apikeys.revoke')).toMatchObject({ method: 'DELETE', path: '/v1/api-keys/{id}' }); // stated by the spec
  });
});
