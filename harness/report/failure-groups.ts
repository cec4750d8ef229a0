// Failures grouped by cause: one broken rule on a target often fails dozens of checks (a requestId
// that is not a uuid fails the 401 check of every endpoint). A group is the checks with the same
// verdict, the same clauses and the same cause. The cause is data (harness/ground/failure.ts): a
// failure's kind and fields, which never hold an endpoint, id, seed or time, so nothing is read
// back out of the prose. The key never drops the clauses, so two different clauses never share a
// group. A failure without a kind (a report of an older kit) is keyed by its own text.
//
// Above the groups, root causes: one broken rule is often reported by checks of different
// clauses, each in its own context ("the 403 answer breaks the error envelope" of one check and a
// scope matrix's wrong answers of another both name the problem "error: Invalid input: ...").
// Groups whose failures name the same detail form one root cause named by it; the groups stay inside.

import type { CheckResult } from './results.ts';
import { failureKey, type TypedFailure } from '../ground/failure.ts';

export interface FailureGroup {
  /** the checks of the cause, in the order given; the first is the one shown */
  checks: CheckResult[];
  /** the endpoints the cause was seen on, each once, in order ("GET /v1/campaigns/{id}") */
  endpoints: string[];
}

/** What the runner appends to a check's own text: the profile values it read, the seeds. */
const RUN_SUFFIXES = ['; the profile declares ', ' (check seed '];

/** A failure's text as its check wrote it, without what the runner appends. */
export function ownText(message: string): string {
  let m = message;
  for (const suffix of RUN_SUFFIXES) {
    const at = m.indexOf(suffix);
    if (at >= 0) m = m.slice(0, at);
  }
  return m.trim();
}

/**
 * The grouping key: verdict, blocking, known, the clauses (as a set) and the cause: a typed
 * failure's kind and fields, else (a report of an older kit) the check's own text.
 */
function keyOf(c: CheckResult): string {
  return JSON.stringify([c.verdict, c.blocking, !!c.known, [...c.clauses].sort(), c.failure ? failureKey(c.failure) : ownText(c.message ?? '')]);
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** "POST /v1/accounts" or "POST <apikeys.create>": a method, one space, then a path or an operation. */
function isEndpoint(s: string): boolean {
  const space = s.indexOf(' ');
  const rest = s.slice(space + 1);
  return METHODS.includes(s.slice(0, space)) && !rest.includes(' ') && (rest.startsWith('/') || (rest.startsWith('<') && rest.endsWith('>')));
}

/**
 * The endpoint a check failed on: the one its id names ("AUTH-401-MISSING/GET /v1/campaigns"),
 * else the one its evidence went to (CheckResult.endpoint); none when neither says.
 */
export function endpointOf(c: CheckResult): string | undefined {
  const slash = c.id.indexOf('/');
  const fromId = slash >= 0 ? c.id.slice(slash + 1) : '';
  return isEndpoint(fromId) ? fromId : c.endpoint;
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
  /** the detail the groups' failures share, or the one group's cause */
  cause: string;
  /** the clause-level groups of this cause, in the order given */
  groups: FailureGroup[];
}

/** Shorter details are too generic to join groups by ("got 404"). */
const MIN_DETAIL = 16;
/** Where checks join findings (" | ", "; ", an opening bracket) and where a rule left a value out (…). */
const SEPARATORS = / \| |; | \(|…/;
/** What is trimmed off a part's ends: punctuation, and the brackets a split leaves ("mailbox(es)" is no split). */
const EDGE = ' ,.:;-()';

function trimEdges(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && EDGE.includes(s[a]!)) a++;
  while (b > a && EDGE.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

/**
 * The details a text names: its parts (split where checks join findings and where a rule left a
 * value out) and the tail of each part after every ": " (the context a check puts before a finding).
 */
export function partsOf(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(SEPARATORS)) {
    let tail = trimEdges(part);
    for (;;) {
      if (tail.length >= MIN_DETAIL) out.push(tail);
      const at = tail.indexOf(': ');
      if (at < 0) break;
      tail = tail.slice(at + 2);
    }
  }
  return out;
}

type Fields = TypedFailure['fields'];
const list = (v: Fields[string] | undefined): string[] => (Array.isArray(v) ? [...v] : []);

/** Per kind, the details its fields name: what a failure of another kind and clauses may share. */
const DETAILS: Record<TypedFailure['kind'], (f: Fields) => string[]> = {
  status: (f) => [`${f.during ? `${f.during}: ` : ''}expected HTTP ${f.expected}, got ${f.got}`],
  envelope: (f) => list(f.problems),
  'error-code': (f) => [`expected error code ${f.expected}, got ${f.got}`],
  schema: (f) => list(f.issues),
  value: (f) => partsOf(String(f.rule)),
  transport: (f) => [`the request got no answer: ${f.failure}`],
  control: (f) => [`the control API answered ${f.status}${f.call ? ` to ${f.call}` : ''}`],
  kit: (f) => partsOf(`${f.name}: ${f.message}`),
};

/** The details a failure names: its kind's, and those it carries (TypedFailure.details); a text without a kind, its parts. */
export function detailsOf(c: CheckResult): Set<string> {
  const f = c.failure;
  return new Set(f ? [...DETAILS[f.kind](f.fields), ...(f.details ?? [])] : partsOf(ownText(c.message ?? '')));
}

/** A group's cause as one line: the rule it broke, else its first detail, else its text. */
function causeText(c: CheckResult): string {
  const f = c.failure;
  if (f?.kind === 'value') return String(f.fields.rule);
  return (f && DETAILS[f.kind](f.fields)[0]) || ownText(c.message ?? '');
}

/**
 * The groups joined by root cause: again and again the detail shared by the most groups left (the
 * longest of those), while it is shared by two or more; every other group is a root cause alone.
 * Root causes come in the order of their first group.
 */
export function rootCauses(groups: readonly FailureGroup[]): RootCause[] {
  const details = groups.map((g) => detailsOf(g.checks[0]!));
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
  for (const i of left) joined.set(i, { cause: causeText(groups[i]!.checks[0]!), groups: [groups[i]!] });
  return [...joined.entries()].sort(([a], [b]) => a - b).map(([, r]) => r);
}
