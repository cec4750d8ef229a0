import type { CheckContext } from '../../harness/ground/check.ts';

// The depths below default, where a check that declares Check.shallowerAt asks less: the cases
// it keeps there are the plausible slips of each clause it claims (one per clause at least).

/** Whether the run is below default (smoke or quick). */
export function belowDefault(ctx: Pick<CheckContext, 'depth'>): boolean {
  return ctx.depth === 'smoke' || ctx.depth === 'quick';
}

/** The cases the check asks at this depth: all from default on, below it those marked to stay. */
export function casesAt<T>(ctx: Pick<CheckContext, 'depth'>, cases: readonly T[], stays: (c: T) => boolean): readonly T[] {
  return belowDefault(ctx) ? cases.filter(stays) : cases;
}
