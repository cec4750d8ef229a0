import type { PooledWorkspace } from './pool.ts';

// When a check may start: a slot of the run's concurrency is free, and a workspace's rate window
// has room now for the requests the check was measured to send (expected.ts), which the pool
// then promises it (pool.reserve). A check admitted so sends its requests without waiting on the
// rate limit mid-way, holding a slot, while another workspace's budget sits idle; one that does
// not fit waits before it starts, and a check behind it that fits elsewhere goes first. The
// first in line is never starved: the workspace with the most room is kept for it.

/** What admission needs of the pool. */
export interface RoomSource {
  reserve(checkId: string, need: number, testEmails?: number, spare?: PooledWorkspace, mailless?: boolean, exclusive?: boolean): PooledWorkspace | undefined;
  roomiest(testEmails?: number, mailless?: boolean): PooledWorkspace | undefined;
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
    for (let i = 0; i < this.queue.length && this.running < this.slots; ) {
      const w = this.queue[i]!;
      // No workspace it could lease now (none prepared, all held exclusively): the lease decides, not the window.
      const roomiest = w.need === 0 ? undefined : this.pool.roomiest(w.testEmails, w.mailless);
      if (!roomiest || this.pool.reserve(w.id, w.need, w.testEmails, spare, w.mailless, w.exclusive)) {
        this.queue.splice(i, 1);
        this.running++;
        w.admit();
        continue;
      }
      // The first in line waits for the roomiest workspace: the checks behind it leave that one alone.
      if (i === 0) spare = roomiest;
      i++;
    }
    if (this.queue.length && this.running < this.slots) {
      this.timer = setTimeout(() => this.pump(), this.retryMs);
    }
  }
}
