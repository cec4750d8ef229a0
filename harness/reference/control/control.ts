// The conformance control API v1 (docs/ARCHITECTURE.md, "Control API v1"), on its own port, Bearer control token.
// Errors use the spec's envelope (never affected by mutants); unknown paths answer 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { ApiError, notFound, unauthenticated, validationFailed, failedPrecondition } from '../request/errors.ts';
import { Router, readBody, send, type Outgoing } from '../http/server.ts';
import { errorOutgoing, jsonOutgoing, parseTarget } from '../http/app.ts';
import { type Services, type Reply } from '../request/context.ts';
import { LIMIT_TYPES, type LimitType } from '../domain/workspace.ts';
import { insertKey, insertWorkspace, loadWorkspace, saveWorkspacePlan } from '../store/store.ts';
import { V, bodyObject, isTimezone, isUuid, isEmail } from '../request/validate.ts';
import { LEAD_SEARCH_STATUSES, TERMINAL_SEARCH_STATUSES, leadSearchView, loadLeadSearch } from '../resources/lead-searches.ts';
import { randomUUID } from 'node:crypto';
import { KNOWN_SCOPES } from '../request/scopes.ts';
import { LEAD_SEARCH_AFTER_DISCOVERY } from '../switches/choices.ts';

const noMutant = () => false;
/** The control clock never moves past the end of year 9999. */
const CLOCK_END_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

export interface ControlCtx {
  s: Services;
  params: Record<string, string>;
  body: unknown;
  query: URLSearchParams;
  /** The optional extensions this control API offers (GET /capabilities; the others answer 404). */
  extensions: readonly string[];
  /** Where drains wait their turn (the `drain` choice). */
  drains: DrainLine;
}
type ControlHandler = (c: ControlCtx) => Promise<Reply> | Reply;
interface ControlRoute { method: string; path: string; handler: ControlHandler; /** offered only with this optional extension */ extension?: string }

const planState = (s: Services, id: string) => {
  const w = loadWorkspace(s.db, id)!;
  return { organizationId: w.id, name: w.name, timezone: w.timezone, plan: w.plan, apiAccess: w.apiAccess, limits: w.limits, used: w.used };
};

const requireWorkspace = (s: Services, id: string) => {
  const w = isUuid(id) ? loadWorkspace(s.db, id) : null;
  if (!w) throw notFound(`No workspace ${id}.`);
  return w;
};

function setTags(c: ControlCtx, table: 'accounts' | 'campaigns', link: 'account_tags' | 'campaign_tags', col: 'account_id' | 'campaign_id'): Reply {
  const id = c.params.id!;
  const owner = isUuid(id) ? (c.s.db.prepare(`SELECT org_id FROM ${table} WHERE id = ?`).get(id) as { org_id: string } | undefined) : undefined;
  if (!owner) throw notFound(`No ${table === 'accounts' ? 'mailbox' : 'campaign'} ${id}.`);
  const b = bodyObject(c.body);
  if (!Array.isArray(b.tagIds) || b.tagIds.some((t) => !isUuid(t))) throw validationFailed(['tagIds: must be an array of tag ids']);
  const ids = [...new Set(b.tagIds as string[])];
  const missing = ids.filter((t) => !c.s.db.prepare('SELECT 1 FROM tags WHERE id = ? AND org_id = ?').get(t, owner.org_id));
  if (missing.length) throw validationFailed(missing.map((t) => `tagIds: no tag ${t} in the workspace`));
  c.s.db.transaction(() => {
    c.s.db.prepare(`DELETE FROM ${link} WHERE ${col} = ?`).run(id);
    for (const t of ids) c.s.db.prepare(`INSERT INTO ${link} (${col}, tag_id) VALUES (?, ?)`).run(id, t);
  })();
  const tags = c.s.db.prepare(`SELECT t.id, t.name, t.color FROM ${link} l JOIN tags t ON t.id = l.tag_id WHERE l.${col} = ? ORDER BY t.created_at, t.id`).all(id);
  return { status: 200, body: { id, tags } };
}

/** Optional extensions of control API v1 this reference offers (answered by GET /capabilities). */
export const CONTROL_EXTENSIONS = ['workspace-keys', 'lead-events', 'blacklist', 'email-unreadable', 'scoped-drain'] as const;

/** Every control route (the 401 test walks this table, so a new route cannot be forgotten). */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  { method: 'GET', path: '/capabilities', handler: (c) => ({ status: 200, body: { version: 1, extensions: [...c.extensions] } }) },
  {
    method: 'POST', path: '/workspaces', handler: (c) => {
      const b = c.body === undefined ? {} : bodyObject(c.body);
      const v = new V();
      const name = v.str(b, 'name', { max: 255, nonEmpty: true });
      if (b.timezone !== undefined && !isTimezone(b.timezone)) v.issue('timezone', 'must be an IANA timezone');
      v.done();
      const id = randomUUID();
      const ws = insertWorkspace(c.s.db, { id, name: name ?? `Workspace ${id.slice(0, 8)}`, timezone: (b.timezone as string | undefined) ?? 'UTC', createdAt: c.s.clock.stamp() });
      const { key, secret } = insertKey(c.s.db, { orgId: ws.id, name: 'control', scopes: ['all:all', 'apikeys:manage'], createdAt: c.s.clock.stamp() });
      return { status: 201, body: { organizationId: ws.id, name: ws.name, timezone: ws.timezone, apiKey: secret, apiKeyId: key.id } };
    },
  },
  {
    method: 'PATCH', path: '/workspaces/{organizationId}', handler: (c) => {
      const ws = requireWorkspace(c.s, c.params.organizationId!);
      const b = bodyObject(c.body);
      const v = new V();
      const apiAccess = v.bool(b, 'apiAccess');
      const plan = v.str(b, 'plan', { nonEmpty: true, max: 64 });
      for (const part of ['limits', 'used'] as const) {
        if (b[part] === undefined) continue;
        const o = v.object(b[part], part);
        if (!o) continue;
        for (const [k, val] of Object.entries(o)) {
          if (!(LIMIT_TYPES as readonly string[]).includes(k)) v.issue(`${part}.${k}`, `unknown limit type; one of ${LIMIT_TYPES.join(', ')}`);
          else if (part === 'limits' && val === null) ws.limits[k as LimitType] = null;
          else if (typeof val !== 'number' || !Number.isFinite(val) || val < 0) v.issue(`${part}.${k}`, part === 'limits' ? 'must be a number >= 0 or null' : 'must be a number >= 0');
          else if (part === 'limits') ws.limits[k as LimitType] = val;
          else ws.used[k as LimitType] = val;
        }
      }
      v.done();
      if (apiAccess !== undefined) ws.apiAccess = apiAccess;
      if (plan !== undefined) ws.plan = plan;
      saveWorkspacePlan(c.s.db, ws);
      return { status: 200, body: planState(c.s, ws.id) };
    },
  },
  {
    // Extension of the control API v1 (not in the table of docs/ARCHITECTURE.md, "Control API v1"): what "the dashboard" does,
    // create a key with any scopes, apikeys:manage included.
    method: 'POST', path: '/workspaces/{organizationId}/keys', extension: 'workspace-keys', handler: (c) => {
      const ws = requireWorkspace(c.s, c.params.organizationId!);
      const b = bodyObject(c.body);
      const v = new V();
      const name = v.str(b, 'name', { nonEmpty: true, max: 255 }) ?? 'dashboard';
      if (!Array.isArray(b.scopes) || b.scopes.length === 0 || b.scopes.some((x) => typeof x !== 'string' || !KNOWN_SCOPES.has(x)))
        v.issue('scopes', 'must be a non-empty array of known scopes');
      v.done();
      const { key, secret } = insertKey(c.s.db, { orgId: ws.id, name, scopes: [...new Set(b.scopes as string[])], createdAt: c.s.clock.stamp() });
      return { status: 201, body: { id: key.id, name: key.name, scopes: key.scopes, key: secret, createdAt: new Date(key.createdAt).toISOString() } };
    },
  },
  { method: 'GET', path: '/clock', handler: (c) => ({ status: 200, body: { now: c.s.clock.iso() } }) },
  {
    method: 'POST', path: '/clock/advance', handler: (c) => {
      const b = bodyObject(c.body);
      const v = new V();
      const seconds = v.num(b, 'seconds', { required: true });
      if (seconds !== undefined && seconds <= 0) v.issue('seconds', 'must be > 0');
      // Bounded so the clock stays a valid date (past year 275760 every timestamp would throw).
      else if (seconds !== undefined && c.s.clock.now() + seconds * 1000 > CLOCK_END_MS) v.issue('seconds', 'would move the clock past 9999-12-31');
      v.done();
      c.s.clock.advance(seconds!);
      return { status: 200, body: { now: c.s.clock.iso() } };
    },
  },
  {
    method: 'POST', path: '/work/drain', handler: async (c) => {
      const b = c.body === undefined ? {} : bodyObject(c.body);
      const v = new V();
      const timeoutMs = v.num(b, 'timeoutMs', { min: 0, max: 600_000 }) ?? 30_000;
      // scoped-drain: wait only for that workspace's work (everyone's due work still starts).
      const organizationId = c.extensions.includes('scoped-drain') ? v.str(b, 'organizationId') : undefined;
      v.done();
      // The `serialized` choice: each drain waits its turn; its timeoutMs counts from its turn.
      const processed = await c.drains.run(() => drainRounds(c.s, timeoutMs, organizationId, c.drains.serialized));
      return { status: 200, body: { processed } };
    },
  },
  {
    method: 'POST', path: '/accounts/{id}/revoke-oauth', handler: (c) => {
      const id = c.params.id!;
      const r = isUuid(id) ? (c.s.db.prepare('SELECT id, provider, status FROM accounts WHERE id = ?').get(id) as { id: string; provider: string; status: string } | undefined) : undefined;
      if (!r) throw notFound(`No mailbox ${id}.`);
      if (r.provider === 'custom') throw failedPrecondition('Not an OAuth mailbox.');
      // The second mutant notices a withdrawn grant only on a mailbox in use (active): a paused one stays inactive.
      if (!c.s.mutant('acct-revoke-ignored') && !(r.status !== 'active' && c.s.mutant('acct-revoke-active-only'))) {
        // What the service sees when the grant is withdrawn: the provider refuses the token refresh.
        const row = c.s.db.prepare('SELECT doc FROM accounts WHERE id = ?').get(id) as { doc: string };
        const doc = JSON.parse(row.doc) as Record<string, unknown>;
        doc.statusMessage = {
          code: 'invalid_grant', command: 'TOKEN_REFRESH', responseCode: 400,
          response: '{"error":"invalid_grant","error_description":"Token has been expired or revoked."}',
          message: `The ${r.provider} OAuth grant was withdrawn; reconnect the mailbox.`, occurredAt: c.s.clock.iso(),
        };
        // The mutant retries the grant in the background (verify.ts reads retryGrant): the mailbox comes back by itself.
        const retry = c.s.mutant('acct-revoked-comes-back');
        // The other mutant retries it only after an hour's backoff: seen only once the clock has moved on.
        const later = c.s.mutant('acct-revoked-retried-later');
        if (retry || later) doc.retryGrant = true;
        c.s.db.prepare("UPDATE accounts SET status = 'revoked', doc = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(doc), c.s.clock.now(), id);
        if (retry) c.s.verifier.enqueue(id);
        if (later) c.s.verifier.enqueue(id, 3_600_000);
      }
      return { status: 200, body: { id, status: 'revoked' } };
    },
  },
  {
    method: 'POST', path: '/oauth/{provider}/consent', handler: (c) => {
      const b = bodyObject(c.body);
      const v = new V();
      const state = v.str(b, 'state', { required: true, nonEmpty: true });
      const email = v.str(b, 'emailAddress', { required: true, max: 254 });
      if (email !== undefined && !isEmail(email)) v.issue('emailAddress', 'must be an email address');
      v.done();
      const st = c.s.db.prepare('SELECT * FROM oauth_states WHERE state = ? AND provider = ?').get(state, c.params.provider) as
        { org_id: string; provider: string; expires_at: number; account_id: string | null } | undefined;
      if (!st) throw notFound('No OAuth flow with this state.');
      if (st.account_id) return { status: 200, body: { accountId: st.account_id } };
      if (c.s.clock.now() >= st.expires_at) throw failedPrecondition('The OAuth flow has expired.');
      const lc = email!.toLowerCase();
      if (c.s.db.prepare('SELECT 1 FROM accounts WHERE email_lc = ?').get(lc)) throw new ApiError(409, 'conflict', 'This email address is already connected.');
      const ws = loadWorkspace(c.s.db, st.org_id)!;
      const id = randomUUID();
      const now = c.s.clock.stamp();
      const [local] = email!.split('@');
      const google = st.provider === 'google';
      // An OAuth mailbox is connected by the grant itself: active at once, no password stored.
      const doc = {
        // The mutant stores no names for an OAuth mailbox (its connect has no name input): null, not strings.
        ...(c.s.mutant('acct-oauth-names-null') ? { firstName: null, lastName: null } : { firstName: local, lastName: '' }), displayName: local, maxEmailsPerDay: 50, sendingGapMinutes: 10, campaignSlowRamp: false,
        replyToAddress: email, signature: '', bcc: '', automationLanguage: 'en',
        warmup: { enabled: true, strategy: 'standard', maxPerDay: 20, replyRatePercentage: 30, rampupEnabled: true, dailyRampup: 2, randomizer: 20, skipWeekends: false, timezone: ws.timezone, trackingEnabled: false, phase: 'warming_up', startedAt: new Date(now).toISOString(), poolAccess: 'free' },
        tracking: {}, statusMessage: null, healthScore: 100, paused: false, imapAllowInvalidCert: false,
        // The mutant stores no SMTP settings for an OAuth mailbox (it sends through the provider's grant).
        smtp: c.s.mutant('acct-oauth-smtp-null') ? null : { host: google ? 'smtp.gmail.com' : 'smtp.office365.com', port: 587, username: email },
        imap: { host: google ? 'imap.gmail.com' : 'outlook.office365.com', port: 993, username: email },
        verification: { overallStatus: 'active', smtp: 'active', imap: 'active', dns: { mx: 'not_checked', spf: 'not_checked', dkim: 'not_checked', dmarc: 'not_checked' }, lastVerifiedAt: new Date(now).toISOString(), smtpError: null, imapError: null },
      };
      c.s.db.transaction(() => {
        c.s.db.prepare('INSERT INTO accounts (id, org_id, email_address, email_lc, provider, status, doc, secrets, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(id, st.org_id, email, lc, st.provider, 'active', JSON.stringify(doc), '{}', now, now);
        c.s.db.prepare('UPDATE oauth_states SET account_id = ? WHERE state = ?').run(id, state);
      })();
      return { status: 200, body: { accountId: id } };
    },
  },
  {
    // Extension `blacklist`: what the dashboard does to the workspace's blacklist (an address or
    // a domain); the test email refuses such recipients (4.3).
    method: 'POST', path: '/workspaces/{organizationId}/blacklist', extension: 'blacklist', handler: (c) => {
      const ws = requireWorkspace(c.s, c.params.organizationId!);
      const b = bodyObject(c.body);
      const v = new V();
      const value = v.str(b, 'value', { required: true, nonEmpty: true, max: 254 });
      v.done();
      c.s.db.prepare('INSERT OR IGNORE INTO blacklist (org_id, value) VALUES (?, ?)').run(ws.id, value!.trim().toLowerCase());
      return { status: 201, body: { value: value!.trim().toLowerCase() } };
    },
  },
  {
    // Extension `email-unreadable`: the stored body of one email cannot be read from now on (as
    // when the mail store is down), so GET /v1/emails/{id} answers 503 (4.5).
    method: 'POST', path: '/emails/{id}/unreadable', extension: 'email-unreadable', handler: (c) => {
      const id = c.params.id!;
      const r = isUuid(id) ? (c.s.db.prepare('SELECT doc FROM emails WHERE id = ?').get(id) as { doc: string } | undefined) : undefined;
      if (!r) throw notFound(`No email ${id}.`);
      const doc = JSON.parse(r.doc) as Record<string, unknown>;
      doc.unreadable = true;
      c.s.db.prepare('UPDATE emails SET doc = ? WHERE id = ?').run(JSON.stringify(doc), id);
      return { status: 200, body: { id, unreadable: true } };
    },
  },
  {
    method: 'POST', path: '/workspaces/{organizationId}/tags', handler: (c) => {
      const ws = requireWorkspace(c.s, c.params.organizationId!);
      const b = bodyObject(c.body);
      const v = new V();
      const name = v.str(b, 'name', { required: true, nonEmpty: true, max: 128 });
      const color = v.str(b, 'color', { required: true });
      if (color !== undefined && !/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color)) v.issue('color', 'must be a hex color such as #1a2b3c');
      v.done();
      const id = randomUUID();
      c.s.db.prepare('INSERT INTO tags (id, org_id, name, color, created_at) VALUES (?, ?, ?, ?, ?)').run(id, ws.id, name, color, c.s.clock.stamp());
      return { status: 201, body: { id, name, color } };
    },
  },
  {
    // Extension of the control API v1 (not in the table of docs/ARCHITECTURE.md, "Control API v1"): what the send path and the
    // IMAP poller record about a lead, for checks of the 3.3 rules without sending mail.
    // `contacted`: an email went to the lead (lastContactedAt, metrics.sent, status email_sent
    // unless a user status is set); `replied`: the lead answered (also contacted; lastRepliedAt,
    // metrics.replied, status replied unless a user status is set).
    method: 'POST', path: '/leads/{id}/events', extension: 'lead-events', handler: (c) => {
      const id = c.params.id!;
      const r = isUuid(id) ? (c.s.db.prepare('SELECT * FROM leads WHERE id = ? AND deleted_at IS NULL').get(id) as { id: string; status: string; doc: string; last_contacted_at: number | null } | undefined) : undefined;
      if (!r) throw notFound(`No lead ${id}.`);
      const b = bodyObject(c.body);
      const v = new V();
      const type = v.oneOf(b, 'type', ['contacted', 'replied'] as const, true);
      v.done();
      const now = c.s.clock.now();
      const doc = JSON.parse(r.doc) as { metrics: Record<string, number>; sequenceProgress: Record<string, unknown> };
      const platform = [c.s.choices.newLeadStatus, 'email_sent', 'replied'].includes(r.status);
      let status = r.status;
      if (type === 'contacted' || r.last_contacted_at === null) {
        doc.metrics.sent = (doc.metrics.sent ?? 0) + 1;
        if (platform) status = 'email_sent';
      }
      if (type === 'replied') {
        doc.metrics.replied = (doc.metrics.replied ?? 0) + 1;
        if (platform) status = 'replied';
      }
      c.s.db.prepare(`UPDATE leads SET status = ?, doc = ?, last_contacted_at = ?${type === 'replied' ? ', last_replied_at = ?' : ''}, updated_at = ? WHERE id = ?`)
        .run(...(type === 'replied' ? [status, JSON.stringify(doc), now, now, now, id] : [status, JSON.stringify(doc), now, now, id]));
      return { status: 200, body: { id, status, lastContactedAt: new Date(now).toISOString() } };
    },
  },
  { method: 'PUT', path: '/accounts/{id}/tags', handler: (c) => setTags(c, 'accounts', 'account_tags', 'account_id') },
  { method: 'PUT', path: '/campaigns/{id}/tags', handler: (c) => setTags(c, 'campaigns', 'campaign_tags', 'campaign_id') },
  {
    method: 'POST', path: '/lead-searches', handler: (c) => {
      const b = bodyObject(c.body);
      const v = new V();
      const orgId = v.uuid(b, 'organizationId', true);
      const query = v.str(b, 'query', { required: true, nonEmpty: true, max: 1000 });
      const mode = v.oneOf(b, 'searchMode', ['companies', 'people'] as const, true);
      const max = v.int(b, 'maxResults', { required: true, min: 1, max: 100_000 });
      const status = v.oneOf(b, 'status', ['draft', 'queued'] as const) ?? 'queued';
      v.done();
      requireWorkspace(c.s, orgId!);
      const id = randomUUID();
      const now = c.s.clock.stamp();
      c.s.db.prepare(
        'INSERT INTO lead_searches (id, org_id, query, status, search_mode, max_results, discovery_finished, progress, error_message, completed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, NULL, ?, ?)',
      ).run(id, orgId, query, status, mode, max, JSON.stringify({ companiesFound: 0, companiesProcessed: 0, emailsFound: 0 }), now, now);
      return { status: 201, body: leadSearchView(loadLeadSearch(c.s.db, id)!) };
    },
  },
  {
    method: 'POST', path: '/lead-searches/{id}/advance', handler: (c) => {
      const r = isUuid(c.params.id) ? loadLeadSearch(c.s.db, c.params.id!) : undefined;
      if (!r) throw notFound(`No lead search ${c.params.id}.`);
      const b = bodyObject(c.body);
      const v = new V();
      const status = v.oneOf(b, 'status', LEAD_SEARCH_STATUSES, true);
      const progress = JSON.parse(r.progress) as Record<string, number>;
      if (b.progress !== undefined) {
        const p = v.object(b.progress, 'progress');
        if (p) {
          const pv = new V('progress');
          for (const k of ['companiesFound', 'companiesProcessed', 'emailsFound']) {
            const n = pv.int(p, k, { min: 0 });
            if (n !== undefined) progress[k] = n;
          }
          v.issues.push(...pv.issues);
        }
      }
      const errorMessage = v.str(b, 'errorMessage', { max: 2000 });
      const df = v.bool(b, 'discoveryFinished');
      v.done();
      const now = c.s.clock.now();
      const later: readonly string[] = [...LEAD_SEARCH_AFTER_DISCOVERY, 'completed'];
      const afterDiscovery = later.includes(status!);
      // 3.4: discoveryFinished becomes true when discovery ends (any later phase, or completed)
      // and stays true; completedAt is set when a terminal state is reached; errorMessage only
      // when failed.
      // The mutant says discovery finished only once the search is terminal (and then whatever it was told).
      const terminalOnly = c.s.mutant('lf-discovery-finished-terminal-only');
      // The other mutants derive it from the status alone, by a list of the later phases that misses one.
      const missed = c.s.mutant('lf-discovery-list-misses-processing') ? 'processing' : c.s.mutant('lf-discovery-list-misses-crawling') ? 'crawling' : c.s.mutant('lf-discovery-list-misses-verifying') ? 'verifying' : undefined;
      const discoveryFinished = c.s.mutant('lf-discovery-never-finished') ? false : terminalOnly ? TERMINAL_SEARCH_STATUSES.includes(status!)
        : missed ? later.filter((p) => p !== missed).includes(status!)
        : (df ?? (r.discovery_finished === 1 || afterDiscovery));
      const terminal = TERMINAL_SEARCH_STATUSES.includes(status!);
      const completedAt = terminal && !c.s.mutant('lf-completedat-missing') ? (r.completed_at ?? now) : null;
      const err = status === 'failed' && !c.s.mutant('lf-errormessage-missing') ? (errorMessage ?? r.error_message ?? 'The search failed.') : null;
      c.s.db.prepare('UPDATE lead_searches SET status = ?, progress = ?, discovery_finished = ?, error_message = ?, completed_at = ?, updated_at = ? WHERE id = ?')
        .run(status, JSON.stringify(progress), discoveryFinished ? 1 : 0, err, completedAt, now, r.id);
      return { status: 200, body: leadSearchView(loadLeadSearch(c.s.db, r.id)!) };
    },
  },
];

/**
 * Runs drains in rounds until a round processes nothing or `timeoutMs` passes (then it answers
 * with work left, as the contract allows: `{ processed }` either way). `everyMailbox`: each round
 * polls every mailbox, due or not.
 */
async function drainRounds(s: Services, timeoutMs: number, organizationId: string | undefined, everyMailbox: boolean): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let processed = 0;
  for (;;) {
    let pass = 0;
    for (const d of s.drainers) pass += await d(s.clock.now(), deadline, organizationId, everyMailbox);
    processed += pass;
    if (pass === 0 || Date.now() >= deadline) return processed;
  }
}

/** The drains of one control API: at once (`concurrent`), or one at a time in the order asked (`serialized`). */
export class DrainLine {
  private tail: Promise<unknown> = Promise.resolve();
  /** `serialized`: one at a time, each pass polling every mailbox. */
  constructor(readonly serialized: boolean) {}

  run<T>(drain: () => Promise<T>): Promise<T> {
    if (!this.serialized) return drain();
    const turn = this.tail.then(drain);
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}

export class ControlApi {
  private readonly router = new Router<ControlRoute>(CONTROL_ROUTES);
  private readonly extensions: readonly string[];
  private readonly drains: DrainLine;

  constructor(
    private readonly s: Services,
    private readonly token: string,
    extensions: readonly string[] = CONTROL_EXTENSIONS,
  ) {
    const serialized = s.choices.drain === 'serialized';
    this.drains = new DrainLine(serialized);
    // A serialized drain waits for everyone's work: it offers no scoped drain.
    this.extensions = serialized ? extensions.filter((x) => x !== 'scoped-drain') : extensions;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    let out: Outgoing;
    try {
      out = await this.pipeline(req, requestId);
    } catch (e) {
      if (e instanceof ApiError) out = errorOutgoing(e, requestId, noMutant);
      else {
        this.s.log(`reference control: internal error on ${req.method} ${req.url}: ${(e as Error)?.stack ?? e}`);
        out = errorOutgoing(new ApiError(500, 'internal_error', 'Internal error.'), requestId, noMutant);
      }
    }
    send(res, out);
  }

  private async pipeline(req: IncomingMessage, requestId: string): Promise<Outgoing> {
    const raw = await readBody(req);
    const url = parseTarget(req.url);
    const m = this.router.match((req.method ?? 'GET').toUpperCase(), url.pathname);
    if (!m || (m.route.extension && !this.extensions.includes(m.route.extension))) throw notFound(`No control route ${req.method} ${url.pathname}.`);
    const h = req.headers.authorization ?? '';
    const given = /^Bearer +(\S+)$/i.exec(h)?.[1] ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(this.token);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw unauthenticated('A valid control token is required.');
    let body: unknown;
    if (raw.text.trim() !== '') {
      try {
        body = JSON.parse(raw.text);
      } catch (e) {
        throw validationFailed([`body: malformed JSON (${(e as Error).message})`]);
      }
    }
    const reply = await m.route.handler({ s: this.s, params: m.params, body, query: url.searchParams, extensions: this.extensions, drains: this.drains });
    return jsonOutgoing(reply.status, reply.body, requestId, reply.headers);
  }
}
