import type { Exporter } from './remote-write.ts';
import type { LoadMetrics } from './load-metrics.ts';

// Pushes a run's metrics while it runs: a snapshot every `everyMs` to each output and a last one
// when the load ends. A push never holds the load up: it runs beside the schedule, each is bounded
// by `timeoutMs`, an output still busy with the previous push skips one (counters are cumulative,
// so the next push carries what it missed), and a failure is a warning, never the run's end. What
// did not arrive is said at the end (load.json's notes): the series stop early, or have gaps.

export interface StreamOptions {
  everyMs: number;
  timeoutMs: number;
  /** the last push's bound (the run waits for it) */
  finalTimeoutMs: number;
  /** told once per output, at its first failure */
  warn(line: string): void;
}

export interface OutputOutcome {
  name: string;
  pushes: number;
  failed: number;
  /** pushes skipped because the previous one was still under way */
  skipped: number;
  finalArrived: boolean;
  /** what the output itself has to say (a receiver that refused part of what it was sent) */
  notes: string[];
  firstError?: string;
}

class Output {
  pushes = 0;
  failed = 0;
  skipped = 0;
  firstError?: string;
  busy?: Promise<boolean>;
  constructor(readonly exporter: Exporter) {}
}

export class MetricsStream {
  private readonly outputs: Output[];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly metrics: LoadMetrics,
    exporters: Exporter[],
    private readonly o: StreamOptions,
  ) {
    this.outputs = exporters.map((e) => new Output(e));
  }

  start(): void {
    if (this.outputs.length === 0 || this.timer) return;
    this.timer = setInterval(() => this.tick(), this.o.everyMs);
    this.timer.unref();
  }

  private tick(): void {
    const snap = this.metrics.snapshot();
    for (const out of this.outputs) {
      if (out.busy) {
        out.skipped++;
        continue;
      }
      out.busy = this.push(out, snap, this.o.timeoutMs).finally(() => (out.busy = undefined));
    }
  }

  private async push(out: Output, snap: ReturnType<LoadMetrics['snapshot']>, timeoutMs: number): Promise<boolean> {
    out.pushes++;
    try {
      await out.exporter.push(snap, timeoutMs);
      return true;
    } catch (e) {
      out.failed++;
      if (out.firstError === undefined) {
        out.firstError = oneLine(e);
        this.o.warn(`metrics: a push to ${out.exporter.name} failed (${out.firstError}); the load goes on, and the report will say what was lost`);
      }
      return false;
    }
  }

  /** Stops the pushes without a last one (a run refused or failed: nothing more to say). */
  halt(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops the pushes and sends the last snapshot to every output (each bounded): what arrived. */
  async stop(): Promise<OutputOutcome[]> {
    this.halt();
    if (this.outputs.length === 0) return [];
    await Promise.all(this.outputs.map((o) => o.busy));
    const snap = this.metrics.snapshot();
    const finals = await Promise.all(this.outputs.map((o) => this.push(o, snap, this.o.finalTimeoutMs)));
    await Promise.all(this.outputs.map((o) => o.exporter.close().catch(() => undefined)));
    return this.outputs.map((o, i) => ({ name: o.exporter.name, pushes: o.pushes, failed: o.failed, skipped: o.skipped, finalArrived: finals[i]!, notes: o.exporter.notes?.() ?? [], ...(o.firstError ? { firstError: o.firstError } : {}) }));
  }
}

/** An error as one line: fetch's "fetch failed" says why through its cause. */
function oneLine(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  const cause = err.cause?.code ?? err.cause?.message;
  return `${err.name === 'TimeoutError' ? 'no answer in time' : err.message}${cause && !err.message.includes(cause) ? ` (${cause})` : ''}`;
}

/** The report's lines on the metrics: what arrived, and what was lost. */
export function describeOutcomes(outcomes: OutputOutcome[]): string[] {
  return outcomes.flatMap((o) => {
    const arrived = o.pushes - o.failed;
    if (o.failed === 0) return [`metrics: ${o.name}: all ${o.pushes} pushes arrived${o.skipped ? ` (${o.skipped} skipped while the previous was under way)` : ''}`, ...o.notes];
    const where = o.finalArrived ? 'the final one arrived, so the totals there are whole; the series have gaps' : 'the final one too, so the series there stop before the end of the run';
    return [`metrics lost: ${o.name}: ${o.failed} of ${o.pushes} pushes failed (first: ${o.firstError}), ${arrived} arrived; ${where}`, ...o.notes];
  });
}
