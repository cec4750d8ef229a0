import { KitError } from '../../ground/errors.ts';
import { checkSeed } from '../../ground/seed.ts';
import type { RunFigures } from './run.ts';
import type { SideInfo } from './sides.ts';
import type { Environment } from '../report/types.ts';
import { compareRatios, median, pairsToReach, smallestP, type Better, type Interval, type Verdict } from './stats.ts';

// What `compare` judges, as data: per mode the metrics, their unit, which way is better and how a
// run's figures give them; then the paired ratios head/base of each metric judged by the rule of
// stats.ts. compare.json (CompareReport) is the contract for compare.html.

export const COMPARE_SCHEMA_VERSION = 2;
export type CompareMode = 'api' | 'sendpath';
/** pass, warn, fail; or inconclusive: too few pairs for the test ever to reach alpha, so no verdict either way. */
export type CompareVerdict = Verdict | 'inconclusive';

export interface MetricDef {
  id: string;
  label: string;
  unit: string;
  better: Better;
  /** the metric of one run, in `unit`; undefined when the run did not measure it */
  of(r: RunFigures): number | undefined;
  /** what it is, for the report */
  about: string;
}

const ms = (us: number) => us / 1000;

export const METRICS: Record<CompareMode, MetricDef[]> = {
  api: [
    { id: 'cpu', label: 'CPU per request', unit: 'µs', better: 'lower', of: (r) => r.cpuPerRequestUs, about: "the target's CPU time over the run divided by the requests it answered (the steadiest figure)" },
    { id: 'p50', label: 'p50 latency', unit: 'ms', better: 'lower', of: (r) => ms(r.p50), about: 'median service time (closed model: from the moment each request left)' },
    { id: 'p99', label: 'p99 latency', unit: 'ms', better: 'lower', of: (r) => ms(r.p99), about: '99th percentile service time' },
    { id: 'throughput', label: 'throughput', unit: 'req/s', better: 'higher', of: (r) => r.throughput, about: 'completed requests per wall second' },
  ],
  sendpath: [
    { id: 'cpu', label: 'CPU per email', unit: 'µs', better: 'lower', of: (r) => r.cpuPerRequestUs, about: "the target's CPU time over the run (setup included) divided by the emails that arrived" },
    { id: 'achieved', label: 'achieved/ideal', unit: '', better: 'higher', of: (r) => r.achieved, about: 'sends per day achieved against what the caps and gaps allow' },
    { id: 'p50', label: 'p50 allowed→arrival', unit: 'ms', better: 'lower', of: (r) => ms(r.p50), about: "median time from the moment a send became allowed to its arrival at the sink (the target's clock)" },
    { id: 'p99', label: 'p99 allowed→arrival', unit: 'ms', better: 'lower', of: (r) => ms(r.p99), about: '99th percentile of the same' },
    { id: 'throughput', label: 'emails per wall second', unit: 'emails/s', better: 'higher', of: (r) => r.throughput, about: 'emails through the sink per wall-clock second' },
  ],
};

export const DEFAULT_THRESHOLD = 0.1;
export const DEFAULT_ALPHA = 0.05;

/** `--threshold cpu=5%` (or `cpu=0.05`) -> { cpu: 0.05 }; an unknown metric or a bad share is named. */
export function parseMetricThresholds(exprs: readonly string[], mode: CompareMode): Record<string, number> {
  const known = METRICS[mode].map((m) => m.id);
  const out: Record<string, number> = {};
  for (const x of exprs) {
    const m = /^([\w.-]+)=(\d+(?:\.\d+)?)(%?)$/.exec(x.trim());
    if (!m) throw new KitError(`--threshold takes METRIC=SHARE, e.g. cpu=5% or p99=0.2, not "${x}"; metrics of ${mode}: ${known.join(', ')}`);
    if (!known.includes(m[1]!)) throw new KitError(`--threshold ${x}: unknown metric "${m[1]}"; metrics of ${mode}: ${known.join(', ')}`);
    const share = Number(m[2]) / (m[3] ? 100 : 1);
    if (!(share > 0 && share < 1)) throw new KitError(`--threshold ${x}: the share must be above 0 and below 100%`);
    out[m[1]!] = share;
  }
  return out;
}

export interface MetricResult {
  id: string;
  label: string;
  unit: string;
  better: Better;
  about: string;
  threshold: number;
  /** the metric per pair, base and head (null where a run did not measure it) */
  base: (number | null)[];
  head: (number | null)[];
  /** head/base per pair */
  ratios: number[];
  medianRatio: number | null;
  ci: Interval | null;
  /** exact one-sided Wilcoxon signed-rank p-value in the bad direction (the rule's test) */
  pValue: number | null;
  /** exact one-sided sign test p-value, shown beside it */
  signTestP: number | null;
  worse: boolean;
  significant: boolean;
  verdict: CompareVerdict | 'unmeasured';
  /** why it is unmeasured or inconclusive */
  note?: string;
}

export interface CompareRun {
  pair: number;
  side: 'base' | 'head';
  /** 1 when this side ran first in its pair */
  position: 1 | 2;
  figures: RunFigures;
}

export interface CompareReport {
  schemaVersion: typeof COMPARE_SCHEMA_VERSION;
  kind: 'compare';
  runId: string;
  mode: CompareMode;
  startedAt: string;
  finishedAt: string;
  environment: Environment;
  base: SideInfo;
  head: SideInfo;
  settings: { pairs: number; alpha: number; seed: number; order: string; run: Record<string, number | string> };
  warmup: { base: RunFigures; head: RunFigures };
  runs: CompareRun[];
  metrics: MetricResult[];
  /** the worst metric verdict; inconclusive when no metric could decide (none failed, none passed or warned) */
  verdict: CompareVerdict;
  /** the fewest pairs whose one-sided test can reach alpha (2^-n below it): with fewer, every metric is inconclusive */
  pairsNeeded: number;
  notes: string[];
}

/** Each metric of the mode judged over the pairs of runs. */
export function judgeMetrics(mode: CompareMode, runs: readonly CompareRun[], o: { thresholds: Record<string, number>; alpha: number; seed: number }): MetricResult[] {
  const pairs = [...new Set(runs.map((r) => r.pair))].sort((a, b) => a - b);
  const figure = (pair: number, side: 'base' | 'head') => runs.find((r) => r.pair === pair && r.side === side)?.figures;
  return METRICS[mode].map((def) => {
    const threshold = o.thresholds[def.id] ?? DEFAULT_THRESHOLD;
    const val = (r: RunFigures | undefined) => {
      const v = r ? def.of(r) : undefined;
      return v !== undefined && Number.isFinite(v) ? v : null;
    };
    const base = pairs.map((p) => val(figure(p, 'base')));
    const head = pairs.map((p) => val(figure(p, 'head')));
    // rounded to 6 decimals: two equal figures (achieved/ideal 1 on both sides) make a tie, not a float's noise
    const ratios = pairs.flatMap((_, i) => (base[i] !== null && head[i] !== null && base[i]! > 0 && head[i]! >= 0 ? [Math.round((head[i]! / base[i]!) * 1e6) / 1e6] : []));
    const common = { id: def.id, label: def.label, unit: def.unit, better: def.better, about: def.about, threshold, base, head, ratios };
    if (ratios.length < pairs.length || ratios.length === 0) {
      const note = def.id === 'cpu' ? "the target's CPU time is not known on both sides (a URL side needs load.cpu.pid or load.cpu.metricsUrl in its profile)" : `measured in ${ratios.length} of ${pairs.length} pairs`;
      return { ...common, medianRatio: ratios.length ? median(ratios) : null, ci: null, pValue: null, signTestP: null, worse: false, significant: false, verdict: 'unmeasured', note };
    }
    const r = compareRatios(ratios, { better: def.better, threshold, alpha: o.alpha, seed: checkSeed(o.seed, def.id) });
    const judged = { ...common, medianRatio: r.medianRatio, ci: r.ci, pValue: r.pValue, signTestP: r.signTestP, worse: r.worse, significant: r.significant };
    // A test that cannot reach alpha cannot fail the metric: its pass (or warning) would say nothing.
    if (smallestP(ratios.length) >= o.alpha) return { ...judged, verdict: 'inconclusive', note: tooFewPairs(ratios.length, o.alpha) };
    return { ...judged, verdict: r.verdict };
  });
}

/** Why n pairs cannot decide at alpha, and how many can. */
export function tooFewPairs(n: number, alpha: number): string {
  const needed = pairsToReach(alpha);
  return `with ${n} pairs the smallest one-sided p-value is ${smallestP(n).toFixed(4)}, not below alpha ${alpha}, so no fail is possible: ${needed} pairs can decide (--pairs ${needed})`;
}

/** The worst verdict of the metrics that decided; inconclusive when none did (none failed, passed or warned). */
export function overallVerdict(metrics: readonly MetricResult[]): CompareVerdict {
  const vs = metrics.map((m) => m.verdict);
  if (vs.includes('fail')) return 'fail';
  if (!vs.includes('warn') && !vs.includes('pass')) return 'inconclusive';
  return vs.includes('warn') ? 'warn' : 'pass';
}

/** The exit code of a comparison: 1 a metric failed, 2 no metric could decide (not a pass), 0 otherwise. */
export const compareExitCode = (v: CompareVerdict): 0 | 1 | 2 => (v === 'fail' ? 1 : v === 'inconclusive' ? 2 : 0);

/** "1.234" for a ratio, "–" when unknown. */
export const fmtRatio = (r: number | null | undefined): string => (typeof r === 'number' && Number.isFinite(r) ? r.toFixed(3) : '–');

/** The ratio past which the metric is worse: 1.10 for lower-is-better at 10 %, 0.90 for higher-is-better. */
export const thresholdRatio = (m: Pick<MetricResult, 'better' | 'threshold'>): number => (m.better === 'lower' ? 1 + m.threshold : 1 - m.threshold);

/**
 * One sentence saying why the metric got its verdict. `briefly`: an inconclusive metric's reason
 * without the count of pairs needed, where a note beside it says that once for every metric.
 */
export function explainVerdict(m: MetricResult, alpha: number, o: { briefly?: boolean } = {}): string {
  if (m.verdict === 'unmeasured') return `not judged: ${m.note ?? 'not measured'}`;
  const dir = m.better === 'lower' ? 'above' : 'below';
  const ratio = `median ratio head/base ${fmtRatio(m.medianRatio)} is ${m.worse ? '' : 'not '}${dir} ${fmtRatio(thresholdRatio(m))}`;
  if (m.verdict === 'inconclusive') return `INCONCLUSIVE: ${ratio}, p = ${m.pValue?.toFixed(4)}, but ${o.briefly ? `${m.ratios.length} pairs cannot reach alpha ${alpha}` : m.note}`;
  const test = `the one-sided test ${m.significant ? 'is' : 'is not'} significant (p = ${m.pValue?.toFixed(4)} ${m.significant ? '<' : '>='} ${alpha})`;
  return `${m.verdict.toUpperCase()}: ${ratio}, ${test}`;
}
