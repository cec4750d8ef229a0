import type { Check } from '../ground/check.ts';
import { CLAUSE_BY_ID } from '../ground/spec-model/clauses/index.ts';
import { SUMMARIES } from '../ground/spec-model/clauses/summaries.ts';
import type { KillMatrix } from '../plan/kill-matrix.ts';

// Claims backed by kills: a check's claim on a MUST clause is backed when the kill matrix shows
// the check killing a mutant that breaks that clause. An unbacked claim may be true, but nothing
// shows the check could fail on a target that breaks the clause. A part 1 summary (SUMMARIES) has
// no mutant of its own: a claim on it is backed when some claim on one of its detailed clauses is.

export interface Claim {
  check: string;
  clause: string;
}

export interface Backing {
  claims: number;
  unbacked: Claim[];
  /** MUST clauses some check claims, none of them backed. */
  unbackedClauses: string[];
}

export function claimBacking(
  checks: readonly Pick<Check, 'id' | 'clauses'>[],
  matrix: KillMatrix,
  summaries: Readonly<Record<string, readonly string[]>> = SUMMARIES,
): Backing {
  const killed = new Set<string>();
  for (const row of Object.values(matrix.mutants)) for (const k of row.killers) for (const c of row.clauses) killed.add(`${k}\n${c}`);
  const claims = checks.flatMap((c) => c.clauses.filter((k) => CLAUSE_BY_ID.get(k)?.level === 'MUST').map((clause) => ({ check: c.id, clause })));
  const detailBacked = new Set(claims.filter((c) => killed.has(`${c.check}\n${c.clause}`)).map((c) => c.clause));
  const backed = (c: Claim) => killed.has(`${c.check}\n${c.clause}`) || (summaries[c.clause]?.some((d) => detailBacked.has(d)) ?? false);
  const unbacked = claims.filter((c) => !backed(c));
  const isBacked = new Set(claims.filter(backed).map((c) => c.clause));
  const unbackedClauses = [...new Set(claims.map((c) => c.clause))].filter((k) => !isBacked.has(k)).sort();
  return { claims: claims.length, unbacked, unbackedClauses };
}

export function formatBacking(b: Backing, list = true): string {
  const head = `${b.unbacked.length} of ${b.claims} claims on MUST clauses unbacked by a kill; ${b.unbackedClauses.length} MUST clauses with every claim unbacked`;
  return list && b.unbackedClauses.length ? `${head}:\n${b.unbackedClauses.map((k) => `  ${k}`).join('\n')}` : head;
}
