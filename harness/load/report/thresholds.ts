import { KitError } from '../../ground/errors.ts';
import { decode, percentile } from './histogram.ts';
import type { LoadReport, ThresholdResult } from './types.ts';

// Thresholds that fail a load run (exit 1), given with --threshold or in the profile's
// load.thresholds: `p99<300ms`, `service.p50<=20ms`, `errors<0.1%`, `late<1%`, `throughput>=100/s`,
// `violations<1`, `duplicates<1`, `losses<1`, `achieved>=0.95` (send path: achieved/ideal).
// Latency metrics read the corrected histogram (from the intended send time) unless prefixed
// with `service.`.

type Op = '<' | '<=' | '>' | '>=';
export interface Threshold {
  expr: string;
  metric: string;
  op: Op;
  /** in the metric's unit (ms for latency, % for rates given with %, /s for throughput) */
  value: number;
  unit: string;
}

const LATENCY = /^(service\.)?(p\d+(?:\.\d+)?|max|mean)$/;
const COUNTS = ['errors', 'late', 'violations', 'duplicates', 'losses', '5xx', '429'];
const UNIT_MS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000 };

export function parseThreshold(expr: string): Threshold {
  const m = /^\s*([\w.]+)\s*(<=|>=|<|>)\s*(\d+(?:\.\d+)?)\s*(us|µs|ms|s|%|\/s)?\s*$/.exec(expr);
  const bad = (why: string) => new KitError(`threshold "${expr}": ${why} (e.g. p99<300ms, errors<0.1%, throughput>=100/s)`);
  if (!m) throw bad('not <metric><op><value><unit>');
  const [, metric, op, num, unit] = m as unknown as [string, string, Op, string, string | undefined];
  const value = Number(num);
  if (LATENCY.test(metric)) {
    const p = /^(?:service\.)?p(\d+(?:\.\d+)?)$/.exec(metric);
    if (p && Number(p[1]) > 100) throw bad('a percentile is at most 100');
    if (!unit || !(unit in UNIT_MS)) throw bad('a latency needs a unit: us, ms or s');
    return { expr, metric, op, value: value * UNIT_MS[unit]!, unit: 'ms' };
  }
  if (COUNTS.includes(metric)) {
    if (unit && unit !== '%') throw bad(`${metric} is a count or a percentage of requests`);
    return { expr, metric, op, value, unit: unit ?? 'count' };
  }
  if (metric === 'throughput') {
    if (unit && unit !== '/s') throw bad('throughput is in /s');
    return { expr, metric, op, value, unit: '/s' };
  }
  if (metric === 'achieved') {
    if (unit) throw bad('achieved is the ratio achieved/ideal of the send path, without a unit');
    return { expr, metric, op, value, unit: 'ratio' };
  }
  throw bad(`unknown metric "${metric}"; known: p50, p99, p99.9, max, mean (service.* too), ${COUNTS.join(', ')}, throughput, achieved`);
}

/** The measured value of a threshold's metric, in its unit; undefined when the run has none. */
function measure(t: Threshold, r: LoadReport): number | undefined {
  const lat = LATENCY.exec(t.metric);
  if (lat) {
    const h = decode(lat[1] ? r.totals.service : r.totals.corrected);
    if (h.totalCount === 0) return undefined;
    const us = lat[2] === 'max' ? h.maxValue : lat[2] === 'mean' ? h.mean : percentile(h, Number(lat[2]!.slice(1)));
    return us / 1000;
  }
  if (t.metric === 'throughput') return r.totals.throughput;
  if (t.metric === 'achieved') return r.sendpath ? r.sendpath.achievedPerDay / Math.max(r.sendpath.idealPerDay, Number.EPSILON) : undefined;
  const count = (() => {
    switch (t.metric) {
      case 'errors':
        return r.totals.errors;
      case 'late':
        return r.totals.late;
      case 'violations':
        return r.violationCounts ? Object.values(r.violationCounts).reduce((a, n) => a + n, 0) : r.violations.length;
      case 'duplicates':
        return r.sendpath?.duplicates;
      case 'losses':
        return r.sendpath?.losses;
      default:
        return Object.entries(r.totals.status).filter(([s]) => (t.metric === '5xx' ? s.startsWith('5') : s === t.metric)).reduce((a, [, n]) => a + n, 0);
    }
  })();
  if (count === undefined) return undefined;
  if (t.unit !== '%') return count;
  const base = t.metric === 'duplicates' || t.metric === 'losses' ? (r.sendpath?.leads ?? 0) : r.totals.sent;
  return base === 0 ? 0 : (count / base) * 100;
}

const holds = (a: number, op: Op, b: number) => (op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b);

/** Every threshold held against the report; a metric the run did not measure fails, saying so. */
export function evaluateThresholds(ts: readonly Threshold[], r: LoadReport): ThresholdResult[] {
  return ts.map((t) => {
    const actual = measure(t, r);
    if (actual === undefined) return { expr: t.expr, ok: false, actual: Number.NaN, unit: t.unit, note: 'this run did not measure it' };
    return { expr: t.expr, ok: holds(actual, t.op, t.value), actual: Math.round(actual * 1000) / 1000, unit: t.unit };
  });
}

/** "threshold p99<300ms broke: 412.5 ms" lines for the console. */
export function describeBroken(results: readonly ThresholdResult[]): string[] {
  return results.filter((r) => !r.ok).map((r) => `threshold ${r.expr} broke: ${Number.isNaN(r.actual) ? (r.note ?? 'not measured') : `${r.actual} ${r.unit}`}`);
}
