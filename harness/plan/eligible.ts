import { DEPTHS, type Check, type Depth } from '../ground/check.ts';

/** The checks eligible at a depth (their lowest depth is at most it); the depth's budget then chooses (select-depth.ts). */
export function selectChecks(checks: readonly Check[], depth: Depth): Check[] {
  return checks.filter((c) => DEPTHS.indexOf(c.depth ?? 'smoke') <= DEPTHS.indexOf(depth));
}
