import type { Profile } from '../ground/profile-schema.ts';
import { DEPTHS } from '../ground/check.ts';
import type { RunDetection } from '../ground/events.ts';
import { killersAt, killMatrix, killsFrom, type KillMatrix } from './kill-matrix.ts';
import { targetRequests } from './expected.ts';
import { staticGap } from './static-gap.ts';

// What a choice of checks can catch: of the reference target's mutants, those that some chosen
// check kills according to the kill matrix (harness/plan/kill-matrix.json), and for each
// one it misses, the cheapest checks that would kill it. A check that skips on the profile
// kills nothing, and a check that asks less at the run's depth kills there only what the matrix
// measured it kill there (killersAt). The figure is a prediction from the matrix; `npm run mutation -- --depth D`
// measures it.

/** missed[].killers: up to three, cheapest first (the check, its expected requests, the lowest depth from which on it kills the mutant). */
export type Detection = RunDetection;
export type MissedMutant = RunDetection['missed'][number];

/** What detection needs of a check (structural: this floor does not import the suites' contract). */
interface CheckLike {
  id: string;
  budget: number;
  features: readonly string[];
  depth?: string;
}
type Depth = Parameters<typeof targetRequests>[1];

export function detectionOf(chosen: readonly CheckLike[], opts: { profile: Profile; depth: Depth; all: readonly CheckLike[]; matrix?: KillMatrix }): Detection {
  const matrix = opts.matrix ?? killMatrix();
  const runs = (c: CheckLike) => !staticGap(c, opts.profile);
  const taken = new Set(chosen.filter(runs).map((c) => c.id));
  const byId = new Map(opts.all.map((c) => [c.id, c]));
  const missed: MissedMutant[] = [];
  let killed = 0;
  // A killer that kills only from a bigger depth on costs there what it sends at that depth.
  const killerAt = (c: CheckLike, from: string) => {
    const at = DEPTHS.indexOf(from as Depth) > DEPTHS.indexOf(opts.depth) ? (from as Depth) : opts.depth;
    return { check: c.id, requests: targetRequests(c, at, opts.profile), depth: from };
  };
  for (const [mutant, row] of Object.entries(matrix.mutants)) {
    if (killersAt(row, opts.depth).some((k) => taken.has(k))) {
      killed++;
      continue;
    }
    const killers = row.killers
      .map((id) => byId.get(id))
      .filter((c): c is CheckLike => !!c && runs(c))
      .map((c) => killerAt(c, killsFrom(row, c.id, c.depth ?? 'smoke')))
      .sort((a, b) => a.requests - b.requests || a.check.localeCompare(b.check))
      .slice(0, 3);
    missed.push({ mutant, killers });
  }
  return { killed, total: Object.keys(matrix.mutants).length, missed };
}

/**
 * Measured after a run, not predicted: the mutants the checks that ran to a verdict (pass or fail)
 * kill by the kill matrix; a check that skipped or errored kills nothing, whatever the plan said.
 */
export function ranDetection(
  ends: readonly { checkId: string; verdict: string }[],
  opts: { profile: Profile; depth: Depth; all: readonly CheckLike[]; kitVersion: string; matrix?: KillMatrix },
): Detection {
  const verdicts = new Set(ends.filter((e) => e.verdict === 'pass' || e.verdict === 'fail').map((e) => e.checkId));
  const ran = opts.all.filter((c) => verdicts.has(c.id));
  const d = detectionOf(ran, opts);
  return { ...d, basis: `the ${ran.length} checks that ran to a verdict (the kill matrix of kit ${opts.kitVersion}; skips and errors kill nothing)` };
}

/** ", at full", ", from default on": where a killer kills only from a depth above the small ones. */
export function fromDepth(depth: string): string {
  return depth === 'full' ? ', at full' : depth === 'default' ? ', from default on' : '';
}

/** "predicted: 172 of 174 reference mutants killed (missed: a by X ~3 requests; b: no check can run on this profile)" */
export function formatDetection(d: Detection, max = 5): string {
  const head = `predicted: ${d.killed} of ${d.total} reference mutants killed by this selection (the kill matrix; the run reports what its checks that ran to a verdict kill)`;
  if (!d.missed.length) return head;
  const one = (m: MissedMutant) =>
    m.killers.length ? `${m.mutant} (cheapest killer ${m.killers[0]!.check}, ~${m.killers[0]!.requests} requests${fromDepth(m.killers[0]!.depth)})` : `${m.mutant} (no killer runs on this profile)`;
  return `${head}; missed: ${d.missed.slice(0, max).map(one).join('; ')}${d.missed.length > max ? `; and ${d.missed.length - max} more` : ''}`;
}
