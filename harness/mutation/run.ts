import { randomBytes } from 'node:crypto';
import type { Check } from '../../suites/lib/check.ts';
import type { Profile } from '../../fixtures/profiles/schema.ts';
import type { CheckEndEvent, EventSink } from '../events/types.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { Runner, selectChecks } from '../runner/runner.ts';
import { MUTANTS, startReference } from '../reference/index.ts';
import { MUTANT_CLAUSES } from './catalog.ts';

// The mutation run: for each mutant of the reference target, the checks that cover its clauses
// run against the reference with that mutant on; the mutant is killed when one of them fails.
// This is the evidence that the suite can fail.

export interface MutantResult {
  id: string;
  clauses: string[];
  killed: boolean;
  killedBy: string[];
  checks: number;
}

export interface MutationReport {
  score: number;
  mutants: MutantResult[];
}

const nullSink: EventSink = { emit: () => {} };

/** The checks that cover any of these clauses (at the given depth). */
export function checksFor(clauses: readonly string[], depth: 'quick' | 'default' | 'full' = 'default'): Check[] {
  return selectChecks(ALL_CHECKS, depth).filter((c) => c.clauses.some((id) => clauses.includes(id)));
}

/** Runs checks against a freshly started reference target (with mutants, or clean). */
export async function runAgainstReference(profile: Profile, checks: readonly Check[], mutants: string[] = [], sink: EventSink = nullSink): Promise<CheckEndEvent[]> {
  const ref = await startReference({ mutants });
  try {
    const runner = new Runner({
      profile: { ...profile, poolSize: Math.min(profile.poolSize, 6) },
      baseUrl: ref.baseUrl,
      control: { baseUrl: ref.controlUrl, token: ref.controlToken },
      depth: 'default',
      sink,
      prefix: `ocm${randomBytes(2).toString('hex')}-`,
      seed: 20261121,
    });
    await runner.prepare(checks);
    const results = await runner.runAll(checks, 8);
    await runner.finish();
    return results;
  } finally {
    await ref.stop();
  }
}

export async function runMutant(profile: Profile, id: string): Promise<MutantResult> {
  const clauses = MUTANT_CLAUSES[id];
  if (!clauses) throw new Error(`mutant "${id}" breaks no clause the kit knows (add it to harness/mutation/catalog.ts)`);
  const checks = checksFor(clauses);
  const results = await runAgainstReference(profile, checks, [id]);
  const killedBy = results.filter((r) => r.verdict === 'fail').map((r) => r.checkId);
  return { id, clauses, killed: killedBy.length > 0, killedBy, checks: checks.length };
}

export async function runMutation(profile: Profile, only?: RegExp, onResult?: (r: MutantResult) => void): Promise<MutationReport> {
  const mutants: MutantResult[] = [];
  for (const m of MUTANTS) {
    if (only && !only.test(m.id)) continue;
    const r = await runMutant(profile, m.id);
    onResult?.(r);
    mutants.push(r);
  }
  const killed = mutants.filter((m) => m.killed).length;
  return { score: mutants.length ? killed / mutants.length : 0, mutants };
}
