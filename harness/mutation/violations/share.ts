import type { Check } from '../../ground/check.ts';
import { CLAUSE_BY_ID } from '../../ground/spec-model/clauses/index.ts';
import { SUMMARIES } from '../../ground/spec-model/clauses/summaries.ts';
import { killersAt, type KillMatrix } from '../../plan/kill-matrix.ts';
import type { Violation, ViolationCatalog } from './types.ts';

// The share of clauses whose every plausible violation is killed: of the MUST and PROFILE clauses
// the checks chosen at a depth claim, those where each listed violation has a mutant that a check
// claiming that very clause kills at that depth. A kill by a check of another clause does not
// count (the claim is credited only where its check asserts the clause's own effect), and a
// violation named only as a gap is not killed. A part 1 summary is held through its detailed
// clauses (SUMMARIES) and has no entry of its own.

export interface ClauseStrength {
  clause: string;
  violations: number;
  /** The violations no claiming check kills: their `what`, and the gap where one is named. */
  open: { what: string; gap?: string }[];
}

export interface ViolationShare {
  depth: string;
  /** MUST and PROFILE clauses the chosen checks claim that have a catalog entry. */
  claimed: number;
  /** Of those, the clauses with every listed violation killed. */
  strong: number;
  weak: ClauseStrength[];
  /** Claimed MUST and PROFILE clauses with no catalog entry (a test keeps this empty). */
  uncatalogued: string[];
}

function killedBy(v: Violation, claimants: ReadonlySet<string>, matrix: KillMatrix, depth: string): boolean {
  return (v.mutants ?? []).some((m) => {
    const row = matrix.mutants[m];
    return row !== undefined && killersAt(row, depth).some((k) => claimants.has(k));
  });
}

export function violationShare(
  chosen: readonly Pick<Check, 'id' | 'clauses'>[],
  catalog: ViolationCatalog,
  matrix: KillMatrix,
  depth = 'default',
): ViolationShare {
  const claimants = new Map<string, Set<string>>();
  for (const c of chosen) {
    if (matrix.failsClean.includes(c.id)) continue;
    for (const k of c.clauses) {
      const level = CLAUSE_BY_ID.get(k)?.level;
      if ((level === 'MUST' || level === 'PROFILE') && !(k in SUMMARIES)) claimants.set(k, (claimants.get(k) ?? new Set()).add(c.id));
    }
  }
  const weak: ClauseStrength[] = [];
  const uncatalogued: string[] = [];
  let claimed = 0;
  for (const [clause, checks] of [...claimants].sort(([a], [b]) => a.localeCompare(b))) {
    const violations = catalog[clause];
    if (!violations) {
      uncatalogued.push(clause);
      continue;
    }
    claimed++;
    const open = violations.filter((v) => !killedBy(v, checks, matrix, depth)).map((v) => ({ what: v.what, ...(v.gap ? { gap: v.gap } : {}) }));
    if (open.length || !violations.length) weak.push({ clause, violations: violations.length, open });
  }
  return { depth, claimed, strong: claimed - weak.length, weak, uncatalogued };
}

/**
 * The known gaps a run's report names per clause: the weak clauses of violationShare over the
 * checks that ran, each with its open violations (named gaps, and violations no check of the
 * run that claims the clause kills at its depth).
 */
export function openViolationsByClause(
  ran: readonly Pick<Check, 'id' | 'clauses'>[],
  catalog: ViolationCatalog,
  matrix: KillMatrix,
  depth: string,
): Record<string, { listed: number; open: { what: string; gap?: string }[] }> {
  const { weak } = violationShare(ran, catalog, matrix, depth);
  return Object.fromEntries(weak.filter((w) => w.open.length).map((w) => [w.clause, { listed: w.violations, open: w.open }]));
}

export function formatViolationShare(s: ViolationShare, list = true): string {
  const pct = s.claimed ? ((s.strong / s.claimed) * 100).toFixed(1) : '0.0';
  const head = `plausible violations: ${s.strong} of ${s.claimed} MUST and PROFILE clauses claimed at ${s.depth} have every listed violation killed by a check of their own (${pct} %)${s.uncatalogued.length ? `; ${s.uncatalogued.length} claimed clauses not in the catalog` : ''}`;
  if (!list || !s.weak.length) return head;
  const rows = s.weak.map((w) => `  ${w.clause}: ${w.violations ? w.open.map((o) => `${o.what}${o.gap ? ` [gap: ${o.gap}]` : ''}`).join(' | ') : 'no violation listed'}`);
  return `${head}; open:\n${rows.join('\n')}`;
}
