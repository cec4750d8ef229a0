import { describe, expect, it } from 'vitest';
import { renderLoadHtml } from './html.ts';
import { emptyLoadReport, syntheticLoadReport } from './load-report.test-helper.ts';
import { sendpathLoadReport } from '../sendpath/sendpath-report.test-helper.ts';
import type { LoadReport } from './types.ts';

const XSS = '<img src=x onerror=alert(1)>';
const XSS_ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';

/** The report as load.html receives it: through load.json (NaN becomes null). */
function viaJson(r: LoadReport): LoadReport {
  return JSON.parse(JSON.stringify(r)) as LoadReport;
}

function hostile(): LoadReport {
  const r = syntheticLoadReport();
  r.violations[0]!.response!.body = `{"error":{"message":"${XSS}"}}`;
  r.violations[0]!.message = `refused ${XSS}`;
  r.endpoints[3]!.label = `GET /v1/accounts?tag=${XSS}`;
  r.plan.mix[XSS] = 1;
  r.sendpath!.mailboxes[0]!.address = `${XSS}@example.test`;
  r.thresholds[0]!.expr = `p99<300ms ${XSS}`;
  r.environment.targetUrl = `https://target.test/${XSS}`;
  r.notes = [`the ceiling was not reached ${XSS}`];
  return r;
}

const PLOT_TITLES = ['Latency over time', 'Latency by percentile', 'Intended and achieved rate', 'Latency by endpoint'];
const SENDPATH_TITLES = ['Cumulative sends per mailbox', 'Gaps between consecutive sends of one mailbox', 'Delay from &quot;allowed to send&quot; to arrival'];

describe('load.html', () => {
  const full = renderLoadHtml(viaJson(syntheticLoadReport()));

  it('is one page without script or external resources', () => {
    expect(full.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(full).not.toMatch(/<script/i);
    expect(full).not.toMatch(/<link\b|\bsrc=["']?https?:|url\(\s*['"]?https?:|@import/i);
    expect(full).not.toMatch(/\bon[a-z]+\s*=/i);
  });

  it('shows the verdict, the plan, the environment and the summary', () => {
    expect(full).toContain('class="verdict v-fail">FAIL<');
    expect(full).toContain('https://api.outreach.example.test');
    expect(full).toContain('20250101-101500-load-api');
    expect(full).toContain('50 req/s');
    expect(full).toContain('shard 1/2');
    expect(full).toContain('AMD EPYC 7B13');
    expect(full).toContain('c2a1f0e6d9b84c1a7e3f5b2d8c6a4e9f1b3d5c7a9e2f4b6d8c0a1e3f5b7d9c2a');
    expect(full).toContain('Requests that left later than their schedule: the generator fell behind.');
    for (const s of ['Sent', 'Completed', 'Throughput', 'Late sends', 'Errors', 'p50 latency', 'p99 latency', 'p99.9 latency']) expect(full).toContain(`>${s}<`);
    // thresholds: a measured one and one the run did not measure (null in load.json)
    expect(full).toContain('2,612.7 ms');
    expect(full).toContain('not measured');
    expect(renderLoadHtml(viaJson({ ...syntheticLoadReport(), ok: true }))).toContain('class="verdict v-pass">PASS<');
  });

  it('has every plot, titled, with axes labelled in their units and a legend', () => {
    for (const t of [...PLOT_TITLES, ...SENDPATH_TITLES]) expect(full).toContain(`<h3>${t}</h3>`);
    expect(full).toContain('corrected latency (ms)');
    expect(full).toContain('percentile (of completed requests)');
    expect(full).toContain('requests per second');
    expect(full).toContain('seconds with 429 responses (3)');
    expect(full).toContain('seconds with 5xx responses (3)');
    expect(full).toContain('the 20 mailboxes with the most sends are drawn, of 30');
    expect(full).toContain('declared gap 10 min');
    // one small chart per endpoint
    expect(full.match(/class="ep"/g)).toHaveLength(4);
    expect(full).not.toMatch(/NaN|Infinity|undefined/);
  });

  it('lists each shard\'s start against the shared instant, a skew past the tolerance marked', () => {
    const r = syntheticLoadReport();
    r.shardStarts = [
      { shard: '1/2', startAt: '2026-11-28T03:00:00.000Z', readyAt: 'x', marginMs: 4200, startSkewMs: 0.25, toleranceMs: 50, clockOffsetMs: { lo: -300, hi: 700, samples: 12 } },
      { shard: '2/2', startAt: '2026-11-28T03:00:00.000Z', readyAt: 'y', marginMs: 900, startSkewMs: 61.5, toleranceMs: 50 },
    ];
    const html = renderLoadHtml(viaJson(r));
    expect(html).toContain('<h2>Shard starts</h2>');
    expect(html).toContain('given the start instant 2026-11-28T03:00:00.000Z (tolerance 50 ms)');
    expect(html).toMatch(/<tr class=""><td>1\/2<\/td><td class="num">4,200 ms<\/td><td class="num">0.250 ms<\/td><td>-300 … 700 ms \(12 Date headers\)<\/td><\/tr>/);
    expect(html).toMatch(/<tr class="row-bad"><td>2\/2<\/td>.*?<td>not seen<\/td>/);
    expect(renderLoadHtml(viaJson(syntheticLoadReport()))).not.toContain('Shard starts');
  });

  it('escapes everything taken from the run', () => {
    const html = renderLoadHtml(viaJson(hostile()));
    expect(html).not.toContain(XSS);
    expect(html).not.toMatch(/<img/i);
    // the body, the message, the endpoint label, the flow, the mailbox, the threshold and the target
    expect(html.split(XSS_ESCAPED).length - 1).toBeGreaterThanOrEqual(7);
    expect(html).toContain(`{&quot;error&quot;:{&quot;message&quot;:&quot;${XSS_ESCAPED}&quot;}}`);
  });

  it('renders a run without data as readable "no data" boxes, never NaN', () => {
    const html = renderLoadHtml(viaJson(emptyLoadReport()));
    expect(html).not.toMatch(/NaN|Infinity|undefined|null/);
    expect(html.match(/class="nodata"/g)!.length).toBeGreaterThanOrEqual(4);
    for (const t of PLOT_TITLES) expect(html).toContain(`<h3>${t}</h3>`);
    expect(html).not.toContain('<svg class="chart"');
  });

  it('shows the send path only when the run has one', () => {
    const { sendpath: _, ...rest } = syntheticLoadReport();
    const without = renderLoadHtml(viaJson(rest as LoadReport));
    expect(without).not.toContain('id="sendpath"');
    for (const t of SENDPATH_TITLES) expect(without).not.toContain(t);
    expect(full).toContain('id="sendpath"');
    expect(full).toContain('simulated');
  });

  it('a capacity search shows its steps and ceiling, and says why it has no timeline', () => {
    const r = emptyLoadReport();
    r.kind = 'capacity';
    r.capacity = {
      requests: ['GET /v1/campaigns/{id}/status'],
      steps: [1, 4, 16].map((n, i) => ({ connections: n, durationMs: 10_000, requests: 1000 * (i + 1), throughput: 100 * (i + 1), p50: 4000, p99: 9000, errors: 0, non2xx: 0 })),
      ceiling: 2,
    };
    const html = renderLoadHtml(viaJson(r));
    expect(html).toContain('<h3>Throughput by number of connections</h3>');
    expect(html).toContain('ceiling: 300 req/s');
    expect(html).toContain('records no per-second timeline');
    expect(html).not.toMatch(/NaN|Infinity|undefined/);
  });

  it('a send-path run speaks of emails at the sink, not of API latency', () => {
    const r = syntheticLoadReport();
    r.kind = 'sendpath';
    const html = renderLoadHtml(viaJson(r));
    for (const s of ['Emails expected', 'Arrived at the sink', 'Achieved / ideal', 'Duplicates', 'Losses', 'Gap violations', 'Cap violations']) expect(html).toContain(`>${s}<`);
    for (const t of PLOT_TITLES) expect(html).not.toContain(`<h3>${t}</h3>`);
    for (const t of SENDPATH_TITLES) expect(html).toContain(`<h3>${t}</h3>`);
    expect(html).not.toMatch(/NaN|Infinity|undefined/);
  });

  it('a send path without sends shows "no data" in its plots', () => {
    const r = syntheticLoadReport();
    r.sendpath = { ...r.sendpath!, mailboxes: r.sendpath!.mailboxes.map((m) => ({ ...m, sends: [] })), fromAllowed: '' };
    const html = renderLoadHtml(viaJson(r));
    expect(html.match(/class="nodata"/g)).toHaveLength(3);
    expect(html).not.toMatch(/NaN|Infinity|undefined/);
  });
});

/** The svg of the figure with this id. */
function figureSvg(html: string, id: string): string {
  const at = html.indexOf(`<figure class="plot card" id="${id}"`);
  return html.slice(at, html.indexOf('</figure>', at));
}

/** The y tick labels of a chart (right-aligned texts left of the plot), bottom to top. */
function yTicks(svg: string): number[] {
  return [...svg.matchAll(/<text x="59" y="[\d.]+" text-anchor="end" fill="#5d6b7e">([\d,.]+)<\/text>/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
}

describe('load.html of a send path', () => {
  const html = renderLoadHtml(viaJson(sendpathLoadReport()));

  it('scales the cumulative sends to the data, and leaves out a cap far above them, saying so', () => {
    const svg = figureSvg(html, 'plot-sp-cumulative');
    // 24 sends per mailbox: the axis ends at 25 or 30, not at the cap of 200
    expect(Math.max(...yTicks(svg))).toBeGreaterThanOrEqual(24);
    expect(Math.max(...yTicks(svg))).toBeLessThanOrEqual(30);
    expect(svg).not.toContain('daily cap 200');
    expect(html).toContain('The daily cap (200 per day) lies above the busiest mailbox, out of this scale: no mailbox came near it.');
  });

  it('draws the cap when the sends reach near it', () => {
    const r = sendpathLoadReport();
    for (const m of r.sendpath!.mailboxes) m.cap = 25;
    const svg = figureSvg(renderLoadHtml(viaJson(r)), 'plot-sp-cumulative');
    expect(svg).toContain('daily cap 25');
    expect(Math.max(...yTicks(svg))).toBeLessThanOrEqual(30);
  });

  it('gives the ideal sends per day the caps allow: 5 mailboxes, gap 5 min, cap 200 give 1,000, not 1,440', () => {
    expect(html).toMatch(/Ideal sends per day \(what the caps and gaps allow, see below\)<\/th><td class="num">1,000\.0</);
    expect(html).toContain('5 mailboxes × min(cap 200, 1,440 min ÷ gap 5 min = 288) = 1,000.');
    expect(html).toMatch(/Achieved \/ ideal<\/th><td class="num">1\.00 /);
  });

  it('uses no API-load wording', () => {
    for (const api of ['requests scheduled', 'Mix', 'none given', 'every response kept to the rules', 'no response', 'req/s']) expect(html).not.toContain(api);
    expect(html).toContain('120 emails expected');
    expect(html).toContain('No violation: every mailbox kept its gap and its daily cap, and no lead got a step twice.');
  });
});

/** The bars of a chart: x, width and fill, with the text of their tooltip. */
function bars(svg: string): { x: number; w: number; fill: string; title: string }[] {
  return [...svg.matchAll(/<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="(#[0-9a-f]+)"><title>([^<]*)<\/title><\/rect>/g)].map((m) => ({ x: Number(m[1]), w: Number(m[2]), fill: m[3]!, title: m[4]! }));
}

/** Every gap between two consecutive sends of a mailbox, in minutes. */
function gapsOf(r: LoadReport): number[] {
  return r.sendpath!.mailboxes.flatMap((m) => {
    const ts = [...m.sends].sort((a, b) => a - b);
    return ts.slice(1).map((t, i) => (t - ts[i]!) / 60_000);
  });
}

describe('load.html of a send path: legends and the gap histogram', () => {
  const r = viaJson(syntheticLoadReport());
  const html = renderLoadHtml(r);

  it('gives each mailbox line the colour its legend entry shows, no two lines alike', () => {
    const fig = figureSvg(html, 'plot-sp-cumulative');
    const legendHtml = fig.slice(fig.indexOf('<div class="plot-legend">'), fig.indexOf('<svg class="chart"'));
    const entries = [...legendHtml.matchAll(/<span><svg [^>]*><line [^>]*stroke="(#[0-9a-f]+)" stroke-width="2.5"\/><\/svg>([^<]+@[^<]+) \(\d+\)<\/span>/g)].map((m) => ({ color: m[1]!, address: m[2]! }));
    const lines = new Map([...fig.matchAll(/<path d="[^"]*" fill="none" stroke="(#[0-9a-f]+)"[^>]*><title>([^:<]+): \d+ sends/g)].map((m) => [m[2]!, m[1]!]));
    expect(entries).toHaveLength(20);
    expect(lines.size).toBe(20);
    for (const { address, color } of entries) expect(lines.get(address), address).toBe(color);
    expect(new Set(entries.map((x) => x.color)).size).toBe(20);
  });

  it('draws every gap, the longest (overnight) included, with the declared gap marked between the short and the long ones', () => {
    const gaps = gapsOf(r);
    const svg = figureSvg(html, 'plot-sp-gaps');
    const bs = bars(svg);
    const counted = bs.reduce((a, b) => a + Number(/: (\d+) gaps/.exec(b.title)![1]), 0);
    expect(counted, 'every gap in a bar').toBe(gaps.length);
    expect(svg).not.toContain('or more');
    const edges = bs.map((b) => /^([\d,.]+)–([\d,.]+) min/.exec(b.title)!).map((m) => [Number(m[1]!.replace(/,/g, '')), Number(m[2]!.replace(/,/g, ''))] as const);
    const longest = Math.max(...gaps);
    expect(longest, 'the fixture has overnight gaps').toBeGreaterThan(600);
    expect(edges.some(([lo, hi]) => lo <= longest && longest <= hi + 0.05), 'a bar holds the longest gap').toBe(true);
    // the rule sits right of every red bar and left of every grey one (the fixture's short gaps are its violations)
    const rule = Number(/<line x1="([\d.]+)" x2="[\d.]+" y1="14" y2="[\d.]+" stroke="#cf222e" stroke-width="2"\/>/.exec(svg)![1]);
    for (const b of bs.filter((x) => x.fill === '#cf222e')) expect(b.x + b.w).toBeLessThanOrEqual(rule + 1);
    for (const b of bs.filter((x) => x.fill !== '#cf222e')) expect(b.x).toBeGreaterThanOrEqual(rule - 1);
    expect(svg).toContain('declared gap 10 min');
    expect(svg).toContain('log scale');
  });

  it('keeps a linear axis from 0 when every gap is about the same', () => {
    const svg = figureSvg(renderLoadHtml(viaJson(sendpathLoadReport())), 'plot-sp-gaps');
    expect(svg).not.toContain('log scale');
    expect(bars(svg).reduce((a, b) => a + Number(/: (\d+) gaps/.exec(b.title)![1]), 0)).toBe(115);
    expect(svg).toContain('declared gap 5 min');
  });
});
