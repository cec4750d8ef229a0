import { performance } from 'node:perf_hooks';
import { KitError } from '../../ground/errors.ts';
import type { ShardStart } from '../report/types.ts';

// Shards that start together: every shard prepares (workspaces, mailboxes, connections), then
// waits for one wall-clock instant chosen ahead (`--start-at`) and starts its slice of the
// schedule there. A shard never shifts its schedule: one that is ready after the instant, or whose
// clock is seen to differ from the target's by more than the tolerance, fails before it sends.

/** An ISO 8601 instant with a zone ("2026-11-28T02:00:00Z"), as epoch ms; a bad one names the flag. */
export function parseStartAt(text: string): number {
  const t = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/.test(text.trim()) || !Number.isFinite(t))
    throw new KitError(`--start-at takes an ISO 8601 instant with its zone, e.g. 2026-11-28T02:00:00Z, not "${text}"`);
  return t;
}

/**
 * What the answers' Date headers say of this machine's clock against the target's: the offset
 * (target minus local, ms) lies in [lo, hi]. A Date header has whole seconds, so one answer bounds
 * the offset to a second; answers on both sides of a second's turn narrow it.
 */
export class ClockProbe {
  lo = -Infinity;
  hi = Infinity;
  samples = 0;

  observe(sentWallMs: number, receivedWallMs: number, dateHeader: string | undefined): void {
    const d = dateHeader ? Date.parse(dateHeader) : NaN;
    if (!Number.isFinite(d)) return;
    this.lo = Math.max(this.lo, d - receivedWallMs);
    this.hi = Math.min(this.hi, d + 1000 - sentWallMs);
    this.samples++;
  }

  /** The offset's bounds, or undefined when no answer carried a Date header. */
  bounds(): { lo: number; hi: number; samples: number } | undefined {
    return this.samples ? { lo: Math.round(this.lo), hi: Math.round(this.hi), samples: this.samples } : undefined;
  }
}

export interface StartGate {
  /** epoch ms of the start instant */
  at: number;
  /** the most a shard's start (and its clock, as far as it can be seen) may be off */
  toleranceMs: number;
  /** "2/4", for the messages */
  shard: string;
}

const wallNow = () => performance.timeOrigin + performance.now();
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Called once the shard is ready: fails when the instant has passed or the clock is off, then
 * waits for the instant. Resolves with the schedule's origin on the performance clock and the
 * start record (its skew is filled in once the first request has left).
 */
export async function waitForStart(gate: StartGate, clock: ClockProbe, onReady?: (start: ShardStart) => void): Promise<{ origin: number; start: ShardStart }> {
  const readyAt = wallNow();
  const marginMs = gate.at - readyAt;
  if (marginMs < 0)
    throw new KitError(
      `shard ${gate.shard} was ready at ${iso(readyAt)}, ${Math.round(-marginMs)} ms after the start instant ${iso(gate.at)}: its slice would start late (skew +${Math.round(-marginMs)} ms, tolerance ${gate.toleranceMs} ms); choose a later --start-at or start the shards earlier`,
    );
  const offset = clock.bounds();
  if (offset && (offset.lo > gate.toleranceMs || offset.hi < -gate.toleranceMs)) {
    const skew = offset.lo > 0 ? offset.lo : offset.hi;
    throw new KitError(
      `shard ${gate.shard}: this machine's clock differs from the target's by at least ${Math.abs(skew)} ms (the target's Date headers put the offset between ${offset.lo} and ${offset.hi} ms over ${offset.samples} answers; tolerance ${gate.toleranceMs} ms): the shards would not start together; synchronise the clock (NTP)`,
    );
  }
  const start: ShardStart = { shard: gate.shard, startAt: iso(gate.at), readyAt: iso(readyAt), marginMs: Math.round(marginMs), startSkewMs: 0, toleranceMs: gate.toleranceMs, ...(offset ? { clockOffsetMs: offset } : {}) };
  onReady?.(start);
  // Timers wake on whole milliseconds: sleep to just before the instant; the schedule's own
  // clock does the rest (its origin is the instant, on the performance clock).
  for (let left = gate.at - wallNow(); left > 5; left = gate.at - wallNow()) await new Promise((r) => setTimeout(r, Math.min(left - 4, 1000)));
  return { origin: performance.now() + (gate.at - wallNow()), start };
}

/** Refuses a shard whose schedule clock began later than the tolerance (the event loop was held). */
export function checkStarted(gate: StartGate, origin: number): void {
  const late = performance.now() - origin;
  if (late > gate.toleranceMs) throw new KitError(`shard ${gate.shard} began its slice ${Math.round(late)} ms after the start instant ${iso(gate.at)} (skew +${Math.round(late)} ms, tolerance ${gate.toleranceMs} ms): it does not shift its schedule, so it stops here`);
}
