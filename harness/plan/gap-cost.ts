import type { Check } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { featureField, staticGap, staticGaps } from './static-gap.ts';
import { killMatrix, mutantsKilledBy, type KillMatrix } from './kill-matrix.ts';

// What a profile's gaps cost, before any run: per field, referenced operation, feature or control
// extension it lacks, the clauses and reference mutants that only checks needing it would prove
// or kill among `checks` (no check that runs here proves or kills them). A check lacking two of
// them counts for each: declaring one alone would not bring it back.

export interface GapCost {
  /** "declarations.variantIdPath", "operations.leads.create", "features.imap", "control extension blacklist" */
  field: string;
  /** Checks that skip for want of it. */
  checks: number;
  /** Clauses no check that runs here proves, that a check skipped for it would. */
  clauses: number;
  /** Reference mutants (kill matrix) no check that runs here kills, that a check skipped for it would. */
  mutants: number;
}

/** `depth`: the kills counted are those the checks make at that depth (default when not given). */
export function gapCosts(checks: readonly Check[], opts: { profile: Profile; depth?: string; extensions?: readonly string[]; matrix?: KillMatrix }): GapCost[] {
  const killsOf = mutantsKilledBy(opts.matrix ?? killMatrix(), opts.depth);
  const running = checks.filter((c) => !staticGap(c, opts.profile, opts.extensions));
  const proven = new Set(running.flatMap((c) => c.clauses));
  const killed = new Set(running.flatMap((c) => killsOf.get(c.id) ?? []));
  const byField = new Map<string, { checks: number; clauses: Set<string>; mutants: Set<string> }>();
  for (const c of checks) {
    for (const f of staticGaps(c, opts.profile, opts.extensions)) {
      const field = featureField(f);
      const cost = byField.get(field) ?? byField.set(field, { checks: 0, clauses: new Set(), mutants: new Set() }).get(field)!;
      cost.checks++;
      for (const id of c.clauses) if (!proven.has(id)) cost.clauses.add(id);
      for (const m of killsOf.get(c.id) ?? []) if (!killed.has(m)) cost.mutants.add(m);
    }
  }
  return [...byField.entries()]
    .map(([field, c]) => ({ field, checks: c.checks, clauses: c.clauses.size, mutants: c.mutants.size }))
    .sort((a, b) => b.clauses - a.clauses || b.mutants - a.mutants || b.checks - a.checks || a.field.localeCompare(b.field));
}

/** "what this profile leaves out ...:\n  declarations.variantIdPath: 14 clauses, 9 mutants (16 checks)" */
export function formatGapCosts(costs: readonly GapCost[], scope: string): string {
  if (!costs.length) return `${scope}: every check can run on this profile`;
  const s = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return [
    `${scope}: what the profile lacks, and the clauses and reference mutants no check that runs on it proves or kills without it:`,
    ...costs.map((c) => `  ${c.field}: ${s(c.clauses, 'clause')}, ${s(c.mutants, 'mutant')} (${s(c.checks, 'check')} ${c.checks === 1 ? 'skips' : 'skip'} without it)`),
  ].join('\n');
}
