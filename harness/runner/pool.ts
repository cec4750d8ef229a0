import type { ApiClient } from '../ground/api-client.ts';
import type { ControlClient, Workspace } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { fieldName, getPath, operation, resultPath } from '../ground/operations.ts';
import { resolveSecret } from '../ground/profile.ts';
import { KitError } from '../ground/errors.ts';
import { skip, TEST_EMAILS_PER_WORKSPACE_DAY } from '../ground/check.ts';
import { POOL_ZONES } from '../ground/zones.ts';

// Workspaces are leased from a pool: shared leases spread checks over the pool (each workspace
// has its own request budget), an exclusive lease gives a check a workspace nobody else uses
// (a fresh one from the control API when there is one).

export interface PoolDeps {
  profile: Profile;
  control?: ControlClient;
  /** Makes a budgeted client for a new workspace key. */
  clientFor(key: string, workspaceIndex: number, organizationId?: string): ApiClient;
  /** Whether the run is in the last rate window it plans to use: the room owed to the final clean-up is kept then (PooledWorkspace.owed). */
  holdsOwed?(): boolean;
  /** Against real time only (absent with the control API): how long the run has been in the last rate window it plans to use (runner.planWindows; negative before it; undefined where nothing is packed): what a workspace can still take before the run ends (runRoom). */
  lastWindowMs?(): number | undefined;
  registerSecret(secret: string): void;
  prefix: string;
  /** Time zones of the workspaces made through the control API, in turn (default POOL_ZONES). */
  zones?: readonly string[];
}


/** The workspace client's rate budget (every pooled client has one; a test's fake may not). */
function budgetOf(ws: PooledWorkspace): { readonly limit: number; usedWithin(ms: number): number; used(): number; total(): number; room(): number; window(): { count: number; oldestAgeMs: number } } | undefined {
  return (ws.api as { budget?: ReturnType<typeof budgetOf> }).budget;
}

/** How busy a workspace is: requests in its rate window and promised to admitted checks, then its current holders. */
function load(ws: PooledWorkspace): number {
  return ((budgetOf(ws)?.used() ?? 0) + ws.promised()) * 100 + ws.shared;
}

/**
 * How much of the run a workspace carries: every request sent with it so far, those promised to
 * admitted checks, and the final clean-up's DELETEs it owes. Admission gives a check to the one
 * carrying least, so the run's requests end evenly spread and none spills into a window the others do not need.
 */
function runLoad(ws: PooledWorkspace): number {
  return ((budgetOf(ws)?.total() ?? 0) + ws.promised() + ws.owed) * 100 + ws.shared;
}

/**
 * Which workspace a shared lease prefers: the least busy (`busy`); a check that sends test emails first
 * one that has sent some already, so that untouched ones stay whole for a check that needs all 12.
 */
function rank(ws: PooledWorkspace, testEmails: number, busy = load): number {
  return (testEmails > 0 && ws.testEmails === 0 ? 1e9 : 0) + busy(ws);
}

/** Whether this run leaves `testEmails` more test emails of the day in the workspace. */
function hasRoom(ws: PooledWorkspace, testEmails: number): boolean {
  return testEmails === 0 || ws.testEmails + testEmails <= TEST_EMAILS_PER_WORKSPACE_DAY;
}

/**
 * Requests a workspace keeps free in the run's last window beyond what it owes the final clean-up:
 * a check may send a few more than it was measured to (a poll that took longer), taking room
 * nobody promised, and what its own clean-up then could not delete falls to the final one.
 */
export const OWED_MARGIN = 5;

/** The name and timezone a control API answered for a workspace it created, when it gave both as text. */
function identityOf(w: { name?: unknown; timezone?: unknown }): { name: string; timezone: string } | undefined {
  return typeof w.name === 'string' && typeof w.timezone === 'string' ? { name: w.name, timezone: w.timezone } : undefined;
}

/** What a check that sends beyond its promise in a workspace is promised more there, each time it has sent it all (pool.sent). */
export const OVERRUN_STEP = 5;

export class PooledWorkspace implements Workspace {
  shared = 0;
  exclusive = false;
  /** Held exclusively, yet shared with checks that send no mail (Workspace lease option lendsToMailless). */
  lendsToMailless = false;
  /** Test emails this run's checks may have sent from it today (reserved at lease). */
  testEmails = 0;
  /** Admitted checks' requests not sent yet, by check id: room the window keeps for them (reserve()). */
  readonly promises = new Map<string, number>();
  /** An admitted check that will lease it exclusively: kept free of other checks until then. */
  keptFor: string | undefined;
  /**
   * DELETEs the run's final clean-up will send with it (fixtures several checks shared, leftovers
   * of ended checks whose clean-up did not fit): in the last window the run plans to use, its
   * room keeps them, so the clean-up never waits for a window of its own.
   */
  owed = 0;
  /** Its name and timezone as the control API answered them when it created it. */
  identity?: { name: string; timezone: string };
  private keys = new Map<string, Promise<{ id: string; secret: string; client: ApiClient }>>();
  constructor(
    private readonly deps: PoolDeps,
    public readonly index: number,
    public readonly api: ApiClient,
    public readonly organizationId?: string,
    public readonly apiKeyId?: string,
  ) {}

  /** Requests promised to admitted checks and not sent yet. */
  promised(): number {
    let n = 0;
    for (const left of this.promises.values()) n += left;
    return n;
  }

  /**
   * Requests it may take now without waiting: its window's free slots less what admitted checks
   * will still send and, in the run's last window, what it owes the final clean-up and a margin.
   */
  room(): number {
    const budget = budgetOf(this);
    return budget ? budget.room() - this.promised() - (this.deps.holdsOwed?.() ? this.owed + OWED_MARGIN : 0) : Infinity;
  }

  /** This run's requests in its rate window (the Workspace contract's window()). */
  window(): { count: number; oldestAgeMs: number } {
    return budgetOf(this)?.window() ?? { count: 0, oldestAgeMs: 0 };
  }

  /** Keys are cached per scope set: the scope matrix asks for the same sets many times. */
  createKey(scopes: string[], name?: string, via: ApiClient = this.api): Promise<{ id: string; secret: string; client: ApiClient }> {
    const cacheKey = [...scopes].sort().join(' ');
    if (name === undefined) {
      const hit = this.keys.get(cacheKey);
      if (hit) return hit;
    }
    const made = this.makeKey(scopes, name ?? `${this.deps.prefix}key-${this.keys.size}`, via);
    if (name === undefined) {
      this.keys.set(cacheKey, made);
      made.catch(() => this.keys.delete(cacheKey));
    }
    return made;
  }

  private async makeKey(scopes: string[], name: string, via: ApiClient) {
    const op = operation(this.deps.profile, 'apikeys.create');
    if (!op) throw new KitError('the profile declares no "apikeys.create" operation');
    const res = await via.request({
      method: op.method,
      path: op.path,
      body: { [fieldName(op, 'name')]: name, [fieldName(op, 'scopes')]: scopes },
    });
    if (res.status < 200 || res.status > 299)
      throw new KitError(`creating an API key with scopes [${scopes.join(', ')}] answered ${res.status}: ${res.text.slice(0, 300)}`);
    const secret = getPath(res.body, resultPath(op, 'secret'));
    const id = getPath(res.body, resultPath(op, 'id'));
    if (typeof secret !== 'string' || typeof id !== 'string')
      throw new KitError(`the "apikeys.create" answer has no string at "${resultPath(op, 'secret')}" and "${resultPath(op, 'id')}"`);
    this.deps.registerSecret(secret);
    return { id, secret, client: this.api.withKey(secret) };
  }
}

export class WorkspacePool {
  readonly members: PooledWorkspace[] = [];
  private next = 0;
  private waiters: (() => void)[] = [];
  private extraIndex = 1000;
  /** Checks of the run that need a whole day's test emails of a workspace, not yet leased or ended: as many untouched workspaces are kept for them. */
  private readonly untouchedFor = new Set<string>();

  constructor(private readonly deps: PoolDeps) {}

  private get zones(): readonly string[] {
    return this.deps.zones?.length ? this.deps.zones : POOL_ZONES;
  }

  async prepare(): Promise<void> {
    const { profile, control } = this.deps;
    if (control) {
      const zones = this.zones;
      const made = await Promise.all(
        Array.from({ length: profile.poolSize }, (_, i) => control.createWorkspace({ name: `${this.deps.prefix}ws-${i}`, timezone: zones[i % zones.length] })),
      );
      made.forEach((w, i) => (this.add(i, w.apiKey, w.organizationId, w.apiKeyId).identity = identityOf(w)));
    } else {
      profile.workspaces.forEach((w, i) =>
        this.add(i, resolveSecret(w.apiKey, `workspaces.${i}.apiKey`), w.organizationId, w.apiKeyId),
      );
      // A key the target refuses is the user's set-up, not a conformance finding: say so before any check.
      await Promise.all(this.members.map((ws) => this.verifyKey(ws)));
    }
    if (this.members.length < 2) throw new KitError('the run needs at least two workspaces');
  }

  /**
   * Keeps a workspace no check has sent a test email from for each of `checkIds` (checks that need
   * all of a workspace's test emails of the day): a check sending fewer takes an untouched one
   * only while more are left than those still need. Otherwise, late in a run, the one untouched
   * workspace left may be full of other checks' requests when the check comes (it waits a window).
   */
  keepUntouched(checkIds: readonly string[]): void {
    for (const id of checkIds) this.untouchedFor.add(id);
  }

  /** Whether a check sending `testEmails` would take an untouched workspace kept for another (keepUntouched). */
  private keptUntouched(ws: PooledWorkspace, testEmails: number, checkId?: string): boolean {
    if (testEmails === 0 || ws.testEmails > 0 || (checkId !== undefined && this.untouchedFor.has(checkId)) || this.untouchedFor.size === 0) return false;
    return this.members.filter((m) => m.testEmails === 0).length <= this.untouchedFor.size;
  }

  /** One GET /v1/workspace with a profile workspace's key (counted in its rate budget): a refusal or no answer is a KitError naming the field. */
  private async verifyKey(ws: PooledWorkspace): Promise<void> {
    const secret = this.deps.profile.workspaces[ws.index]!.apiKey;
    const field = `workspaces.${ws.index}.apiKey${typeof secret === 'string' ? '' : ` (environment variable ${secret.env})`}`;
    let res;
    try {
      res = await ws.api.request({ method: 'GET', path: '/v1/workspace' });
    } catch (e) {
      throw new KitError(`the target did not answer GET /v1/workspace with the key of ${field}: ${(e as Error).message}`);
    }
    if (res.status >= 200 && res.status <= 299) return;
    const code = typeof res.body?.error?.code === 'string' ? ` ${res.body.error.code}` : '';
    const why =
      res.status === 401
        ? 'the target does not accept this key'
        : res.status === 403
          ? "the key lacks a scope GET /v1/workspace needs (each workspace key must hold all:all and apikeys:manage) or the workspace's plan has no API access"
          : 'a workspace the run cannot use';
    throw new KitError(`the key of ${field} was refused: GET /v1/workspace answered ${res.status}${code} (${why})`);
  }

  private add(index: number, key: string, organizationId?: string, apiKeyId?: string): PooledWorkspace {
    this.deps.registerSecret(key);
    const ws = new PooledWorkspace(this.deps, index, this.deps.clientFor(key, index, organizationId), organizationId, apiKeyId);
    this.members.push(ws);
    return ws;
  }

  /**
   * Promises an admitted check `need` requests in the workspace a shared lease would give it now,
   * where they fit without waiting (admission.ts); `spare`: one to leave alone (kept for the check
   * first in line); `only`: the one the run's packing gives the check (admission.ts). Undefined when no workspace has the room.
   */
  reserve(checkId: string, need: number, testEmails = 0, spare?: PooledWorkspace, mailless = false, exclusive = false, only?: PooledWorkspace): PooledWorkspace | undefined {
    // A check that leases exclusively gets a member an exclusive lease may take (never the first), kept for it.
    const first = exclusive ? this.members[0] : undefined;
    const ok = (m: PooledWorkspace) => (only === undefined || m === only) && m !== spare && m !== first && m.shared === (exclusive ? 0 : m.shared) && m.room() >= need;
    const ws = this.preferred(ok, testEmails, mailless, (m) => rank(m, testEmails, runLoad), checkId);
    ws?.promises.set(checkId, need);
    if (ws && exclusive) ws.keptFor = checkId;
    return ws;
  }

  /**
   * In the run's last planned window (against real time), what each member can still take before
   * the run ends: a window's requests less those sent since that window began (the earlier ones
   * leave it as it slides; these stay to its end), promised, owed to the final clean-up, and the
   * margin. Undefined before that window, or where nothing is planned.
   */
  runRoom(): Map<PooledWorkspace, number> | undefined {
    const inLast = this.deps.lastWindowMs?.();
    if (inLast === undefined || inLast < 0 || !this.deps.holdsOwed?.()) return undefined;
    const left = new Map<PooledWorkspace, number>();
    for (const ws of this.members) {
      const budget = budgetOf(ws);
      if (budget) left.set(ws, budget.limit - budget.usedWithin(inLast) - ws.promised() - ws.owed - OWED_MARGIN);
    }
    return left;
  }

  /** Against real time, whether the run is before the last window it plans to use. */
  beforeLastWindow(): boolean {
    return this.deps.lastWindowMs?.() !== undefined && !this.deps.holdsOwed?.();
  }

  /** The workspace with the most room a check sending `testEmails` could take (the one first in line waits for). */
  roomiest(testEmails = 0, mailless = false, checkId?: string): PooledWorkspace | undefined {
    return this.preferred(() => true, testEmails, mailless, (ws) => -ws.room(), checkId);
  }

  /**
   * One request of `checkId` went out with workspace `index`: its promise there shrinks by one. A
   * check that has sent all it was promised there and goes on (one waiting on real time polls for
   * as long as the target takes) is promised OVERRUN_STEP more, against real time (where the pool
   * is told of the run's last window; the control clock's runs are bound by their checks): the room it will go on taking is
   * kept for it, so that admission and the packing place others elsewhere instead of where it,
   * or the clean-up after it, would wait.
   */
  sent(checkId: string, index: number): void {
    // A request in a second workspace, promised none there: it spends the promise where most is left (in its first).
    const ws = this.members.find((m) => m.index === index && m.promises.has(checkId)) ?? this.mostPromised(checkId);
    const left = ws?.promises.get(checkId);
    if (ws && left !== undefined) ws.promises.set(checkId, left > 0 ? left - 1 : this.deps.lastWindowMs ? OVERRUN_STEP - 1 : 0);
  }

  /** The member where most of the check's promise is left. */
  private mostPromised(checkId: string): PooledWorkspace | undefined {
    return this.members.filter((m) => m.promises.has(checkId)).reduce<PooledWorkspace | undefined>((b, m) => (!b || m.promises.get(checkId)! > b.promises.get(checkId)! ? m : b), undefined);
  }

  /**
   * One more request of `checkId` with workspace `index` (its clean-up, sent after its run) fits
   * now: in what admission promised it there (taken), else in the window's room nobody was
   * promised. False: it would take room promised to another check.
   */
  spend(checkId: string, index: number): boolean {
    const ws = this.members.find((m) => m.index === index);
    if (!ws) return false;
    const left = ws.promises.get(checkId) ?? 0;
    if (left >= 1) ws.promises.set(checkId, left - 1);
    return left >= 1 || ws.room() >= 1;
  }

  /** The check ended: what it was promised is free again. */
  settle(checkId: string): void {
    // Ended (or skipped) without a lease: nothing is kept for it any more.
    this.untouchedFor.delete(checkId);
    for (const ws of this.members) {
      ws.promises.delete(checkId);
      if (ws.keptFor === checkId) ws.keptFor = undefined;
    }
    this.wake();
  }

  /**
   * Of the members a shared lease may take (`ok`), the one ranked first (round robin among equals).
   * One held exclusively only by a check sending no mail (`mailless`), where its holder lends it.
   */
  private preferred(ok: (ws: PooledWorkspace) => boolean, testEmails: number, mailless: boolean, score = (ws: PooledWorkspace) => rank(ws, testEmails), checkId?: string): PooledWorkspace | undefined {
    let best: PooledWorkspace | undefined;
    for (let i = 0; i < this.members.length; i++) {
      const ws = this.members[(this.next + i) % this.members.length]!;
      if ((ws.exclusive && !(mailless && ws.lendsToMailless)) || ws.keptFor !== undefined || !hasRoom(ws, testEmails) || this.keptUntouched(ws, testEmails, checkId) || !ok(ws)) continue;
      if (!best || score(ws) < score(best)) best = ws;
    }
    return best;
  }

  /**
   * A shared lease: the workspace admission promised the check's requests to, else of the
   * workspaces not held exclusively the one with the most rate budget left in its window (then
   * the fewest holders, then round robin), so no check waits on a busy one while another is idle.
   */
  async lease(avoid: readonly Workspace[] = [], testEmails = 0, checkId?: string, mailless = false): Promise<{ ws: PooledWorkspace; release(): void }> {
    if (testEmails > 0 && !this.members.some((m) => hasRoom(m, testEmails))) return this.leaseFresh(testEmails);
    for (;;) {
      const usable = (ws: PooledWorkspace) => !avoid.includes(ws);
      const promised = checkId === undefined ? undefined : this.preferred((ws) => usable(ws) && ws.promises.has(checkId), testEmails, mailless, undefined, checkId);
      const best = promised ?? this.preferred(usable, testEmails, mailless, undefined, checkId);
      if (best) {
        this.next = (this.members.indexOf(best) + 1) % this.members.length;
        best.shared++;
        best.testEmails += testEmails;
        if (checkId !== undefined) this.untouchedFor.delete(checkId);
        if (checkId !== undefined && !promised) this.movePromise(checkId, best, avoid);
        return { ws: best, release: () => this.release(best, false) };
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** An exclusive lease: a fresh workspace from the control API, or a pool member once idle. */
  async leaseExclusive(testEmails = 0, checkId?: string, lendsToMailless = false): Promise<{ ws: PooledWorkspace; release(): void; fresh: boolean }> {
    if (this.deps.control) return this.leaseFresh(testEmails);
    if (testEmails > 0 && !this.members.slice(1).some((m) => hasRoom(m, testEmails))) return this.leaseFresh(testEmails);
    // Keep at least one member for shared leases; of the idle others, the one promised to the
    // check, else the one with the most room (a rate-limit check wants an empty window).
    for (;;) {
      const free = this.members.filter((m) => !m.exclusive);
      const idle = free.length > 1 ? free.slice(1).filter((m) => m.shared === 0 && hasRoom(m, testEmails) && !this.keptUntouched(m, testEmails, checkId)) : [];
      const mine = checkId === undefined ? undefined : idle.find((m) => m.promises.has(checkId));
      const pick = mine ?? idle.filter((m) => m.keptFor === undefined).reduce<PooledWorkspace | undefined>((b, m) => (!b || m.room() > b.room() ? m : b), undefined);
      if (pick) {
        pick.exclusive = true;
        pick.keptFor = undefined;
        pick.lendsToMailless = lendsToMailless;
        pick.testEmails += testEmails;
        if (checkId !== undefined) this.untouchedFor.delete(checkId);
        if (checkId !== undefined && !mine) this.movePromise(checkId, pick, []);
        return { ws: pick, release: () => this.release(pick, true), fresh: false };
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** The check leased another workspace than the one promised (test emails, exclusivity): the promise follows it, unless the check holds that one too. */
  private movePromise(checkId: string, to: PooledWorkspace, held: readonly Workspace[]): void {
    const from = this.members.find((m) => m !== to && m.promises.has(checkId) && !held.includes(m));
    if (!from) return;
    to.promises.set(checkId, from.promises.get(checkId)!);
    from.promises.delete(checkId);
  }

  /** The check is promised `n` more in the workspace where most of its promise is left (it runs past its measured time: Runner.runCheck). */
  promiseMore(checkId: string, n: number): void {
    const ws = this.mostPromised(checkId);
    ws?.promises.set(checkId, ws.promises.get(checkId)! + n);
  }

  /**
   * Moves up to `n` of what is left of the check's promise in another workspace to `to`, one it
   * holds as well (a second workspace): the clean-up of what it creates there is kept room for.
   */
  keepFor(checkId: string, to: PooledWorkspace, n: number): void {
    const from = this.members.find((m) => m !== to && (m.promises.get(checkId) ?? 0) > 0);
    const moved = Math.min(n, from?.promises.get(checkId) ?? 0);
    if (!from || moved <= 0) return;
    from.promises.set(checkId, from.promises.get(checkId)! - moved);
    to.promises.set(checkId, (to.promises.get(checkId) ?? 0) + moved);
  }

  /**
   * A workspace of its own from the control API (nothing shares it; its test emails of the day are
   * untouched). Without one, a check needing more test emails than the run left in any workspace skips.
   */
  private async leaseFresh(testEmails: number): Promise<{ ws: PooledWorkspace; release(): void; fresh: boolean }> {
    const { control } = this.deps;
    if (!control)
      skip(
        `needs a workspace with ${testEmails} of its ${TEST_EMAILS_PER_WORKSPACE_DAY} test emails of the day left (part 8), and this run's other checks have used them in all ${this.members.length} workspaces of the profile: give it more workspaces`,
      );
    const w = await control.createWorkspace({ name: `${this.deps.prefix}excl-${this.extraIndex}`, timezone: this.zones[this.extraIndex % this.zones.length] });
    this.deps.registerSecret(w.apiKey);
    const index = this.extraIndex++;
    const ws = new PooledWorkspace(this.deps, index, this.deps.clientFor(w.apiKey, index, w.organizationId), w.organizationId, w.apiKeyId);
    ws.testEmails = testEmails;
    ws.identity = identityOf(w);
    return { ws, release: () => {}, fresh: true };
  }

  private release(ws: PooledWorkspace, exclusive: boolean): void {
    if (exclusive) {
      ws.exclusive = false;
      ws.lendsToMailless = false;
    } else ws.shared--;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters.splice(0);
    w.forEach((f) => f());
  }
}
