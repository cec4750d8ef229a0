import { LoadMetrics, type RunLabels } from './load-metrics.ts';
import type { MetricsTarget } from './flag.ts';
import { remoteWriteExporter, type Exporter } from './remote-write.ts';
import { describeOutcomes, MetricsStream } from './stream.ts';

// A load run's metrics outputs (--metrics), opened together: one fold of the run's events, pushed
// to every output. What the load modes hold: `shot` and `deliveries` to feed, `finish` at the end.

export { parseMetricsFlag, hasCredentials, hideCredentials, type MetricsTarget } from './flag.ts';
export { METRIC } from './load-metrics.ts';

export interface RunMetrics {
  readonly metrics: LoadMetrics;
  /** the last push to every output (bounded), then the report's lines on what arrived */
  finish(): Promise<string[]>;
  /** stops the pushes without a last one (the run failed or was refused) */
  abandon(): void;
}

/** Push bounds: a periodic push gives up after 2 s, the last one after 5 s. */
const TIMEOUT_MS = 2_000;
const FINAL_TIMEOUT_MS = 5_000;

export async function openRunMetrics(targets: MetricsTarget[], run: RunLabels, o: { everyMs: number; warn(line: string): void }): Promise<RunMetrics | undefined> {
  if (targets.length === 0) return undefined;
  const exporters: Exporter[] = [];
  for (const t of targets) exporters.push(t.kind === 'otlp' ? (await import('./otlp.ts')).otlpExporter(t) : remoteWriteExporter(t));
  const metrics = new LoadMetrics(run);
  const stream = new MetricsStream(metrics, exporters, { everyMs: o.everyMs, timeoutMs: Math.min(TIMEOUT_MS, o.everyMs), finalTimeoutMs: FINAL_TIMEOUT_MS, warn: o.warn });
  stream.start();
  let finished: Promise<string[]> | undefined;
  return { metrics, finish: () => (finished ??= stream.stop().then(describeOutcomes)), abandon: () => stream.halt() };
}
