// report.html: the certification report, ONE self-contained file (inline CSS and a little inline
// JS, no external assets). Every piece of run data is HTML-escaped; the only <script> element is
// ours and contains no run data.

import type { BaselineEntry, ExchangeEvent, Outcome, RunEvent } from '../ground/events.ts';
import { CSS, JS } from './html-assets.ts';
import { groupCountText, groupFailures, rootCauses, type FailureGroup, type RootCause } from './failure-groups.ts';
import { pageHead } from './page.ts';
import { sectionTitle } from './sections.ts';
import { compareSections, evidenceFor, exchangesByCheck, exchangesById, STALE_ADVICE, type CheckResult, type ClauseResult, type Results } from './results.ts';
import { curlEnvVars, escapeHtml as e, formatMs, groupBy, headerValue, percent, prettyBody, truncate } from './text.ts';
import { headline, openViolationText, TIER_LABEL, tierText } from './summary.ts';

export const BODY_MAX_CHARS = 8 * 1024;
/** Most passing/skipped checks listed under one clause before "and N more". */
const MAX_OTHER_CHECKS = 200;

const VERDICT_LABEL: Record<Outcome | 'warn' | 'known', string> = {
  known: 'known failure',
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  skip: 'skip',
  'not-covered': 'not covered',
  warn: 'warning',
};

function pill(v: Outcome, blocking = true, level?: string, known = false): string {
  if (known) return `<span class="pill v-known" title="A failure the baseline lists: it does not fail the run">${e(VERDICT_LABEL.known)}</span>`;
  const warn = (v === 'fail' || v === 'error') && !blocking && level === 'SHOULD';
  const cls = warn ? 'warn' : v;
  return `<span class="pill v-${cls}">${e(warn ? `${VERDICT_LABEL[v]} · warning` : VERDICT_LABEL[v])}</span>`;
}

function levelBadge(level: string): string {
  return `<span class="lvl lvl-${e(level)}" title="${e(
    level === 'MUST' ? 'The spec states it' : level === 'SHOULD' ? 'A reasonable reading; failure warns' : 'The spec says "not shown": the target\'s profile declares it',
  )}">${e(level)}</span>`;
}

function statusClass(status: number | undefined): string {
  if (status === undefined) return 's-err';
  if (status < 300) return 's-2xx';
  if (status < 400) return 's-3xx';
  if (status < 500) return 's-4xx';
  return 's-5xx';
}

function headersText(h: Record<string, string> | undefined): string {
  return Object.entries(h ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function messageBlock(headers: Record<string, string> | undefined, body: string | undefined, firstLine: string): string {
  const pretty = truncate(prettyBody(body, headerValue(headers, 'content-type')), BODY_MAX_CHARS);
  const hs = headersText(headers);
  return (
    `<pre class="msg"><span class="m-first">${e(firstLine)}</span>` +
    (hs ? `\n<span class="m-headers">${e(hs)}</span>` : '') +
    (pretty ? `\n\n${e(pretty)}` : '') +
    `</pre>`
  );
}

function curlBlock(curl: string): string {
  if (!curl) return '';
  return `<div class="curl"><pre><code>${e(curl)}</code></pre><button type="button" class="copy" title="Copy the curl line">Copy</button></div>`;
}

function exchangeBlock(x: ExchangeEvent): string {
  const status = x.response?.status;
  let path = x.request.url;
  try {
    const u = new URL(x.request.url);
    path = u.pathname + u.search;
  } catch {
    /* keep as is */
  }
  const reqLine = `${x.request.method} ${path} HTTP/1.1`;
  const resLine = x.response ? `HTTP/1.1 ${x.response.status}` : `no response: ${x.error ?? 'transport failure'}`;
  return `<div class="exchange" id="x-${e(x.id)}">
  <div class="x-line"><span class="method">${e(x.request.method)}</span> <span class="url">${e(x.request.url)}</span> <span class="arrow">→</span> <span class="status ${statusClass(status)}">${e(status ?? 'no response')}</span><span class="x-meta">${e(x.id)} · ${e(formatMs(x.durationMs))} · ${e(x.startedAt)}</span></div>
  <div class="x-grid">
    <div><div class="x-h">Request</div>${messageBlock(x.request.headers, x.request.body, reqLine)}</div>
    <div><div class="x-h">Response</div>${x.response ? messageBlock(x.response.headers, x.response.body, resLine) : `<pre class="msg"><span class="m-first">${e(resLine)}</span></pre>`}</div>
  </div>
  ${curlBlock(x.curl)}
</div>`;
}

interface Ctx {
  results: Results;
  byId: Map<string, ExchangeEvent>;
  byCheck: Map<string, ExchangeEvent[]>;
  checkAnchor: Map<string, string>;
  clauseAnchor: Map<string, string>;
  checks: Map<string, CheckResult>;
}

function anchors(ids: string[], prefix: string): Map<string, string> {
  const m = new Map<string, string>();
  const used = new Set<string>();
  for (const id of ids) {
    let a = `${prefix}-${id.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
    if (used.has(a)) {
      let n = 2;
      while (used.has(`${a}-${n}`)) n++;
      a = `${a}-${n}`;
    }
    used.add(a);
    m.set(id, a);
  }
  return m;
}

/** One cause of failure: its first check in full (message and evidence, folded when `open` is false), its endpoints, and the rest of its checks folded away. */
function failureCard(g: FailureGroup, ctx: Ctx, open = true): string {
  const [c, ...rest] = g.checks as [CheckResult, ...CheckResult[]];
  const clauseLinks = c.clauses
    .map((id) => (ctx.clauseAnchor.has(id) ? `<a href="#${e(ctx.clauseAnchor.get(id))}"><code>${e(id)}</code></a>` : `<code>${e(id)}</code>`))
    .join(' ');
  return `<article class="failure card ${c.blocking ? 'blocking' : 'nonblocking'}${rest.length ? ' grouped' : ''}" id="${e(ctx.checkAnchor.get(c.id))}" data-verdict="${e(c.verdict)}" data-level="${e(c.level)}" data-count="${g.checks.length}">
  <div class="f-head">${pill(c.verdict, c.blocking, c.level, !!c.known)} ${levelBadge(c.level)} <code class="check-id">${e(c.id)}</code>${rest.length ? `<span class="g-count">${e(groupCountText(g))}</span>` : ''}<span class="dur">${e(formatMs(c.durationMs))} · ${c.requests} req</span></div>
  <div class="f-title">${e(c.title)}</div>
  <div class="f-clauses">Clauses: ${clauseLinks || '<em>none</em>'}</div>
  ${rest.length && g.endpoints.length ? `<div class="f-endpoints">${g.endpoints.length === 1 ? 'Endpoint' : `Endpoints (${g.endpoints.length})`}: ${g.endpoints.map((x) => `<code>${e(x)}</code>`).join(' ')}</div>` : ''}
  ${failureDetail(c, ctx, open)}
  ${
    rest.length
      ? `<details class="g-rest"><summary>The other ${rest.length} check${rest.length === 1 ? '' : 's'} of this cause, each with its message and evidence</summary>${rest
          .map((x) => `<div class="g-item" id="${e(ctx.checkAnchor.get(x.id))}" data-verdict="${e(x.verdict)}"><div class="f-head">${pill(x.verdict, x.blocking, x.level, !!x.known)} <code class="check-id">${e(x.id)}</code><span class="dur">${e(formatMs(x.durationMs))} · ${x.requests} req</span></div>${failureDetail(x, ctx, false)}</div>`)
          .join('\n')}</details>`
      : ''
  }
</article>`;
}

/**
 * One root cause shared by several clause groups: the detail they share, every check with its
 * clauses (linked to its card), then each group's card as alone, the evidence open in the first
 * only (the others show the same detail again).
 */
function rootCauseCard(rc: RootCause, ctx: Ctx): string {
  const checks = rc.groups.flatMap((g) => g.checks);
  const rows = checks
    .map((c) => `<tr><td><a href="#${e(ctx.checkAnchor.get(c.id))}"><code>${e(c.id)}</code></a></td><td>${c.clauses.map((id) => (ctx.clauseAnchor.has(id) ? `<a href="#${e(ctx.clauseAnchor.get(id))}"><code>${e(id)}</code></a>` : `<code>${e(id)}</code>`)).join(' ')}</td></tr>`)
    .join('');
  return `<section class="root-cause" data-checks="${checks.length}" data-groups="${rc.groups.length}">
  <div class="rc-head"><span class="rc-label">Root cause</span> <code class="rc-cause">${e(rc.cause)}</code> <span class="g-count">${checks.length} checks in ${rc.groups.length} groups of clauses</span></div>
  <details class="rc-checks"><summary>The checks of this cause and the clauses each proves</summary><table class="tbl"><thead><tr><th>check</th><th>clauses</th></tr></thead><tbody>${rows}</tbody></table></details>
  ${rc.groups.map((g, i) => failureCard(g, ctx, i === 0)).join('\n')}
</section>`;
}

/** A failed check's message, an expired baseline entry, and its evidence (open for the one a group shows). */
function failureDetail(c: CheckResult, ctx: Ctx, open: boolean): string {
  const ev = evidenceFor(c, ctx.byId, ctx.byCheck);
  return `<pre class="f-msg">${e(c.message ?? '(no message)')}</pre>
  ${c.baselineExpired ? `<p class="expired-note">The baseline entry for this check expired on ${e(c.baselineExpired.expires)}: it no longer hides this failure (it was known because: ${e(c.baselineExpired.reason)}).</p>` : ''}
  ${
    ev.exchanges.length
      ? `<details class="evidence"${open ? ' open' : ''}><summary>${ev.fallback ? 'Last request of the check (it named no evidence)' : `Evidence (${ev.exchanges.length} exchange${ev.exchanges.length === 1 ? '' : 's'})`}</summary>${ev.exchanges.map(exchangeBlock).join('\n')}</details>`
      : `<p class="muted">No exchange recorded for this check.</p>`
  }`;
}

function checkRow(c: CheckResult, ctx: Ctx, full: boolean): string {
  const inner = `${pill(c.verdict, c.blocking, c.level, !!c.known)} <code class="check-id">${e(c.id)}</code> <span class="c-title">${e(c.title)}</span>`;
  if (!full) return `<li class="check">${inner}${c.verdict === 'skip' && c.message ? ` <span class="muted">— ${e(c.message)}</span>` : ''}</li>`;
  const curl = c.repro?.[0];
  return `<li class="check open v-${e(c.verdict)}${c.blocking ? '' : ' nb'}">${inner}
    ${c.known ? `<p class="known-note">Known failure (baseline): ${e(c.known.reason)}${c.known.expires ? ` · until ${e(c.known.expires)}` : ''}</p>` : ''}
    ${c.message ? `<pre class="c-msg">${e(c.message)}</pre>` : ''}
    ${curl ? curlBlock(curl) : ''}
    ${c.verdict === 'fail' || c.verdict === 'error' ? `<a class="ev-link" href="#${e(ctx.checkAnchor.get(c.id))}">Evidence: request and response ↗</a>` : ''}
  </li>`;
}

/** Escaped text whose `backticked` parts (the catalog's markdown) show as code. */
function codeSpans(text: string): string {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 ? `<code>${e(part)}</code>` : e(part))).join('');
}

function clauseBlock(cl: ClauseResult, ctx: Ctx): string {
  const checks = cl.checks.map((x) => ctx.checks.get(x.id)).filter((x): x is CheckResult => !!x);
  const important = checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error' || (cl.verdict === 'skip' && c.verdict === 'skip'));
  const others = checks.filter((c) => !important.includes(c));
  const counts = [...groupBy(checks, (c) => c.verdict).entries()].map(([v, xs]) => `${xs.length} ${v}`).join(', ');
  const search = `${cl.id} ${cl.text} ${checks.map((c) => c.id).join(' ')}`.toLowerCase();
  const shown = others.slice(0, MAX_OTHER_CHECKS);
  const gaps = cl.openViolations;
  return `<article class="clause v-${e(cl.verdict)}${cl.known ? ' is-known' : cl.verdict === 'fail' && !cl.blocking ? ' is-warn' : ''}" id="${e(ctx.clauseAnchor.get(cl.id))}" data-verdict="${e(cl.verdict)}" data-level="${e(cl.level)}" data-blocking="${cl.blocking}" data-search="${e(search)}">
  <div class="cl-head">${levelBadge(cl.level)}<code class="clause-id">${e(cl.id)}</code>${pill(cl.verdict, cl.blocking || cl.level !== 'SHOULD', cl.level, !!cl.known)}<span class="cl-counts">${checks.length ? `${checks.length} check${checks.length === 1 ? '' : 's'}: ${e(counts)}` : cl.unobservable ? `not observable from outside: ${e(cl.unobservable)}` : 'no check proves this clause'}${gaps ? ` · <span class="cl-gaps">${gaps.open.length} of ${gaps.listed} plausible violation${gaps.listed === 1 ? '' : 's'} open</span>` : ''}</span></div>
  <p class="cl-text">${e(cl.text)}</p>
  ${important.length ? `<ul class="checks">${important.map((c) => checkRow(c, ctx, true)).join('')}</ul>` : ''}
  ${
    others.length
      ? `<details class="more"><summary>${important.length ? `${others.length} other check${others.length === 1 ? '' : 's'}` : `${others.length} check${others.length === 1 ? '' : 's'}`}</summary><ul class="checks">${shown.map((c) => checkRow(c, ctx, false)).join('')}${others.length > shown.length ? `<li class="muted">and ${others.length - shown.length} more</li>` : ''}</ul></details>`
      : ''
  }
  ${gaps ? `<details class="gaps"><summary>Known gaps: ${gaps.open.length} plausible violation${gaps.open.length === 1 ? '' : 's'} no check of this run kills</summary><ul>${gaps.open.map((o) => `<li>${codeSpans(openViolationText(o))}</li>`).join('')}</ul></details>` : ''}
</article>`;
}

/** The order of a verdict bar's segments and of its legend: the worst first. */
const BAR_ORDER = ['error', 'fail', 'warn', 'pass', 'skip', 'not-covered'] as const;

function bar(xs: { verdict: Outcome; blocking?: boolean; level?: string }[]): string {
  const total = xs.length || 1;
  const by = groupBy(xs, (x) => ((x.verdict === 'fail' || x.verdict === 'error') && x.blocking === false && x.level === 'SHOULD' ? 'warn' : x.verdict));
  return `<span class="bar">${BAR_ORDER
    .map((v) => {
      const n = by.get(v)?.length ?? 0;
      return n ? `<span class="b-${v}" style="width:${((n / total) * 100).toFixed(2)}%" title="${n} ${VERDICT_LABEL[v]}"></span>` : '';
    })
    .join('')}</span>`;
}

function tile(label: string, value: string, cls: string, sub = ''): string {
  return `<div class="tile ${cls}"><div class="t-value">${value}</div><div class="t-label">${label}</div>${sub ? `<div class="t-sub">${sub}</div>` : ''}</div>`;
}

/**
 * report.html, top to bottom: the verdict, the tiles, what to read first (failures, known
 * failures, coverage, skips, detection, mutation, report warnings), then every clause by section.
 */
export function buildHtml(results: Results, events: RunEvent[]): string {
  const r = results;
  const ctx = pageContext(r, events);
  const sections = clausesBySection(r);
  return `${pageHead(`Conformance report: ${r.verdict.toUpperCase()} · ${r.target.baseUrl}`, CSS)}
${pageHeader(r)}
<div class="wrap">
  <section class="tiles">${summaryTiles(r).join('')}</section>
  ${failuresSection(ctx)}
  ${knownSection(ctx)}
  ${coverageSection(ctx)}
  ${skipsSection(r)}
  ${detectionSection(r)}
  ${mutationSection(r)}
  ${warningsSection(r)}
  ${sectionsToc(sections)}
  ${clauseToolbar(r)}
  <main id="clauses">
${specSections(sections, ctx)}
${orphansSection(ctx)}
  </main>
  <footer>Generated by ${e(r.kit.name)} ${e(r.kit.version)} from the run's event stream. Secrets are redacted. Bodies longer than ${BODY_MAX_CHARS / 1024} KB are truncated here; <code>traffic.har</code> has every exchange.</footer>
</div>
<script>${JS}</script>
</body>
</html>
`;
}

/** The lookups every section shares: exchanges for evidence, and one anchor per check and clause so sections link to each other. */
function pageContext(r: Results, events: RunEvent[]): Ctx {
  return {
    results: r,
    byId: exchangesById(events),
    byCheck: exchangesByCheck(events),
    checkAnchor: anchors(r.checks.map((c) => c.id), 'check'),
    clauseAnchor: anchors(r.clauses.map((c) => c.id), 'clause'),
    checks: new Map(r.checks.map((c) => [c.id, c])),
  };
}

/** The header's and the verdict tile's colour: a pass of an interrupted run is only 'incomplete'. */
function verdictClass(r: Results): string {
  if (r.verdict === 'nothing-checked') return 'error'; // no verdict: shown like a run the kit could not carry out
  return r.verdict === 'pass' ? (r.complete ? (r.summary.warnings ? 'pass warnings' : 'pass') : 'incomplete') : r.verdict;
}

/** The summary's words "see below" point at the coverage section. */
const linkSeeBelow = (escaped: string) => escaped.replace('see below', '<a href="#coverage">see below</a>');

function pageHeader(r: Results): string {
  const h = headline(r);
  const s = r.summary;
  return `<header class="top v-${e(verdictClass(r).split(' ')[0])}">
  <div class="wrap">
    <div class="brand">${e(r.kit.name)} <span>certification report</span></div>
    <h1>Outreach API v1 conformance</h1>
    <div class="headline"><span class="hl-dot"></span><span id="verdict">${linkSeeBelow(e(h.text))}</span></div>
    <div class="tiers" id="tiers">${(['core', 'extended'] as const)
      .map((k) => `<div class="tier tv-${e(s[k].verdict)}" id="tier-${k}"><span class="tier-name">${e(TIER_LABEL[k].name)}</span> <span class="tier-text">${e(tierText(s[k]))}</span><div class="tier-what">${e(TIER_LABEL[k].what)}</div></div>`)
      .join('')}</div>
    <dl class="meta">${headerMeta(r).map(([k, v]) => `<div><dt>${e(k)}</dt><dd>${v}</dd></div>`).join('')}</dl>
  </div>
</header>`;
}

/** What was run against what: the rows under the headline, values already HTML. */
function headerMeta(r: Results): [string, string][] {
  return [
    ['Target', `<code>${e(r.target.baseUrl)}</code>${r.target.name ? ` ${e(r.target.name)}` : ''}${r.target.embedded && !/embedded/i.test(r.target.name ?? '') ? ' <span class="tag">embedded reference</span>' : ''}`],
    ['Kit', `${e(r.kit.name)} ${e(r.kit.version)}`],
    ['Spec', `${e(r.spec.version)}`],
    ['sha256', `<code class="sha">${e(r.spec.sha256)}</code>`],
    ...(r.spec.file
      ? ([['Given spec', `<code>${e(r.spec.file.path)}</code> ${r.spec.file.matches ? 'matches' : `<span class="tag tag-bad">differs</span> (sha256 <code class="sha">${e(r.spec.file.sha256)}</code>)`}`]] as [string, string][])
      : []),
    ['Run', `<code>${e(r.runId)}</code> · depth ${e(r.depth)}`],
    [
      'Traffic',
      `${r.stats.requests} requests${r.stats.plannedMs !== undefined ? ` · planned ${e(formatMs(r.stats.plannedMs))}${plannedFrom(r)}` : ''}${r.stats.unplanned429 ? ` · <span class="n-bad">${r.stats.unplanned429} unplanned 429</span>` : ''}${r.stats.transportErrors ? ` · ${r.stats.transportErrors} transport errors` : ''}`,
    ],
    ['Started', e(r.startedAt)],
    ['Finished', `${e(r.finishedAt)} · ${e(formatMs(r.durationMs))}${r.complete ? '' : ' <span class="tag tag-bad">interrupted</span>'}`],
  ];
}

/** The numbers at a glance; the known-failure, profile-gap, detection and mutation tiles only when the run has them. */
function summaryTiles(r: Results): string[] {
  const s = r.summary;
  const cs = r.clauseSummary;
  const verdictCls = verdictClass(r);
  const tiles = [
    tile('Verdict', e(r.verdict === 'pass' && r.complete ? 'PASS' : r.verdict === 'pass' ? 'INCOMPLETE' : r.verdict.replace('-', ' ').toUpperCase()), `t-verdict t-${verdictCls.split(' ')[0]}`, s.warnings && r.verdict === 'pass' ? 'with SHOULD warnings' : ''),
    tile('Checks passed', `${s.pass}<small>/${s.total}</small>`, 't-pass'),
    tile('Failed (blocking)', String(r.checks.filter((c) => c.blocking && c.verdict === 'fail').length), s.mustFailures ? 't-fail' : 't-zero'),
    tile('Errors', String(s.error), s.error ? 't-error' : 't-zero'),
    tile('SHOULD warnings', String(s.warnings), s.warnings ? 't-warn' : 't-zero'),
    ...(r.baseline ? [tile('Known failures', String(s.known), s.known ? 't-known' : 't-zero', s.stale ? `${s.stale} stale entr${s.stale === 1 ? 'y' : 'ies'}` : s.expired ? `${s.expired} expired` : '')] : []),
    tile('Skipped', String(s.skip), 't-skip', s.notRun ? `${s.notRun} not run at this depth` : ''),
    tile('Clauses checked', `${cs.covered}<small>/${cs.total}</small>`, 't-cover', [cs.notCovered ? `${cs.notCovered} not covered` : '', cs.skip ? `${cs.skip} skipped` : '', cs.error ? `${cs.error} errored` : '', cs.unobservable ? `${cs.unobservable} not observable` : ''].filter(Boolean).join(', ')),
  ];
  if (r.machineGaps?.clauses) {
    tiles.push(tile('Skipped because of this machine', `${r.machineGaps.clauses}<small> clauses</small>`, 't-skip', e(r.machineGaps.causes.map((c) => `${c.name}: ${c.fix}`).join('; '))));
  }
  if (r.profileGaps?.clauses) {
    tiles.push(tile('Undeclared in the profile', `${r.profileGaps.clauses}<small> clauses</small>`, 't-skip', e(r.profileGaps.fields.slice(0, 3).map((f) => f.field).join(', ') + (r.profileGaps.fields.length > 3 ? ', ...' : ''))));
  }
  if (r.detection) {
    const predicted = r.predictedDetection && r.predictedDetection.killed !== r.detection.killed ? `; the plan predicted ${r.predictedDetection.killed}` : '';
    tiles.push(tile('Detection power', `${r.detection.killed}<small>/${r.detection.total}</small>`, 't-mutation', e(`reference mutants killed by the checks that ran to a verdict (kill matrix)${predicted}`)));
  }
  if (r.mutation) {
    tiles.push(tile('Mutation score', e(percent(r.mutation.score)), 't-mutation', `${r.mutation.killed}/${r.mutation.total} mutants killed: evidence the suite can fail`));
  }
  return tiles;
}

/** Failures first, once per cause with their evidence (clauses link here): blocking ones, then warnings; stale baseline entries fail the run too. */
function failuresSection(ctx: Ctx): string {
  const r = ctx.results;
  const s = r.summary;
  // A known failure is not listed here: the known-failures section shows it.
  const failures = [...r.checks.filter((c) => c.blocking), ...r.checks.filter((c) => !c.blocking && !c.known && (c.verdict === 'fail' || c.verdict === 'error'))];
  const stale = r.baseline?.entries.filter((x) => x.status === 'stale') ?? [];
  const groups = groupFailures(failures);
  const roots = rootCauses(groups);
  const causes =
    groups.length < failures.length || roots.length < groups.length
      ? `<p class="g-note">${failures.length} failed checks, ${roots.length} root cause${roots.length === 1 ? '' : 's'}, ${groups.length} group${groups.length === 1 ? '' : 's'} of clauses: checks with the same clauses and the same message (but for ids and endpoints) are shown once, with their count and endpoints; groups whose messages name the same detail are shown under it as one root cause; open a cause for the rest.</p>`
      : '';
  return failures.length || stale.length
    ? `<section class="failures" id="failures"><h2>Failures and errors <span class="sec-count">${failures.length + stale.length}</span></h2>${causes}${curlEnvNote(failures, ctx)}${stale.map((x) => staleCard(x, r.baseline!.file)).join('\n')}${roots.map((rc) => (rc.groups.length > 1 ? rootCauseCard(rc, ctx) : failureCard(rc.groups[0]!, ctx))).join('\n')}</section>`
    : `<section class="failures" id="failures"><h2>Failures and errors</h2><p class="all-good">No check failed${s.known ? ` but the ${s.known} known one${s.known === 1 ? '' : 's'} below` : ''}${s.skip ? ` (${s.skip} skipped)` : ''}.</p></section>`;
}

function staleCard(x: BaselineEntry, file: string): string {
  return `<article class="failure card stale" id="${e(`stale-${x.check.replace(/[^A-Za-z0-9_-]+/g, '_')}`)}" data-verdict="fail">
  <div class="f-head"><span class="pill v-fail">stale baseline entry</span> <code class="check-id">${e(x.check)}</code></div>
  <pre class="f-msg">${e(`${x.check} passes now: ${STALE_ADVICE} ${file}. This fails the run.`)}</pre>
  <p class="muted">It was listed because: ${e(x.reason)}${x.expires ? ` · until ${e(x.expires)}` : ''}</p>
</article>`;
}

/** The curl lines carry no secret, only $VARIABLES: say which to set before pasting one. */
function curlEnvNote(failures: CheckResult[], ctx: Ctx): string {
  const envVars = curlEnvVars(failures.flatMap((c) => evidenceFor(c, ctx.byId, ctx.byCheck).exchanges.map((x) => x.curl)));
  return envVars.length
    ? `<p class="env-note">The curl lines read credentials from the environment: set ${envVars.map((v) => `<code>${e(v)}</code>`).join(', ')} first (e.g. <code>export ${e(envVars[0])}=&#39;…&#39;</code>).</p>`
    : '';
}

/** The baseline (--baseline) and what became of each entry; nothing without one. */
function knownSection(ctx: Ctx): string {
  const r = ctx.results;
  if (!r.baseline) return '';
  const known = r.checks.filter((c) => c.known);
  // Known and stale entries are shown elsewhere (the table above, the failures section).
  const otherEntries = r.baseline.entries.filter((x) => x.status !== 'known' && x.status !== 'stale');
  return `<section class="card known" id="known"><h2>Known failures <span class="sec-count">baseline <code>${e(r.baseline.file)}</code>: ${r.baseline.entries.length} entr${r.baseline.entries.length === 1 ? 'y' : 'ies'}</span></h2>
  ${
    known.length
      ? `<p class="muted">These checks failed as the baseline expects: shown, not counted against the verdict.</p><table class="tbl"><thead><tr><th>Check</th><th>Known because</th><th>Until</th><th>What failed</th></tr></thead><tbody>${known
          .map(
            (c) =>
              `<tr><td>${pill('fail', false, c.level, true)} <a href="#${e(ctx.checkAnchor.get(c.id))}"><code>${e(c.id)}</code></a></td><td>${e(c.known!.reason)}</td><td>${e(c.known!.expires ?? '')}</td><td>${e(c.message ?? '')}</td></tr>`,
          )
          .join('')}</tbody></table>`
      : '<p class="muted">No check the baseline lists failed in this run.</p>'
  }
  ${otherEntries.length ? baselineEntriesTable(otherEntries) : ''}
</section>`;
}

/** Baseline entries that hid nothing: expired, errored or not run. */
function baselineEntriesTable(entries: NonNullable<Results['baseline']>['entries']): string {
  return `<table class="tbl"><thead><tr><th>Entry</th><th>What became of it</th><th>Known because</th></tr></thead><tbody>${entries
    .map(
      (x) =>
        `<tr><td><code>${e(x.check)}</code></td><td>${e(
          x.status === 'expired'
            ? `expired on ${x.expires}: its failure counts again (listed above)`
            : x.status === 'errored'
              ? 'the check errored: a baseline hides failures, not errors'
              : 'the check did not run here: nothing to compare',
        )}</td><td>${e(x.reason)}</td></tr>`,
    )
    .join('')}</tbody></table>`;
}

/** What the verdict speaks for, and each clause it says nothing about with the reason, so a PASS is not over-read. */
function coverageSection(ctx: Ctx): string {
  const r = ctx.results;
  const cs = r.clauseSummary;
  const unchecked = r.clauses.filter((c) => c.verdict === 'not-covered' || c.verdict === 'skip' || c.verdict === 'error');
  const uncheckedGroups = (['not-covered', 'skip', 'error'] as const)
    .map((v) => [v, unchecked.filter((c) => c.verdict === v)] as const)
    .filter(([, xs]) => xs.length);
  return `<section class="card coverage" id="coverage"><h2>What the verdict speaks for</h2>
  <p>The verdict speaks for the <b>${cs.covered}</b> of ${cs.total} clauses a check ran on and passed or failed. ${
    unchecked.length ? `It says nothing about the ${unchecked.length} below.` : 'Every clause was checked.'
  } <b>Core</b> is every MUST clause a check can prove without the control API; <b>Extended</b> every MUST clause only a check through it can prove. Each clause counts in one of them and is judged by every check of the run that names it. Each is INCOMPLETE when some of its MUST clauses were skipped, errored or not covered. PROFILE readings and SHOULD warnings count only in the overall verdict; the ${cs.unobservable ?? 0} clauses no request can observe from outside are counted apart, below, never as skipped.</p>
  ${uncheckedGroups
    .map(
      ([v, xs]) =>
        // A long list starts closed so it does not bury the sections below it.
        `<details class="unchecked"${xs.length <= 30 ? ' open' : ''}><summary>${e(v === 'not-covered' ? 'Not covered' : v === 'skip' ? 'Skipped' : 'Errored')} (${xs.length})</summary><table class="tbl"><thead><tr><th>Clause</th><th>Level</th><th>Why</th></tr></thead><tbody>${xs
          .map((cl) => `<tr><td><a href="#${e(ctx.clauseAnchor.get(cl.id))}"><code>${e(cl.id)}</code></a></td><td>${levelBadge(cl.level)}</td><td>${e(uncheckedReason(cl))}</td></tr>`)
          .join('')}</tbody></table></details>`,
    )
    .join('\n')}
</section>`;
}

/** Why a clause went unchecked, in a few words. */
function uncheckedReason(cl: ClauseResult): string {
  return cl.verdict === 'not-covered'
    ? (cl.unobservable ? `not observable from outside: ${cl.unobservable}` : 'no check proves this clause yet')
    : cl.verdict === 'error'
      ? `a check errored: ${cl.checks.find((x) => x.verdict === 'error')?.message ?? ''}`
      : (cl.checks.find((x) => x.message)?.message ?? 'skipped');
}

/** Skips grouped by reason, most common first: one missing profile field often skips dozens of checks. */
function skipsSection(r: Results): string {
  const skips = r.checks.filter((c) => c.verdict === 'skip');
  if (!skips.length) return '';
  const skipGroups = [...groupBy(skips, (c) => c.message ?? '(no reason given)').entries()].sort((a, b) => b[1].length - a[1].length);
  return `<details class="card skips"><summary>Skipped checks by reason (${skips.length})</summary><table class="tbl"><thead><tr><th>Reason</th><th class="num">Checks</th><th>Examples</th></tr></thead><tbody>${skipGroups
    .map(
      ([reason, xs]) =>
        `<tr><td>${e(reason)}</td><td class="num">${xs.length}</td><td>${xs
          .slice(0, 5)
          .map((c) => `<code>${e(c.id)}</code>`)
          .join(' ')}${xs.length > 5 ? ` and ${xs.length - 5} more` : ''}</td></tr>`,
    )
    .join('')}</tbody></table></details>`;
}

/** The reference mutants this selection misses, each with the cheapest checks that would kill it: how to buy more detection. */
function detectionSection(r: Results): string {
  if (!r.detection?.missed.length) return '';
  return `<details class="card mutation"><summary>Detection power: ${r.detection.killed}/${r.detection.total} reference mutants killed by ${e(r.detection.basis ?? "this run's checks (kill matrix)")}; ${r.detection.missed.length} missed${
    r.predictedDetection && r.predictedDetection.killed !== r.detection.killed ? ` (the plan predicted ${r.predictedDetection.killed} killed)` : ''
  }</summary><table class="tbl"><thead><tr><th>Mutant missed</th><th>Checks that would kill it (cheapest first)</th></tr></thead><tbody>${r.detection.missed
    .map((m) => `<tr><td><code>${e(m.mutant)}</code></td><td>${m.killers.length ? m.killers.map((k) => `<code>${e(k.check)}</code> ~${k.requests} requests${k.depth === 'full' || k.depth === 'default' ? ` (${k.depth})` : ''}`).join('<br>') : 'no killer runs on this profile'}</td></tr>`)
    .join('')}</tbody></table></details>`;
}

/** The mutation run, mutant by mutant: evidence the suite can fail. */
function mutationSection(r: Results): string {
  if (!r.mutation) return '';
  return `<details class="card mutation"><summary>Mutation run: ${e(percent(r.mutation.score))} (${r.mutation.killed}/${r.mutation.total} killed)${r.mutation.survivors.length ? `, ${r.mutation.survivors.length} survived` : ''}</summary><table class="tbl"><thead><tr><th>Mutant</th><th>Clauses</th><th>Result</th><th>Killed by</th></tr></thead><tbody>${r.mutation.mutants
    .map(
      (m) =>
        `<tr><td><code>${e(m.id)}</code></td><td>${m.clauses.map((c) => `<code>${e(c)}</code>`).join(' ')}</td><td>${m.killed ? '<span class="pill v-pass">killed</span>' : '<span class="pill v-fail">survived</span>'}</td><td>${m.killedBy
          .slice(0, 4)
          .map((c) => `<code>${e(c)}</code>`)
          .join(' ')}${m.killedBy.length > 4 ? ` and ${m.killedBy.length - 4} more` : ''}</td></tr>`,
    )
    .join('')}</tbody></table></details>`;
}

/** Inconsistencies in the inputs (results.warnings): shown so a report built from odd input says so. */
function warningsSection(r: Results): string {
  return r.warnings.length
    ? `<details class="card report-warnings"><summary>Report warnings (${r.warnings.length})</summary><ul>${r.warnings.map((w) => `<li>${e(w)}</li>`).join('')}</ul></details>`
    : '';
}

type SectionGroup = [section: string, clauses: ClauseResult[]];

/** The clauses grouped by spec section, sections in the spec's order. */
function clausesBySection(r: Results): SectionGroup[] {
  return [...groupBy(r.clauses, (c) => c.section).entries()].sort(([a], [b]) => compareSections(a, b));
}

/** One row per section with its bad and uncovered counts: where to look first. */
function sectionsToc(sections: SectionGroup[]): string {
  const rows = sections
    .map(([sec, cls]) => {
      const bad = cls.filter((c) => c.verdict === 'fail' || c.verdict === 'error').length;
      const nc = cls.filter((c) => c.verdict === 'not-covered').length;
      return `<tr><td><a href="#sec-${e(sec)}">${e(sec)}</a></td><td><a href="#sec-${e(sec)}">${e(sectionTitle(sec))}</a></td><td class="num">${cls.length}</td><td class="num ${bad ? 'n-bad' : ''}">${bad}</td><td class="num">${nc}</td><td>${bar(cls)}</td></tr>`;
    })
    .join('\n');
  return `<section class="card toc" id="sections"><h2>Spec sections</h2>
    <table class="tbl"><thead><tr><th>§</th><th>Section</th><th class="num">Clauses</th><th class="num">Failed</th><th class="num">Not covered</th><th>Verdicts</th></tr></thead><tbody>${rows}</tbody></table>
    <div class="legend">${BAR_ORDER.map((v) => `<span><i class="b-${v}"></i>${VERDICT_LABEL[v]}</span>`).join('')}</div>
  </section>`;
}

/** The filter buttons and search box; the inline script reads them (and the clauses' data- attributes), never run data. */
function clauseToolbar(r: Results): string {
  const cs = r.clauseSummary;
  return `<div class="toolbar" role="toolbar">
    <div class="filters">
      <button type="button" data-filter="all" class="active">All clauses <b>${cs.total}</b></button>
      <button type="button" data-filter="failed">Failed <b>${cs.fail + cs.error}</b></button>
      <button type="button" data-filter="not-covered">Not covered <b>${cs.notCovered}</b></button>
      <button type="button" data-filter="skip">Skipped <b>${cs.skip}</b></button>
      <button type="button" data-filter="profile">Profile <b>${r.clauses.filter((c) => c.level === 'PROFILE').length}</b></button>
    </div>
    <input type="search" id="q" placeholder="Filter by clause id, check id or text" aria-label="Filter clauses">
    <span id="shown" class="muted"></span>
  </div>`;
}

function specSections(sections: SectionGroup[], ctx: Ctx): string {
  return sections
    .map(([sec, cls]) => {
      const title = sectionTitle(sec);
      return `<section class="spec-section" id="sec-${e(sec)}">
  <h2><span class="sec-num">${e(sec)}</span> ${e(title)} <span class="sec-count">${cls.length} clause${cls.length === 1 ? '' : 's'}</span>${bar(cls)}</h2>
  ${cls.map((c) => clauseBlock(c, ctx)).join('\n')}
</section>`;
    })
    .join('\n');
}

/** Checks that name no catalogued clause would appear under no section: they get one of their own, filtered like a clause. */
function orphansSection(ctx: Ctx): string {
  const r = ctx.results;
  const catalog = new Set(r.clauses.map((c) => c.id));
  const orphans = r.checks.filter((c) => !c.clauses.some((id) => catalog.has(id)));
  return orphans.length
    ? `<section class="spec-section" id="sec-orphans"><h2>Checks that name no catalogued clause <span class="sec-count">${orphans.length}</span></h2>
  <article class="clause" data-verdict="${e(orphans.some((c) => c.verdict === 'fail' || c.verdict === 'error') ? 'fail' : 'pass')}" data-level="MUST" data-search="${e(orphans.map((c) => c.id).join(' ').toLowerCase())}"><ul class="checks">${orphans
    .map((c) => checkRow(c, ctx, c.verdict === 'fail' || c.verdict === 'error'))
    .join('')}</ul></article></section>`
    : '';
}

/** What the planned time rested on: this target's earlier runs, a first look at it, or the reference's measured durations (a prediction either way). */
function plannedFrom(r: Pick<Results, 'stats'>): string {
  const pace = r.stats.estimate?.basis.pace;
  if (!r.stats.estimate) return '';
  if (pace?.firstLook) return ` (at this target's pace as a first look at it showed: a prediction${r.stats.estimate.beforeFirstLookMs !== undefined ? `, ${(r.stats.estimate.beforeFirstLookMs / 1000).toFixed(1)} s from the reference's durations before it` : ''})`;
  return pace ? ` (at this target's pace in ${pace.runs.length} earlier run${pace.runs.length === 1 ? '' : 's'})` : " (from the reference's durations)";
}
