import { OWED_MARGIN, type PooledWorkspace } from './pool.ts';
import { packRun } from './packing.ts';

// When a check may start: a slot of the run's concurrency is free, and a workspace's rate window
// has room now for the requests the check was measured to send (expected.ts), which the pool
// then promises it (pool.reserve). A check admitted so sends its requests without waiting on the
// rate limit mid-way, holding a slot, while another workspace's budget sits idle; one that does
// not fit waits before it starts, and a check behind it that fits elsewhere goes first. The
// first in line is never starved: the workspace with the most room is kept for it (from the last
// window on, against real time: before it nothing leaves a window in time). In the run's
// last window the waiting checks are packed into what each workspace has left over the run
// (packing.ts), and one that fits there is admitted only where it was placed.

/** What admission needs of the pool. */
export interface RoomSource {
  reserve(checkId: string, need: number, testEmails?: number, spare?: PooledWorkspace, mailless?: boolean, exclusive?: boolean, only?: PooledWorkspace): PooledWorkspace | undefined;
  roomiest(testEmails?: number, mailless?: boolean, checkId?: string): PooledWorkspace | undefined;
  /** What each workspace can still take before the run ends, in its last planned window (else undefined). */
  runRoom?(): Map<PooledWorkspace, number> | undefined;
  /** Against real time, whether the run is before its last planned window (nothing of the first leaves it before then). */
  beforeLastWindow?(): boolean;
}

/** Of a window, the share one check may wait for: a check measured to send more (a rate-limit probe) starts once this much is free. */
export const MAX_NEED_SHARE = 0.9;
/** How often a check that does not fit looks again while nothing ends (the windows slide meanwhile). */
export const RETRY_MS = 200;

interface Waiter {
  id: string;
  need: number;
  testEmails: number;
  /** It sends no mail: a workspace held exclusively by a lender may take it. */
  mailless: boolean;
  /** It leases a workspace exclusively: one is kept free of other checks for it. */
  exclusive: boolean;
  admit: () => void;
}

export class Admission {
  private readonly queue: Waiter[] = [];
  private running = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Where the run's packing placed each waiting check (pump). */
  private placed = new Map<string, PooledWorkspace>();
  /** What each workspace has over once the waiting checks are placed: a placed check may go there instead (pump). */
  private over = new Map<PooledWorkspace, number>();

  /** `slots`: checks at once; `limit`: requests a workspace's window holds (needs are capped below it). */
  constructor(
    private readonly pool: RoomSource,
    readonly slots: number,
    private readonly limit: number,
    private readonly retryMs = RETRY_MS,
  ) {}

  /** Waits until the check may start; resolves with the function that ends its turn (idempotent). */
  enter(checkId: string, need: number, testEmails = 0, mailless = false, exclusive = false): Promise<() => void> {
    return new Promise((resolve) => {
      let left = false;
      const leave = () => {
        if (left) return;
        left = true;
        this.running--;
        this.pump();
      };
      const capped = Math.max(0, Math.min(Math.ceil(need), Math.floor(this.limit * MAX_NEED_SHARE)));
      this.queue.push({ id: checkId, need: capped, testEmails, mailless, exclusive, admit: () => resolve(leave) });
      this.pump();
    });
  }

  /** Checks waiting for a slot or for room. */
  get waiting(): number {
    return this.queue.length;
  }

  private pump(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    let spare: PooledWorkspace | undefined;
    this.pack();
    for (let i = 0; i < this.queue.length && this.running < this.slots; ) {
      const w = this.queue[i]!;
      // Only a plain shared lease is held to its place; one that leases exclusively or sends test emails takes what the lease allows.
      const only = w.exclusive || w.testEmails ? undefined : this.placed.get(w.id);
      // No workspace it could lease now (none prepared, all held exclusively): the lease decides, not the window.
      const roomiest = w.need === 0 ? undefined : (only ?? this.pool.roomiest(w.testEmails, w.mailless, w.id));
      if (!roomiest || this.pool.reserve(w.id, w.need, w.testEmails, spare, w.mailless, w.exclusive, only) || (only && this.elsewhere(w, only, spare))) {
        this.queue.splice(i, 1);
        this.placed.delete(w.id);
        this.running++;
        w.admit();
        continue;
      }
      // The first in line waits for the roomiest workspace: the checks behind it leave that one alone.
      // Not before a real-time run's last window: nothing leaves that window sooner than it ends,
      // so the room kept would only go unused (the packing places the first in line later).
      if (i === 0 && !this.pool.beforeLastWindow?.()) spare = roomiest;
      i++;
    }
    if (this.queue.length && this.running < this.slots) {
      this.timer = setTimeout(() => this.pump(), this.retryMs);
    }
  }

  /** Places the waiting checks in what the workspaces have left over the run (packing.ts), where that is known. */
  private pack(): void {
    const room = this.pool.runRoom?.();
    if (!room) return;
    const items = this.queue.filter((w) => w.need > 0).map((w) => ({ id: w.id, need: w.need, before: this.placed.get(w.id) }));
    this.over = new Map();
    this.placed = packRun(items, room, this.over);
  }

  /**
   * A placed check whose workspace has no room now goes to another that has, where the packing
   * left that much over (the run's other checks still fit where they were placed): it need not
   * wait for its own workspace's window to slide.
   */
  private elsewhere(w: Waiter, placed: PooledWorkspace, spare: PooledWorkspace | undefined): boolean {
    // It leaves a margin over there too: a check's requests in a second workspace were promised in its first.
    const others = [...this.over].filter(([ws, n]) => ws !== placed && n >= w.need + OWED_MARGIN).sort((a, b) => b[1] - a[1]);
    for (const [ws] of others) {
      if (!this.pool.reserve(w.id, w.need, w.testEmails, spare, w.mailless, w.exclusive, ws)) continue;
      this.over.set(ws, this.over.get(ws)! - w.need);
      this.over.set(placed, (this.over.get(placed) ?? 0) + w.need);
      return true;
    }
    return false;
  }
}
