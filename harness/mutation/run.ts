import { randomBytes } from 'node:crypto';
import type { Check, Depth } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';
import type { CheckEndEvent, EventSink } from '../ground/events.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { Runner } from '../runner/runner.ts';
import { selectChecks } from '../plan/eligible.ts';
import { MUTANTS, startReference, type ReferenceHandle, type ReferenceOptions } from '../reference/index.ts';
import { MUTANT_CLAUSES } from './catalog.ts';
import { candidateIds } from './candidates.ts';
import { killersAt, killMatrix } from '../plan/kill-matrix.ts';
import { expectedDurationMs } from '../plan/expected.ts';

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
export async function runAgainstReference(profile: Profile, checks: readonly Check[], mutants: string[] = [], sink: EventSink = nullSink, depth: Depth = 'default'): Promise<CheckEndEvent[]> {
  return withReference(mutants, (ref) => runOn(ref, profile, checks, depth, sink));
}

/** Boots the reference with these mutants on, hands it to `use`, and stops it. */
export async function withReference<T>(mutants: string[], use: (ref: ReferenceHandle) => Promise<T>, opts: Omit<ReferenceOptions, 'mutants'> = {}): Promise<T> {
  const ref = await startReference({ ...opts, mutants });
  try {
    return await use(ref);
  } finally {
    await ref.stop();
  }
}

/**
 * Workspaces for a run of these checks: enough that no workspace's rate budget binds (the
 * embedded reference's workspaces are free), so a run waits for no rate window.
 */
export const poolFor = (checks: readonly Check[]) => Math.min(160, Math.max(6, checks.length, Math.ceil(checks.reduce((n, c) => n + c.budget, 0) / 40)));

/** One run of `checks` at `depth` against a running reference, in a pool of its own. */
export async function runOn(ref: ReferenceHandle, profile: Profile, checks: readonly Check[], depth: Depth, sink: EventSink = nullSink, poolSize = poolFor(checks), concurrency = 8): Promise<CheckEndEvent[]> {
  const runner = new Runner({
    profile: { ...profile, poolSize },
    baseUrl: ref.baseUrl,
    control: { baseUrl: ref.controlUrl, token: ref.controlToken },
    depth,
    sink,
    prefix: `ocm${randomBytes(2).toString('hex')}-`,
    seed: 20261121,
    checkTimeoutMs: 180_000,
  });
  await runner.prepare(checks);
  const results = await runner.runAll(checks, concurrency);
  await runner.finish();
  return results;
}

/** A depth's own selection: a mutant meets only the chosen checks among its candidates, run at that depth. */
export interface AtDepth {
  depth: Depth;
  chosen: ReadonlySet<string>;
}


/** The checks runMutant runs against a mutant: its clauses' claimants, or at a depth its chosen candidates. */
function checksAgainst(clauses: readonly string[], at?: AtDepth): Check[] {
  return at ? ALL_CHECKS.filter((c) => at.chosen.has(c.id) && candidateIds(clauses, [c]).length > 0) : checksFor(clauses);
}

export async function runMutant(profile: Profile, id: string, at?: AtDepth): Promise<MutantResult> {
  const clauses = MUTANT_CLAUSES[id];
  if (!clauses) throw new Error(`mutant "${id}" breaks no clause the kit knows (add it to harness/mutation/catalog.ts)`);
  const checks = checksAgainst(clauses, at);
  if (!checks.length) return { id, clauses, killed: false, killedBy: [], checks: 0 };
  const results = await runAgainstReference(profile, checks, [id], nullSink, at?.depth ?? 'default');
  const killedBy = results.filter((r) => r.verdict === 'fail').map((r) => r.checkId);
  return { id, clauses, killed: killedBy.length > 0, killedBy, checks: checks.length };
}

/**
 * runMutant's question (does one of those checks fail against the mutant?) answered at the least
 * cost: the cheapest of them the kill matrix records as a killer (at that depth) runs alone first;
 * only when it passes do they all run. A few wait out real rate windows or verification timeouts,
 * and another usually kills the mutant in milliseconds. killedBy then names that one check.
 */
export async function proveKilled(profile: Profile, id: string, at?: AtDepth): Promise<MutantResult> {
  const clauses = MUTANT_CLAUSES[id] ?? [];
  const row = killMatrix().mutants[id];
  const recorded = new Set(row ? killersAt(row, at?.depth) : []);
  const cheapest = checksAgainst(clauses, at)
    .filter((c) => recorded.has(c.id))
    .sort((a, b) => expectedDurationMs(a, 'control') - expectedDurationMs(b, 'control'))[0];
  if (cheapest) {
    const [r] = await runAgainstReference(profile, [cheapest], [id], nullSink, at?.depth ?? 'default');
    if (r?.verdict === 'fail') return { id, clauses, killed: true, killedBy: [cheapest.id], checks: 1 };
  }
  return runMutant(profile, id, at);
}

/** Every mutant (or those `only` matches); `firstKill` stops at the first killer found (proveKilled). */
export async function runMutation(profile: Profile, opts: { only?: RegExp; at?: AtDepth; firstKill?: boolean } = {}, onResult?: (r: MutantResult) => void): Promise<MutationReport> {
  const mutants: MutantResult[] = [];
  for (const m of MUTANTS) {
    if (opts.only && !opts.only.test(m.id)) continue;
    const r = await (opts.firstKill ? proveKilled : runMutant)(profile, m.id, opts.at);
    onResult?.(r);
    mutants.push(r);
  }
  const killed = mutants.filter((m) => m.killed).length;
  return { score: mutants.length ? killed / mutants.length : 0, mutants };
}
