// `npm run kill-matrix`: regenerates harness/runner/kill-matrix.json. For every mutant of the
// reference, its candidate checks (candidates.ts) run against a reference with that mutant on:
// those eligible at `default` at that depth (what the selection predicts for the depths that
// users run), the `full`-only ones at `full`. A check that fails is run a second time, alone
// with the other killers; it is recorded as a killer when it fails both times. Checks that do
// not pass the clean reference are never killers. A run-end observer (`last`) is run that
// second time alone: its kill must not rest on what else ran.
//   npm run kill-matrix                 the mutants whose row is missing or stale
//   npm run kill-matrix -- --all        every mutant (about 20 minutes on a 2-core machine)
//   npm run kill-matrix -- --only RE    the mutants whose id matches RE
import { writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Check } from '../ground/check.ts';
import { DEPTHS } from '../ground/check.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { MUTANTS, type ReferenceHandle } from '../reference/index.ts';
import type { Profile } from '../ground/profile-schema.ts';
import type { EventSink } from '../ground/events.ts';
import { loadProfile } from '../ground/profile.ts';
import { parseArgs } from '../ground/args.ts';
import { MUTANT_CLAUSES } from './catalog.ts';
import { candidateIds, digest } from './candidates.ts';
import { killMatrix, MATRIX_URL, type KillMatrix, type MatrixRow } from '../runner/kill-matrix.ts';
import { staleMutants } from './matrix-staleness.ts';
import { runOn, withReference } from './run.ts';

const BY_ID = new Map(ALL_CHECKS.map((c) => [c.id, c]));
const atDefault = (c: Check) => DEPTHS.indexOf(c.depth ?? 'smoke') <= DEPTHS.indexOf('default');

// Many checks at once: a check failing against a mutant often waits out its whole polling time.

/** Checks slower than a minute, on stderr: what a long regeneration is waiting for. */
const slowLog: EventSink = {
  emit: (e) => {
    if (e.type === 'check-end' && e.durationMs > 60_000) process.stderr.write(`slow: ${e.checkId} ${e.verdict} in ${Math.round(e.durationMs / 1000)} s\n`);
  },
};

/** The checks among `checks` that fail against `ref`, each at its depth. */
async function failing(ref: ReferenceHandle, profile: Profile, checks: readonly Check[]): Promise<string[]> {
  const groups = [
    { depth: 'default' as const, checks: checks.filter(atDefault) },
    { depth: 'full' as const, checks: checks.filter((c) => !atDefault(c)) },
  ];
  const out: string[] = [];
  for (const g of groups) {
    if (!g.checks.length) continue;
    const results = await runOn(ref, profile, g.checks, g.depth, slowLog, undefined, 24);
    out.push(...results.filter((r) => r.verdict === 'fail').map((r) => r.checkId));
  }
  return out.sort();
}

/**
 * Which of the checks that failed once fail again: the others together, each run-end observer
 * (`last`) alone. An observer judges what the run showed; alone it sees only its own requests,
 * so a kill that needed another check's traffic (a 429 the rate check provoked) is not recorded
 * as its own. Its own requests stand in for every company: it makes them wherever the run has
 * not shown what it needs, and any other check's answers only add to what it judges.
 */
async function confirmed(ref: ReferenceHandle, profile: Profile, first: readonly Check[]): Promise<(id: string) => boolean> {
  const again = new Set(await failing(ref, profile, first.filter((c) => !c.last)));
  for (const o of first.filter((c) => c.last)) for (const id of await failing(ref, profile, [o])) again.add(id);
  return (id) => again.has(id);
}

async function rowFor(profile: Profile, id: string, failsClean: ReadonlySet<string>): Promise<MatrixRow> {
  const clauses = MUTANT_CLAUSES[id]!;
  const tried = candidateIds(clauses, ALL_CHECKS);
  const checks = tried.filter((c) => !failsClean.has(c)).map((c) => BY_ID.get(c)!);
  const killers = await withReference([id], async (ref) => {
    const first = await failing(ref, profile, checks);
    if (!first.length) return [];
    return first.filter(await confirmed(ref, profile, first.map((c) => BY_ID.get(c)!)));
  });
  return { clauses, tried: tried.length, triedDigest: digest(tried), killers };
}

async function main(): Promise<void> {
  const flags = parseArgs(process.argv.slice(2), { all: { type: 'boolean', help: 'every mutant, stale or not' }, only: { type: 'string', value: 'REGEX', help: 'the mutants whose id matches' } });
  const old: KillMatrix | undefined = existsSync(fileURLToPath(MATRIX_URL)) ? killMatrix() : undefined;
  const only = flags.only ? new RegExp(flags.only as string) : undefined;
  const todo = MUTANTS.map((m) => m.id).filter((id) => (only ? only.test(id) : flags.all || !old || staleMutants(old).includes(id)));
  const profile = await loadProfile();
  const started = Date.now();

  // The clean reference first: a check that fails there proves nothing about a mutant.
  const candidates = [...new Set(todo.flatMap((id) => candidateIds(MUTANT_CLAUSES[id]!, ALL_CHECKS)))].map((c) => BY_ID.get(c)!);
  const cleanFails = await withReference([], (ref) => failing(ref, profile, candidates));
  const retried = new Set(candidates.map((c) => c.id));
  const failsClean = new Set([...(old?.failsClean ?? []).filter((c) => !retried.has(c) && BY_ID.has(c)), ...cleanFails]);
  process.stdout.write(`clean reference: ${candidates.length} checks, ${cleanFails.length} not passing${cleanFails.length ? `: ${cleanFails.join(', ')}` : ''}\n`);

  const mutants: Record<string, MatrixRow> = Object.fromEntries(Object.entries(old?.mutants ?? {}).filter(([id]) => MUTANT_CLAUSES[id]));
  const save = () => {
    const matrix: KillMatrix = {
      source: 'npm run kill-matrix: each candidate check (same clause or same spec section) against the reference with one mutant on; checks eligible at default run at default, the others at full; a killer fails twice, the second time with the other killers (a run-end observer alone)',
      failsClean: [...failsClean].sort(),
      checks: ALL_CHECKS.map((c) => c.id).sort(),
      mutants: Object.fromEntries(Object.entries(mutants).sort(([a], [b]) => a.localeCompare(b))),
    };
    writeFileSync(MATRIX_URL, JSON.stringify(matrix, null, 1) + '\n');
  };
  for (const [i, id] of todo.entries()) {
    const t0 = Date.now();
    mutants[id] = await rowFor(profile, id, failsClean);
    save(); // after every mutant: an interrupted regeneration keeps what it measured
    const r = mutants[id]!;
    process.stdout.write(`${String(i + 1).padStart(3)}/${todo.length} ${id.padEnd(40)} ${String(r.killers.length).padStart(3)} of ${String(r.tried).padStart(3)} kill  ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  save();
  process.stdout.write(`${todo.length} mutants in ${((Date.now() - started) / 60000).toFixed(1)} min; ${fileURLToPath(MATRIX_URL)}\n`);
}

await main();
