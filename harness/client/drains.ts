// The drains (POST /work/drain) of one run, coalesced: one in flight per scope (a workspace with
// the scoped-drain extension, else the whole target), the callers who ask meanwhile join the next
// one. That next drain starts after the one in flight answers, so after every joiner asked: the
// one in flight may have started before the work a joiner just caused, and would not see it.
// A target whose drains are slow, serialized or poll every mailbox is then asked a few times,
// not once per check per poll.

import type { DrainResult } from '../ground/check.ts';

/** Sends one drain: the client of the check that asked first. */
export type SendDrain = (timeoutMs: number | undefined) => Promise<DrainResult>;

interface Next {
  timeoutMs: number | undefined;
  send: SendDrain;
  promise: Promise<DrainResult>;
  settle: { resolve(r: DrainResult): void; reject(e: unknown): void };
}

interface Lane {
  /** The bound of the drain in flight (undefined: none in flight; null: the target's default). */
  inFlight: number | null | undefined;
  next: Next | undefined;
}

/** The longer of two drain bounds; none (the target's own default) when either gives none. */
const longer = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : Math.max(a, b));

/** After this many drains without one answered within its bound, the target's drains are read as always running to it. */
export const UNTOLD_AFTER = 5;

export class DrainCoalescer {
  private readonly lanes = new Map<string, Lane>();
  private sent = 0;
  private completeSeen = false;

  /** Notes how a drain sent ended (complete: answered within its bound). */
  note(complete: boolean): void {
    this.sent++;
    if (complete) this.completeSeen = true;
  }

  /**
   * Whether this target's drains never answered within their bound (after UNTOLD_AFTER of them):
   * one that runs every drain to its bound (polling work that never ends, or a plain wait) tells
   * nothing by its time, and a check would wait out every drain in vain.
   */
  untold(): boolean {
    return !this.completeSeen && this.sent >= UNTOLD_AFTER;
  }

  /**
   * A drain of `scope` ('' for the whole target) bounded by `timeoutMs`: sent now when none of
   * that scope is in flight, else the next one (bounded by the longest bound its joiners asked).
   */
  drain(scope: string, timeoutMs: number | undefined, send: SendDrain): Promise<DrainResult> {
    let lane = this.lanes.get(scope);
    if (!lane) this.lanes.set(scope, (lane = { inFlight: undefined, next: undefined }));
    if (lane.inFlight === undefined) return this.start(scope, lane, timeoutMs, send);
    if (lane.next) {
      lane.next.timeoutMs = longer(lane.next.timeoutMs, timeoutMs);
      return lane.next.promise;
    }
    let settle!: Next['settle'];
    const promise = new Promise<DrainResult>((resolve, reject) => (settle = { resolve, reject }));
    lane.next = { timeoutMs, send, promise, settle };
    return promise;
  }

  /** The sum of the bounds of the drains in flight (`byDefault` for one sent without): a serializing target's queue. */
  boundsInFlight(byDefault: number): number {
    let ms = 0;
    for (const lane of this.lanes.values()) if (lane.inFlight !== undefined) ms += lane.inFlight ?? byDefault;
    return ms;
  }

  private start(scope: string, lane: Lane, timeoutMs: number | undefined, send: SendDrain): Promise<DrainResult> {
    lane.inFlight = timeoutMs ?? null;
    const sent = send(timeoutMs);
    const after = () => {
      lane.inFlight = undefined;
      const next = lane.next;
      lane.next = undefined;
      if (next) this.start(scope, lane, next.timeoutMs, next.send).then(next.settle.resolve, next.settle.reject);
      else this.lanes.delete(scope);
    };
    sent.then(after, after);
    return sent;
  }
}
