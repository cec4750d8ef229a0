// junit.xml for CI: one <testsuite> per check area (the check id up to the first "-" or "/":
// AUTH, IDEM, PAGE, ...), one <testcase> per check (name = check id, classname = area).
// - fail (MUST/PROFILE)  -> <failure> with the message, clause ids and the curl line(s) of the evidence
// - fail (SHOULD)        -> a passing testcase, the warning and its details in its suite's
//                           <system-out>: the exit code does not fail on it, so neither does JUnit
// - error                -> <error> (the harness broke, or the check was interrupted)
// - skip                 -> <skipped message="reason"> (including "not run at this depth")
// - known failure (run --baseline) -> <skipped message="known failure: <reason>"> whose text is the
//   failure's details. Why skipped rather than a passing test with a note: CI test views (GitHub
//   and GitLab test reports, Jenkins, Azure DevOps) count and list skipped tests with their
//   message on the summary page, so a known failure stays in sight without failing the build,
//   and a pass would count a failing check as passing.
// - stale baseline entry   -> a failing <testcase> of its own in a "BASELINE" testsuite (name
//   "baseline: <check id>"): the run exits 1 for it, so a CI that gates on <failure> agrees.
// - expired entry          -> the check's ordinary <failure>, its message saying the entry expired.
// The file is valid against both schemas CI tools read: the Jenkins xUnit plugin's junit-10.xsd
// and Apache Ant's JUnit schema. So the root <testsuites> carries no attributes (Ant allows none;
// the counts are each <testsuite>'s), each <testsuite> has a package, an id, a hostname
// ("localhost": the machine's name is not the report's business) and a timestamp in UTC without
// a zone or fraction (Ant's pattern), holds <properties>, then its test cases, then <system-out>
// and <system-err>; a <testcase> holds at most one of <skipped>, <error> and <failure>.

import type { ExchangeEvent, RunEvent } from '../ground/events.ts';
import { evidenceFor, exchangesByCheck, exchangesById, type CheckResult, type Results } from './results.ts';
import { escapeXml, firstLine, groupBy } from './text.ts';

const secs = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

export const BASELINE_SUITE = 'BASELINE';

export interface JunitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/** The counts junit.xml carries for these results, summed over its testsuites. */
export function junitCounts(results: Pick<Results, 'checks'> & { baseline?: Results['baseline'] }): JunitCounts {
  const stale = results.baseline?.entries.filter((x) => x.status === 'stale').length ?? 0;
  const cs = results.checks;
  return {
    tests: cs.length + stale,
    failures: cs.filter((c) => c.verdict === 'fail' && c.level !== 'SHOULD' && !c.known).length + stale,
    errors: cs.filter((c) => c.verdict === 'error').length,
    skipped: cs.filter((c) => c.verdict === 'skip' || (c.verdict === 'fail' && c.known)).length,
  };
}

function detail(c: CheckResult, ev: { exchanges: ExchangeEvent[]; fallback: boolean }): string {
  const lines = [c.message ?? '(no message)', '', `check: ${c.id}`, `level: ${c.level}`, `clauses: ${c.clauses.join(', ') || '(none)'}`];
  if (c.baselineExpired) lines.push(`baseline: the entry expired on ${c.baselineExpired.expires}; it no longer hides this failure (known because: ${c.baselineExpired.reason})`);
  if (ev.exchanges.length) {
    lines.push('', ev.fallback ? 'last request of the check (no evidence named):' : 'evidence:');
    for (const x of ev.exchanges) {
      const status = x.response ? String(x.response.status) : `transport error: ${x.error ?? 'unknown'}`;
      lines.push(`  [${x.id}] ${x.request.method} ${x.request.url} -> ${status}`, `  ${x.curl}`);
    }
  }
  return lines.join('\n');
}

/** A testsuite's attributes and properties: what both schemas require (see the head of this file). */
function suiteOpen(name: string, id: number, counts: JunitCounts, time: number, timestamp: string, props: [string, string][]): string[] {
  const attrs = `name="${escapeXml(name)}" package="${escapeXml(name)}" id="${id}" hostname="localhost" timestamp="${timestamp}" tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${secs(time)}"`;
  return [`  <testsuite ${attrs}>`, ...(props.length ? ['    <properties>', ...props.map(([k, v]) => `      <property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`), '    </properties>'] : ['    <properties/>'])];
}

const suiteClose = (out: readonly string[]) => [`    <system-out>${escapeXml(out.join('\n\n'))}</system-out>`, '    <system-err></system-err>', '  </testsuite>'];

/** Ant's timestamp: UTC, to the second, no zone. */
const antTimestamp = (iso: string) => (Number.isNaN(Date.parse(iso)) ? new Date(0) : new Date(iso)).toISOString().slice(0, 19);

export function buildJunit(results: Results, events: RunEvent[]): string {
  const byId = exchangesById(events);
  const byCheck = exchangesByCheck(events);
  const areas = [...groupBy(results.checks, (c) => c.area).entries()].sort(([a], [b]) => a.localeCompare(b));
  const ts = antTimestamp(results.startedAt);
  const stale = results.baseline?.entries.filter((x) => x.status === 'stale') ?? [];
  const props: [string, string][] = [
    ['kit', `${results.kit.name} ${results.kit.version}`],
    ['spec.version', results.spec.version],
    ['spec.sha256', results.spec.sha256],
    ['target', results.target.baseUrl],
    ['depth', results.depth],
    ['runId', results.runId],
  ];
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  for (const [i, [area, checks]] of areas.entries()) {
    const time = checks.reduce((s, c) => s + c.durationMs, 0);
    out.push(...suiteOpen(area, i, junitCounts({ checks }), time, ts, i === 0 ? props : []));
    const notes: string[] = [];
    for (const c of checks) out.push(...testcase(c, area, byId, byCheck, results, notes));
    out.push(...suiteClose(notes));
  }
  if (stale.length) {
    out.push(...suiteOpen(BASELINE_SUITE, areas.length, { tests: stale.length, failures: stale.length, errors: 0, skipped: 0 }, 0, ts, []));
    for (const x of stale) {
      const msg = `${x.check} passes now: remove it from the baseline ${results.baseline!.file}`;
      out.push(
        `    <testcase name="${escapeXml(`baseline: ${x.check}`)}" classname="${BASELINE_SUITE}" time="0.000">`,
        `      <failure message="${escapeXml(firstLine(msg, 500))}" type="stale-baseline">${escapeXml(`${msg}\nit was listed because: ${x.reason}`)}</failure>`,
        '    </testcase>',
      );
    }
    out.push(...suiteClose([]));
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

/** One check's <testcase>; a SHOULD-level failure's warning goes to `notes` (its suite's <system-out>). */
function testcase(c: CheckResult, area: string, byId: ReturnType<typeof exchangesById>, byCheck: ReturnType<typeof exchangesByCheck>, results: Results, notes: string[]): string[] {
  const head = `    <testcase name="${escapeXml(c.id)}" classname="${escapeXml(area)}" time="${secs(c.durationMs)}"`;
  const ev = c.verdict === 'fail' || c.verdict === 'error' ? evidenceFor(c, byId, byCheck) : { exchanges: [], fallback: false };
  const msg = escapeXml(firstLine(c.message ?? '', 500));
  const wrap = (inner: string) => [`${head}>`, `      ${inner}`, '    </testcase>'];
  if (c.verdict === 'pass') return [`${head}/>`];
  if (c.known) {
    const reason = firstLine(`known failure: ${c.known.reason}${c.known.expires ? ` (until ${c.known.expires})` : ''}`, 500);
    const text = `KNOWN FAILURE (baseline ${results.baseline?.file ?? ''}, non-blocking)\nknown because: ${c.known.reason}${c.known.expires ? `\nuntil: ${c.known.expires}` : ''}\n\n${detail(c, ev)}`;
    return wrap(`<skipped message="${escapeXml(reason)}">${escapeXml(text)}</skipped>`);
  }
  if (c.verdict === 'skip') return wrap(`<skipped message="${msg}"/>`);
  if (c.verdict === 'error') return wrap(`<error message="${msg}" type="${escapeXml(c.ran ? 'harness-error' : 'interrupted')}">${escapeXml(detail(c, ev))}</error>`);
  if (c.level === 'SHOULD') {
    notes.push(`WARNING (SHOULD-level, non-blocking) ${c.id}\n${detail(c, ev)}`);
    return [`${head}/>`];
  }
  return wrap(`<failure message="${msg}" type="${escapeXml(c.level)}">${escapeXml(detail(c, ev))}</failure>`);
}
