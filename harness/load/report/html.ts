// load.html: the report of one load run (api, capacity or sendpath), ONE self-contained page:
// inline CSS and inline SVG, no script and no external resource. Everything taken from the run is
// HTML-escaped. Latencies are kept in microseconds (HDR histograms) and shown in milliseconds.

import { pageHead } from '../../report/page.ts';
import { escapeHtml as e } from '../../report/text.ts';
import { decode, percentile, type Histogram } from './histogram.ts';
import type { EndpointStats, LoadReport, SendpathStats, ShardStart, ThresholdResult, Violation } from './types.ts';
import { chart, legend, niceScale, noData, percentileTicks, percentileX, spectrumPercentiles, type Bar, type Band, type LineSeries, type Point, type Rule } from './svg.ts';

const COLORS = {
  corrected: '#0969da',
  service: '#8250df',
  p50: '#0969da',
  p99: '#d1242f',
  s429: '#d4a72c',
  s5xx: '#cf222e',
  intended: '#6e7781',
  achieved: '#1a7f37',
  cap: '#cf222e',
  quiet: '#8c959f',
  ok: '#57606a',
  bad: '#cf222e',
};
/** Colours of the per-mailbox lines: one each, so that the legend names every line by its colour. */
const PALETTE = [
  '#0969da', '#1a7f37', '#8250df', '#bf3989', '#9a6700', '#1b7c83', '#953800', '#4d2d8f', '#e16f24', '#116329',
  '#54aeff', '#4ac26b', '#c297ff', '#ff80c8', '#d4a72c', '#3cb0b8', '#a40e26', '#6e7781', '#0a3069', '#7d4e00',
];
/** Most mailboxes drawn one line each (as many as there are colours). */
export const MAX_MAILBOX_LINES = PALETTE.length;
const BODY_SNIPPET = 400;
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------- numbers and units

const fin = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function num(v: unknown, digits = 0): string {
  if (!fin(v)) return '–';
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function pct(part: number, whole: number): string {
  if (!fin(part) || !fin(whole) || whole <= 0) return '–';
  const p = (part / whole) * 100;
  return `${p === 0 ? '0' : p < 0.01 ? '<0.01' : p < 10 ? p.toFixed(2) : p.toFixed(1)}%`;
}

/** A latency given in µs, shown in ms with 3 significant digits (seconds past 10 s). */
export function formatLatency(us: number): string {
  if (!fin(us)) return '–';
  const ms = us / 1000;
  if (ms >= 10_000) return `${num(ms / 1000, 1)} s`;
  if (ms >= 100) return `${num(ms, 0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

interface Unit {
  /** milliseconds in one unit */
  ms: number;
  name: string;
}
const UNITS: Unit[] = [
  { ms: 1, name: 'ms' },
  { ms: 1000, name: 's' },
  { ms: 60_000, name: 'min' },
  { ms: 3_600_000, name: 'h' },
  { ms: DAY_MS, name: 'days' },
];
const unit = (name: string): Unit => UNITS.find((u) => u.name === name)!;

/** The unit of a time axis spanning `spanMs`. */
function timeUnit(spanMs: number): Unit {
  if (!(spanMs > 180_000)) return unit('s');
  if (spanMs <= 3 * 3_600_000) return unit('min');
  if (spanMs <= 3 * DAY_MS) return unit('h');
  return unit('days');
}

/** The unit of a latency axis whose largest value is `maxMs`. */
function latencyUnit(maxMs: number): Unit {
  if (!(maxMs >= 10_000)) return unit('ms');
  if (maxMs < 600_000) return unit('s');
  if (maxMs < 3 * 3_600_000) return unit('min');
  return unit('h');
}

function safeDecode(encoded: string | undefined): Histogram | undefined {
  if (!encoded) return undefined;
  try {
    return decode(encoded);
  } catch {
    return undefined;
  }
}

const hasSamples = (h: Histogram | undefined): h is Histogram => !!h && h.totalCount > 0;

/** "850 ms", "45 s", "2 min 30 s", "1 h 5 min" */
function formatDuration(ms: number): string {
  if (!fin(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${num(ms / 1000, ms % 1000 ? 1 : 0)} s`;
  if (ms < 3 * 3_600_000) {
    const m = Math.floor(ms / 60_000);
    const sec = Math.round((ms - m * 60_000) / 1000);
    return sec ? `${m} min ${sec} s` : `${m} min`;
  }
  const h = Math.floor(ms / 3_600_000);
  const m = Math.round((ms - h * 3_600_000) / 60_000);
  return m ? `${h} h ${m} min` : `${h} h`;
}

function duration(startedAt: string, finishedAt: string): string {
  const ms = Date.parse(finishedAt) - Date.parse(startedAt);
  return fin(ms) && ms >= 0 ? formatDuration(ms) : '';
}

/** "12 345 of sent. " style prefix, or nothing when the share is unknown. */
function share(part: number, whole: number, of: string): string {
  const p = pct(part, whole);
  return p === '–' ? '' : `${p} of ${of}`;
}

// ---------------------------------------------------------------- small HTML pieces

function statusClass(status: string): string {
  const n = Number(status);
  if (!fin(n) || n === 0) return 's-err';
  if (n < 300) return 's-2xx';
  if (n < 400) return 's-3xx';
  if (n === 429) return 's-429';
  if (n < 500) return 's-4xx';
  return 's-5xx';
}

function statusChips(status: Record<string, number> | undefined): string {
  const entries = Object.entries(status ?? {}).sort(([a], [b]) => Number(a) - Number(b));
  if (!entries.length) return '<span class="muted">none</span>';
  return entries
    .map(([s, n]) => `<span class="chip ${statusClass(s)}" title="${e(s === '0' ? 'network error or timeout' : `HTTP ${s}`)}"><b>${e(s === '0' ? 'network' : s)}</b> ${e(num(n))}</span>`)
    .join(' ');
}

export function tile(label: string, value: string, cls: string, sub = ''): string {
  return `<div class="tile ${cls}"><div class="t-value">${value}</div><div class="t-label">${e(label)}</div>${sub ? `<div class="t-sub">${sub}</div>` : ''}</div>`;
}

export function figure(id: string, title: string, caption: string, body: string, legendHtml = ''): string {
  return `<figure class="plot card" id="${e(id)}"><figcaption><h3>${e(title)}</h3><p class="how">${e(caption)}</p></figcaption>${legendHtml}${body}</figure>`;
}

// ---------------------------------------------------------------- header

const KIND_TEXT: Record<string, string> = {
  api: 'API load (open model: requests leave on a fixed schedule)',
  capacity: 'capacity search (closed model: a fixed number of connections)',
  sendpath: 'send path (mailboxes, daily caps and sending gaps)',
};

function verdictLine(r: LoadReport): string {
  const broken = r.thresholds.filter((t) => !t.ok).length;
  const counts = r.violationCounts ?? {};
  const nViol = Object.keys(counts).length ? Object.values(counts).reduce((a, b) => a + b, 0) : r.violations.length;
  const rules = new Set([...Object.keys(counts), ...r.violations.map((v) => v.rule)]).size;
  const parts: string[] = [];
  parts.push(nViol ? `${num(nViol)} violation${nViol === 1 ? '' : 's'} of ${rules} rule${rules === 1 ? '' : 's'}` : 'no violation');
  parts.push(r.thresholds.length ? (broken ? `${broken} of ${r.thresholds.length} thresholds broken` : `all ${r.thresholds.length} threshold${r.thresholds.length === 1 ? '' : 's'} held`) : 'no threshold given');
  return `${r.ok ? 'Pass' : 'Fail'}: ${parts.join(', ')}.`;
}

function planText(r: LoadReport): string {
  const p = r.plan;
  const bits: string[] = [];
  if (fin(p.rate)) bits.push(`${num(p.rate, p.rate % 1 ? 2 : 0)} req/s`);
  if (fin(p.connections)) bits.push(`${num(p.connections)} connections`);
  bits.push(`for ${formatDuration(p.durationMs)}${r.kind === 'sendpath' ? ' of wall-clock time' : ''}`);
  // the send path schedules no request: its plan is the emails expected at the sink
  if (r.kind === 'sendpath') bits.push(`${num(p.intended)} emails expected`);
  else if (r.kind !== 'capacity' || p.intended > 0) bits.push(`${num(p.intended)} requests scheduled`);
  bits.push(`${num(p.workspaces)} workspace${p.workspaces === 1 ? '' : 's'}`);
  if (p.shard) bits.push(`shard ${p.shard}`);
  return e(bits.join(' · '));
}

function mixText(mix: Record<string, number>): string {
  const entries = Object.entries(mix ?? {});
  if (!entries.length) return '<span class="muted">none given</span>';
  const total = entries.reduce((a, [, w]) => a + (fin(w) ? w : 0), 0);
  return entries.map(([f, w]) => `<code>${e(f)}</code> ${e(num(w, w % 1 ? 2 : 0))}${total > 0 ? ` <span class="muted">(${e(pct(w, total))})</span>` : ''}`).join(', ');
}

function header(r: LoadReport): string {
  const env = r.environment;
  const dur = duration(r.startedAt, r.finishedAt);
  const meta: [string, string][] = [
    ['Target', `<code>${e(env.targetUrl || '–')}</code>`],
    ['Run', `<code>${e(r.runId || '–')}</code>`],
    ['Started', e(r.startedAt || '–')],
    ['Finished', `${e(r.finishedAt || '–')}${dur ? ` · ${e(dur)}` : ''}`],
    ['Plan', planText(r)],
    // a send path sends no mix of API requests
    ...(r.kind === 'sendpath' ? [] : ([['Mix', mixText(r.plan.mix)]] as [string, string][])),
    ['Machine', e(`${env.cpu || 'unknown CPU'} × ${num(env.cpus)} · ${env.os || 'unknown OS'} · Node ${env.node || '?'}`)],
    ['Kit', e(env.kit || '–')],
    ['Profile', `sha256 <code class="sha">${e(env.profileHash || '–')}</code>`],
  ];
  const v = r.ok ? 'pass' : 'fail';
  return `<header class="top v-${v}">
  <div class="wrap">
    <div class="brand">outreach-conformance <span>load report</span></div>
    <div class="h-row"><h1>Load run: ${e(r.kind)} <small>${e(KIND_TEXT[r.kind] ?? '')}</small></h1><div class="verdict v-${v}">${r.ok ? 'PASS' : 'FAIL'}</div></div>
    <div class="headline">${e(verdictLine(r))}</div>
    <dl class="meta">${meta.map(([k, val]) => `<div><dt>${e(k)}</dt><dd>${val}</dd></div>`).join('')}</dl>
  </div>
</header>`;
}

function notesSection(r: LoadReport): string {
  const notes = (r.notes ?? []).filter((n) => typeof n === 'string' && n.trim());
  if (!notes.length) return '';
  return `<section class="card notes"><h2>About this run</h2><ul>${notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul></section>`;
}

// ---------------------------------------------------------------- summary tiles

function tiles(r: LoadReport, corrected: Histogram | undefined, service: Histogram | undefined): string {
  const t = r.totals;
  const lat = (p: number, label: string) => {
    const has = hasSamples(corrected);
    return tile(
      `${label} latency`,
      has ? e(formatLatency(percentile(corrected, p))) : '–',
      'tile-lat',
      has ? `corrected · service ${e(hasSamples(service) ? formatLatency(percentile(service, p)) : '–')}` : 'no completed request',
    );
  };
  const sentence = (x: string) => (x ? `${e(x)}. ` : '');
  const tput = fin(t.throughput) ? num(t.throughput, t.throughput === 0 ? 0 : t.throughput < 10 ? 2 : 1) : '–';
  return `<section class="tiles">
  ${tile('Sent', e(num(t.sent)), 't-count', `of ${e(num(r.plan.intended))} scheduled`)}
  ${tile('Completed', e(num(t.completed)), 't-count', e(share(t.completed, t.sent, 'sent')))}
  ${tile('Throughput', `${e(tput)}<small> req/s</small>`, 't-count', `completed per wall-clock second${fin(r.plan.rate) ? ` (${e(num(r.plan.rate, r.plan.rate % 1 ? 2 : 0))} asked)` : ''}`)}
  ${tile('Late sends', e(num(t.late)), t.late ? 't-warn' : 't-zero', `${sentence(share(t.late, t.sent, 'sent'))}Requests that left later than their schedule: the generator fell behind.`)}
  ${tile('Errors', e(num(t.errors)), t.errors ? 't-bad' : 't-zero', e(share(t.errors, t.sent, 'sent')))}
  <div class="tile t-status"><div class="t-statuses">${statusChips(t.status)}</div><div class="t-label">Responses by status</div></div>
</section>
<section class="tiles tiles-lat">
  ${lat(50, 'p50')}
  ${lat(99, 'p99')}
  ${lat(99.9, 'p99.9')}
  ${lat(100, 'max')}
  <p class="note">Latency <b>corrected</b> is measured from the moment a request was scheduled to leave (what a user waiting on the schedule sees); <b>service</b> from the moment it actually left (the target's own time).</p>
</section>`;
}

/** The send path's tiles: emails at the sink, not API requests. */
function sendpathTiles(r: LoadReport, sp: SendpathStats): string {
  const ratio = sp.idealPerDay > 0 ? sp.achievedPerDay / sp.idealPerDay : Number.NaN;
  const bad = (n: number) => (n ? 't-bad' : 't-zero');
  return `<section class="tiles">
  ${tile('Emails expected', e(num(r.totals.sent)), 't-count', `${e(num(sp.leads))} leads over ${e(num(sp.mailboxes.length))} mailboxes`)}
  ${tile('Arrived at the sink', e(num(r.totals.completed)), 't-count', e(share(r.totals.completed, r.totals.sent, 'expected')))}
  ${tile('Emails per second', `${e(num(sp.emailsPerWallSecond, 1))}<small> /s</small>`, 't-count', `through the sink, per wall-clock second${sp.simulated ? ' (simulated time)' : ''}`)}
  ${tile('Achieved / ideal', fin(ratio) ? e(num(ratio, 3)) : '–', fin(ratio) && ratio < 0.95 ? 't-warn' : 't-zero', 'the send rate reached against what caps and gaps allow')}
  ${tile('Duplicates', e(num(sp.duplicates)), bad(sp.duplicates), 'a lead emailed the same step twice')}
  ${tile('Losses', e(num(sp.losses)), bad(sp.losses), 'expected emails that never arrived')}
  ${tile('Gap violations', e(num(sp.gapViolations)), bad(sp.gapViolations), 'two sends of one mailbox closer than its gap')}
  ${tile('Cap violations', e(num(sp.capViolations)), bad(sp.capViolations), 'a mailbox over its daily cap')}
</section>`;
}

// ---------------------------------------------------------------- thresholds and violations

/** The shards' starts against their shared instant (`load api --shard k/n --start-at`), one row each. */
function shardStartsSection(r: LoadReport): string {
  const starts = r.shardStarts ?? [];
  if (!starts.length) return '';
  const offset = (s: ShardStart) => (s.clockOffsetMs ? `${num(s.clockOffsetMs.lo)} … ${num(s.clockOffsetMs.hi)} ms (${num(s.clockOffsetMs.samples)} Date headers)` : 'not seen');
  const rows = starts
    .map((s) => `<tr class="${Math.abs(s.startSkewMs) > s.toleranceMs ? 'row-bad' : ''}"><td>${e(s.shard)}</td><td class="num">${num(s.marginMs)} ms</td><td class="num">${num(s.startSkewMs, 3)} ms</td><td>${e(offset(s))}</td></tr>`)
    .join('');
  return `<section class="card"><h2>Shard starts</h2><p class="muted">Every shard was given the start instant ${e(starts[0]!.startAt)} (tolerance ${num(starts[0]!.toleranceMs)} ms): how long before it each was ready, how late its first request left against its time in the shared schedule (start skew), and its clock against the target's.</p><table class="tbl"><thead><tr><th>Shard</th><th class="num">Ready before the instant</th><th class="num">Start skew</th><th>Clock offset to the target</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function thresholdsTable(ts: ThresholdResult[]): string {
  if (!ts.length) return `<section class="card"><h2>Thresholds</h2><p class="muted">No threshold was given for this run.</p></section>`;
  const rows = ts
    .map((t) => {
      const actual = fin(t.actual) ? `${num(t.actual, Math.abs(t.actual) < 10 && t.actual % 1 ? 2 : t.actual % 1 ? 1 : 0)} ${e(t.unit)}` : '<span class="muted">not measured</span>';
      return `<tr class="${t.ok ? '' : 'row-bad'}"><td><code>${e(t.expr)}</code></td><td class="num">${actual}</td><td>${t.ok ? '<span class="pill v-pass">held</span>' : '<span class="pill v-fail">broken</span>'}</td><td class="muted">${e(t.note ?? '')}</td></tr>`;
    })
    .join('');
  return `<section class="card"><h2>Thresholds</h2><table class="tbl"><thead><tr><th>Threshold</th><th class="num">Measured</th><th>Result</th><th>Note</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function atText(ms: number | undefined): string {
  return fin(ms) ? `${num(ms / 1000, ms < 10_000 ? 2 : 1)} s` : '–';
}

function violationsSection(r: LoadReport): string {
  const counts = r.violationCounts ?? {};
  const rules = [...new Set([...Object.keys(counts), ...r.violations.map((v) => v.rule)])];
  if (!rules.length)
    return `<section class="card"><h2>Violations</h2><p class="all-good">No violation: ${
      r.kind === 'sendpath' ? 'every mailbox kept its gap and its daily cap, and no lead got a step twice.' : 'every response kept to the rules checked under load.'
    }</p></section>`;
  const summary = rules
    .map((rule) => {
      const n = counts[rule] ?? r.violations.filter((v) => v.rule === rule).length;
      const shown = r.violations.filter((v) => v.rule === rule).length;
      return `<tr><td>${e(rule)}</td><td class="num">${e(num(n))}</td><td class="num">${e(num(shown))}</td></tr>`;
    })
    .join('');
  // A send path's evidence is what arrived at the sink, not an exchange: no request or response columns.
  const api = r.kind !== 'sendpath';
  const row = (v: Violation) => {
    const body = v.response?.body ?? '';
    const snippet = body.length > BODY_SNIPPET ? `${body.slice(0, BODY_SNIPPET)}… (${body.length - BODY_SNIPPET} more characters)` : body;
    const exchange = `<td>${v.request ? `<code><b>${e(v.request.method)}</b> ${e(v.request.path)}</code>` : '<span class="muted">–</span>'}</td><td>${
      v.response ? `<span class="chip ${statusClass(String(v.response.status))}"><b>${e(v.response.status)}</b></span>${snippet ? `<pre class="body">${e(snippet)}</pre>` : ''}` : '<span class="muted">no response</span>'
    }</td>`;
    return `<tr><td>${e(v.rule)}</td><td>${(v.clauses ?? []).map((cl) => `<code>${e(cl)}</code>`).join(' ') || '<span class="muted">–</span>'}</td><td>${e(v.message)}</td>${api ? exchange : ''}<td class="num">${e(atText(v.at))}</td></tr>`;
  };
  return `<section class="card"><h2>Violations</h2>
  <table class="tbl tbl-narrow"><thead><tr><th>Rule</th><th class="num">Times in the run</th><th class="num">With evidence below</th></tr></thead><tbody>${summary}</tbody></table>
  ${
    r.violations.length
      ? `<h3>Evidence (first of each rule; secrets redacted)</h3><table class="tbl viol"><thead><tr><th>Rule</th><th>Clauses</th><th>Message</th>${api ? '<th>Request</th><th>Response</th>' : ''}<th class="num">At</th></tr></thead><tbody>${r.violations.map(row).join('')}</tbody></table>`
      : ''
  }
</section>`;
}

function flowsSection(r: LoadReport): string {
  const flows = Object.entries(r.flows ?? {});
  const left = r.leftOut ?? [];
  if (!flows.length && !left.length) return '';
  return `<section class="card"><h2>Flows</h2>${
    flows.length
      ? `<table class="tbl tbl-narrow"><thead><tr><th>Flow</th><th class="num">Runs</th><th class="num">Errors</th></tr></thead><tbody>${flows
          .map(([f, s]) => `<tr><td><code>${e(f)}</code></td><td class="num">${e(num(s.count))}</td><td class="num${s.errors ? ' n-bad' : ''}">${e(num(s.errors))}</td></tr>`)
          .join('')}</tbody></table>`
      : ''
  }${left.length ? `<p>Left out of the mix because the profile cannot serve them:</p><ul>${left.map((l) => `<li><code>${e(l.flow)}</code>: ${e(l.reason)}</li>`).join('')}</ul>` : ''}</section>`;
}

// ---------------------------------------------------------------- plots of the run

function spectrumLines(pairs: { h: Histogram; color: string; name: string; dash?: string; width?: number }[], u: Unit, named: number[]): LineSeries[] {
  return pairs.map(({ h, color, name, dash, width }) => ({
    color,
    dash,
    width,
    points: spectrumPercentiles().map((p): Point => [percentileX(p), percentile(h, p) / 1000 / u.ms]),
    dots: named.map((p) => ({ x: percentileX(p), y: percentile(h, p) / 1000 / u.ms, title: `${name} p${p}: ${formatLatency(percentile(h, p))}` })),
    title: name,
  }));
}

const NAMED_PERCENTILES = [0, 50, 75, 90, 99, 99.9, 99.99];

function maxOf(hs: Histogram[], p = 99.99): number {
  return Math.max(0, ...hs.map((h) => percentile(h, p) / 1000));
}

function noTimeline(r: LoadReport): string {
  return r.kind === 'capacity'
    ? 'A capacity search keeps its connections busy instead of following a schedule: it records no per-second timeline (see "Capacity search").'
    : 'The run recorded no timeline (no second with a scheduled or completed request).';
}

function latencyOverTime(r: LoadReport): string {
  const title = 'Latency over time';
  const caption =
    'Each point is one second of the run: the corrected latency that half (p50) and 99% (p99) of the requests completed in that second stayed under. Shaded seconds (also marked under the time axis) had 429 (amber) or 5xx (red) responses, or completed nothing at all (grey: the target stalled); a rise after them shows how the target recovered.';
  const tl = [...(r.timeline ?? [])].filter((p) => fin(p.t)).sort((a, b) => a.t - b.t);
  if (!tl.length) return figure('plot-latency-time', title, caption, noData(noTimeline(r)));
  const span = Math.max(r.plan.durationMs || 0, tl[tl.length - 1]!.t + 1000);
  const tu = timeUnit(span);
  const maxMs = Math.max(0, ...tl.map((p) => (fin(p.p99) ? p.p99 : 0) / 1000));
  const lu = latencyUnit(maxMs);
  const pt = (v: number, p: (typeof tl)[number]): Point => [(p.t + 500) / tu.ms, p.achieved > 0 && fin(v) ? v / 1000 / lu.ms : null];
  const bands: Band[] = [];
  for (const p of tl) {
    if (p.s429 > 0) bands.push({ from: p.t / tu.ms, to: (p.t + 1000) / tu.ms, color: COLORS.s429, opacity: 0.28, rug: 0, title: `${atText(p.t)}: ${num(p.s429)} responses 429` });
    if (p.s5xx > 0) bands.push({ from: p.t / tu.ms, to: (p.t + 1000) / tu.ms, color: COLORS.s5xx, opacity: 0.22, rug: 1, title: `${atText(p.t)}: ${num(p.s5xx)} responses 5xx` });
  }
  const quiet = tl.filter((p) => !(p.achieved > 0) && p.t < span);
  for (const p of quiet) bands.unshift({ from: p.t / tu.ms, to: (p.t + 1000) / tu.ms, color: COLORS.quiet, opacity: 0.3, rug: 2, title: `${atText(p.t)}: no request completed (${num(p.intended)} scheduled)` });
  const n429 = tl.filter((p) => p.s429 > 0).length;
  const n5xx = tl.filter((p) => p.s5xx > 0).length;
  const svg = chart({
    title,
    height: 350,
    x: { label: `time since the start of the run (${tu.name})`, min: 0, max: span / tu.ms },
    y: { label: `corrected latency (${lu.name})`, min: 0 },
    bands,
    lines: [
      { color: COLORS.p99, points: tl.map((p) => pt(p.p99, p)), title: 'p99 corrected' },
      { color: COLORS.p50, points: tl.map((p) => pt(p.p50, p)), title: 'p50 corrected' },
    ],
  });
  return figure(
    'plot-latency-time',
    title,
    caption,
    svg,
    legend([
      { label: 'p50 corrected', color: COLORS.p50 },
      { label: 'p99 corrected', color: COLORS.p99 },
      { label: `seconds with 429 responses (${n429})`, color: COLORS.s429, kind: 'band' },
      { label: `seconds with 5xx responses (${n5xx})`, color: COLORS.s5xx, kind: 'band' },
      { label: `seconds in which no request completed (${quiet.length})`, color: COLORS.quiet, kind: 'band' },
    ]),
  );
}

function spectrum(corrected: Histogram | undefined, service: Histogram | undefined): string {
  const title = 'Latency by percentile';
  const caption =
    'Read a point as "this share of requests completed within this time". Towards the right are the rarer, slower requests (90%, 99%, 99.9%: each step ten times rarer). A gap between the lines is time requests spent waiting to be sent because the target was slow: service latency alone would hide it.';
  const hs = [corrected, service].filter(hasSamples);
  if (!hs.length) return figure('plot-spectrum', title, caption, noData('No request completed, so there is no latency to show.'));
  const lu = latencyUnit(maxOf(hs));
  const lines = [
    ...(hasSamples(service) ? spectrumLines([{ h: service, color: COLORS.service, name: 'service', dash: '6 4' }], lu, NAMED_PERCENTILES) : []),
    ...(hasSamples(corrected) ? spectrumLines([{ h: corrected, color: COLORS.corrected, name: 'corrected' }], lu, NAMED_PERCENTILES) : []),
  ];
  const svg = chart({ title, x: { label: 'percentile (of completed requests)', ticks: percentileTicks(true) }, y: { label: `latency (${lu.name})`, min: 0 }, lines });
  return figure(
    'plot-spectrum',
    title,
    caption,
    svg,
    legend([
      { label: 'corrected: from the scheduled send time', color: COLORS.corrected },
      { label: 'service: from the actual send', color: COLORS.service, kind: 'dash' },
      { label: 'marked percentiles: 0, 50, 75, 90, 99, 99.9, 99.99', color: '#57606a', kind: 'dot' },
    ]),
  );
}

function rates(r: LoadReport): string {
  const title = 'Intended and achieved rate';
  const caption =
    'Requests the schedule asked to send in each second (intended) against requests that completed in that second (achieved). Achieved below intended means the target, or the load generator, did not keep up; a burst above it is a backlog being cleared.';
  const tl = [...(r.timeline ?? [])].filter((p) => fin(p.t)).sort((a, b) => a.t - b.t);
  if (!tl.length) return figure('plot-rates', title, caption, noData(noTimeline(r)));
  const span = Math.max(r.plan.durationMs || 0, tl[tl.length - 1]!.t + 1000);
  const tu = timeUnit(span);
  const svg = chart({
    title,
    height: 260,
    x: { label: `time since the start of the run (${tu.name})`, min: 0, max: span / tu.ms },
    y: { label: 'requests per second', min: 0 },
    lines: [
      { color: COLORS.intended, dash: '6 4', points: tl.map((p): Point => [(p.t + 500) / tu.ms, fin(p.intended) ? p.intended : null]), title: 'intended' },
      { color: COLORS.achieved, points: tl.map((p): Point => [(p.t + 500) / tu.ms, fin(p.achieved) ? p.achieved : null]), title: 'achieved' },
    ],
  });
  return figure(
    'plot-rates',
    title,
    caption,
    svg,
    legend([
      { label: 'intended (scheduled to leave)', color: COLORS.intended, kind: 'dash' },
      { label: 'achieved (completed)', color: COLORS.achieved },
    ]),
  );
}

function endpointPanel(ep: EndpointStats, wide: boolean): string {
  const c = safeDecode(ep.corrected);
  const s = safeDecode(ep.service);
  const hs = [c, s].filter(hasSamples);
  let body: string;
  if (!hs.length) body = noData('No completed request.');
  else {
    const lu = latencyUnit(maxOf(hs));
    const lines = [
      ...(hasSamples(s) ? spectrumLines([{ h: s, color: COLORS.service, name: 'service', dash: '5 3', width: 1.8 }], lu, [50, 99, 99.9]) : []),
      ...(hasSamples(c) ? spectrumLines([{ h: c, color: COLORS.corrected, name: 'corrected', width: 1.8 }], lu, [50, 99, 99.9]) : []),
    ];
    body = chart({ title: `Latency by percentile: ${ep.label}`, width: wide ? 540 : 380, height: wide ? 230 : 210, x: { label: 'percentile', ticks: percentileTicks(false) }, y: { label: `latency (${lu.name})`, min: 0, tickCount: 4 }, lines });
  }
  const p = (h: Histogram | undefined, q: number) => (hasSamples(h) ? formatLatency(percentile(h, q)) : '–');
  return `<div class="ep">
  <div class="ep-head"><code class="ep-label">${e(ep.label)}</code><span class="ep-count">${e(num(ep.count))} requests</span></div>
  <div class="ep-status">${statusChips(ep.status)}</div>
  <div class="ep-lat"><span class="muted">corrected</span> p50 <b>${e(p(c, 50))}</b> · p99 <b>${e(p(c, 99))}</b> · p99.9 <b>${e(p(c, 99.9))}</b></div>
  ${body}
</div>`;
}

function endpointsPanel(r: LoadReport): string {
  const title = 'Latency by endpoint';
  const caption = 'One small chart per endpoint, read like "Latency by percentile": corrected (solid) against service (dashed) latency, with the endpoint\'s request count and responses by status. Each chart has its own latency scale.';
  const eps = r.endpoints ?? [];
  if (!eps.length) return figure('plot-endpoints', title, caption, noData('No request reached an endpoint.'));
  return figure(
    'plot-endpoints',
    title,
    caption,
    `<div class="eps${eps.length <= 4 ? ' eps-2' : ''}">${eps.map((ep) => endpointPanel(ep, eps.length <= 4)).join('')}</div>`,
    legend([
      { label: 'corrected', color: COLORS.corrected },
      { label: 'service', color: COLORS.service, kind: 'dash' },
    ]),
  );
}

// ---------------------------------------------------------------- send path

function sendpathTable(sp: SendpathStats): string {
  const ratio = sp.idealPerDay > 0 ? sp.achievedPerDay / sp.idealPerDay : NaN;
  const rows: [string, string, boolean?][] = [
    ['Time', sp.simulated ? 'simulated (the target\'s clock was advanced by the control API)' : 'real (wall-clock)'],
    ['Leads', num(sp.leads)],
    ['Mailboxes', num(sp.mailboxes.length)],
    ['Emails at the sink', num(sp.mailboxes.reduce((a, m) => a + m.sends.length, 0))],
    ['Duplicates (a lead emailed twice)', num(sp.duplicates), sp.duplicates > 0],
    ['Losses (a lead never emailed)', num(sp.losses), sp.losses > 0],
    ['Achieved sends per day', num(sp.achievedPerDay, 1)],
    ['Ideal sends per day (what the caps and gaps allow, see below)', num(sp.idealPerDay, 1)],
    ['Achieved / ideal', fin(ratio) ? `${num(ratio, 2)} (${pct(sp.achievedPerDay, sp.idealPerDay)})` : '–'],
    ['Emails per wall-clock second', num(sp.emailsPerWallSecond, 1)],
    ['Gap violations (sends closer than the declared gap)', num(sp.gapViolations), sp.gapViolations > 0],
    ['Daily-cap violations', num(sp.capViolations), sp.capViolations > 0],
  ];
  return `<table class="tbl tbl-narrow kv">${rows.map(([k, v, bad]) => `<tr><th>${e(k)}</th><td class="num${bad ? ' n-bad' : ''}">${e(v)}</td></tr>`).join('')}</table>${idealNote(sp)}`;
}

/** How the ideal per day is reached: "5 mailboxes × min(cap 200, 1,440 min ÷ gap 5 min = 288) = 1,000". */
function idealNote(sp: SendpathStats): string {
  const kinds = new Map<string, { cap: number; gapMinutes: number; n: number }>();
  for (const m of sp.mailboxes) {
    if (!fin(m.cap) || !(m.gapMinutes > 0)) return '';
    const k = `${m.cap}/${m.gapMinutes}`;
    const g = kinds.get(k) ?? { cap: m.cap, gapMinutes: m.gapMinutes, n: 0 };
    g.n++;
    kinds.set(k, g);
  }
  if (!kinds.size) return '';
  const perGap = (g: number) => num(1440 / g, Number.isInteger(1440 / g) ? 0 : 1);
  const terms = [...kinds.values()].map((g) => `${num(g.n)} mailbox${g.n === 1 ? '' : 'es'} × min(cap ${num(g.cap)}, 1,440 min ÷ gap ${num(g.gapMinutes)} min = ${perGap(g.gapMinutes)})`);
  // The whole day's window, as the note says (sendpath/ideal.ts reckons the same for the figure).
  const total = [...kinds.values()].reduce((a, g) => a + g.n * Math.min(g.cap, 1440 / g.gapMinutes), 0);
  return `<p class="note" id="sp-ideal">Ideal sends per day: the spec's daily cap (<code>maxEmailsPerDay</code>) holds per mailbox and day, and a mailbox sends at most once per sending gap (<code>sendingGapMinutes</code>), so each sends the lower of the two in a day: ${e(terms.join(' + '))} = ${e(num(total, Number.isInteger(total) ? 0 : 1))}.</p>`;
}

function cumulativeSends(sp: SendpathStats): string {
  const title = 'Cumulative sends per mailbox';
  const boxes = sp.mailboxes.filter((m) => m.sends.length > 0);
  const shown = [...boxes].sort((a, b) => b.sends.length - a.sends.length).slice(0, MAX_MAILBOX_LINES);
  const more = boxes.length > shown.length;
  const caption = `One line per mailbox climbs by one at each email it sent${more ? `; the ${shown.length} mailboxes with the most sends are drawn, of ${boxes.length}` : ''}. No line may rise above its daily cap within one day.`;
  if (!shown.length) return figure('plot-sp-cumulative', title, caption, noData('No email reached the sink.'));
  const end = Math.max(...boxes.map((m) => Math.max(...m.sends.filter(fin))), 1);
  const tu = timeUnit(end);
  const lines: LineSeries[] = shown.map((m, i) => {
    const ts = m.sends.filter(fin).sort((a, b) => a - b);
    const pts: Point[] = [[0, 0], ...ts.map((t, k): Point => [t / tu.ms, k + 1]), [end / tu.ms, ts.length]];
    return { color: PALETTE[i]!, width: 1.3, opacity: 0.85, step: true, points: pts, title: `${m.address}: ${ts.length} sends (cap ${m.cap}/day)` };
  });
  // The y axis scales to the sends, not to the cap: a cap far above them would flatten every line.
  const top = niceScale(0, Math.max(...shown.map((m) => m.sends.length)) * 1.06).max;
  const caps = [...new Set(shown.map((m) => m.cap).filter(fin))].sort((a, b) => a - b);
  const drawn = caps.filter((cap) => cap <= top);
  const days = Math.ceil(end / DAY_MS);
  const { hrules, capLines } = capMarks(drawn, days, end, tu, top);
  const svg = chart({
    title,
    x: { label: `target time since the start of the run (${tu.name}${sp.simulated ? ', simulated' : ''})`, min: 0, max: end / tu.ms },
    y: { label: 'emails sent (cumulative)', min: 0, max: top },
    lines: [...lines, ...capLines],
    hrules,
  });
  const above = caps.filter((cap) => cap > top);
  const capsText = (xs: number[]) => (xs.length === 1 ? `daily cap (${num(xs[0])} per day)` : `daily caps (${xs.map((x) => num(x)).join(', ')} per day)`);
  return figure(
    'plot-sp-cumulative',
    title,
    [caption, days > 1 && drawn.length ? "Over several days the cap grows by one day's allowance at each day counted from the start of the run." : '', above.length ? `The ${capsText(above)} lie${above.length === 1 ? 's' : ''} above the busiest mailbox, out of this scale: no mailbox came near ${above.length === 1 ? 'it' : 'them'}.` : '']
      .filter(Boolean)
      .join(' '),
    svg,
    legend([
      ...shown.map((m, i) => ({ label: `${m.address} (${num(m.sends.length)})`, color: PALETTE[i]! })),
      ...(drawn.length ? [{ label: capsText(drawn), color: COLORS.cap, kind: 'dash' as const }] : []),
    ]),
  );
}

/** The daily caps inside the y range: a rule for a run of one day, else a staircase growing by one cap a day, cut where it leaves the range. */
function capMarks(caps: number[], days: number, end: number, tu: Unit, top: number): { hrules: Rule[]; capLines: LineSeries[] } {
  if (days <= 1) return { hrules: caps.map((cap) => ({ at: cap, color: COLORS.cap, dash: '7 4', label: `daily cap ${num(cap)}` })), capLines: [] };
  const capLines = caps.map((cap): LineSeries => {
    const pts: Point[] = [];
    for (let d = 0; d < days && cap * (d + 1) <= top; d++) pts.push([(d * DAY_MS) / tu.ms, cap * (d + 1)]);
    pts.push([Math.min(pts.length * DAY_MS, end) / tu.ms, cap * pts.length]);
    return { color: COLORS.cap, dash: '7 4', width: 2, step: true, points: pts, title: `daily cap ${cap} per day, days counted from the start of the run` };
  });
  return { hrules: [], capLines };
}

/** One gap between two consecutive sends of a mailbox, in minutes, and whether it broke the mailbox's declared gap. */
interface Gap {
  min: number;
  bad: boolean;
}

/** The bins of the gap histogram: edges in minutes, drawn at `at(edge)` on the x axis. */
interface GapBins {
  edges: number[];
  log: boolean;
  at: (minutes: number) => number;
  ticks?: { value: number; label: string }[];
}

/** A gap range wider than this many times the typical gap is drawn on a log axis, so the bulk stays readable beside overnight gaps. */
const LOG_RATIO = 8;

function sendGaps(sp: SendpathStats): Gap[] {
  const gaps: Gap[] = [];
  for (const m of sp.mailboxes) {
    const ts = m.sends.filter(fin).sort((a, b) => a - b);
    for (let i = 1; i < ts.length; i++) {
      const g = ts[i]! - ts[i - 1]!;
      gaps.push({ min: g / 60_000, bad: fin(m.gapMinutes) && g < m.gapMinutes * 60_000 });
    }
  }
  return gaps;
}

/**
 * Bins covering every gap, the largest included: linear from 0 when the gaps are of one size,
 * else twenty a decade on a log axis, one edge on the smallest declared gap so that its rule runs
 * between bars.
 */
function gapBins(sorted: number[], declared: number[]): GapBins {
  const maxGap = sorted[sorted.length - 1]!;
  const typical = Math.max(sorted[Math.floor(sorted.length / 2)]!, declared[declared.length - 1] ?? 0, 1e-3);
  if (maxGap <= typical * LOG_RATIO) {
    const top = Math.max(maxGap, (declared[declared.length - 1] ?? 0) * 1.2, 1e-3);
    const width = niceBin(top / 30);
    const n = Math.floor(top / width) + 1;
    return { edges: Array.from({ length: n + 1 }, (_, i) => i * width), log: false, at: (v) => v };
  }
  const step = 10 ** 0.05;
  const anchor = declared[0] ?? typical;
  const low = Math.max(sorted.find((g) => g > 0) ?? anchor, anchor / 1000);
  const k0 = Math.floor(Math.log10(Math.min(low, anchor) / anchor) / 0.05 + 1e-9);
  const k1 = Math.floor(Math.log10(maxGap / anchor) / 0.05 + 1e-9) + 1;
  const edges = Array.from({ length: k1 - k0 + 1 }, (_, i) => anchor * step ** (k0 + i));
  const at = (v: number) => Math.log10(Math.max(v, edges[0]!));
  const ticks: { value: number; label: string }[] = [];
  for (let d = Math.floor(Math.log10(edges[0]!)); d <= Math.ceil(Math.log10(edges[edges.length - 1]!)); d++)
    for (const f of [1, 2, 5]) {
      const v = f * 10 ** d;
      if (v >= edges[0]! && v <= edges[edges.length - 1]!) ticks.push({ value: Math.log10(v), label: minutes(v) });
    }
  return { edges, log: true, at, ticks };
}

/** The stacked bars of the histogram: the gaps shorter than declared in red under the others. */
function gapBars(gaps: Gap[], b: GapBins): Bar[] {
  const n = b.edges.length - 1;
  const ok = new Array<number>(n).fill(0);
  const bad = new Array<number>(n).fill(0);
  for (const g of gaps) {
    let i = b.edges.findIndex((edge, k) => k > 0 && g.min < edge) - 1;
    if (i < 0) i = g.min < b.edges[0]! ? 0 : n - 1;
    (g.bad ? bad : ok)[i]!++;
  }
  const bars: Bar[] = [];
  for (let i = 0; i < n; i++) {
    const [x0, x1] = [b.at(b.edges[i]!), b.at(b.edges[i + 1]!)];
    const range = `${minutes(b.edges[i]!)}–${minutes(b.edges[i + 1]!)} min`;
    if (bad[i]) bars.push({ x0, x1, y0: 0, y1: bad[i]!, color: COLORS.bad, title: `${range}: ${bad[i]} gaps shorter than declared`, label: ok[i] ? undefined : num(bad[i]) });
    if (ok[i]) bars.push({ x0, x1, y0: bad[i]!, y1: bad[i]! + ok[i]!, color: COLORS.quiet, title: `${range}: ${ok[i]} gaps${bad[i] ? `, ${bad[i]} shorter than declared` : ''}`, label: ok[i]! * 40 < Math.max(...ok) ? num(ok[i]) : undefined });
  }
  return bars;
}

function gapHistogram(sp: SendpathStats): string {
  const title = 'Gaps between consecutive sends of one mailbox';
  const gaps = sendGaps(sp);
  const declared = [...new Set(sp.mailboxes.map((m) => m.gapMinutes).filter(fin))].sort((a, b) => a - b);
  const caption = `How long each mailbox waited between two of its emails, every gap drawn up to the longest. Nothing may fall left of the declared gap (the vertical line); bars there are red.`;
  if (!gaps.length) return figure('plot-sp-gaps', title, caption, noData('No mailbox sent two emails, so there is no gap to show.'));
  const sorted = gaps.map((g) => g.min).sort((a, b) => a - b);
  const bins = gapBins(sorted, declared);
  const nBad = gaps.filter((g) => g.bad).length;
  const svg = chart({
    title,
    height: 280,
    x: { label: `gap between two sends of one mailbox (minutes, target time${bins.log ? ', log scale' : ''})`, min: bins.at(bins.edges[0]!), max: bins.at(bins.edges[bins.edges.length - 1]!), ticks: bins.ticks },
    y: { label: 'gaps', min: 0 },
    bars: gapBars(gaps, bins),
    vrules: declared.map((d, i) => ({ at: bins.at(d), color: COLORS.bad, dash: i ? '4 3' : undefined, label: `declared gap ${minutes(d)} min` })),
  });
  const longest = `The longest gap is ${minutes(sorted[sorted.length - 1]!)} min${bins.log ? '; the axis is logarithmic so that it fits beside the usual gaps' : ''}.`;
  return figure(
    'plot-sp-gaps',
    title,
    `${caption} ${longest}`,
    svg,
    legend([
      { label: `gaps at or over the declared gap (${num(gaps.length - nBad)})`, color: COLORS.quiet, kind: 'bar' },
      { label: `gaps shorter than declared (${num(nBad)})`, color: COLORS.bad, kind: 'bar' },
      { label: declared.length === 1 ? 'declared gap' : 'declared gaps', color: COLORS.bad },
    ]),
  );
}

/** Minutes with one decimal (two under a minute), none when whole. */
function minutes(v: number): string {
  // under a minute (a log axis reaching down to a violation of a few seconds) two decimals
  return num(v, Math.abs(v - Math.round(v)) < 1e-9 ? 0 : v < 1 ? 2 : 1);
}

function niceBin(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

function fromAllowedCdf(sp: SendpathStats): string {
  const title = 'Delay from "allowed to send" to arrival';
  const caption =
    'For each email, the time from the moment its mailbox\'s caps, gaps and schedule allowed it to the moment it reached the sink (target time). Read a point as "this share of emails arrived within this delay"; a long flat tail is emails held back longer than the rules require.';
  const h = safeDecode(sp.fromAllowed);
  if (!hasSamples(h)) return figure('plot-sp-allowed', title, caption, noData('No email was measured from the moment it became allowed.'));
  const lu = latencyUnit(percentile(h, 100) / 1000);
  const ps: number[] = [];
  for (let p = 0; p <= 99; p += 0.5) ps.push(p);
  ps.push(99.5, 99.9, 99.99, 100);
  const pts: Point[] = ps.map((p) => [percentile(h, p) / 1000 / lu.ms, p]);
  const dots = [50, 90, 99].map((p) => ({ x: percentile(h, p) / 1000 / lu.ms, y: p, title: `p${p}: ${formatLatency(percentile(h, p))}` }));
  const svg = chart({
    title,
    height: 280,
    x: { label: `delay after the send became allowed (${lu.name}, target time)`, min: 0 },
    y: { label: 'emails arrived (%)', min: 0, max: 100, tickCount: 5 },
    lines: [{ color: COLORS.corrected, step: true, points: [[0, 0], ...pts], dots, title: 'share of emails arrived within the delay' }],
  });
  return figure(
    'plot-sp-allowed',
    title,
    caption,
    svg,
    legend([
      { label: 'share of emails arrived within the delay', color: COLORS.corrected },
      { label: `marked: p50 ${formatLatency(percentile(h, 50))}, p90 ${formatLatency(percentile(h, 90))}, p99 ${formatLatency(percentile(h, 99))}`, color: COLORS.corrected, kind: 'dot' },
    ]),
  );
}

function sendpathSection(sp: SendpathStats): string {
  return `<section class="sendpath" id="sendpath"><h2>Send path</h2>
  <div class="card">${sendpathTable(sp)}</div>
  ${cumulativeSends(sp)}
  ${gapHistogram(sp)}
  ${fromAllowedCdf(sp)}
</section>`;
}

// ---------------------------------------------------------------- capacity

function capacitySection(r: LoadReport): string {
  const cap = r.capacity;
  if (!cap) return '';
  const title = 'Throughput by number of connections';
  const caption = 'Completed requests per second at each step, which kept a fixed number of connections busy. Throughput stops rising once the target is saturated; the ceiling is the best step whose errors stayed under 1%.';
  const rows = cap.steps
    .map(
      (s, i) =>
        `<tr class="${i === cap.ceiling ? 'row-best' : ''}"><td class="num">${e(num(s.connections))}${i === cap.ceiling ? ' <span class="pill v-pass">ceiling</span>' : ''}</td><td class="num">${e(formatDuration(s.durationMs))}</td><td class="num">${e(num(s.requests))}</td><td class="num">${e(num(s.throughput, 1))}</td><td class="num">${e(formatLatency(s.p50))}</td><td class="num">${e(formatLatency(s.p99))}</td><td class="num${s.errors ? ' n-bad' : ''}">${e(num(s.errors))}</td><td class="num${s.non2xx ? ' n-bad' : ''}">${e(num(s.non2xx))}</td></tr>`,
    )
    .join('');
  const plot = cap.steps.length
    ? chart({
        title,
        height: 260,
        x: { label: 'connections', ticks: cap.steps.map((s, i) => ({ value: i, label: num(s.connections) })), min: -0.3, max: cap.steps.length - 0.7 },
        y: { label: 'requests per second', min: 0 },
        vrules: cap.steps[cap.ceiling] ? [{ at: cap.ceiling, color: COLORS.achieved, dash: '4 3', label: `ceiling: ${num(cap.steps[cap.ceiling]!.throughput, 0)} req/s` }] : [],
        lines: [{ color: COLORS.achieved, points: cap.steps.map((s, i): Point => [i, s.throughput]), dots: cap.steps.map((s, i) => ({ x: i, y: s.throughput, title: `${s.connections} connections: ${num(s.throughput, 1)} req/s` })) }],
      })
    : noData('The capacity search ran no step.');
  return `<section id="capacity"><h2>Capacity search</h2>
  ${figure('plot-capacity', title, caption, plot, legend([{ label: 'throughput', color: COLORS.achieved }]))}
  <div class="card"><p>Requests cycled: ${cap.requests.map((q) => `<code>${e(q)}</code>`).join(', ') || '<span class="muted">none</span>'}</p>
  <table class="tbl"><thead><tr><th class="num">Connections</th><th class="num">Step</th><th class="num">Requests</th><th class="num">req/s</th><th class="num">p50</th><th class="num">p99</th><th class="num">Errors</th><th class="num">Non-2xx</th></tr></thead><tbody>${rows}</tbody></table></div>
</section>`;
}

// ---------------------------------------------------------------- the page

export function renderLoadHtml(report: LoadReport): string {
  const r = report;
  const corrected = safeDecode(r.totals.corrected);
  const service = safeDecode(r.totals.service);
  const title = `Load report: ${r.ok ? 'PASS' : 'FAIL'} · ${r.kind} · ${r.environment.targetUrl}`;
  return `${pageHead(title, CSS)}
${header(r)}
<div class="wrap">
  ${shardStartsSection(r)}
  ${notesSection(r)}
  ${r.kind === 'sendpath' && r.sendpath ? sendpathTiles(r, r.sendpath) : tiles(r, corrected, service)}
  ${thresholdsTable(r.thresholds ?? [])}
  ${violationsSection(r)}
  ${flowsSection(r)}
  ${capacitySection(r)}
  ${
    // The send path measures emails at the sink, not API latency.
    r.kind === 'sendpath'
      ? ''
      : `<section id="plots"><h2>Latency and rate</h2>
  ${latencyOverTime(r)}
  ${spectrum(corrected, service)}
  ${rates(r)}
  ${endpointsPanel(r)}
  </section>`
  }
  ${r.sendpath ? sendpathSection(r.sendpath) : ''}
  <footer>Generated by outreach-conformance ${e(r.environment.kit)} from <code>load.json</code>. Latencies are recorded in HDR histograms (3 significant digits). Secrets are redacted. Hover a point or a shaded second for its value.</footer>
</div>
</body>
</html>
`;
}

export const CSS = `
:root{--fg:#1c2330;--muted:#5d6b7e;--line:#dfe4ea;--bg:#f5f7fa;--card:#fff;--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;--nc:#afb8c1;--accent:#0969da;--mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
code,pre{font-family:var(--mono);font-size:12.5px}
.wrap{max-width:1180px;margin:0 auto;padding:0 24px}
.muted{color:var(--muted)}
header.top{background:#1f2937;color:#f3f4f6;padding:22px 0 18px;border-bottom:6px solid var(--nc)}
header.top.v-pass{border-bottom-color:var(--pass)}header.top.v-fail{border-bottom-color:var(--fail)}
.brand{font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:#9ca3af}.brand span{color:#d1d5db}
.h-row{display:flex;align-items:center;gap:18px;justify-content:space-between;flex-wrap:wrap}
header h1{margin:4px 0 6px;font-size:24px;font-weight:600}header h1 small{font-size:14px;font-weight:400;color:#9ca3af;margin-left:6px}
.verdict{font-size:28px;font-weight:800;letter-spacing:.06em;padding:4px 22px;border-radius:8px;color:#fff}.verdict.v-pass{background:var(--pass)}.verdict.v-fail{background:var(--fail)}
.headline{font-size:16px;font-weight:500;margin:4px 0 14px}
dl.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:4px 32px;margin:0}
dl.meta div{display:flex;gap:10px;min-width:0}dl.meta dt{color:#9ca3af;width:64px;flex:none}dl.meta dd{margin:0;min-width:0;overflow-wrap:anywhere}
dl.meta code{color:#fff;background:rgba(255,255,255,.08);padding:0 4px;border-radius:3px}dl.meta .muted{color:#9ca3af}.sha{font-size:11.5px;word-break:break-all}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:10px;margin:20px 0 6px}
.tile{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px;border-top:4px solid var(--nc)}
.t-value{font-size:24px;font-weight:600;line-height:1.2;font-variant-numeric:tabular-nums}.t-value small{font-size:13px;color:var(--muted);font-weight:400}
.t-label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}.t-sub{font-size:12px;color:var(--muted);margin-top:4px}
.t-count{border-top-color:var(--accent)}.t-zero{border-top-color:var(--pass)}.t-warn{border-top-color:#d4a72c}.t-warn .t-value{color:var(--warn)}.t-bad{border-top-color:var(--fail)}.t-bad .t-value{color:var(--fail)}.tile-lat{border-top-color:#8250df}
.t-statuses{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:6px}
.tiles-lat{grid-template-columns:repeat(4,minmax(150px,1fr)) minmax(260px,2fr);margin-top:0}.tiles-lat .note{margin:0;align-self:center}
.note{font-size:12.5px;color:var(--muted);margin:4px 0 12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:16px 0}
h2{font-size:18px;margin:28px 0 12px;font-weight:600}.card h2{margin-top:0}h3{font-size:15px;margin:14px 0 8px;font-weight:600}
.notes{border-left:4px solid #d4a72c}.notes ul{margin:0;padding-left:20px}
.all-good{background:var(--pass-bg);color:var(--pass);border-radius:8px;padding:12px 16px;margin:0}
.tbl{width:100%;border-collapse:collapse;font-size:13px}.tbl th.num{text-align:right}.tbl th{text-align:left;color:var(--muted);font-weight:500;border-bottom:1px solid var(--line);padding:6px 8px}.tbl td{border-bottom:1px solid #eef1f4;padding:5px 8px;vertical-align:top;overflow-wrap:anywhere}.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.n-bad{color:var(--fail);font-weight:600}
.tbl-narrow{width:auto;min-width:420px}.kv th{font-weight:400;color:var(--fg);border-bottom:1px solid #eef1f4}
.row-bad td{background:#fff5f5}.row-best td{background:#f0fbf3}
.viol td:first-child{min-width:110px}.viol td:nth-child(3){min-width:200px}.viol td:nth-child(5){max-width:380px}
pre.body{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border:1px solid var(--line);border-radius:4px;padding:4px 6px;margin:4px 0 0;max-height:160px;overflow:auto;font-size:11.5px}
.pill{font-size:11.5px;font-weight:600;padding:1px 8px;border-radius:10px;white-space:nowrap}.v-pass.pill{background:var(--pass-bg);color:var(--pass)}.v-fail.pill{background:var(--fail-bg);color:var(--fail)}
.chip{display:inline-block;font-size:12px;padding:0 7px;border-radius:4px;white-space:nowrap;font-variant-numeric:tabular-nums}.chip b{font-weight:700}
.s-2xx{background:var(--pass-bg);color:var(--pass)}.s-3xx{background:#ddf4ff;color:var(--accent)}.s-4xx{background:#eef1f4;color:#424a53}.s-429{background:var(--warn-bg);color:var(--warn)}.s-5xx,.s-err{background:var(--fail-bg);color:var(--fail)}
figure.plot{margin:16px 0}figcaption h3{margin:0 0 2px;font-size:16px}.how{margin:0 0 8px;color:var(--muted);font-size:13px;max-width:980px}
svg.chart{display:block;width:100%;height:auto;max-width:100%}
.plot-legend{display:flex;flex-wrap:wrap;gap:6px 18px;font-size:12.5px;margin:0 0 6px}.plot-legend span{display:inline-flex;align-items:center;gap:6px}
.nodata{display:flex;flex-direction:column;align-items:center;justify-content:center;min-height:120px;border:2px dashed var(--line);border-radius:8px;color:var(--muted);background:#fafbfc;text-align:center;padding:16px}.nodata strong{font-size:15px;color:#424a53}
.eps{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:12px}.eps-2{grid-template-columns:repeat(auto-fill,minmax(480px,1fr))}
.ep{border:1px solid var(--line);border-radius:6px;padding:8px 10px;min-width:0}.ep-head{display:flex;gap:8px;align-items:baseline;justify-content:space-between}.ep-label{font-weight:600;overflow-wrap:anywhere}.ep-count{color:var(--muted);font-size:12px;white-space:nowrap}
.ep-status{margin:4px 0;display:flex;flex-wrap:wrap;gap:4px}.ep-lat{font-size:12px;color:var(--fg);margin-bottom:4px}
footer{color:var(--muted);font-size:12px;padding:30px 0 40px;text-align:center}
@media print{.card,figure{break-inside:avoid}}
`;
