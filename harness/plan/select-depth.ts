import { DEPTHS, type Check, type Depth } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { ENDPOINTS, type Endpoint } from '../ground/spec-model/endpoints.ts';
import { CLAUSE_BY_ID } from '../ground/spec-model/clauses/index.ts';
import { targetRequests } from './expected.ts';
import { staticGap } from './static-gap.ts';
import { detectionOf, formatDetection, fromDepth, type Detection } from './detection.ts';
import { familyOf, killMatrix, mutantsKilledBy, type KillMatrix } from './kill-matrix.ts';

// Which checks a depth takes: each depth has a request budget, and within it the checks that
// catch the most, then cover the most clauses, per expected request (greedy, over the measured
// costs of harness/plan/expected-requests.json; an unmeasured check counts with its budget).
// What a check catches is the kill matrix (harness/plan/kill-matrix.json): the reference
// mutants it fails against at this depth (a check that asks less here may kill less). A clause is "covered" by a weak check as well as by a strong one; a
// mutant is killed only by a check strong enough, so kills choose before clause weight.
// Deterministic: the same checks, costs, matrix and profile give the same selection, in suite order.
//
//  1. Checks that skip on this profile (a feature, operation or declaration it does not declare,
//     a control extension not announced) cost nothing: all kept, so the report still says why
//     they skipped; they cover no clause, meet no requirement and kill no mutant.
//  2. Requirements: one check per endpoint of the catalog and one per protocol rule family
//     (RULE_FAMILIES; a check that kills one of the family's mutants), cheapest per requirement
//     met, kills breaking ties.
//  3. One killed mutant of every mutant family (the first word of its id: auth, idem, send...),
//     cheapest per family met.
//  4. Kills: the check killing the most mutants not yet killed per request, until every mutant
//     with an affordable killer is killed; then taken checks that others made redundant are
//     dropped (their requests go to kills again), and one taken check is swapped for a bigger
//     killer while that gains. Two greedies are tried (most kills per request, cheapest killer
//     first): the one missing fewer mutants is kept.
//  5. Coverage: the check adding the most clause weight per request (MUST 3, PROFILE 2,
//     SHOULD 1), until no uncovered clause fits the budget.
//  6. The rest, cheapest first, while the budget lasts (more endpoints and scopes of a clause
//     already covered).

/**
 * Requests a depth may send to the target; undefined: unbounded. quick's was 600 until the
 * mutant families (411 mutants from 299): at 640 it again killed at least 90 % of them; at 700
 * since the mutants of the plausible neighbouring violations (434: 383 at 640, 393 at 700); at
 * 750 since two audits' 53 mutants and the checks they strengthened (603: 493 at 700, 506 at 750).
 */
export const DEPTH_BUDGETS: Readonly<Record<Depth, number | undefined>> = { smoke: 120, quick: 750, default: 2000, full: undefined };

/**
 * The share of a budget the selection plans for: measured counts are means over a few runs and
 * a run's seed moves model checks a little, so the run itself stays under the budget.
 */
export const PLANNED_SHARE = 0.9;

/**
 * The protocol rules every depth proves at least once: by a check proving one of its clauses
 * that kills one of the family's mutants (the reference's mutants breaking one of its clauses).
 */
export const RULE_FAMILIES: readonly { id: string; clauses: readonly string[]; from?: Depth }[] = [
  { id: 'auth 401', clauses: ['AUTH-401-MISSING', 'AUTH-401-MALFORMED', 'AUTH-401-UNKNOWN'] },
  { id: 'revoked key 401', clauses: ['AUTH-401-REVOKED'] },
  { id: 'scopes 403', clauses: ['SCOPE-403-MISSING'] },
  { id: 'not found 404', clauses: ['ERR-TABLE-404'] },
  { id: 'validation 400', clauses: ['ERR-DETAILS-VALIDATION'] },
  { id: 'error envelope', clauses: ['ERR-STATUS-REPEATS-HTTP', 'ERR-REQUESTID-UUID'] },
  { id: 'pagination', clauses: ['PAGE-CURSOR-FROM-META'] },
  { id: 'idempotency replay', clauses: ['IDEM-REPLAY'] },
  { id: 'idempotency conflict 422', clauses: ['IDEM-REUSED-422'] },
  { id: 'rate-limit headers', clauses: ['RATE-REMAINING-HEADER'] },
  // The 121st request of a window refused, with Retry-After: a whole window of requests, more than smoke's budget.
  { id: 'rate limit 429', clauses: ['RATE-120-PER-60S', 'RATE-429'], from: 'quick' },
  { id: 'tenant isolation', clauses: ['TENANT-ISOLATION'] },
  { id: 'versioning', clauses: ['VER-V1-PREFIX', 'VER-UNKNOWN-404'] },
];

const WEIGHT = { MUST: 3, PROFILE: 2, SHOULD: 1 } as const;

/**
 * What a unit of clause weight is worth beside a kill while kills choose (phase 4, most kills per
 * request): a MUST clause no chosen check proves yet weighs 0.6 of a kill. Without it, the kills
 * of a tight budget crowd out the clauses (quick then proved 439 clauses, with it 459).
 */
const KILL_PER_WEIGHT = 0.2;

/** How generated checks name their endpoint in their id: "AUTH-401-MISSING/GET /v1/workspace", "PAGE-WALK/GET <accounts.list>". */
export function endpointLabel(e: Endpoint): string {
  return `${e.method} ${e.path ?? `<${e.referenced}>`}`;
}

/** The endpoints a check's id names. */
export function endpointsOf(check: Pick<Check, 'id'>): string[] {
  const tail = check.id.slice(check.id.indexOf('/') + 1);
  return ENDPOINTS.filter((e) => tail === endpointLabel(e)).map((e) => e.id);
}

interface Requirement {
  id: string;
  /** Whether the check meets it, given the mutants it kills here. */
  met(check: Check, kills: readonly string[]): boolean;
}

/** A rule family's mutants: those breaking one of its clauses (none: a claim meets it). */
export function familyMutants(f: (typeof RULE_FAMILIES)[number], matrix: KillMatrix): string[] {
  return Object.entries(matrix.mutants)
    .filter(([, row]) => row.clauses.some((id) => f.clauses.includes(id)))
    .map(([id]) => id);
}

/**
 * Depths chosen by kills per request, not by area: no check per endpoint is required there, and
 * a mutant family needs a kill of its own only when it holds at least MIN_FAMILY mutants (a
 * family of one or two is a single break, which the kills weigh like any other). At smoke the
 * endpoint rows took a third of the budget, each killing what any one of them kills.
 */
export const BY_KILLS: readonly Depth[] = ['smoke', 'quick'];
export const MIN_FAMILY = 3;

/** One check per endpoint (not at a depth chosen by kills); per rule family, a check proving one of its clauses that kills one of its mutants. */
function requirements(matrix: KillMatrix, depth: Depth): Requirement[] {
  return [
    ...(BY_KILLS.includes(depth) ? [] : ENDPOINTS.map((e) => ({ id: `endpoint ${endpointLabel(e)}`, met: (c: Check) => endpointsOf(c).includes(e.id) }))),
    ...RULE_FAMILIES.filter((f) => DEPTHS.indexOf(f.from ?? 'smoke') <= DEPTHS.indexOf(depth)).map((f) => {
      const mutants = familyMutants(f, matrix);
      return {
        id: f.id,
        met: (c: Check, kills: readonly string[]) => c.clauses.some((id) => f.clauses.includes(id)) && (!mutants.length || kills.some((m) => mutants.includes(m))),
      };
    }),
  ];
}

export interface LeftOut {
  check: Check;
  requests: number;
  /** Clauses it proves that no chosen check does. */
  adds: string[];
}

export interface DepthSelection {
  depth: Depth;
  /** The request budget (undefined: unbounded). */
  budget?: number;
  /** In suite order. */
  chosen: Check[];
  leftOut: LeftOut[];
  /** Expected requests of the chosen checks. */
  requests: number;
  /** Clauses the chosen checks prove, and those the eligible checks could. */
  clauses: { covered: number; coverable: number };
  /** Requirements (endpoints, rule families) no chosen check meets. */
  unmet: string[];
  /** Chosen checks that skip on this profile (they cost nothing, cover and kill nothing). */
  skipping: number;
  /** Every check of the kit (the run's summary counts the same). */
  kitChecks: number;
  /** Reference mutants the chosen checks kill (kill matrix), and the cheapest killers of those they miss. */
  mutants: Detection;
}

/**
 * Chooses among `eligible` (the checks of a depth, in suite order) within `budget` requests.
 * `costOf` defaults to the measured expectation at the depth (a check's budget when unmeasured).
 */
export function selectWithin(eligible: readonly Check[], opts: SelectOptions): DepthSelection {
  // Most kills per request is the usual greedy; where the budget is tight, the cheapest killers
  // first can fit more of them. Both are tried; the one missing fewer mutants is kept.
  const byRatio = selectOnce(eligible, opts, 'ratio');
  const byCost = selectOnce(eligible, opts, 'cheapest');
  return byCost.mutants.missed.length < byRatio.mutants.missed.length ? byCost : byRatio;
}

interface SelectOptions {
  depth: Depth;
  budget?: number;
  profile: Profile;
  /** The control API's announced extensions (undefined: not probed, assumed available). */
  extensions?: readonly string[];
  costOf?: (c: Check) => number;
  matrix?: KillMatrix;
  all?: readonly Check[];
}

function selectOnce(eligible: readonly Check[], opts: SelectOptions, killOrder: KillOrder): DepthSelection {
  const g = new Greedy(eligible, opts);
  takeSkipping(g); // 1.
  meetRequirements(g); // 2.
  killEveryFamily(g); // 3.
  takeKillers(g, killOrder); // 4.
  prune(g);
  takeKillers(g, killOrder);
  swapWhileGaining(g, killOrder);
  coverClauses(g); // 5.
  takeTheRest(g); // 6.
  return selectionOf(g);
}

type KillOrder = 'ratio' | 'cheapest';

/** What the phases share: what each eligible check (by index) costs and kills here, and what the taken ones give. */
class Greedy {
  readonly costOf: (c: Check) => number;
  readonly matrix: KillMatrix;
  /** Whether each runs on this profile (no static gap). */
  readonly runs: boolean[];
  /** Expected requests here; 0: the check skips on this profile. */
  readonly cost: number[];
  /** The mutants each kills here (a check that skips here kills nothing here). */
  readonly kills: string[][];
  /** The clauses each proves here (a check that skips here proves none). */
  readonly proves: string[][];
  readonly reqs: Requirement[];
  /** The requirements each meets. */
  readonly meets: Requirement[][];
  /** Mutants per family, and the least a family holds to need a kill of its own here (phase 3). */
  readonly familySize = new Map<string, number>();
  readonly minFamily: number;
  readonly taken = new Set<number>();
  readonly killed = new Set<string>();
  readonly covered = new Set<string>();
  /** Requests left of the planned share of the budget. */
  left: number;

  constructor(
    readonly eligible: readonly Check[],
    readonly opts: SelectOptions,
  ) {
    this.costOf = opts.costOf ?? ((c: Check) => targetRequests(c, opts.depth, opts.profile));
    this.matrix = opts.matrix ?? killMatrix();
    this.runs = eligible.map((c) => !staticGap(c, opts.profile, opts.extensions));
    this.cost = eligible.map((c, i) => (this.runs[i] ? this.costOf(c) : 0));
    // What each kills at this depth: a check that asks less here may kill less (kill-matrix.ts).
    const killsOf = mutantsKilledBy(this.matrix, opts.depth);
    const kills = eligible.map((c, i) => (this.runs[i] ? (killsOf.get(c.id) ?? []) : []));
    this.kills = BY_KILLS.includes(opts.depth) ? kills : ownKillsFirst(eligible, kills, this.matrix);
    this.proves = eligible.map((c, i) => (this.runs[i] ? c.clauses : []));
    this.reqs = requirements(this.matrix, opts.depth);
    for (const m of Object.keys(this.matrix.mutants)) this.familySize.set(familyOf(m), (this.familySize.get(familyOf(m)) ?? 0) + 1);
    this.minFamily = BY_KILLS.includes(opts.depth) ? MIN_FAMILY : 1;
    this.meets = eligible.map((c, i) => (this.runs[i] ? this.reqs.filter((r) => r.met(c, this.kills[i]!)) : []));
    this.left = opts.budget === undefined ? Infinity : Math.floor(opts.budget * PLANNED_SHARE);
  }

  take(i: number): void {
    this.taken.add(i);
    this.left -= this.cost[i]!;
    for (const id of this.proves[i]!) this.covered.add(id);
    for (const m of this.kills[i]!) this.killed.add(m);
  }

  newKills(i: number): number {
    return this.kills[i]!.filter((m) => !this.killed.has(m)).length;
  }

  familiesMet(): Set<string> {
    return new Set([...this.killed].map(familyOf));
  }

  newFamilies(i: number, met: ReadonlySet<string>): number {
    return new Set(this.kills[i]!.map(familyOf).filter((f) => !met.has(f) && this.familySize.get(f)! >= this.minFamily)).size;
  }

  /** The clause weight a check adds to what is covered. */
  gainOf(i: number): number {
    return this.proves[i]!.reduce((n, id) => n + (this.covered.has(id) ? 0 : (WEIGHT[CLAUSE_BY_ID.get(id)?.level ?? 'SHOULD'] ?? 1)), 0);
  }

  unmetNow(): Requirement[] {
    return this.reqs.filter((r) => ![...this.taken].some((i) => this.meets[i]!.includes(r)));
  }

  /** The untaken check that fits with the best value per request (ties: more value, then suite order). */
  best(value: (i: number) => number): number | undefined {
    let pick: number | undefined;
    let pickRatio = 0;
    let pickValue = 0;
    for (let i = 0; i < this.eligible.length; i++) {
      if (this.taken.has(i) || this.cost[i]! > this.left) continue;
      const v = value(i);
      if (v <= 0) continue;
      const ratio = this.cost[i]! === 0 ? Infinity : v / this.cost[i]!;
      if (pick === undefined || ratio > pickRatio || (ratio === pickRatio && v > pickValue)) [pick, pickRatio, pickValue] = [i, ratio, v];
    }
    return pick;
  }

  /** Takes the best check by `value` until none fits or adds value. */
  takeWhileBest(value: (i: number) => number): void {
    for (let i = this.best(value); i !== undefined; i = this.best(value)) this.take(i);
  }
}

/**
 * Where a check claiming the clause a mutant breaks kills it, only such checks are credited with
 * the kill; others, where none does. A depth chosen by area must show each clause broken by a
 * check of its own: a kill that only another clause's check makes (its failure names that other
 * clause) leaves the clause's own check free to be left out, and its report calls the clause
 * proven by a check that would pass the break. The depths chosen by kills count any kill.
 */
export function ownKillsFirst(checks: readonly Pick<Check, 'clauses'>[], kills: readonly (readonly string[])[], matrix: KillMatrix): string[][] {
  const owns = (i: number, m: string) => checks[i]!.clauses.some((k) => matrix.mutants[m]?.clauses.includes(k));
  const owned = new Set(kills.flatMap((ms, i) => ms.filter((m) => owns(i, m))));
  return kills.map((ms, i) => ms.filter((m) => !owned.has(m) || owns(i, m)));
}

/** 1. What skips here costs nothing (nor what runs without a request to the target). */
function takeSkipping(g: Greedy): void {
  g.cost.forEach((c, i) => c === 0 && g.take(i));
}

/** 2. Requirements: most unmet requirements per request, then kills, then clause gain break ties. */
function meetRequirements(g: Greedy): void {
  for (let open = new Set(g.unmetNow()); open.size; open = new Set(g.unmetNow())) {
    const i = g.best((j) => g.meets[j]!.filter((r) => open.has(r)).length + g.newKills(j) / 1e3 + g.gainOf(j) / 1e6);
    if (i === undefined) break;
    g.take(i);
  }
}

/** 3. A killed mutant of every family: most families met per request, then kills break ties. */
function killEveryFamily(g: Greedy): void {
  for (;;) {
    const met = g.familiesMet();
    const i = g.best((j) => (g.newFamilies(j, met) ? g.newFamilies(j, met) + g.newKills(j) / 1e6 : 0));
    if (i === undefined) break;
    g.take(i);
  }
}

/** 4. Kills per request (or, `cheapest`, the cheapest killer first), then clause gain breaks ties. */
function takeKillers(g: Greedy, killOrder: KillOrder): void {
  g.takeWhileBest((j) => (!g.newKills(j) ? 0 : killOrder === 'ratio' ? g.newKills(j) + g.gainOf(j) * KILL_PER_WEIGHT : 1 + g.newKills(j) / 1e3 + g.gainOf(j) / 1e6));
}

/** Greedy picks made redundant by later ones give their requests back: drops, most expensive first, each taken check whose kills, requirements and clauses others already give. */
function prune(g: Greedy): void {
  const { cost, kills, meets, proves, taken } = g;
  const count = new Map<string, number>();
  const keysOf = (i: number) => [...kills[i]!.map((m) => `m ${m}`), ...meets[i]!.map((r) => `r ${r.id}`), ...proves[i]!.map((k) => `c ${k}`)];
  for (const i of taken) for (const k of keysOf(i)) count.set(k, (count.get(k) ?? 0) + 1);
  for (const i of [...taken].filter((i) => cost[i]! > 0).sort((a, b) => cost[b]! - cost[a]! || b - a)) {
    if (!keysOf(i).every((k) => count.get(k)! > 1)) continue;
    for (const k of keysOf(i)) count.set(k, count.get(k)! - 1);
    taken.delete(i);
    g.left += cost[i]!;
  }
}

/** A greedy stops where no single check fits: trading one taken check for a bigger killer may still gain (50 trades at most, each followed by kills). */
function swapWhileGaining(g: Greedy, killOrder: KillOrder): void {
  for (let n = 0; n < 50 && swap(g); n++) takeKillers(g, killOrder);
}

/**
 * Trades one taken check for an untaken one that, in what the budget then allows, kills more
 * mutants; requirements met by the taken one alone and families left without a kill are kept.
 */
function swap(g: Greedy): boolean {
  const { cost, kills, meets, proves, eligible, taken, killed, covered } = g;
  const count = new Map<string, number>();
  for (const i of taken) for (const k of [...kills[i]!.map((m) => `m ${m}`), ...meets[i]!.map((r) => `r ${r.id}`)]) count.set(k, (count.get(k) ?? 0) + 1);
  const perFamily = new Map<string, number>();
  for (const m of killed) perFamily.set(familyOf(m), (perFamily.get(familyOf(m)) ?? 0) + 1);
  let pick: { out: number; into: number; net: number } | undefined;
  for (const out of taken) {
    if (cost[out] === 0 || meets[out]!.some((r) => count.get(`r ${r.id}`) === 1)) continue;
    const lost = kills[out]!.filter((m) => count.get(`m ${m}`) === 1);
    for (let into = 0; into < eligible.length; into++) {
      if (taken.has(into) || cost[into]! > g.left + cost[out]!) continue;
      const gained = kills[into]!.filter((m) => !killed.has(m) || lost.includes(m));
      const net = gained.length - lost.length;
      if (net <= 0 || (pick && (net < pick.net || (net === pick.net && cost[into]! >= cost[pick.into]!)))) continue;
      const orphaned = lost.some((m) => perFamily.get(familyOf(m))! - lost.filter((x) => familyOf(x) === familyOf(m)).length === 0 && !gained.some((x) => familyOf(x) === familyOf(m)));
      if (!orphaned) pick = { out, into, net };
    }
  }
  if (!pick) return false;
  taken.delete(pick.out);
  g.left += cost[pick.out]!;
  killed.clear();
  covered.clear();
  for (const i of taken) {
    for (const m of kills[i]!) killed.add(m);
    for (const id of proves[i]!) covered.add(id);
  }
  g.take(pick.into);
  return true;
}

/** 5. Clause coverage per request. */
function coverClauses(g: Greedy): void {
  g.takeWhileBest((j) => g.gainOf(j));
}

/** 6. The rest, cheapest first, while the budget lasts. */
function takeTheRest(g: Greedy): void {
  g.eligible
    .map((_, i) => i)
    .filter((i) => !g.taken.has(i))
    .sort((a, b) => g.cost[a]! - g.cost[b]! || a - b)
    .forEach((i) => g.cost[i]! <= g.left && g.take(i));
}

/** The selection the phases made: chosen in suite order, what it leaves out, and what it covers, meets and kills. */
function selectionOf(g: Greedy): DepthSelection {
  const { eligible, opts, cost, runs, proves, meets, taken, covered } = g;
  const chosen = eligible.filter((_, i) => taken.has(i));
  // What the eligible checks could prove here: a check that skips on this profile proves nothing.
  const coverable = new Set(proves.flat());
  return {
    depth: opts.depth,
    budget: opts.budget,
    chosen,
    leftOut: eligible.flatMap((check, i) => (taken.has(i) ? [] : [{ check, requests: cost[i]!, adds: proves[i]!.filter((id) => !covered.has(id)) }])),
    requests: [...taken].reduce((n, i) => n + cost[i]!, 0),
    clauses: { covered: [...coverable].filter((id) => covered.has(id)).length, coverable: coverable.size },
    unmet: g.unmetNow().filter((r) => meets.some((m) => m.includes(r))).map((r) => r.id),
    skipping: [...taken].filter((i) => !runs[i]).length,
    kitChecks: (opts.all ?? eligible).length,
    mutants: detectionHere(chosen, { ...opts, all: opts.all ?? eligible, matrix: g.matrix }),
  };
}

/**
 * The detection of `chosen` on this profile: a check with a static gap (control extensions
 * included) kills nothing and is no killer to suggest; detectionOf is handed only those that run.
 */
export function detectionHere(chosen: readonly Check[], opts: { profile: Profile; depth: Depth; all: readonly Check[]; extensions?: readonly string[]; matrix?: KillMatrix }): Detection {
  const runs = (c: Check) => !staticGap(c, opts.profile, opts.extensions);
  return detectionOf(chosen.filter(runs), { profile: opts.profile, depth: opts.depth, all: opts.all.filter(runs), ...(opts.matrix ? { matrix: opts.matrix } : {}) });
}

/** "depth default: 380 of 437 checks, about 1,790 requests (budget 2,000), 640 of 646 clauses; 57 left out (...)" */
export function formatSelection(s: DepthSelection, listHint: string): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const head =
    // The run's summary counts the same way: chosen, of the depth's eligible checks, of the kit's.
    `depth ${s.depth}: ${s.chosen.length} checks chosen of the ${s.chosen.length + s.leftOut.length} this depth may run (${s.kitChecks} in the kit)${s.skipping ? `; ${s.skipping} of them skip on this profile: they send, cover and kill nothing` : ''}; about ${n(s.requests)} requests` +
    `${s.budget === undefined ? ' (no request budget)' : ` (budget ${n(s.budget)})`}, covering ${s.clauses.covered} of the ${CLAUSE_BY_ID.size} clauses`;
  // The same denominator as plan and the headline: the catalog's clauses.
  const lost = s.clauses.coverable - s.clauses.covered;
  const tail = s.leftOut.length
    ? `; ${s.leftOut.length} checks left out${lost ? `, which alone cover ${lost} more clauses` : ' (they cover no clause the chosen ones do not)'}: ${listHint}`
    : '';
  return `${head}${tail}${s.unmet.length ? `\n  not met within the budget: ${s.unmet.join(', ')}` : ''}\n${formatDetection(s.mutants, 3)}`;
}

/** One line per left-out check: its id, expected requests and the clauses only it would add. */
export function formatLeftOut(s: DepthSelection): string {
  if (!s.leftOut.length) return `depth ${s.depth} leaves nothing out`;
  const checks = s.leftOut.map((l) => `${l.check.id}  ~${l.requests} requests${l.adds.length ? `  adds ${l.adds.join(', ')}` : ''}`);
  const mutants = s.mutants.missed.map(
    (m) => `  ${m.mutant}: ${m.killers.length ? `cheapest killer ${m.killers[0]!.check} (~${m.killers[0]!.requests} requests${fromDepth(m.killers[0]!.depth)})` : 'no check that runs on this profile kills it'}`,
  );
  return [
    ...checks,
    '',
    mutants.length ? `reference mutants depth ${s.depth} cannot afford to kill (${mutants.length} of ${s.mutants.total}):` : `depth ${s.depth} kills all ${s.mutants.total} reference mutants`,
    ...mutants,
  ].join('\n');
}
