import { bucketOf, HIGHEST, LOWEST } from './buckets.ts';

// What a load run streams while it runs, folded from the same events load.json is built from
// (generator/collect.ts for the API, the sink's arrivals for the send path): completed requests by
// status, errors, late sends, the schedule lag, the corrected latency in the shared buckets, and
// the send path's deliveries. One fold feeds every output (remote write, OTLP), so they agree with
// each other and with load.json. Counters are cumulative from the run's start, as Prometheus reads them.

/** The part of a completed request (generator/open-model.ts's Shot) the metrics read. */
export interface MetricShot {
  /** ms since the run's start: when it was due, when it left, when it completed */
  intended: number;
  sent: number;
  done: number;
  /** HTTP status, 0 for a transport failure */
  status: number;
  late: boolean;
}

/** The send path's figures so far (what `load sendpath` reports at the end). */
export interface Delivery {
  expected: number;
  delivered: number;
  duplicates?: number;
  losses?: number;
}

/** One counter or gauge: its Prometheus name (counters end in _total), its labels beyond the run's. */
export interface Scalar {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  labels: Record<string, string>;
  value: number;
}

/** The latency histogram: counts per bucket from `lo` to `hi` (buckets.ts), none outside. */
export interface LatencySnapshot {
  name: string;
  help: string;
  lo: number;
  counts: number[];
  count: number;
  /** seconds */
  sum: number;
}

export interface Snapshot {
  /** epoch ms of this snapshot, and of the run's start (a cumulative counter's start) */
  at: number;
  start: number;
  /** job, run, shard, kind: on every series */
  labels: Record<string, string>;
  scalars: Scalar[];
  latency: LatencySnapshot;
}

export interface RunLabels {
  run: string;
  /** "k/n"; "1/1" when the run is not sharded */
  shard: string;
  kind: 'api' | 'sendpath';
}

export const METRIC = {
  requests: 'outreach_load_requests_total',
  errors: 'outreach_load_errors_total',
  late: 'outreach_load_late_total',
  lag: 'outreach_load_schedule_lag_seconds',
  latency: 'outreach_load_latency_seconds',
  expected: 'outreach_load_emails_expected',
  delivered: 'outreach_load_emails_delivered_total',
  duplicates: 'outreach_load_emails_duplicates',
  losses: 'outreach_load_emails_lost',
} as const;

export class LoadMetrics {
  private readonly start = Date.now();
  private readonly status = new Map<number, number>();
  private errors = 0;
  private late = 0;
  /** the largest lag (sent minus intended, ms) since the previous snapshot */
  private lagMs = 0;
  private readonly counts = new Float64Array(HIGHEST - LOWEST + 1);
  private lo = Infinity;
  private hi = -Infinity;
  private count = 0;
  private sum = 0;
  private delivery?: Delivery;

  constructor(private readonly run: RunLabels) {}

  /** A completed request: as the collector counts it (an error is any status outside 2xx). */
  readonly shot = (s: MetricShot): void => {
    this.status.set(s.status, (this.status.get(s.status) ?? 0) + 1);
    if (s.status < 200 || s.status > 299) this.errors++;
    if (s.late) this.late++;
    if (s.sent - s.intended > this.lagMs) this.lagMs = s.sent - s.intended;
    // Whole microseconds, as load.json's histogram records them.
    const seconds = Math.max(1, Math.round((s.done - s.intended) * 1000)) / 1e6;
    const i = Math.min(HIGHEST, bucketOf(seconds)) - LOWEST;
    this.counts[i]!++;
    if (i < this.lo) this.lo = i;
    if (i > this.hi) this.hi = i;
    this.count++;
    this.sum += seconds;
  };

  /** The send path's figures so far (replaces the previous). */
  readonly deliveries = (d: Delivery): void => {
    this.delivery = { ...this.delivery, ...d };
  };

  /** Everything as of now; the schedule lag is the largest since the previous snapshot. */
  snapshot(): Snapshot {
    const scalars: Scalar[] = [];
    const add = (name: string, type: Scalar['type'], help: string, value: number, labels: Record<string, string> = {}) => scalars.push({ name, type, help, labels, value });
    if (this.run.kind === 'api') {
      const statuses = [...this.status.entries()].sort((a, b) => a[0] - b[0]);
      for (const [status, n] of statuses) add(METRIC.requests, 'counter', 'completed requests by HTTP status (0: no answer)', n, { status: String(status) });
      if (statuses.length === 0) add(METRIC.requests, 'counter', 'completed requests by HTTP status (0: no answer)', 0, { status: '200' });
      add(METRIC.errors, 'counter', 'completed requests whose status is not 2xx (429 and no answer included)', this.errors);
      add(METRIC.late, 'counter', 'requests that left more than 1 ms after their time in the schedule', this.late);
      add(METRIC.lag, 'gauge', 'the largest delay of a send behind its time in the schedule since the previous push', this.lagMs / 1000);
      this.lagMs = 0;
    }
    if (this.delivery) {
      add(METRIC.expected, 'gauge', 'emails the send path expects at the sink', this.delivery.expected);
      add(METRIC.delivered, 'counter', 'expected emails arrived at the sink', this.delivery.delivered);
      if (this.delivery.duplicates !== undefined) add(METRIC.duplicates, 'gauge', 'emails that arrived more than once (at the end)', this.delivery.duplicates);
      if (this.delivery.losses !== undefined) add(METRIC.losses, 'gauge', 'expected emails that never arrived (at the end)', this.delivery.losses);
    }
    const empty = this.count === 0;
    // One empty bucket below the lowest reached: a quantile in the lowest reached bucket then
    // interpolates from its own lower bound (histogram_quantile takes 0 below the first bucket).
    const from = Math.max(0, this.lo - 1);
    const latency: LatencySnapshot = {
      name: METRIC.latency,
      help: 'latency from the intended send time (corrected for coordinated omission), seconds',
      lo: empty ? 0 : from + LOWEST,
      counts: empty ? [] : Array.from(this.counts.subarray(from, this.hi + 1)),
      count: this.count,
      sum: this.sum,
    };
    return { at: Date.now(), start: this.start, labels: { job: 'outreach-load', ...this.run }, scalars, latency };
  }
}
