// `npm run kill-matrix`: regenerates harness/plan/kill-matrix.json. For every mutant of the
// reference, its candidate checks (candidates.ts) run against a reference with that mutant on:
// those eligible at `default` at that depth (what the selection predicts for the depths that
// users run), the `full`-only ones at `full`. A check that fails is run a second time, alone
// with the other killers; it is recorded as a killer when it fails both times. Checks that do
// not pass the clean reference are never killers. A run-end observer (`last`) is run that
// second time alone: its kill must not rest on what else ran. A killer that asks less below
// default (Check.shallowerAt) is then run again at each such depth it may run at, and fails
// twice there or is recorded as missed there (MatrixRow.belowDefault): only these few checks
// get the extra runs, and a row whose only staleness is those runs gets only them again.
//   npm run kill-matrix                 the mutants whose row is missing or stale (a clause, a
//                                       candidate or a killer's code changed: check-code.ts)
//   npm run kill-matrix -- --all        every mutant (about 20 minutes on a 2-core machine)
//   npm run kill-matrix -- --only RE    the mutants whose id matches RE
import { writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Check } from '../ground/check.ts';
import { DEPTHS, type Depth } from '../ground/check.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { MUTANTS, type ReferenceHandle } from '../reference/index.ts';
import type { Profile } from '../ground/profile-schema.ts';
import type { EventSink } from '../ground/events.ts';
import { loadProfile } from '../ground/profile.ts';
import { parseArgs } from '../ground/args.ts';
import { MUTANT_CLAUSES } from './catalog.ts';
import { candidateIds, digest } from './candidates.ts';
import { killMatrix, MATRIX_URL, SHALLOW_DEPTHS, type KillMatrix, type MatrixRow } from '../plan/kill-matrix.ts';
import { shallowKillers, staleDepthRuns, staleRows } from './matrix-staleness.ts';
import { checkFingerprints, killersDigest } from './check-code.ts';
import { runOn, withReference } from './run.ts';

const BY_ID = new Map(ALL_CHECKS.map((c) => [c.id, c]));
/** Each check's code as it is now: a row keeps the digest of its killers' (check-code.ts). */
const CODE = await checkFingerprints(ALL_CHECKS);
const atDefault = (c: Check) => DEPTHS.indexOf(c.depth ?? 'smoke') <= DEPTHS.indexOf('default');

// Many checks at once: a check failing against a mutant often waits out its whole polling time.

/** Checks slower than a minute, on stderr: what a long regeneration is waiting for. */
const slowLog: EventSink = {
  emit: (e) => {
    if (e.type === 'check-end' && e.durationMs > 60_000) process.stderr.write(`slow: ${e.checkId} ${e.verdict} in ${Math.round(e.durationMs / 1000)} s\n`);
  },
};

/** The checks among `checks` that fail against `ref`, each at its depth (or all at `at`). */
async function failing(ref: ReferenceHandle, profile: Profile, checks: readonly Check[], at?: Depth): Promise<string[]> {
  const groups = at
    ? [{ depth: at, checks }]
    : [
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

/** Per depth below default, the killers that ask less there run again there: those not failing twice there are missed. */
async function belowDefault(ref: ReferenceHandle, profile: Profile, killers: string[]): Promise<MatrixRow['belowDefault']> {
  const out: NonNullable<MatrixRow['belowDefault']> = {};
  for (const depth of SHALLOW_DEPTHS) {
    const tried = shallowKillers({ killers }, depth);
    if (!tried.length) continue;
    const once = await failing(ref, profile, tried.map((c) => BY_ID.get(c)!), depth);
    const twice = once.length ? await failing(ref, profile, once.map((c) => BY_ID.get(c)!), depth) : [];
    out[depth] = { tried, missed: tried.filter((k) => !twice.includes(k)) };
  }
  return Object.keys(out).length ? out : undefined;
}

async function rowFor(profile: Profile, id: string, failsClean: ReadonlySet<string>): Promise<MatrixRow> {
  const clauses = MUTANT_CLAUSES[id]!;
  const tried = candidateIds(clauses, ALL_CHECKS);
  const checks = tried.filter((c) => !failsClean.has(c)).map((c) => BY_ID.get(c)!);
  return withReference([id], async (ref) => {
    const first = await failing(ref, profile, checks);
    const killers = first.length ? first.filter(await confirmed(ref, profile, first.map((c) => BY_ID.get(c)!))) : [];
    return withDepthRuns({ clauses, tried: tried.length, triedDigest: digest(tried), killers, killersCode: killersDigest(killers, CODE) }, await belowDefault(ref, profile, killers));
  });
}

/** A row that is current but for its runs below default: only those again. */
async function depthRunsFor(profile: Profile, id: string, row: MatrixRow): Promise<MatrixRow> {
  return withDepthRuns(row, await withReference([id], (ref) => belowDefault(ref, profile, row.killers)));
}

function withDepthRuns({ belowDefault: _old, ...row }: MatrixRow, runs: MatrixRow['belowDefault']): MatrixRow {
  return runs ? { ...row, belowDefault: runs } : row;
}

async function main(): Promise<void> {
  const flags = parseArgs(process.argv.slice(2), { all: { type: 'boolean', help: 'every mutant, stale or not' }, only: { type: 'string', value: 'REGEX', help: 'the mutants whose id matches' } });
  const old: KillMatrix | undefined = existsSync(fileURLToPath(MATRIX_URL)) ? killMatrix() : undefined;
  const only = flags.only ? new RegExp(flags.only as string) : undefined;
  const stale = new Set(old ? staleRows(old, ALL_CHECKS, CODE) : []);
  const todo = MUTANTS.map((m) => m.id).filter((id) => (only ? only.test(id) : flags.all || !old || stale.has(id)));
  // Rows current but for their runs below default (a check began or stopped asking less there).
  const depthOnly = only || flags.all || !old ? [] : staleDepthRuns(old).filter((id) => !stale.has(id));
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
      source: 'npm run kill-matrix: each candidate check (same clause or same spec section) against the reference with one mutant on; checks eligible at default run at default, the others at full; a killer fails twice, the second time with the other killers (a run-end observer alone); a killer that asks less below default runs again at smoke and quick where eligible (belowDefault: missed there unless it fails twice)',
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
  for (const [i, id] of depthOnly.entries()) {
    mutants[id] = await depthRunsFor(profile, id, mutants[id]!);
    save();
    const runs = mutants[id]!.belowDefault ?? {};
    process.stdout.write(`${String(i + 1).padStart(3)}/${depthOnly.length} ${id.padEnd(40)} below default: ${SHALLOW_DEPTHS.map((d) => `${d} ${runs[d] ? `${runs[d]!.tried.length - runs[d]!.missed.length} of ${runs[d]!.tried.length}` : '-'}`).join(', ')}\n`);
  }
  save();
  process.stdout.write(`${todo.length} mutants, ${depthOnly.length} rows' runs below default in ${((Date.now() - started) / 60000).toFixed(1)} min; ${fileURLToPath(MATRIX_URL)}\n`);
}

await main();
