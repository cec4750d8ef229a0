import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as S from './index.ts';

// Valid and invalid examples for every schema of the spec model. Each invalid example breaks
// exactly one stated rule, so a schema that lost the rule makes its test fail.

const U1 = '3f6c2a1e-8b4d-4c2a-9e1f-0a1b2c3d4e5f';
const U2 = '11111111-2222-7333-8444-555555555555'; // v7-shaped: any version is a uuid
const U3 = 'AAAAAAAA-BBBB-1CCC-ADDD-EEEEEEEEEEEE';
const TS = '2026-03-01T10:15:30Z';
const TS_MS = '2026-03-01T10:15:30.123Z';
const TS_OFF = '2026-03-01T10:15:30+02:00';

const ok = (s: z.ZodType, v: unknown) => {
  const r = s.safeParse(v);
  if (!r.success) throw new Error(`expected valid, got: ${JSON.stringify(r.error.issues, null, 1)}`);
};
const bad = (s: z.ZodType, v: unknown) => {
  const r = s.safeParse(v);
  expect(r.success, `expected invalid: ${JSON.stringify(v)}`).toBe(false);
};

/** Deep clone with one change at a dotted path (value `undefined` deletes the key). */
function withField<T>(obj: T, path: string, value: unknown): T {
  const copy = structuredClone(obj) as Record<string, unknown>;
  const keys = path.split('.');
  let cur: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) cur = cur[k] as Record<string, unknown>;
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
  return copy as T;
}

/** Asserts each (path, value) change turns the valid example invalid. */
function rejects(s: z.ZodType, valid: unknown, cases: [string, unknown][]) {
  for (const [path, value] of cases) {
    const r = s.safeParse(withField(valid, path, value));
    expect(r.success, `${path} = ${JSON.stringify(value)} should be rejected`).toBe(false);
  }
}
/** Asserts each (path, value) change keeps the example valid. */
function accepts(s: z.ZodType, valid: unknown, cases: [string, unknown][]) {
  for (const [path, value] of cases) {
    const r = s.safeParse(withField(valid, path, value));
    expect(r.success, `${path} = ${JSON.stringify(value)} should be accepted: ${r.success ? '' : JSON.stringify(r.error.issues)}`).toBe(true);
  }
}

// ------------------------------------------------------------------------------------------ examples

const tag = { id: U1, name: 'VIP', color: '#ff8800' };

const mailbox = {
  id: U1,
  emailAddress: 'anna@example.com',
  firstName: 'Anna',
  lastName: 'Berg',
  displayName: 'Anna Berg',
  provider: 'custom',
  status: 'inactive',
  maxEmailsPerDay: 50,
  sendingGapMinutes: 10,
  campaignSlowRamp: false,
  replyToAddress: 'replies@example.com',
  signature: '<p>Anna</p>',
  bcc: 'archive@example.com',
  automationLanguage: 'en',
  warmup: {
    enabled: true, strategy: 'standard', maxPerDay: 20, replyRatePercentage: 30, rampupEnabled: true, dailyRampup: 2, randomizer: 20,
    skipWeekends: false, timezone: 'Europe/Oslo', trackingEnabled: false, phase: 'warming_up', startedAt: TS_MS, poolAccess: 'free',
  },
  tracking: { domainId: U2 },
  statusMessage: null,
  tags: [tag],
  healthScore: 87.5,
  smtp: { host: 'smtp.example.com', port: 587, username: 'anna' },
  imap: { host: 'imap.example.com', port: 993, username: 'anna' },
  verification: { overallStatus: 'pending', smtp: 'not_checked', imap: 'not_checked', dns: { mx: 'not_checked', spf: 'not_checked', dkim: 'not_checked', dmarc: 'not_checked' } },
  createdAt: TS,
  updatedAt: TS_MS,
};

const statusMessage = { code: 'EAUTH', command: 'AUTH PLAIN', responseCode: 535, response: '535 5.7.8 bad credentials', message: 'Authentication failed', occurredAt: TS };

const accountInput = {
  emailAddress: 'anna@example.com',
  firstName: 'Anna',
  lastName: 'Berg',
  smtpHost: 'smtp.example.com',
  smtpPort: 587,
  smtpUsername: 'anna',
  smtpPassword: 'secret',
  imapHost: 'imap.example.com',
  imapPort: 993,
  imapUsername: 'anna',
  imapPassword: 'secret',
};

const metrics = { leadsCount: 3, sent: 10, opens: 4, clicks: 1, replies: 1 };
const campaign = {
  id: U1,
  name: 'Q2 outreach',
  status: 'draft',
  schedule: { timezone: 'Europe/Paris', sendingDays: [1, 2, 3, 4, 5], sendingMinutesStart: 540, sendingMinutesEnd: 1020, dailyLimit: 100, startDate: TS, endDate: TS_OFF },
  settings: { trackOpens: true, trackClicks: false, sendAsTextOnly: false, stopOnReply: true },
  metrics,
  tags: [tag],
  createdAt: TS,
  updatedAt: TS,
  sequence: [{ subject: 'Hi {{firstName}}', body: '<p>Hello {{companyName}}</p>', delayDays: 0, delayHours: 0 }],
  accounts: [U2],
};

const lead = {
  id: U1,
  email: 'bob@acme.test',
  firstName: 'Bob',
  lastName: 'Stone',
  companyName: 'Acme',
  jobTitle: 'CTO',
  website: 'https://acme.test',
  linkedinProfile: 'https://linkedin.com/in/bob',
  location: 'Berlin',
  tags: ['hot'],
  customFields: { plan: 'pro' },
  status: 'not_contacted',
  verification: { status: 'valid', subStatus: 'email_ok' },
  metrics: { sent: 0, opened: 0, clicked: 0, replied: 0 },
  provider: 'google',
  sequenceProgress: { totalSteps: 2, sentCount: 0, plannedCount: 2, failedCount: 0, nextPlannedAt: TS },
  createdAt: TS,
};

const email = {
  id: U1,
  threadId: 'opaque-thread/123==',
  messageId: '<abc.123@mail.example.com>',
  mailbox: { id: U2, email: 'anna@example.com' },
  from: { email: 'bob@acme.test', name: 'Bob' },
  to: ['anna@example.com'],
  cc: [],
  bcc: [],
  subject: 'Re: Hi',
  snippet: 'Sounds good',
  isUnread: true,
  type: 'received',
  campaignId: U3,
  leadId: U1,
  hasAttachments: false,
  receivedAt: TS,
  sentAt: TS,
  body: { html: '<p>Sounds good</p>', text: null },
};

const leadSearch = {
  id: U1,
  query: 'dentists in Lyon',
  status: 'crawling',
  searchMode: 'companies',
  maxResults: 100,
  discoveryFinished: true,
  progress: { companiesFound: 40, companiesProcessed: 12, emailsFound: 9 },
  createdAt: TS,
  updatedAt: TS,
  errorMessage: null,
  completedAt: null,
};

const period = { start: TS, end: TS, clamped: false, retentionDays: 365 };
const oc = { total: 4, uniqueLeads: 3 };
const totals = {
  sent: 10, failed: 0, delivered: 9, leadsContacted: 5, opens: oc, clicks: oc, replies: 1, bounces: 1, unsubscribed: 0,
  positiveLeads: 1, conversions: 0, conversionValue: 0,
  rates: { open: 40, click: 10, reply: 10, bounce: 10, delivery: 90, unsubscribe: 0, conversion: 0 },
};
const bTotals = {
  sent: 10, delivered: 9, opens: 4, clicks: 1, replies: 1, bounces: 1, positiveLeads: 1, conversions: 0, conversionValue: 0,
  rates: { open: 40, click: 10, reply: 10, bounce: 10, delivery: 90, positive: 10, conversion: 0 },
};
const bounceBreakdown = {
  total: 1, hard: 1, soft: 0, senderBounces: 0, recipientBounces: 1, unknownBounces: 0,
  byCategory: [{ category: 'bad_mailbox', label: 'Bad mailbox', type: 'hard', count: 1, percentage: 100 }],
};
const point = { timestamp: TS, sent: 1, delivered: 1, opens: oc, clicks: oc, replies: 0, bounces: 0, unsubscribed: 0 };

// ------------------------------------------------------------------------------------------ tests

describe('primitives', () => {
  it('uuid accepts any version and case, rejects other strings', () => {
    for (const v of [U1, U2, U3]) ok(S.uuid, v);
    for (const v of ['', 'abc', `${U1}x`, U1.replace(/-/g, ''), 42]) bad(S.uuid, v);
  });
  it('isoTimestamp accepts Z, offsets, with or without fractions', () => {
    for (const v of [TS, TS_MS, TS_OFF, '2024-02-29T23:59:59.999999-05:30']) ok(S.isoTimestamp, v);
  });
  it('isoTimestamp rejects dates, impossible dates, missing zone, garbage', () => {
    for (const v of ['2026-03-01', '2026-03-01T10:15:30', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01 10:15:30Z', 'yesterday', 1735689600000, '2026-03-01T10:15:30+25:00']) bad(S.isoTimestamp, v);
  });
  it('ianaTimezone accepts zone names and rejects offsets and unknown names', () => {
    for (const v of ['Europe/Paris', 'UTC', 'America/Argentina/Buenos_Aires']) ok(S.ianaTimezone, v);
    for (const v of ['+02:00', 'Mars/Olympus', '', 'CEST+1 nonsense']) bad(S.ianaTimezone, v);
  });
  it('hexColor and messageId', () => {
    for (const v of ['#fff', '#FF8800', '#ff880080']) ok(S.hexColor, v);
    for (const v of ['ff8800', 'red', '#ggg', '#12345']) bad(S.hexColor, v);
    ok(S.messageId, '<a.b@c>');
    for (const v of ['a.b@c', '<ab>', '<a b@c>']) bad(S.messageId, v);
  });
});

describe('mailbox (2.1)', () => {
  it('accepts a full mailbox, extra fields, and the stated nulls', () => {
    ok(S.mailbox, mailbox);
    ok(S.mailbox, { ...mailbox, somethingNew: 1 });
    accepts(S.mailbox, mailbox, [
      ['statusMessage', statusMessage],
      ['imap', null],
      ['replyToAddress', undefined],
      ['tracking', undefined],
      ['warmup.phase', undefined],
      ['warmup.startedAt', undefined],
    ]);
  });
  it('a mailbox reports every writable warmup field (2.3 lists them; absent is no conformant shape)', () => {
    bad(S.mailbox, { ...mailbox, warmup: { enabled: false } });
    for (const f of S.WARMUP_WRITABLE_FIELDS) {
      const { [f]: _gone, ...rest } = mailbox.warmup as Record<string, unknown>;
      bad(S.mailbox, { ...mailbox, warmup: rest });
    }
  });
  it('rejects wrong types, unknown enum values, nulls not stated, out-of-range, passwords', () => {
    rejects(S.mailbox, mailbox, [
      ['id', 'not-a-uuid'],
      ['emailAddress', undefined],
      ['provider', 'yahoo'],
      ['status', 'paused'],
      ['maxEmailsPerDay', '50'],
      ['campaignSlowRamp', 'no'],
      ['automationLanguage', 'xx'],
      ['statusMessage', undefined],
      ['statusMessage', { ...statusMessage, responseCode: '535' }],
      ['statusMessage', { ...statusMessage, occurredAt: 'now' }],
      ['tags', [{ ...tag, color: 'orange' }]],
      ['healthScore', 101],
      ['healthScore', -1],
      ['smtp.port', 0],
      ['smtp.password', 'secret'],
      ['imap.password', 'secret'],
      ['smtpPassword', 'secret'],
      ['imap', undefined],
      ['verification.dns', undefined],
      ['verification.overallStatus', 1],
      ['warmup.enabled', undefined],
      ['warmup.timezone', '+02:00'],
      ['warmup.startedAt', 'soon'],
      ['tracking.domainId', 'x'],
      ['createdAt', '2026-03-01'],
      ['statusMessage', { ...statusMessage, code: null }],
    ]);
  });
  it('absent values may be null at MUST level; unstatedNulls reports them for the SHOULD reading', () => {
    const withNulls = { ...mailbox, replyToAddress: null, tracking: { domainId: null }, warmup: { ...mailbox.warmup, startedAt: null } };
    ok(S.mailbox, withNulls);
    expect(S.unstatedNulls('Mailbox', withNulls).sort()).toEqual(['replyToAddress', 'tracking.domainId', 'warmup.startedAt']);
    expect(S.unstatedNulls('Mailbox', { ...mailbox, imap: null, statusMessage: null })).toEqual([]);
    expect(S.nullPaths({ a: [{ b: null }, { b: null }], c: { d: null }, e: 0 })).toEqual(['a[].b', 'c.d']);
    expect(S.unstatedNulls('AccountsCreateResponse', { summary: {}, accounts: [{ ...mailbox, imap: null }], errors: [] })).toEqual([]);
    expect(S.unstatedNulls('Email', { ...email, threadId: null, isUnread: null, body: { html: null, text: 'x' }, leadId: null })).toEqual(['leadId']);
  });
  it('automationLanguage holds exactly the 30 listed ISO 639-1 codes', () => {
    expect(S.AUTOMATION_LANGUAGES).toHaveLength(30);
    expect(new Set(S.AUTOMATION_LANGUAGES).size).toBe(30);
  });
});

describe('mailbox create input (2.2) and its bounds', () => {
  it('accepts the required fields alone, and every optional field', () => {
    ok(S.accountCreateInput, accountInput);
    ok(S.accountCreateInput, {
      ...accountInput, displayName: 'A', imapAllowInvalidCert: true, maxEmailsPerDay: 200, sendingGapMinutes: 300, campaignSlowRamp: true,
      signature: '<b>x</b>', bcc: 'b@example.com', replyToAddress: 'r@example.com', automationLanguage: 'vi', tracking: { domainId: U1 },
      warmup: { enabled: false, strategy: 'standard', timezone: 'UTC' },
    });
  });
  it('requires every field marked required', () => {
    const required = Object.entries(S.ACCOUNT_INPUT_BOUNDS).filter(([, b]) => b.required).map(([k]) => k);
    expect(required).toEqual(['emailAddress', 'firstName', 'lastName', 'smtpHost', 'smtpPort', 'smtpUsername', 'smtpPassword', 'imapHost', 'imapPort', 'imapUsername', 'imapPassword']);
    for (const f of required) bad(S.accountCreateInput, withField(accountInput, f, undefined));
  });
  it('holds every bound at max / max+1 and min / min-1', () => {
    const local = (n: number) => `${'a'.repeat(n - '@example.com'.length)}@example.com`;
    for (const [field, b] of Object.entries(S.ACCOUNT_INPUT_BOUNDS) as [string, S.FieldBound][]) {
      if (b.type === 'string' && b.maxLength !== undefined) {
        const make = (n: number) => (b.format === 'email' ? local(n) : 'x'.repeat(n));
        ok(S.accountCreateInput, { ...accountInput, [field]: make(b.maxLength) });
        bad(S.accountCreateInput, { ...accountInput, [field]: make(b.maxLength + 1) });
      }
      if (b.type === 'number') {
        ok(S.accountCreateInput, { ...accountInput, [field]: b.min });
        ok(S.accountCreateInput, { ...accountInput, [field]: b.max });
        bad(S.accountCreateInput, { ...accountInput, [field]: b.min! - 1 });
        bad(S.accountCreateInput, { ...accountInput, [field]: b.max! + 1 });
        bad(S.accountCreateInput, { ...accountInput, [field]: String(b.min) });
      }
    }
  });
  it('the input schema and the bounds table name the same fields with the same required-ness', () => {
    const shape = S.accountCreateInput.shape as Record<string, z.ZodType>;
    expect(Object.keys(shape).sort()).toEqual(Object.keys(S.ACCOUNT_INPUT_BOUNDS).sort());
    for (const [f, b] of Object.entries(S.ACCOUNT_INPUT_BOUNDS)) {
      expect(shape[f]!.safeParse(undefined).success, `${f} optional?`).toBe(!b.required);
    }
    for (const [f, b] of Object.entries(S.ACCOUNT_INPUT_BOUNDS) as [string, S.FieldBound][]) {
      if (b.type === 'number') {
        expect(S.fieldSchema(b).safeParse(b.max).success, f).toBe(true);
        expect(S.fieldSchema(b).safeParse(b.max! + 1).success, f).toBe(false);
      }
    }
  });
  it('states the exact numbers of 2.2', () => {
    const B = S.ACCOUNT_INPUT_BOUNDS;
    expect([B.emailAddress.maxLength, B.firstName.maxLength, B.lastName.maxLength, B.displayName.maxLength]).toEqual([254, 128, 128, 128]);
    expect([B.smtpHost.maxLength, B.smtpUsername.maxLength, B.imapHost.maxLength, B.imapUsername.maxLength]).toEqual([255, 255, 255, 255]);
    expect([B.smtpPassword.maxLength, B.imapPassword.maxLength, B.bcc.maxLength, B.replyToAddress.maxLength]).toEqual([1024, 1024, 254, 254]);
    expect([B.smtpPort.min, B.smtpPort.max, B.imapPort.min, B.imapPort.max]).toEqual([1, 65535, 1, 65535]);
    expect([B.maxEmailsPerDay.min, B.maxEmailsPerDay.max, B.sendingGapMinutes.min, B.sendingGapMinutes.max]).toEqual([1, 200, 1, 300]);
    expect(Object.keys(B)).toHaveLength(22);
  });
  it('rejects wrong enum, wrong types, bad tracking', () => {
    rejects(S.accountCreateInput, { ...accountInput, automationLanguage: 'en' }, [
      ['automationLanguage', 'EN'],
      ['imapAllowInvalidCert', 'yes'],
      ['smtpPort', 587.5],
      ['emailAddress', 'not-an-address'],
    ]);
    bad(S.accountCreateInput, { ...accountInput, tracking: { domainId: 'x' } });
    bad(S.accountCreateInput, { ...accountInput, warmup: { enabled: 'yes' } });
  });
  it('batch body holds 1 to 50 elements', () => {
    ok(S.accountsCreateBody, { accounts: [accountInput] });
    ok(S.accountsCreateBody, { accounts: Array(50).fill(accountInput) });
    bad(S.accountsCreateBody, { accounts: [] });
    bad(S.accountsCreateBody, { accounts: Array(51).fill(accountInput) });
    bad(S.accountsCreateBody, {});
  });
  it('PATCH body accepts the listed fields and drops emailAddress', () => {
    ok(S.accountPatchBody, {});
    ok(S.accountPatchBody, { smtpPassword: 'n', warmup: { enabled: false } });
    bad(S.accountPatchBody, { maxEmailsPerDay: 0 });
    expect(S.ACCOUNT_PATCH_FIELDS).not.toContain('emailAddress');
    expect(S.ACCOUNT_PATCH_FIELDS).toHaveLength(21);
    expect(Object.keys(S.accountPatchBody.shape)).not.toContain('emailAddress');
    expect(Object.keys(S.accountPatchBody.shape).sort()).toEqual([...S.ACCOUNT_PATCH_FIELDS].sort());
    expect(S.ACCOUNT_CREDENTIAL_FIELDS).toEqual(['smtpHost', 'smtpPort', 'smtpUsername', 'smtpPassword', 'imapHost', 'imapPort', 'imapUsername', 'imapPassword', 'imapAllowInvalidCert']);
  });
});

describe('warmup (2.3) and verification (2.4)', () => {
  it('warmup input takes writable fields with their types', () => {
    ok(S.warmupInput, { enabled: true, strategy: 'anything', maxPerDay: 999, replyRatePercentage: 30, rampupEnabled: true, dailyRampup: 2, randomizer: 1, skipWeekends: false, timezone: 'Asia/Tokyo', trackingEnabled: true });
    bad(S.warmupInput, { enabled: 'true' });
    bad(S.warmupInput, { timezone: 'Nowhere/City' });
    bad(S.warmupInput, { maxPerDay: '10' });
    expect([...S.WARMUP_WRITABLE_FIELDS, ...S.WARMUP_READONLY_FIELDS]).toHaveLength(13);
  });
  it('verification endpoint answer', () => {
    const v = { overallStatus: 'pending', smtp: { status: 'active', error: null }, imap: { status: 'not_checked', error: null }, dns: { mx: 'not_checked' }, lastVerifiedAt: TS };
    ok(S.verificationResult, v);
    ok(S.verificationResult, { ...v, lastVerifiedAt: null });
    rejects(S.verificationResult, v, [['smtp', 'active'], ['smtp.status', undefined], ['dns', 'ok'], ['lastVerifiedAt', 'never'], ['overallStatus', undefined]]);
  });
});

describe('mailbox endpoint answers (4.2)', () => {
  it('batch create answer', () => {
    const a = { summary: { submitted: 2, created: 1, failed: 1 }, accounts: [mailbox], errors: [{ anything: 'goes' }] };
    ok(S.accountsCreateResponse, a);
    rejects(S.accountsCreateResponse, a, [['summary.failed', undefined], ['summary.created', -1], ['errors', undefined], ['accounts', [{ ...mailbox, status: 'nope' }]]]);
  });
  it('delete answer, oauth init answer, success answer', () => {
    ok(S.deletedResponse, { id: U1, deleted: true });
    bad(S.deletedResponse, { id: U1, deleted: false });
    bad(S.deletedResponse, { id: 'x', deleted: true });
    const o = { authorizationUrl: 'https://accounts.google.com/o/oauth2/auth?x=1', state: 'opaque', expiresInSeconds: 600 };
    ok(S.oauthInitResponse, o);
    rejects(S.oauthInitResponse, o, [['authorizationUrl', 'not a url'], ['authorizationUrl', 'javascript:alert(1)'], ['state', ''], ['expiresInSeconds', 0], ['expiresInSeconds', '600']]);
    ok(S.successResponse, { success: true });
    bad(S.successResponse, { success: false });
  });
});

describe('campaign (2.5, 4.3)', () => {
  it('campaign resource', () => {
    ok(S.campaign, campaign);
    accepts(S.campaign, campaign, [['schedule.endDate', undefined], ['sequence', []], ['extra', true]]);
    rejects(S.campaign, campaign, [
      ['name', ''],
      ['status', 'running'],
      ['schedule.timezone', 'GMT+2 nonsense'],
      ['schedule.sendingDays', [1.5]],
      ['schedule.sendingMinutesStart', '540'],
      ['schedule.dailyLimit', 1.2],
      ['schedule.startDate', 'tomorrow'],
      ['settings.trackOpens', 1],
      ['metrics.sent', -1],
      ['metrics.replies', undefined],
      ['sequence', [{ subject: 'x', body: 'y', delayDays: 1.5, delayHours: 0 }]],
      ['accounts', ['x']],
      ['tags', undefined],
    ]);
  });
  it('list item and list envelope', () => {
    const item = { id: U1, name: 'x', status: 'active', leadsCount: 2, tags: [], createdAt: TS };
    ok(S.campaignListItem, item);
    rejects(S.campaignListItem, item, [['leadsCount', undefined], ['status', 'x']]);
    const L = S.listOf(S.campaignListItem);
    ok(L, { data: [item], meta: { hasMore: true, nextCursor: 'abc' } });
    ok(L, { data: [], meta: { hasMore: false, nextCursor: null } });
    ok(L, { data: [], meta: { hasMore: false, nextCursor: '' } });
    bad(L, { data: [item], meta: { hasMore: true, nextCursor: null } });
    bad(L, { data: [item], meta: { hasMore: true, nextCursor: '' } });
    bad(L, { data: [item], meta: { hasMore: 'no', nextCursor: null } });
    ok(L, { data: [item], meta: { hasMore: false } }); // last page: nothing leads on, absent is conformant
    bad(L, { data: [item], meta: { hasMore: true } });
    bad(L, { data: [item] });
    bad(L, { data: [{ ...item, id: 1 }], meta: { hasMore: false, nextCursor: null } });
  });
  it('status view: nextScheduleOpensAt null when in window or not active', () => {
    const v = { id: U1, status: 'active', isWithinSchedule: false, metrics, nextScheduleOpensAt: TS };
    ok(S.campaignStatusView, v);
    ok(S.campaignStatusView, { ...v, isWithinSchedule: true, nextScheduleOpensAt: null });
    ok(S.campaignStatusView, { ...v, status: 'paused', nextScheduleOpensAt: null });
    bad(S.campaignStatusView, { ...v, isWithinSchedule: true });
    bad(S.campaignStatusView, { ...v, status: 'draft' });
    rejects(S.campaignStatusView, v, [['isWithinSchedule', undefined], ['metrics', undefined], ['nextScheduleOpensAt', 'later']]);
  });
  it('create answer: launchError explains a failed launch', () => {
    const a = { campaign, launched: false, leads: { submitted: 3, created: 2, duplicates: 1, invalid: 0 }, launchError: 'no mailbox' };
    ok(S.campaignCreateResponse, a);
    ok(S.campaignCreateResponse, { ...a, launched: true, launchError: null });
    ok(S.campaignCreateResponse, withField({ ...a, launched: true }, 'launchError', undefined));
    bad(S.campaignCreateResponse, { ...a, launchError: 3 });
    const launch = S.campaignCreateResponseFor({ launch: true });
    const noLaunch = S.campaignCreateResponseFor({ launch: false });
    ok(launch, a);
    ok(launch, { ...a, launched: true, launchError: null });
    bad(launch, { ...a, launchError: null });
    bad(launch, { ...a, launchError: '' });
    ok(noLaunch, { ...a, launchError: null });
    bad(noLaunch, { ...a, launched: true, launchError: null });
    rejects(S.campaignCreateResponse, a, [['leads.duplicates', undefined], ['launched', 'false'], ['campaign', { ...campaign, id: 'x' }]]);
  });
  it('create and PATCH bodies', () => {
    ok(S.campaignCreateBody, { name: 'x', leads: ['a@b.c'], launch: true, accounts: [U1], sequence: [{ subject: 's', body: 'b' }] });
    ok(S.campaignCreateBody, {});
    bad(S.campaignCreateBody, { name: '' });
    bad(S.campaignCreateBody, { leads: [{ email: 'a@b.c' }] });
    bad(S.campaignCreateBody, { launch: 'yes' });
    ok(S.campaignPatchBody, { settings: { stopOnReply: false } });
    bad(S.campaignPatchBody, { accounts: 'x' });
  });
  it('start/resume answer', () => {
    const a = { id: U1, status: 'active', success: true };
    ok(S.campaignLifecycleResponse, a);
    rejects(S.campaignLifecycleResponse, a, [['status', 'sending'], ['success', undefined], ['id', undefined]]);
  });
  it('test email body: leadId iff personalization is lead', () => {
    const b = { variantId: U1, accountId: U2, recipient: 'x@example.com', personalization: 'dummy' };
    ok(S.testEmailBody, b);
    ok(S.testEmailBody, { ...b, personalization: 'lead', leadId: U3 });
    bad(S.testEmailBody, { ...b, personalization: 'lead' });
    bad(S.testEmailBody, { ...b, leadId: U3 });
    bad(S.testEmailBody, { ...b, personalization: 'real' });
    bad(S.testEmailBody, { ...b, recipient: 'a@example.com,b@example.com' });
    ok(S.testEmailResponse, { sent: true, messageId: '<x@y>' });
    bad(S.testEmailResponse, { sent: 'true', messageId: '<x@y>' });
  });
});

describe('lead (2.6, 4.4)', () => {
  it('lead resource', () => {
    ok(S.lead, lead);
    accepts(S.lead, lead, [['firstName', undefined], ['lastContactedAt', TS], ['sequenceProgress.nextPlannedAt', undefined], ['status', 'lead_lost']]);
    rejects(S.lead, lead, [
      ['tags', [1]],
      ['customFields', 'x'],
      ['metrics.opened', 1.5],
      ['sequenceProgress.failedCount', undefined],
      ['sequenceProgress.nextPlannedAt', 'x'],
      ['verification.subStatus', 3],
      ['createdAt', undefined],
      ['lastRepliedAt', 'never'],
      ['firstName', 7],
    ]);
    accepts(S.lead, lead, [['lastContactedAt', null], ['sequenceProgress.nextPlannedAt', null]]);
  });
  it('status sets of 3.3', () => {
    expect(S.LEAD_USER_SETTABLE_STATUSES).toHaveLength(10);
    expect(S.LEAD_AFTER_REPLY_STATUSES).toContain('lead_converted');
    for (const p of S.LEAD_PLATFORM_STATUSES_NAMED) expect(S.LEAD_USER_SETTABLE_STATUSES as readonly string[]).not.toContain(p);
  });
  it('PATCH body, delete answer, mutate answer', () => {
    ok(S.leadPatchBody, { email: 'n@x.y', customFieldLabels: { a: 'A' }, customFieldTypes: { a: 'text' }, tags: ['x'] });
    bad(S.leadPatchBody, { tags: 'x' });
    bad(S.leadPatchBody, { customFields: [] });
    ok(S.leadDeleteResponse, { success: true, retentionDays: 30 });
    bad(S.leadDeleteResponse, { success: true, retentionDays: 1.5 });
    bad(S.leadDeleteResponse, { success: true });
    const m = { operation: 'add_tags', affected: 3, failed: 1, errors: ['1 lead not found in campaign'] };
    ok(S.leadMutateResponse, m);
    rejects(S.leadMutateResponse, m, [['operation', 'tag'], ['errors', [{ msg: 'x' }]], ['affected', undefined]]);
  });
  it('mutate body rules with the profile names', () => {
    const M = S.mutateBody({ operation: 'operation', status: 'status' });
    ok(M, { operation: 'set_status', ids: [U1], status: 'lead_lost' });
    ok(M, { operation: 'add_tags', ids: [U1], tags: ['a'] });
    ok(M, { operation: 'delete', filter: { search: 'acme' } });
    ok(M, { operation: 'delete', filter: { tags: ['x'] } });
    ok(M, { operation: 'delete', all: true });
    ok(M, { operation: 'delete', ids: Array(1000).fill(U1) });
    bad(M, { operation: 'delete', ids: Array(1001).fill(U1) });
    bad(M, { operation: 'delete', filter: {} });
    bad(M, { operation: 'delete', filter: { search: '', tags: [] } });
    bad(M, { operation: 'delete', all: true, ids: [U1] });
    bad(M, { operation: 'delete', all: true, filter: { search: 'a' } });
    bad(M, { operation: 'delete' });
    bad(M, { operation: 'set_status', ids: [U1] });
    bad(M, { operation: 'set_status', ids: [U1], status: 'email_sent' });
    bad(M, { operation: 'add_tags', ids: [U1] });
    bad(M, { operation: 'remove_tags', filter: { search: 'a' }, tags: ['a'] });
    bad(M, { operation: 'set_status', all: true, status: 'lead_lost' });
    bad(M, { operation: 'archive', ids: [U1] });
    const N = S.mutateBody({ operation: 'action', status: 'newStatus' });
    ok(N, { action: 'set_status', ids: [U1], newStatus: 'blacklisted' });
    bad(N, { action: 'set_status', ids: [U1], status: 'blacklisted' });
  });
  it('search hits: up to 10, one row per campaign', () => {
    const h = { id: U1, email: 'bob@acme.test', campaignId: U2, campaignName: 'C', firstName: 'Bob', lastName: 'S' };
    ok(S.leadSearchHit, h);
    rejects(S.leadSearchHit, h, [['campaignId', undefined], ['campaignName', 3]]);
    const rows = Array.from({ length: 10 }, (_, i) => ({ ...h, campaignId: `${U2.slice(0, -2)}${String(i).padStart(2, '0')}` }));
    ok(S.leadSearchResponse, { data: rows });
    bad(S.leadSearchResponse, { data: [...rows, { ...h, campaignId: U3 }] });
    bad(S.leadSearchResponse, { data: [h, { ...h, email: 'BOB@acme.test' }] });
    bad(S.leadSearchResponse, {});
  });
});

describe('email (2.7, 4.5)', () => {
  it('email with body', () => {
    ok(S.email, email);
    accepts(S.email, email, [['threadId', null], ['isUnread', null], ['body.text', 'x'], ['body.html', null], ['campaignId', undefined]]);
    rejects(S.email, email, [
      ['threadId', undefined],
      ['threadId', 42],
      ['messageId', 'abc@x'],
      ['mailbox.id', undefined],
      ['from.email', undefined],
      ['to', 'a@b.c'],
      ['isUnread', 'yes'],
      ['type', 'draft'],
      ['hasAttachments', null],
      ['receivedAt', 'x'],
      ['body', undefined],
      ['body.html', undefined],
      ['campaignId', 'c-1'],
    ]);
  });
  it('email summary has no body requirement', () => {
    ok(S.emailSummary, withField(email, 'body', undefined));
  });
});

describe('lead search (2.8, 4.7)', () => {
  it('errorMessage and completedAt follow the status', () => {
    ok(S.leadSearch, leadSearch);
    ok(S.leadSearch, { ...leadSearch, status: 'failed', errorMessage: 'crawler down', completedAt: TS });
    ok(S.leadSearch, { ...leadSearch, status: 'completed', completedAt: TS });
    ok(S.leadSearch, { ...leadSearch, status: 'queued', discoveryFinished: false });
    bad(S.leadSearch, { ...leadSearch, status: 'failed', completedAt: TS });
    bad(S.leadSearch, { ...leadSearch, errorMessage: 'x' });
    bad(S.leadSearch, { ...leadSearch, completedAt: TS });
    bad(S.leadSearch, { ...leadSearch, status: 'stopped' });
    rejects(S.leadSearch, leadSearch, [['status', 'running'], ['searchMode', 'both'], ['maxResults', 1.5], ['progress.emailsFound', undefined], ['discoveryFinished', undefined], ['errorMessage', undefined]]);
  });
  it('list item', () => {
    const i = { id: U1, query: 'q', status: 'completed', searchMode: 'people', maxResults: 10, createdAt: TS, completedAt: TS };
    ok(S.leadSearchListItem, i);
    rejects(S.leadSearchListItem, i, [['completedAt', null], ['searchMode', undefined], ['query', undefined]]);
  });
});

describe('workspace and usage (2.9)', () => {
  it('workspace', () => {
    const w = { organizationId: U1, name: 'Acme', timezone: 'Europe/Berlin' };
    ok(S.workspace, w);
    rejects(S.workspace, w, [['organizationId', 'org_1'], ['timezone', 'CET+1'], ['name', undefined]]);
  });
  it('usage: unlimited gives nulls and 0; otherwise percentage = used / limit x 100', () => {
    ok(S.usage, { used: 25, limit: 100, remaining: 75, isUnlimited: false, usagePercentage: 25, limitType: 'monthly_emails' });
    ok(S.usage, { used: 1, limit: 3, remaining: 2, isUnlimited: false, usagePercentage: 33.33, limitType: 'ai_credits' });
    ok(S.usage, { used: 25, limit: null, remaining: null, isUnlimited: true, usagePercentage: 0, limitType: 'lead_finder_credits' });
    bad(S.usage, { used: 25, limit: null, remaining: null, isUnlimited: true, usagePercentage: 25, limitType: 'lead_finder_credits' });
    bad(S.usage, { used: 25, limit: 100, remaining: null, isUnlimited: true, usagePercentage: 0, limitType: 'ai_credits' });
    bad(S.usage, { used: 25, limit: 100, remaining: 75, isUnlimited: false, usagePercentage: 50, limitType: 'monthly_emails' });
    bad(S.usage, { used: 25, limit: null, remaining: 75, isUnlimited: false, usagePercentage: 0, limitType: 'monthly_emails' });
    bad(S.usage, { used: 25, limit: 100, remaining: 75, isUnlimited: false, usagePercentage: 25, limitType: 'emails' });
    expect(S.LIMIT_TYPES).toHaveLength(6);
  });
});

describe('analytics (2.10, 4.6)', () => {
  it('campaign analytics with and without breakdowns', () => {
    const a = { campaignId: U1, period, totals };
    ok(S.campaignAnalytics, a);
    const full = { ...a, bySmtp: [{ accountId: U2, email: 'a@x.y', totals: bTotals }], bySequence: [{ step: 1, variant: 'A', totals: { ...bTotals, opens: oc } }], bounceBreakdown };
    ok(S.campaignAnalytics, full);
    rejects(S.campaignAnalytics, full, [
      ['period.clamped', 'no'],
      ['period.retentionDays', 1.5],
      ['period.start', 'x'],
      ['totals.opens', 4],
      ['totals.rates.unsubscribe', undefined],
      ['totals.leadsContacted', undefined],
      ['bySmtp', [{ accountId: 'x', email: 'a', totals: bTotals }]],
      ['bySequence', [{ step: 'one', variant: 'A', totals: bTotals }]],
      ['bySequence', [{ step: 1, variant: 'A', totals: { ...bTotals, rates: { ...bTotals.rates, positive: undefined } } }]],
      ['bounceBreakdown.byCategory', [{ category: 'x' }]],
      ['bounceBreakdown.unknownBounces', undefined],
    ]);
  });
  it('breakdowns are present only when requested', () => {
    const a = { campaignId: U1, period, totals, bySmtp: [] };
    ok(S.campaignAnalyticsFor(['smtp']), a);
    bad(S.campaignAnalyticsFor([]), a);
    bad(S.campaignAnalyticsFor(['smtp', 'bounce']), a);
  });
  it('timeseries and overview', () => {
    const t = { campaignId: U1, period, interval: 'week', data: [point] };
    ok(S.campaignTimeseries, t);
    rejects(S.campaignTimeseries, t, [['interval', 'hour'], ['data', [{ ...point, unsubscribed: undefined }]], ['data', [{ ...point, timestamp: 'x' }]]]);
    const o = { period, totals, activeCampaigns: 1, sendingAccounts: 2, topCampaigns: [{ campaignId: U1, name: 'C', sent: 5, openRate: 20 }] };
    ok(S.analyticsOverview, o);
    rejects(S.analyticsOverview, o, [['activeCampaigns', undefined], ['topCampaigns', [{ campaignId: U1, name: 'C', sent: 5 }]], ['totals', undefined]]);
  });
});

describe('errors (part 7)', () => {
  const env = { error: { type: 'invalid_request_error', code: 'validation_failed', message: 'bad', status: 400, requestId: U1, details: ['name: required'] } };
  it('envelope', () => {
    ok(S.errorEnvelope, env);
    rejects(S.errorEnvelope, env, [['error.requestId', 'req_1'], ['error.type', 'client_error'], ['error.status', '400'], ['error.details', 'x'], ['error.message', undefined], ['error', undefined]]);
  });
  it('errorEnvelopeFor holds the table row', () => {
    ok(S.errorEnvelopeFor(400), env);
    bad(S.errorEnvelopeFor(422), env);
    bad(S.errorEnvelopeFor(400), withField(env, 'error.code', 'failed_precondition'));
    ok(S.errorEnvelopeFor(400, { extra400Codes: ['failed_precondition'] }), withField(env, 'error.code', 'failed_precondition'));
    // No business-rule code declared: a 400 may be such a refusal, its code is not held; its type and status are.
    ok(S.errorEnvelopeFor(400, { extra400Codes: 'any' }), withField(env, 'error.code', 'mailbox_not_active'));
    bad(S.errorEnvelopeFor(400, { extra400Codes: 'any' }), withField(env, 'error.type', 'api_error'));
    bad(S.errorEnvelopeFor(400, { extra400Codes: 'any' }), withField(env, 'error.status', 409));
    const rl = { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'slow', status: 429, requestId: U1, retryAfter: 3 } };
    ok(S.errorEnvelopeFor(429), rl);
    bad(S.errorEnvelopeFor(429), withField(rl, 'error.retryAfter', undefined));
    bad(S.errorEnvelopeFor(401), withField(rl, 'error.status', 401));
  });
  it('error table has the nine rows of part 7', () => {
    expect(S.ERROR_TABLE.map((r) => `${r.status} ${r.type} ${r.code}`)).toEqual([
      '400 invalid_request_error validation_failed',
      '401 authentication_error unauthenticated',
      '403 authorization_error permission_denied',
      '404 invalid_request_error not_found',
      '409 invalid_request_error conflict',
      '413 invalid_request_error body_too_large',
      '422 invalid_request_error idempotency_key_reused',
      '429 rate_limit_error rate_limited',
      '503 api_error upstream_unavailable',
    ]);
  });
});

describe('SCHEMAS by name', () => {
  it('holds every response schema the endpoint catalog names', async () => {
    const { existsSync } = await import('node:fs');
    const here = new URL('../endpoints.ts', import.meta.url);
    expect(existsSync(here), 'the endpoint catalog beside the schemas').toBe(true);
    const { ENDPOINTS } = await import('../endpoints.ts');
    expect(ENDPOINTS.length).toBeGreaterThan(0);
    for (const e of ENDPOINTS) if (e.response) expect(() => S.schemaByName(e.response!)).not.toThrow();
    expect(() => S.schemaByName('Nope')).toThrow(/unknown schema/);
  });
});
