// junit.xml for CI: one <testsuite> per check area (the check id up to the first "-" or "/":
// AUTH, IDEM, PAGE, ...), one <testcase> per check (name = check id, classname = area).
// - fail (MUST/PROFILE)  -> <failure> with the message, clause ids and the curl line(s) of the evidence
// - fail (SHOULD)        -> a passing testcase with a "warning" property and the details in
//                           <system-out>: the exit code does not fail on it, so neither does JUnit
// - error                -> <error> (the harness broke, or the check was interrupted)
// - skip                 -> <skipped message="reason"> (including "not run at this depth")

import type { ExchangeEvent, RunEvent } from '../events/types.ts';
import { evidenceFor, exchangesByCheck, exchangesById, type CheckResult, type Results } from './results.ts';
import { escapeXml, firstLine, groupBy } from './text.ts';

const secs = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

function detail(c: CheckResult, ev: { exchanges: ExchangeEvent[]; fallback: boolean }): string {
  const lines = [c.message ?? '(no message)', '', `check: ${c.id}`, `level: ${c.level}`, `clauses: ${c.clauses.join(', ') || '(none)'}`];
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
  const isFailure = (c: CheckResult) => c.verdict === 'fail' && c.level !== 'SHOULD';
  const isError = (c: CheckResult) => c.verdict === 'error';
  const isSkip = (c: CheckResult) => c.verdict === 'skip';

  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = results.checks;
  out.push(
    `<testsuites name="${escapeXml(`${results.kit.name} ${results.kit.version}`)}" tests="${total.length}" failures="${count(total, isFailure)}" errors="${count(total, isError)}" skipped="${count(total, isSkip)}" time="${secs(results.durationMs)}" timestamp="${ts}">`,
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
      } else if (c.verdict === 'skip') {
        out.push(`${head}>`, `      <skipped message="${msg}"/>`, '    </testcase>');
      } else if (c.verdict === 'error') {
        out.push(`${head}>`, `      <error message="${msg}" type="${escapeXml(c.ran ? 'harness-error' : 'interrupted')}">${escapeXml(detail(c, ev))}</error>`, '    </testcase>');
      } else if (c.level === 'SHOULD') {
        out.push(
          `${head}>`,
          '      <properties>',
          '        <property name="verdict" value="fail"/>',
          '        <property name="blocking" value="false"/>',
          `        <property name="warning" value="${msg}"/>`,
          '      </properties>',
          `      <system-out>${escapeXml(`WARNING (SHOULD-level, non-blocking)\n${detail(c, ev)}`)}</system-out>`,
          '    </testcase>',
        );
      } else {
        out.push(`${head}>`, `      <failure message="${msg}" type="${escapeXml(c.level)}">${escapeXml(detail(c, ev))}</failure>`, '    </testcase>');
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
