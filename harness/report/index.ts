// harness/report: every report writer, from one event stream.
//
//   const events = await readEvents('reports/<run>/events.ndjson');
//   const { files } = await writeReports('reports/<run>', { events, clauses, checks, mutation });
//
// writeReports scrubs secrets from the events first (defence in depth: the client already
// redacted them; the catalog, check list and mutation block carry no secrets), then writes
// results.json, junit.xml, summary.md, report.html and traffic.har. Decisions: README.md here.
// At the end of a run, writeRunReports is the one call: the reports, the certification bundle,
// its signed attestation (with a key), and what the console says of them.

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { writeAttestation } from './attestation.ts';
import { BUNDLE_NAME, writeBundle } from './bundle.ts';
import { buildHar } from './har.ts';
import { buildHtml } from './html.ts';
import { buildJunit } from './junit.ts';
import { buildResults, exitCodeOf, type ReportInput, type Results } from './results.ts';
import { scrubEvents } from './scrub.ts';
import { buildSummaryMarkdown, formatConsoleSummary } from './summary.ts';

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

export interface RunReports {
  results: Results;
  bundle: { path: string; sha256: string };
  /** The signed in-toto attestation of the bundle, when a key was given. */
  attestation?: { path: string; keyid: string };
  /** The console's summary of the results (its first line the verdict). */
  summary: string;
  exitCode: 0 | 1 | 2;
}

/**
 * Every file a run leaves in `dir`: the reports, the certification bundle (the run's own secrets
 * erased once more by `redact`, a last guard) and, with `signWith`, the attestation signed from
 * the bundle's own results.json, so the certificate says what the bundle holds.
 */
export async function writeRunReports(dir: string, input: ReportInput, opts: { redact: (text: string) => string; signWith?: KeyObject }): Promise<RunReports> {
  const { results } = await writeReports(dir, input);
  const bundle = await writeBundle(dir, { redact: opts.redact });
  const attestation = opts.signWith ? await writeAttestation(dir, bundle.results, { name: BUNDLE_NAME, sha256: bundle.sha256 }, opts.signWith) : undefined;
  return { results, bundle: { path: bundle.path, sha256: bundle.sha256 }, ...(attestation ? { attestation } : {}), summary: formatConsoleSummary(results), exitCode: exitCodeOf(results) };
}
