import type { LoadTarget } from '../target.ts';
import { createRequire } from 'node:module';
import { KitError } from '../../ground/errors.ts';
import { setupWorkspace } from './api.ts';
import { encode, newHistogram, percentile, record } from '../report/histogram.ts';
import type { CapacityStats, CapacityStep, EndpointStats, LoadReport } from '../report/types.ts';
import { createTransport } from './transport.ts';
import { provideWorkspaces } from './workspaces.ts';

// `load capacity`: the throughput ceiling of read endpoints, and the latency at that ceiling.
// A closed model (autocannon: each connection sends its next request when the last answered),
// stepping the connection count up; the ceiling is the best step whose errors stay under 1 %.
// A closed loop measures service time only, which is what a ceiling means; latency under a
// given arrival rate is `load api`'s job. Against the spec's own 120 per 60 s a closed loop
// would measure the rate limiter, so the profile must declare the raised limit the target runs
// with for this.

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => AutocannonInstance;
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  stop(): void;
}
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}

/** At least this many requests per second in the profile's limit, or capacity refuses to run. */
export const MIN_RAISED_RATE = 50;
const MAX_ERROR_SHARE = 0.01;

export interface CapacityOptions extends LoadTarget {
  /** connection counts to step through, e.g. [1, 4, 16, 64] */
  connections: number[];
  stepMs: number;
  onStep?(s: CapacityStep): void;
}

export type CapacityResult = Omit<LoadReport, 'schemaVersion' | 'kind' | 'runId' | 'environment' | 'thresholds' | 'ok'>;

export async function runCapacity(o: CapacityOptions): Promise<CapacityResult> {
  const { requests, windowSeconds } = o.profile.rateLimit;
  if (requests / windowSeconds < MIN_RAISED_RATE)
    throw new KitError(
      `load capacity needs a target that runs with a raised rate limit, declared in the profile's "rateLimit" (it says ${requests} per ${windowSeconds} s; at least ${MIN_RAISED_RATE} requests per second): a closed loop against the spec's limit measures the limiter, not the target`,
    );
  if (o.connections.length === 0 || o.connections.some((c) => !Number.isInteger(c) || c < 1 || c > 1024)) throw new KitError('--connections takes whole numbers from 1 to 1024');
  if (!(o.stepMs >= 1000)) throw new KitError('--step must be at least 1s');
  const [ws] = await provideWorkspaces(o.profile, { workspaces: 1, perWorkspaceRate: 0, peakPerWindow: 0, limit: o.profile.rateLimit }, { control: o.control, redactor: o.redactor, prefix: o.prefix, rate: 0 });
  const transport = createTransport(o.baseUrl);
  const startedAt = new Date();
  let state;
  try {
    state = await setupWorkspace(transport, o, ws!);
  } finally {
    await transport.close();
  }
  const reads = [
    { label: 'GET /v1/campaigns/{id}/status', path: `/v1/campaigns/${state.campaignIds[0]}/status` },
    { label: 'GET /v1/campaigns', path: `/v1/campaigns?${encodeURIComponent(o.profile.names.list.pageSize)}=20` },
    { label: 'GET /v1/accounts/{id}/verification', path: `/v1/accounts/${state.accountId}/verification` },
    { label: 'GET /v1/workspace', path: '/v1/workspace' },
  ];
  const prefix = new URL(o.baseUrl).pathname.replace(/\/+$/, '');
  const steps: CapacityStep[] = [];
  const hists: { corrected: ReturnType<typeof newHistogram>; status: Record<string, number>; count: number }[] = [];
  for (const connections of o.connections) {
    const h = newHistogram();
    const status: Record<string, number> = {};
    let count = 0;
    const instance = autocannon({
      url: new URL(o.baseUrl).origin,
      connections,
      duration: o.stepMs / 1000,
      headers: { authorization: `Bearer ${ws!.apiKey}`, accept: 'application/json' },
      requests: reads.map((r) => ({ method: 'GET', path: `${prefix}${r.path}` })),
    });
    instance.on('response', (_c, code, _b, ms) => {
      record(h, ms * 1000);
      status[String(code)] = (status[String(code)] ?? 0) + 1;
      count++;
    });
    const res = await instance;
    const durationMs = res.duration * 1000;
    const step: CapacityStep = {
      connections,
      durationMs: Math.round(durationMs),
      requests: count,
      throughput: Math.round((count / Math.max(res.duration, 0.001)) * 10) / 10,
      p50: percentile(h, 50),
      p99: percentile(h, 99),
      errors: res.errors + res.timeouts,
      non2xx: res.non2xx,
    };
    steps.push(step);
    hists.push({ corrected: h, status, count });
    o.onStep?.(step);
  }
  const eligible = steps.map((s, i) => ({ s, i })).filter(({ s }) => (s.errors + s.non2xx) <= s.requests * MAX_ERROR_SHARE && s.requests > 0);
  const best = (eligible.length ? eligible : steps.map((s, i) => ({ s, i }))).reduce((a, b) => (b.s.throughput > a.s.throughput ? b : a));
  const top = hists[best.i]!;
  const capacity: CapacityStats = { requests: reads.map((r) => r.label), steps, ceiling: best.i };
  const encoded = encode(top.corrected);
  // In a closed loop a request leaves when the previous one answered: corrected = service.
  const endpoints: EndpointStats[] = [{ label: `${reads.length} reads, cycled`, count: top.count, status: top.status, corrected: encoded, service: encoded }];
  const errors = best.s.errors + best.s.non2xx;
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    plan: { connections: best.s.connections, durationMs: o.stepMs * o.connections.length, intended: 0, workspaces: 1, mix: Object.fromEntries(reads.map((r) => [r.label, 1])) },
    totals: { sent: top.count, completed: top.count, late: 0, errors, status: top.status, throughput: best.s.throughput, corrected: encoded, service: encoded },
    endpoints,
    flows: {},
    timeline: [],
    violations: [],
    capacity,
  };
}
