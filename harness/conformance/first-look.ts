import type { Check, Depth } from '../ground/check.ts';
import type { FirstLookEvent, FirstLookReference } from '../ground/events.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { clockOf, expectedControlUse, expectedData, expectedDurationMs, expectedSettleMs, expectedSettles, targetRequests } from '../plan/expected.ts';
import { firstLookPace } from '../plan/first-look-pace.ts';
import { formatEstimate, type Plan } from '../plan/planner.ts';
import { describeControlLook, FIRST_LOOK_CONTROL_MODEL, FIRST_LOOK_MODEL, type TargetPace } from '../plan/target-pace.ts';

// When a run takes a first look at its target (suites/lib/first-look.ts, run by the worker before
// any check), and what the CLI says of it. Only a first run against a target: where earlier runs
// taught its pace (--history), they say more than one look does; and only where the checks'
// durations bound the run, not the rate limit: a run of two windows or more is as long as its
// windows whatever the target's pace, and one that fills them to the last few requests has none
// to spare for a look. Without the control API only where the run waits on the target's engine at
// all (checks at the sinks): the look verifies a mailbox there in the target's own time. With it,
// the look times the control API (a round trip, an empty drain, a drain with a verification due):
// the checks wait on those where the control API runs the target's work. `--first-look` takes one
// wherever it can (the embedded reference's own, the baseline: npm run measure-requests).

export const FIRST_LOOK_SAID =
  "first run against this target: the checks start after a first look at it (a few answers, one mailbox verified at the kit's sinks), and the estimate is made again from it (--history none: no first look)";
export const FIRST_LOOK_CONTROL_SAID =
  'first run against this target: the checks start after a first look at it and its control API (a few answers, GET /clock, an empty drain, a drain with one verification due), and the estimate is made again from it (--history none: no first look)';

export function firstLookSaid(profile: Pick<Profile, 'embedded' | 'control'>): string {
  return clockOf(profile) === 'control' ? FIRST_LOOK_CONTROL_SAID : FIRST_LOOK_SAID;
}

/** The reference's own first look this target's is set against: without the control API the reference served alone's, with it the embedded reference's. */
export function referenceLook(profile: Pick<Profile, 'embedded' | 'control'>): FirstLookReference | undefined {
  return clockOf(profile) === 'control' ? expectedData().firstLookControl : expectedData().firstLook;
}

export function takesFirstLook(o: { embedded: boolean; profile: Profile; checks: readonly Check[]; history: string | undefined; learned: boolean; plan: Pick<Plan, 'minSeconds'>; force?: boolean }): boolean {
  if (o.history === 'none' && !o.force) return false;
  if (!o.force && (o.embedded || o.learned || o.plan.minSeconds > 0)) return false;
  // With the control API the look times its drains (sinks or not); without it, it verifies a mailbox at the sinks.
  if (clockOf(o.profile) === 'control') return !!o.profile.control || o.embedded;
  if (!o.profile.features.sinks) return false;
  // Without the reference's own first look there is nothing to set this target's against.
  if (!expectedData().firstLook) return false;
  return o.checks.some((c) => [...c.features, ...(c.uses ?? [])].includes('sinks'));
}

/** The run's checks paced from the first look (harness/plan/first-look-pace.ts), with the reference's measures; undefined where the reference's own look was never measured. */
export function firstLookPaceOf(e: FirstLookEvent, checks: readonly Check[], depth: Depth, profile: Profile, startedAt: number): TargetPace | undefined {
  const reference = referenceLook(profile);
  if (!reference) return undefined;
  const byId = new Map(checks.map((c) => [c.id, c]));
  const clock = clockOf(profile);
  const settle = clock === 'real' ? expectedSettleMs() : undefined;
  const { type: _type, at, error: _error, ...measure } = e;
  return firstLookPace({ ...measure, answerMs: e.answerMs!, startMs: Math.max(0, Date.parse(at) - startedAt) }, [...byId.keys()], {
    reference,
    ...(settle !== undefined ? { runSettleMs: settle } : {}),
    measuredMs: (id) => expectedDurationMs({ id }, clock),
    requestsOf: (id) => targetRequests(byId.get(id)!, depth, profile),
    settlesOf: (id) => (clock === 'real' ? expectedSettles({ id }) : 0),
    // A mailbox verification the check waits on is engine work whichever drain finds it: on the
    // reference a background timer may have run it before the drain asked (a drain without work),
    // where a slower engine leaves it to the drain.
    ...(clock === 'control' ? { controlOf: (id: string) => withSettles(expectedControlUse({ id }), expectedSettles({ id })) } : {}),
  });
}

/** A check's control use with at least one working drain per mailbox verification it waits on. */
export function withSettles(use: { drains: number; work: number; calls: number }, settles: number): { drains: number; work: number; calls: number } {
  const work = Math.max(use.work, settles);
  return { ...use, work, drains: Math.max(use.drains, work) };
}

/** `first look: answers in 52 ms (the reference's 2 ms), a mailbox verified in 2.7 s (...): now expected to take about 13 s`. */
export function formatFirstLook(e: FirstLookEvent, made: Plan | undefined, reference?: FirstLookReference): string {
  if (!made || e.answerMs === undefined) return `first look: not taken (${e.error ?? (e.answerMs === undefined ? 'no answer' : "the reference's own first look was never measured")}); the estimate stays on the reference's durations`;
  const answers = `answers in ${e.answerMs} ms${reference ? ` (the reference's ${reference.answerMs} ms)` : ''}`;
  const expected = `now expected to take about ${formatEstimate(made.estimate.ms)} from the run's start`;
  if (e.drainMs !== undefined) return `first look: ${answers}, ${describeControlLook({ ...e, ...(reference ? { reference } : {}) })}; ${expected} (a prediction from these, ${FIRST_LOOK_CONTROL_MODEL})`;
  const settled = e.settleMs === undefined ? `no mailbox verified (${e.error ?? 'no outcome'}): its engine taken at the reference's pace` : `a mailbox verified in ${(e.settleMs / 1000).toFixed(1)} s${reference?.settleMs !== undefined ? ` (the reference's ${(reference.settleMs / 1000).toFixed(1)} s)` : ''}`;
  return `first look: ${answers}, ${settled}; ${expected} (a prediction from these, ${FIRST_LOOK_MODEL})`;
}

export function withoutType(e: FirstLookEvent): Omit<FirstLookEvent, 'type'> {
  const { type: _type, ...rest } = e;
  return rest;
}
