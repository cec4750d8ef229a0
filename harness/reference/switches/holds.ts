// A test's hold on the idempotency path (`startReference({ holds })`): outside the spec, never
// offered by the CLI. The reference's own tests use it to build an overlap they control instead of
// hoping that concurrent requests overlap: a request that took its key waits at `running` until the
// test releases it, so a duplicate sent meanwhile surely finds the key in flight, however busy the
// machine is.

export interface IdempotencyHolds {
  /** Awaited by a request with an Idempotency-Key once it runs as the key's first (its handler has not run yet). */
  running(key: string): Promise<void>;
  /** Told when a request finds its key still processing, before it answers or waits. */
  duplicate(key: string): void;
}

/** No holds: every request runs on at once (the reference served to anyone). */
export const NO_HOLDS: IdempotencyHolds = { running: () => Promise.resolve(), duplicate: () => {} };
