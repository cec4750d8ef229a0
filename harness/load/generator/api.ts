import { createWriteStream } from 'node:fs';
import type { Profile } from '../../ground/profile-schema.ts';
import { campaignBody, mailboxInput, seededFaker } from '../../../fixtures/factories/index.ts';
import { fillPath, getPath, operation, resultPath } from '../../ground/operations.ts';
import { KitError } from '../../ground/errors.ts';
import { Collector } from './collect.ts';
import { flowSequence, resolveMix, type Flow, type FlowRequest, type FlowState, type Mix } from './flows.ts';
import { encode } from '../report/histogram.ts';
import { runOpenModel, scheduleSize, type Precision, type Shot } from './open-model.ts';
import type { LoadReport, ShardStart } from '../report/types.ts';
import { checkStarted, ClockProbe, waitForStart } from './start-at.ts';
import { createTransport, type Transport } from './transport.ts';
import { Watch } from './watch.ts';
import { planWorkspaces, provideWorkspaces, refuseShortProfile, type LoadWorkspace, type WorkspacePlan } from './workspaces.ts';
import type { LoadTarget } from '../target.ts';

// `load api`: an open-model load over a weighted mix of real flows, spread over as many
// workspaces as the rate limit asks, every answer held to the spec while it runs.

export interface ApiLoadOptions extends LoadTarget {
  /** requests per second */
  rate: number;
  durationMs: number;
  mix?: Record<string, number>;
  /** this run is shard k of n: it sends every n-th request of the schedule (rate/n) on its own workspaces (`load merge` joins the shards) */
  shard?: { index: number; of: number };
  /** the shared start instant (epoch ms, `--start-at`): prepare, wait for it, start the slice there */
  startAt?: number;
  /** how far a shard's start or clock may be off (default 50 ms) */
  toleranceMs?: number;
  /** the run the shards share (`--run`), recorded for merge */
  run?: string;
  /** told once the shard is ready and waiting for the start instant */
  onReady?(start: ShardStart): void;
  /** how the generator waits for the next send (open-model.ts; default 'timer') */
  precision?: Precision;
  /** one JSON line per request (intended, sent, done, status...) */
  requestsLog?: string;
  /** told before setup begins */
  onPlan?(p: { plan: WorkspacePlan; mix: Mix; intended: number; setupRequests: number }): void;
  /** called about once a second while the schedule runs */
  onProgress?(p: Progress): void;
  /** told every completed request, as the collector counts it (the --metrics outputs) */
  observe?(shot: Shot): void;
}

export interface Progress {
  elapsedMs: number;
  durationMs: number;
  sent: number;
  completed: number;
  /** completions per second over the last second */
  rate: number;
  p50: number;
  p99: number;
  late: number;
  errors: number;
}

export type ApiLoadResult = Omit<LoadReport, 'schemaVersion' | 'kind' | 'runId' | 'environment' | 'thresholds' | 'ok'>;

/** Requests each workspace spends before the load: a mailbox, a campaign with leads, its lead ids. */
function setupRequests(profile: Profile): number {
  return operation(profile, 'leads.list') ? 3 : 2;
}

const LEADS_PER_SETUP = 10;

/** What `load api` would refuse before it sends: the shard's slice of a rate the profile's workspaces cannot carry without a control API. */
export function refuseUncarriedLoad(profile: Profile, rate: number, durationMs: number, shard?: { index: number; of: number }): void {
  if (profile.control) return;
  const slice = scheduleSlice(rate, durationMs, shard);
  refuseShortProfile(profile, planWorkspaces(profile, slice.rate, durationMs, setupRequests(profile)), { rate: slice.rate, shard });
}

export async function runApiLoad(o: ApiLoadOptions): Promise<ApiLoadResult> {
  if (!(o.rate > 0) || !Number.isFinite(o.rate)) throw new KitError(`--rate must be a number of requests per second above 0, not ${o.rate}`);
  if (!(o.durationMs >= 1000)) throw new KitError(`--duration must be at least 1s`);
  const mix = resolveMix(o.profile, o.mix);
  const setup = setupRequests(o.profile);
  const slice = scheduleSlice(o.rate, o.durationMs, o.shard);
  const rate = slice.rate;
  const plan = planWorkspaces(o.profile, rate, o.durationMs, setup);
  const intended = slice.count;
  o.onPlan?.({ plan, mix, intended, setupRequests: setup });

  const workspaces = await provideWorkspaces(o.profile, plan, { control: o.control, redactor: o.redactor, prefix: o.prefix, rate, shard: o.shard });
  const transport = createTransport(o.baseUrl);
  let startedAt = new Date();
  let ticker: NodeJS.Timeout | undefined;
  try {
    const clock = new ClockProbe();
    const states = await setupAll(probing(transport, clock), o, workspaces);
    const faker = seededFaker(o.seed + (o.shard ? o.shard.index * 7919 : 0));
    const flows = flowSequence(mix, intended, faker);
    const watch = new Watch(o.redactor, { businessRuleErrorCode: o.profile.names.businessRuleErrorCode });
    const collector = new Collector((s) => Math.max(0, Math.min(rate, intended - s * rate)));
    const log = o.requestsLog ? createWriteStream(o.requestsLog) : undefined;
    const meta: { flow: Flow; req: FlowRequest; ws: number }[] = new Array(intended);
    let lastCompleted = 0;
    let sentSoFar = 0;
    // Everything is built before the wait: after the instant only the schedule runs.
    const gate = o.startAt === undefined ? undefined : { at: o.startAt, toleranceMs: o.toleranceMs ?? 50, shard: o.shard ? `${o.shard.index}/${o.shard.of}` : '1/1' };
    const started = gate ? await waitForStart(gate, clock, o.onReady) : undefined;
    if (gate && started) {
      checkStarted(gate, started.origin);
      startedAt = new Date(gate.at);
    }
    const t0 = started?.origin ?? performance.now();
    ticker = o.onProgress
      ? setInterval(() => {
          const so = collector.soFar();
          o.onProgress!({ elapsedMs: performance.now() - t0, durationMs: o.durationMs, sent: sentSoFar, completed: collector.completed, rate: collector.completed - lastCompleted, p50: so.p50, p99: so.p99, late: collector.late, errors: collector.errors });
          lastCompleted = collector.completed;
        }, 1000)
      : undefined;

    const result = await runOpenModel<string>({
      rate,
      precision: o.precision,
      durationMs: o.durationMs,
      count: intended,
      phaseMs: slice.phaseMs,
      origin: started?.origin,
      send: async (i) => {
        sentSoFar++;
        const ws = i % workspaces.length;
        const flow = flows[i]!;
        const req = flow.build(states[ws]!, faker, o.profile);
        meta[i] = { flow, req, ws };
        try {
          const res = await transport.send(toLoadRequest(req, workspaces[ws]!.apiKey));
          return { status: res.status, value: res.text };
        } catch (e) {
          return { status: 0, error: (e as Error).message };
        }
      },
      onShot: (shot, text) => {
        const m = meta[shot.index]!;
        meta[shot.index] = undefined as never; // keep memory flat on long runs
        if (shot.index === 0 && started) started.start.startSkewMs = r3(shot.sent - shot.intended);
        collector.add(shot, { label: m.req.label, flow: m.flow.name });
        o.observe?.(shot);
        const ok = watch.check(m.req, { status: shot.status, text: text ?? '', at: shot.done, error: shot.error });
        if (ok && m.flow.learn && text) {
          try {
            m.flow.learn(states[m.ws]!, JSON.parse(text));
          } catch {
            /* a 2xx that is not JSON was already a schema violation */
          }
        }
        log?.write(`${JSON.stringify({ i: shot.index, flow: m.flow.name, label: m.req.label, ws: m.ws, intended: r3(shot.intended), sent: r3(shot.sent), done: r3(shot.done), status: shot.status, late: shot.late })}\n`);
      },
    });
    clearInterval(ticker);
    await new Promise<void>((r) => (log ? log.end(r) : r()));

    const elapsedS = Math.max(result.elapsedMs, 1) / 1000;
    return {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      plan: {
        rate,
        durationMs: o.durationMs,
        intended,
        workspaces: workspaces.length,
        mix: mix.weights,
        ...(o.shard ? { shard: `${o.shard.index}/${o.shard.of}` } : {}),
        ...(o.run ? { run: o.run } : {}),
        schedule: { rate: o.rate, durationMs: o.durationMs, ...(o.startAt !== undefined ? { startAt: new Date(o.startAt).toISOString() } : {}) },
      },
      ...(started ? { shardStarts: [started.start] } : {}),
      totals: {
        sent: result.sent,
        completed: result.completed,
        late: result.late,
        errors: collector.errors,
        status: collector.status,
        throughput: Math.round((result.completed / elapsedS) * 10) / 10,
        corrected: encode(collector.all.corrected),
        service: encode(collector.all.service),
      },
      endpoints: collector.endpointStats(),
      flows: collector.flows,
      timeline: collector.timeline(result.elapsedMs),
      violations: watch.violations,
      violationCounts: watch.counts,
      ...(mix.left.length ? { leftOut: mix.left } : {}),
    };
  } finally {
    clearInterval(ticker);
    await transport.close();
  }
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Shard k of n sends requests k-1, k-1+n, k-1+2n... of the schedule a single generator would send
 * at `rate`: rate/n from phase (k-1)/rate, so the n slices interleave into that one schedule.
 */
export function scheduleSlice(rate: number, durationMs: number, shard?: { index: number; of: number }): { rate: number; phaseMs: number; count: number } {
  const total = scheduleSize(rate, durationMs);
  if (!shard) return { rate, phaseMs: 0, count: total };
  const first = shard.index - 1;
  return { rate: rate / shard.of, phaseMs: (first * 1000) / rate, count: Math.max(0, Math.ceil((total - first) / shard.of)) };
}

/** The transport with every answer's Date header shown to the clock probe (setup only). */
function probing(t: Transport, clock: ClockProbe): Transport {
  const wall = () => performance.timeOrigin + performance.now();
  return {
    ...t,
    send: async (req) => {
      const sent = wall();
      const res = await t.send(req);
      clock.observe(sent, wall(), res.headers.date);
      return res;
    },
  };
}

function toLoadRequest(req: FlowRequest, apiKey: string) {
  const qs = req.query ? `?${new URLSearchParams(Object.entries(req.query).map(([k, v]) => [k, String(v)])).toString()}` : '';
  return { method: req.method, path: `${req.path}${qs}`, headers: { authorization: `Bearer ${apiKey}` }, body: req.body === undefined ? undefined : JSON.stringify(req.body) };
}

/** Every workspace gets a mailbox and a campaign with leads (their ids when leads.list exists). */
async function setupAll(transport: Transport, o: ApiLoadOptions, workspaces: LoadWorkspace[]): Promise<FlowState[]> {
  const out: FlowState[] = new Array(workspaces.length);
  for (let i = 0; i < workspaces.length; i += 8) {
    await Promise.all(workspaces.slice(i, i + 8).map(async (ws) => (out[ws.index] = await setupWorkspace(transport, o, ws))));
  }
  return out;
}

/** A workspace's state for the flows: a mailbox and a campaign with leads (over the wire, as a user would). */
export async function setupWorkspace(transport: Transport, o: Pick<ApiLoadOptions, 'profile' | 'seed' | 'prefix' | 'redactor'>, ws: LoadWorkspace): Promise<FlowState> {
  const f = seededFaker(o.seed + ws.index + 1);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await transport.send({ method, path, headers: { authorization: `Bearer ${ws.apiKey}` }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status < 200 || res.status > 299) throw new KitError(`load setup: ${method} ${path} answered ${res.status}: ${o.redactor.text(res.text.slice(0, 300))}`);
    try {
      return JSON.parse(res.text) as unknown;
    } catch {
      throw new KitError(`load setup: ${method} ${path} answered ${res.status} without JSON`);
    }
  };
  const account = await call('POST', '/v1/accounts', { accounts: [mailboxInput(f, `${o.prefix}load-`)] });
  const accountId = getPath(account, 'accounts.0.id');
  if (typeof accountId !== 'string') throw new KitError('load setup: POST /v1/accounts created no mailbox');
  const body = campaignBody(f, `${o.prefix}load-`, { leads: LEADS_PER_SETUP, steps: 1 });
  const created = await call('POST', '/v1/campaigns', body);
  const campaignId = getPath(created, 'campaign.id');
  if (typeof campaignId !== 'string') throw new KitError('load setup: POST /v1/campaigns answered without campaign.id');
  const state: FlowState = { accountId, campaignIds: [campaignId], leadIds: [], leadEmails: body.leads! };
  const op = operation(o.profile, 'leads.list');
  if (op) {
    const listed = await call(op.method, `${fillPath(op.path, { id: campaignId })}?${encodeURIComponent(o.profile.names.list.pageSize)}=100`);
    const items = getPath(listed, resultPath(op, 'items'));
    if (!Array.isArray(items) || items.length === 0) throw new KitError(`load setup: the campaign's leads (leads.list, "${resultPath(op, 'items')}") came back empty`);
    state.leadIds = items.map((l) => (l as { id: string }).id);
  }
  return state;
}

