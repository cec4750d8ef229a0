import type { Check, Depth, Feature } from '../../suites/lib/check.ts';
import type { Profile } from '../../fixtures/profiles/schema.ts';
import { ENDPOINTS, type Endpoint } from '../../suites/spec/endpoints.ts';
import { CLAUSE_BY_ID } from '../../suites/spec/clauses/index.ts';
import { expectedRequests } from './expected.ts';

// Which checks a depth takes: each depth has a request budget, and within it the checks that
// cover the most clauses per expected request (a greedy weighted max-coverage over the measured
// costs of harness/runner/expected-requests.json; an unmeasured check counts with its budget).
// Deterministic: the same checks, costs and profile give the same selection, in suite order.
//
//  1. Checks that skip on this profile (a feature it does not declare) cost nothing: all kept,
//     so the report still says why they skipped.
//  2. Requirements first: one check per endpoint of the catalog and one per protocol rule family
//     (RULE_FAMILIES), cheapest per requirement met.
//  3. Coverage: the check adding the most clause weight per request (MUST 3, PROFILE 2,
//     SHOULD 1), until no uncovered clause fits the budget.
//  4. The rest, cheapest first, while the budget lasts (more endpoints and scopes of a clause
//     already covered).

/** Requests a depth may send to the target; undefined: unbounded. */
export const DEPTH_BUDGETS: Readonly<Record<Depth, number | undefined>> = { smoke: 120, quick: 600, default: 2000, full: undefined };

/**
 * The share of a budget the selection plans for: measured counts are means over a few runs and
 * a run's seed moves model checks a little, so the run itself stays under the budget.
 */
export const PLANNED_SHARE = 0.9;

/** The protocol rules every depth proves at least once, each by any check proving one of its clauses. */
export const RULE_FAMILIES: readonly { id: string; clauses: readonly string[] }[] = [
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
  { id: 'tenant isolation', clauses: ['TENANT-ISOLATION'] },
  { id: 'versioning', clauses: ['VER-V1-PREFIX'] },
];

const WEIGHT = { MUST: 3, PROFILE: 2, SHOULD: 1 } as const;

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
  met(check: Check): boolean;
}

const REQUIREMENTS: readonly Requirement[] = [
  ...ENDPOINTS.map((e) => ({ id: `endpoint ${endpointLabel(e)}`, met: (c: Check) => endpointsOf(c).includes(e.id) })),
  ...RULE_FAMILIES.map((f) => ({ id: f.id, met: (c: Check) => c.clauses.some((id) => f.clauses.includes(id)) })),
];

/** Why a check skips on this profile whatever the target answers (a feature the profile does not declare), or undefined. */
export function staticGap(check: Pick<Check, 'features'>, profile: Profile): Feature | undefined {
  const control = !!profile.control || !!profile.embedded;
  return check.features.find((f) => {
    if (f === 'control' || f.startsWith('control:')) return !control;
    if (f === 'sinks') return !profile.features.sinks;
    if (f === 'imap') return !profile.features.imap;
    if (f === 'testEmail') return !profile.features.testEmail;
    if (f.startsWith('op:')) return !(profile.operations as Record<string, unknown>)[f.slice(3)];
    return false;
  });
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
  /** Chosen checks that skip on this profile (they cost nothing). */
  skipping: number;
}

/**
 * Chooses among `eligible` (the checks of a depth, in suite order) within `budget` requests.
 * `costOf` defaults to the measured expectation at the depth (a check's budget when unmeasured).
 */
export function selectWithin(
  eligible: readonly Check[],
  opts: { depth: Depth; budget?: number; profile: Profile; costOf?: (c: Check) => number },
): DepthSelection {
  const costOf = opts.costOf ?? ((c: Check) => expectedRequests(c, opts.depth));
  const cost = eligible.map((c) => (staticGap(c, opts.profile) ? 0 : costOf(c)));
  const coverable = new Set(eligible.flatMap((c) => c.clauses));
  const taken = new Set<number>();
  const covered = new Set<string>();
  let left = opts.budget === undefined ? Infinity : Math.floor(opts.budget * PLANNED_SHARE);
  const take = (i: number) => {
    taken.add(i);
    left -= cost[i]!;
    for (const id of eligible[i]!.clauses) covered.add(id);
  };
  const gainOf = (i: number) => eligible[i]!.clauses.reduce((n, id) => n + (covered.has(id) ? 0 : (WEIGHT[CLAUSE_BY_ID.get(id)?.level ?? 'SHOULD'] ?? 1)), 0);
  /** The untaken check that fits with the best value per request (ties: more value, then suite order). */
  const best = (value: (i: number) => number): number | undefined => {
    let pick: number | undefined;
    let pickRatio = 0;
    let pickValue = 0;
    for (let i = 0; i < eligible.length; i++) {
      if (taken.has(i) || cost[i]! > left) continue;
      const v = value(i);
      if (v <= 0) continue;
      const ratio = cost[i]! === 0 ? Infinity : v / cost[i]!;
      if (pick === undefined || ratio > pickRatio || (ratio === pickRatio && v > pickValue)) [pick, pickRatio, pickValue] = [i, ratio, v];
    }
    return pick;
  };

  // 1. What skips here costs nothing.
  cost.forEach((c, i) => c === 0 && take(i));
  // 2. Requirements: most unmet requirements per request, then clause gain breaks ties.
  const meets = eligible.map((c) => REQUIREMENTS.filter((r) => r.met(c)));
  const unmetNow = () => REQUIREMENTS.filter((r) => ![...taken].some((i) => meets[i]!.includes(r)));
  for (let open = new Set(unmetNow()); open.size; open = new Set(unmetNow())) {
    const i = best((j) => meets[j]!.filter((r) => open.has(r)).length + gainOf(j) / 1e6);
    if (i === undefined) break;
    take(i);
  }
  // 3. Clause coverage per request.
  for (let i = best(gainOf); i !== undefined; i = best(gainOf)) take(i);
  // 4. The rest, cheapest first.
  eligible
    .map((_, i) => i)
    .filter((i) => !taken.has(i))
    .sort((a, b) => cost[a]! - cost[b]! || a - b)
    .forEach((i) => cost[i]! <= left && take(i));

  const chosen = eligible.filter((_, i) => taken.has(i));
  return {
    depth: opts.depth,
    budget: opts.budget,
    chosen,
    leftOut: eligible.flatMap((check, i) => (taken.has(i) ? [] : [{ check, requests: cost[i]!, adds: check.clauses.filter((id) => !covered.has(id)) }])),
    requests: chosen.reduce((n, c) => n + (staticGap(c, opts.profile) ? 0 : costOf(c)), 0),
    clauses: { covered: [...coverable].filter((id) => covered.has(id)).length, coverable: coverable.size },
    unmet: unmetNow().filter((r) => eligible.some((c) => r.met(c))).map((r) => r.id),
    skipping: cost.filter((c, i) => c === 0 && taken.has(i) && staticGap(eligible[i]!, opts.profile)).length,
  };
}

/** "depth default: 380 of 437 checks, about 1,790 requests (budget 2,000), 640 of 646 clauses; 57 left out (...)" */
export function formatSelection(s: DepthSelection, listHint: string): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const head =
    `depth ${s.depth}: ${s.chosen.length} of ${s.chosen.length + s.leftOut.length} checks, about ${n(s.requests)} requests` +
    `${s.budget === undefined ? ' (no request budget)' : ` (budget ${n(s.budget)})`}, ${s.clauses.covered} of ${s.clauses.coverable} clauses`;
  const lost = s.clauses.coverable - s.clauses.covered;
  const tail = s.leftOut.length ? `; ${s.leftOut.length} checks left out${lost ? ` (${lost} clauses with them)` : ' (every clause still proven)'}: ${listHint}` : '';
  return `${head}${tail}${s.unmet.length ? `\n  not met within the budget: ${s.unmet.join(', ')}` : ''}`;
}

/** One line per left-out check: its id, expected requests and the clauses only it would add. */
export function formatLeftOut(s: DepthSelection): string {
  if (!s.leftOut.length) return `depth ${s.depth} leaves nothing out`;
  return s.leftOut
    .map((l) => `${l.check.id}  ~${l.requests} requests${l.adds.length ? `  adds ${l.adds.join(', ')}` : ''}`)
    .join('\n');
}
