// Fuzzing the kit's own servers: one driver for every server. A target turns one generated
// input into wire traffic and says what came back; the driver feeds it seeded fast-check inputs
// (a few at a time, as real clients would), sends a valid record now and then and finds it again
// ("no lost record"), watches the process for unhandled rejections and uncaught exceptions, and
// measures the heap after a GC against the target's stated bound.
import fc from 'fast-check';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface FuzzTarget<I> {
  /** e.g. "smtp", "reference-public" */
  server: string;
  arbitrary: fc.Arbitrary<I>;
  /** Plays one input; returns an outcome label (a status, "closed"...). Throws a Finding on a violation. */
  exec(input: I, index: number): Promise<string>;
  /** Records something valid, finds it, and checks that every earlier probe's record is still there. */
  probe(tag: string): Promise<void>;
  /** Growth of the heap (after GC) allowed over the whole run, in MB, and why that much. */
  heapBound: { mb: number; why: string };
}

/** A broken rule (an answer the server must never give, a hang, a lost record). */
export class Finding extends Error {}

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** inputs in flight at once (default 16) */
  concurrency?: number;
  /** probes spread over the run, besides the ones before and after (default 5) */
  probes?: number;
  /** stop after this many findings (default 10) */
  maxFindings?: number;
}

export interface FuzzFigures {
  server: string;
  seed: number;
  runs: number;
  ms: number;
  outcomes: Record<string, number>;
  probes: number;
  heapGrowthMb: number;
  heapBoundMb: number;
  heapBoundWhy: string;
  rssGrowthMb: number;
  /** broken rules, each with the input's index and a short rendering of it */
  findings: string[];
  /** unhandled rejections and uncaught exceptions seen while the target ran */
  processErrors: string[];
}

let gcFn: (() => void) | null = null;
/** Heap used after a full GC (node started without --expose-gc: the flag is set at run time). */
export function heapAfterGc(): number {
  if (!gcFn) {
    v8.setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
  gcFn();
  return process.memoryUsage().heapUsed;
}

/** Collects unhandled rejections and uncaught exceptions until `stop()`. */
export function watchProcess(): { errors: string[]; stop(): void } {
  const errors: string[] = [];
  const onRejection = (reason: unknown) => errors.push(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`);
  const onException = (err: Error) => errors.push(`uncaught exception: ${err?.stack ?? String(err)}`);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtExceptionMonitor', onException);
  return {
    errors,
    stop() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtExceptionMonitor', onException);
    },
  };
}

const BATCH = 50;
const MB = 1024 * 1024;

/** A short, printable rendering of an input (buffers summarised). */
export function render(input: unknown, max = 300): string {
  const s = JSON.stringify(input, (_k, v: unknown) => {
    if (v instanceof Uint8Array) return `<${v.length} bytes>`;
    if (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer') return `<${((v as { data: unknown[] }).data ?? []).length} bytes>`;
    if (typeof v === 'string' && v.length > 80) return `${v.slice(0, 60)}…(${v.length} chars)`;
    return v;
  });
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Runs `opts.runs` inputs against a started target. Inputs are reproducible from the seed: input i comes from batch floor(i / 50), sampled with seed + batch. */
export async function runFuzz<I>(target: FuzzTarget<I>, opts: FuzzOptions): Promise<FuzzFigures> {
  const concurrency = opts.concurrency ?? 16;
  const maxFindings = opts.maxFindings ?? 10;
  const probeEvery = Math.max(BATCH, Math.ceil(opts.runs / ((opts.probes ?? 5) + 1) / BATCH) * BATCH);
  const watch = watchProcess();
  const outcomes: Record<string, number> = {};
  const findings: string[] = [];
  let probes = 0;
  const probe = async (tag: string) => {
    probes++;
    try {
      await target.probe(`${tag}-${probes}`);
    } catch (e) {
      findings.push(`probe ${tag}: ${(e as Error).message}`);
    }
  };
  const started = Date.now();
  try {
    await probe('before');
    const heap0 = heapAfterGc();
    const rss0 = process.memoryUsage().rss;
    for (let first = 0; first < opts.runs && findings.length < maxFindings; first += BATCH) {
      const n = Math.min(BATCH, opts.runs - first);
      const inputs = fc.sample(target.arbitrary, { seed: opts.seed + first / BATCH, numRuns: n });
      let next = 0;
      const worker = async () => {
        while (next < inputs.length && findings.length < maxFindings) {
          const i = next++;
          const input = inputs[i]!;
          try {
            const o = await target.exec(input, first + i);
            outcomes[o] = (outcomes[o] ?? 0) + 1;
          } catch (e) {
            outcomes.finding = (outcomes.finding ?? 0) + 1;
            findings.push(`input #${first + i} (seed ${opts.seed}): ${(e as Error).message} <- ${render(input)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
      if ((first + n) % probeEvery === 0 && first + n < opts.runs) await probe('during');
    }
    await probe('after');
    const heap1 = heapAfterGc();
    const rss1 = process.memoryUsage().rss;
    const heapGrowthMb = Math.round(((heap1 - heap0) / MB) * 10) / 10;
    if (heapGrowthMb > target.heapBound.mb) findings.push(`heap grew ${heapGrowthMb} MB after GC, over the bound of ${target.heapBound.mb} MB (${target.heapBound.why})`);
    return {
      server: target.server,
      seed: opts.seed,
      runs: opts.runs,
      ms: Date.now() - started,
      outcomes,
      probes,
      heapGrowthMb,
      heapBoundMb: target.heapBound.mb,
      heapBoundWhy: target.heapBound.why,
      rssGrowthMb: Math.round(((rss1 - rss0) / MB) * 10) / 10,
      findings,
      processErrors: watch.errors,
    };
  } finally {
    // late errors of sockets still closing count too: give them a tick to surface
    await new Promise((r) => setTimeout(r, 20));
    watch.stop();
  }
}

const sign = (n: number) => (n >= 0 ? `+${n}` : String(n));

/** One line of figures for a console. */
export function formatFigures(f: FuzzFigures): string {
  const top = Object.entries(f.outcomes)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');
  const rate = f.ms > 0 ? Math.round((f.runs / f.ms) * 1000) : f.runs;
  return `${f.server.padEnd(18)} ${String(f.runs).padStart(6)} inputs in ${(f.ms / 1000).toFixed(1)} s (${rate}/s), seed ${f.seed}; ${f.probes} probes; heap ${sign(f.heapGrowthMb)} MB (bound ${f.heapBoundMb} MB), rss ${sign(f.rssGrowthMb)} MB; findings ${f.findings.length}, process errors ${f.processErrors.length}; outcomes ${top}`;
}
