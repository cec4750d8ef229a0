// junit.xml for CI: one <testsuite> per check area (the check id up to the first "-" or "/":
// AUTH, IDEM, PAGE, ...), one <testcase> per check (name = check id, classname = area).
// - fail (MUST/PROFILE)  -> <failure> with the message, clause ids and the curl line(s) of the evidence
// - fail (SHOULD)        -> a passing testcase with the warning and its details in <system-out>:
//                           the exit code does not fail on it, so neither does JUnit
// The file is valid against the Jenkins xUnit plugin's junit-10.xsd: the root <testsuites> carries
// name, tests, failures, errors and time only (the skipped count and the timestamp are on each
// <testsuite>), and a <testcase> holds no <properties>.
// - error                -> <error> (the harness broke, or the check was interrupted)
// - skip                 -> <skipped message="reason"> (including "not run at this depth")
// - known failure (run --baseline) -> <skipped message="known failure: <reason>"> with the failure's
//   details in <system-out>. Why skipped rather than a passing test with a note: CI test views
//   (GitHub and GitLab test reports, Jenkins, Azure DevOps) count and list skipped tests with their
//   message on the summary page, so a known failure stays in sight without failing the build,
//   while the <system-out> of a passing test is shown by few of them, only when one opens it, and
//   a pass would count a failing check as passing.
// - stale baseline entry   -> a failing <testcase> of its own in a "BASELINE" testsuite (name
//   "baseline: <check id>"): the run exits 1 for it, so a CI that gates on <failure> agrees.
// - expired entry          -> the check's ordinary <failure>, its message saying the entry expired.

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

/** The counts junit.xml carries for these results: the root's tests, failures and errors, and the skipped summed over its testsuites. */
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

export function buildJunit(results: Results, events: RunEvent[]): string {
  const byId = exchangesById(events);
  const byCheck = exchangesByCheck(events);
  const areas = [...groupBy(results.checks, (c) => c.area).entries()].sort(([a], [b]) => a.localeCompare(b));
  const ts = escapeXml(results.startedAt || new Date(0).toISOString());
  const count = (cs: CheckResult[], f: (c: CheckResult) => boolean) => cs.filter(f).length;
  const isFailure = (c: CheckResult) => c.verdict === 'fail' && c.level !== 'SHOULD' && !c.known;
  const isError = (c: CheckResult) => c.verdict === 'error';
  const isSkip = (c: CheckResult) => c.verdict === 'skip' || (c.verdict === 'fail' && !!c.known);
  const stale = results.baseline?.entries.filter((x) => x.status === 'stale') ?? [];

  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = junitCounts(results);
  out.push(
    `<testsuites name="${escapeXml(`${results.kit.name} ${results.kit.version}`)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" time="${secs(results.durationMs)}">`,
  );
  for (const [area, checks] of areas) {
    const time = checks.reduce((s, c) => s + c.durationMs, 0);
    out.push(
      `  <testsuite name="${escapeXml(area)}" tests="${checks.length}" failures="${count(checks, isFailure)}" errors="${count(checks, isError)}" skipped="${count(checks, isSkip)}" time="${secs(time)}" timestamp="${ts}">`,
    );
    if (area === areas[0]?.[0]) {
      out.push('    <properties>');
      const props: [string, string][] = [
        ['kit', `${results.kit.name} ${results.kit.version}`],
        ['spec.version', results.spec.version],
        ['spec.sha256', results.spec.sha256],
        ['target', results.target.baseUrl],
        ['depth', results.depth],
        ['runId', results.runId],
      ];
      for (const [k, v] of props) out.push(`      <property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`);
      out.push('    </properties>');
    }
    for (const c of checks) {
      const head = `    <testcase name="${escapeXml(c.id)}" classname="${escapeXml(area)}" time="${secs(c.durationMs)}"`;
      const ev = c.verdict === 'fail' || c.verdict === 'error' ? evidenceFor(c, byId, byCheck) : { exchanges: [], fallback: false };
      const msg = escapeXml(firstLine(c.message ?? '', 500));
      if (c.verdict === 'pass') {
        out.push(`${head}/>`);
      } else if (c.known) {
        out.push(
          `${head}>`,
          `      <skipped message="${escapeXml(firstLine(`known failure: ${c.known.reason}${c.known.expires ? ` (until ${c.known.expires})` : ''}`, 500))}"/>`,
          `      <system-out>${escapeXml(`KNOWN FAILURE (baseline ${results.baseline?.file ?? ''}, non-blocking)\nknown because: ${c.known.reason}${c.known.expires ? `\nuntil: ${c.known.expires}` : ''}\n\n${detail(c, ev)}`)}</system-out>`,
          '    </testcase>',
        );
      } else if (c.verdict === 'skip') {
        out.push(`${head}>`, `      <skipped message="${msg}"/>`, '    </testcase>');
      } else if (c.verdict === 'error') {
        out.push(`${head}>`, `      <error message="${msg}" type="${escapeXml(c.ran ? 'harness-error' : 'interrupted')}">${escapeXml(detail(c, ev))}</error>`, '    </testcase>');
      } else if (c.level === 'SHOULD') {
        out.push(
          `${head}>`,
          `      <system-out>${escapeXml(`WARNING (SHOULD-level, non-blocking)\n${detail(c, ev)}`)}</system-out>`,
          '    </testcase>',
        );
      } else {
        out.push(`${head}>`, `      <failure message="${msg}" type="${escapeXml(c.level)}">${escapeXml(detail(c, ev))}</failure>`, '    </testcase>');
      }
    }
    out.push('  </testsuite>');
  }
  if (stale.length) {
    out.push(`  <testsuite name="${BASELINE_SUITE}" tests="${stale.length}" failures="${stale.length}" errors="0" skipped="0" time="0.000" timestamp="${ts}">`);
    for (const x of stale) {
      const msg = `${x.check} passes now: remove it from the baseline ${results.baseline!.file}`;
      out.push(
        `    <testcase name="${escapeXml(`baseline: ${x.check}`)}" classname="${BASELINE_SUITE}" time="0.000">`,
        `      <failure message="${escapeXml(firstLine(msg, 500))}" type="stale-baseline">${escapeXml(`${msg}\nit was listed because: ${x.reason}`)}</failure>`,
        '    </testcase>',
      );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
