// Mailboxes / email accounts (spec 2.1-2.4, 3.2, 4.2; referenced list/get/resume/oauth status).
// Storage: accounts(id, org_id, email_address, email_lc UNIQUE across workspaces, provider, status,
// doc JSON (everything shown), secrets JSON (AES-256-GCM sealed passwords, never returned)).
// Reference choices: batch `errors[]` element = { index, emailAddress, code, message, details? }
// (code validation_failed or conflict when the address is connected already, anywhere);
// defaults below; every 2.2 bound exactly as written (strings 0..max, an address where one is
// expected); background verification in verify.ts (queued at create, resume and a PATCH of any
// smtp*/imap* field). Status: create -> inactive (verification pending) -> active | failed;
// pause: active -> inactive (marked paused: verification never re-activates it, only resume);
// resume: inactive|failed -> checking -> active | failed, else 400 failed_precondition;
// PATCH of smtp*/imap*: credentials rotated, verification pending again, status -> checking
// (a paused mailbox stays inactive); OAuth mailboxes (consent through the control API) are
// active at once, have no SMTP/IMAP password and refuse smtp*/imap* fields (400); their
// re-verification (resume) checks the grant (verify.ts).
import { ok, created, type Handler, type Ctx } from '../request/context.ts';
import { isoOf } from '../domain/clock.ts';
import { ApiError, failedPrecondition, stateConflict, validationFailed, notFound } from '../request/errors.ts';
import { warmupStrategies } from '../switches/choices.ts';
import { shapeItem, shapeResult } from '../request/shape.ts';
import { V, bodyObject, hasEmailForm, isEmail, isPlainObject, isTimezone } from '../request/validate.ts';
import { loadOwned, tagsOf, tagFilter } from '../request/owned-rows.ts';
import { deletedOrg } from '../switches/mutants.ts';
import { sanitizeHtml } from '../domain/sanitize.ts';
import { createConnection } from 'node:net';

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
  const view = shownMailbox(ctx, {
    id: r.id, emailAddress: r.email_address, firstName: d.firstName, lastName: d.lastName, displayName: d.displayName,
    // The mutant names a paused mailbox's state `paused` (it is inactive: 3.2).
    provider: r.provider, status: ctx.mutant('acct-status-paused-named') && d.paused && r.status === 'inactive' ? 'paused' : r.status, maxEmailsPerDay: d.maxEmailsPerDay, sendingGapMinutes: d.sendingGapMinutes,
    campaignSlowRamp: d.campaignSlowRamp, replyToAddress: d.replyToAddress, signature: d.signature, bcc: d.bcc,
    automationLanguage: d.automationLanguage, warmup: d.warmup, tracking: ctx.mutant('acct-tracking-domain-dropped') ? {} : d.tracking, statusMessage: d.statusMessage ?? null,
    tags: tagsOf(ctx.db, 'account_tags', 'account_id', r.id), healthScore: d.healthScore,
    smtp: ctx.mutant('acct-password-returned') && d.smtp ? { ...(d.smtp as object), password: passwordOf(ctx, r, 'smtpPassword') } : d.smtp,
    imap: ctx.mutant('acct-imap-password-returned') && d.imap ? { ...(d.imap as object), password: passwordOf(ctx, r, 'imapPassword') } : d.imap ?? null,
    verification: verificationSummary(ctx, d.verification as VerificationDoc), createdAt: isoOf(r.created_at), updatedAt: isoOf(r.updated_at),
  });
  if (ctx.services.choices.passwordFacts === 'set-and-when') for (const proto of ['smtp', 'imap'] as const) view[proto] = withPasswordFacts(view[proto], r);
  return view;
}

/** A protocol's settings with what they may say of its password without returning it (choices.passwordFacts). */
function withPasswordFacts(settings: unknown, r: AccountRow): unknown {
  return settings && typeof settings === 'object' ? { ...settings, passwordSet: true, passwordUpdatedAt: isoOf(r.updated_at) } : settings;
}

/** A mailbox as every answer shows it (where the mutants of 2.1's field types switch). */
function shownMailbox(ctx: Ctx, view: Record<string, unknown>): Record<string, unknown> {
  if (ctx.mutant('acct-healthscore-per-mille')) view.healthScore = Number(view.healthScore) * 10;
  if (ctx.mutant('acct-provider-smtp') && view.provider === 'custom') view.provider = 'smtp';
  // The mutants serialize an OAuth mailbox by a path of its own: its provider as the product name, its imap left out or empty.
  const oauth = view.provider === 'google' || view.provider === 'microsoft';
  if (ctx.mutant('acct-oauth-provider-alias') && oauth) view.provider = view.provider === 'google' ? 'gmail' : 'outlook';
  if (ctx.mutant('acct-oauth-google-gmail') && view.provider === 'google') view.provider = 'gmail';
  if (ctx.mutant('acct-oauth-imap-omitted') && oauth) delete view.imap;
  if (ctx.mutant('acct-oauth-imap-empty-object') && oauth) view.imap = {};
  if (ctx.mutant('acct-timestamps-epoch')) [view.createdAt, view.updatedAt] = [Date.parse(String(view.createdAt)), Date.parse(String(view.updatedAt))];
  if (ctx.mutant('acct-field-snake-case')) [view.sending_gap_minutes, view.sendingGapMinutes] = [view.sendingGapMinutes, undefined];
  if (ctx.mutant('acct-tags-as-names')) view.tags = (view.tags as { name: string }[]).map((t) => t.name);
  if (ctx.mutant('acct-verification-no-dns')) view.verification = { ...(view.verification as object), dns: undefined };
  if (ctx.mutant('acct-status-uppercase')) view.status = String(view.status).toUpperCase();
  // The mutant writes warmup.startedAt in another form once warmup really starts (the mailbox verified active).
  const w = view.warmup as Record<string, unknown> | undefined;
  if (ctx.mutant('warmup-startedat-epoch-active') && view.status === 'active' && typeof w?.startedAt === 'string') view.warmup = { ...w, startedAt: Date.parse(w.startedAt) };
  // The mutant answers the states other than inactive under the names of its own state machine.
  if (ctx.mutant('acct-status-checking-verifying') && view.status === 'checking') view.status = 'verifying';
  if (ctx.mutant('acct-status-internal-names')) view.status = ({ failed: 'error', checking: 'verifying', revoked: 'disconnected' } as Record<string, string>)[String(view.status)] ?? view.status;
  if (ctx.mutant('acct-smtp-string')) view.smtp = view.smtp && `${(view.smtp as { host: string }).host}:${(view.smtp as { port: number }).port}`;
  if (ctx.mutant('acct-warmup-string')) view.warmup = JSON.stringify(view.warmup);
  // The mutants answer a switched-off warmup as nothing (null), or with its numbers unset (null: "not warming").
  const off = (view.warmup as { enabled?: unknown } | null)?.enabled === false;
  if (off && ctx.mutant('acct-warmup-off-null')) view.warmup = null;
  if (off && ctx.mutant('warmup-off-numbers-null')) view.warmup = { ...(view.warmup as object), maxPerDay: null, replyRatePercentage: null, dailyRampup: null, randomizer: null };
  if (ctx.mutant('acct-names-null')) [view.firstName, view.lastName] = [null, null];
  if (ctx.mutant('acct-displayname-null')) view.displayName = null;
  if (ctx.mutant('acct-maxemails-string')) view.maxEmailsPerDay = String(view.maxEmailsPerDay);
  if (ctx.mutant('acct-slowramp-string')) view.campaignSlowRamp = String(view.campaignSlowRamp);
  if (ctx.mutant('acct-replyto-null')) view.replyToAddress = null;
  if (ctx.mutant('acct-signature-null')) view.signature = null;
  if (ctx.mutant('acct-bcc-null')) view.bcc = null;
  if (ctx.mutant('acct-autolang-uppercase')) view.automationLanguage = String(view.automationLanguage).toUpperCase();
  if (ctx.mutant('acct-emailaddress-object')) view.emailAddress = { address: view.emailAddress };
  return view;
}

function passwordOf(ctx: Ctx, r: AccountRow, k: string): string | null {
  const sealed = (JSON.parse(r.secrets) as Record<string, string>)[k];
  return sealed ? ctx.services.decrypt(sealed) : null;
}

interface VerificationDoc {
  overallStatus: string; smtp: string; imap: string; dns: Record<string, string>;
  lastVerifiedAt?: string | null; smtpError?: unknown; imapError?: unknown;
}
/** 2.4: the verification object inside the mailbox (the details are on GET .../verification). */
function verificationSummary(ctx: Ctx, v: VerificationDoc) {
  // The mutants rebuild the object once a verification ran: dns null (no lookup result),
  // smtp and imap as the verification endpoint's { status, error } objects, or the overall status
  // under the verification record's own name (`status`).
  const ran = typeof v.lastVerifiedAt === 'string';
  if (ran && ctx.mutant('acct-verified-dns-null')) return { overallStatus: v.overallStatus, smtp: v.smtp, imap: v.imap, dns: null };
  if (ran && ctx.mutant('acct-verified-overall-renamed')) return { status: v.overallStatus, smtp: v.smtp, imap: v.imap, dns: v.dns };
  if (ran && ctx.mutant('acct-verified-smtp-imap-objects')) return { overallStatus: v.overallStatus, smtp: { status: v.smtp, error: v.smtpError ?? null }, imap: { status: v.imap, error: v.imapError ?? null }, dns: v.dns };
  return { overallStatus: v.overallStatus, smtp: v.smtp, imap: v.imap, dns: v.dns };
}

export const loadAccount = (ctx: Ctx, id: string) => loadOwned<AccountRow>(ctx, 'accounts', id, 'mailbox');
export const pendingVerification = () => ({ overallStatus: 'pending', smtp: 'not_checked', imap: 'not_checked', dns: { mx: 'not_checked', spf: 'not_checked', dkim: 'not_checked', dmarc: 'not_checked' } });

function defaultWarmup(ctx: Ctx) {
  const off = ctx.mutant('acct-warmup-off-default');
  return {
    enabled: !off, ...ctx.services.choices.warmupDefaults, timezone: ctx.workspace.timezone,
    phase: off ? 'disabled' : 'warming_up', startedAt: ctx.clock.iso(), poolAccess: ctx.mutant('warmup-pool-access-undeclared') ? 'paid' : 'free',
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
  const bounds = ctx.services.choices.warmupBounds;
  set('strategy', w.oneOf(raw, 'strategy', warmupStrategies(ctx.services.choices)));
  // The mutant validates the numeric fields but drops them (only the dashboard's form sets them).
  const numbers = ctx.mutant('warmup-numbers-ignored') ? () => undefined : set;
  numbers('maxPerDay', w.int(raw, 'maxPerDay', ctx.mutant('warmup-bounds-unchecked') ? {} : bounds.maxPerDay));
  numbers('replyRatePercentage', w.num(raw, 'replyRatePercentage', bounds.replyRatePercentage));
  const flagsDropped = ctx.mutant('warmup-flags-ignored');
  if (!flagsDropped) set('rampupEnabled', w.bool(raw, 'rampupEnabled'));
  numbers('dailyRampup', w.int(raw, 'dailyRampup', bounds.dailyRampup));
  numbers('randomizer', w.int(raw, 'randomizer', bounds.randomizer));
  set('skipWeekends', w.bool(raw, 'skipWeekends'));
  if (raw.timezone !== undefined) {
    if (!isTimezone(raw.timezone)) w.issue('timezone', 'must be an IANA timezone');
    else out.timezone = raw.timezone;
  }
  if (!flagsDropped) set('trackingEnabled', w.bool(raw, 'trackingEnabled'));
  // phase, startedAt, poolAccess are read-only: ignored when sent back (e.g. a warmup object read earlier).
  if (ctx.mutant('warmup-readonly-writable')) for (const k of ['phase', 'startedAt', 'poolAccess']) set(k, raw[k]);
  v.issues.push(...w.issues);
  if (out.enabled === false) {
    // The mutant names the phase of a switched-off warmup `off`, a value its profile does not declare.
    out.phase = ctx.mutant('warmup-phase-off-undeclared') ? 'off' : 'disabled';
    delete out.startedAt;
  } else if (base.enabled === false && out.enabled === true) {
    out.phase = 'warming_up';
    // The mutant stamps a warmup restarted by PATCH as epoch milliseconds (the create and verification writers stay ISO).
    out.startedAt = ctx.mutant('acct-warmup-restart-startedat-epoch') ? ctx.clock.now() : ctx.clock.iso();
  }
  return out;
}

/**
 * One switch per field of the create input (mutants acct-in-*): under it, that field's presence
 * (where required) and its bounds go unchecked. Written out so that each id has its one place.
 */
const UNCHECKED: Readonly<Record<string, (ctx: Ctx) => boolean>> = {
  emailAddress: (ctx) => ctx.mutant('acct-in-email-unbounded'),
  firstName: (ctx) => ctx.mutant('acct-in-firstname-unchecked'),
  lastName: (ctx) => ctx.mutant('acct-in-lastname-unchecked'),
  displayName: (ctx) => ctx.mutant('acct-in-displayname-unbounded'),
  smtpHost: (ctx) => ctx.mutant('acct-in-smtphost-unchecked'),
  smtpPort: (ctx) => ctx.mutant('acct-in-smtpport-unchecked'),
  smtpUsername: (ctx) => ctx.mutant('acct-in-smtpusername-unchecked'),
  smtpPassword: (ctx) => ctx.mutant('acct-in-smtppassword-unchecked'),
  imapHost: (ctx) => ctx.mutant('acct-in-imaphost-unchecked'),
  imapPort: (ctx) => ctx.mutant('acct-in-imapport-unchecked'),
  imapUsername: (ctx) => ctx.mutant('acct-in-imapusername-unchecked'),
  imapPassword: (ctx) => ctx.mutant('acct-in-imappassword-unchecked'),
  sendingGapMinutes: (ctx) => ctx.mutant('acct-in-sendinggap-unbounded'),
  bcc: (ctx) => ctx.mutant('acct-in-bcc-unbounded'),
  replyToAddress: (ctx) => ctx.mutant('acct-in-replyto-unbounded'),
};
const unchecked = (ctx: Ctx, field: string): boolean => UNCHECKED[field]?.(ctx) ?? false;

/**
 * An email address; under the field's mutant, of any length; under acct-in-email-at-only, any
 * emailAddress holding an @; under acct-in-email-loose-pattern, the common `\S+@\S+\.\S+`.
 */
const isAddress = (ctx: Ctx, field: string, s: string): boolean => {
  if (field === 'emailAddress' && s.includes('@') && ctx.mutant('acct-in-email-at-only')) return true;
  if (field === 'emailAddress' && ctx.mutant('acct-in-email-loose-pattern')) return /^\S+@\S+\.\S+$/.test(s);
  return unchecked(ctx, field) ? hasEmailForm(s) : isEmail(s);
};

/** A field's presence and bounds, dropped under its mutant; under the off-by-one mutants, a bound taken as exclusive. */
function rules<T extends { required?: boolean; min?: number; max?: number }>(ctx: Ctx, field: string, opts: T): T & { unit: 'characters' | 'bytes' } {
  // How a max length counts (choices.lengthUnit); the mutant counts UTF-8 bytes where characters are declared.
  const unit = ctx.services.choices.lengthUnit === 'bytes' || ctx.mutant('acct-in-maxlen-bytes') ? 'bytes' : 'characters';
  if (unchecked(ctx, field)) return { ...opts, unit, required: false, min: undefined, max: undefined };
  if (opts.min === undefined && opts.max !== undefined && ctx.mutant('acct-in-max-length-exclusive')) return { ...opts, unit, max: opts.max - 1 };
  if (opts.min !== undefined && opts.max !== undefined && ctx.mutant('acct-in-range-exclusive')) return { ...opts, unit, min: opts.min + 1, max: opts.max - 1 };
  return { ...opts, unit };
}

/** The optional settings shared by create and PATCH; writes into `doc`. */
function applySettings(ctx: Ctx, v: V, o: Record<string, unknown>, doc: Record<string, unknown>): void {
  for (const k of ['firstName', 'lastName', 'displayName'] as const) {
    const s = v.str(o, k, rules(ctx, k, { max: 128 }));
    if (s !== undefined) doc[k] = s;
  }
  const m = v.int(o, 'maxEmailsPerDay', { min: ctx.mutant('acct-bounds-maxemails-zero') ? 0 : 1, max: ctx.mutant('acct-bounds-maxemails-201') ? 201 : 200 });
  if (m !== undefined) doc.maxEmailsPerDay = m;
  const g = v.int(o, 'sendingGapMinutes', rules(ctx, 'sendingGapMinutes', { min: 1, max: 300 }));
  if (g !== undefined) doc.sendingGapMinutes = g;
  const sr = v.bool(o, 'campaignSlowRamp');
  if (sr !== undefined) doc.campaignSlowRamp = sr;
  const sig = v.str(o, 'signature', { max: 100_000 });
  if (sig !== undefined) doc.signature = ctx.mutant('acct-signature-unsanitized') ? sig : sanitizeHtml(sig);
  // The mutant stores and answers it as given; only the mail gets the sanitized one (read by sending/engine.ts).
  if (sig !== undefined && ctx.mutant('acct-signature-sanitized-at-send')) Object.assign(doc, { signatureForMail: doc.signature, signature: sig });
  // The mutant answers the sanitized signature but keeps what was given for the mail it sends.
  if (sig !== undefined && ctx.mutant('send-signature-raw')) doc.signatureAsGiven = sig;
  for (const k of ['bcc', 'replyToAddress'] as const) {
    const s = v.str(o, k, rules(ctx, k, { max: 254 }));
    if (s !== undefined) {
      if (s !== '' && !isAddress(ctx, k, s)) v.issue(k, 'must be an email address');
      else doc[k] = s;
    }
  }
  // The mutant folds case before comparing (and stores the folded value).
  const folded = ctx.mutant('acct-in-autolang-case-folded') && typeof o.automationLanguage === 'string' ? { ...o, automationLanguage: o.automationLanguage.toLowerCase() } : o;
  // The mutants validate against lists of their own: any ISO 639-1 shape (two lower-case letters), or a library's older list (Hebrew `iw`, not `he`).
  const asked = folded.automationLanguage;
  const iso639 = ctx.mutant('acct-in-autolang-iso639-any') && typeof asked === 'string' && /^[a-z]{2}$/.test(asked) ? [asked] : [];
  const languages = ctx.mutant('acct-in-autolang-old-codes') ? LANGUAGES.map((l) => (l === 'he' ? 'iw' : l)) : [...LANGUAGES, ...iso639];
  const lang = v.oneOf(folded, 'automationLanguage', languages);
  if (lang !== undefined) doc.automationLanguage = lang;
  if (o.tracking === null) doc.tracking = {};
  else if (o.tracking !== undefined) {
    const t = v.object(o.tracking, 'tracking');
    if (t) {
      const tv = new V('tracking');
      const domainId = tv.uuid(t, 'domainId');
      v.issues.push(...tv.issues);
      if (domainId !== undefined) doc.tracking = { domainId };
      else if (t.domainId === null) doc.tracking = {};
    }
  }
  if (o.warmup !== undefined && o.warmup !== null) doc.warmup = mergeWarmup(ctx, v, o.warmup, doc.warmup as Record<string, unknown>, 'warmup');
}

/** Validates the smtp and imap fields (required ones when `required`). */
function applyCredentials(ctx: Ctx, v: V, o: Record<string, unknown>, doc: Record<string, unknown>, secrets: Record<string, string>, required: boolean): boolean {
  let touched = false;
  // The mutant reads IMAP as optional as a group: an element with no imap* field at all gets imap null.
  const noImap = ['imapHost', 'imapPort', 'imapUsername', 'imapPassword'].every((k) => o[k] === undefined);
  const imapOptional = required && noImap && ctx.mutant('acct-in-imap-optional-as-group');
  for (const proto of ['smtp', 'imap'] as const) {
    if (proto === 'imap' && imapOptional) {
      doc.imap = null;
      continue;
    }
    const cur = { ...((doc[proto] as Record<string, unknown> | null) ?? {}) };
    const host = v.str(o, `${proto}Host`, rules(ctx, `${proto}Host`, { required, max: 255 }));
    const port = v.int(o, `${proto}Port`, rules(ctx, `${proto}Port`, { required, min: 1, max: 65535 }));
    const user = v.str(o, `${proto}Username`, rules(ctx, `${proto}Username`, { required, max: 255 }));
    const pass = v.str(o, `${proto}Password`, rules(ctx, `${proto}Password`, { required, max: 1024 }));
    if (host !== undefined) cur.host = host;
    if (port !== undefined) cur.port = port;
    if (user !== undefined) cur.username = user;
    // The mutant: a PATCH stores the new host, port and username but not a new password (the secret store is written at create only).
    if (pass !== undefined && (required || !ctx.mutant('acct-patch-password-not-stored'))) secrets[`${proto}Password`] = ctx.services.encrypt(pass);
    if ([host, port, user, pass].some((x) => x !== undefined)) touched = true;
    doc[proto] = { host: cur.host, port: cur.port, username: cur.username };
  }
  const aic = v.bool(o, 'imapAllowInvalidCert');
  // The mutant takes the flag at create only: a PATCH validates it and keeps the old value.
  if (aic !== undefined && !(!required && ctx.mutant('acct-patch-allowinvalidcert-ignored'))) {
    doc.imapAllowInvalidCert = aic;
    touched = true;
  }
  return touched;
}

const NUMBER_FIELDS = ['smtpPort', 'imapPort', 'maxEmailsPerDay', 'sendingGapMinutes'];
/** Under its mutant, a number field given as a numeric string becomes that number (a form parser's coercion). */
function numericStringsCoerced(ctx: Ctx, el: unknown): unknown {
  if (!isPlainObject(el) || !ctx.mutant('acct-in-numeric-strings-coerced')) return el;
  const numeric = (v: unknown) => typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
  return Object.fromEntries(Object.entries(el).map(([k, v]) => [k, NUMBER_FIELDS.includes(k) && numeric(v) ? Number(v) : v]));
}

/**
 * Under these mutants, one field's parser is lenient where the others are strict (a per-field
 * slip): imapPort "993" becomes 993, imapAllowInvalidCert "true" becomes true, warmup true is
 * taken as warmup on with its defaults, a number given as a name becomes its digits.
 */
function fieldSlips(ctx: Ctx, el: unknown): unknown {
  if (!isPlainObject(el)) return el;
  const out: Record<string, unknown> = { ...el };
  if (typeof out.imapPort === 'string' && /^\d+$/.test(out.imapPort) && ctx.mutant('acct-in-imapport-string-coerced')) out.imapPort = Number(out.imapPort);
  if ((out.imapAllowInvalidCert === 'true' || out.imapAllowInvalidCert === 'false') && ctx.mutant('acct-in-allowinvalidcert-string-coerced')) out.imapAllowInvalidCert = out.imapAllowInvalidCert === 'true';
  if (out.warmup === true && ctx.mutant('acct-in-warmup-true-accepted')) out.warmup = { enabled: true };
  if (ctx.mutant('acct-in-names-stringified')) for (const k of ['firstName', 'lastName', 'displayName']) if (typeof out[k] === 'number') out[k] = String(out[k]);
  return out;
}

/** Does host:port accept a TCP connection within a second? (the mutant acct-create-reachable-active's inline check) */
function accepts(host: unknown, port: unknown): Promise<boolean> {
  if (typeof host !== 'string' || typeof port !== 'number') return Promise.resolve(false);
  return new Promise((done) => {
    const socket = createConnection({ host, port, timeout: 1000 });
    const end = (ok: boolean) => (socket.destroy(), done(ok));
    socket.once('connect', () => end(true)).once('timeout', () => end(false)).once('error', () => end(false));
  });
}

export const create: Handler = async (ctx) => {
  const b = bodyObject(ctx.body);
  // The mutant reads the elements from another key, as a target that named its batch `mailboxes` would.
  const list = ctx.mutant('acct-create-body-key-renamed') ? b.mailboxes : b.accounts;
  if (!Array.isArray(list)) throw validationFailed(['accounts: must be an array of 1 to 50 mailboxes']);
  const [min, max] = [ctx.mutant('acct-batch-empty-accepted') ? 0 : 1, ctx.mutant('acct-batch-51-accepted') ? MAX_BATCH + 1 : MAX_BATCH];
  if (list.length < min || list.length > max) throw validationFailed([`accounts: must hold 1 to ${MAX_BATCH} mailboxes (got ${list.length})`]);
  const accounts: unknown[] = [];
  const errors: { index: number; emailAddress: string | null; code: string; message: string; details?: string[] }[] = [];
  const valid: { index: number; email: string; doc: Record<string, unknown>; secrets: Record<string, string>; displayNameGiven: boolean }[] = [];
  const chosen = ctx.services.choices.mailboxDefaults;
  const defaults = ctx.mutant('acct-default-maxemails-changed') ? { ...chosen, maxEmailsPerDay: chosen.maxEmailsPerDay === 100 ? 50 : 100 } : chosen;
  list.forEach((given, index) => {
    const el = fieldSlips(ctx, numericStringsCoerced(ctx, given));
    const emailAddress = isPlainObject(el) && typeof el.emailAddress === 'string' ? el.emailAddress : null;
    if (!isPlainObject(el)) return void errors.push({ index, emailAddress, code: 'validation_failed', message: 'The element is invalid.', details: [`accounts[${index}]: must be an object`] });
    const v = new V(`accounts[${index}]`);
    // The address names the mailbox: its mutant drops the bound only.
    // The mutant takes the SMTP login for an absent address, unchecked.
    const fromLogin = el.emailAddress === undefined && typeof el.smtpUsername === 'string' && ctx.mutant('acct-in-email-from-username');
    const email = fromLogin ? (el.smtpUsername as string) : v.str(el, 'emailAddress', { required: true, max: unchecked(ctx, 'emailAddress') ? undefined : 254 });
    if (!fromLogin && email !== undefined && !isAddress(ctx, 'emailAddress', email)) v.issue('emailAddress', 'must be an email address');
    for (const k of ['firstName', 'lastName'] as const) if ((el[k] === undefined || el[k] === null) && !unchecked(ctx, k)) v.issue(k, 'is required');
    const doc: Record<string, unknown> = {
      firstName: '', lastName: '', displayName: '', ...defaults, replyToAddress: ctx.mutant('acct-replyto-default-noreply') && email ? `noreply@${email.split('@').pop()}` : email ?? '', signature: '', bcc: '', warmup: defaultWarmup(ctx),
      tracking: {}, statusMessage: null, healthScore: 100, smtp: null, imap: null,
      imapAllowInvalidCert: false, verification: pendingVerification(), paused: false,
    };
    const secrets: Record<string, string> = {};
    applyCredentials(ctx, v, el, doc, secrets, true);
    applySettings(ctx, v, el, doc);
    // The mutant keeps only whether warmup is on at create: the other values given are validated, the defaults stored (PATCH stores them).
    if (ctx.mutant('warmup-create-values-dropped') && isPlainObject(el.warmup)) {
      const given = doc.warmup as Record<string, unknown>;
      const stored: Record<string, unknown> = { ...defaultWarmup(ctx), enabled: given.enabled, phase: given.phase, startedAt: given.startedAt };
      if (given.startedAt === undefined) delete stored.startedAt;
      doc.warmup = stored;
    }
    // The mutant checks the warmup numbers' bounds on PATCH only: at create an out-of-bounds one is let through (not stored).
    if (ctx.mutant('warmup-bounds-unchecked-at-create')) for (let i = v.issues.length - 1; i >= 0; i--) if (/^warmup\.\w+: must be from /.test(v.issues[i]!)) v.issues.splice(i, 1);
    // The mutant spreads the input's warmup over the defaults at create, read-only fields too (PATCH still ignores them).
    if (ctx.mutant('warmup-readonly-writable-at-create') && isPlainObject(el.warmup)) {
      const sent = el.warmup as Record<string, unknown>;
      for (const k of ['phase', 'startedAt', 'poolAccess']) if (sent[k] !== undefined) (doc.warmup as Record<string, unknown>)[k] = sent[k];
    }
    // The mutant leaves a slow ramp not given unset (a nullable column; 2.2 states no default).
    if (el.campaignSlowRamp === undefined && ctx.mutant('acct-slowramp-null-unset')) doc.campaignSlowRamp = null;
    // The mutants leave a daily cap or a gap not given unset (null read as "no cap", "no gap").
    if (el.maxEmailsPerDay === undefined && ctx.mutant('acct-maxemails-null-unset')) doc.maxEmailsPerDay = null;
    if (el.sendingGapMinutes === undefined && ctx.mutant('acct-sendinggap-null-unset')) doc.sendingGapMinutes = null;
    // The mutant leaves a language not given unset (a nullable column; 2.2 states no default).
    if (el.automationLanguage === undefined && ctx.mutant('acct-autolang-null-unset')) doc.automationLanguage = null;
    if (v.issues.length > 0) return void errors.push({ index, emailAddress, code: 'validation_failed', message: 'The mailbox is invalid.', details: v.issues });
    valid.push({ index, email: email!, doc, secrets, displayNameGiven: typeof el.displayName === 'string' && el.displayName.trim() !== '' });
  });
  // "each element is validated and created independently" (4.2); the mutant refuses the batch.
  if (errors.length > 0 && ctx.mutant('acct-batch-fails-whole')) throw validationFailed(errors.flatMap((e) => e.details ?? [`accounts[${e.index}]: ${e.message}`]));
  const created_: { index: number; id: string }[] = [];
  for (const { index, email, doc, secrets, displayNameGiven } of valid) {
    // The mutants: no default (empty), or none stored at all (null: the name computed when sending).
    if (!displayNameGiven) doc.displayName = ctx.mutant('acct-displayname-no-default') ? '' : ctx.mutant('acct-displayname-null-unset') ? null : `${doc.firstName} ${doc.lastName}`.trim();
    // The mutant keys the store by the address as spelled (a case-sensitive unique column): ann@EXAMPLE.test is another address.
    let lc = ctx.mutant('acct-duplicate-case-sensitive') ? email : email.toLowerCase();
    if (ctx.db.prepare('SELECT 1 FROM accounts WHERE email_lc = ?').get(lc)) {
      if (!ctx.mutant('acct-duplicate-created')) {
        errors.push({ index, emailAddress: email, code: 'conflict', message: 'This email address is already connected.' });
        continue;
      }
      lc = `${lc}#${ctx.newId()}`;
    }
    const id = ctx.newId();
    const now = ctx.clock.stamp();
    // The second mutant "verifies" inline: a mailbox whose SMTP server accepts a connection at once starts active.
    const status = ctx.mutant('acct-new-status-active') || (ctx.mutant('acct-create-reachable-active') && (await accepts((doc.smtp as { host?: unknown } | null)?.host, (doc.smtp as { port?: unknown } | null)?.port))) ? 'active' : 'inactive';
    ctx.db.prepare('INSERT INTO accounts (id, org_id, email_address, email_lc, provider, status, doc, secrets, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, ctx.workspace.id, email, lc, 'custom', status, JSON.stringify(doc), JSON.stringify(secrets), now, now);
    ctx.services.verifier.enqueue(id);
    created_.push({ index, id });
  }
  created_.sort((x, y) => x.index - y.index);
  for (const c of created_) accounts.push(accountView(ctx, loadAccount(ctx, c.id)));
  // The mutant answers the declared default of a maxEmailsPerDay not given, but stores a default of its own (100): a read-back shows that.
  if (ctx.mutant('acct-default-stored-other')) {
    for (const c of created_) {
      if (isPlainObject(list[c.index]) && (list[c.index] as Record<string, unknown>).maxEmailsPerDay !== undefined) continue;
      const d = JSON.parse(loadAccount(ctx, c.id).doc) as Record<string, unknown>;
      ctx.db.prepare('UPDATE accounts SET doc = ? WHERE id = ?').run(JSON.stringify({ ...d, maxEmailsPerDay: d.maxEmailsPerDay === 100 ? 50 : 100 }), c.id);
    }
  }
  errors.sort((x, y) => x.index - y.index);
  const names = ctx.services.choices.batchErrorFields;
  const errorView = ({ index, emailAddress, code, message, details }: (typeof errors)[number]) => code === 'conflict' && ctx.mutant('acct-batch-duplicate-error-raw')
    ? { emailAddress, message } // the mutant's insert path reports a taken address in a shape of its own
    : {
      ...(ctx.mutant('acct-batch-error-no-index') ? {} : { [names.index]: index }),
      [names.emailAddress]: emailAddress, [names.code]: code, [names.message]: message, ...(details ? { details } : {}),
    };
  const summary = ctx.mutant('acct-create-summary-no-failed') ? { submitted: list.length, created: accounts.length } : { submitted: list.length, created: accounts.length, failed: errors.length };
  const answer = { summary, accounts, errors: errors.map(errorView) };
  // The mutant refuses a batch that connected nothing, as if the errors were the request's own.
  if (accounts.length === 0 && errors.length > 0 && ctx.mutant('acct-batch-none-created-400')) throw validationFailed(errors.map((e) => `accounts[${e.index}]: ${e.message}`));
  if (ctx.mutant('acct-create-200')) return ok(answer);
  // 4.2 states 201; a batch that connected nothing may answer another success (choices.ts).
  if (accounts.length === 0) return { status: ctx.services.choices.accountsNoneCreatedStatus, body: answer };
  return created(answer);
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
  if (tags && !ctx.mutant('acct-tags-filter-ignored')) {
    const tagged = (ids: string[]) => `EXISTS (SELECT 1 FROM account_tags at WHERE at.account_id = accounts.id AND at.tag_id IN (${ids.map(() => '?').join(',')}))`;
    // Several tag ids: any of them, or each of them (choices.mailboxTagMatch).
    const groups = ctx.services.choices.mailboxTagMatch === 'all' ? tags.map((t) => [t]) : [tags];
    for (const g of groups) (where.push(tagged(g)), params.push(...g));
  }
  const stale = ctx.mutant('evt-listing-stale');
  const item = (r: AccountRow) => listItem(ctx, accountView(ctx, r));
  return ok(ctx.page<AccountRow>({ list: 'accounts', from: 'accounts', where: where.join(' AND '), params, map: (r) => (stale ? { ...item(r), status: 'inactive' } : item(r)) }));
};

/** Fields of a mailbox a summary list item keeps (choices.mailboxListItem). */
const SUMMARY_FIELDS = ['id', 'emailAddress', 'firstName', 'lastName', 'displayName', 'provider', 'status', 'tags', 'healthScore', 'createdAt', 'updatedAt'];

/** A mailbox as GET /v1/accounts lists it: whole, or its summary (choices.mailboxListItem). */
function listItem(ctx: Ctx, view: Record<string, unknown>): Record<string, unknown> {
  return ctx.services.choices.mailboxListItem === 'summary' ? Object.fromEntries(SUMMARY_FIELDS.filter((k) => k in view).map((k) => [k, view[k]])) : view;
}

export const get: Handler = async (ctx) => ok(shapeItem(ctx.services.choices, 'accounts.get', accountView(ctx, loadAccount(ctx, ctx.params.id!))));

const CREDENTIAL_FIELDS = ['smtpHost', 'smtpPort', 'smtpUsername', 'smtpPassword', 'imapHost', 'imapPort', 'imapUsername', 'imapPassword', 'imapAllowInvalidCert'];

export const patch: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  const b = bodyObject(ctx.body);
  const v = new V();
  const emailMutable = ctx.mutant('acct-email-mutable');
  const emailChange = emailMutable ? v.str(b, 'emailAddress', { max: 254 }) : undefined;
  // The address cannot change; sending back the same address (e.g. a mailbox read earlier) is no change.
  const sameAddress = typeof b.emailAddress === 'string' && b.emailAddress.toLowerCase() === r.email_address.toLowerCase();
  if (b.emailAddress !== undefined && !sameAddress && !emailMutable) v.issue('emailAddress', 'cannot be changed after creation');
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  const secrets = JSON.parse(r.secrets) as Record<string, string>;
  // The mutant resets the settings a PATCH leaves out to their defaults.
  if (ctx.mutant('acct-patch-resets-unsupplied')) Object.assign(doc, ctx.services.choices.mailboxDefaults);
  // The mutant reuses the create rules for a PATCH without warmup: warmup back ON with its defaults,
  // signature, bcc and Reply-To cleared, slow ramp and language back to their defaults.
  if (b.warmup === undefined && ctx.mutant('acct-patch-omitted-to-create-defaults')) {
    const { campaignSlowRamp, automationLanguage } = ctx.services.choices.mailboxDefaults;
    Object.assign(doc, { warmup: defaultWarmup(ctx), signature: '', bcc: '', replyToAddress: r.email_address, campaignSlowRamp, automationLanguage });
  }
  // The mutants drop replyToAddress, signature or tracking from a PATCH without a word.
  const dropped = {
    ...b,
    ...(ctx.mutant('acct-patch-replyto-ignored') ? { replyToAddress: undefined } : {}),
    ...(ctx.mutant('acct-patch-signature-ignored') ? { signature: undefined } : {}),
    ...(ctx.mutant('acct-patch-tracking-ignored') ? { tracking: undefined } : {}),
  };
  applySettings(ctx, v, dropped, doc);
  // The mutant calls the sanitizer in the create handler only: a PATCHed signature is stored as given.
  if (typeof b.signature === 'string' && ctx.mutant('acct-signature-patch-unsanitized')) doc.signature = b.signature;
  const credentialKeys = CREDENTIAL_FIELDS.filter((k) => b[k] !== undefined);
  if (r.provider !== 'custom' && credentialKeys.length > 0)
    for (const k of credentialKeys) v.issue(k, `an OAuth (${r.provider}) mailbox has no SMTP/IMAP credentials; reconnect it through OAuth`);
  // The mutant takes new credentials (and re-verifies) but stores none of them.
  const keepOld = ctx.mutant('acct-patch-creds-not-stored');
  const rotated = applyCredentials(ctx, v, b, keepOld ? structuredClone(doc) : doc, keepOld ? { ...secrets } : secrets, false);
  v.done();
  // Tags are read-only here (2.1); the mutants let a PATCH replace them with the workspace's tags it
  // names (the second only a non-empty list: `[]` read as "no change").
  const tagsWritable = ctx.mutant('acct-tags-patch-writable') || (ctx.mutant('acct-tags-patch-nonempty-writable') && Array.isArray(b.tags) && b.tags.length > 0);
  if (Array.isArray(b.tags) && tagsWritable) {
    const ids = (b.tags as unknown[]).map((t) => (isPlainObject(t) ? t.id : t)).filter((t) => typeof t === 'string' && ctx.db.prepare('SELECT 1 FROM tags WHERE id = ? AND org_id = ?').get(t, r.org_id));
    ctx.db.prepare('DELETE FROM account_tags WHERE account_id = ?').run(r.id);
    for (const t of new Set(ids)) ctx.db.prepare('INSERT INTO account_tags (account_id, tag_id) VALUES (?, ?)').run(r.id, t);
  }
  let status = r.status;
  // The mutants: re-verify on any PATCH, a change of settings alone included; re-verify only for smtp* fields (imap* forgotten);
  // re-verify only when a server changes (a password alone is stored, and the last outcome kept).
  const triggers = rotated && (!ctx.mutant('acct-patch-imap-no-reverify') || credentialKeys.some((k) => k.startsWith('smtp')))
    && (!ctx.mutant('acct-patch-password-no-reverify') || credentialKeys.some((k) => !k.endsWith('Password')));
  const reverify = (triggers || ctx.mutant('acct-patch-settings-reverify')) && !ctx.mutant('acct-patch-no-reverify');
  if (reverify) {
    doc.verification = pendingVerification();
    // A paused mailbox stays inactive (3.2: only a resume re-activates it); revoked stays revoked.
    if (!doc.paused && status !== 'revoked') status = 'checking';
  }
  // The mutants' UPDATE misses maxEmailsPerDay, or the warmup object, while the answer is built from the patched mailbox.
  const unstored = ctx.mutant('acct-patch-answer-not-stored');
  const before = JSON.parse(r.doc) as Record<string, unknown>;
  const warmupUnstored = !unstored && ctx.mutant('warmup-patch-answer-not-stored');
  const stored = unstored ? { ...doc, maxEmailsPerDay: before.maxEmailsPerDay } : warmupUnstored ? { ...doc, warmup: before.warmup } : doc;
  ctx.db.transaction(() => {
    ctx.db.prepare('UPDATE accounts SET doc = ?, secrets = ?, status = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(stored), JSON.stringify(secrets), status, ctx.clock.now(), r.id);
    if (emailChange !== undefined) ctx.db.prepare('UPDATE accounts SET email_address = ?, email_lc = ? WHERE id = ?').run(emailChange, `${emailChange.toLowerCase()}#${r.id}`, r.id);
    if (reverify) ctx.services.verifier.enqueue(r.id);
  })();
  // The mutant answers the mailbox as it was before the PATCH.
  const after = loadAccount(ctx, r.id);
  return ok(accountView(ctx, ctx.mutant('acct-patch-answers-before') ? r : unstored || warmupUnstored ? { ...after, doc: JSON.stringify(doc) } : after));
};

export const remove: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  ctx.db.transaction(() => {
    if (ctx.mutant('send-deleted-mailbox-sends')) return; // "deleted" later, its queue keeps going
    ctx.db.prepare('DELETE FROM account_tags WHERE account_id = ?').run(r.id);
    // Mutant: the row is moved out of the workspace (no API read sees it) and kept for its threads.
    if (ctx.mutant('send-followups-from-deleted-mailbox')) ctx.db.prepare('UPDATE accounts SET org_id = ? WHERE id = ?').run(deletedOrg(ctx.workspace.id), r.id);
    // Mutant: an active mailbox (one with history) is only stopped, and stays readable.
    else if (r.status === 'active' && ctx.mutant('send-deleted-mailbox-readable')) ctx.db.prepare("UPDATE accounts SET status = 'inactive' WHERE id = ?").run(r.id);
    else ctx.db.prepare('DELETE FROM accounts WHERE id = ?').run(r.id);
    ctx.services.verifier.cancel(r.id);
    // Sending stops immediately: no campaign keeps the mailbox among its senders.
    const rows = ctx.db.prepare('SELECT id, doc FROM campaigns WHERE org_id = ?').all(ctx.workspace.id) as { id: string; doc: string }[];
    for (const c of rows) {
      const doc = JSON.parse(c.doc) as { accounts: string[]; formerAccounts?: string[] };
      if (!doc.accounts.includes(r.id)) continue;
      doc.accounts = doc.accounts.filter((a) => a !== r.id);
      doc.formerAccounts = [...(doc.formerAccounts ?? []), r.id];
      ctx.db.prepare('UPDATE campaigns SET doc = ? WHERE id = ?').run(JSON.stringify(doc), c.id);
    }
  })();
  return ok({ id: r.id, deleted: true });
};

export const pause: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  // The mutant's "already paused" rule refuses only an inactive mailbox (a failed or checking one is paused).
  const notPausable = ctx.mutant('acct-pause-only-inactive-refused') ? r.status === 'inactive' : r.status !== 'active';
  // The mutant's mailbox handler refuses with a business code of its own (the campaign refusals keep the declared one).
  // The mutant reads the refusal as a state conflict of the table (409 conflict), not the 400 of part 7.
  if (notPausable && ctx.mutant('acct-pause-not-active-409')) throw new ApiError(409, 'conflict', `Only an active mailbox can be paused (this one is ${r.status}).`);
  if (notPausable && ctx.mutant('acct-pause-refusal-own-code')) throw new ApiError(400, 'invalid_state', `Only an active mailbox can be paused (this one is ${r.status}).`);
  if (notPausable && !ctx.mutant('acct-pause-inactive-allowed')) throw failedPrecondition(`Only an active mailbox can be paused (this one is ${r.status}).`);
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  // The mutant does not remember the pause: a background re-check makes the mailbox active again.
  const recheck = ctx.mutant('acct-pause-rechecked-active');
  doc.paused = !recheck;
  ctx.db.prepare("UPDATE accounts SET status = 'inactive', doc = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(doc), ctx.clock.now(), r.id);
  const answer = ok(accountView(ctx, loadAccount(ctx, r.id)));
  if (recheck) ctx.services.verifier.enqueue(r.id);
  return answer;
};

export const resume: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  if (r.status !== 'inactive' && r.status !== 'failed') throw stateConflict(`Only an inactive or failed mailbox can be resumed (this one is ${r.status}).`);
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  doc.paused = false;
  if (ctx.mutant('acct-resume-no-reverify') || (ctx.mutant('acct-oauth-resume-no-reverify') && r.provider !== 'custom')) {
    ctx.db.prepare("UPDATE accounts SET status = 'active', doc = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(doc), ctx.clock.now(), r.id);
    return ok(shapeItem(ctx.services.choices, 'accounts.resume', accountView(ctx, loadAccount(ctx, r.id))));
  }
  doc.verification = pendingVerification();
  ctx.db.transaction(() => {
    ctx.db.prepare("UPDATE accounts SET status = 'checking', doc = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(doc), ctx.clock.now(), r.id);
    ctx.services.verifier.enqueue(r.id);
  })();
  return ok(shapeItem(ctx.services.choices, 'accounts.resume', accountView(ctx, loadAccount(ctx, r.id))));
};

export const verification: Handler = async (ctx) => {
  const r = loadAccount(ctx, ctx.params.id!);
  const ver = (JSON.parse(r.doc) as { verification: VerificationDoc }).verification;
  const out: Record<string, unknown> = {
    overallStatus: ver.overallStatus, smtp: { status: ver.smtp, error: ver.smtpError ?? null }, imap: { status: ver.imap, error: ver.imapError ?? null },
    dns: ver.dns,
  };
  // A mailbox never verified yet has no lastVerifiedAt (omitted rather than null).
  if (ver.lastVerifiedAt) out.lastVerifiedAt = ver.lastVerifiedAt;
  // The mutants write a verified SMTP result without error by a path of their own: the error key left out, or the status alone.
  const clean = Boolean(ver.lastVerifiedAt) && ver.smtpError == null;
  if (clean && ctx.mutant('verif-endpoint-ok-error-omitted')) out.smtp = { status: ver.smtp };
  if (clean && ctx.mutant('verif-endpoint-ok-status-string')) out.smtp = ver.smtp;
  // The mutant answers a verification that ran from its stored record (another serializer): the overall outcome named status.
  if (ver.lastVerifiedAt && ctx.mutant('verif-ran-overall-as-status')) {
    out.status = out.overallStatus;
    delete out.overallStatus;
  }
  // The mutants answer a failed SMTP check's imap (never tried once SMTP failed) as null, or leave it out.
  const smtpFailed = Boolean(ver.lastVerifiedAt) && ver.smtpError != null;
  if (smtpFailed && ctx.mutant('verif-failed-imap-null')) out.imap = null;
  if (smtpFailed && ctx.mutant('verif-failed-imap-omitted')) delete out.imap;
  // The same for a verified IMAP result without error: the status string alone.
  if (Boolean(ver.lastVerifiedAt) && ver.imapError == null && ctx.mutant('verif-endpoint-ok-imap-status-string')) out.imap = ver.imap;
  return ok(out);
};

function provider(ctx: Ctx): 'google' | 'microsoft' {
  const p = ctx.params.provider;
  if (p !== 'google' && p !== 'microsoft') throw validationFailed(['provider: must be google or microsoft']);
  return p;
}

export const oauthInit: Handler = async (ctx) => {
  // The mutants start a consent for whatever provider the path names, or for `custom` (its URL is Microsoft's).
  const custom = ctx.params.provider === 'custom' && ctx.mutant('acct-oauth-provider-custom');
  const p = ctx.mutant('acct-oauth-any-provider') || custom ? (ctx.params.provider as 'microsoft') : provider(ctx);
  // The mutant knows only Google: an init for Microsoft is refused.
  if (p === 'microsoft' && ctx.mutant('acct-oauth-microsoft-refused')) throw validationFailed(['provider: must be google']);
  const state = ctx.newId().replace(/-/g, '') + ctx.newId().replace(/-/g, '');
  const now = ctx.clock.now();
  // The mutant's state store keeps a state two thirds of the lifetime init advertises.
  const keptS = ctx.mutant('acct-oauth-state-store-shorter') ? (OAUTH_STATE_TTL_S * 2) / 3 : OAUTH_STATE_TTL_S;
  ctx.db.prepare('INSERT INTO oauth_states (state, org_id, provider, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(state, ctx.workspace.id, p, now, now + keptS * 1000);
  // The provider's consent page (consent itself is simulated by the control API's
  // POST /oauth/{provider}/consent, which plays the provider's redirect back to the service).
  const url = new URL(p === 'google' ? 'https://accounts.google.com/o/oauth2/v2/auth' : 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize');
  url.searchParams.set('client_id', 'outreach-reference');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', `https://outreach-reference.invalid/oauth/${p}/callback`);
  url.searchParams.set('scope', p === 'google' ? 'https://mail.google.com/ email profile' : 'https://outlook.office.com/SMTP.Send https://outlook.office.com/IMAP.AccessAsUser.All offline_access email');
  if (p === 'google') {
    url.searchParams.set('access_type', 'offline');
    url.searchParams.set('prompt', 'consent');
  }
  url.searchParams.set('state', state);
  // The mutant answers the lifetime in milliseconds under a name that says seconds.
  // The mutant answers an encoded copy of the state (base64url), not the handle the flow is kept under.
  const answered = ctx.mutant('acct-oauth-state-answer-encoded') ? Buffer.from(state).toString('base64url') : state;
  return ok({ authorizationUrl: url.toString(), state: answered, expiresInSeconds: ctx.mutant('acct-oauth-expiry-in-ms') ? OAUTH_STATE_TTL_S * 1000 : OAUTH_STATE_TTL_S });
};

/** The address of a mailbox (null once it is deleted). */
function addressOf(ctx: Ctx, id: string): string | null {
  return (ctx.db.prepare('SELECT email_address FROM accounts WHERE id = ?').get(id) as { email_address: string } | undefined)?.email_address ?? null;
}

export const oauthStatus: Handler = async (ctx) => {
  const p = provider(ctx);
  // The mutant reads the state under another query parameter (`oauthState`): the declared one is not seen.
  const state = ctx.query.get(ctx.mutant('acct-oauth-status-state-renamed') ? 'oauthState' : 'state');
  if (!state) throw validationFailed(['state: is required']);
  const s = ctx.db.prepare('SELECT * FROM oauth_states WHERE state = ? AND org_id = ? AND provider = ?').get(state, ctx.workspace.id, p) as
    { account_id: string | null; expires_at: number } | undefined;
  if (!s) throw notFound('No OAuth flow with this state.');
  const answer = (x: Record<string, unknown>) => ok(shapeResult(ctx.services.choices, 'accounts.oauthStatus', x));
  // The mutant answers a completed flow without naming the mailbox it connected.
  // A poll whose declared result has no accountId names the mailbox by its address (choices.operations).
  if (s.account_id && !ctx.services.choices.operations['accounts.oauthStatus'].result?.accountId) return answer({ status: 'completed', emailAddress: addressOf(ctx, s.account_id) });
  if (s.account_id) return answer(ctx.mutant('acct-oauth-status-no-account') ? { status: 'completed' } : { status: 'completed', accountId: s.account_id });
  if (ctx.clock.now() >= s.expires_at && !ctx.mutant('acct-oauth-state-never-expires')) return answer({ status: 'expired' });
  return answer({ status: 'pending' });
};
