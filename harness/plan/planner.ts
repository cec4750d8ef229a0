import type { Check, Depth } from '../ground/check.ts';
import { cleansUp, clockOf, expectedCleanup, targetRequests } from './expected.ts';
import { estimateRun, WINDOW_FILL, type RunEstimate } from './schedule.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { DEPTH_BUDGETS, detectionHere, PLANNED_SHARE, selectWithin, type DepthSelection } from './select-depth.ts';
import { staticGap, type TargetKnown } from './static-gap.ts';
import type { Detection } from './detection.ts';
import { describePace, type TargetPace } from './target-pace.ts';
import { selectChecks } from './eligible.ts';

// Before a run: how many requests it will spend and how long a rate-limited target makes it take.
export interface Plan {
  checks: number;
  /** Of them, those that skip on this profile whatever the target answers (static-gap.ts): they send nothing. */
  skipping: number;
  /** Requests the target is expected to see (measured: harness/plan/expected.ts), clean-up included. */
  requests: number;
  /** Of them, the DELETEs of the clean-up, after each check and after the run (a target without the control API; else 0). */
  cleanup: number;
  /** The sum of the checks' budgets: what they may send at most. */
  atMost: number;
  workspaces: number;
  /** Requests the pool may send per second under the target's rate limit. */
  ratePerSecond: number;
  /** Lower bound of the run's duration from the rate limit alone (the first window is free). */
  minSeconds: number;
  /** How long the run is expected to take: its phases simulated with measured durations, at least the rate floor. */
  estimate: RunEstimate;
  /** What the estimate rests on besides the workspaces: whose measured durations (by the target's clock), this target's pace in earlier runs (if known), checks at once, the rate limit. */
  basis: { clock: ReturnType<typeof clockOf>; pace?: TargetPace; concurrency: number; perWindow: number; windowSeconds: number };
}

/**
 * Workspaces a run provisions: --workspaces, else the profile's poolSize; a full run on the
 * embedded target (workspaces are free) takes at least 64 so per-workspace budgets do not
 * stretch it to many minutes.
 */
export function effectivePoolSize(profile: Profile, depth: string, override?: number): number {
  if (override !== undefined) return override;
  return depth === 'full' && profile.embedded ? Math.max(profile.poolSize, 64) : profile.poolSize;
}

/**
 * Checks at once in the concurrent phase unless --concurrency says: 8; 32 against a target that
 * keeps real time, where a dozen checks spend a minute or more waiting on it (mail arrivals, a
 * rate window) and would otherwise hold most slots while the rate budget sits idle. Admission
 * (admission.ts), not this number, keeps what the target receives within its rate windows.
 */
export function defaultConcurrency(profile: Pick<Profile, 'embedded' | 'control'>): number {
  return clockOf(profile) === 'real' ? 32 : 8;
}

/**
 * `known.extensions`: what the control API announced (GET /capabilities); undefined when not
 * probed, and every `control:<ext>` is then assumed available. `known.pace`: this target's pace
 * in earlier runs (target-pace.ts), which the estimate's durations take.
 */
export function plan(checks: readonly Check[], profile: Profile, workspaces: number, depth: Depth = 'default', concurrency = defaultConcurrency(profile), known: TargetKnown & { pace?: TargetPace } = {}): Plan {
  // A check that skips on this profile (a feature, operation or declaration it lacks) sends nothing.
  const ran = checks.filter((c) => !staticGap(c, profile, known.extensions));
  const cleanup = cleansUp(profile) ? ran.reduce((n, c) => n + expectedCleanup(c), 0) : 0;
  const requests = ran.reduce((n, c) => n + targetRequests(c, depth, profile), 0);
  const atMost = ran.reduce((n, c) => n + c.budget, 0);
  const { requests: perWindow, windowSeconds } = profile.rateLimit;
  const ratePerSecond = (workspaces * perWindow) / windowSeconds;
  const beyondFirstWindow = Math.max(0, requests - workspaces * perWindow);
  const minSeconds = Math.ceil(beyondFirstWindow / ratePerSecond);
  const pace = known.pace;
  const estimate = estimateRun(ran, { clock: clockOf(profile), concurrency, rateFloorMs: minSeconds * 1000, depth, requests: (c) => targetRequests(c, depth, profile), ...(pace ? { pace } : {}) });
  const basis = { clock: clockOf(profile), ...(pace ? { pace } : {}), concurrency, perWindow, windowSeconds };
  return { checks: checks.length, skipping: checks.length - ran.length, requests, cleanup, atMost, workspaces, ratePerSecond, minSeconds, estimate, basis };
}

export function formatPlan(p: Plan): string {
  return (
    `plan: ${p.checks} checks${p.skipping ? ` (${p.skipping} skip on this profile)` : ''}, about ${p.requests} requests${p.cleanup ? ` (${p.cleanup} of them the clean-up)` : ''} (at most ${p.atMost + p.cleanup}) over ${p.workspaces} workspaces ` +
    `(${p.ratePerSecond.toFixed(1)} req/s under the rate limit): ${
      p.minSeconds > 0 ? `the rate limit alone takes at least ${p.minSeconds} s` : "the first window of each workspace holds them all (the rate limit adds no wait)"
    }; expected to take about ${formatEstimate(p.estimate.ms)} (${
      p.estimate.from === 'rate limit' ? 'the rate limit' : p.basis.pace ? "the checks' measured durations at this target's pace" : "the checks' measured durations"
    }${p.estimate.overheadMs ? ', with start-up and clean-up' : ''}). ${restsOn(p)}`
  );
}

/** What the estimate rests on, said before the run: the progress line re-estimates from this target as it goes. */
export function restsOn(p: Pick<Plan, 'basis' | 'workspaces'>): string {
  const b = p.basis;
  const durations = b.clock === 'real' ? 'the reference served alone (no control API, real time)' : 'the embedded reference (control clock)';
  const paced = b.pace ? `, at this target's pace as seen in ${describePace(b.pace)}` : '';
  return `The estimate rests on check durations measured against ${durations}${paced}, the rate limit of ${b.perWindow} per ${b.windowSeconds} s over ${p.workspaces} workspaces, and ${b.concurrency} checks at once; the progress line re-estimates it from this target's pace and requests as the run goes`;
}

/** 40 s, 2 min 10 s. */
export function formatEstimate(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
}

/** Requests `workspaces` may send in `seconds` under the rate limit: a first window each, then the steady rate. */
export function requestsWithin(seconds: number, profile: Profile, workspaces: number): number {
  const { requests: perWindow, windowSeconds } = profile.rateLimit;
  return Math.floor(workspaces * perWindow * (1 + seconds / windowSeconds));
}

export interface Choice {
  /** The checks the run takes, in suite order. */
  checks: Check[];
  /** The budgeted selection, when a budget chose (none for an explicit selection without --time-budget). */
  selection?: DepthSelection;
  /** Reference mutants the chosen checks kill (kill matrix): the selection's figure, or computed for an explicit one. */
  detection: Detection;
  /** How the budget was set, for the console. */
  why: string;
}

/**
 * What a run at `depth` takes: the depth's eligible checks, narrowed by an explicit selection
 * (--check, --clause, ...), then cut to the request budget: the depth's own (none for an
 * explicit selection: what the user named runs whole) and the requests `timeBudgetSeconds`
 * allows `workspaces` under the profile's rate limit, whichever is smaller.
 */
export function chooseChecks(
  all: readonly Check[],
  opts: { depth: Depth; profile: Profile; workspaces: number; chosen?: readonly string[]; timeBudgetSeconds?: number; eligible?: readonly Check[] } & TargetKnown,
): Choice {
  // `eligible`: the depth's checks when the caller already has them (the CLI selects once per run).
  // `chosen`: the ids an explicit selection named (select.ts), taken whole.
  const named = opts.chosen && new Set(opts.chosen);
  const eligible = (opts.eligible ?? selectChecks(all, opts.depth)).filter((c) => !named || named.has(c.id));
  const byDepth = named ? undefined : DEPTH_BUDGETS[opts.depth];
  const byTime = opts.timeBudgetSeconds === undefined ? undefined : requestsWithin(opts.timeBudgetSeconds, opts.profile, opts.workspaces);
  const budget = byDepth === undefined ? byTime : byTime === undefined ? byDepth : Math.min(byDepth, byTime);
  const why =
    byTime !== undefined && (byDepth === undefined || byTime < byDepth)
      ? `time budget ${formatSeconds(opts.timeBudgetSeconds!)}: ${byTime.toLocaleString('en-US')} requests over ${opts.workspaces} workspaces under the rate limit`
      : byDepth !== undefined
        ? `depth ${opts.depth}: at most ${byDepth.toLocaleString('en-US')} requests`
        : named
          ? 'the selection runs whole (no request budget)'
          : `depth ${opts.depth}: no request budget`;
  const known = opts.extensions ? { extensions: opts.extensions } : {};
  if (budget === undefined) return { checks: eligible, why, detection: detectionHere(eligible, { profile: opts.profile, depth: opts.depth, all, ...known }) };
  const selection = withWindowSlack(budget, opts.workspaces, opts.profile, (b) => selectWithin(eligible, { depth: opts.depth, budget: b, profile: opts.profile, all, ...known }));
  return { checks: selection.chosen, selection, why, detection: selection.mutants };
}

/**
 * The share of the room of the rate windows a selection fills that it leaves free, against a
 * target that keeps real time (no control API: a run there is as long as the windows its requests
 * fill). A selection that fills its last window to within a few requests spills into one more
 * (a minute more) when the order or placement of its checks moves a little, or a check sends a
 * request more than it was measured to: staging-like default runs planned 1,813 requests against
 * about 1,824 of room and 4 of 6 took a third window after such changes.
 */
export const WINDOW_SLACK = 0.05;

/**
 * `select` at `budget`; where its requests come within WINDOW_SLACK of filling the windows they
 * need (each the workspaces' rate window, at the share admission fills), chosen again within that
 * slack: the checks the selection values least give way.
 */
export function withWindowSlack(budget: number, workspaces: number, profile: Profile, select: (budget: number) => DepthSelection): DepthSelection {
  const first = select(budget);
  if (clockOf(profile) !== 'real' || first.requests <= 0) return first;
  const room = workspaces * profile.rateLimit.requests * WINDOW_FILL;
  const limit = Math.ceil(first.requests / room) * room * (1 - WINDOW_SLACK);
  return first.requests <= limit ? first : select(Math.floor(limit / PLANNED_SHARE));
}

function formatSeconds(s: number): string {
  return s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}

/** The command listing what a run left out (a time budget depends on the workspaces too). */
export const leftOutHint = (depth: Depth, time?: string, workspaces?: number) =>
  `outreach-conformance plan --depth ${depth}${time ? ` --time-budget ${time} --workspaces ${workspaces}` : ''} --left-out lists them`;
