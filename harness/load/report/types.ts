// The shape of reports/<run>/load.json: what every load mode (api, capacity, sendpath) writes and
// what load.html, `load merge` and `compare` read. Histograms are HDR, encoded (histogram.ts),
// values in microseconds. Times are milliseconds since the run's start unless named otherwise.

export const LOAD_SCHEMA_VERSION = 1;

export type LoadKind = 'api' | 'capacity' | 'sendpath';

/** Latency of a set of requests: from the intended send time (corrected) and from the actual send (service). */
export interface LatencyPair {
  /** completion minus intended send time: what a user waiting on the schedule sees */
  corrected: string;
  /** completion minus the moment the request left: the server's (and network's) own time */
  service: string;
}

export interface EndpointStats extends LatencyPair {
  /** e.g. "GET /v1/campaigns/{id}" */
  label: string;
  count: number;
  /** responses per HTTP status ("0" for a network error or timeout) */
  status: Record<string, number>;
}

/** One second of the run. */
export interface TimelinePoint {
  /** start of the second, ms since the run's start */
  t: number;
  /** requests scheduled to leave in this second */
  intended: number;
  /** requests that completed in this second */
  achieved: number;
  /** corrected latency percentiles of the requests completed in this second (µs) */
  p50: number;
  p99: number;
  s429: number;
  s5xx: number;
}

export interface Violation {
  /** what was broken, e.g. "no 5xx", "error envelope", "unplanned 429", "schema" */
  rule: string;
  /** spec clause ids it breaks, when known */
  clauses?: string[];
  message: string;
  /** the exchange, redacted */
  request?: { method: string; path: string };
  response?: { status: number; body?: string };
  /** ms since the run's start */
  at?: number;
}

export interface ThresholdResult {
  /** as given, e.g. "p99<300ms" */
  expr: string;
  ok: boolean;
  /** the measured value, in the threshold's unit */
  /** NaN in memory, null in load.json, when the run did not measure it (then `note` says so) */
  actual: number;
  unit: string;
  note?: string;
}

export interface SendpathMailbox {
  id: string;
  address: string;
  /** declared maxEmailsPerDay */
  cap: number;
  /** declared sendingGapMinutes */
  gapMinutes: number;
  /** arrival times at the sink, in the target's (possibly simulated) ms since the run's start */
  sends: number[];
}

export interface SendpathStats {
  simulated: boolean;
  leads: number;
  mailboxes: SendpathMailbox[];
  /** latency from the moment a send became allowed to its arrival at the sink (µs, target time) */
  fromAllowed: string;
  duplicates: number;
  losses: number;
  /** sends per target-day achieved, and what the caps and gaps allow */
  achievedPerDay: number;
  idealPerDay: number;
  /** emails through the sink per wall-clock second */
  emailsPerWallSecond: number;
  /** gap and daily-cap violations, also listed in `violations` */
  gapViolations: number;
  capViolations: number;
}

/** A closed-model capacity search: one step per connection count, the ceiling is the best step. */
export interface CapacityStep {
  connections: number;
  durationMs: number;
  requests: number;
  /** completed requests per second */
  throughput: number;
  /** autocannon's latency (closed model: from the moment each request left), µs */
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface CapacityStats {
  /** the read requests cycled, e.g. "GET /v1/campaigns/{id}/status" */
  requests: string[];
  steps: CapacityStep[];
  /** index into steps of the highest throughput whose errors stayed under 1 % */
  ceiling: number;
}

export interface Environment {
  cpu: string;
  cpus: number;
  node: string;
  kit: string;
  os: string;
  targetUrl: string;
  /** sha256 of the profile as given (secrets never leave it) */
  profileHash: string;
}

/** A shard's start against the shared instant (`--start-at`). */
export interface ShardStart {
  shard: string;
  /** the instant, ISO */
  startAt: string;
  /** when the shard was ready (setup done), ISO */
  readyAt: string;
  /** how long before the instant it was ready, ms */
  marginMs: number;
  /** how late its first request left against that request's time in the shared schedule, ms */
  startSkewMs: number;
  toleranceMs: number;
  /** target minus local clock, ms, bounded by the target's Date headers */
  clockOffsetMs?: { lo: number; hi: number; samples: number };
}

export interface LoadReport {
  schemaVersion: typeof LOAD_SCHEMA_VERSION;
  kind: LoadKind;
  runId: string;
  startedAt: string;
  finishedAt: string;
  environment: Environment;
  plan: {
    /** requests per second asked for (api) or connections (capacity) */
    rate?: number;
    connections?: number;
    durationMs: number;
    /** requests the schedule holds */
    intended: number;
    workspaces: number;
    /** flow name -> weight */
    mix: Record<string, number>;
    /** shard "k/n" when this is one slice of a load */
    shard?: string;
    /** the run the shard belongs to (`--run`, or from the start instant): merge joins one run only */
    run?: string;
    /** the schedule all shards share: total rate, duration and start instant (ISO) */
    schedule?: { rate?: number; durationMs?: number; startAt?: string; mailboxes?: number; leads?: number; campaigns?: number };
  };
  /** how each shard started against the instant it was given (one entry per shard; merge lists all) */
  shardStarts?: ShardStart[];
  totals: {
    sent: number;
    completed: number;
    /** requests that left later than the schedule allowed (the generator fell behind) */
    late: number;
    errors: number;
    status: Record<string, number>;
    /** completed requests per wall second */
    throughput: number;
  } & LatencyPair;
  endpoints: EndpointStats[];
  flows: Record<string, { count: number; errors: number }>;
  timeline: TimelinePoint[];
  /** evidence of the first violations of each rule (capped) */
  violations: Violation[];
  /** rule -> how many times it broke in the run (every one, not only those with evidence) */
  violationCounts?: Record<string, number>;
  thresholds: ThresholdResult[];
  sendpath?: SendpathStats;
  capacity?: CapacityStats;
  /** what the reader should know about how the run went (what was not reached, what was assumed) */
  notes?: string[];
  /** flows of the mix left out because the profile cannot serve them, with the reason */
  leftOut?: { flow: string; reason: string }[];
  /** the run passed: no violation and every threshold held */
  ok: boolean;
}
