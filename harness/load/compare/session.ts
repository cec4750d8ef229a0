import { randomBytes } from 'node:crypto';
import { Redactor } from '../../client/redact.ts';
import { KitError } from '../../ground/errors.ts';
import type { MailSink } from '../../sinks/index.ts';
import { prepareClosedSide, runClosed, type ReadSet, type RunFigures } from './run.ts';
import type { CompareRun } from './metrics.ts';
import type { ServedSide } from './sides.ts';
import { decode, percentile } from '../report/histogram.ts';
import { runSendpathLoad } from '../sendpath/sendpath.ts';

// The measuring part of `compare`: one runner per side (the same declared load each time), a
// warm-up run per side that is not counted, then the pairs interleaved on one machine. Within a
// pair the side that goes first alternates (base-head, head-base, ...): a drift over the session
// (a warming JIT, a neighbour's load) then weighs on both sides alike instead of always on the
// second one.

export interface SideRunner {
  /** one measured run; `warmup`: the run before the pairs, not counted */
  run(warmup?: boolean): Promise<RunFigures>;
  close(): Promise<void>;
}

export interface ApiRunOptions {
  requests: number;
  /** requests of the warm-up run: a fresh Node target keeps getting cheaper for thousands of requests while its JIT warms */
  warmupRequests: number;
  connections: number;
  reads: ReadSet;
  maxRunMs: number;
  seed: number;
}

/** Closed runs of a fixed count of reads against one workspace of the side. */
export async function apiRunner(side: ServedSide, o: ApiRunOptions): Promise<SideRunner> {
  const closed = await prepareClosedSide({
    label: `--${side.info.flag}`,
    profile: side.profile,
    baseUrl: side.baseUrl,
    control: side.control,
    redactor: new Redactor(),
    // a fresh prefix each time: a second runner on one target must not create the same mailbox again
    prefix: `cmp-${side.info.flag}-${randomBytes(3).toString('hex')}-`,
    seed: o.seed,
    connections: o.connections,
    cpu: side.cpu,
    reads: o.reads,
  });
  return {
    run: (warmup) => runClosed(closed, { requests: warmup ? o.warmupRequests : o.requests, connections: o.connections, maxMs: o.maxRunMs }),
    close: () => closed.transport.close(),
  };
}

export interface SendpathRunOptions {
  mailboxes: number;
  leads: number;
  maxRunMs: number;
  seed: number;
  sink: MailSink;
}

/** One send-path load per run (fresh mailboxes and leads each time), CPU read around it. */
export function sendpathRunner(side: ServedSide, o: SendpathRunOptions): SideRunner {
  let n = 0;
  return {
    run: async () => {
      const before = await side.cpu?.read();
      const t0 = performance.now();
      const r = await runSendpathLoad({ baseUrl: side.baseUrl, profile: side.profile, control: side.control, sink: o.sink, mailboxes: o.mailboxes, leads: o.leads, maxWallMs: o.maxRunMs, seed: o.seed + n++ });
      const wallMs = performance.now() - t0;
      const after = await side.cpu?.read();
      if (r.delivered === 0) throw new KitError(`--${side.info.flag}: no email of the load of the send path arrived at the sink (stopped: ${r.stopped})`);
      const h = decode(r.stats.fromAllowed);
      const out: RunFigures = {
        requests: r.delivered,
        errors: r.expected - r.delivered,
        wallMs: Math.round(wallMs),
        throughput: Math.round(r.stats.emailsPerWallSecond * 10) / 10,
        p50: percentile(h, 50),
        p99: percentile(h, 99),
        histogram: r.stats.fromAllowed,
        achieved: r.stats.idealPerDay > 0 ? r.stats.achievedPerDay / r.stats.idealPerDay : undefined,
      };
      if (before && after) {
        out.cpuUs = Math.round((after.us - before.us) * 10) / 10;
        out.cpuPerRequestUs = Math.round(((after.us - before.us) / r.delivered) * 1000) / 1000;
        out.cpuSource = after.source;
      }
      if (r.stopped !== 'complete') out.cut = true;
      return out;
    },
    close: async () => {},
  };
}

export interface PairsResult {
  warmup: { base: RunFigures; head: RunFigures };
  runs: CompareRun[];
}

/** A warm-up run per side, then `pairs` pairs, the first side alternating from pair to pair. */
export async function runPairs(base: SideRunner, head: SideRunner, o: { pairs: number; onRun?(r: CompareRun | { warmup: 'base' | 'head'; figures: RunFigures }): void }): Promise<PairsResult> {
  const wb = await base.run(true);
  o.onRun?.({ warmup: 'base', figures: wb });
  const wh = await head.run(true);
  o.onRun?.({ warmup: 'head', figures: wh });
  const runs: CompareRun[] = [];
  for (let pair = 1; pair <= o.pairs; pair++) {
    const order: ('base' | 'head')[] = pair % 2 === 1 ? ['base', 'head'] : ['head', 'base'];
    for (const [i, side] of order.entries()) {
      const figures = await (side === 'base' ? base : head).run();
      const run: CompareRun = { pair, side, position: (i + 1) as 1 | 2, figures };
      runs.push(run);
      o.onRun?.(run);
    }
  }
  return { warmup: { base: wb, head: wh }, runs };
}

export const ORDER_TEXT = 'interleaved on one machine, one warm-up run per side first (not counted); the side that runs first alternates from pair to pair (base-head, head-base, ...)';
