// harness/report: every report writer, from one event stream.
//
//   const events = await readEvents('reports/<run>/events.ndjson');
//   const { files } = await writeReports('reports/<run>', { events, clauses, checks, mutation });
//
// writeReports scrubs secrets from the events first (defence in depth: the client already
// redacted them; the catalog, check list and mutation block carry no secrets), then writes
// results.json, junit.xml, summary.md, report.html and traffic.har. Decisions: README.md here.

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildHar } from './har.ts';
import { buildHtml } from './html.ts';
import { buildJunit } from './junit.ts';
import { buildResults, type ReportInput, type Results } from './results.ts';
import { scrubEvents } from './scrub.ts';
import { buildSummaryMarkdown } from './summary.ts';

export { createNdjsonSink, readEvents, parseEvents } from '../events/ndjson.ts';
export type { NdjsonSink } from '../events/ndjson.ts';
export { buildResults, mustFailures, exitCodeOf, applyBaseline, isExpired, STALE_ADVICE, worst, checkArea, compareSections, NOT_RUN_MESSAGE, INTERRUPTED_MESSAGE, NO_RESULT_MESSAGE } from './results.ts';
export type { ReportInput, Results, CheckResult, ClauseResult, CheckInfo, MutationInput, VerdictCounts, Tier, TierSummary, BaselineStatus } from './results.ts';
export { formatConsoleSummary, buildSummaryMarkdown, SUMMARY_MAX_BYTES, coverageText, tierText } from './summary.ts';
export { buildJunit, junitCounts } from './junit.ts';
export { buildHtml, BODY_MAX_CHARS } from './html.ts';
export { buildHar } from './har.ts';
export type { Har, HarEntry } from './har.ts';
export { scrubEvents, scrubText, REDACTED } from './scrub.ts';

export const REPORT_FILES = ['results.json', 'junit.xml', 'summary.md', 'report.html', 'traffic.har'] as const;

/** Every writer's output, in memory (scrubbed). */
export function renderReports(input: ReportInput): { results: Results; files: Record<(typeof REPORT_FILES)[number], string> } {
  const events = scrubEvents(input.events);
  const safe: ReportInput = { ...input, events };
  const results = buildResults(safe);
  const files = {
    'results.json': JSON.stringify(results, null, 2) + '\n',
    'junit.xml': buildJunit(results, events),
    'summary.md': buildSummaryMarkdown(results),
    'report.html': buildHtml(results, events),
    'traffic.har': JSON.stringify(buildHar(events, results)) + '\n', // compact: a run has thousands of exchanges
  };
  return { results, files };
}

/** Writes every report into `dir` (created if needed); returns the paths written. */
export async function writeReports(dir: string, input: ReportInput): Promise<{ files: string[]; results: Results }> {
  await mkdir(dir, { recursive: true });
  const { results, files } = renderReports(input);
  const written: string[] = [];
  for (const name of REPORT_FILES) {
    const path = join(dir, name);
    const tmp = `${path}.tmp-${process.pid}`;
    await writeFile(tmp, files[name], 'utf8');
    await rename(tmp, path); // a reader never sees half a report
    written.push(path);
  }
  return { files: written, results };
}
