// Background work through the control API's drain (POST /work/drain), waited on as a slow
// target's is. A drain answers `{ processed }` when no work is left, or when its timeoutMs runs
// out with work left: the kit cannot tell the two apart by the answer, only by the time it took
// (DrainResult.complete). A drain that ended with work left is a slow target, not a failure: the
// check drains again, and whatever it then reads, its own assertion judges.
import type { ControlClient, DrainResult } from '../../harness/ground/check.ts';

/** How long a check goes on draining a control API whose drains keep ending with work left. */
export const SLOW_DRAIN_WAIT_MS = 60_000;

/** The longest bound drainAll asks for (the contract's default bound). */
export const LONGEST_DRAIN_MS = 30_000;

/**
 * Drains until one answers complete (nothing left), or SLOW_DRAIN_WAIT_MS passes. The first is
 * bounded by `timeoutMs`, each next one by twice the last (up to LONGEST_DRAIN_MS): a target whose
 * one pass over its work outlasts the bound answers late even with nothing left, and a longer
 * bound lets it answer in time. A target whose drains never answer within their bound (`untold`)
 * is drained once. Answers the last drain's result.
 */
export async function drainAll(control: ControlClient, timeoutMs: number, organizationId?: string): Promise<DrainResult> {
  const until = Date.now() + SLOW_DRAIN_WAIT_MS;
  for (let bound = timeoutMs; ; bound = Math.max(timeoutMs, Math.min(2 * bound, LONGEST_DRAIN_MS))) {
    const r = await control.drain(bound, organizationId);
    if (r.complete || r.untold || Date.now() >= until) return r;
  }
}

/** Did the drains leave the check a state to judge: all work done, or a target whose drains never say (`untold`)? */
export const judgeable = (r: DrainResult): boolean => r.complete || r.untold === true;

/** Why a check that must know the background work ended skips when the drains never said so. */
export const SLOW_DRAIN_SKIP = `the control API's drains still ended with work left after ${SLOW_DRAIN_WAIT_MS / 1000} s of draining (a slow target): the state after all background work could not be observed`;
