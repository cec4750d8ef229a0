// The public API request pipeline: every byte of every answer is decided here or in a handler.
//
//   read body -> (version alias mutant) -> route (404) -> auth (401) -> rate limit (429)
//   -> plan API access (403) -> scope (403) -> uuid path params (400) -> JSON body (400)
//   -> Idempotency-Key (400 / replay / 422 / 409 / reserve) -> yield -> handler -> answer
//
// Every error is the spec's envelope with a fresh uuid v4 requestId; every authenticated answer
// carries X-RateLimit-Remaining. Unexpected exceptions become 500 api_error (and are logged);
// bad input never does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes, randomUUID, createCipheriv, createDecipheriv } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, TYPE_OF_STATUS, permissionDenied, unauthenticated, validationFailed, notFound, conflict, idempotencyKeyReused } from '../request/errors.ts';
import { Router, readBody, send, canonicalJson, type Outgoing } from './server.ts';
import { serveTracking } from '../sending/tracking.ts';
import type { Clock } from '../domain/clock.ts';
import type { DB } from '../store/db.ts';
import type { MutantSwitch } from '../switches/mutants.ts';
import type { Ctx, Reply, Services } from '../request/context.ts';
import type { ApiKey, Workspace } from '../domain/workspace.ts';
import type { Choices } from '../switches/choices.ts';
import { chosenRoutes, queryOf, bodyOf } from './chosen.ts';
import { namesServed } from './undeclared-names.ts';
import { routeAccepts, WILDCARD_DOMAINS } from '../request/scopes.ts';
import { findKeyBySecret, loadWorkspace } from '../store/store.ts';
import { RateLimiter, RATE_LIMIT, RATE_WINDOW_MS } from './ratelimit.ts';
import { IdempotencyStore, IDEMPOTENCY_KEY_MAX, INFLIGHT_HOLD_MS, fingerprint } from './idempotency.ts';
import { NO_HOLDS, type IdempotencyHolds } from '../switches/holds.ts';
import { paginate } from '../request/pagination.ts';
import { ROUTES, UUID_PARAMS, type RouteDef } from './routes.ts';
import { isUuid } from '../request/validate.ts';
import { answerMutated, coercedInput, missingInput, renamedErrorCode, scopeUnchecked } from '../switches/mutant-families.ts';

type Gate = { key: ApiKey; ws: Workspace; rateHeaders: Record<string, string> } | { limited: Outgoing };

const DOMAIN_WILDCARDS = WILDCARD_DOMAINS.map((d) => `${d}:all`);
const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const CONSTANT_REQUEST_ID = '9b2f4c1e-0d3a-4e5b-8c7d-6a1f2e3d4c5b';
/** Headers stored with an idempotent response and replayed with it. */
const REPLAYED_HEADERS = ['content-type', 'location'];

export function createServices(db: DB, clock: Clock, mutant: MutantSwitch, log: (l: string) => void, choices: Choices): Services {
  const encKey = randomBytes(32);
  return {
    db,
    clock,
    mutant,
    choices,
    log,
    cursorKey: randomBytes(32),
    newId: () => randomUUID(),
    drainers: [],
    verifier: { enqueue: () => {}, cancel: () => {} }, // replaced by index.ts with the real queue
    encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', encKey, iv);
      const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64');
    },
    decrypt(sealed) {
      const b = Buffer.from(sealed, 'base64');
      const d = createDecipheriv('aes-256-gcm', encKey, b.subarray(0, 12));
      d.setAuthTag(b.subarray(12, 28));
      return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

/** A handler's refusal as the chosen code and status (business rules, other state conflicts). */
function chosenError(err: ApiError, c: Choices, mutant: MutantSwitch): ApiError {
  if (err.kind === 'business-rule') return new ApiError(400, c.businessRuleCode, err.message);
  // The mutant answers the other state conflicts 409 with a code of its own (not the table's `conflict`).
  if (err.kind === 'state' && mutant('err-state-conflict-own-code')) return new ApiError(409, 'state_conflict', err.message);
  if (err.kind === 'state') return c.stateConflictStatus === 409 ? new ApiError(409, 'conflict', err.message) : new ApiError(400, c.businessRuleCode, err.message);
  return err;
}

/** Builds the error envelope (and the one place where envelope mutants act). */
export function errorOutgoing(err: ApiError, requestId: string, mutant: MutantSwitch, extraHeaders: Record<string, string> = {}): Outgoing {
  let type: string = TYPE_OF_STATUS[err.status] ?? (err.status >= 500 ? 'api_error' : 'invalid_request_error');
  let code = renamedErrorCode(mutant, err.status, err.code);
  let status = err.status;
  if (err.status === 404 && mutant('err-type-wrong')) type = 'not_found_error';
  if (err.status === 404 && mutant('err-status-mismatch')) status = 400;
  if (err.status === 401 && mutant('auth-401-wrong-code')) code = 'invalid_api_key';
  if (code === 'validation_failed' && mutant('err-validation-wrong-code')) code = 'invalid_request';
  // A 400 other than validation_failed is a business-rule refusal: the mutant gives it another code than the profile declares.
  if (err.status === 400 && code !== 'validation_failed' && mutant('err-business-code-undeclared')) code = 'bad_request';
  if (err.status === 429 && mutant('rate-429-wrong-type')) {
    type = 'invalid_request_error';
    code = 'too_many_requests';
  }
  // A serializer that writes the status as text (the mutant).
  const e: Record<string, unknown> = { type, code, message: err.message, status: mutant('err-status-string') ? String(status) : status, requestId };
  if (err.details && !mutant('err-validation-no-details')) e.details = mutant('err-details-string') ? err.details.join('; ') : err.details;
  else if (!err.details && mutant('err-details-null')) e.details = null;
  if (err.status === 429 && err.retryAfter !== undefined && !mutant('err-429-no-retryafter-field')) e.retryAfter = err.retryAfter;
  // The mutants: a 403 without the wrapper; a 401 answered by an auth middleware's own body.
  const body = err.status === 403 && mutant('err-envelope-unwrapped') ? e : err.status === 401 && mutant('err-401-middleware-body') ? { message: 'Unauthorized' } : { error: e };
  return {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...err.headers, ...extraHeaders },
    body: JSON.stringify(body),
  };
}

export function jsonOutgoing(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): Outgoing {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...headers },
    body: JSON.stringify(body),
  };
}

/** Splits a request target into path and query without URL normalisation (//x stays a path). */
export function parseTarget(target: string | undefined): { pathname: string; searchParams: URLSearchParams } {
  const t = target ?? '/';
  const q = t.indexOf('?');
  return { pathname: q >= 0 ? t.slice(0, q) : t, searchParams: new URLSearchParams(q >= 0 ? t.slice(q + 1) : '') };
}

export function newRequestId(mutant: MutantSwitch): string {
  if (mutant('err-requestid-not-uuid')) return `req_${randomBytes(12).toString('hex')}`;
  if (mutant('err-requestid-constant')) return CONSTANT_REQUEST_ID;
  return randomUUID();
}

/** The scope a route requires: its own, or, with one of these mutants, a neighbouring route's instead. */
function misplacedScope(route: RouteDef, mutant: MutantSwitch): string {
  if (route.op === 'analytics.timeseries' && mutant('scope-timeseries-campaigns-read')) return 'campaigns:read';
  if (route.op === 'analytics.overview' && mutant('scope-overview-campaigns-read')) return 'campaigns:read';
  if (route.op === 'campaigns.status' && mutant('scope-status-campaigns-lifecycle')) return 'campaigns:lifecycle';
  if (route.op === 'campaigns.resume' && mutant('scope-resume-campaigns-write')) return 'campaigns:write';
  if (route.op === 'campaigns.testEmail' && mutant('scope-test-email-emails-send')) return 'emails:send';
  if (route.op === 'leadSearches.get' && mutant('scope-lf-get-leads-read')) return 'leads:read';
  return route.scope;
}

/**
 * Mutants of the create's scope, "campaigns:write, plus campaigns:lifecycle when launch is true":
 * read as "instead" (a create asking launch needs only campaigns:lifecycle, which the handler asks),
 * or a create served to a key holding campaigns:lifecycle as well as to one holding campaigns:write.
 */
function createWriteSkipped(route: RouteDef, key: ApiKey, text: string, mutant: MutantSwitch): boolean {
  if (route.op !== 'campaigns.create') return false;
  if (mutant('scope-create-launch-instead') && launchAsked(text)) return true;
  return mutant('scope-create-accepts-lifecycle') && routeAccepts(key.scopes, 'campaigns:lifecycle', mutant);
}

function launchAsked(text: string): boolean {
  try {
    return (JSON.parse(text) as { launch?: unknown } | null)?.launch === true;
  } catch {
    return false;
  }
}

/** A route of `prefix` mounted without /v1: its /v1 path is unknown, its bare path served (where `which` holds). */
function unprefixed(pathname: string, prefix: string, which: (rest: string) => boolean): string {
  if (pathname.startsWith(`/v1${prefix}`) && which(pathname.slice(3))) return `/unprefixed${pathname}`;
  if (pathname.startsWith(prefix) && which(pathname)) return `/v1${pathname}`;
  return pathname;
}

const MAILBOX_WRITES = new Set(['accounts.create', 'accounts.update', 'accounts.delete', 'accounts.pause', 'accounts.resume', 'accounts.oauthInit']);
/** The mutants' route table files a route under a second scope too: a key holding that one is served. */
function alsoServed(route: RouteDef, key: ApiKey, mutant: MutantSwitch): boolean {
  // The mailbox routes filed by domain: any accounts:* scope serves them, accounts:read the writes too.
  if (MAILBOX_WRITES.has(route.op) && key.scopes.includes('accounts:read') && mutant('scope-mailbox-writes-also-accounts-read')) return true;
  if (route.op === 'emails.delete' && key.scopes.includes('emails:send') && mutant('scope-email-delete-also-emails-send')) return true;
  if (route.op === 'campaigns.status' && key.scopes.includes('campaigns:lifecycle') && mutant('scope-status-also-campaigns-lifecycle')) return true;
  if (route.op === 'campaigns.update' && key.scopes.includes('campaigns:lifecycle') && mutant('scope-patch-also-campaigns-lifecycle')) return true;
  if (route.op === 'campaigns.testEmail' && key.scopes.includes('emails:send') && mutant('scope-test-email-also-emails-send')) return true;
  // Analytics filed under the campaigns domain too (its paths sit under /v1/campaigns).
  if (route.op === 'analytics.campaign' && key.scopes.includes('campaigns:read') && mutant('scope-anlt-campaign-also-campaigns-read')) return true;
  if (route.op === 'analytics.timeseries' && key.scopes.includes('campaigns:read') && mutant('scope-anlt-timeseries-also-campaigns-read')) return true;
  if (route.op === 'analytics.overview' && key.scopes.includes('campaigns:read') && mutant('scope-anlt-overview-also-campaigns-read')) return true;
  if (route.op === 'leadSearches.get' && key.scopes.includes('leads:read') && mutant('scope-lf-get-also-leads-read')) return true;
  // The key list read as a read that all:read covers; the subscription route mounted without its scope guard.
  if (route.op === 'apikeys.list' && key.scopes.includes('all:read') && mutant('scope-all-read-lists-keys')) return true;
  if (route.op === 'subscription.get' && mutant('scope-subscription-unguarded')) return true;
  return route.op === 'leadSearches.list' && key.scopes.includes('leads:read') && mutant('scope-lf-list-also-leads-read');
}

/**
 * The mutants' group rows short of all:all: the email delete row (emails:write and emails:all only), or
 * the test email's entry in a per-route table (campaigns:lifecycle and campaigns:all only).
 */
function groupRowShort(route: RouteDef, key: ApiKey, mutant: MutantSwitch): boolean {
  if (!key.scopes.includes('all:all')) return false;
  if (route.op === 'campaigns.testEmail') return !key.scopes.some((s) => s === 'campaigns:lifecycle' || s === 'campaigns:all') && mutant('scope-test-email-refuses-all-all');
  if (route.op !== 'emails.delete') return false;
  return !key.scopes.some((s) => s === 'emails:write' || s === 'emails:all') && mutant('scope-email-delete-refuses-all-all');
}

const MAILBOX_READS = ['accounts.verification', 'accounts.list', 'accounts.get', 'accounts.oauthStatus'];
/** Another scope than `held` alone that the key holds for a mailbox read (accounts:read or a wildcard over it). */
const readsOtherwise = (key: ApiKey, held: string) => key.scopes.some((s) => s !== held && ['accounts:read', 'accounts:all', 'all:read', 'all:all', 'accounts:write'].includes(s));

/**
 * The mutants' mailbox-read rows: the three referenced reads filed under the general reads rule
 * (accounts:write alone refused there; the verification endpoint right), or all four without all:all.
 */
function mailboxReadRowShort(route: RouteDef, key: ApiKey, mutant: MutantSwitch): boolean {
  if (!MAILBOX_READS.includes(route.op)) return false;
  if (route.op !== 'accounts.verification' && key.scopes.includes('accounts:write') && !readsOtherwise(key, 'accounts:write')) return mutant('scope-mailbox-ref-reads-refuse-write');
  // A per-route table whose entry for the read of one mailbox forgets all:all (the other reads keep it).
  if (route.op === 'accounts.get' && key.scopes.includes('all:all') && !readsOtherwise(key, 'all:all') && mutant('scope-mailbox-get-refuses-all-all')) return true;
  return key.scopes.includes('all:all') && !readsOtherwise(key, 'all:all') && mutant('scope-mailbox-read-refuses-all-all');
}

/** Parses `Authorization`; returns the secret, or null when the header is not a Bearer credential. */
function bearerSecret(header: string, mutant: MutantSwitch): string | null {
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (m) return m[1]!;
  if (mutant('auth-scheme-unchecked')) {
    const parts = header.trim().split(/ +/);
    const last = parts[parts.length - 1];
    return parts.length <= 2 && last ? last : null;
  }
  return null;
}

/** A form-encoded body (the `formBodies: parse` choice reads its fields as the body's top-level strings). */
function isFormEncoded(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

const MAX_BODY_NESTING = 64;

/** How deep arrays and objects nest in a parsed body, measured without recursion. */
function nestingDepth(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    for (const y of Object.values(x)) stack.push([y, d + 1]);
  }
  return max;
}

/** Recurses as deep as the value; past `limit` levels it throws as a stack overflow would. */
function walkNested(v: unknown, limit: number, depth = 0): void {
  if (depth > limit) throw new RangeError('Maximum call stack size exceeded');
  if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walkNested(x, limit, depth + 1);
}

export class PublicApi {
  private readonly router: Router<RouteDef>;
  private readonly rate: RateLimiter;
  private readonly idem: IdempotencyStore;
  private readonly limit: number;

  /**
   * `rateLimit`: the spec's 120 per 60 s unless a capacity run raises it (outside the spec, said so by its profile).
   * `holds`: a test's hold on idempotent requests (switches/holds.ts); none by default.
   */
  constructor(
    private readonly s: Services,
    rateLimit: { requests: number; windowMs: number } = { requests: RATE_LIMIT, windowMs: RATE_WINDOW_MS },
    private readonly holds: IdempotencyHolds = NO_HOLDS,
  ) {
    this.rate = new RateLimiter(rateLimit.windowMs);
    this.limit = rateLimit.requests;
    this.idem = new IdempotencyStore(s.db);
    this.router = new Router<RouteDef>(chosenRoutes(ROUTES, s.choices));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Open pixels and click redirects: no key, no envelope (a mail client fetches them).
    if (req.url?.startsWith('/t/') && serveTracking(this.s, req, res, parseTarget(req.url).pathname)) return;
    const mutant = this.s.mutant;
    const requestId = newRequestId(mutant);
    let out: Outgoing;
    try {
      out = await this.pipeline(req, requestId);
    } catch (e) {
      if (e instanceof ApiError) out = errorOutgoing(e, requestId, mutant);
      // The client went away while its body was read: nobody to answer, and not an internal error.
      else if (req.destroyed && (e as NodeJS.ErrnoException)?.code === 'ECONNRESET') return;
      else {
        this.s.log(`reference: internal error on ${req.method} ${req.url}: ${(e as Error)?.stack ?? e}`);
        out = errorOutgoing(new ApiError(500, 'internal_error', 'Internal error.'), requestId, mutant);
      }
    }
    // The Date header tells the target's time (its clock may start elsewhere: --clock-start), not the host's.
    send(res, { ...out, headers: { date: new Date(this.s.clock.now()).toUTCString(), ...out.headers } });
  }

  private async pipeline(req: IncomingMessage, requestId: string): Promise<Outgoing> {
    const { s } = this;
    const mutant = s.mutant;
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req);
    const url = parseTarget(req.url);
    let pathname = url.pathname;
    if (pathname.startsWith('/v2/') && mutant('ver-v2-alias')) pathname = `/v1/${pathname.slice(4)}`;

    // 1. route (an unknown route is 404 whatever the credentials; a valid key still counts)
    // The mutant mounts the usage route without the prefix: /usage/{limitType} is served, /v1/usage/{limitType} is not.
    if (mutant('ver-usage-unprefixed')) pathname = pathname.startsWith('/v1/usage/') ? `/unprefixed${pathname}` : pathname.startsWith('/usage/') ? `/v1${pathname}` : pathname;
    // Two more routes outside the id-less reads mounted without the prefix: the lead search, a key's revocation.
    if (mutant('ver-leads-search-unprefixed')) pathname = unprefixed(pathname, '/leads/search', () => true);
    if (mutant('ver-apikey-revoke-unprefixed')) pathname = unprefixed(pathname, '/api-keys/', (rest) => method === 'DELETE' && rest.length > '/api-keys/'.length);
    if (mutant('svc-lead-searches-trailing-slash')) pathname = pathname === '/v1/lead-searches' ? '/v1/lead-searches-elsewhere' : pathname === '/v1/lead-searches/' ? '/v1/lead-searches' : pathname;
    const m = this.router.match(method, pathname);
    if (!m) {
      if (mutant('err-unknown-route-text')) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found' };
      if (mutant('err-wrong-method-framework-body') && ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].some((other) => other !== method && this.router.match(other, pathname))) {
        const body = { timestamp: new Date().toISOString(), status: 405, error: 'Method Not Allowed', path: url.pathname };
        return { status: 405, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      }
      let gate: Gate | null = null;
      try {
        gate = this.authAndRate(req, requestId);
      } catch {
        gate = null;
      }
      if (gate && 'limited' in gate) return gate.limited;
      return errorOutgoing(notFound(`No route for ${method} ${url.pathname}.`), requestId, mutant, gate?.rateHeaders ?? {});
    }
    const route = m.route;

    // 2. authentication, 3. rate limit
    const gate = this.authAndRate(req, requestId);
    if ('limited' in gate) return gate.limited;
    const { key, ws, rateHeaders } = gate;
    // The mutant sets the rate headers on successful answers only.
    const errorRate = mutant('rate-remaining-only-on-success') ? {} : rateHeaders;

    try {
      // 4. plan and scope
      if (!ws.apiAccess && !mutant('plan-api-access-ignored')) {
        if (mutant('plan-api-access-402')) throw new ApiError(402, 'payment_required', 'The workspace plan does not include API access.');
        throw permissionDenied('The workspace plan does not include API access.');
      }
      // The mutant's route table forgets the domain wildcard on one route: pausing a mailbox.
      const forgets = route.op === 'accounts.pause' && key.scopes.includes('accounts:all') && !routeAccepts(key.scopes.filter((s) => s !== 'accounts:all'), route.scope);
      if (forgets && mutant('scope-route-forgets-domain-wildcard')) throw permissionDenied(`The API key lacks the scope ${route.scope}.`);
      if (groupRowShort(route, key, mutant) || mailboxReadRowShort(route, key, mutant)) throw permissionDenied(`The API key lacks the scope ${route.scope}.`);
      if (!scopeUnchecked(mutant, route.op) && !createWriteSkipped(route, key, raw.text, mutant) && !alsoServed(route, key, mutant)) this.requireScope(key, misplacedScope(route, mutant));
      if (route.op === 'leads.update' && mutant('scope-lead-patch-also-campaigns')) this.requireScope(key, 'campaigns:write');

      // 5. path params, body
      const details: string[] = [];
      for (const [name, value] of Object.entries(m.params)) {
        if (UUID_PARAMS.has(name) && !isUuid(value)) details.push(`${name}: must be a uuid`);
      }
      if (details.length > 0) throw validationFailed(details);
      if (raw.tooLarge) throw validationFailed(['body: larger than 5 MiB']);
      let body: unknown = undefined;
      if (raw.text.trim().length > 0 && s.choices.formBodies === 'parse' && isFormEncoded(req.headers['content-type'])) {
        body = Object.fromEntries(new URLSearchParams(raw.text));
      } else if (raw.text.trim().length > 0) {
        try {
          body = JSON.parse(raw.text);
        } catch (e) {
          if (mutant('err-malformed-json-500')) throw new ApiError(500, 'internal_error', String((e as Error).message));
          throw validationFailed([`body: malformed JSON (${(e as Error).message})`]);
        }
      }
      // A body walked by recursion with a bounded stack: deep nesting overflows it (an unhandled 500).
      if (mutant('robust-deep-nesting-500')) walkNested(body, 1000);
      // No request of the spec nests deeper than a few levels; a deeper body (a free-form value such
      // as customFields) would overflow the serializers that store and answer it.
      if (nestingDepth(body) > MAX_BODY_NESTING) throw validationFailed([`body: nested deeper than ${MAX_BODY_NESTING} levels`]);
      const lacking = missingInput(mutant, route.op, body);
      if (lacking) throw validationFailed([lacking]);

      const names = namesServed(mutant, route.op, s.choices);
      const query = queryOf(route.op, url.searchParams, names);
      const ctx = this.makeCtx(ws, key, m.params, query, bodyOf(route.op, coercedInput(mutant, route.op, body), names), requestId, method, pathname);
      const idemKey = req.headers['idempotency-key'];
      let out: Outgoing;
      if (STATE_CHANGING.has(method) && typeof idemKey === 'string' && !mutant('idem-ignored')) {
        out = await this.idempotent(ws, key, idemKey, method, pathname, body, requestId, () => this.run(route, ctx, requestId));
      } else {
        await new Promise((r) => setImmediate(r));
        out = await this.run(route, ctx, requestId);
      }
      out.headers = { ...out.headers, ...(out.status >= 400 ? errorRate : rateHeaders) };
      return out;
    } catch (e) {
      if (e instanceof ApiError) return errorOutgoing(e, requestId, mutant, errorRate);
      throw e;
    }
  }

  /** Authenticates (401) and counts the request against its workspace's rate limit (429). */
  private authAndRate(req: IncomingMessage, requestId: string): Gate {
    const { s } = this;
    const mutant = s.mutant;
    const key = this.authenticate(req.headers.authorization);
    const ws = loadWorkspace(s.db, key.orgId);
    if (!ws) throw unauthenticated();
    const now = s.clock.now();
    s.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, key.id);
    const rl = this.rateLimit(ws, key, now);
    const rateHeaders: Record<string, string> = {};
    if (!mutant('rate-no-remaining-header')) rateHeaders['x-ratelimit-remaining'] = String(rl.remaining);
    rateHeaders['x-ratelimit-limit'] = String(rl.limit);
    if (rl.retryAfter !== undefined) {
      const h: Record<string, string> = { ...rateHeaders };
      if (!mutant('rate-no-retry-after-header')) h['retry-after'] = String(rl.retryAfter);
      const err = new ApiError(429, 'rate_limited', 'Rate limit exceeded: 120 requests per 60 seconds per workspace.', undefined, rl.retryAfter);
      return { limited: errorOutgoing(err, requestId, mutant, h) };
    }
    return { key, ws, rateHeaders };
  }

  private authenticate(header: string | undefined): ApiKey {
    const mutant = this.s.mutant;
    if (header === undefined || header === '') {
      if (mutant('auth-missing-header-400')) throw validationFailed(['Authorization: header is required']);
      throw unauthenticated('The Authorization header is missing.');
    }
    const secret = bearerSecret(header, mutant);
    if (secret === null) throw unauthenticated('The Authorization header must be `Bearer <API key>`.');
    // The mutant checks the key's form before looking it up, and answers a malformed one as a bad request.
    if (mutant('auth-key-format-400') && !/^ock_[\w-]{32}$/.test(secret)) throw validationFailed(['Authorization: not an API key']);
    const key = findKeyBySecret(this.s.db, secret);
    if (!key) {
      if (mutant('auth-unknown-key-403')) throw permissionDenied('Unknown API key.');
      throw unauthenticated(mutant('auth-401-echoes-key') ? `The API key ${secret} is not valid.` : 'The API key is not valid.');
    }
    if (key.revokedAt !== null) {
      const graceful = mutant('apikey-revoke-not-immediate') && this.s.clock.now() < key.revokedAt + 60_000;
      // The mutant answers a revoked key from a branch of its own, with a code of its own.
      if (!graceful && mutant('auth-revoked-key-own-code')) throw new ApiError(401, 'key_revoked', 'The API key has been revoked.');
      if (!graceful && !mutant('auth-revoked-key-valid')) throw unauthenticated('The API key has been revoked.');
    }
    return key;
  }

  requireScope(key: ApiKey, scope: string): void {
    const mutant = this.s.mutant;
    if (routeAccepts(key.scopes, scope, mutant)) {
      const via = (w: string) => !key.scopes.some((h) => h !== w && routeAccepts([h], scope)) && key.scopes.includes(w);
      if (DOMAIN_WILDCARDS.some(via) && mutant('scope-wildcard-500')) throw new ApiError(500, 'internal_error', 'Internal error.');
      if (via('all:read') && mutant('scope-wildcard-404')) throw notFound();
      return;
    }
    if (mutant('scope-denied-404')) throw notFound();
    if (mutant('auth-missing-scope-401')) throw unauthenticated(`The API key lacks the scope ${scope}.`);
    throw permissionDenied(`The API key lacks the scope ${scope} (or a wildcard covering it).`);
  }

  private rateLimit(ws: Workspace, key: ApiKey, now: number): { remaining: number; limit: number; retryAfter?: number } {
    const mutant = this.s.mutant;
    const limit = mutant('rate-limit-150') ? 150 : this.limit;
    let bucket = `ws:${ws.id}`;
    if (mutant('rate-per-key')) bucket = `key:${key.id}`;
    if (mutant('rate-global')) bucket = 'global';
    const sticky = mutant('rate-window-never-resets') ? RATE_WINDOW_MS + 600_000 : 0;
    const t = this.rate.take(bucket, now, limit, sticky);
    if (!t.ok) return { remaining: 0, limit, retryAfter: t.retryAfter };
    let remaining = t.remaining;
    if (mutant('rate-remaining-per-key')) remaining = Math.max(0, limit - this.rate.count(`count-key:${key.id}`, now));
    return { remaining, limit };
  }

  private async idempotent(
    ws: Workspace,
    key: ApiKey,
    idemKey: string,
    method: string,
    pathname: string,
    body: unknown,
    requestId: string,
    run: () => Promise<Outgoing>,
  ): Promise<Outgoing> {
    const { s } = this;
    const mutant = s.mutant;
    if (idemKey.length === 0) throw validationFailed(['Idempotency-Key: must not be empty']);
    // The mutant declares the bound on the campaign create's route alone (a per-route header validator).
    const bounded = !mutant('idem-bound-campaign-create-only') || (method === 'POST' && pathname === '/v1/campaigns');
    if ((idemKey.length > IDEMPOTENCY_KEY_MAX && bounded && !mutant('idem-long-key-accepted')) || (idemKey.length === IDEMPOTENCY_KEY_MAX && mutant('idem-255-refused')))
      throw validationFailed([`Idempotency-Key: must be at most ${IDEMPOTENCY_KEY_MAX} characters`]);
    // The mutant stores keys in a column of 128 characters: longer keys alike in those are one key.
    if (mutant('idem-key-truncated')) idemKey = idemKey.slice(0, 128);
    // The mutant keeps keys for POST only (a layer copied from APIs that document idempotency for POST): other methods run again, whatever their body.
    if (method !== 'POST' && mutant('idem-post-only')) return run();
    let scope = mutant('idem-cross-workspace') ? 'global' : ws.id;
    if (mutant('idem-scope-per-key') || s.choices.idempotencyScope === 'api-key') scope = `key:${key.id}`;
    const fp = fingerprint(method, pathname, body === undefined ? '' : canonicalJson(body));
    const now = s.clock.now();
    const found = this.idem.find(scope, idemKey, now);
    if (found) {
      if (found.fingerprint !== fp && !mutant('idem-reuse-replays')) throw idempotencyKeyReused();
      if (found.state === 'processing') {
        this.holds.duplicate(idemKey);
        // The mutant holds the duplicate until the first request is done, then answers it as a retry.
        if (mutant('idem-inflight-waits') && (await this.idem.settled(scope, idemKey, () => s.clock.now()))) return this.idempotent(ws, key, idemKey, method, pathname, body, requestId, run);
        throw conflict('A request with this Idempotency-Key is still being processed.');
      }
      return {
        status: mutant('idem-replay-status-200') ? 200 : found.status!,
        headers: { ...found.headers, 'x-request-id': requestId, 'idempotent-replayed': 'true' },
        body: found.body ?? '',
      };
    }
    const lock = !mutant('idem-no-inflight-lock');
    if (lock && !this.idem.reserve(scope, idemKey, fp, now)) {
      // Lost a race with a concurrent request between find and reserve.
      throw conflict('A request with this Idempotency-Key is still being processed.');
    }
    let out: Outgoing;
    try {
      await sleep(INFLIGHT_HOLD_MS);
      await this.holds.running(idemKey);
      out = await run();
    } catch (e) {
      if (lock) this.idem.release(scope, idemKey);
      throw e;
    }
    if ((out.status < 200 || out.status > 299) && s.choices.idempotencyStores === 'success') {
      // Only successes are stored and replayed: a refused request had no effect, so a retry
      // runs again (and its error carries a fresh requestId, as every error response must).
      if (lock) this.idem.release(scope, idemKey);
      return out;
    }
    const stored: Record<string, string> = {};
    for (const h of REPLAYED_HEADERS) if (out.headers[h] !== undefined) stored[h] = out.headers[h]!;
    this.idem.complete(scope, idemKey, fp, now, out.status, stored, out.body);
    return out;
  }

  private async run(route: RouteDef, ctx: Ctx, requestId: string): Promise<Outgoing> {
    try {
      const reply: Reply = await route.handler(ctx);
      // 201 is stated for POST /v1/accounts only; other creates answer the chosen status.
      let status = reply.status === 201 && route.op !== 'accounts.create' ? this.s.choices.createStatus : reply.status;
      // The mutant answers a start with another success status than the one it declares.
      if (route.op === 'campaigns.start' && this.s.mutant('conv-start-status-undeclared')) status = 202;
      // The mutant labels its JSON answers as plain text.
      const labelled = this.s.mutant('conv-answers-text-plain') ? { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } : reply.headers;
      return jsonOutgoing(status, answerMutated(this.s.mutant, route.op, reply.body), requestId, labelled);
    } catch (e) {
      if (e instanceof ApiError) return errorOutgoing(chosenError(e, this.s.choices, this.s.mutant), requestId, this.s.mutant);
      throw e;
    }
  }

  private makeCtx(ws: Workspace, key: ApiKey, params: Record<string, string>, query: URLSearchParams, body: unknown, requestId: string, method: string, path: string): Ctx {
    const s = this.s;
    return {
      services: s,
      db: s.db,
      clock: s.clock,
      workspace: ws,
      key,
      params,
      query,
      body,
      requestId,
      method,
      path,
      mutant: s.mutant,
      requireScope: (scope) => this.requireScope(key, scope),
      page: (q) => paginate(s.db, s.cursorKey, query, s.mutant, q as never, s.choices),
      newId: s.newId,
    };
  }
}
