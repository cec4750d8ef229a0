import { MACHINE_CAUSES, type MachineCause } from './machine-causes.ts';
import type { ExchangeEvent, Level } from './events.ts';
import type { ApiClient, ApiResponse } from './api-client.ts';
import type { Profile } from './profile-schema.ts';
import { messageOf, type RuleText, type TypedFailure } from './failure.ts';

// A check is data plus a function (docs/ARCHITECTURE.md, "Levels, spec identity, planning").

/**
 * How much of the suite a run takes, smallest first. Each has a request budget
 * (harness/plan/select-depth.ts); a check's `depth` is the lowest one it may run at.
 */
export const DEPTHS = ['smoke', 'quick', 'default', 'full'] as const;
export type Depth = (typeof DEPTHS)[number];

/** What a check needs; a missing feature skips the check with the reason. */
export type Feature =
  | 'control' // the conformance-control API
  | 'twoWorkspaces' // a second workspace at the same time
  | 'exclusiveWorkspace' // a workspace nobody else uses meanwhile (rate limit)
  | 'sinks'
  | 'imap'
  | 'testEmail' // the target sends test emails through mailboxes at the kit's sinks (profile features.testEmail)
  | 'oauth' // the target connects OAuth mailboxes (profile features.oauth)
  | `control:${ControlExtension}` // an optional extension of the control API (GET /capabilities)
  | `op:${string}` // a referenced operation declared in the profile (e.g. "op:apikeys.create")
  | `decl:${string}`; // a value the spec leaves "not shown", declared in the profile (below)

/*
 * `decl:<dotted profile path>` (`decl:declarations.variantIdPath`, `decl:names.sendingDays`,
 * `decl:declarations.analytics.coarsening`): the check cannot run unless the profile holds a
 * value there; `decl:a|b` needs either. Every check that would skip without such a value lists
 * it, directly or through the helper that reads it, so the planner knows before the run what
 * the profile costs (harness/plan/static-gap.ts). A check that only reads an optional value
 * and accepts any answer without it does not list it.
 */

/**
 * Optional extensions of the control API v1, announced by GET /capabilities
 * (`{ version: 1, extensions: [...] }`; a 404 there means none):
 * - workspace-keys: POST /workspaces/{organizationId}/keys (a key with any scopes, as the dashboard)
 * - lead-events: POST /leads/{id}/events `{ type: 'contacted' | 'replied' }` (what sending and
 *   the IMAP poller would record)
 * - blacklist: POST /workspaces/{organizationId}/blacklist `{ value }` (an address or a domain, as
 *   the dashboard manages the blacklist)
 * - email-unreadable: POST /emails/{id}/unreadable (the stored body of that email cannot be read
 *   until further notice, as when the mail store is down)
 * - scoped-drain: POST /work/drain `{ organizationId }` waits only for that workspace's background
 *   work (ControlClient.drain's second argument)
 */
/** Part 8: test emails per day per workspace. */
export const TEST_EMAILS_PER_WORKSPACE_DAY = 12;

export const CONTROL_EXTENSIONS = ['workspace-keys', 'lead-events', 'blacklist', 'email-unreadable', 'scoped-drain'] as const;
export type ControlExtension = (typeof CONTROL_EXTENSIONS)[number];

export interface Check {
  /** Stable id, e.g. "AUTH-401-MISSING/GET /v1/workspace". Never renamed. */
  id: string;
  /** "MUST answer 401 unauthenticated when Authorization is missing" */
  title: string;
  clauses: string[];
  level: Level;
  features: Feature[];
  /** Features it uses when present, having another way without them (the runner starts the sinks for these too). */
  uses?: Feature[];
  /** Requests it spends at most (used by the planner and the workspace budgets). */
  budget: number;
  /**
   * Test emails it may send from each workspace it leases (part 8 allows 12 a day per workspace):
   * the pool leases it only a workspace this run has left room in.
   */
  testEmails?: number;
  /** The lowest depth at which it may run (default: every depth; the depth's budget still chooses). */
  depth?: Depth;
  /**
   * The depths below default at which it asks less than at default (it reads ctx.depth), so may
   * kill fewer mutants there: the kill matrix runs it again at each (harness/plan/kill-matrix.ts).
   */
  shallowerAt?: readonly ('smoke' | 'quick')[];
  /** Runs after every other check (it observes the whole run, e.g. every error envelope seen). */
  last?: boolean;
  /** Runs alone, before the others (nothing else moves the control clock or the target meanwhile). */
  solo?: boolean;
  run(ctx: CheckContext): Promise<void>;
}

/**
 * What a drain answered. The contract answers `{ processed }` when no work is left, or when its
 * `timeoutMs` runs out with work left: a drain that answered within its `timeoutMs` is `complete`
 * (nothing was left). One that took its whole bound (it ran out of time, or waited behind other
 * drains) or got no answer in the kit's wait may have left work: a slow target, not a failure.
 */
export interface DrainResult {
  processed: number;
  complete: boolean;
  /**
   * None of the target's drains so far answered within its bound (after several): its drains run
   * to their bound whatever is left, so one more tells nothing (drain once, then read).
   */
  untold?: boolean;
}

export interface ControlClient {
  createWorkspace(input?: { name?: string; timezone?: string }): Promise<{ organizationId: string; name: string; timezone: string; apiKey: string; apiKeyId: string }>;
  patchWorkspace(organizationId: string, input: { apiAccess?: boolean; limits?: Record<string, number | null>; used?: Record<string, number> }): Promise<unknown>;
  now(): Promise<Date>;
  advance(seconds: number): Promise<Date>;
  /**
   * Runs the target's due background work (POST /work/drain), bounded by `timeoutMs`. With
   * `organizationId` and the `scoped-drain` extension, it waits only for that workspace's work
   * (others' go on running). The drains of a run are coalesced: one in flight per scope, and a
   * caller is served by a drain sent after it asked.
   */
  drain(timeoutMs?: number, organizationId?: string): Promise<DrainResult>;
  /** The optional extensions the control API announces (GET /capabilities, probed once; none on 404). */
  extensions(): Promise<readonly string[]>;
  /** Any other control call (tags, oauth, lead searches). */
  request(method: string, path: string, body?: unknown, opts?: { allowError?: boolean; timeoutMs?: number }): Promise<ApiResponse>;
}

export interface Workspace {
  organizationId?: string;
  /** Its name and IANA timezone where the run knows them (the control API made it, or the profile states them). */
  name?: string;
  timezone?: string;
  /** Key holding all:all and apikeys:manage (from the control API or the profile). */
  api: ApiClient;
  apiKeyId?: string;
  /** Creates a key with exactly these scopes through the referenced "apikeys.create" operation. */
  createKey(scopes: string[], name?: string): Promise<{ id: string; secret: string; client: ApiClient }>;
  /**
   * What this run sent with the workspace's keys within the rate window, as the kit's own budget
   * counts it: how many requests and how long ago the oldest was sent. Absent where the kit keeps
   * no budget for the workspace. Requests of other clients (another run) are not in it.
   */
  window?(): { count: number; oldestAgeMs: number };
}

export interface CheckContext {
  readonly checkId: string;
  readonly profile: Profile;
  readonly depth: Depth;
  /** Prefix for every name this check gives a resource (swept before and after the run). */
  readonly prefix: string;
  /** Seed for fast-check / faker, printed with every failure so it can be replayed. */
  readonly seed: number;
  /**
   * Leases a workspace for the duration of the check (released automatically). `exclusive`: nobody
   * else uses it meanwhile. `lendsToMailless` with it: checks that send no mail (no mailbox at the
   * sinks, no test email) may share it, and so its rate budget, while it waits: for a check whose
   * readings of the workspace only mail changes (a usage count of sends).
   */
  workspace(opts?: { exclusive?: boolean; lendsToMailless?: boolean }): Promise<Workspace>;
  /** A client with no key at all (for 401 checks); its requests count toward no workspace. */
  anonymous: ApiClient;
  control?: ControlClient;
  /**
   * The kit's mail sinks (started by the runner when the profile declares features.sinks):
   * create mailbox users with `addUser`, hand their credentials to the target, then read and
   * fault what the target sends. IMAP is null where Dovecot is missing (imapUnavailableReason).
   * The runner puts a harness/sinks MailSink here; the contract stays below the parts it names,
   * so checks read it through suites/lib/sinks.ts `mailSinks(ctx)`.
   */
  sinks?: unknown;
  /** Every exchange recorded in this run so far (redacted). */
  observed(): readonly ExchangeEvent[];
  /**
   * Runs `build`, a fixture other checks of the run will use too (suites/lib/shared.ts): what it
   * creates is not this check's to delete when it ends, it stays until the run's clean-up.
   */
  share?<T>(build: () => Promise<T>): Promise<T>;
  log(message: string): void;
  /** Reports a wait on the target's own background work that ended after `ms` (harness/ground/events.ts TargetWorkEvent). */
  targetWork?(what: 'mailbox-settle', ms: number): void;
}

/** Thrown by a check when the target broke a rule. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    public readonly evidence: string[] = [],
    /** The kind of rule that broke and how, as data (harness/ground/failure.ts); absent for prose alone. */
    public readonly typed?: TypedFailure,
  ) {
    super(message);
    this.name = 'CheckFailure';
  }
}

/** Thrown by a check when it cannot run here (a missing name, feature or operation; `cause`: what this machine lacks). */
export class CheckSkipped extends Error {
  constructor(
    message: string,
    public readonly machineCause?: MachineCause,
  ) {
    super(message);
    this.name = 'CheckSkipped';
  }
}

const evidenceIds = (evidence: readonly (ApiResponse | string | undefined)[]) =>
  evidence.filter((e): e is ApiResponse | string => e !== undefined).map((e) => (typeof e === 'string' ? e : e.exchangeId));

/** The target broke a rule: a message written as msg`...` carries its cause as data (kind `value`). */
export function fail(message: string | RuleText, ...evidence: (ApiResponse | string | undefined)[]): never {
  const m = messageOf(message);
  throw new CheckFailure(m.text, evidenceIds(evidence), m.typed);
}

/** A failure of a known kind (harness/ground/failure.ts): the report groups it by `typed`, not by its prose. */
export function failTyped(typed: TypedFailure, message: string, ...evidence: (ApiResponse | string | undefined)[]): never {
  throw new CheckFailure(message, evidenceIds(evidence), typed);
}

export function skip(reason: string): never {
  throw new CheckSkipped(reason);
}

/** A skip this machine causes (harness/ground/machine-causes.ts): counted and named apart from the profile's gaps. */
export function skipFor(cause: MachineCause, reason: string): never {
  throw new CheckSkipped(`${reason}: ${MACHINE_CAUSES[cause].name}; ${MACHINE_CAUSES[cause].fix}`, cause);
}

export { joinRules, msg, naming } from './failure.ts';
