import type { LoadTarget } from '../target.ts';
import { KitError } from '../../ground/errors.ts';
import { setupWorkspace } from '../generator/api.ts';
import { encode, newHistogram, percentile, record } from '../report/histogram.ts';
import type { CpuProbe, CpuReading } from './proc-cpu.ts';
import { createTransport, type Transport } from '../generator/transport.ts';
import { provideWorkspaces } from '../generator/workspaces.ts';

// One measured run of `compare` against one side: a closed model (each of `connections` loops
// sends its next request when the last answered) of a fixed count of reads, bounded in time, with
// the target's CPU time read before and after when a probe says where (proc-cpu.ts). A fixed count, not a
// fixed time, so both sides do the same work and CPU per request divides like for like.

export interface RunFigures {
  requests: number;
  errors: number;
  wallMs: number;
  /** completed requests per wall second */
  throughput: number;
  /** latency from the moment each request left (closed model: service time), µs */
  p50: number;
  p99: number;
  /** the target's CPU time over the run, µs (absent when its process is not known) */
  cpuUs?: number;
  cpuPerRequestUs?: number;
  cpuSource?: CpuReading['source'];
  /** the run's latency histogram (HDR, encoded, µs) */
  histogram: string;
  /** the run stopped at its time bound before its count */
  cut?: boolean;
  /** send path: sends per day achieved against the ideal the caps and gaps allow */
  achieved?: number;
}

export interface ClosedSide {
  label: string;
  transport: Transport;
  apiKey: string;
  reads: { label: string; path: string }[];
  cpu?: CpuProbe;
}

/** The reads a closed run cycles: the cheap read endpoints of `load capacity`, or the first of them only. */
export type ReadSet = 'one' | 'reads';

/** A workspace with a mailbox and a campaign on the side's target, and the reads to cycle. */
export async function prepareClosedSide(o: LoadTarget & {
  label: string;
  connections: number;
  cpu?: CpuProbe;
  reads: ReadSet;
}): Promise<ClosedSide> {
  const [ws] = await provideWorkspaces(o.profile, { workspaces: 1, perWorkspaceRate: 0, peakPerWindow: 0, limit: o.profile.rateLimit }, { control: o.control, redactor: o.redactor, prefix: o.prefix, rate: 0 });
  const transport = createTransport(o.baseUrl, { connections: o.connections, timeoutMs: 10_000 });
  try {
    const state = await setupWorkspace(transport, o, ws!);
    const all = [
      { label: 'GET /v1/workspace', path: '/v1/workspace' },
      { label: 'GET /v1/campaigns/{id}/status', path: `/v1/campaigns/${state.campaignIds[0]}/status` },
      { label: 'GET /v1/campaigns', path: `/v1/campaigns?${encodeURIComponent(o.profile.names.list.pageSize)}=20` },
      { label: 'GET /v1/accounts/{id}/verification', path: `/v1/accounts/${state.accountId}/verification` },
    ];
    return { label: o.label, transport, apiKey: ws!.apiKey, reads: o.reads === 'one' ? all.slice(0, 1) : all, cpu: o.cpu };
  } catch (e) {
    await transport.close();
    throw e;
  }
}

export async function runClosed(side: ClosedSide, o: { requests: number; connections: number; maxMs: number }): Promise<RunFigures> {
  const h = newHistogram();
  let next = 0;
  let done = 0;
  let errors = 0;
  let cut = false;
  const before = await side.cpu?.read();
  const t0 = performance.now();
  const deadline = t0 + o.maxMs;
  const headers = { authorization: `Bearer ${side.apiKey}` };
  const loop = async () => {
    while (next < o.requests) {
      if (performance.now() > deadline) {
        cut = true;
        return;
      }
      const i = next++;
      const read = side.reads[i % side.reads.length]!;
      const sent = performance.now();
      try {
        const res = await side.transport.send({ method: 'GET', path: read.path, headers });
        if (res.status < 200 || res.status > 299) errors++;
      } catch {
        errors++;
      }
      record(h, (performance.now() - sent) * 1000);
      done++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.connections, o.requests)) }, loop));
  const wallMs = performance.now() - t0;
  const after = await side.cpu?.read();
  const out: RunFigures = {
    requests: done,
    errors,
    wallMs: round(wallMs, 3),
    throughput: round(done / (Math.max(wallMs, 0.001) / 1000), 1),
    p50: percentile(h, 50),
    p99: percentile(h, 99),
    histogram: encode(h),
  };
  if (before && after && done > 0) {
    out.cpuUs = round(after.us - before.us, 1);
    out.cpuPerRequestUs = round((after.us - before.us) / done, 3);
    out.cpuSource = after.source;
  }
  if (cut) out.cut = true;
  if (done === 0) throw new KitError(`${side.label}: no request completed within ${o.maxMs} ms`);
  return out;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
