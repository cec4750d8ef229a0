// summary.md for a CI job summary ($GITHUB_STEP_SUMMARY accepts 1 MiB; we stay under ~60 KB) and
// formatConsoleSummary() for the CLI.

import { sectionTitle } from './sections.ts';
import { compareSections, STALE_ADVICE, type CheckResult, type Results, type TierSummary } from './results.ts';
import { curlEnvVars, firstLine, formatMs, groupBy, percent } from './text.ts';
import { profileGapsText } from './profile-gaps.ts';
import { machineGapsShort, machineGapsText } from './machine-gaps.ts';
import { groupCountText, groupFailures, type FailureGroup } from './failure-groups.ts';

export const SUMMARY_MAX_BYTES = 60_000;
const MAX_FAILURES = 40;
const MAX_WARNINGS = 25;
const MAX_SKIP_REASONS = 30;

/** Text inside a Markdown table cell or list item: one line, pipes and markup neutralised. */
function md(s: string, max = 300): string {
  return mdEscape(firstLine(s, max));
}

function mdEscape(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))
    .replace(/([`*_[\]])/g, '\\$1');
}

/** Inline code: a backtick run longer than any in the text. */
function code(s: string): string {
  const one = firstLine(s, 300).replace(/\|/g, '\\|');
  const ticks = '`'.repeat(Math.max(1, ...[...one.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${one}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

/** The kit's own prose (the violation catalog): escaped like md(), its `backticked` parts kept as code. */
function mdWithCode(s: string, max = 600): string {
  return firstLine(s, max)
    .split(/`([^`]+)`/)
    .map((part, i) => (i % 2 ? code(part) : mdEscape(part)))
    .join('');
}

function fence(s: string): string {
  const ticks = '`'.repeat(Math.max(3, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}sh\n${s.length > 2000 ? `${s.slice(0, 2000)} …` : s}\n${ticks}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What the verdict speaks for: "646 of 663 clauses checked (97 %; 17 not observable from outside:
 * see below)". Checked = a check ran on the clause and passed or failed; the parts add up to the total.
 */
export function coverageText(r: Results, where = 'see below'): string {
  const c = r.clauseSummary;
  const covered = c.covered ?? c.pass + c.fail;
  const pct = c.total ? (100 * covered) / c.total : 0;
  const share = covered > 0 && pct < 1 ? '<1 %' : `${Math.floor(pct)} %`;
  const gaps = [
    c.notCovered ? `${c.notCovered} not covered` : '',
    c.skip ? `${c.skip} skipped` : '',
    c.error ? `${c.error} errored` : '',
    c.unobservable ? `${c.unobservable} not observable from outside` : '',
  ].filter(Boolean);
  return `${covered} of ${plural(c.total, 'clause')} checked (${share}${gaps.length ? `; ${gaps.join(', ')}${where ? `: ${where}` : ''}` : ''})`;
}

export const TIER_LABEL = {
  core: { name: 'Core', what: 'MUST clauses checked without the control API' },
  extended: { name: 'Extended', what: 'MUST clauses that need the control API' },
} as const;

/** "PASS (469 of 469 MUST clauses checked; 9 not observable, apart)", "INCOMPLETE (0 of 99 MUST clauses checked; 99 skipped)". */
export function tierText(t: TierSummary): string {
  const parts = [t.fail ? `${t.fail} failed` : '', t.known ? plural(t.known, 'known failure') : '', t.error ? `${t.error} errored` : '', t.skip ? `${t.skip} skipped` : '', t.notCovered ? `${t.notCovered} not covered` : ''].filter(Boolean);
  const apart = t.unobservable ? `${parts.length ? ', ' : '; '}${t.unobservable} not observable, apart` : '';
  return `${t.verdict.toUpperCase()} (${t.covered} of ${plural(t.clauses, 'MUST clause')} checked${parts.length ? `; ${parts.join(', ')}` : ''}${apart})`;
}

/** The run's verdict with its depth and the share of the catalog it checked, whatever the verdict. */
export function headline(r: Results, where = 'see below'): { icon: string; text: string } {
  const s = r.summary;
  const at = `at depth ${r.depth}`;
  const checked = coverageText(r, where);
  const stale = s.stale ?? 0;
  const staleText = stale ? `${plural(stale, 'baseline entry', 'baseline entries')} ${stale === 1 ? 'is' : 'are'} stale (the check passes now: ${STALE_ADVICE})` : '';
  if (!r.complete && r.verdict === 'pass') return { icon: '⚠️', text: `INCOMPLETE ${at}: the run was interrupted; ${checked}` };
  if (r.verdict === 'fail') {
    const failed = s.mustFailures ? `${plural(s.mustFailures, 'MUST/PROFILE check')} failed or errored` : '';
    return { icon: '❌', text: `FAIL ${at}: ${[failed, staleText].filter(Boolean).join('; ')}; ${checked}` };
  }
  if (r.verdict === 'nothing-checked') return { icon: '🚫', text: `NOTHING CHECKED ${at}: no MUST or PROFILE clause was checked, so there is no verdict (${nothingCheckedWhy(r)}); ${checked}` };
  if (r.verdict === 'error') return { icon: '💥', text: `ERROR ${at}: ${plural(s.mustFailures, 'check')} could not run (harness errors); ${checked}` };
  const extras = [s.warnings ? plural(s.warnings, 'SHOULD warning') : '', s.known ? plural(s.known, 'known failure') : ''].filter(Boolean);
  // What this machine kept from running is said in the verdict's own line: the pass is of less.
  const machine = r.machineGaps?.clauses ? `; INCOMPLETE here: ${machineGapsShort(r.machineGaps)}` : '';
  return { icon: machine ? '⚠️' : '✅', text: `PASS ${at}: ${checked}${extras.length ? `, with ${extras.join(' and ')}` : ''}${machine}` };
}

/** Why a run checked nothing: its chosen checks' most common skip reason. */
function nothingCheckedWhy(r: Results): string {
  const ran = r.checks.filter((c) => c.ran);
  const skipped = ran.filter((c) => c.verdict === 'skip');
  if (!ran.length) return 'no check ran';
  const top = [...groupBy(skipped, (x) => x.message ?? '(no reason given)').entries()].sort((a, b) => b[1].length - a[1].length)[0];
  const errored = ran.filter((c) => c.verdict === 'error').length;
  const tail = top ? `; most often: ${firstLine(top[0], 200)} (${top[1].length})` : '';
  return `of ${plural(ran.length, 'chosen check')}, ${skipped.length} skipped${errored ? `, ${errored} errored` : ''}${tail}`;
}

/** Endpoints of a cause, at most `max` named: "`GET /v1/campaigns`, `DELETE /v1/emails/{id}` and 30 more". */
function endpointsText(g: FailureGroup, max: number, fmt: (s: string) => string): string {
  const shown = g.endpoints.slice(0, max).map(fmt).join(', ');
  return g.endpoints.length > max ? `${shown} and ${g.endpoints.length - max} more` : shown;
}

/** One cause of failure: its first check with its curl line, the count and endpoints of the rest. */
function failureBlock(g: FailureGroup): string {
  const c = g.checks[0]!;
  const count = groupCountText(g);
  const lines = [`#### ${c.verdict === 'error' ? '💥' : '❌'} ${code(c.id)}${count ? ` · ${count}` : ''}`, '', `- **Level:** ${c.level} · **Clauses:** ${c.clauses.map(code).join(', ') || '(none)'}`];
  lines.push(`- **${c.verdict === 'error' ? 'Error' : 'Message'}:** ${md(c.message ?? '(no message)', 600)}`);
  if (g.checks.length > 1 && g.endpoints.length) lines.push(`- **${g.endpoints.length === 1 ? 'Endpoint' : `Endpoints (${g.endpoints.length})`}:** ${endpointsText(g, 40, code)}`);
  if (c.baselineExpired) lines.push(`- **Baseline entry expired** on ${md(c.baselineExpired.expires)}: it no longer hides this failure (it was known because: ${md(c.baselineExpired.reason, 200)})`);
  const curl = c.repro?.[0];
  if (curl) lines.push('', fence(curl));
  return lines.join('\n');
}

/** summary.md: one section per step below, in the order a reader of a CI job summary needs them. */
export function buildSummaryMarkdown(r: Results): string {
  const h = headline(r);
  const parts = [
    ...runHeader(r, h),
    countsTable(r),
    tierTable(r),
    ...evidenceNotes(r),
    ...staleEntriesSection(r),
    ...failuresSection(r),
    ...knownFailuresSection(r),
    ...shouldWarningsSection(r),
    ...skipsSection(r),
    ...notCoveredSections(r),
    ...knownGapsSection(r),
    ...reportWarningsSection(r),
    '_Full details: `report.html` (evidence for every failure), `junit.xml`, `results.json`, `traffic.har`._',
  ];
  return fitJobSummary(parts.join('\n\n') + '\n');
}

/** The headline, what the profile left undeclared, and which target, kit, spec and run this is. */
function runHeader(r: Results, h: { icon: string; text: string }): string[] {
  const parts = [`## ${h.icon} Outreach API conformance: ${h.text}`];
  // Undeclared profile fields lose coverage silently unless said at the top.
  if (r.machineGaps?.clauses) parts.push(`**This machine:** ${md(machineGapsText(r.machineGaps), 2000)}`);
  if (r.profileGaps?.clauses) parts.push(`**Undeclared in the profile:** ${md(profileGapsText(r.profileGaps, 12), 2000)} (declare them to check these clauses)`);
  parts.push(
    [
      `**Target:** ${code(r.target.baseUrl)}${r.target.name || r.target.embedded ? ` (${[r.target.name ? md(r.target.name) : '', r.target.embedded && !/embedded/i.test(r.target.name ?? '') ? 'embedded' : ''].filter(Boolean).join(', ')})` : ''}  `,
      `**Kit:** ${md(r.kit.name)} ${md(r.kit.version)} · **Spec:** ${md(r.spec.version)} (sha256 ${code(r.spec.sha256.slice(0, 12))})${r.spec.file ? ` · **Given spec** ${code(r.spec.file.path)} ${r.spec.file.matches ? 'matches' : `**differs** (sha256 ${code(r.spec.file.sha256.slice(0, 12))})`}` : ''} · **Depth:** ${md(r.depth)}  `,
      `**Run:** ${code(r.runId)} · ${md(r.startedAt)} → ${md(r.finishedAt)} (${formatMs(r.durationMs)}) · ${r.stats.requests} requests${r.stats.unplanned429 ? ` · ⚠️ ${r.stats.unplanned429} unplanned 429` : ''}${budgetWarning(r.stats) ? `  \n⚠️ ${md(budgetWarning(r.stats)!)}` : ''}`,
    ].join('\n'),
  );
  return parts;
}

/** Checks and clauses by verdict, then the counts that decide the exit code. */
function countsTable(r: Results): string {
  const s = r.summary;
  const c = r.clauseSummary;
  return (
    [
      '| | ✅ pass | ❌ fail | 💥 error | ⏭️ skip | ▫️ not covered | 👁️ not observable | total |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      `| **Checks** | ${s.pass} | ${s.fail} | ${s.error} | ${s.skip} | | | ${s.total} |`,
      `| **Clauses** | ${c.pass} | ${c.fail} | ${c.error} | ${c.skip} | ${c.notCovered} | ${c.unobservable ?? 0} | ${c.total} |`,
    ].join('\n') +
    `\n\nBlocking (MUST/PROFILE) failures: **${s.mustFailures}** · SHOULD warnings: **${s.warnings}**${s.known ? ` · known failures (baseline): **${s.known}**` : ''}${s.notRun ? ` · not run at this depth: ${s.notRun}` : ''}`
  );
}

const TIER_ICON = { pass: '✅', fail: '❌', incomplete: '⚠️' } as const;

/** The Core and Extended verdicts, each over its own MUST clauses. */
function tierTable(r: Results): string {
  return (
    [
      '| | verdict | MUST clauses checked | failed | known | errored | skipped | not covered | not observable (apart) |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
      ...(['core', 'extended'] as const).map((k) => {
        const t = r.summary[k];
        return `| **${TIER_LABEL[k].name}**: ${TIER_LABEL[k].what} | ${TIER_ICON[t.verdict]} ${t.verdict.toUpperCase()} | ${t.covered} of ${t.clauses} | ${t.fail} | ${t.known} | ${t.error} | ${t.skip} | ${t.notCovered} | ${t.unobservable ?? 0} |`;
      }),
    ].join('\n') +
    '\n\n_A verdict speaks only for the clauses it checked: INCOMPLETE when some of its MUST clauses were skipped, errored or not covered. MUST clauses no request can observe are counted apart and listed below. PROFILE readings count in the overall verdict._'
  );
}

/** How far to trust the verdict: detection power, the mutation score, an interrupted run. */
function evidenceNotes(r: Results): string[] {
  const parts: string[] = [];
  if (r.detection) parts.push(detectionLine(r.detection, r.predictedDetection));
  if (r.mutation) {
    const m = r.mutation;
    parts.push(
      `**Mutation score:** ${percent(m.score)} (${m.killed}/${m.total} mutants killed: evidence the suite can fail)` +
        (m.survivors.length ? `. Survivors: ${m.survivors.slice(0, 20).map(code).join(', ')}${m.survivors.length > 20 ? ` and ${m.survivors.length - 20} more` : ''}` : ''),
    );
  }
  if (!r.complete) parts.push('> [!WARNING]\n> The event stream has no run-end: the run was interrupted. Checks that started and never finished count as errors.');
  return parts;
}

/** Baseline entries whose check passes now: each fails the run, so they come before the failures. */
function staleEntriesSection(r: Results): string[] {
  const staleEntries = r.baseline?.entries.filter((x) => x.status === 'stale') ?? [];
  if (!staleEntries.length) return [];
  return [
    `### Stale baseline entries (${staleEntries.length}): each fails the run\n\n${staleEntries.map((x) => `- ${code(x.check)} passes now: ${STALE_ADVICE} (${md(r.baseline!.file)}). It was listed because: ${md(x.reason, 200)}`).join('\n')}`,
  ];
}

/** The blocking failures, one block per cause with its first curl line; capped so the summary stays readable. */
function failuresSection(r: Results): string[] {
  const blocking = r.checks.filter((x) => x.blocking);
  if (!blocking.length) return [];
  const groups = groupFailures(blocking);
  const shown = groups.slice(0, MAX_FAILURES).map(failureBlock);
  if (groups.length > MAX_FAILURES) shown.push(`_and ${groups.length - MAX_FAILURES} more causes (see report.html / junit.xml)_`);
  // The curl lines name credentials by variable, never by value: say which to set.
  const vars = curlEnvVars(groups.slice(0, MAX_FAILURES).flatMap((g) => (g.checks[0]!.repro?.[0] ? [g.checks[0]!.repro[0]] : [])));
  const note = vars.length ? `_The curl lines read credentials from the environment: set ${vars.map(code).join(', ')} first._\n\n` : '';
  const causes = groups.length < blocking.length ? `, ${plural(groups.length, 'cause')}: a cause is shown once with its count and endpoints` : '';
  return [`### Failed MUST/PROFILE checks (${blocking.length}${causes})\n\n${note}${shown.join('\n\n')}`];
}

/** Failures the baseline excuses, with why and until when. */
function knownFailuresSection(r: Results): string[] {
  const known = r.checks.filter((x) => x.known);
  if (!known.length) return [];
  const rows = known.slice(0, MAX_WARNINGS).map((x) => `| ${code(x.id)} | ${md(x.known!.reason, 200)} | ${x.known!.expires ? md(x.known!.expires) : ''} | ${md(x.message ?? '', 160)} |`);
  if (known.length > MAX_WARNINGS) rows.push(`| _and ${known.length - MAX_WARNINGS} more_ | | | |`);
  return [`### Known failures (${known.length}, baseline ${code(r.baseline?.file ?? '')}, non-blocking)\n\n| check | known because | until | message |\n|---|---|---|---|\n${rows.join('\n')}`];
}

/** SHOULD checks that failed or errored: worth fixing, never blocking. */
function shouldWarningsSection(r: Results): string[] {
  const warns = r.checks.filter((x) => x.level === 'SHOULD' && !x.known && (x.verdict === 'fail' || x.verdict === 'error'));
  if (!warns.length) return [];
  const groups = groupFailures(warns);
  const rows = groups.slice(0, MAX_WARNINGS).map((g) => `| ${code(g.checks[0]!.id)}${g.checks.length > 1 ? ` · ${groupCountText(g)}` : ''} | ${g.checks[0]!.clauses.map(code).join(', ')} | ${md(g.checks[0]!.message ?? '', 200)} |`);
  if (groups.length > MAX_WARNINGS) rows.push(`| _and ${groups.length - MAX_WARNINGS} more causes_ | | |`);
  return [`### SHOULD warnings (${warns.length}, non-blocking)\n\n| check | clauses | message |\n|---|---|---|\n${rows.join('\n')}`];
}

/** Skipped checks grouped by reason, most common first: one reason often explains hundreds. */
function skipsSection(r: Results): string[] {
  const skips = r.checks.filter((x) => x.verdict === 'skip');
  if (!skips.length) return [];
  const groups = [...groupBy(skips, (x) => x.message ?? '(no reason given)').entries()].sort((a, b) => b[1].length - a[1].length);
  const rows = groups.slice(0, MAX_SKIP_REASONS).map(([reason, xs]) => {
    const ex = xs.slice(0, 3).map((x) => code(x.id)).join(', ');
    return `| ${md(reason, 160)} | ${xs.length} | ${ex}${xs.length > 3 ? ` and ${xs.length - 3} more` : ''} |`;
  });
  if (groups.length > MAX_SKIP_REASONS) rows.push(`| _and ${groups.length - MAX_SKIP_REASONS} more reasons_ | ${groups.slice(MAX_SKIP_REASONS).reduce((n, [, xs]) => n + xs.length, 0)} | |`);
  return [`<details><summary>Skipped checks by reason (${skips.length})</summary>\n\n| reason | checks | examples |\n|---|---:|---|\n${rows.join('\n')}\n\n</details>`];
}

/** Clauses no check covered, by spec section, and those that cannot be observed from outside. */
function notCoveredSections(r: Results): string[] {
  if (!r.clauseSummary.notCovered) return [];
  const bySection = groupBy(r.clauses, (x) => x.section);
  const rows = [...bySection.entries()]
    .sort(([a], [b]) => compareSections(a, b))
    .map(([sec, xs]) => [sec, xs.filter((x) => x.verdict === 'not-covered').length, xs.length] as const)
    .filter(([, n]) => n > 0)
    .map(([sec, n, total]) => `| ${md(sec)} ${md(sectionTitle(sec))} | ${n} | ${total} |`);
  const parts = [
    `<details><summary>Clauses not covered by any check (${r.clauseSummary.notCovered} of ${r.clauseSummary.total})</summary>\n\n| section | not covered | clauses |\n|---|---:|---:|\n${rows.join('\n')}\n\n</details>`,
  ];
  const hidden = r.clauses.filter((x) => x.verdict === 'not-covered' && x.unobservable);
  if (hidden.length)
    parts.push(`<details><summary>Not observable from outside (${hidden.length})</summary>\n\n| clause | why |\n|---|---|\n${hidden.map((x) => `| ${md(x.id)} | ${md(x.unobservable!)} |`).join('\n')}\n\n</details>`);
  return parts;
}

const MAX_GAP_ROWS = 40;

/** One open violation: what, and the catalog's reason where it names a gap. */
export const openViolationText = (o: { what: string; gap?: string }) => `${o.what}${o.gap ? ` (known gap: ${o.gap})` : ''}`;

/** Clauses checked here whose catalog lists plausible violations no check of this run that claims them kills: a count each, the list folded. */
function knownGapsSection(r: Results): string[] {
  const weak = r.clauses.filter((x) => x.openViolations);
  if (!weak.length) return [];
  const rows = weak.slice(0, MAX_GAP_ROWS).map((x) => `| ${code(x.id)} | ${x.verdict} | ${x.openViolations!.open.length} of ${x.openViolations!.listed} | ${mdWithCode(x.openViolations!.open.map(openViolationText).join(' · '))} |`);
  const more = weak.length > rows.length ? `\n\n_and ${weak.length - rows.length} more: \`results.json\` lists each clause's \`openViolations\`._` : '';
  return [`<details><summary>Known gaps: ${plural(weak.length, 'clause')} with plausible violations no check of this run kills</summary>\n\n| clause | verdict | open | violations |\n|---|---|---:|---|\n${rows.join('\n')}${more}\n\n</details>`];
}

/** What the report builder itself noticed (a duplicate event, a missing run-start or run-end), folded away. */
function reportWarningsSection(r: Results): string[] {
  if (!r.warnings.length) return [];
  return [`<details><summary>Report warnings (${r.warnings.length})</summary>\n\n${r.warnings.slice(0, 30).map((w) => `- ${md(w)}`).join('\n')}${r.warnings.length > 30 ? `\n- _and ${r.warnings.length - 30} more_` : ''}\n\n</details>`];
}

/** The text as is, or, past SUMMARY_MAX_BYTES, cut at a line boundary under it with a note saying so. */
function fitJobSummary(text: string): string {
  if (Buffer.byteLength(text) <= SUMMARY_MAX_BYTES) return text;
  // Last resort: cut at a line boundary under the limit and say so.
  const note = '\n\n_… summary truncated to fit a job summary; see report.html._\n';
  let cut = text.slice(0, SUMMARY_MAX_BYTES - note.length - 1000);
  while (Buffer.byteLength(cut) > SUMMARY_MAX_BYTES - note.length) cut = cut.slice(0, -1000);
  cut = cut.slice(0, cut.lastIndexOf('\n'));
  // A cut inside a code fence would swallow the note: close it.
  const fences = (cut.match(/^```/gm) ?? []).length;
  if (fences % 2 === 1) cut += '\n```';
  return cut + note;
}

/** A compact plain-text summary for the terminal (no colours: the CLI may add them). */
export function formatConsoleSummary(r: Results, opts: { maxFailures?: number } = {}): string {
  const max = opts.maxFailures ?? 15;
  const h = headline(r, 'see report.html');
  const s = r.summary;
  const lines = [
    `${h.text}`,
    ...(r.machineGaps?.clauses ? [`  ${machineGapsText(r.machineGaps)}`] : []),
    ...(r.profileGaps?.clauses ? [`  ${profileGapsText(r.profileGaps)}`] : []),
    `  ${TIER_LABEL.core.name}: ${tierText(s.core)}   ${TIER_LABEL.extended.name}: ${tierText(s.extended)}`,
    `  target ${r.target.baseUrl}   spec ${r.spec.version}   kit ${r.kit.version}   depth ${r.depth}   ${formatMs(r.durationMs)}, ${r.stats.requests} requests`,
    // The same totals as the plan's selection line: the checks chosen for this run, apart from the kit's others.
    `  checks: ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.skip - s.notRun} skip of ${s.total - s.notRun} chosen (${s.notRun} not chosen; ${s.total} in the kit)` +
      `   clauses: ${r.clauseSummary.pass} pass, ${r.clauseSummary.fail} fail, ${r.clauseSummary.error} error, ${r.clauseSummary.skip} skip, ${r.clauseSummary.notCovered} not covered, ${r.clauseSummary.unobservable ?? 0} not observable (of ${r.clauseSummary.total})`,
  ];
  if (r.detection) lines.push(`  ${detectionText(r)}${r.detection.missed.length ? ` (missed: ${r.detection.missed.slice(0, 5).map((m) => m.mutant).join(', ')}${r.detection.missed.length > 5 ? ', ...' : ''}; summary.md names their killers)` : ''}`);
  if (r.mutation) lines.push(`  mutation score ${percent(r.mutation.score)} (${r.mutation.killed}/${r.mutation.total} killed)`);
  if (r.stats.unplanned429) lines.push(`  warning: ${r.stats.unplanned429} unplanned 429 responses`);
  const budgetNote = budgetWarning(r.stats);
  if (budgetNote) lines.push(`  warning: ${budgetNote}`);
  const blocking = r.checks.filter((x) => x.blocking);
  if (blocking.length) lines.push('', ...consoleFailures(blocking, max));
  const stale = r.baseline?.entries.filter((x) => x.status === 'stale') ?? [];
  if (stale.length) {
    lines.push('', `Stale baseline entries (${stale.length}), each fails the run:`);
    for (const x of stale.slice(0, max)) lines.push(`  ✗ ${x.check} passes now: ${STALE_ADVICE} (${r.baseline!.file})`);
    if (stale.length > max) lines.push(`  … and ${stale.length - max} more`);
  }
  const known = r.checks.filter((x) => x.known);
  if (known.length) {
    lines.push('', `Known failures (${known.length}, baseline ${r.baseline?.file ?? ''}), not counted:`);
    for (const c of known.slice(0, max)) lines.push(`  ~ ${c.id}: known: ${firstLine(c.known!.reason, 200)}${c.known!.expires ? ` (until ${c.known!.expires})` : ''}`);
    if (known.length > max) lines.push(`  … and ${known.length - max} more`);
  }
  const warns = r.checks.filter((x) => x.level === 'SHOULD' && !x.known && (x.verdict === 'fail' || x.verdict === 'error'));
  if (warns.length) {
    lines.push('', `Warnings, SHOULD (${warns.length}):`);
    const groups = groupFailures(warns);
    for (const g of groups.slice(0, max)) lines.push(`  ! ${g.checks[0]!.id}${g.checks.length > 1 ? ` (${groupCountText(g)})` : ''}: ${firstLine(g.checks[0]!.message ?? '', 200)}`);
    if (groups.length > max) lines.push(`  … and ${groups.length - max} more causes`);
  }
  return lines.join('\n');
}

/**
 * When the target made the run send more than its checks were measured to: chosen checks not
 * started to stay within the request budget (their clauses unproven), or the budget passed all
 * the same (by checks already running when it ran out).
 */
export function budgetWarning(s: Pick<Results['stats'], 'requests' | 'requestBudget' | 'notStartedForBudget' | 'plannedRequests'>): string | undefined {
  if (s.requestBudget === undefined) return undefined;
  const planned = s.plannedRequests !== undefined ? ` (planned ${s.plannedRequests})` : '';
  const over = s.requests > s.requestBudget ? `${s.requests} requests${planned} passed the request budget of ${s.requestBudget}` : '';
  const held = s.notStartedForBudget ? `${s.notStartedForBudget} chosen check${s.notStartedForBudget === 1 ? ' was' : 's were'} not started to keep within the request budget of ${s.requestBudget} (skipped, with the reason)` : '';
  if (!over && !held) return undefined;
  return `${[held, over].filter(Boolean).join('; ')}: this target made the checks send more requests than measured against the reference (slower answers mean more polls)`;
}

/** The console's failures: one entry per cause, its first check with count, endpoints, message and curl line. */
function consoleFailures(blocking: CheckResult[], max: number): string[] {
  const groups = groupFailures(blocking);
  const lines = [`Failed (${blocking.length}${groups.length < blocking.length ? `, ${plural(groups.length, 'cause')}` : ''}):`];
  for (const g of groups.slice(0, max)) {
    const c = g.checks[0]!;
    const count = groupCountText(g);
    lines.push(`  ✗ ${c.verdict === 'error' ? '[error] ' : ''}${c.id}${count ? ` (${count})` : ''}  [${c.clauses.join(', ')}]`, `      ${firstLine(c.message ?? '', 300)}`);
    if (g.checks.length > 1 && g.endpoints.length > 1) lines.push(`      on ${endpointsText(g, 6, (x) => x)}`);
    if (c.baselineExpired) lines.push(`      baseline entry expired on ${c.baselineExpired.expires}: it no longer hides this failure`);
    if (c.repro?.[0]) lines.push(`      ${firstLine(c.repro[0], 400)}`);
  }
  if (groups.length > max) lines.push(`  … and ${groups.length - max} more causes`);
  return lines;
}

/**
 * "detection power: 76 of 290 reference mutants killed by the checks that ran to a verdict (kill
 * matrix of kit 0.1.0, not a mutation run); the plan predicted 80": measured from this run's
 * verdicts, the prediction beside it when it differs.
 */
export function detectionText(r: Pick<Results, 'detection' | 'predictedDetection'>): string {
  const d = r.detection!;
  const p = r.predictedDetection;
  const predicted = p && p.killed !== d.killed ? `; the plan predicted ${p.killed} (its checks that skipped or errored kill nothing)` : '';
  return `detection power: ${d.killed} of ${d.total} reference mutants killed by ${d.basis ?? "this run's checks (kill matrix)"}${predicted}`;
}

/** The run's detection power: reference mutants the checks that ran kill, and what would kill the rest. */
export function detectionLine(d: NonNullable<Results['detection']>, predicted?: Results['predictedDetection']): string {
  const head = `**D${detectionText({ detection: d, predictedDetection: predicted }).slice(1).replace(':', ':**')}`;
  if (!d.missed.length) return `${head}.`;
  const one = (m: (typeof d.missed)[number]) => `${code(m.mutant)} (${m.killers.length ? `killed by ${m.killers.map((k) => code(k.check)).join(', ')}` : 'no killer runs on this profile'})`;
  return `${head}. Missed: ${d.missed.slice(0, 10).map(one).join('; ')}${d.missed.length > 10 ? `; and ${d.missed.length - 10} more (results.json lists them)` : ''}.`;
}
