// compare.html: the report of one regression comparison, ONE self-contained page in the style of
// load.html (its CSS, tiles and figures): inline SVG, no script, no external resource. Per metric
// the paired ratios head/base plotted with their median, confidence interval and threshold, the
// p-values and the verdict; then every run and the environment. Everything from the run is escaped.

import { pageHead } from '../../report/page.ts';
import { escapeHtml as e } from '../../report/text.ts';
import { explainVerdict, fmtRatio, thresholdRatio, type CompareReport, type MetricResult } from './metrics.ts';
import type { SideInfo } from './sides.ts';
import { CSS, figure, formatLatency, tile } from '../report/html.ts';
import { chart, legend, noData, type Rule } from '../report/svg.ts';

const COLORS = { ratio: '#0969da', median: '#0969da', ci: '#8250df', threshold: '#cf222e', one: '#6e7781' };

const fin = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function value(v: number | null | undefined, unit: string): string {
  if (!fin(v)) return '–';
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : unit === '' ? 3 : 2;
  return `${v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}${unit ? ` ${unit}` : ''}`;
}

const median = (xs: (number | null)[]) => {
  const s = xs.filter(fin).sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : null;
};

function pill(verdict: MetricResult['verdict']): string {
  const cls = verdict === 'fail' ? 'v-fail' : verdict === 'warn' ? 'v-warn' : verdict === 'pass' ? 'v-pass' : 'v-none';
  return `<span class="pill ${cls}">${e(verdict.toUpperCase())}</span>`;
}

function sideText(s: SideInfo): string {
  const bits = [`<code>${e(s.given)}</code> (${e(s.kind === 'rev' ? 'git revision' : s.kind === 'this' ? 'this checkout' : s.kind === 'dir' ? 'checkout' : 'running target')})`];
  if (s.commit) bits.push(`commit <code>${e(s.commit.slice(0, 12))}</code>`);
  bits.push(`at <code>${e(s.baseUrl)}</code>`);
  bits.push(`CPU: ${e(s.cpu)}`);
  if (s.slowdown) bits.push(`<strong>slowed on purpose by ${e(String(Math.round(s.slowdown * 100)))} % CPU per request</strong>`);
  return bits.join(' · ');
}

function header(r: CompareReport): string {
  const env = r.environment;
  const v = r.verdict;
  const counts = (['fail', 'warn', 'pass', 'inconclusive', 'unmeasured'] as const).map((k) => [k, r.metrics.filter((m) => m.verdict === k).length] as const).filter(([, n]) => n > 0);
  const meta: [string, string][] = [
    ['Base', sideText(r.base)],
    ['Head', sideText(r.head)],
    ['Run', `<code>${e(r.runId)}</code>`],
    ['Started', `${e(r.startedAt)} · finished ${e(r.finishedAt)}`],
    ['Design', e(`${r.settings.pairs} pairs, ${r.settings.order}; each run: ${Object.entries(r.settings.run).map(([k, x]) => `${k} ${x}`).join(', ')}; alpha ${r.settings.alpha}, seed ${r.settings.seed}`)],
    ['Machine', e(`${env.cpu} × ${env.cpus} · ${env.os} · Node ${env.node}`)],
    ['Kit', e(env.kit)],
    ['Profile', `sha256 <code class="sha">${e(env.profileHash)}</code>`],
  ];
  const undecided = v === 'inconclusive' ? ` No metric could decide: with ${r.settings.pairs} pairs no one-sided test can reach alpha ${r.settings.alpha}, so none could fail; ${r.pairsNeeded} pairs can.` : '';
  return `<header class="top v-${e(v)}">
  <div class="wrap">
    <div class="brand">outreach-conformance <span>regression compare</span></div>
    <div class="h-row"><h1>Compare: ${e(r.mode)} <small>head against base, paired runs</small></h1><div class="verdict v-${v}">${e(v.toUpperCase())}</div></div>
    <div class="headline">${e(counts.map(([k, n]) => `${n} metric${n === 1 ? '' : 's'} ${k}`).join(', '))}. A metric fails only when its median ratio is past its threshold and the one-sided test is significant; one of the two alone warns.${e(undecided)}</div>
    <dl class="meta">${meta.map(([k, val]) => `<div><dt>${e(k)}</dt><dd>${val}</dd></div>`).join('')}</dl>
  </div>
</header>`;
}

function summaryTable(r: CompareReport): string {
  const rows = r.metrics.map(
    (m) => `<tr class="${m.verdict === 'fail' ? 'row-bad' : ''}"><td><a href="#m-${e(m.id)}">${e(m.label)}</a></td><td>${e(m.better)} is better</td>
<td class="num">${e(value(median(m.base), m.unit))}</td><td class="num">${e(value(median(m.head), m.unit))}</td>
<td class="num"><b>${e(fmtRatio(m.medianRatio))}</b></td><td class="num">${m.ci ? e(`${fmtRatio(m.ci.low)} – ${fmtRatio(m.ci.high)}`) : '–'}</td>
<td class="num">${fin(m.pValue) ? e(m.pValue.toFixed(4)) : '–'}</td><td class="num">${fin(m.signTestP) ? e(m.signTestP.toFixed(4)) : '–'}</td>
<td class="num">${e(`${Math.round(m.threshold * 100)} % (${fmtRatio(thresholdRatio(m))})`)}</td><td>${pill(m.verdict)}</td></tr>`,
  );
  return `<section class="card"><h2>Metrics</h2>
<table class="tbl"><thead><tr><th>metric</th><th>direction</th><th class="num">base (median)</th><th class="num">head (median)</th><th class="num">median ratio head/base</th><th class="num">95 % bootstrap CI</th><th class="num">Wilcoxon p</th><th class="num">sign test p</th><th class="num">threshold</th><th>verdict</th></tr></thead>
<tbody>${rows.join('')}</tbody></table>
<p class="note">p-values are exact and one-sided, in the direction that makes the metric worse; the verdict uses the Wilcoxon signed-rank test on the log ratios (alpha ${e(String(r.settings.alpha))}); the sign test is shown beside it. With n pairs the smallest p-value is 2<sup>−n</sup>: ${r.settings.pairs} pairs can reach ${e((2 ** -r.settings.pairs).toFixed(4))}; alpha ${e(String(r.settings.alpha))} needs ${e(String(r.pairsNeeded))} pairs or more, and a metric judged on fewer is inconclusive.</p></section>`;
}

function metricFigure(m: MetricResult, alpha: number): string {
  const caption = `${m.about}. ${explainVerdict(m, alpha)}.`;
  if (!m.ratios.length) return figure(`m-${m.id}`, m.label, caption, noData(m.note ?? 'not measured on both sides'));
  const dots = m.ratios.map((y, i) => ({ x: i + 1, y, title: `pair ${i + 1}: ${fmtRatio(y)} (base ${value(m.base[i], m.unit)}, head ${value(m.head[i], m.unit)})` }));
  const hrules: Rule[] = [
    { at: 1, color: COLORS.one, label: 'no change 1.000', dash: '2 3' },
    { at: thresholdRatio(m), color: COLORS.threshold, label: `threshold ${fmtRatio(thresholdRatio(m))}`, dash: '6 4' },
    ...(fin(m.medianRatio) ? [{ at: m.medianRatio, color: COLORS.median, label: `median ${fmtRatio(m.medianRatio)}` }] : []),
    ...(m.ci ? [{ at: m.ci.low, color: COLORS.ci, dash: '3 3' }, { at: m.ci.high, color: COLORS.ci, label: `95 % CI ${fmtRatio(m.ci.low)} – ${fmtRatio(m.ci.high)}`, dash: '3 3' }] : []),
  ];
  // rules at one height (a median of exactly 1, an interval of one value) share one label
  for (const [i, r] of hrules.entries())
    for (const later of hrules.slice(i + 1))
      if (r.label && later.label && Math.abs(later.at - r.at) < 1e-9) {
        r.label = `${r.label} · ${later.label}`;
        later.label = undefined;
      }
  const ys = [...m.ratios, ...hrules.map((h) => h.at)];
  const span = Math.max(...ys) - Math.min(...ys) || 0.1;
  const svg = chart({
    title: `${m.label}: ratio head/base per pair`,
    height: 260,
    x: { label: 'pair', min: 0.5, max: m.ratios.length + 0.5, ticks: m.ratios.map((_, i) => ({ value: i + 1, label: String(i + 1) })) },
    y: { label: 'ratio head/base', min: Math.max(0, Math.min(...ys) - span * 0.15), max: Math.max(...ys) + span * 0.15 },
    lines: [{ color: COLORS.ratio, points: [], dots }],
    hrules,
    ruleLabels: 'margin',
  });
  const lg = legend([
    { label: 'ratio of one pair', color: COLORS.ratio, kind: 'dot' },
    { label: 'median ratio', color: COLORS.median },
    { label: '95 % bootstrap interval of the median', color: COLORS.ci, kind: 'dash' },
    { label: `threshold (${m.better} is better)`, color: COLORS.threshold, kind: 'dash' },
  ]);
  const tiles = `<div class="tiles">${tile('median ratio', e(fmtRatio(m.medianRatio)), m.verdict === 'fail' ? 't-bad' : m.verdict === 'warn' ? 't-warn' : 't-zero', e(`${m.better} is better`))}${tile('Wilcoxon p', fin(m.pValue) ? e(m.pValue.toFixed(4)) : '–', m.significant ? 't-warn' : 't-zero', e(`sign test ${fin(m.signTestP) ? m.signTestP.toFixed(4) : '–'}`))}${tile('verdict', pill(m.verdict), 't-count', e(`threshold ${Math.round(m.threshold * 100)} %`))}</div>`;
  return figure(`m-${m.id}`, m.label, caption, tiles + svg, lg);
}

function runsTable(r: CompareReport): string {
  const row = (label: string, side: string, f: CompareReport['runs'][number]['figures']) =>
    `<tr><td>${e(label)}</td><td>${e(side)}</td><td class="num">${e(f.requests.toLocaleString('en-US'))}</td><td class="num">${e(f.errors.toLocaleString('en-US'))}</td><td class="num">${e(`${Math.round(f.wallMs)} ms`)}</td><td class="num">${e(value(f.throughput, '/s'))}</td><td class="num">${e(formatLatency(f.p50))}</td><td class="num">${e(formatLatency(f.p99))}</td><td class="num">${e(value(f.cpuPerRequestUs, 'µs'))}</td><td class="num">${fin(f.achieved) ? e(f.achieved.toFixed(3)) : '–'}</td><td>${f.cut ? 'cut at its time bound' : ''}</td></tr>`;
  const rows = [row('warm-up (not counted)', 'base', r.warmup.base), row('warm-up (not counted)', 'head', r.warmup.head), ...r.runs.map((x) => row(`pair ${x.pair}, ${x.position === 1 ? 'first' : 'second'}`, x.side, x.figures))];
  return `<section class="card"><h2>Runs, in the order they ran</h2>
<table class="tbl"><thead><tr><th>run</th><th>side</th><th class="num">${r.mode === 'sendpath' ? 'emails' : 'requests'}</th><th class="num">errors</th><th class="num">wall</th><th class="num">throughput</th><th class="num">p50</th><th class="num">p99</th><th class="num">CPU per ${r.mode === 'sendpath' ? 'email' : 'request'}</th><th class="num">achieved/ideal</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

export function renderCompareHtml(r: CompareReport): string {
  const notes = r.notes.filter((n) => n.trim());
  return `${pageHead(`Compare report: ${r.verdict.toUpperCase()} · ${r.mode} · ${r.base.given} → ${r.head.given}`, CSS + EXTRA_CSS)}
${header(r)}
<div class="wrap">
  ${notes.length ? `<section class="card notes"><h2>About this comparison</h2><ul>${notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul></section>` : ''}
  ${summaryTable(r)}
  <section id="plots"><h2>Paired ratios, metric by metric</h2>
  ${r.metrics.map((m) => metricFigure(m, r.settings.alpha)).join('\n')}
  </section>
  ${runsTable(r)}
  <footer>Generated by outreach-conformance ${e(r.environment.kit)} from <code>compare.json</code>. Hover a point for its pair. Secrets are redacted.</footer>
</div>
</body>
</html>
`;
}

const EXTRA_CSS = `
header.top.v-warn{border-bottom-color:#d4a72c}.verdict.v-warn{background:#9a6700}
header.top.v-inconclusive{border-bottom-color:#6e7781}.verdict.v-inconclusive{background:#424a53}
.v-warn.pill{background:var(--warn-bg);color:var(--warn)}.v-none.pill{background:#eef1f4;color:#424a53}
`;
