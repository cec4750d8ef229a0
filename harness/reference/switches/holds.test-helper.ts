import type { IdempotencyHolds } from './holds.ts';

// The test's side of switches/holds.ts: a hold per Idempotency-Key, so probes sharing one
// reference each hold only their own key. A probe waits on what the reference reports (a request
// held, a duplicate seen), never on time.

/** One key's hold: counts what the reference reported and keeps the held requests until released. */
export class KeyHold {
  /** Requests held at `running` so far. */
  running = 0;
  /** Requests that found the key still processing. */
  duplicates = 0;
  private released = false;
  private readonly waiting: (() => void)[] = [];
  private readonly checks: (() => void)[] = [];

  /** Resolves once `cond` holds, re-checked whenever the reference reports or a tracked answer comes. */
  until(cond: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!cond()) return;
        this.checks.splice(this.checks.indexOf(check), 1);
        resolve();
      };
      this.checks.push(check);
      check();
    });
  }

  /** `p`, with its settling counted as an event `until` re-checks on. */
  track<T>(p: Promise<T>): Promise<T> {
    return p.finally(() => this.changed());
  }

  /**
   * Sends the key's first request and resolves once the reference holds it in flight; fails at
   * once, naming it, if the request was answered without being held. (`first` is wrapped: it
   * settles only after release().)
   */
  async first<T>(send: () => Promise<T>): Promise<{ first: Promise<T> }> {
    let answered = false;
    const first = this.track(send().finally(() => (answered = true)));
    await this.until(() => this.running === 1 || answered);
    if (this.running !== 1) throw new Error(`the first request was answered without being held in flight: ${JSON.stringify(await first)}`);
    return { first };
  }

  /** Lets every held request run, and every later one at once. */
  release(): void {
    this.released = true;
    for (const go of this.waiting.splice(0)) go();
  }

  /** @internal the reference's report */
  enter(): Promise<void> {
    this.running++;
    const held = this.released ? Promise.resolve() : new Promise<void>((go) => this.waiting.push(go));
    this.changed();
    return held;
  }

  /** @internal the reference's report */
  sawDuplicate(): void {
    this.duplicates++;
    this.changed();
  }

  private changed(): void {
    for (const check of [...this.checks]) check();
  }
}

/** The holds a test reference is started with: a key without a hold runs on at once. */
export class HoldRegistry implements IdempotencyHolds {
  private readonly holds = new Map<string, KeyHold>();

  /** Holds every request with `key` that runs as the key's first, until the hold is released. */
  hold(key: string): KeyHold {
    const h = new KeyHold();
    this.holds.set(key, h);
    return h;
  }

  running(key: string): Promise<void> {
    return this.holds.get(key)?.enter() ?? Promise.resolve();
  }

  duplicate(key: string): void {
    this.holds.get(key)?.sawDuplicate();
  }
}
