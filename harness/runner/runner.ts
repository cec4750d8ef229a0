import type { Profile } from '../ground/profile-schema.ts';
import { FIRST_LOOK_ID, type CheckEndEvent, type FirstLookMeasure, type EventSink, type ExchangeEvent, type RunEvent, type Verdict } from '../ground/events.ts';
import type { ApiClient } from '../ground/api-client.ts';
import { CheckFailure, CheckSkipped, TEST_EMAILS_PER_WORKSPACE_DAY, type Check, type CheckContext, type ControlClient, type Depth, type Feature, type Workspace } from '../ground/check.ts';
import { errorCause, type TypedFailure } from '../ground/failure.ts';
import { createClient } from '../client/client.ts';
import { createControlClient, type ConformanceControlClient } from '../client/control.ts';
import { RateBudget } from '../client/budget.ts';
import { Recorder } from '../client/recorder.ts';
import { Redactor } from '../client/redact.ts';
import { WorkspacePool, type PooledWorkspace } from './pool.ts';
import { checkSeed } from '../ground/seed.ts';
import { isSolo, runPhases } from '../plan/schedule.ts';
import { cleansUp, expectedCleanup, expectedDurationMs, targetRequests, type ClockMode } from '../plan/expected.ts';
import { Admission } from './admission.ts';
import { RequestBudget } from './request-budget.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { cleanUp, removeAll } from './sweep.ts';
import { CreatedLedger, createdResources, type CreatedResource } from './created.ts';
import { levelOf } from '../ground/spec-model/levels.ts';
import { startSinks, type MailSink } from '../sinks/index.ts';
import { connectRemoteSinks } from '../sinks/remote-sinks.ts';
import { profileGap } from '../plan/static-gap.ts';
import { readsClause, recordingProfile } from './profile-reads.ts';
import type { ControlEndpoint } from '../ground/control-endpoint.ts';
import type { MachineCause } from '../ground/machine-causes.ts';

// Runs checks against one target: leases workspaces, turns a check's throw into a verdict,
// and emits check-start/check-end events (exchanges are emitted by the client's recorder).

export interface RunnerOptions {
  profile: Profile;
  baseUrl: string;
  control?: ControlEndpoint;
  depth: Depth;
  sink: EventSink;
  /** Prefix of every resource name this run creates (swept before and after). */
  prefix: string;
  seed: number;
  /** A standalone `outreach-conformance sinks` (HTTP API URL) to use instead of in-process sinks. */
  sinksUrl?: string;
  /** A check still running after this long (from its admission) ends as an error. */
  checkTimeoutMs?: number;
  /** Checks at once (admission.ts); default: as many as the caller starts (runAll's workers). */
  concurrency?: number;
  /** The run's request budget (the depth's or --time-budget's): a check that would pass it is not started (request-budget.ts). */
  requestBudget?: number;
  /** Time zones of the workspaces the run creates through the control API, in turn; default POOL_ZONES (a clock-edge run pins one). */
  zones?: readonly string[];
}

/** Of a window after the run's start, where its last window begins for the packing: the first window's burst is over by then. */
const PACK_FROM_SHARE = 0.3;

/** A check running this many times its measured duration is overdue: it is promised more (Runner.promiseMoreWhenOverdue). */
const OVERDUE_FACTOR = 2;

/** How many of a check's latest exchanges stand in as evidence when a failure names none. */
const RECENT_EVIDENCE = 3;


export class Runner {
  readonly redactor = new Redactor();
  readonly recorder: Recorder;
  readonly pool: WorkspacePool;
  readonly control?: ConformanceControlClient;
  readonly anonymous: ApiClient;
  /** Every exchange of the run so far (the envelope observer reads them). */
  readonly exchanges: ExchangeEvent[] = [];
  /** The mail sinks, when the profile says the target can reach them. */
  sinks?: MailSink;
  private requestsByCheck = new Map<string, number>();
  /** The rate budget of every workspace client, moved along when the control clock jumps. */
  private readonly budgets: RateBudget[] = [];
  private controlByCheck = new Map<string, number>();
  /** Check id -> ms its requests waited on the kit's rate budget (exchange queuedMs). */
  private queuedByCheck = new Map<string, number>();
  /** The last few exchange ids of each check: evidence for a failure that named none. */
  private recentByCheck = new Map<string, string[]>();
  /** What GET /capabilities announced (prepare). */
  private controlExtensions: readonly string[] = [];
  /** When a check may start: a free slot and room in a workspace's rate window (admission.ts). */
  readonly admission: Admission;
  /** Set while a fixture several checks use is built (ctx.share, a pooled key): its exchanges land in `sharedExchanges`. */
  private readonly sharing = new AsyncLocalStorage<true>();
  /** Exchanges that built fixtures several checks use: what they create is left to the run's final clean-up. */
  private readonly sharedExchanges = new Set<string>();
  /** What the run created and has not deleted yet, kept as exchanges come (a target without the control API: the kit cleans up). */
  private readonly ledger?: CreatedLedger;
  /** Checks that ended (and cleaned up after themselves): what they left is the final clean-up's. */
  private readonly ended = new Set<string>();
  /** From this time the run is in the last rate window it plans to use (prepare): the pool keeps the final clean-up's room. */
  private lastWindowAt = 0;
  /** What the run may still send to the target: a check starts only if its measured requests fit. */
  readonly requestBudget: RequestBudget;
  /**
   * Where the run's last window begins, as the packing counts it (prepare): what was sent after
   * this stays in that window to the run's end; the first window's burst, before it, leaves it.
   * Undefined where nothing is packed (a run its first window holds).
   */
  private packFrom: number | undefined;

  constructor(readonly opts: RunnerOptions) {
    this.requestBudget = new RequestBudget(opts.requestBudget);
    const tee: EventSink = {
      emit: (e: RunEvent) => {
        if (e.type === 'exchange') {
          this.exchanges.push(e);
          if (this.sharing.getStore()) this.sharedExchanges.add(e.id);
          if (this.ledger?.add(e)) this.countOwed();
          // Requests to the target (what its rate limit counts and the planner budgets) apart from control calls.
          const toTarget = e.request.url.startsWith(`${opts.baseUrl.replace(/\/$/, '')}/`);
          if (toTarget) this.requestBudget.sent(e.checkId);
          if (e.checkId) {
            // A request sent with a pooled workspace's key spends what admission promised the check there.
            if (e.workspace !== undefined) this.pool.sent(e.checkId, e.workspace);
            const counts = toTarget ? this.requestsByCheck : this.controlByCheck;
            counts.set(e.checkId, (counts.get(e.checkId) ?? 0) + 1);
            if (e.queuedMs) this.queuedByCheck.set(e.checkId, (this.queuedByCheck.get(e.checkId) ?? 0) + e.queuedMs);
            const recent = this.recentByCheck.get(e.checkId) ?? [];
            recent.push(e.id);
            if (recent.length > RECENT_EVIDENCE) recent.shift();
            this.recentByCheck.set(e.checkId, recent);
          }
        }
        opts.sink.emit(e);
      },
    };
    this.recorder = new Recorder(tee, this.redactor);
    if (opts.control) {
      this.redactor.add(opts.control.token);
      this.control = createControlClient({ baseUrl: opts.control.baseUrl, token: opts.control.token, recorder: this.recorder });
    }
    this.anonymous = createClient({ baseUrl: opts.baseUrl, key: null, recorder: this.recorder });
    const { requests, windowSeconds } = opts.profile.rateLimit;
    this.pool = new WorkspacePool({
      profile: opts.profile,
      control: this.control,
      prefix: opts.prefix,
      ...(opts.zones ? { zones: opts.zones } : {}),
      registerSecret: (s) => this.redactor.add(s),
      holdsOwed: () => Date.now() >= this.lastWindowAt,
      // With the control API the clock jumps and ages every window: only real time is packed.
      ...(this.control ? {} : { lastWindowMs: () => (this.packFrom === undefined ? undefined : Date.now() - this.packFrom) }),
      clientFor: (key, workspace, organizationId) => {
        const budget = new RateBudget({ requests, windowMs: windowSeconds * 1000 });
        this.budgets.push(budget);
        return createClient({ baseUrl: opts.baseUrl, key, recorder: this.recorder, budget, workspace, organizationId });
      },
    });
    this.admission = new Admission(this.pool, opts.concurrency ?? Infinity, requests);
    if (cleansUp(opts.profile)) this.ledger = new CreatedLedger(opts.profile, opts.baseUrl.replace(/\/$/, ''), opts.prefix);
    if (this.control) {
      // The target's rate windows follow its clock: moving it ages what every budget counted.
      const control = this.control;
      const advance = control.advance.bind(control);
      control.advance = async (seconds) => {
        const now = await advance(seconds);
        for (const b of this.budgets) b.shift(seconds * 1000);
        return now;
      };
    }
  }

  /** Provisions workspaces; starts the sinks only when one of `checks` needs or uses them. */
  async prepare(checks: readonly Check[] = []): Promise<void> {
    const needsSinks = checks.some((c) => [...c.features, ...(c.uses ?? [])].some((f) => f === 'sinks' || f === 'imap'));
    if (this.opts.profile.features.sinks && needsSinks) {
      // Remote: the staging deployment reaches a standalone sinks process (--sinks URL).
      // In-process: stops by itself if the run dies without finish() (every server stops).
      this.sinks = this.opts.sinksUrl
        ? await connectRemoteSinks(this.opts.sinksUrl)
        : await startSinks({ host: this.opts.profile.sinks?.host ?? '127.0.0.1', requireAuth: true, maxLifetimeMs: 30 * 60_000 });
    }
    // Optional control extensions, probed once (GET /capabilities): featureGap reads them.
    if (this.control) this.controlExtensions = await this.control.extensions();
    // No sweep before: the run prefix is new, nothing on the target carries it yet.
    await this.pool.prepare();
    // Without the control API no workspace's test emails of the day can be had anew: untouched ones are kept for the checks that need them all.
    if (!this.control) this.pool.keepUntouched(checks.filter((c) => (c.testEmails ?? 0) >= TEST_EMAILS_PER_WORKSPACE_DAY && !this.missingFeature(c)).map((c) => c.id));
    this.planWindows(checks);
  }

  /**
   * When each workspace's room starts keeping what it owes the final clean-up: at once where the
   * run's requests fit in the first window of its workspaces, else from the second window on
   * (a check that skips as it runs still counts here: a count that may be high, never low, so
   * the hold never starts late; in a run of three windows or more it starts a window early).
   */
  private planWindows(checks: readonly Check[]): void {
    const requests = checks.filter((c) => !this.missingFeature(c)).reduce((n, c) => n + this.need(c), 0);
    const { requests: perWindow, windowSeconds } = this.opts.profile.rateLimit;
    const oneWindow = requests <= this.pool.members.length * perWindow;
    // A little before the first window's requests leave it: nothing is admitted while it is full, so holding early costs nothing.
    this.lastWindowAt = oneWindow ? 0 : Date.now() + windowSeconds * 1000 * 0.9;
    // A run of two windows ends about a window after its first burst (a few seconds of the first window's start);
    // one its first window holds has nothing to pack.
    this.packFrom = oneWindow ? undefined : Date.now() + windowSeconds * 1000 * PACK_FROM_SHARE;
  }

  /**
   * Per workspace, the DELETEs the final clean-up will send with it: fixtures built to share, and
   * what ended checks left (their own clean-up did not fit). A running check's creations are not
   * owed: its clean-up spends its own promise.
   */
  private countOwed(): void {
    const owed = (r: CreatedResource) => !r.checkId || this.ended.has(r.checkId) || (r.exchangeId !== undefined && this.sharedExchanges.has(r.exchangeId));
    for (const ws of this.pool.members) ws.owed = this.ledger?.byWorkspace.get(ws.index)?.resources.filter(owed).length ?? 0;
  }

  async finish(): Promise<string[]> {
    try {
      if (this.control) return [];
      const created = createdResources(this.exchanges, this.opts.profile, this.opts.baseUrl.replace(/\/$/, ''), this.opts.prefix);
      return await cleanUp(this.pool.members, this.opts.profile, this.opts.prefix, created);
    } finally {
      await this.sinks?.stop();
    }
  }

  /** How the target keeps time for this run: the control API's clock the checks move, or real time. */
  get clock(): ClockMode {
    return this.control ? 'control' : 'real';
  }

  /** Why a check cannot run here, or undefined. */
  missingFeature(check: Check): string | undefined {
    for (const f of check.features) {
      const why = this.featureGap(f);
      if (why) return why;
    }
    return undefined;
  }

  /** Why the sinks have no IMAP server (this machine lacks one), or undefined. */
  private noImapServer(): string | undefined {
    return this.sinks && !this.sinks.imap ? (this.sinks.imapUnavailableReason ?? 'the IMAP sink is unavailable') : undefined;
  }

  /** A gap this machine causes, not the profile: the IMAP server the sinks could not start. */
  private machineCauseOf(missing: string): MachineCause | undefined {
    return missing === this.noImapServer() ? 'no-imap-server' : undefined;
  }

  private featureGap(f: Feature): string | undefined {
    const p = this.opts.profile;
    if (f === 'control') return this.control ? undefined : 'needs the conformance-control API (profile "control")';
    if (f.startsWith('control:')) {
      const ext = f.slice('control:'.length);
      if (!this.control) return `needs the conformance-control API (profile "control") with its optional "${ext}" extension`;
      return this.controlExtensions.includes(ext) ? undefined : `needs the optional "${ext}" extension of the conformance-control API (not announced by its GET /capabilities)`;
    }
    if (f === 'twoWorkspaces' || f === 'exclusiveWorkspace') return undefined; // the pool guarantees two
    if (f === 'sinks') {
      if (!p.features.sinks) return 'needs mail sinks the target can reach (profile features.sinks)';
      return this.sinks ? undefined : 'the mail sinks were not started for this run';
    }
    if (f === 'imap') {
      if (!p.features.imap) return 'needs the IMAP sink (profile features.imap)';
      return this.noImapServer();
    }
    if (f === 'testEmail') return p.features.testEmail ? undefined : "needs a target that sends test emails from mailboxes at the kit's sinks (profile features.testEmail)";
    if (f === 'oauth') return p.features.oauth ? undefined : 'needs OAuth mailboxes (profile features.oauth)';
    if (f.startsWith('op:') || f.startsWith('decl:')) return profileGap(f, p);
    return `unknown feature ${f}`;
  }

  /**
   * Requests the check is measured to send to the target: where the kit cleans up, its clean-up
   * too (measured), sent right after it within the same promise (cleanUpAfter).
   */
  need(check: Pick<Check, 'id' | 'budget'>): number {
    return targetRequests(check, this.opts.depth, this.opts.profile);
  }

  /**
   * Without the control API, deletes what the check's own exchanges show it created and left,
   * in the workspace it was created in, while the check still holds its leases and admission's
   * promise: the DELETEs go only as far as the room held for it (pool.spend). Fixtures built to share (`sharedExchanges`)
   * stay for their other users; a listing's work (an unreadable creation answer) and what could
   * not be deleted are left to the final clean-up (finish), which retries and reports it. The
   * DELETEs carry no check id: what a check sends (its measured count) stays its own requests.
   */
  private async cleanUpAfter(check: Check): Promise<void> {
    // With the control API the run's workspaces are its own and nothing is deleted, except after
    // a check that moves the clock: its mailboxes would go on being polled and sent from at
    // every later step of every later check (the target's background work grows with them).
    const afterClock = !!this.control && isSolo(check);
    if (this.control && !afterClock) return;
    const own = this.exchanges.filter((e) => e.checkId === check.id && !this.sharedExchanges.has(e.id));
    const made = createdResources(own, this.opts.profile, this.opts.baseUrl.replace(/\/$/, ''), this.opts.prefix);
    for (const [index, left] of made) {
      const ws = this.pool.members.find((m) => m.index === index);
      if (!ws || left.unreadable) continue;
      // Only within the room held for the check (else free): what would take another's waits for the final clean-up.
      // After a clock check the DELETEs are the check's own requests (counted and measured as its).
      const by = afterClock ? { api: ws.api.forCheck(check.id), apiKeyId: ws.apiKeyId } : ws;
      for (const r of left.resources) if ((!afterClock && !this.pool.spend(check.id, index)) || (await removeAll(by, [r])).length) break;
    }
  }

  /**
   * A check still running at OVERDUE_FACTOR times its measured duration waits on the target longer
   * than measured (a slower target, mail later than measured) and polls meanwhile: what it will
   * send is more than measured, so it is promised half its measured requests more, kept from the
   * other checks' room (pool.promiseMore). A timer the check's end clears.
   */
  private promiseMoreWhenOverdue(check: Check, need: number): NodeJS.Timeout {
    const ms = OVERDUE_FACTOR * expectedDurationMs(check, this.clock);
    const timer = setTimeout(() => this.pool.promiseMore(check.id, Math.ceil(need / 2)), ms);
    timer.unref();
    return timer;
  }

  /**
   * Before any check: `look` (a first look at the target, suites/lib/first-look.ts) run like a
   * check that proves nothing, under FIRST_LOOK_ID (its exchanges carry it, admission counts its
   * requests in its workspace's window, what it creates is deleted after it), and its outcome as a
   * first-look event. It never fails the run: where it cannot be taken the event says why.
   */
  async firstLook(look: { run(ctx: CheckContext): Promise<FirstLookMeasure>; requests: number }): Promise<void> {
    let seen: FirstLookMeasure | undefined;
    // Without the control API its mailbox is verified in the target's own time at the sinks; with it, the drains need none.
    const pseudo: Check = { id: FIRST_LOOK_ID, title: 'first look at the target', clauses: [], level: 'MUST', features: this.control ? [] : ['sinks'], budget: look.requests, run: async (ctx) => void (seen = await look.run(ctx)) };
    const missing = this.missingFeature(pseudo);
    const leave = missing ? undefined : await this.admission.enter(FIRST_LOOK_ID, look.requests, 0, false, false);
    const outcome = leave ? await this.runAdmitted(pseudo, false, leave) : { verdict: 'skip' as const, message: missing };
    const measured = seen && (seen.settleMs !== undefined || seen.drainMs !== undefined);
    this.opts.sink.emit({ type: 'first-look', at: new Date().toISOString(), ...(seen ?? {}), ...(!measured ? { error: seen ? 'the mailbox reached no verification outcome within the wait' : this.redactor.text(outcome.message ?? outcome.verdict) } : {}) });
  }

  async runCheck(check: Check): Promise<CheckEndEvent> {
    const missing = this.missingFeature(check);
    // A check that runs starts once admitted (a slot, and room for its requests); one that skips at once.
    const mailless = sendsNoMail(check);
    const exclusive = check.features.includes('exclusiveWorkspace') && !this.control;
    const need = this.need(check);
    const leave = missing ? () => {} : await this.admission.enter(check.id, need, check.testEmails, mailless, exclusive);
    const started = Date.now();
    this.opts.sink.emit({ type: 'check-start', checkId: check.id, at: new Date(started).toISOString() });
    // Admitted, it starts only if what it was measured to send still fits the run's request budget.
    const overBudget = missing ? undefined : this.requestBudget.begin(check.id, need, this.pool.members.reduce((n, ws) => n + ws.owed, 0));
    let outcome: Outcome;
    if (missing ?? overBudget) {
      const machineCause = missing ? this.machineCauseOf(missing) : undefined;
      outcome = { verdict: 'skip', message: (missing ?? overBudget)!, ...(machineCause ? { machineCause } : {}) };
      this.pool.settle(check.id);
      leave();
    } else {
      // Against real time only: there the rate windows bound the run (the control clock's runs are bound by the checks).
      const overdue = this.control ? undefined : this.promiseMoreWhenOverdue(check, need);
      try {
        outcome = await this.runAdmitted(check, mailless, leave);
      } finally {
        clearTimeout(overdue);
      }
    }
    const durationMs = Date.now() - started;
    // Requests of one check may wait side by side: never more than the check took.
    const waitedMs = Math.round(Math.min(durationMs, this.pool.takeWaited(check.id) + (this.queuedByCheck.get(check.id) ?? 0)));
    const end: CheckEndEvent = {
      type: 'check-end',
      checkId: check.id,
      title: check.title,
      clauses: check.clauses,
      // The catalog decides (a check's own field must agree: suites/ids.test.ts).
      level: levelOf(check.clauses),
      verdict: outcome.verdict,
      ...(outcome.message !== undefined ? { message: this.redactor.text(outcome.message) } : {}),
      ...(outcome.failure ? { failure: this.redactedFailure(outcome.failure) } : {}),
      ...(outcome.machineCause ? { machineCause: outcome.machineCause } : {}),
      ...(outcome.evidence?.length ? { evidence: outcome.evidence } : {}),
      durationMs,
      ...(waitedMs >= 1 ? { waitedMs } : {}),
      requests: this.requestsByCheck.get(check.id) ?? 0,
      ...(this.controlByCheck.has(check.id) ? { controlRequests: this.controlByCheck.get(check.id) } : {}),
    };
    this.opts.sink.emit(end);
    return end;
  }

  /** Runs an admitted check: its context, its verdict, then its clean-up, leases and admission released. */
  private async runAdmitted(check: Check, mailless: boolean, leave: () => void): Promise<Outcome> {
    const leases: (() => void)[] = [];
    const held: Workspace[] = [];
    const seed = checkSeed(this.opts.seed, check.id);
    // What the check reads of the "not shown" values: a failure names them.
    const view = recordingProfile(this.opts.profile);
    const control = this.control?.forCheck(check.id);
    const ctx: CheckContext = {
      checkId: check.id,
      profile: view.profile,
      depth: this.opts.depth,
      prefix: this.opts.prefix,
      seed,
      anonymous: this.anonymous.forCheck(check.id),
      // Control calls carry the check's id too: per-check request counts are what it really spends.
      control,
      sinks: this.sinks,
      workspace: async (o) => {
        const lease = o?.exclusive ? await this.pool.leaseExclusive(check.testEmails, check.id, o.lendsToMailless) : await this.pool.lease(held, check.testEmails, check.id, mailless);
        // A second workspace: the clean-up of what the check creates there is kept room for in it (its measured clean-up at most).
        if (held.length && !this.control) this.pool.keepFor(check.id, lease.ws, expectedCleanup(check));
        leases.push(lease.release);
        held.push(lease.ws);
        return forCheck(lease.ws, check.id, (build) => this.sharing.run(true, build));
      },
      observed: () => this.exchanges,
      share: (build) => this.sharing.run(true, build),
      log: () => {},
      targetWork: (what, ms) => this.opts.sink.emit({ type: 'target-work', checkId: check.id, what, at: new Date().toISOString(), ms: Math.round(ms) }),
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const limit = this.opts.checkTimeoutMs;
      const timeout = limit === undefined ? [] : [new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the check did not end within ${limit / 1000} s`)), limit)))];
      await Promise.race([check.run(ctx), ...timeout]);
      return { verdict: 'pass' };
    } catch (e) {
      return this.outcomeOf(e, check, seed, readsClause(view.reads()), slowDrainsClause(control?.slowDrains() ?? 0));
    } finally {
      clearTimeout(timer);
      await this.cleanUpAfter(check).catch(() => {});
      this.ended.add(check.id);
      this.requestBudget.end(check.id);
      this.countOwed();
      leases.forEach((r) => r());
      this.pool.settle(check.id);
      leave();
    }
  }

  /** A typed failure's fields pass the redactor too: a code or a schema problem could quote what a target echoed. */
  private redactedFailure(f: TypedFailure): TypedFailure {
    const text = (v: string) => this.redactor.text(v);
    const fields = Object.fromEntries(Object.entries(f.fields).map(([k, v]) => [k, typeof v === 'string' ? text(v) : Array.isArray(v) ? v.map(text) : v]));
    return { kind: f.kind, fields, ...(f.details ? { details: f.details.map(text) } : {}) };
  }

  /** A check's throw as its verdict: a failure (naming the profile values it read), a skip, or an error. */
  private outcomeOf(e: unknown, check: Check, seed: number, reads: string, slow = ''): Outcome {
    if (e instanceof CheckSkipped) return { verdict: 'skip', message: e.message, ...(e.machineCause ? { machineCause: e.machineCause } : {}) };
    const failed = e instanceof CheckFailure;
    // A failure that rests on a profile value says so: the value may be the profile's mistake.
    const message = `${failed ? `${e.message}${reads}` : this.redactor.text(e instanceof Error ? `${e.name}: ${e.message}` : String(e))}${slow}`;
    // Every failure shows what the target answered: a check that named no exchange gets its last ones.
    const evidence = failed && e.evidence?.length ? e.evidence : this.recentByCheck.get(check.id)?.slice();
    // An error that is no verdict is typed too: the client's transport and control errors carry their cause, the rest is the kit's.
    const typed = failed ? (e.typed ? { failure: e.typed } : {}) : { failure: errorCause(e) };
    return { verdict: failed ? 'fail' : 'error', message: `${message} (check seed ${seed}, run seed ${this.opts.seed})`, ...typed, ...(evidence?.length ? { evidence } : {}) };
  }

  /** Runs the phases of `checks` (runPhases): one by one where a phase is serial, else `concurrency` at a time. */
  async runAll(checks: readonly Check[], concurrency = 8): Promise<CheckEndEvent[]> {
    const results: CheckEndEvent[] = [];
    for (const phase of runPhases(checks, { clock: this.clock, requests: (c) => this.need(c) })) {
      let i = 0;
      const worker = async () => {
        while (i < phase.checks.length) results.push(await this.runCheck(phase.checks[i++]!));
      };
      await Promise.all(Array.from({ length: phase.concurrent ? Math.min(concurrency, phase.checks.length) : 1 }, worker));
    }
    return results;
  }
}

/** A failure's note that the control API was slow to run its background work (nothing when it was not). */
function slowDrainsClause(n: number): string {
  return n === 0 ? '' : ` (a slow control API: ${n} of the drains this check asked for ended with work left or went unanswered)`;
}

/** A check's verdict, with its message and evidence. */
interface Outcome {
  verdict: Verdict;
  message?: string;
  failure?: TypedFailure;
  machineCause?: MachineCause;
  evidence?: string[];
}

/** A check that has no mailbox a target can send from (none at the sinks, no OAuth one) and sends no test email sends no mail. */
function sendsNoMail(check: Check): boolean {
  return !check.testEmails && ![...check.features, ...(check.uses ?? [])].some((f) => f === 'sinks' || f === 'imap' || f === 'testEmail' || f === 'oauth');
}

/** `share`: builds what several checks use (a pooled key, cached per scope set): the run's final clean-up deletes it. */
function forCheck(ws: PooledWorkspace, checkId: string, share: <T>(build: () => Promise<T>) => Promise<T>): Workspace {
  return {
    organizationId: ws.organizationId,
    apiKeyId: ws.apiKeyId,
    ...ws.identity,
    api: ws.api.forCheck(checkId),
    window: () => ws.window(),
    createKey: async (scopes, name) => {
      // A key the pool has not made yet is made through (and counted for) this check.
      const make = () => ws.createKey(scopes, name, ws.api.forCheck(checkId));
      const k = await (name === undefined ? share(make) : make());
      return { ...k, client: k.client.forCheck(checkId) };
    },
  };
}
