// report.html: the certification report, ONE self-contained file (inline CSS and a little inline
// JS, no external assets). Every piece of run data is HTML-escaped; the only <script> element is
// ours and contains no run data.

import type { ExchangeEvent, Outcome, RunEvent } from '../ground/events.ts';
import { sectionTitle } from './sections.ts';
import { compareSections, evidenceFor, exchangesByCheck, exchangesById, STALE_ADVICE, type CheckResult, type ClauseResult, type Results } from './results.ts';
import { curlEnvVars, escapeHtml as e, formatMs, groupBy, headerValue, percent, prettyBody, truncate } from './text.ts';
import { coverageText, headline, TIER_LABEL, tierText } from './summary.ts';

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

function failureCard(c: CheckResult, ctx: Ctx): string {
  const ev = evidenceFor(c, ctx.byId, ctx.byCheck);
  const clauseLinks = c.clauses
    .map((id) => (ctx.clauseAnchor.has(id) ? `<a href="#${e(ctx.clauseAnchor.get(id))}"><code>${e(id)}</code></a>` : `<code>${e(id)}</code>`))
    .join(' ');
  return `<article class="failure card ${c.blocking ? 'blocking' : 'nonblocking'}" id="${e(ctx.checkAnchor.get(c.id))}" data-verdict="${e(c.verdict)}" data-level="${e(c.level)}">
  <div class="f-head">${pill(c.verdict, c.blocking, c.level, !!c.known)} ${levelBadge(c.level)} <code class="check-id">${e(c.id)}</code><span class="dur">${e(formatMs(c.durationMs))} · ${c.requests} req</span></div>
  <div class="f-title">${e(c.title)}</div>
  <div class="f-clauses">Clauses: ${clauseLinks || '<em>none</em>'}</div>
  <pre class="f-msg">${e(c.message ?? '(no message)')}</pre>
  ${c.baselineExpired ? `<p class="expired-note">The baseline entry for this check expired on ${e(c.baselineExpired.expires)}: it no longer hides this failure (it was known because: ${e(c.baselineExpired.reason)}).</p>` : ''}
  ${
    ev.exchanges.length
      ? `<details class="evidence" open><summary>${ev.fallback ? 'Last request of the check (it named no evidence)' : `Evidence (${ev.exchanges.length} exchange${ev.exchanges.length === 1 ? '' : 's'})`}</summary>${ev.exchanges.map(exchangeBlock).join('\n')}</details>`
      : `<p class="muted">No exchange recorded for this check.</p>`
  }
</article>`;
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

function clauseBlock(cl: ClauseResult, ctx: Ctx): string {
  const checks = cl.checks.map((x) => ctx.checks.get(x.id)).filter((x): x is CheckResult => !!x);
  const important = checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error' || (cl.verdict === 'skip' && c.verdict === 'skip'));
  const others = checks.filter((c) => !important.includes(c));
  const counts = [...groupBy(checks, (c) => c.verdict).entries()].map(([v, xs]) => `${xs.length} ${v}`).join(', ');
  const search = `${cl.id} ${cl.text} ${checks.map((c) => c.id).join(' ')}`.toLowerCase();
  const shown = others.slice(0, MAX_OTHER_CHECKS);
  return `<article class="clause v-${e(cl.verdict)}${cl.known ? ' is-known' : cl.verdict === 'fail' && !cl.blocking ? ' is-warn' : ''}" id="${e(ctx.clauseAnchor.get(cl.id))}" data-verdict="${e(cl.verdict)}" data-level="${e(cl.level)}" data-blocking="${cl.blocking}" data-search="${e(search)}">
  <div class="cl-head">${levelBadge(cl.level)}<code class="clause-id">${e(cl.id)}</code>${pill(cl.verdict, cl.blocking || cl.level !== 'SHOULD', cl.level, !!cl.known)}<span class="cl-counts">${checks.length ? `${checks.length} check${checks.length === 1 ? '' : 's'}: ${e(counts)}` : cl.unobservable ? `not observable from outside: ${e(cl.unobservable)}` : 'no check proves this clause'}</span></div>
  <p class="cl-text">${e(cl.text)}</p>
  ${important.length ? `<ul class="checks">${important.map((c) => checkRow(c, ctx, true)).join('')}</ul>` : ''}
  ${
    others.length
      ? `<details class="more"><summary>${important.length ? `${others.length} other check${others.length === 1 ? '' : 's'}` : `${others.length} check${others.length === 1 ? '' : 's'}`}</summary><ul class="checks">${shown.map((c) => checkRow(c, ctx, false)).join('')}${others.length > shown.length ? `<li class="muted">and ${others.length - shown.length} more</li>` : ''}</ul></details>`
      : ''
  }
</article>`;
}

function bar(xs: { verdict: Outcome; blocking?: boolean; level?: string }[]): string {
  const total = xs.length || 1;
  const order: (Outcome | 'warn')[] = ['error', 'fail', 'warn', 'pass', 'skip', 'not-covered'];
  const by = groupBy(xs, (x) => ((x.verdict === 'fail' || x.verdict === 'error') && x.blocking === false && x.level === 'SHOULD' ? 'warn' : x.verdict));
  return `<span class="bar">${order
    .map((v) => {
      const n = by.get(v)?.length ?? 0;
      return n ? `<span class="b-${v}" style="width:${((n / total) * 100).toFixed(2)}%" title="${n} ${VERDICT_LABEL[v]}"></span>` : '';
    })
    .join('')}</span>`;
}

function tile(label: string, value: string, cls: string, sub = ''): string {
  return `<div class="tile ${cls}"><div class="t-value">${value}</div><div class="t-label">${label}</div>${sub ? `<div class="t-sub">${sub}</div>` : ''}</div>`;
}

export function buildHtml(results: Results, events: RunEvent[]): string {
  const r = results;
  const ctx: Ctx = {
    results: r,
    byId: exchangesById(events),
    byCheck: exchangesByCheck(events),
    checkAnchor: anchors(r.checks.map((c) => c.id), 'check'),
    clauseAnchor: anchors(r.clauses.map((c) => c.id), 'clause'),
    checks: new Map(r.checks.map((c) => [c.id, c])),
  };
  const h = headline(r);
  const s = r.summary;
  const cs = r.clauseSummary;
  const verdictCls = r.verdict === 'pass' ? (r.complete ? (s.warnings ? 'pass warnings' : 'pass') : 'incomplete') : r.verdict;

  const tiles = [
    tile('Verdict', e(r.verdict === 'pass' && r.complete ? 'PASS' : r.verdict === 'pass' ? 'INCOMPLETE' : r.verdict.toUpperCase()), `t-verdict t-${verdictCls.split(' ')[0]}`, s.warnings && r.verdict === 'pass' ? 'with SHOULD warnings' : ''),
    tile('Checks passed', `${s.pass}<small>/${s.total}</small>`, 't-pass'),
    tile('Failed (blocking)', String(r.checks.filter((c) => c.blocking && c.verdict === 'fail').length), s.mustFailures ? 't-fail' : 't-zero'),
    tile('Errors', String(s.error), s.error ? 't-error' : 't-zero'),
    tile('SHOULD warnings', String(s.warnings), s.warnings ? 't-warn' : 't-zero'),
    ...(r.baseline ? [tile('Known failures', String(s.known), s.known ? 't-known' : 't-zero', s.stale ? `${s.stale} stale entr${s.stale === 1 ? 'y' : 'ies'}` : s.expired ? `${s.expired} expired` : '')] : []),
    tile('Skipped', String(s.skip), 't-skip', s.notRun ? `${s.notRun} not run at this depth` : ''),
    tile('Clauses checked', `${cs.covered}<small>/${cs.total}</small>`, 't-cover', [cs.notCovered ? `${cs.notCovered} not covered` : '', cs.skip ? `${cs.skip} skipped` : '', cs.error ? `${cs.error} errored` : ''].filter(Boolean).join(', ')),
  ];
  if (r.profileGaps?.clauses) {
    tiles.push(tile('Undeclared in the profile', `${r.profileGaps.clauses}<small> clauses</small>`, 't-skip', e(r.profileGaps.fields.slice(0, 3).map((f) => f.field).join(', ') + (r.profileGaps.fields.length > 3 ? ', ...' : ''))));
  }
  if (r.detection) {
    tiles.push(tile('Detection power', `${r.detection.killed}<small>/${r.detection.total}</small>`, 't-mutation', 'reference mutants this selection kills (kill matrix)'));
  }
  if (r.mutation) {
    tiles.push(tile('Mutation score', e(percent(r.mutation.score)), 't-mutation', `${r.mutation.killed}/${r.mutation.total} mutants killed: evidence the suite can fail`));
  }

  // Sections
  const sections = [...groupBy(r.clauses, (c) => c.section).entries()].sort(([a], [b]) => compareSections(a, b));
  const toc = sections
    .map(([sec, cls]) => {
      const bad = cls.filter((c) => c.verdict === 'fail' || c.verdict === 'error').length;
      const nc = cls.filter((c) => c.verdict === 'not-covered').length;
      return `<tr><td><a href="#sec-${e(sec)}">${e(sec)}</a></td><td><a href="#sec-${e(sec)}">${e(sectionTitle(sec))}</a></td><td class="num">${cls.length}</td><td class="num ${bad ? 'n-bad' : ''}">${bad}</td><td class="num">${nc}</td><td>${bar(cls)}</td></tr>`;
    })
    .join('\n');
  const sectionHtml = sections
    .map(([sec, cls]) => {
      const title = sectionTitle(sec);
      return `<section class="spec-section" id="sec-${e(sec)}">
  <h2><span class="sec-num">${e(sec)}</span> ${e(title)} <span class="sec-count">${cls.length} clause${cls.length === 1 ? '' : 's'}</span>${bar(cls)}</h2>
  ${cls.map((c) => clauseBlock(c, ctx)).join('\n')}
</section>`;
    })
    .join('\n');

  // Checks that name no catalogued clause
  const catalog = new Set(r.clauses.map((c) => c.id));
  const orphans = r.checks.filter((c) => !c.clauses.some((id) => catalog.has(id)));
  const orphanHtml = orphans.length
    ? `<section class="spec-section" id="sec-orphans"><h2>Checks that name no catalogued clause <span class="sec-count">${orphans.length}</span></h2>
  <article class="clause" data-verdict="${e(orphans.some((c) => c.verdict === 'fail' || c.verdict === 'error') ? 'fail' : 'pass')}" data-level="MUST" data-search="${e(orphans.map((c) => c.id).join(' ').toLowerCase())}"><ul class="checks">${orphans
    .map((c) => checkRow(c, ctx, c.verdict === 'fail' || c.verdict === 'error'))
    .join('')}</ul></article></section>`
    : '';

  const failures = [...r.checks.filter((c) => c.blocking), ...r.checks.filter((c) => !c.blocking && !c.known && (c.verdict === 'fail' || c.verdict === 'error'))];
  const stale = r.baseline?.entries.filter((x) => x.status === 'stale') ?? [];
  const staleHtml = stale
    .map(
      (x) => `<article class="failure card stale" id="${e(`stale-${x.check.replace(/[^A-Za-z0-9_-]+/g, '_')}`)}" data-verdict="fail">
  <div class="f-head"><span class="pill v-fail">stale baseline entry</span> <code class="check-id">${e(x.check)}</code></div>
  <pre class="f-msg">${e(`${x.check} passes now: ${STALE_ADVICE} ${r.baseline!.file}. This fails the run.`)}</pre>
  <p class="muted">It was listed because: ${e(x.reason)}${x.expires ? ` · until ${e(x.expires)}` : ''}</p>
</article>`,
    )
    .join('\n');
  const envVars = curlEnvVars(failures.flatMap((c) => evidenceFor(c, ctx.byId, ctx.byCheck).exchanges.map((x) => x.curl)));
  const envNote = envVars.length
    ? `<p class="env-note">The curl lines read credentials from the environment: set ${envVars.map((v) => `<code>${e(v)}</code>`).join(', ')} first (e.g. <code>export ${e(envVars[0])}=&#39;…&#39;</code>).</p>`
    : '';
  const failuresHtml =
    failures.length || stale.length
      ? `<section class="failures" id="failures"><h2>Failures and errors <span class="sec-count">${failures.length + stale.length}</span></h2>${envNote}${staleHtml}${failures.map((c) => failureCard(c, ctx)).join('\n')}</section>`
      : `<section class="failures" id="failures"><h2>Failures and errors</h2><p class="all-good">No check failed${s.known ? ` but the ${s.known} known one${s.known === 1 ? '' : 's'} below` : ''}${s.skip ? ` (${s.skip} skipped)` : ''}.</p></section>`;

  const known = r.checks.filter((c) => c.known);
  const otherEntries = r.baseline?.entries.filter((x) => x.status !== 'known' && x.status !== 'stale') ?? [];
  const knownHtml = r.baseline
    ? `<section class="card known" id="known"><h2>Known failures <span class="sec-count">baseline <code>${e(r.baseline.file)}</code>: ${r.baseline.entries.length} entr${r.baseline.entries.length === 1 ? 'y' : 'ies'}</span></h2>
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
  ${
    otherEntries.length
      ? `<table class="tbl"><thead><tr><th>Entry</th><th>What became of it</th><th>Known because</th></tr></thead><tbody>${otherEntries
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
          .join('')}</tbody></table>`
      : ''
  }
</section>`
    : '';

  const unchecked = r.clauses.filter((c) => c.verdict === 'not-covered' || c.verdict === 'skip' || c.verdict === 'error');
  const reasonOf = (cl: ClauseResult) =>
    cl.verdict === 'not-covered'
      ? (cl.unobservable ? `not observable from outside: ${cl.unobservable}` : 'no check proves this clause yet')
      : cl.verdict === 'error'
        ? `a check errored: ${cl.checks.find((x) => x.verdict === 'error')?.message ?? ''}`
        : (cl.checks.find((x) => x.message)?.message ?? 'skipped');
  const uncheckedGroups = (['not-covered', 'skip', 'error'] as const)
    .map((v) => [v, unchecked.filter((c) => c.verdict === v)] as const)
    .filter(([, xs]) => xs.length);
  const coverageHtml = `<section class="card coverage" id="coverage"><h2>What the verdict speaks for</h2>
  <p>The verdict speaks for the <b>${cs.covered}</b> of ${cs.total} clauses a check ran on and passed or failed. ${
    unchecked.length ? `It says nothing about the ${unchecked.length} below.` : 'Every clause was checked.'
  } <b>Core</b> is every MUST clause a check proves without the control API; <b>Extended</b> every MUST clause a check proves through it (a clause proven both ways counts in both, each by its own checks). Each is INCOMPLETE when some of its MUST clauses were skipped, errored or not covered. PROFILE readings and SHOULD warnings count only in the overall verdict; clauses no check can observe from outside are in neither.</p>
  ${uncheckedGroups
    .map(
      ([v, xs]) =>
        `<details class="unchecked"${xs.length <= 30 ? ' open' : ''}><summary>${e(v === 'not-covered' ? 'Not covered' : v === 'skip' ? 'Skipped' : 'Errored')} (${xs.length})</summary><table class="tbl"><thead><tr><th>Clause</th><th>Level</th><th>Why</th></tr></thead><tbody>${xs
          .map((cl) => `<tr><td><a href="#${e(ctx.clauseAnchor.get(cl.id))}"><code>${e(cl.id)}</code></a></td><td>${levelBadge(cl.level)}</td><td>${e(reasonOf(cl))}</td></tr>`)
          .join('')}</tbody></table></details>`,
    )
    .join('\n')}
</section>`;

  const skips = r.checks.filter((c) => c.verdict === 'skip');
  const skipGroups = [...groupBy(skips, (c) => c.message ?? '(no reason given)').entries()].sort((a, b) => b[1].length - a[1].length);
  const skipsHtml = skips.length
    ? `<details class="card skips"><summary>Skipped checks by reason (${skips.length})</summary><table class="tbl"><thead><tr><th>Reason</th><th class="num">Checks</th><th>Examples</th></tr></thead><tbody>${skipGroups
        .map(
          ([reason, xs]) =>
            `<tr><td>${e(reason)}</td><td class="num">${xs.length}</td><td>${xs
              .slice(0, 5)
              .map((c) => `<code>${e(c.id)}</code>`)
              .join(' ')}${xs.length > 5 ? ` and ${xs.length - 5} more` : ''}</td></tr>`,
        )
        .join('')}</tbody></table></details>`
    : '';

  const detectionHtml = r.detection?.missed.length
    ? `<details class="card mutation"><summary>Detection power: ${r.detection.killed}/${r.detection.total} reference mutants killed by this run's checks; ${r.detection.missed.length} missed</summary><table class="tbl"><thead><tr><th>Mutant missed</th><th>Checks that would kill it (cheapest first)</th></tr></thead><tbody>${r.detection.missed
        .map((m) => `<tr><td><code>${e(m.mutant)}</code></td><td>${m.killers.length ? m.killers.map((k) => `<code>${e(k.check)}</code> ~${k.requests} requests${k.depth === 'full' ? ' (full)' : ''}`).join('<br>') : 'no killer runs on this profile'}</td></tr>`)
        .join('')}</tbody></table></details>`
    : '';
  const mutationHtml = r.mutation
    ? `<details class="card mutation"><summary>Mutation run: ${e(percent(r.mutation.score))} (${r.mutation.killed}/${r.mutation.total} killed)${r.mutation.survivors.length ? `, ${r.mutation.survivors.length} survived` : ''}</summary><table class="tbl"><thead><tr><th>Mutant</th><th>Clauses</th><th>Result</th><th>Killed by</th></tr></thead><tbody>${r.mutation.mutants
        .map(
          (m) =>
            `<tr><td><code>${e(m.id)}</code></td><td>${m.clauses.map((c) => `<code>${e(c)}</code>`).join(' ')}</td><td>${m.killed ? '<span class="pill v-pass">killed</span>' : '<span class="pill v-fail">survived</span>'}</td><td>${m.killedBy
              .slice(0, 4)
              .map((c) => `<code>${e(c)}</code>`)
              .join(' ')}${m.killedBy.length > 4 ? ` and ${m.killedBy.length - 4} more` : ''}</td></tr>`,
        )
        .join('')}</tbody></table></details>`
    : '';

  const warningsHtml = r.warnings.length
    ? `<details class="card report-warnings"><summary>Report warnings (${r.warnings.length})</summary><ul>${r.warnings.map((w) => `<li>${e(w)}</li>`).join('')}</ul></details>`
    : '';

  const meta: [string, string][] = [
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
      `${r.stats.requests} requests${r.stats.plannedMs !== undefined ? ` · planned ${e(formatMs(r.stats.plannedMs))}` : ''}${r.stats.unplanned429 ? ` · <span class="n-bad">${r.stats.unplanned429} unplanned 429</span>` : ''}${r.stats.transportErrors ? ` · ${r.stats.transportErrors} transport errors` : ''}`,
    ],
    ['Started', e(r.startedAt)],
    ['Finished', `${e(r.finishedAt)} · ${e(formatMs(r.durationMs))}${r.complete ? '' : ' <span class="tag tag-bad">interrupted</span>'}`],
  ];

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${e(`Conformance report: ${r.verdict.toUpperCase()} · ${r.target.baseUrl}`)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="top v-${e(verdictCls.split(' ')[0])}">
  <div class="wrap">
    <div class="brand">${e(r.kit.name)} <span>certification report</span></div>
    <h1>Outreach API v1 conformance</h1>
    <div class="headline"><span class="hl-dot"></span><span id="verdict">${e(h.text).replace('see below', '<a href="#coverage">see below</a>')}</span></div>
    ${/^PASS for /.test(h.text) ? '' : `<div class="coverage-line">Clauses checked: ${e(coverageText(r)).replace('see below', '<a href="#coverage">see below</a>')}</div>`}
    <div class="tiers" id="tiers">${(['core', 'extended'] as const)
      .map((k) => `<div class="tier tv-${e(s[k].verdict)}" id="tier-${k}"><span class="tier-name">${e(TIER_LABEL[k].name)}</span> <span class="tier-text">${e(tierText(s[k]))}</span><div class="tier-what">${e(TIER_LABEL[k].what)}</div></div>`)
      .join('')}</div>
    <dl class="meta">${meta.map(([k, v]) => `<div><dt>${e(k)}</dt><dd>${v}</dd></div>`).join('')}</dl>
  </div>
</header>
<div class="wrap">
  <section class="tiles">${tiles.join('')}</section>
  ${failuresHtml}
  ${knownHtml}
  ${coverageHtml}
  ${skipsHtml}
  ${detectionHtml}
  ${mutationHtml}
  ${warningsHtml}
  <section class="card toc" id="sections"><h2>Spec sections</h2>
    <table class="tbl"><thead><tr><th>§</th><th>Section</th><th class="num">Clauses</th><th class="num">Failed</th><th class="num">Not covered</th><th>Verdicts</th></tr></thead><tbody>${toc}</tbody></table>
    <div class="legend">${(['error', 'fail', 'warn', 'pass', 'skip', 'not-covered'] as const).map((v) => `<span><i class="b-${v}"></i>${VERDICT_LABEL[v]}</span>`).join('')}</div>
  </section>
  <div class="toolbar" role="toolbar">
    <div class="filters">
      <button type="button" data-filter="all" class="active">All clauses <b>${cs.total}</b></button>
      <button type="button" data-filter="failed">Failed <b>${cs.fail + cs.error}</b></button>
      <button type="button" data-filter="not-covered">Not covered <b>${cs.notCovered}</b></button>
      <button type="button" data-filter="skip">Skipped <b>${cs.skip}</b></button>
      <button type="button" data-filter="profile">Profile <b>${r.clauses.filter((c) => c.level === 'PROFILE').length}</b></button>
    </div>
    <input type="search" id="q" placeholder="Filter by clause id, check id or text" aria-label="Filter clauses">
    <span id="shown" class="muted"></span>
  </div>
  <main id="clauses">
${sectionHtml}
${orphanHtml}
  </main>
  <footer>Generated by ${e(r.kit.name)} ${e(r.kit.version)} from the run's event stream. Secrets are redacted. Bodies longer than ${BODY_MAX_CHARS / 1024} KB are truncated here; <code>traffic.har</code> has every exchange.</footer>
</div>
<script>${JS}</script>
</body>
</html>
`;
}

const CSS = `
:root{--fg:#1c2330;--muted:#5d6b7e;--line:#dfe4ea;--bg:#f5f7fa;--card:#fff;--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--error:#8250df;--error-bg:#fbefff;--warn:#9a6700;--warn-bg:#fff8c5;--skip:#6e7781;--skip-bg:#eef1f4;--nc:#afb8c1;--accent:#0969da;--mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
html{scroll-behavior:smooth}
body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
code,pre{font-family:var(--mono);font-size:12.5px}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
.wrap{max-width:1180px;margin:0 auto;padding:0 24px}
.muted{color:var(--muted)}
header.top{background:#1f2937;color:#f3f4f6;padding:22px 0 18px;border-bottom:6px solid var(--nc)}
header.top.v-pass{border-bottom-color:var(--pass)}header.top.v-fail{border-bottom-color:var(--fail)}header.top.v-error{border-bottom-color:var(--error)}header.top.v-incomplete{border-bottom-color:var(--warn)}
.brand{font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:#9ca3af}.brand span{color:#d1d5db}
header h1{margin:4px 0 6px;font-size:24px;font-weight:600}
.headline{font-size:16px;font-weight:500;margin-bottom:14px;display:flex;align-items:center;gap:8px}.hl-dot{width:12px;height:12px;border-radius:50%;background:var(--nc);flex:none}.v-pass .hl-dot{background:#2da44e}.v-fail .hl-dot{background:#fa4549}.v-error .hl-dot{background:#a475f9}.v-incomplete .hl-dot{background:#d4a72c}
dl.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:6px 32px;margin:0}
dl.meta div{display:flex;gap:10px;min-width:0}dl.meta dt{color:#9ca3af;width:64px;flex:none}dl.meta dd{margin:0;min-width:0;overflow-wrap:anywhere}
dl.meta code{color:#fff;background:rgba(255,255,255,.08);padding:0 4px;border-radius:3px}dl.meta .muted{color:#9ca3af}.sha{font-size:11.5px;word-break:break-all}
.tag{display:inline-block;font-size:11px;padding:0 6px;border-radius:10px;background:rgba(255,255,255,.15)}.tag-bad{background:var(--fail);color:#fff}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(124px,1fr));gap:10px;margin:20px 0}
.tile{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px;border-top:4px solid var(--nc)}
.t-value{font-size:26px;font-weight:600;line-height:1.2}.t-value small{font-size:14px;color:var(--muted);font-weight:400}
.t-label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}.t-sub{font-size:12px;color:var(--muted);margin-top:4px}
.t-verdict.t-pass{border-top-color:var(--pass)}.t-verdict.t-pass .t-value{color:var(--pass)}.t-verdict.t-fail{border-top-color:var(--fail)}.t-verdict.t-fail .t-value{color:var(--fail)}.t-verdict.t-error .t-value{color:var(--error)}.t-verdict.t-error{border-top-color:var(--error)}.t-verdict.t-incomplete{border-top-color:var(--warn)}
.t-pass{border-top-color:var(--pass)}.t-fail{border-top-color:var(--fail)}.t-fail .t-value{color:var(--fail)}.t-error{border-top-color:var(--error)}.t-error .t-value{color:var(--error)}.t-warn{border-top-color:#d4a72c}.t-warn .t-value{color:var(--warn)}.t-skip{border-top-color:var(--skip)}.t-cover{border-top-color:var(--accent)}.t-mutation{border-top-color:#bf3989}.t-mutation .t-value{color:#bf3989}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:16px 0}
details.card>summary{cursor:pointer;font-weight:600}
h2{font-size:18px;margin:28px 0 12px;font-weight:600}.card h2{margin-top:0}
.sec-count{font-size:12px;color:var(--muted);font-weight:400;margin-left:8px}
.env-note{font-size:13px;color:var(--muted);margin:-4px 0 10px}.failures .all-good{background:var(--pass-bg);color:var(--pass);border-radius:8px;padding:12px 16px;margin:0}
.failure{border-left:4px solid var(--fail)}.failure.nonblocking{border-left-color:#d4a72c}.failure[data-verdict=error]{border-left-color:var(--error)}
.f-head{display:flex;align-items:center;gap:8px;flex-wrap:wrap}.check-id{font-weight:600;overflow-wrap:anywhere}.dur{margin-left:auto;color:var(--muted);font-size:12px}
.f-title{margin:6px 0 2px}.f-clauses{font-size:12.5px;color:var(--muted)}
pre.f-msg,pre.c-msg{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--fail-bg);border-radius:6px;padding:8px 12px;margin:8px 0;font-size:13px;color:#82071e}
li.v-skip pre.c-msg{background:var(--skip-bg);color:#424a53}li.v-error pre.c-msg{background:var(--error-bg);color:#512a97}.nonblocking pre.f-msg,li.nb.v-fail pre.c-msg{background:var(--warn-bg);color:#6a4a00}
[data-verdict=error] pre.f-msg{background:var(--error-bg);color:#512a97}
details.evidence>summary{cursor:pointer;color:var(--muted);font-size:13px;margin:6px 0}
.exchange{border:1px solid var(--line);border-radius:6px;margin:8px 0;overflow:hidden}
.x-line{background:#f6f8fa;padding:6px 10px;border-bottom:1px solid var(--line);display:flex;gap:8px;align-items:baseline;flex-wrap:wrap;font-family:var(--mono);font-size:12.5px}
.method{font-weight:700}.url{overflow-wrap:anywhere}.arrow{color:var(--muted)}.x-meta{margin-left:auto;color:var(--muted);font-size:11.5px}
.status{font-weight:700;padding:0 6px;border-radius:4px}.s-2xx{background:var(--pass-bg);color:var(--pass)}.s-3xx{background:#ddf4ff;color:var(--accent)}.s-4xx{background:var(--warn-bg);color:var(--warn)}.s-5xx,.s-err{background:var(--fail-bg);color:var(--fail)}
.x-grid{display:grid;grid-template-columns:1fr 1fr;gap:0}.x-grid>div{min-width:0}.x-grid>div+div{border-left:1px solid var(--line)}
@media (max-width:900px){.x-grid{grid-template-columns:1fr}.x-grid>div+div{border-left:0;border-top:1px solid var(--line)}}
.x-h{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);padding:6px 10px 0}
pre.msg{margin:0;padding:6px 10px 10px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:420px;overflow:auto}
.m-first{font-weight:700}.m-headers{color:var(--muted)}
.curl{position:relative;border-top:1px solid var(--line);background:#0d1117}
.curl pre{margin:0;padding:8px 70px 8px 10px;color:#e6edf3;white-space:pre-wrap;overflow-wrap:anywhere}
li .curl{border:1px solid var(--line);border-radius:6px;margin:6px 0}
button.copy{position:absolute;top:6px;right:6px;font-size:11px;padding:2px 8px;border-radius:4px;border:1px solid #30363d;background:#21262d;color:#e6edf3;cursor:pointer}button.copy:hover{background:#30363d}
.tbl{width:100%;border-collapse:collapse;font-size:13px}.tbl th.num{text-align:right}.tbl th{text-align:left;color:var(--muted);font-weight:500;border-bottom:1px solid var(--line);padding:6px 8px}.tbl td{border-bottom:1px solid #eef1f4;padding:5px 8px;vertical-align:top}.num{text-align:right;font-variant-numeric:tabular-nums}.n-bad{color:var(--fail);font-weight:600}
.bar{display:inline-flex;width:160px;height:8px;border-radius:4px;overflow:hidden;background:#eef1f4;vertical-align:middle}.bar span{display:block;height:100%}
h2 .bar{margin-left:12px;width:120px}
.b-pass{background:var(--pass)}.b-fail{background:var(--fail)}.b-error{background:var(--error)}.b-warn{background:#d4a72c}.b-skip{background:#8c959f}.b-not-covered{background:repeating-linear-gradient(45deg,#d0d7de 0 3px,#eef1f4 3px 6px)}
.legend{display:flex;gap:14px;flex-wrap:wrap;margin-top:10px;font-size:12px;color:var(--muted)}.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.toolbar{position:sticky;top:0;z-index:5;background:rgba(245,247,250,.96);backdrop-filter:blur(4px);border-bottom:1px solid var(--line);padding:10px 0;margin-top:24px;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
.filters{display:flex;gap:0;border:1px solid var(--line);border-radius:6px;overflow:hidden;background:#fff}
.filters button{border:0;border-right:1px solid var(--line);background:#fff;padding:6px 12px;font:inherit;font-size:13px;cursor:pointer;color:var(--fg)}.filters button:last-child{border-right:0}
.filters button b{font-weight:600;color:var(--muted);margin-left:4px}.filters button.active{background:var(--accent);color:#fff}.filters button.active b{color:#dbeafe}
#q{flex:1;min-width:220px;padding:6px 10px;border:1px solid var(--line);border-radius:6px;font:inherit;font-size:13px}
.spec-section h2{display:flex;align-items:center;border-bottom:2px solid var(--line);padding-bottom:6px}.sec-num{color:var(--muted);margin-right:8px;font-variant-numeric:tabular-nums}
.clause{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--nc);border-radius:6px;padding:10px 14px;margin:8px 0}
.clause.v-pass{border-left-color:var(--pass)}.clause.v-fail{border-left-color:var(--fail)}.clause.v-error{border-left-color:var(--error)}.clause.v-skip{border-left-color:#8c959f}.clause.v-not-covered{border-left-style:dashed;background:#fbfcfd}.clause.is-warn{border-left-color:#d4a72c}
.cl-head{display:flex;align-items:center;gap:8px;flex-wrap:wrap}.clause-id{font-weight:600}.cl-counts{margin-left:auto;color:var(--muted);font-size:12px}
.cl-text{margin:6px 0 0;color:#2f3b4c}
.lvl{font-size:10.5px;font-weight:700;letter-spacing:.04em;padding:1px 6px;border-radius:4px;border:1px solid}
.lvl-MUST{color:#0a3069;border-color:#54aeff;background:#ddf4ff}.lvl-SHOULD{color:#7d4e00;border-color:#d4a72c;background:#fff8c5}.lvl-PROFILE{color:#5e2db3;border-color:#c297ff;background:#fbefff}
.pill{font-size:11.5px;font-weight:600;padding:1px 8px;border-radius:10px;white-space:nowrap}
.v-known.pill{background:#ddf4ff;color:#0550ae;border:1px solid #54aeff}.clause.is-known{border-left-color:#54aeff}.t-known{border-top-color:#54aeff}
.known-note{margin:4px 0;font-size:13px;color:#0550ae}.expired-note{margin:6px 0;font-size:13px;color:var(--fail);font-weight:600}.failure.stale{border-left-color:var(--fail)}
.coverage-line{font-size:14px;color:#d1d5db;margin:-8px 0 12px}.headline a,.coverage-line a{color:#93c5fd}
.tiers{display:flex;gap:12px;flex-wrap:wrap;margin:0 0 14px}.tier{border:1px solid rgba(255,255,255,.2);border-left:5px solid var(--nc);border-radius:6px;padding:6px 12px;min-width:300px}
.tier.tv-pass{border-left-color:#2da44e}.tier.tv-fail{border-left-color:#fa4549}.tier.tv-incomplete{border-left-color:#d4a72c}.tier-name{font-weight:700}.tier-what{font-size:12px;color:#9ca3af}
.v-pass.pill{background:var(--pass-bg);color:var(--pass)}.v-fail.pill{background:var(--fail-bg);color:var(--fail)}.v-error.pill{background:var(--error-bg);color:var(--error)}.v-warn.pill{background:var(--warn-bg);color:var(--warn)}.v-skip.pill{background:var(--skip-bg);color:var(--skip)}.v-not-covered.pill{background:#fff;color:var(--skip);border:1px dashed var(--nc)}
ul.checks{list-style:none;margin:8px 0 0;padding:0}ul.checks li{padding:4px 0;border-top:1px solid #f0f2f5;overflow-wrap:anywhere}ul.checks li:first-child{border-top:0}
.c-title{color:var(--muted);font-size:13px}.ev-link{font-size:12.5px}
details.more>summary{cursor:pointer;color:var(--muted);font-size:12.5px;margin-top:6px}
.hidden{display:none!important}
footer{color:var(--muted);font-size:12px;padding:30px 0 40px;text-align:center}
@media print{.toolbar,button.copy{display:none}.clause,.card{break-inside:avoid}}
`;

// No run data in here: everything the script reads comes from data- attributes.
const JS = `
(function(){
  var filter='all', q='';
  var buttons=document.querySelectorAll('.filters button');
  var clauses=document.querySelectorAll('#clauses article.clause');
  var sections=document.querySelectorAll('#clauses section.spec-section');
  var shown=document.getElementById('shown');
  function match(el){
    var v=el.getAttribute('data-verdict'), l=el.getAttribute('data-level');
    if(filter==='failed'&&v!=='fail'&&v!=='error')return false;
    if(filter==='not-covered'&&v!=='not-covered')return false;
    if(filter==='skip'&&v!=='skip')return false;
    if(filter==='profile'&&l!=='PROFILE')return false;
    if(q&&(el.getAttribute('data-search')||'').indexOf(q)<0)return false;
    return true;
  }
  function apply(){
    var n=0;
    for(var i=0;i<clauses.length;i++){var ok=match(clauses[i]);clauses[i].classList.toggle('hidden',!ok);if(ok)n++;}
    for(var j=0;j<sections.length;j++){sections[j].classList.toggle('hidden',!sections[j].querySelector('article.clause:not(.hidden)'));}
    shown.textContent=(filter==='all'&&!q)?'':n+' shown';
  }
  for(var b=0;b<buttons.length;b++){buttons[b].addEventListener('click',function(ev){
    setFilter(ev.currentTarget.getAttribute('data-filter'));
    if(history.replaceState)history.replaceState(null,'',filter==='all'?location.pathname+location.search:'#filter='+filter);
  });}
  function setFilter(f){
    for(var k=0;k<buttons.length;k++)buttons[k].classList.toggle('active',buttons[k].getAttribute('data-filter')===f);
    filter=f;apply();
  }
  var m=/^#filter=([a-z-]+)$/.exec(location.hash);
  if(m&&document.querySelector('.filters button[data-filter="'+m[1]+'"]'))setFilter(m[1]);
  document.getElementById('q').addEventListener('input',function(ev){q=ev.target.value.trim().toLowerCase();apply();});
  document.addEventListener('click',function(ev){
    var t=ev.target; if(!t.classList||!t.classList.contains('copy'))return;
    var text=t.parentNode.querySelector('code').textContent;
    function done(){t.textContent='Copied';setTimeout(function(){t.textContent='Copy';},1500);}
    function fallback(){var ta=document.createElement('textarea');ta.value=text;document.body.appendChild(ta);ta.select();try{document.execCommand('copy');done();}catch(e){}document.body.removeChild(ta);}
    if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(text).then(done,fallback);}else{fallback();}
  });
  window.addEventListener('beforeprint',function(){var d=document.querySelectorAll('details');for(var i=0;i<d.length;i++)d[i].open=true;});
})();
`;
