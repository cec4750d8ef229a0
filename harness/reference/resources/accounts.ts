// Mailboxes / email accounts (spec 2.1-2.4, 3.2, 4.2; referenced list/get/resume/oauth status).
// Storage: accounts(id, org_id, email_address, email_lc UNIQUE across workspaces, provider, status,
// doc JSON (everything shown), secrets JSON (AES-256-GCM sealed passwords, never returned)).
// Reference choices: batch `errors[]` element = { index, emailAddress, code, message, details? }
// (code validation_failed or conflict when the address is connected already, anywhere);
// defaults below; PATCH of smtp*/imap* re-runs verification (status active -> checking);
// resume: inactive|failed -> checking, else 400 failed_precondition.
// TODO(resources): background verification (POST /work/drain), sending, IMAP polling.
import { ok, created, type Handler, type Ctx } from '../context.ts';
import { isoOf } from '../clock.ts';
import { failedPrecondition, validationFailed, notFound } from '../errors.ts';
import { V, bodyObject, isEmail, isPlainObject, isTimezone } from '../validate.ts';
import { loadOwned, tagsOf, tagFilter, sanitizeHtml } from './shared.ts';

export const LANGUAGES = ['en', 'ar', 'bn', 'zh', 'cs', 'da', 'nl', 'fi', 'fr', 'de', 'el', 'he', 'hi', 'hu', 'id', 'it', 'ja', 'ko', 'ms', 'no', 'pl', 'pt', 'ro', 'ru', 'es', 'sv', 'th', 'tr', 'uk', 'vi'] as const;
export const ACCOUNT_STATUSES = ['active', 'inactive', 'checking', 'revoked', 'failed'] as const;
export const MAX_BATCH = 50;
export const OAUTH_STATE_TTL_S = 600;

export interface AccountRow {
  id: string; org_id: string; email_address: string; email_lc: string; provider: string; status: string;
  doc: string; secrets: string; created_at: number; updated_at: number;
}

export function accountView(ctx: Ctx, r: AccountRow) {
  const d = JSON.parse(r.doc) as Record<string, unknown>;
  return {
    id: r.id, emailAddress: r.email_address, firstName: d.firstName, lastName: d.lastName, displayName: d.displayName,
    provider: r.provider, status: r.status, maxEmailsPerDay: d.maxEmailsPerDay, sendingGapMinutes: d.sendingGapMinutes,
    campaignSlowRamp: d.campaignSlowRamp, replyToAddress: d.replyToAddress, signature: d.signature, bcc: d.bcc,
    automationLanguage: d.automationLanguage, warmup: d.warmup, tracking: d.tracking, statusMessage: d.statusMessage ?? null,
    tags: tagsOf(ctx.db, 'account_tags', 'account_id', r.id), healthScore: d.healthScore, smtp: d.smtp, imap: d.imap ?? null,
    verification: d.verification, createdAt: isoOf(r.created_at), updatedAt: isoOf(r.updated_at),
  };
}

export const loadAccount = (ctx: Ctx, id: string) => loadOwned<AccountRow>(ctx, 'accounts', id, 'mailbox');
const pendingVerification = () => ({ overallStatus: 'pending', smtp: 'not_checked', imap: 'not_checked', dns: { mx: 'not_checked', spf: 'not_checked', dkim: 'not_checked', dmarc: 'not_checked' } });

function defaultWarmup(ctx: Ctx) {
  return {
    enabled: true, strategy: 'standard', maxPerDay: 20, replyRatePercentage: 30, rampupEnabled: true, dailyRampup: 2,
    randomizer: 20, skipWeekends: false, timezone: ctx.workspace.timezone, trackingEnabled: false,
    phase: 'warming_up', startedAt: ctx.clock.iso(), poolAccess: 'free',
  };
}

/** Validates a warmup object against `base`; returns the merged warmup. */
function mergeWarmup(ctx: Ctx, v: V, raw: unknown, base: Record<string, unknown>, prefix: string): Record<string, unknown> {
  if (!isPlainObject(raw)) {
    v.issue(prefix, 'must be an object');
    return base;
  }
  const w = new V(prefix);
  const out = { ...base };
  const set = (k: string, val: unknown) => void (val !== undefined && (out[k] = val));
  set('enabled', w.bool(raw, 'enabled'));
  set('strategy', w.oneOf(raw, 'strategy', ['standard'] as const));
  set('maxPerDay', w.int(raw, 'maxPerDay', { min: 1, max: 200 }));
  set('replyRatePercentage', w.num(raw, 'replyRatePercentage', { min: 0, max: 100 }));
  set('rampupEnabled', w.bool(raw, 'rampupEnabled'));
  set('dailyRampup', w.int(raw, 'dailyRampup', { min: 1, max: 100 }));
  set('randomizer', w.int(raw, 'randomizer', { min: 0, max: 100 }));
  set('skipWeekends', w.bool(raw, 'skipWeekends'));
  if (raw.timezone !== undefined) {
    if (!isTimezone(raw.timezone)) w.issue('timezone', 'must be an IANA timezone');
    else out.timezone = raw.timezone;
  }
  set('trackingEnabled', w.bool(raw, 'trackingEnabled'));
  for (const ro of ['phase', 'startedAt', 'poolAccess']) if (raw[ro] !== undefined) w.issue(ro, 'is read-only');
  v.issues.push(...w.issues);
  if (out.enabled === false) {
    out.phase = 'disabled';
    out.startedAt = null;
  } else if (base.enabled === false && out.enabled === true) {
    out.phase = 'warming_up';
    out.startedAt = ctx.clock.iso();
  }
  return out;
}

/** The optional settings shared by create and PATCH; writes into `doc`. */
function applySettings(ctx: Ctx, v: V, o: Record<string, unknown>, doc: Record<string, unknown>): void {
  for (const k of ['firstName', 'lastName', 'displayName'] as const) {
    const s = v.str(o, k, { max: 128, nonEmpty: k !== 'displayName' });
    if (s !== undefined) doc[k] = s;
  }
  const m = v.int(o, 'maxEmailsPerDay', { min: 1, max: 200 });
  if (m !== undefined) doc.maxEmailsPerDay = m;
  const g = v.int(o, 'sendingGapMinutes', { min: 1, max: 300 });
  if (g !== undefined) doc.sendingGapMinutes = g;
  const sr = v.bool(o, 'campaignSlowRamp');
  if (sr !== undefined) doc.campaignSlowRamp = sr;
  const sig = v.str(o, 'signature', { max: 100_000 });
  if (sig !== undefined) doc.signature = sanitizeHtml(sig);
  for (const k of ['bcc', 'replyToAddress'] as const) {
    const s = v.str(o, k, { max: 254 });
    if (s !== undefined) {
      if (s !== '' && !isEmail(s)) v.issue(k, 'must be an email address');
      else doc[k] = s;
    }
  }
  const lang = v.oneOf(o, 'automationLanguage', LANGUAGES);
  if (lang !== undefined) doc.automationLanguage = lang;
  if (o.tracking !== undefined) {
    const t = v.object(o.tracking, 'tracking');
    if (t) {
      const tv = new V('tracking');
      const domainId = tv.uuid(t, 'domainId');
      v.issues.push(...tv.issues);
      if (domainId !== undefined || t.domainId === null) doc.tracking = { domainId: domainId ?? null };
    }
  }
  if (o.warmup !== undefined) doc.warmup = mergeWarmup(ctx, v, o.warmup, doc.warmup as Record<string, unknown>, 'warmup');
}

/** Validates the smtp and imap fields (required ones when `required`). */
function applyCredentials(ctx: Ctx, v: V, o: Record<string, unknown>, doc: Record<string, unknown>, secrets: Record<string, string>, required: boolean): boolean {
  let touched = false;
  for (const proto of ['smtp', 'imap'] as const) {
    const cur = { ...((doc[proto] as Record<string, unknown> | null) ?? {}) };
    const host = v.str(o, `${proto}Host`, { required, max: 255, nonEmpty: true });
    const port = v.int(o, `${proto}Port`, { required, min: 1, max: 65535 });
    const user = v.str(o, `${proto}Username`, { required, max: 255, nonEmpty: true });
    const pass = v.str(o, `${proto}Password`, { required, max: 1024, nonEmpty: true });
    if (host !== undefined) cur.host = host;
    if (port !== undefined) cur.port = port;
    if (user !== undefined) cur.username = user;
    if (pass !== undefined) secrets[`${proto}Password`] = ctx.services.encrypt(pass);
    if ([host, port, user, pass].some((x) => x !== undefined)) touched = true;
    doc[proto] = { host: cur.host, port: cur.port, username: cur.username };
  }
  const aic = v.bool(o, 'imapAllowInvalidCert');
  if (aic !== undefined) {
    doc.imapAllowInvalidCert = aic;
    touched = true;
  }
  return touched;
}

export const create: Handler = async (ctx) => {
  const b = bodyObject(ctx.body);
  const list = b.accounts;
  if (!Array.isArray(list)) throw validationFailed(['accounts: must be an array of 1 to 50 mailboxes']);
  if (list.length < 1 || list.length > MAX_BATCH) throw validationFailed([`accounts: must hold 1 to ${MAX_BATCH} mailboxes (got ${list.length})`]);
  const accounts: unknown[] = [];
  const errors: unknown[] = [];
  list.forEach((el, index) => {
    const emailAddress = isPlainObject(el) && typeof el.emailAddress === 'string' ? el.emailAddress : null;
    if (!isPlainObject(el)) return void errors.push({ index, emailAddress, code: 'validation_failed', message: 'The element is invalid.', details: [`accounts[${index}]: must be an object`] });
    const v = new V(`accounts[${index}]`);
    const email = v.str(el, 'emailAddress', { required: true, max: 254 });
    if (email !== undefined && !isEmail(email)) v.issue('emailAddress', 'must be an email address');
    for (const k of ['firstName', 'lastName'] as const) if (el[k] === undefined || el[k] === null) v.issue(k, 'is required');
    const doc: Record<string, unknown> = {
      firstName: '', lastName: '', displayName: '', maxEmailsPerDay: 50, sendingGapMinutes: 10, campaignSlowRamp: false,
      replyToAddress: email ?? '', signature: '', bcc: '', automationLanguage: 'en', warmup: defaultWarmup(ctx),
      tracking: { domainId: null }, statusMessage: null, healthScore: 100, smtp: null, imap: null,
      imapAllowInvalidCert: false, verification: pendingVerification(),
    };
    const secrets: Record<string, string> = {};
    applyCredentials(ctx, v, el, doc, secrets, true);
    applySettings(ctx, v, el, doc);
    if (v.issues.length > 0) return void errors.push({ index, emailAddress, code: 'validation_failed', message: 'The mailbox is invalid.', details: v.issues });
    if (!el.displayName) doc.displayName = `${doc.firstName} ${doc.lastName}`.trim();
    const lc = email!.toLowerCase();
    if (ctx.db.prepare('SELECT 1 FROM accounts WHERE email_lc = ?').get(lc))
      return void errors.push({ index, emailAddress, code: 'conflict', message: 'This email address is already connected.' });
    const id = ctx.newId();
    const now = ctx.clock.stamp();
    ctx.db.prepare('INSERT INTO accounts (id, org_id, email_address, email_lc, provider, status, doc, secrets, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, ctx.workspace.id, email, lc, 'custom', 'inactive', JSON.stringify(doc), JSON.stringify(secrets), now, now);
    accounts.push(accountView(ctx, loadAccount(ctx, id)));
  });
  return created({ summary: { submitted: list.length, created: accounts.length, failed: errors.length }, accounts, errors });
};

export const list: Handler = async (ctx) => {
  const where = ['org_id = ?'];
  const params: unknown[] = [ctx.workspace.id];
  const status = ctx.query.get('status');
  if (status !== null) {
    if (!(ACCOUNT_STATUSES as readonly string[]).includes(status)) throw validationFailed([`status: must be one of ${ACCOUNT_STATUSES.join(', ')}`]);
    where.push('status = ?');
    params.push(status);
  }
  const tags = tagFilter(ctx.query);
  if (tags) {
    where.push(`EXISTS (SELECT 1 FROM account_tags at WHERE at.account_id = accounts.id AND at.tag_id IN (${tags.map(() => '?').join(',')}))`);
    params.push(...tags);
  }
  return ok(ctx.page<AccountRow>({ list: 'accounts', from: 'accounts', where: where.join(' AND '), params, map: (r) => accountView(ctx, r) }));
};

export const get: Handler = async (ctx) => ok(accountView(ctx, loadAccount(ctx, ctx.params.id!)));

export const patch: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  const b = bodyObject(ctx.body);
  const v = new V();
  if (b.emailAddress !== undefined) v.issue('emailAddress', 'cannot be changed after creation');
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  const secrets = JSON.parse(r.secrets) as Record<string, string>;
  applySettings(ctx, v, b, doc);
  const rotated = applyCredentials(ctx, v, b, doc, secrets, false);
  v.done();
  let status = r.status;
  if (rotated) {
    doc.verification = pendingVerification();
    if (status === 'active') status = 'checking';
  }
  ctx.db.prepare('UPDATE accounts SET doc = ?, secrets = ?, status = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(doc), JSON.stringify(secrets), status, ctx.clock.now(), r.id);
  return ok(accountView(ctx, loadAccount(ctx, r.id)));
};

export const remove: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  ctx.db.transaction(() => {
    ctx.db.prepare('DELETE FROM account_tags WHERE account_id = ?').run(r.id);
    ctx.db.prepare('DELETE FROM accounts WHERE id = ?').run(r.id);
    // Sending stops immediately: no campaign keeps the mailbox among its senders.
    const rows = ctx.db.prepare('SELECT id, doc FROM campaigns WHERE org_id = ?').all(ctx.workspace.id) as { id: string; doc: string }[];
    for (const c of rows) {
      const doc = JSON.parse(c.doc) as { accounts: string[] };
      if (!doc.accounts.includes(r.id)) continue;
      doc.accounts = doc.accounts.filter((a) => a !== r.id);
      ctx.db.prepare('UPDATE campaigns SET doc = ? WHERE id = ?').run(JSON.stringify(doc), c.id);
    }
  })();
  return ok({ id: r.id, deleted: true });
};

export const pause: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  if (r.status !== 'active') throw failedPrecondition(`Only an active mailbox can be paused (this one is ${r.status}).`);
  ctx.db.prepare("UPDATE accounts SET status = 'inactive', updated_at = ? WHERE id = ?").run(ctx.clock.now(), r.id);
  return ok(accountView(ctx, loadAccount(ctx, r.id)));
};

export const resume: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  if (r.status !== 'inactive' && r.status !== 'failed') throw failedPrecondition(`Only an inactive or failed mailbox can be resumed (this one is ${r.status}).`);
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  doc.verification = pendingVerification();
  ctx.db.prepare("UPDATE accounts SET status = 'checking', doc = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(doc), ctx.clock.now(), r.id);
  return ok(accountView(ctx, loadAccount(ctx, r.id)));
};

export const verification: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  const d = JSON.parse(r.doc) as { verification: { overallStatus: string; smtp: string; imap: string; dns: unknown; lastVerifiedAt?: string | null; smtpError?: string | null; imapError?: string | null } };
  const ver = d.verification;
  return ok({
    overallStatus: ver.overallStatus, smtp: { status: ver.smtp, error: ver.smtpError ?? null }, imap: { status: ver.imap, error: ver.imapError ?? null },
    dns: ver.dns, lastVerifiedAt: ver.lastVerifiedAt ?? null,
  });
};

function provider(ctx: Ctx): 'google' | 'microsoft' {
  const p = ctx.params.provider;
  if (p !== 'google' && p !== 'microsoft') throw validationFailed(['provider: must be google or microsoft']);
  return p;
}

export const oauthInit: Handler = async (ctx) => {
  const p = provider(ctx);
  const state = ctx.newId().replace(/-/g, '') + ctx.newId().replace(/-/g, '');
  const now = ctx.clock.now();
  ctx.db.prepare('INSERT INTO oauth_states (state, org_id, provider, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(state, ctx.workspace.id, p, now, now + OAUTH_STATE_TTL_S * 1000);
  const host = p === 'google' ? 'https://accounts.google.com/o/oauth2/v2/auth' : 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize';
  return ok({ authorizationUrl: `${host}?client_id=outreach-reference&response_type=code&state=${state}`, state, expiresInSeconds: OAUTH_STATE_TTL_S });
};

export const oauthStatus: Handler = async (ctx) => {
  const p = provider(ctx);
  const state = ctx.query.get('state');
  if (!state) throw validationFailed(['state: is required']);
  const s = ctx.db.prepare('SELECT * FROM oauth_states WHERE state = ? AND org_id = ? AND provider = ?').get(state, ctx.workspace.id, p) as
    { account_id: string | null; expires_at: number } | undefined;
  if (!s) throw notFound('No OAuth flow with this state.');
  if (s.account_id) return ok({ status: 'completed', accountId: s.account_id });
  if (ctx.clock.now() >= s.expires_at) return ok({ status: 'expired' });
  return ok({ status: 'pending' });
};
