// results.json: the one aggregated view every other writer (and the CLI) reads.
//
// Decisions (documented here and in harness/report/README.md):
// - `summary` counts CHECKS by verdict (every check that exists, a check not run at this depth
//   is a skip) plus `notCovered` = the number of catalog clauses no check names.
//   `clauseSummary` counts CLAUSES by verdict (including not-covered).
// - A clause's verdict is the worst of its checks: error > fail > pass > skip; none: not-covered.
// - A failed or errored check of level SHOULD is a warning: its verdict stays fail/error, with
//   `blocking: false`. `mustFailures()` counts blocking ones (MUST or PROFILE) for the exit code.
// - A check that started but never ended (the run was interrupted) is an error.
// - Coverage: a clause is covered when a check ran on it and passed or failed (a known failure
//   included); skipped, errored and not-covered clauses are not. `clauseSummary.covered`.
// - Two verdicts side by side (`summary.core`, `summary.extended`), over MUST clauses only:
//   a check is `extended` when it needs the control API (feature 'control' or 'control:<ext>'),
//   `core` otherwise. Each MUST clause sits in one tier: Core when a core check can prove it (or
//   when no check proves it yet: a gap of the kit keeps Core INCOMPLETE), Extended when only
//   checks that need the control API can. A clause is judged by every check of the run that
//   names it, whichever tier the check is in: a clause proven is proven. A clause no request can
//   observe (UNOBSERVABLE, listed with its reason) is counted apart (`unobservable`), never as
//   skipped. Each tier: FAIL when a check of one of its clauses failed (blocking), else INCOMPLETE
//   when one of its clauses was skipped, errored or not covered, else PASS.
// - The run's verdict: 'fail' (a blocking failure or a stale baseline entry) before
//   'nothing-checked' (no MUST or PROFILE clause was checked: every chosen check skipped; exit 2,
//   never a pass) before 'error' (a blocking check errored) before 'pass'.
// - Known failures (`run --baseline`, carried by run-start): a listed check that fails keeps its
//   verdict `fail` with `known: { reason }` and `blocking: false`; a listed check that passes is a
//   stale entry and makes the run FAIL; an entry past its `expires` day hides nothing (the check
//   stays blocking, with `baselineExpired`). `results.baseline.entries[].status` says which.

import { profileGaps, type ProfileGaps } from './profile-gaps.ts';
import { machineGaps, type MachineGaps } from './machine-gaps.ts';
import { endpointNamer } from './endpoint-of.ts';
import type { MachineCause } from '../ground/machine-causes.ts';
import type { TypedFailure } from '../ground/failure.ts';
import type { BaselineEntry, CheckEndEvent, EstimateRecord, FirstLookEvent, TargetWorkStats, ExchangeEvent, Level, MutationEvent, Outcome, RunDetection, RunEndEvent, RunEvent, RunStartEvent, Verdict } from '../ground/events.ts';
import type { Clause } from '../ground/spec-model/clauses/types.ts';
import { UNOBSERVABLE } from '../ground/spec-model/clauses/unobservable.ts';

export interface CheckInfo {
  id: string;
  title: string;
  clauses: string[];
  level: Level;
  /** What the check needs (harness/ground/check.ts `features`); 'control' or 'control:<ext>' makes it Extended. */
  features?: readonly string[];
}

/** Core: checks that need no control API; extended: checks that need it. */
export type Tier = 'core' | 'extended';

export const isControlFeature = (f: string): boolean => f === 'control' || f.startsWith('control:');

/** Known-failure bookkeeping (run --baseline). */
export type BaselineStatus = 'known' | 'stale' | 'expired' | 'errored' | 'skipped';

export const STALE_ADVICE = 'remove it from the baseline';

export interface TierSummary {
  /** FAIL: a check of the tier failed; INCOMPLETE: a clause was skipped, errored or not covered; PASS otherwise. */
  verdict: 'pass' | 'fail' | 'incomplete';
  /** MUST clauses in the tier. */
  clauses: number;
  /** Clauses a check of the tier ran on and passed or failed (known failures included). */
  covered: number;
  pass: number;
  fail: number;
  /** Clauses whose only failures are known (baseline). */
  known: number;
  error: number;
  skip: number;
  notCovered: number;
  /** MUST clauses no request can observe (Core only): counted apart, never skipped nor failed. */
  unobservable: number;
}

export interface MutationInput {
  score: number;
  mutants: { id: string; clauses: string[]; killed: boolean; killedBy: string[] }[];
}

/** A clause's plausible violations (the kit's catalog) that no check of the run claiming it kills: its known gaps. */
export interface OpenViolations {
  /** Violations the catalog lists for the clause. */
  listed: number;
  /** Those open in this run: each one's `what`, and `gap` where the catalog names why no mutant or check makes it. */
  open: { what: string; gap?: string }[];
}

export interface ReportInput {
  /** As read from events.ndjson (run-start first, run-end last; exchanges and checks between). */
  events: RunEvent[];
  /** The whole clause catalog (a clause no check covers is 'not-covered'). */
  clauses: Clause[];
  /** Every check that exists, including ones not run (no check-end: skip "not run at this depth"). */
  checks: CheckInfo[];
  /** The mutation run; when absent, a `mutation` event in the stream is used if there is one. */
  mutation?: MutationInput;
  /** Per clause, its open violations over the checks that ran (absent: none known). */
  violations?: Readonly<Record<string, OpenViolations>>;
}

export const NOT_RUN_MESSAGE = 'not run at this depth';
export const INTERRUPTED_MESSAGE = 'started but never finished (the run was interrupted)';
export const NO_RESULT_MESSAGE = 'started but reported no result (harness error)';

export interface CheckResult {
  id: string;
  title: string;
  level: Level;
  clauses: string[];
  /** The check's area: its id up to the first "-" or "/" (AUTH, IDEM, ...). */
  area: string;
  verdict: Verdict;
  /** false for pass/skip and for a SHOULD-level fail/error (a warning). */
  blocking: boolean;
  /** false when no check-end was recorded (not run at this depth, or interrupted). */
  ran: boolean;
  message?: string;
  /** A skip this machine caused (no IMAP server, sinks the target did not reach), not the target or its profile. */
  machineCause?: MachineCause;
  /** What kind of rule broke and how, as data (harness/ground/failure.ts), where the check's assertion had a shape. */
  failure?: TypedFailure;
  /** Exchange ids given as evidence by the check. */
  evidence: string[];
  /** The endpoint its first evidence went to ("GET /v1/campaigns/{id}", "POST <apikeys.create>"; failed and errored checks only). */
  endpoint?: string;
  /** curl lines reproducing the evidence (failed and errored checks only). */
  repro?: string[];
  durationMs: number;
  /** Of durationMs, what it waited on the kit itself (room in a rate window, a workspace to lease); absent: none. */
  waitedMs?: number;
  /** Requests the check sent to the target. */
  requests: number;
  /** Calls it made to the control API (absent: none). */
  controlRequests?: number;
  /** 'extended' when it needs the control API. */
  tier: Tier;
  /** A failure the baseline lists: it does not block the run. */
  known?: { reason: string; expires?: string };
  /** The baseline listed this failure but the entry has expired: the failure counts again. */
  baselineExpired?: { reason: string; expires: string };
}

export interface ClauseResult {
  id: string;
  section: string;
  level: Level;
  text: string;
  verdict: Outcome;
  /** true when a blocking check (MUST/PROFILE level) failed or errored. */
  blocking: boolean;
  checks: { id: string; verdict: Verdict; blocking: boolean; message?: string; known?: true }[];
  /** Why no check can observe it from outside (only for clauses of that kind). */
  unobservable?: string;
  /** The verdicts it counts in (MUST clauses only; none for a clause no check can observe). */
  tiers: Tier[];
  /** true when it failed and every failure of it is a known one (baseline). */
  known?: true;
  /** Its known gaps: plausible violations no check of this run that claims it kills (only where some are open). */
  openViolations?: OpenViolations;
}

export interface VerdictCounts {
  pass: number;
  fail: number;
  skip: number;
  error: number;
}

export interface Results {
  schemaVersion: 1;
  runId: string;
  /**
   * 'fail': a MUST/PROFILE check failed or a baseline entry is stale; 'nothing-checked': no MUST or
   * PROFILE clause was checked (exit 2); 'error': one errored (and none failed); 'pass' otherwise.
   */
  verdict: RunVerdict;
  /** false when the stream has no run-end (the run was interrupted). */
  complete: boolean;
  kit: { name: string; version: string };
  spec: RunStartEvent['spec'];
  target: { baseUrl: string; name?: string; embedded: boolean };
  depth: string;
  profile: unknown;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Checks by verdict; notCovered = clauses no check names. */
  summary: VerdictCounts & {
    notCovered: number;
    total: number;
    /** SHOULD-level checks that failed or errored (non-blocking). */
    warnings: number;
    /** MUST/PROFILE checks that failed or errored: what decides the exit code. */
    mustFailures: number;
    notRun: number;
    /** Failed checks the baseline lists (non-blocking). */
    known: number;
    /** Baseline entries whose check passes now: each fails the run. */
    stale: number;
    /** Baseline entries past their day whose check failed: those failures count. */
    expired: number;
    /** MUST clauses provable without the control API. */
    core: TierSummary;
    /** MUST clauses only the control API lets the kit prove. */
    extended: TierSummary;
  };
  /**
   * Clauses by verdict; covered = pass + fail (a check ran on it and passed or failed); notCovered:
   * observable clauses no check names (a gap of the kit); unobservable: those no request can
   * observe. covered + skip + error + notCovered + unobservable = total.
   */
  clauseSummary: VerdictCounts & { notCovered: number; unobservable: number; total: number; covered: number; blockingCovered: number };
  /** The known failures given with --baseline and what became of each. */
  baseline?: { file: string; entries: (BaselineEntry & { status: BaselineStatus })[] };
  clauses: ClauseResult[];
  checks: CheckResult[];
  stats: {
    /** Requests sent to the target. */
    requests: number;
    /** Calls made to the control API (absent when the run did not say). */
    controlRequests?: number;
    /** Target requests the planner announced before the run. */
    plannedRequests?: number;
    /** The request budget that chose the checks (depth or --time-budget), if one did. */
    requestBudget?: number;
    /** Chosen checks not started because the run would have passed its request budget. */
    notStartedForBudget?: number;
    unplanned429: number;
    plannedMs?: number;
    actualMs: number;
    /** The first estimate, what it rested on, its final error, and the progress line's at half the checks. */
    estimate?: EstimateRecord;
    /** The target's background work the checks saw (harness/ground/events.ts TargetWorkEvent): count and median by kind. */
    targetWork?: TargetWorkStats;
    /** A first look at the target before its checks (harness/ground/events.ts FirstLookEvent), where the run took one. */
    firstLook?: Omit<FirstLookEvent, 'type'>;
    exchanges: number;
    transportErrors: number;
  };
  mutation?: MutationInput & { killed: number; total: number; survivors: string[] };
  /**
   * Measured: the reference mutants the checks that ran to a verdict in this run kill, read from
   * the kill matrix of this kit version (skips and errors kill nothing), with the cheapest killers
   * of those missed.
   */
  detection?: RunDetection;
  /** The plan's prediction before the run, from the same matrix over the chosen checks (a prediction, not a result). */
  predictedDetection?: RunDetection;
  /** Clauses skipped because the profile does not declare a field (an operation, a name, a shape, a feature), per field. */
  profileGaps: ProfileGaps;
  /** Clauses skipped because of the machine the run ran on (no IMAP server, sinks the target did not reach), per cause, with what to install. */
  machineGaps: MachineGaps;
  /** Inconsistencies in the inputs (a check naming an unknown clause, a duplicate result...). */
  warnings: string[];
}

export type RunVerdict = 'pass' | 'fail' | 'error' | 'nothing-checked';

const RANK: Record<Outcome, number> = { error: 4, fail: 3, pass: 2, skip: 1, 'not-covered': 0 };

/** error > fail > pass > skip > not-covered */
export function worst(verdicts: Iterable<Outcome>): Outcome {
  let w: Outcome = 'not-covered';
  for (const v of verdicts) if (RANK[v] > RANK[w]) w = v;
  return w;
}

export function checkArea(id: string): string {
  const m = /^[^-/]+/.exec(id);
  return m ? m[0] : id;
}

/** Orders "1" < "2" < "2.2" < "2.10" < "4.1" < "9"; non-numeric sections last. */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map((x) => (/^\d+$/.test(x) ? Number(x) : NaN));
  const pb = b.split('.').map((x) => (/^\d+$/.test(x) ? Number(x) : NaN));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (Number.isNaN(x) && Number.isNaN(y)) return a.localeCompare(b);
      return Number.isNaN(x) ? 1 : -1;
    }
    if (x !== y) return x - y;
  }
  return 0;
}

const isBlocking = (level: Level, verdict: Verdict): boolean =>
  (verdict === 'fail' || verdict === 'error') && level !== 'SHOULD';

export function exchangesById(events: RunEvent[]): Map<string, ExchangeEvent> {
  const m = new Map<string, ExchangeEvent>();
  for (const e of events) if (e.type === 'exchange') m.set(e.id, e);
  return m;
}

/** The exchanges that prove a check's result: its evidence, else its last exchange (failures only). */
export function evidenceFor(
  check: Pick<CheckResult, 'id' | 'evidence' | 'verdict'>,
  byId: Map<string, ExchangeEvent>,
  byCheck: Map<string, ExchangeEvent[]>,
): { exchanges: ExchangeEvent[]; fallback: boolean } {
  const ex = check.evidence.map((id) => byId.get(id)).filter((e): e is ExchangeEvent => e !== undefined);
  if (ex.length > 0 || (check.verdict !== 'fail' && check.verdict !== 'error')) return { exchanges: ex, fallback: false };
  const own = byCheck.get(check.id);
  const last = own?.[own.length - 1];
  return last ? { exchanges: [last], fallback: true } : { exchanges: [], fallback: false };
}

export function exchangesByCheck(events: RunEvent[]): Map<string, ExchangeEvent[]> {
  const m = new Map<string, ExchangeEvent[]>();
  for (const e of events) {
    if (e.type !== 'exchange' || !e.checkId) continue;
    let list = m.get(e.checkId);
    if (!list) m.set(e.checkId, (list = []));
    list.push(e);
  }
  return m;
}

export function mutationOf(input: ReportInput): MutationInput | undefined {
  if (input.mutation) return input.mutation;
  let last: MutationEvent | undefined;
  for (const e of input.events) if (e.type === 'mutation') last = e;
  return last ? { score: last.score, mutants: last.mutants } : undefined;
}

/**
 * results.json from the stream, in the order the steps depend on each other: the stream read
 * once, the checks judged, the baseline applied to them, then the clauses judged by those checks,
 * and the counts last. Key order is the JSON's order: keep it when adding a field.
 */
export function buildResults(input: ReportInput): Results {
  const warnings: string[] = [];
  const scan = scanEvents(input.events, warnings);
  const { start, end } = scan;
  const checks = checkResults(input.events, checkList(input.checks, scan.ends, warnings), scan, warnings);
  // Before the clauses: a known failure stops blocking, and a clause is judged by what blocks.
  const baseline = start?.baseline ? { ...applyBaseline(checks, start.baseline.entries, start.startedAt), file: start.baseline.file } : undefined;
  const clauses = clauseResults(input.clauses, checks, warnings, input.violations ?? {});
  const times = runTimes(scan);
  const results: Results = {
    schemaVersion: 1,
    runId: start?.runId ?? 'unknown',
    verdict: runVerdict(checks, clauses, baseline),
    complete: !!end,
    kit: start?.kit ?? { name: 'outreach-conformance', version: 'unknown' },
    spec: start?.spec ?? { version: 'unknown', sha256: 'unknown' },
    target: start?.target ?? { baseUrl: 'unknown', embedded: false },
    depth: start?.depth ?? 'unknown',
    profile: start?.profile ?? null,
    ...times,
    summary: checkSummary(checks, clauses, baseline),
    clauseSummary: clauseSummary(clauses),
    ...(baseline ? { baseline } : {}),
    profileGaps: profileGaps(clauses, checks),
    machineGaps: machineGaps(clauses, checks),
    clauses,
    checks,
    stats: runStats(scan, times.durationMs),
    warnings: [...new Set(warnings)],
  };
  if (end?.detection) results.detection = end.detection;
  if (start?.detection) results.predictedDetection = start.detection;
  const mutation = mutationOf(input);
  if (mutation) results.mutation = mutationSummary(mutation);
  return results;
}

/** What one pass over the event stream gathers for the steps after it. */
interface StreamScan {
  start?: RunStartEvent;
  end?: RunEndEvent;
  /** The last check-end of each check. */
  ends: Map<string, CheckEndEvent>;
  /** Checks with a check-start: one without a check-end was cut off. */
  started: Set<string>;
  exchanges: number;
  transportErrors: number;
  /** The first exchange and the last check-start or exchange: the run's times when it has no run-start or run-end. */
  firstAt?: string;
  lastAt?: string;
}

/** Reads the stream once; a repeated or missing run-start, run-end or check-end is a warning. */
function scanEvents(events: RunEvent[], warnings: string[]): StreamScan {
  const scan: StreamScan = { ends: new Map(), started: new Set(), exchanges: 0, transportErrors: 0 };
  for (const e of events) {
    switch (e.type) {
      case 'run-start':
        if (scan.start) warnings.push('more than one run-start event; the first is used');
        else scan.start = e;
        break;
      case 'run-end':
        scan.end = e;
        break;
      case 'check-start':
        scan.started.add(e.checkId);
        scan.lastAt = e.at;
        break;
      case 'check-end':
        if (scan.ends.has(e.checkId)) warnings.push(`check ${e.checkId} has more than one result; the last is used`);
        scan.ends.set(e.checkId, e);
        break;
      case 'exchange':
        scan.exchanges++;
        if (!e.response) scan.transportErrors++;
        scan.firstAt ??= e.startedAt;
        scan.lastAt = e.startedAt;
        break;
    }
  }
  if (!scan.start) warnings.push('no run-start event: kit, spec and target are unknown');
  if (!scan.end) warnings.push('no run-end event: the run was interrupted; unfinished checks are errors');
  return scan;
}

/** Every known check, then any check that reported without being in the list (so no result is lost). */
function checkList(listed: CheckInfo[], ends: Map<string, CheckEndEvent>, warnings: string[]): Map<string, CheckInfo> {
  const infos = new Map<string, CheckInfo>();
  for (const c of listed) {
    if (infos.has(c.id)) warnings.push(`check ${c.id} is listed twice`);
    infos.set(c.id, c);
  }
  for (const [id, e] of ends) {
    if (!infos.has(id)) {
      warnings.push(`check ${id} reported a result but is not in the check list`);
      infos.set(id, { id, title: e.title, clauses: e.clauses, level: e.level });
    }
  }
  return infos;
}

/** One result per check, reported or not; a failed or errored one carries the curl lines of its evidence. */
function checkResults(events: RunEvent[], infos: Map<string, CheckInfo>, scan: StreamScan, warnings: string[]): CheckResult[] {
  const byId = exchangesById(events);
  const byCheck = exchangesByCheck(events);
  const start = events.find((e): e is RunStartEvent => e.type === 'run-start');
  const endpointOf = endpointNamer(start?.profile);
  return [...infos.values()].map((info) => {
    const e = scan.ends.get(info.id);
    const r = e ? reportedCheck(info, e, byId, warnings) : unreportedCheck(info, scan, byCheck);
    if (r.verdict === 'fail' || r.verdict === 'error') {
      const { exchanges } = evidenceFor(r, byId, byCheck);
      const ev = exchanges.map((x) => x.curl).filter((c) => !!c);
      if (ev.length) r.repro = ev;
      // What its evidence asked first: the endpoint its group names (the message's ids and wording aside).
      const endpoint = exchanges[0] && endpointOf(exchanges[0].request.method, exchanges[0].request.url);
      if (endpoint) r.endpoint = endpoint;
    }
    return r;
  });
}

/** A check with a check-end: what it reported wins over the list (the list may be older than the stream). */
function reportedCheck(info: CheckInfo, e: CheckEndEvent, byId: Map<string, ExchangeEvent>, warnings: string[]): CheckResult {
  const r: CheckResult = {
    id: info.id,
    title: e.title || info.title,
    level: e.level ?? info.level,
    clauses: e.clauses?.length ? e.clauses : info.clauses,
    area: checkArea(info.id),
    verdict: e.verdict,
    blocking: isBlocking(e.level ?? info.level, e.verdict),
    ran: true,
    evidence: e.evidence ?? [],
    durationMs: e.durationMs ?? 0,
    requests: e.requests ?? 0,
    tier: tierOf(info),
  };
  if (e.controlRequests !== undefined) r.controlRequests = e.controlRequests;
  if (e.waitedMs !== undefined) r.waitedMs = e.waitedMs;
  if (e.message !== undefined) r.message = e.message;
  if (e.machineCause !== undefined) r.machineCause = e.machineCause;
  if (e.failure !== undefined) r.failure = e.failure;
  for (const x of r.evidence) if (!byId.has(x)) warnings.push(`check ${info.id} names evidence ${x}, which is not in the stream`);
  return r;
}

/** A check with no check-end: a skip when it never started, an error when it was cut off. */
function unreportedCheck(info: CheckInfo, scan: StreamScan, byCheck: Map<string, ExchangeEvent[]>): CheckResult {
  const interrupted = scan.started.has(info.id);
  const verdict: Verdict = interrupted ? 'error' : 'skip';
  return {
    id: info.id,
    title: info.title,
    level: info.level,
    clauses: info.clauses,
    area: checkArea(info.id),
    verdict,
    blocking: isBlocking(info.level, verdict),
    ran: false,
    message: interrupted ? (scan.end ? NO_RESULT_MESSAGE : INTERRUPTED_MESSAGE) : NOT_RUN_MESSAGE,
    evidence: [],
    durationMs: 0,
    // Its exchanges still count: a check cut off mid-way did send them.
    requests: byCheck.get(info.id)?.length ?? 0,
    tier: tierOf(info),
  };
}

/** The catalog in section order (catalog order within a section), each clause judged by the checks that name it. */
function clauseResults(catalogClauses: Clause[], checks: CheckResult[], warnings: string[], violations: Readonly<Record<string, OpenViolations>>): ClauseResult[] {
  const catalog = new Map<string, Clause>();
  for (const c of catalogClauses) {
    if (catalog.has(c.id)) warnings.push(`clause ${c.id} appears twice in the catalog`);
    catalog.set(c.id, c);
  }
  const checksOfClause = checksByClause(checks, catalog, warnings);
  return [...catalog.values()]
    .map((c, i) => ({ c, i }))
    .sort((a, b) => compareSections(a.c.section, b.c.section) || a.i - b.i)
    .map(({ c }) => clauseResult(c, checksOfClause.get(c.id) ?? [], violations[c.id]));
}

/** The checks naming each catalogued clause; a clause outside the catalog is a warning, not a new clause. */
function checksByClause(checks: CheckResult[], catalog: Map<string, Clause>, warnings: string[]): Map<string, CheckResult[]> {
  const m = new Map<string, CheckResult[]>();
  for (const r of checks) {
    for (const cid of r.clauses) {
      if (!catalog.has(cid)) {
        warnings.push(`check ${r.id} names clause ${cid}, which is not in the catalog`);
        continue;
      }
      let list = m.get(cid);
      if (!list) m.set(cid, (list = []));
      list.push(r);
    }
  }
  return m;
}

function clauseResult(c: Clause, cs: CheckResult[], open: OpenViolations | undefined): ClauseResult {
  return {
    id: c.id,
    section: c.section,
    level: c.level,
    text: c.text,
    verdict: worst(cs.map((r) => r.verdict)),
    blocking: cs.some((r) => r.blocking),
    checks: cs.map((r) => {
      const x: ClauseResult['checks'][number] = { id: r.id, verdict: r.verdict, blocking: r.blocking };
      // A pass needs no explanation; a skip, fail or error is read by its message.
      if (r.message !== undefined && r.verdict !== 'pass') x.message = r.message;
      if (r.known) x.known = true;
      return x;
    }),
    ...(UNOBSERVABLE[c.id] ? { unobservable: UNOBSERVABLE[c.id] } : {}),
    tiers: tiersOf(c, cs),
    ...(knownOnly(cs) ? { known: true as const } : {}),
    ...(open?.open.length && cs.length ? { openViolations: { listed: open.listed, open: open.open.map((o) => ({ ...o })) } } : {}),
  };
}

type AppliedBaseline = Results['baseline'];

const entriesWith = (baseline: AppliedBaseline, status: BaselineStatus): number => baseline?.entries.filter((x) => x.status === status).length ?? 0;

const countVerdict = <T extends { verdict: Outcome }>(xs: T[], v: Outcome) => xs.filter((x) => x.verdict === v).length;

/**
 * 'fail' beats the rest: a blocking failure or a stale baseline entry is a finding about the
 * target. Then a run that checked no MUST or PROFILE clause is no verdict at all, whatever errored.
 */
function runVerdict(checks: CheckResult[], clauses: ClauseResult[], baseline: AppliedBaseline): RunVerdict {
  const anyBlockingFail = checks.some((r) => r.blocking && r.verdict === 'fail');
  if (anyBlockingFail || entriesWith(baseline, 'stale') > 0) return 'fail';
  if (blockingCovered(clauses) === 0) return 'nothing-checked';
  return checks.some((r) => r.blocking) ? 'error' : 'pass';
}

/** MUST and PROFILE clauses a check ran on and passed or failed: what a verdict can speak for. */
function blockingCovered(clauses: ClauseResult[]): number {
  return clauses.filter((c) => c.level !== 'SHOULD' && (c.verdict === 'pass' || c.verdict === 'fail')).length;
}

const isUnobservable = (c: ClauseResult): boolean => c.verdict === 'not-covered' && !!c.unobservable;

/** Start, end and duration: from run-start and run-end, else guessed from the first and last event. */
function runTimes(scan: StreamScan): Pick<Results, 'startedAt' | 'finishedAt' | 'durationMs'> {
  const startedAt = scan.start?.startedAt ?? scan.firstAt ?? '';
  const finishedAt = scan.end?.finishedAt ?? scan.lastAt ?? startedAt;
  const durationMs =
    scan.end?.stats.actualMs ?? (startedAt && finishedAt ? Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)) || 0 : 0);
  return { startedAt, finishedAt, durationMs };
}

/** `summary`: checks by verdict, what blocks and what only warns, the baseline's effect, and the two tiers. */
function checkSummary(checks: CheckResult[], clauses: ClauseResult[], baseline: AppliedBaseline): Results['summary'] {
  return {
    pass: countVerdict(checks, 'pass'),
    fail: countVerdict(checks, 'fail'),
    skip: countVerdict(checks, 'skip'),
    error: countVerdict(checks, 'error'),
    notCovered: countVerdict(clauses, 'not-covered') - clauses.filter(isUnobservable).length,
    total: checks.length,
    warnings: checks.filter((r) => r.level === 'SHOULD' && !r.known && (r.verdict === 'fail' || r.verdict === 'error')).length,
    mustFailures: checks.filter((r) => r.blocking).length,
    notRun: checks.filter((r) => !r.ran && r.verdict === 'skip').length,
    known: checks.filter((r) => r.known).length,
    stale: entriesWith(baseline, 'stale'),
    expired: entriesWith(baseline, 'expired'),
    core: tierSummary('core', clauses, checks),
    extended: tierSummary('extended', clauses, checks),
  };
}

/** `clauseSummary`: clauses by verdict; covered = a check ran on it and passed or failed. */
function clauseSummary(clauses: ClauseResult[]): Results['clauseSummary'] {
  return {
    pass: countVerdict(clauses, 'pass'),
    fail: countVerdict(clauses, 'fail'),
    skip: countVerdict(clauses, 'skip'),
    error: countVerdict(clauses, 'error'),
    notCovered: countVerdict(clauses, 'not-covered') - clauses.filter(isUnobservable).length,
    unobservable: clauses.filter(isUnobservable).length,
    total: clauses.length,
    covered: countVerdict(clauses, 'pass') + countVerdict(clauses, 'fail'),
    blockingCovered: blockingCovered(clauses),
  };
}

/** `stats`: the run-end's numbers when there is one, else what the stream itself shows. */
function runStats(scan: StreamScan, durationMs: number): Results['stats'] {
  const s = scan.end?.stats;
  return {
    requests: s?.requests ?? scan.exchanges,
    unplanned429: s?.unplanned429 ?? 0,
    actualMs: s?.actualMs ?? durationMs,
    exchanges: scan.exchanges,
    transportErrors: scan.transportErrors,
    ...(s?.plannedMs !== undefined ? { plannedMs: s.plannedMs } : {}),
    ...(s?.plannedRequests !== undefined ? { plannedRequests: s.plannedRequests } : {}),
    ...(s?.requestBudget !== undefined ? { requestBudget: s.requestBudget } : {}),
    ...(s?.notStartedForBudget ? { notStartedForBudget: s.notStartedForBudget } : {}),
    ...(s?.controlRequests !== undefined ? { controlRequests: s.controlRequests } : {}),
    ...(s?.estimate ? { estimate: s.estimate } : {}),
    ...(s?.targetWork ? { targetWork: s.targetWork } : {}),
    ...(s?.firstLook ? { firstLook: s.firstLook } : {}),
  };
}

/** The mutation run with its counts and survivors spelled out, for the report's readers. */
function mutationSummary(mutation: MutationInput): NonNullable<Results['mutation']> {
  return {
    ...mutation,
    killed: mutation.mutants.filter((m) => m.killed).length,
    total: mutation.mutants.length,
    survivors: mutation.mutants.filter((m) => !m.killed).map((m) => m.id),
  };
}

/** Failed or errored checks of level MUST or PROFILE, known failures aside (exit code 1 when > 0). */
export function mustFailures(results: Pick<Results, 'checks'>): number {
  return results.checks.filter((c) => (c.verdict === 'fail' || c.verdict === 'error') && c.level !== 'SHOULD' && !c.known).length;
}

/**
 * The run's exit code from its results: 1 a blocking failure or error, or a stale baseline entry;
 * 2 nothing checked (no MUST or PROFILE clause: a run that checked nothing is never a pass); 0 pass.
 */
export function exitCodeOf(results: Pick<Results, 'checks' | 'summary' | 'verdict'>): 0 | 1 | 2 {
  if (results.verdict === 'fail') return 1;
  if (results.verdict === 'nothing-checked') return 2;
  return mustFailures(results) > 0 || (results.summary.stale ?? 0) > 0 ? 1 : 0;
}

/** An entry holds through its `expires` day (UTC); a run starting after that day sees it expired. */
export function isExpired(entry: Pick<BaselineEntry, 'expires'>, runStartedAt: string): boolean {
  if (!entry.expires) return false;
  const at = new Date(runStartedAt);
  if (Number.isNaN(at.getTime())) return false;
  return at.toISOString().slice(0, 10) > entry.expires;
}

function tierOf(info: Pick<CheckInfo, 'features'>): Tier {
  return info.features?.some(isControlFeature) ? 'extended' : 'core';
}

/**
 * The verdict a clause counts in (MUST clauses only): Core when a check without the control API
 * can prove it, Extended when only checks that need it can. One tier each: a clause proven twice
 * is not counted twice, nor held INCOMPLETE in one tier because the run proved it by the other's check.
 */
function tiersOf(c: Clause, cs: CheckResult[]): Tier[] {
  if (c.level !== 'MUST') return [];
  if (cs.length === 0) return UNOBSERVABLE[c.id] ? [] : ['core']; // a gap of the kit keeps Core incomplete
  return cs.some((r) => r.tier === 'core') ? ['core'] : ['extended'];
}

/** Failed, and each failing check is a known one. */
function knownOnly(cs: CheckResult[]): boolean {
  const failing = cs.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
  return failing.length > 0 && failing.every((r) => r.known);
}

/** A clause as its tier counts it, from every check of the run that names it. */
function tierOutcome(cs: CheckResult[]): 'pass' | 'fail' | 'known' | 'error' | 'skip' | 'not-covered' {
  if (cs.length === 0) return 'not-covered';
  if (cs.some((r) => r.blocking && r.verdict === 'fail')) return 'fail';
  if (cs.some((r) => r.blocking && r.verdict === 'error')) return 'error';
  if (cs.some((r) => r.known)) return 'known';
  if (cs.some((r) => r.verdict === 'pass' || r.verdict === 'fail')) return 'pass';
  if (cs.some((r) => r.verdict === 'error')) return 'error';
  return 'skip';
}

function tierSummary(tier: Tier, clauses: ClauseResult[], checks: CheckResult[]): TierSummary {
  const byId = new Map(checks.map((c) => [c.id, c]));
  const t: TierSummary = { verdict: 'pass', clauses: 0, covered: 0, pass: 0, fail: 0, known: 0, error: 0, skip: 0, notCovered: 0, unobservable: 0 };
  for (const cl of clauses) {
    if (tier === 'core' && cl.level === 'MUST' && isUnobservable(cl)) t.unobservable++;
    if (!cl.tiers.includes(tier)) continue;
    t.clauses++;
    const o = tierOutcome(cl.checks.map((x) => byId.get(x.id)).filter((r): r is CheckResult => !!r));
    if (o === 'not-covered') t.notCovered++;
    else t[o]++;
  }
  t.covered = t.pass + t.fail + t.known;
  t.verdict = t.fail > 0 ? 'fail' : t.error + t.skip + t.notCovered > 0 || t.clauses === 0 ? 'incomplete' : 'pass';
  return t;
}

/**
 * Marks the failures the baseline lists as known (unless their entry expired) and says what
 * became of each entry. Expiry is judged against the run's start, so a report rebuilt from the
 * events later says the same.
 */
export function applyBaseline(checks: CheckResult[], entries: BaselineEntry[], runStartedAt: string): NonNullable<Results['baseline']> {
  const byId = new Map(checks.map((c) => [c.id, c]));
  const out: NonNullable<Results['baseline']>['entries'] = [];
  for (const entry of entries) {
    const c = byId.get(entry.check);
    const expired = isExpired(entry, runStartedAt);
    let status: BaselineStatus;
    if (!c || c.verdict === 'skip') status = 'skipped';
    else if (c.verdict === 'pass') status = 'stale';
    else if (c.verdict === 'error') status = 'errored';
    else if (expired) {
      status = 'expired';
      c.baselineExpired = { reason: entry.reason, expires: entry.expires! };
    } else {
      status = 'known';
      c.known = entry.expires ? { reason: entry.reason, expires: entry.expires } : { reason: entry.reason };
      c.blocking = false;
    }
    out.push({ ...entry, status });
  }
  return { file: '', entries: out };
}

