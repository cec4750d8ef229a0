import type { Check, Depth } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { selectChecks } from './eligible.ts';
import { clockOf } from './expected.ts';
import { chooseChecks, defaultConcurrency, formatPlan, leftOutHint, plan, type Choice, type Plan } from './planner.ts';
import { formatSelection } from './select-depth.ts';
import { selection, type SelectionFlags } from './select.ts';
import type { TargetKnown } from './static-gap.ts';
import { historyOf } from './target-history.ts';
import type { TargetPace } from './target-pace.ts';

// What the conformance run asks of planning before it starts, in two calls: the checks it takes
// (chooseRun) and what they are expected to cost (planRun). Each returns the lines the console
// says of it, for the run to print where they belong.

export interface RunChoice extends Choice {
  /** How the budget was set, and what it left out (with the command that lists it). */
  said: string[];
}

/**
 * The checks a run at `depth` takes: the depth's eligible ones, narrowed by the selection flags
 * (select.ts), cut to the request budget (chooseChecks). `timeBudget` is --time-budget as given,
 * for the hint that lists what the budget left out.
 */
export async function chooseRun(
  all: readonly Check[],
  o: { depth: Depth; profile: Profile; workspaces: number; timeBudgetSeconds?: number; timeBudget?: string; select: SelectionFlags; outRoot: string } & TargetKnown,
): Promise<RunChoice> {
  const eligible = selectChecks(all, o.depth);
  const chosen = await selection(o.select, eligible, o.outRoot);
  const choice = chooseChecks(all, { depth: o.depth, profile: o.profile, workspaces: o.workspaces, timeBudgetSeconds: o.timeBudgetSeconds, chosen, eligible, extensions: o.extensions });
  const leftOut = choice.selection ? [formatSelection(choice.selection, leftOutHint(o.depth, o.timeBudget, o.workspaces))] : [];
  return { ...choice, said: [choice.why, ...leftOut] };
}

export interface RunPlan {
  plan: Plan;
  /** Checks at once: --concurrency, else the default for the target's clock. */
  concurrency: number;
  /** This target's pace as its earlier runs showed it, if they did. */
  pace?: TargetPace;
  /** What the history taught (if it was read), and the plan. */
  said: string[];
}

/**
 * What a run of `checks` is expected to cost: its requests and time over `workspaces`, at this
 * target's pace where its earlier runs showed it (never the embedded reference's: its durations
 * are the measure). `history` is --history as given; `defaultDir` where runs are kept otherwise.
 */
export async function planRun(
  checks: readonly Check[],
  o: { profile: Profile; workspaces: number; depth: Depth; concurrency?: number; embedded: boolean; baseUrl: string; history?: string; defaultDir: string } & TargetKnown,
): Promise<RunPlan> {
  const concurrency = o.concurrency ?? defaultConcurrency(o.profile);
  const history = await historyOf({ embedded: o.embedded, baseUrl: o.baseUrl, clock: clockOf(o.profile), depth: o.depth, history: o.history, defaultDir: o.defaultDir });
  const pace = history?.pace;
  const made = plan(checks, o.profile, o.workspaces, o.depth, concurrency, { extensions: o.extensions, ...(pace ? { pace } : {}) });
  return { plan: made, concurrency, ...(pace ? { pace } : {}), said: [...(history ? [history.said] : []), formatPlan(made)] };
}
