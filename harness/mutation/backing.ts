import type { Check } from '../ground/check.ts';
import { CLAUSE_BY_ID } from '../ground/spec-model/clauses/index.ts';
import type { KillMatrix } from '../runner/kill-matrix.ts';

// Claims backed by kills: a check's claim on a MUST clause is backed when the kill matrix shows
// the check killing a mutant that breaks that clause. An unbacked claim may be true, but nothing
// shows the check could fail on a target that breaks the clause.

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

export function claimBacking(checks: readonly Pick<Check, 'id' | 'clauses'>[], matrix: KillMatrix): Backing {
  const backed = new Set<string>();
  for (const row of Object.values(matrix.mutants)) for (const k of row.killers) for (const c of row.clauses) backed.add(`${k}\n${c}`);
  const claims = checks.flatMap((c) => c.clauses.filter((k) => CLAUSE_BY_ID.get(k)?.level === 'MUST').map((clause) => ({ check: c.id, clause })));
  const unbacked = claims.filter((c) => !backed.has(`${c.check}\n${c.clause}`));
  const isBacked = new Set(claims.filter((c) => backed.has(`${c.check}\n${c.clause}`)).map((c) => c.clause));
  const unbackedClauses = [...new Set(claims.map((c) => c.clause))].filter((k) => !isBacked.has(k)).sort();
  return { claims: claims.length, unbacked, unbackedClauses };
}

export function formatBacking(b: Backing, list = true): string {
  const head = `${b.unbacked.length} of ${b.claims} claims on MUST clauses unbacked by a kill; ${b.unbackedClauses.length} MUST clauses with every claim unbacked`;
  return list && b.unbackedClauses.length ? `${head}:\n${b.unbackedClauses.map((k) => `  ${k}`).join('\n')}` : head;
}
