// THE HANDLER INTERFACE of the reference target.
//
// Every route of routes.ts points at one handler: `async (ctx: Ctx) => Reply`.
// By the time a handler runs, the pipeline in app.ts has already:
//   - matched the route (unknown routes: 404 envelope), authenticated the key (401),
//     counted the request against the workspace rate limit (429), checked the plan's API access
//     and the route's scope (403),
//   - validated the uuid path params (`{id}`, `{cid}`, `{leadId}`: 400 validation_failed when
//     not a uuid), parsed the JSON body (400 on malformed JSON),
//   - handled Idempotency-Key for state-changing methods (replay / 409 / 422 / reservation).
// A handler therefore only: validates its body/query (throw `validationFailed([...details])`),
// loads its rows scoped to `ctx.workspace.id` (absent -> throw `notFound()`), applies business
// rules (refusals -> throw `failedPrecondition(msg)`), writes, and returns `ok(x)` / `created(x)`.
// Any ApiError thrown becomes the spec's error envelope; anything else becomes a 500 api_error
// (and is logged): never throw plain errors for bad input.
//
// Handlers are async; the pipeline yields to the event loop between the idempotency reservation
// and the handler, so a handler may stay synchronous inside (better-sqlite3 is synchronous).
// Timestamps: read `ctx.clock` only (never Date.now()): `ctx.clock.now()` (ms), `ctx.clock.stamp()`
// for created_at (strictly increasing, so newest-first lists have a total order), `isoOf(ms)`.
// Lists: `return ok(ctx.page({ list, from, where, params, map }))` (pagination.ts).
import type { Clock } from '../domain/clock.ts';
import type { DB } from '../store/db.ts';
import type { MutantSwitch } from '../switches/mutants.ts';
import type { PageQuery, Page } from './pagination.ts';
import type { Choices } from '../switches/choices.ts';

import type { ApiKey, LimitType, Workspace } from '../domain/workspace.ts';

/** Process-wide services of one reference instance (also reachable from the control API). */
export interface Services {
  db: DB;
  clock: Clock;
  mutant: MutantSwitch;
  /** The choices where the spec says "not shown" (choices.ts). */
  choices: Choices;
  log: (line: string) => void;
  /** AES-256-GCM with a per-process key: for mailbox passwords (never returned). */
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** HMAC key for pagination cursors. */
  cursorKey: Buffer;
  newId(): string;
  /**
   * Background work (verification, sends, IMAP polls): each drainer runs the work due at `now`
   * and returns how many items it processed. POST /work/drain (control API) calls them in
   * rounds until a round processes nothing. Resource modules push theirs at startup.
   */
  /**
   * Background work POST /work/drain runs; `deadline` (epoch ms) bounds how long one may wait,
   * `organizationId` whose work it waits for, `everyMailbox` polls each mailbox whether due or not.
   */
  drainers: Array<(now: number, deadline?: number, organizationId?: string, everyMailbox?: boolean) => Promise<number> | number>;
  /** SMTP out of the workspace's mailboxes (sending/transport.ts), shared by campaigns and test emails. */
  mail?: import('../mail/transport.ts').MailTransports;
  /** The public base URL once listening (tracking pixels and links point there). */
  publicUrl?: string;
  /** Background mailbox verification (resources/verify.ts): queue or drop a job. */
  verifier: { enqueue(accountId: string, afterMs?: number): void; cancel(accountId: string): void };
}

export interface Ctx {
  readonly services: Services;
  readonly db: DB;
  readonly clock: Clock;
  /** The caller's workspace (organization), loaded fresh for this request. */
  readonly workspace: Workspace;
  /** The calling API key (never its secret). */
  readonly key: ApiKey;
  /** Path params by template name, URL-decoded ({id}, {cid}, {leadId} are valid uuids). */
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  /** Parsed JSON body, or undefined when the request had no body. */
  readonly body: unknown;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** Is this mutant switched on? One `if (ctx.mutant('id'))` per mutant, see mutants.ts. */
  mutant: MutantSwitch;
  /** Throws 403 permission_denied unless the key covers `scope` (for scopes that depend on the body). */
  requireScope(scope: string): void;
  /** One page of a list: reads `limit` and `cursor` from the query. See pagination.ts. */
  page<Row>(q: PageQuery<Row>): Page;
  /** A fresh uuid v4. */
  newId(): string;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: Ctx) => Promise<Reply>;

export const ok = (body: unknown): Reply => ({ status: 200, body });
/** 201; app.ts answers the chosen create status for every create but POST /v1/accounts. */
export const created = (body: unknown): Reply => ({ status: 201, body });
