import type { Check, Depth } from '../ground/check.ts';
import type { FirstLookEvent } from '../ground/events.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { clockOf, expectedData, expectedDurationMs, expectedSettleMs, expectedSettles, targetRequests } from '../runner/expected.ts';
import { firstLookPace } from '../runner/first-look-pace.ts';
import { formatEstimate, type Plan } from '../runner/planner.ts';
import { FIRST_LOOK_MODEL, type TargetPace } from '../runner/target-pace.ts';

// When a run takes a first look at its target (suites/lib/first-look.ts, run by the worker before
// any check), and what the CLI says of it. Only a first run against a target: where earlier runs
// taught its pace (--history), they say more than one mailbox does; against the control API's
// clock a verification takes no time of the target's own; only where the run waits on the
// target's engine at all (checks at the sinks); and only where the checks' durations bound the
// run, not the rate limit: a run of two windows or more is as long as its windows whatever the
// target's pace, and one that fills them to the last few requests has none to spare for a look.

export const FIRST_LOOK_SAID =
  "first run against this target: the checks start after a first look at it (a few answers, one mailbox verified at the kit's sinks), and the estimate is made again from it (--history none: no first look)";

export function takesFirstLook(o: { embedded: boolean; profile: Profile; checks: readonly Check[]; history: string | undefined; learned: boolean; plan: Pick<Plan, 'minSeconds'> }): boolean {
  if (o.embedded || o.learned || o.history === 'none' || clockOf(o.profile) !== 'real' || !o.profile.features.sinks || o.plan.minSeconds > 0) return false;
  // Without the reference's own first look there is nothing to set this target's against.
  if (!expectedData().firstLook) return false;
  return o.checks.some((c) => [...c.features, ...(c.uses ?? [])].includes('sinks'));
}

/** The run's checks paced from the first look (harness/runner/first-look-pace.ts), with the reference's measures. */
export function firstLookPaceOf(e: FirstLookEvent, checks: readonly Check[], depth: Depth, profile: Profile, startedAt: number): TargetPace {
  const byId = new Map(checks.map((c) => [c.id, c]));
  const settle = expectedSettleMs();
  return firstLookPace({ answerMs: e.answerMs!, startMs: Math.max(0, Date.parse(e.at) - startedAt), ...(e.settleMs !== undefined ? { settleMs: e.settleMs } : {}) }, [...byId.keys()], {
    reference: expectedData().firstLook!,
    ...(settle !== undefined ? { runSettleMs: settle } : {}),
    measuredMs: (id) => expectedDurationMs({ id }, 'real'),
    requestsOf: (id) => targetRequests(byId.get(id)!, depth, profile),
    settlesOf: (id) => expectedSettles({ id }),
  });
}

/** `first look: answers in 52 ms (the reference's 2 ms), a mailbox verified in 2.7 s (...): now expected to take about 13 s`. */
export function formatFirstLook(e: FirstLookEvent, made: Plan | undefined): string {
  const ref = expectedData().firstLook;
  if (!made || e.answerMs === undefined) return `first look: not taken (${e.error ?? 'no answer'}); the estimate stays on the reference's durations`;
  const answers = `answers in ${e.answerMs} ms${ref ? ` (the reference's ${ref.answerMs} ms)` : ''}`;
  const settled = e.settleMs === undefined ? `no mailbox verified (${e.error ?? 'no outcome'}): its engine taken at the reference's pace` : `a mailbox verified in ${(e.settleMs / 1000).toFixed(1)} s${ref ? ` (the reference's ${(ref.settleMs / 1000).toFixed(1)} s)` : ''}`;
  return `first look: ${answers}, ${settled}; now expected to take about ${formatEstimate(made.estimate.ms)} from the run's start (a prediction from these, ${FIRST_LOOK_MODEL})`;
}

export function withoutType(e: FirstLookEvent): Omit<FirstLookEvent, 'type'> {
  const { type: _type, ...rest } = e;
  return rest;
}
