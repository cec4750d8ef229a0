// Failures grouped by cause: one broken rule on a target often fails dozens of checks (a requestId
// that is not a uuid fails the 401 check of every endpoint). A group is the checks with the same
// verdict, the same clauses and the same message once what differs from one instance to the next
// (the endpoint, ids, seeds, generated names) is taken out. The key never drops the clauses, so two
// different clauses never share a group. A failure of a shaped assertion carries its cause as data
// (kind and fields) and is grouped by that; the prose rules below serve the rest.
//
// Above the groups, root causes: one broken rule is often reported by checks of different
// clauses, each wording its own context around the same detail ("the 403 answer breaks the error
// envelope: error: Invalid input: ..." and "POST <endpoint> -> 403: error: Invalid input: ...").
// Groups whose messages share a detail form one root cause named by it; the groups stay inside.

import type { CheckResult } from './results.ts';
import { RUN_NAMES_IN_TEXT } from '../ground/run-prefix.ts';
import { failureKey } from '../ground/failure.ts';

export interface FailureGroup {
  /** the checks of the cause, in the order given; the first is the one shown */
  checks: CheckResult[];
  /** the endpoints the cause was seen on, each once, in order ("GET /v1/campaigns/{id}") */
  endpoints: string[];
}

/** An endpoint as checks write it: a method and a path, or an operation named by the profile ("GET <accounts.list>"). */
const ENDPOINT = /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (?:\/[^\s:,;()]*|<[\w.-]+>)/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** What varies between instances of one cause, each with what stands in for it in the key. */
const VARYING: [RegExp, string][] = [
  [/\s*\(check seed \d+, run seed \d+\)/g, ''],
  // the profile values a check read (the runner's "; the profile declares ..."): checks of one cause may read different ones
  [/; the profile declares .*$/s, ''],
  [ENDPOINT, '<endpoint>'],
  [UUID, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'],
  // the names a run gives what it creates: its prefix ("oc1a2b3c-") and what follows
  [RUN_NAMES_IN_TEXT, '<name>'],
  // ids with a type prefix that hold a digit ("req_9f8e7d6c", "camp_12ab34"), but not codes ("rate_limited")
  [/\b[a-z]{2,12}_(?=[0-9a-z]*\d)[0-9a-z]{4,}\b/gi, '<id>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/gi, '<hex>'],
  [/\b\d{5,}\b/g, '<n>'],
];

/** The message with what varies between instances of one cause taken out. */
export function causeOf(message: string): string {
  let m = message;
  for (const [re, by] of VARYING) m = m.replace(re, by);
  return m.trim();
}

/**
 * The grouping key: verdict, blocking, known, the clauses (as a set) and the cause: a typed
 * failure's kind and fields (harness/ground/failure.ts), else the message's cause read from its prose.
 */
function keyOf(c: CheckResult): string {
  return JSON.stringify([c.verdict, c.blocking, !!c.known, [...c.clauses].sort(), c.failure ? failureKey(c.failure) : causeOf(c.message ?? '')]);
}

/**
 * The endpoint a check failed on: the one its id names ("AUTH-401-MISSING/GET /v1/campaigns"),
 * else the first its message names (ids in the path shown as {id}, no query); none when neither says.
 */
export function endpointOf(c: CheckResult): string | undefined {
  const slash = c.id.indexOf('/');
  const fromId = slash >= 0 ? c.id.slice(slash + 1).match(ENDPOINT)?.[0] : undefined;
  if (fromId && fromId === c.id.slice(slash + 1)) return fromId;
  return (c.message ?? '').match(ENDPOINT)?.[0]?.replace(UUID, '{id}').replace(/\?.*$/, '');
}

/** The failures grouped by cause, groups in the order of their first check. */
export function groupFailures(checks: readonly CheckResult[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const c of checks) {
    const k = keyOf(c);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { checks: [], endpoints: [] }));
    g.checks.push(c);
    const ep = endpointOf(c);
    if (ep && !g.endpoints.includes(ep)) g.endpoints.push(ep);
  }
  return [...groups.values()];
}

/** "38 checks on 38 endpoints" / "2 checks" / "" for a single check. */
export function groupCountText(g: FailureGroup): string {
  const n = g.checks.length;
  if (n === 1) return '';
  const eps = g.endpoints.length;
  return `${n} checks${eps > 1 ? ` on ${eps} endpoints` : eps === 1 ? ` on ${g.endpoints[0]}` : ''}`;
}

export interface RootCause {
  /** the detail the groups' messages share (ids and endpoints taken out), or the one group's cause */
  cause: string;
  /** the clause-level groups of this cause, in the order given */
  groups: FailureGroup[];
}

/** Shorter details are too generic to join groups by ("got 404"). */
const MIN_DETAIL = 16;

/**
 * The details a message names: its parts (split at " | ", "; " and brackets, what checks join
 * several findings with) and the tail of each part after every ": " (the context a check puts
 * before a finding), ids and endpoints taken out.
 */
export function detailsOf(message: string): Set<string> {
  const out = new Set<string>();
  for (const part of causeOf(message).split(/ \| |; |[()]/)) {
    let tail = part.replace(/^[\s,.:;-]+|[\s,.:;]+$/g, '');
    for (;;) {
      if (tail.length >= MIN_DETAIL && /[a-z]{3}/i.test(tail.replace(/<\w+>/g, ''))) out.add(tail);
      const at = tail.indexOf(': ');
      if (at < 0) break;
      tail = tail.slice(at + 2);
    }
  }
  return out;
}

/**
 * The groups joined by root cause: again and again the detail shared by the most groups left (the
 * longest of those), while it is shared by two or more; every other group is a root cause alone.
 * Root causes come in the order of their first group.
 */
export function rootCauses(groups: readonly FailureGroup[]): RootCause[] {
  const details = groups.map((g) => detailsOf(g.checks[0]!.message ?? ''));
  const left = new Set(groups.map((_, i) => i));
  const joined = new Map<number, RootCause>();
  for (;;) {
    const counts = new Map<string, number>();
    for (const i of left) for (const d of details[i]!) counts.set(d, (counts.get(d) ?? 0) + 1);
    let best: [string, number] | undefined;
    for (const [d, n] of counts) if (n >= 2 && (!best || n > best[1] || (n === best[1] && d.length > best[0].length))) best = [d, n];
    if (!best) break;
    const members = [...left].filter((i) => details[i]!.has(best![0]));
    for (const i of members) left.delete(i);
    joined.set(members[0]!, { cause: best[0], groups: members.map((i) => groups[i]!) });
  }
  for (const i of left) joined.set(i, { cause: causeOf(groups[i]!.checks[0]!.message ?? ''), groups: [groups[i]!] });
  return [...joined.entries()].sort(([a], [b]) => a - b).map(([, r]) => r);
}
