// Small inline-SVG plotting helpers for load.html: line and step charts with axes, ticks and
// labels, bars, vertical bands and rules, an HDR-style percentile axis, a legend and a "no data"
// box. Static markup only (no script); every label is escaped. Coordinates never become NaN:
// empty or flat domains are widened and non-finite values are left out.

import { escapeHtml as e } from '../../report/text.ts';

export interface Tick {
  value: number;
  label: string;
}

export interface Axis {
  /** the axis title, with its unit, e.g. "latency (ms)" */
  label: string;
  min?: number;
  max?: number;
  /** explicit ticks (then min/max default to their extent); otherwise nice ticks are chosen */
  ticks?: Tick[];
  tickCount?: number;
}

/** y null (or non-finite) breaks the line. */
export type Point = readonly [number, number | null];

export interface LineSeries {
  color: string;
  points: readonly Point[];
  width?: number;
  dash?: string;
  opacity?: number;
  /** horizontal then vertical segments (a CDF, a cumulative count) */
  step?: boolean;
  /** points drawn as dots, with an optional tooltip each */
  dots?: readonly { x: number; y: number; title?: string }[];
  /** tooltip of the whole line */
  title?: string;
}

export interface Bar {
  x0: number;
  x1: number;
  y0?: number;
  y1: number;
  color: string;
  title?: string;
  /** text drawn above the bar, in its colour (e.g. a count that would not show at this scale) */
  label?: string;
}

/** A vertical band over [from, to) of x, the full height of the plot. */
export interface Band {
  from: number;
  to: number;
  color: string;
  opacity?: number;
  title?: string;
  /** 0, 1, 2...: also a solid mark in that row of a strip under the x axis, so a single second shows on a long run */
  rug?: number;
}

/** A vertical (x) or horizontal (y) rule, with a label drawn inside the plot. */
export interface Rule {
  at: number;
  color: string;
  label?: string;
  dash?: string;
}

export interface Chart {
  width?: number;
  height?: number;
  x: Axis;
  y: Axis;
  lines?: LineSeries[];
  bars?: Bar[];
  bands?: Band[];
  vrules?: Rule[];
  hrules?: Rule[];
  /**
   * Where the labels of horizontal rules go: 'inside' the plot above their rule (the default), or
   * in the 'margin' right of the plot, spread apart vertically with a leader to their rule, so that
   * rules close in value keep their labels clear of each other, of the data and of the other rules.
   */
  ruleLabels?: 'inside' | 'margin';
  /** accessible name of the figure */
  title: string;
}

export interface LegendItem {
  label: string;
  color: string;
  kind?: 'line' | 'dash' | 'band' | 'bar' | 'dot';
}

const FONT = 'font-family="-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,Helvetica Neue,Arial,sans-serif"';

const fin = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** A coordinate: two decimals at most, never NaN. */
function c(v: number): string {
  return fin(v) ? String(Math.round(v * 100) / 100) : '0';
}

/** 1, 2 or 5 times a power of ten, at least `raw`. */
function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** Number with as many decimals as the step needs (thousands separated). */
export function formatTick(v: number, step: number): string {
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step > 0 ? step : 1) + 1e-9)));
  const r = Math.abs(v) < step / 1e6 ? 0 : v;
  return r.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A domain [min, max] widened to nice ticks; an empty or flat one becomes [0, 1] or around its value. */
export function niceScale(min: number, max: number, count = 6): { min: number; max: number; ticks: Tick[] } {
  let lo = fin(min) ? min : 0;
  let hi = fin(max) ? max : 1;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) hi = lo === 0 ? 1 : lo + Math.abs(lo) * 0.5;
  const step = niceStep((hi - lo) / Math.max(1, count));
  const nlo = Math.floor(lo / step + 1e-9) * step;
  const nhi = Math.ceil(hi / step - 1e-9) * step;
  const ticks: Tick[] = [];
  for (let i = 0, v = nlo; v <= nhi + step / 2 && i < 100; i++, v = nlo + i * step) ticks.push({ value: v, label: formatTick(v, step) });
  return { min: nlo, max: nhi, ticks };
}

/** An axis as drawn: its domain and the ticks inside it. */
interface Scale {
  min: number;
  max: number;
  ticks: Tick[];
}

function resolveAxis(a: Axis, dataMin: number, dataMax: number): Scale {
  if (a.ticks && a.ticks.length) {
    const vs = a.ticks.map((t) => t.value);
    let min = a.min ?? Math.min(...vs);
    let max = a.max ?? Math.max(...vs);
    if (!(max > min)) max = min + 1;
    return { min, max, ticks: a.ticks.filter((t) => t.value >= min - 1e-9 && t.value <= max + 1e-9) };
  }
  const s = niceScale(a.min ?? dataMin, a.max ?? dataMax, a.tickCount ?? 6);
  if (a.min !== undefined) s.min = a.min;
  if (a.max !== undefined) s.max = a.max;
  s.ticks = s.ticks.filter((t) => t.value >= s.min - 1e-9 && t.value <= s.max + 1e-9);
  return s;
}

/** Position on the HDR percentile axis: 0% -> 0, 90% -> 1, 99% -> 2, 99.9% -> 3 (1/(1-p) on a log scale). */
export function percentileX(p: number): number {
  const q = Math.min(Math.max(p, 0), 99.9999);
  return Math.log10(100 / (100 - q));
}

/** Ticks of the HDR percentile axis up to 99.99% (with 50% and 75% when there is room). */
export function percentileTicks(detailed = true): Tick[] {
  const ps = detailed ? [0, 50, 75, 90, 99, 99.9, 99.99] : [0, 90, 99, 99.9, 99.99];
  return ps.map((p) => ({ value: percentileX(p), label: `${p}%` }));
}

/** Percentiles to sample for a smooth spectrum up to 99.99%. */
export function spectrumPercentiles(): number[] {
  const ps: number[] = [];
  for (let i = 0; i <= 80; i++) ps.push(100 * (1 - 10 ** (-i / 20)));
  return ps;
}

/** Keeps at most about two points per pixel column (the lowest and the highest), in order. */
function thin(points: readonly Point[], px: (x: number) => number, limit: number): Point[] {
  if (points.length <= limit) return [...points];
  const out: Point[] = [];
  let col = NaN;
  let lo: Point | undefined;
  let hi: Point | undefined;
  const flush = () => {
    if (!lo || !hi) return;
    if (lo === hi) out.push(lo);
    else if (lo[0] <= hi[0]) out.push(lo, hi);
    else out.push(hi, lo);
  };
  for (const p of points) {
    if (!fin(p[1])) {
      flush();
      lo = hi = undefined;
      out.push(p);
      col = NaN;
      continue;
    }
    const k = Math.round(px(p[0]));
    if (k !== col) {
      flush();
      col = k;
      lo = hi = p;
    } else {
      if (p[1]! < lo![1]!) lo = p;
      if (p[1]! > hi![1]!) hi = p;
    }
  }
  flush();
  return out;
}

/** Where a chart draws: its size, margins and plot area, the resolved axes and the maps from data to pixels. */
interface Frame {
  W: number;
  H: number;
  m: { l: number; r: number; t: number; b: number };
  /** plot width and height, inside the margins */
  pw: number;
  ph: number;
  /** height of the rug rows under the x axis (0 without rugs) */
  strip: number;
  X: Scale;
  Y: Scale;
  px: (v: number) => number;
  py: (v: number) => number;
}

/** One chart: gridlines, axes with ticks and titles, then bands, bars, lines and rules. */
export function chart(ch: Chart): string {
  const f = frameOf(ch);
  // Later marks paint over earlier ones: bands under the grid so the grid stays readable, the
  // rules and their labels over the data.
  return [
    ...chartOpening(ch, f),
    ...bandMarks(ch.bands ?? [], f),
    ...gridAndTicks(f),
    ...barMarks(ch.bars ?? [], f),
    ...lineMarks(ch.lines ?? [], f),
    ...rugMarks(ch.bands ?? [], f),
    ...vruleMarks(ch.vrules ?? [], f),
    ...(ch.ruleLabels === 'margin' ? marginRuleMarks(ch.hrules ?? [], f) : hruleMarks(ch.hrules ?? [], f)),
    ...axesAndTitles(ch, f),
    '</svg>',
  ].join('');
}

/** The finite x and y values of every mark, so that the axes cover them all. */
function dataValues(ch: Chart): { xs: number[]; ys: number[] } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of ch.lines ?? []) for (const [x, y] of s.points) if (fin(x) && fin(y)) (xs.push(x), ys.push(y));
  for (const b of ch.bars ?? []) {
    xs.push(b.x0, b.x1);
    ys.push(b.y0 ?? 0, b.y1);
  }
  for (const b of ch.bands ?? []) xs.push(b.from, b.to);
  for (const r of ch.vrules ?? []) xs.push(r.at);
  for (const r of ch.hrules ?? []) ys.push(r.at);
  return { xs: xs.filter(fin), ys: ys.filter(fin) };
}

/** The chart's size and margins, its axes resolved over the data, and the data-to-pixel maps. */
function frameOf(ch: Chart): Frame {
  const W = ch.width ?? 1100;
  const H = ch.height ?? 320;
  // rows of marks under the x axis (bands with `rug`), then the tick labels
  const rugRows = Math.max(0, ...(ch.bands ?? []).map((b) => (b.rug === undefined ? 0 : b.rug + 1)));
  const strip = rugRows ? rugRows * 7 + 3 : 0;
  const m = { l: 66, r: 30, t: 14, b: 46 + strip };
  if (ch.ruleLabels === 'margin') m.r = Math.max(m.r, LEADER + 8 + Math.max(0, ...(ch.hrules ?? []).map((r) => (r.label ? labelWidth(r.label) : 0))));
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const { xs: fx, ys: fy } = dataValues(ch);
  const X = resolveAxis(ch.x, fx.length ? Math.min(...fx) : 0, fx.length ? Math.max(...fx) : 1);
  // a little headroom over the highest value, so labels drawn at the top stay clear of the data
  const Y = resolveAxis(ch.y, fy.length ? Math.min(0, ...fy) : 0, fy.length ? Math.max(...fy) * 1.06 : 1);
  const clampX = (v: number) => Math.min(Math.max(v, X.min), X.max);
  const clampY = (v: number) => Math.min(Math.max(v, Y.min), Y.max);
  const px = (v: number) => m.l + ((clampX(v) - X.min) / (X.max - X.min)) * pw;
  const py = (v: number) => m.t + ph - ((clampY(v) - Y.min) / (Y.max - Y.min)) * ph;
  return { W, H, m, pw, ph, strip, X, Y, px, py };
}

/** The svg element with its accessible name, and the white plot area. */
function chartOpening(ch: Chart, { W, H, m, pw, ph }: Frame): string[] {
  return [
    `<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${e(ch.title)}" xmlns="http://www.w3.org/2000/svg" ${FONT} font-size="12">`,
    `<title>${e(ch.title)}</title>`,
    `<rect x="${m.l}" y="${m.t}" width="${c(pw)}" height="${c(ph)}" fill="#fff"/>`,
  ];
}

/** Bands over the full plot height; at least 1.5 px wide, so a single second shows on a long run. */
function bandMarks(bands: readonly Band[], { m, ph, px }: Frame): string[] {
  const out: string[] = [];
  for (const b of bands) {
    if (!fin(b.from) || !fin(b.to)) continue;
    const x0 = px(b.from);
    const w = Math.max(1.5, px(b.to) - x0);
    out.push(`<rect x="${c(x0)}" y="${m.t}" width="${c(w)}" height="${c(ph)}" fill="${e(b.color)}" fill-opacity="${b.opacity ?? 0.18}">${b.title ? `<title>${e(b.title)}</title>` : ''}</rect>`);
  }
  return out;
}

/** The solid marks of bands with `rug`, each in its row of the strip under the x axis. */
function rugMarks(bands: readonly Band[], { m, ph, px }: Frame): string[] {
  const out: string[] = [];
  for (const b of bands) {
    if (b.rug === undefined || !fin(b.from) || !fin(b.to)) continue;
    const x0 = px(b.from);
    out.push(`<rect x="${c(x0)}" y="${c(m.t + ph + 3 + b.rug * 7)}" width="${c(Math.max(3, px(b.to) - x0))}" height="6" fill="${e(b.color)}">${b.title ? `<title>${e(b.title)}</title>` : ''}</rect>`);
  }
  return out;
}

/** Horizontal gridlines with the y tick labels, vertical ones with the x ticks below the strip. */
function gridAndTicks({ m, pw, ph, strip, X, Y, px, py }: Frame): string[] {
  const out: string[] = [];
  for (const t of Y.ticks) {
    const y = py(t.value);
    out.push(`<line x1="${m.l}" x2="${c(m.l + pw)}" y1="${c(y)}" y2="${c(y)}" stroke="#e6e9ee"/>`);
    out.push(`<text x="${m.l - 7}" y="${c(y + 4)}" text-anchor="end" fill="#5d6b7e">${e(t.label)}</text>`);
  }
  for (const t of X.ticks) {
    const x = px(t.value);
    out.push(`<line x1="${c(x)}" x2="${c(x)}" y1="${m.t}" y2="${c(m.t + ph)}" stroke="#f0f2f5"/>`);
    out.push(`<line x1="${c(x)}" x2="${c(x)}" y1="${c(m.t + ph)}" y2="${c(m.t + ph + 5 + strip)}" stroke="#8c959f"/>`);
    out.push(`<text x="${c(x)}" y="${c(m.t + ph + 18 + strip)}" text-anchor="middle" fill="#5d6b7e">${e(t.label)}</text>`);
  }
  return out;
}

/** Bars from y0 (default 0) to y1, a pixel apart, each with its label above it. */
function barMarks(bars: readonly Bar[], { W, m, px, py }: Frame): string[] {
  const out: string[] = [];
  for (const b of bars) {
    if (![b.x0, b.x1, b.y1].every(fin)) continue;
    const x0 = px(b.x0);
    const x1 = px(b.x1);
    const yTop = py(b.y1);
    const yBot = py(b.y0 ?? 0);
    const h = yBot - yTop;
    if (h <= 0) continue;
    out.push(`<rect x="${c(x0 + 0.5)}" y="${c(yTop)}" width="${c(Math.max(1, x1 - x0 - 1))}" height="${c(h)}" fill="${e(b.color)}">${b.title ? `<title>${e(b.title)}</title>` : ''}</rect>`);
    if (b.label) {
      // centred over the bar, or ending at its right edge when it would run out of the chart
      const mid = (x0 + x1) / 2;
      const end = mid + b.label.length * 3.6 > W - 2;
      out.push(`<text x="${c(end ? x1 : mid)}" y="${c(Math.max(m.t + 10, yTop - 4))}" text-anchor="${end ? 'end' : 'middle'}" fill="${e(b.color)}" font-weight="700">${e(b.label)}</text>`);
    }
  }
  return out;
}

/** Each series as one path (thinned to about two points per pixel column) and its dots. */
function lineMarks(lines: readonly LineSeries[], f: Frame): string[] {
  const out: string[] = [];
  const limit = Math.max(200, Math.round(f.pw * 2));
  for (const s of lines) {
    const d = pathData(thin(s.points.filter((p) => fin(p[0])), f.px, limit), !!s.step, f);
    if (d) {
      out.push(
        `<path d="${d}" fill="none" stroke="${e(s.color)}" stroke-width="${s.width ?? 2}"${s.dash ? ` stroke-dasharray="${e(s.dash)}"` : ''}${s.opacity !== undefined ? ` stroke-opacity="${s.opacity}"` : ''} stroke-linejoin="round" stroke-linecap="round">${s.title ? `<title>${e(s.title)}</title>` : ''}</path>`,
      );
    }
    for (const dot of s.dots ?? []) {
      if (!fin(dot.x) || !fin(dot.y)) continue;
      out.push(`<circle cx="${c(f.px(dot.x))}" cy="${c(f.py(dot.y))}" r="3.5" fill="#fff" stroke="${e(s.color)}" stroke-width="2">${dot.title ? `<title>${e(dot.title)}</title>` : ''}</circle>`);
    }
  }
  return out;
}

/** The path's d attribute: a missing y lifts the pen, so a gap in the data stays a gap in the line. */
function pathData(pts: readonly Point[], step: boolean, { px, py }: Frame): string {
  let d = '';
  let pen = false;
  for (const [x, y] of pts) {
    if (!fin(y)) {
      pen = false;
      continue;
    }
    const X1 = px(x);
    const Y1 = py(y);
    if (!pen) d += `M${c(X1)} ${c(Y1)}`;
    else if (step) d += `H${c(X1)}V${c(Y1)}`;
    else d += `L${c(X1)} ${c(Y1)}`;
    pen = true;
  }
  return d;
}

/** Vertical rules inside the x domain, labelled inside the plot. */
function vruleMarks(rules: readonly Rule[], { m, ph, X, px }: Frame): string[] {
  const out: string[] = [];
  for (const r of rules) {
    if (!fin(r.at) || r.at < X.min || r.at > X.max) continue;
    const x = px(r.at);
    out.push(`<line x1="${c(x)}" x2="${c(x)}" y1="${m.t}" y2="${c(m.t + ph)}" stroke="${e(r.color)}" stroke-width="2"${r.dash ? ` stroke-dasharray="${e(r.dash)}"` : ''}/>`);
    if (r.label) {
      // left of the line when the label fits there, else right of it
      const right = x - m.l < r.label.length * 7 + 10;
      out.push(`<text x="${c(right ? x + 5 : x - 5)}" y="${m.t + 14}" text-anchor="${right ? 'start' : 'end'}" fill="${e(r.color)}" font-weight="600" paint-order="stroke" stroke="#fff" stroke-width="3">${e(r.label)}</text>`);
    }
  }
  return out;
}

/** Width in pixels of a bold 12 px label, a little generous so that boxes keep apart. */
const labelWidth = (label: string) => label.length * 7.2;
/** Height of a label's line, and the gap kept between two labels side by side. */
const LABEL_H = 14;
const LABEL_GAP = 12;

/** A label's box: x from x0 to x1, the text's baseline at y. */
interface LabelBox {
  x0: number;
  x1: number;
  y: number;
}

/** Where a label goes: at the left, moved right past every label already placed that it would overlap (rules close in value). */
function placeLabel(width: number, y: number, left: number, placed: LabelBox[]): LabelBox {
  let x = left;
  for (let moved = true; moved; ) {
    moved = false;
    for (const p of placed)
      if (Math.abs(p.y - y) < LABEL_H && x < p.x1 + LABEL_GAP && x + width > p.x0 - LABEL_GAP) {
        x = p.x1 + LABEL_GAP;
        moved = true;
      }
  }
  const box = { x0: x, x1: x + width, y };
  placed.push(box);
  return box;
}

/** Horizontal rules inside the y domain, labelled just above them at the left; labels that would overlap are set side by side. */
function hruleMarks(rules: readonly Rule[], { m, pw, Y, py }: Frame): string[] {
  const lines: string[] = [];
  const labels: string[] = [];
  const placed: LabelBox[] = [];
  for (const r of rules) {
    if (!fin(r.at) || r.at < Y.min || r.at > Y.max) continue;
    const y = py(r.at);
    lines.push(`<line x1="${m.l}" x2="${c(m.l + pw)}" y1="${c(y)}" y2="${c(y)}" stroke="${e(r.color)}" stroke-width="2"${r.dash ? ` stroke-dasharray="${e(r.dash)}"` : ''}/>`);
    if (!r.label) continue;
    const box = placeLabel(labelWidth(r.label), y - 5, m.l + 6, placed);
    // a pale box under the text: another rule a few pixels away would otherwise run through it
    labels.push(`<rect x="${c(box.x0 - 2)}" y="${c(box.y - 11)}" width="${c(box.x1 - box.x0 + 4)}" height="${LABEL_H}" fill="#fff" fill-opacity="0.85"/>`);
    labels.push(`<text class="rule-label" x="${c(box.x0)}" y="${c(box.y)}" fill="${e(r.color)}" font-weight="600" paint-order="stroke" stroke="#fff" stroke-width="3">${e(r.label)}</text>`);
  }
  // every label over every line, so that no rule crosses a label set beside another
  return [...lines, ...labels];
}

/** Horizontal width of the leader from a rule's end to its label in the margin. */
const LEADER = 12;
/** Baseline to baseline of labels stacked in the margin: a 12 px line as the browser boxes it (ascent and descent) stays clear of the next. */
const MARGIN_LINE = 16;

/**
 * Baselines of labels wanted at `ys` (in order), moved `line` apart at least, within [top, bottom]:
 * pushed down past the one above, then back up from the bottom when they run out.
 */
export function spreadLabels(ys: readonly number[], top: number, bottom: number, line = MARGIN_LINE): number[] {
  const out = ys.map((y) => Math.min(Math.max(y, top), bottom));
  for (let i = 1; i < out.length; i++) out[i] = Math.max(out[i]!, out[i - 1]! + line);
  for (let i = out.length - 1; i >= 0; i--) out[i] = Math.min(out[i]!, i === out.length - 1 ? bottom : out[i + 1]! - line);
  return out;
}

/** Horizontal rules inside the y domain, each labelled in the right margin, the labels spread apart and joined to their rule by a leader. */
function marginRuleMarks(rules: readonly Rule[], { m, pw, ph, Y, py }: Frame): string[] {
  const drawn = rules.filter((r) => fin(r.at) && r.at >= Y.min && r.at <= Y.max);
  const lines = drawn.map((r) => `<line x1="${m.l}" x2="${c(m.l + pw)}" y1="${c(py(r.at))}" y2="${c(py(r.at))}" stroke="${e(r.color)}" stroke-width="2"${r.dash ? ` stroke-dasharray="${e(r.dash)}"` : ''}/>`);
  // top to bottom on the page: higher values first
  const labelled = drawn.filter((r) => r.label).sort((a, b) => py(a.at) - py(b.at));
  const ys = spreadLabels(labelled.map((r) => py(r.at) + 4), m.t + 10, m.t + ph + 4);
  const x0 = m.l + pw;
  const labels = labelled.flatMap((r, i) => [
    `<path d="M${c(x0)} ${c(py(r.at))}L${c(x0 + LEADER - 4)} ${c(ys[i]! - 4)}H${c(x0 + LEADER)}" fill="none" stroke="${e(r.color)}" stroke-width="1"/>`,
    `<text class="rule-label" x="${c(x0 + LEADER + 3)}" y="${c(ys[i]!)}" fill="${e(r.color)}" font-weight="600">${e(r.label!)}</text>`,
  ]);
  return [...lines, ...labels];
}

/** The two axis lines and their titles. */
function axesAndTitles(ch: Chart, { H, m, pw, ph }: Frame): string[] {
  // a y title longer than the plot is high gets a smaller font
  const yFont = Math.max(8, Math.min(12, (ph - 4) / (ch.y.label.length * 0.62)));
  return [
    `<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${c(m.t + ph)}" stroke="#8c959f"/>`,
    `<line x1="${m.l}" x2="${c(m.l + pw)}" y1="${c(m.t + ph)}" y2="${c(m.t + ph)}" stroke="#8c959f"/>`,
    `<text x="${c(m.l + pw / 2)}" y="${H - 6}" text-anchor="middle" fill="#1c2330" font-weight="600">${e(ch.x.label)}</text>`,
    `<text transform="translate(14 ${c(m.t + ph / 2)}) rotate(-90)" text-anchor="middle" fill="#1c2330" font-weight="600"${yFont < 12 ? ` font-size="${c(yFont)}"` : ''}>${e(ch.y.label)}</text>`,
  ];
}

/** An HTML legend with small SVG swatches. */
export function legend(items: readonly LegendItem[]): string {
  if (!items.length) return '';
  const swatch = (i: LegendItem) => {
    const col = e(i.color);
    switch (i.kind ?? 'line') {
      case 'band':
        return `<svg width="18" height="12" aria-hidden="true"><rect width="18" height="12" fill="${col}" fill-opacity="0.3" stroke="${col}" stroke-opacity="0.6"/></svg>`;
      case 'bar':
        return `<svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" rx="2" fill="${col}"/></svg>`;
      case 'dot':
        return `<svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="4" fill="#fff" stroke="${col}" stroke-width="2"/></svg>`;
      case 'dash':
        return `<svg width="24" height="12" aria-hidden="true"><line x1="0" x2="24" y1="6" y2="6" stroke="${col}" stroke-width="2" stroke-dasharray="5 3"/></svg>`;
      default:
        return `<svg width="24" height="12" aria-hidden="true"><line x1="0" x2="24" y1="6" y2="6" stroke="${col}" stroke-width="2.5"/></svg>`;
    }
  };
  return `<div class="plot-legend">${items.map((i) => `<span>${swatch(i)}${e(i.label)}</span>`).join('')}</div>`;
}

/** The box shown in place of a chart without data. */
export function noData(message: string): string {
  return `<div class="nodata" role="note"><strong>No data</strong><span>${e(message)}</span></div>`;
}
