// A compare.json as `compare --mode api --pairs 3` writes it (INCONCLUSIVE: 3 pairs cannot reach
// alpha 0.05), for the tests of compare.html: its metrics judged by the real rule over synthetic
// runs in which head is half a percent slower than base, so that the median, "no change" and the
// threshold lie close together.
import { encode, newHistogram } from '../report/histogram.ts';
import { COMPARE_SCHEMA_VERSION, judgeMetrics, overallVerdict, tooFewPairs, type CompareReport, type CompareRun } from './metrics.ts';
import type { RunFigures } from './run.ts';

function figures(i: number, slower: number): RunFigures {
  const wobble = 1 + ((i * 37) % 7) / 1000;
  return { requests: 2000, errors: 0, wallMs: 1000 * wobble * slower, throughput: (2000 / wobble) / slower, p50: 1200 * wobble * slower, p99: 4100 * wobble * slower, cpuUs: 150_000 * wobble * slower, cpuPerRequestUs: 75 * wobble * slower, histogram: encode(newHistogram()) };
}

export function compareReport(pairs = 3): CompareReport {
  const runs: CompareRun[] = [];
  for (let p = 1; p <= pairs; p++) {
    const baseFirst = p % 2 === 1;
    runs.push({ pair: p, side: 'base', position: baseFirst ? 1 : 2, figures: figures(p, 1) }, { pair: p, side: 'head', position: baseFirst ? 2 : 1, figures: figures(p + 1, 1.005) });
  }
  const metrics = judgeMetrics('api', runs, { thresholds: {}, alpha: 0.05, seed: 7 });
  const side = (flag: 'base' | 'head') => ({ flag, given: flag === 'base' ? 'HEAD~1' : '.', kind: flag === 'base' ? ('rev' as const) : ('this' as const), baseUrl: 'http://127.0.0.1:1', cpu: 'process CPU time of the served reference' });
  return {
    schemaVersion: COMPARE_SCHEMA_VERSION,
    kind: 'compare',
    runId: '2025-01-06T09-00-00-000Z-compare-api-ab12',
    mode: 'api',
    startedAt: '2025-01-06T09:00:00.000Z',
    finishedAt: '2025-01-06T09:01:00.000Z',
    environment: { cpu: 'test cpu', cpus: 2, node: 'v20.0.0', kit: '0.9.0', os: 'Linux', targetUrl: 'http://127.0.0.1:1', profileHash: '0'.repeat(64) },
    base: side('base'),
    head: side('head'),
    settings: { pairs, alpha: 0.05, seed: 7, order: 'interleaved, the first side alternating', run: { requests: 2000, warmup: 5000, connections: 4 } },
    warmup: { base: figures(0, 1), head: figures(0, 1.005) },
    runs,
    metrics,
    verdict: overallVerdict(metrics),
    pairsNeeded: 5,
    notes: pairs < 5 ? [`INCONCLUSIVE: no metric can decide; ${tooFewPairs(pairs, 0.05)}`] : [],
  };
}
