import type { IncomingMessage, ServerResponse } from 'node:http';

// A target slower on purpose (`startReference({ slow: 3 })`, `reference --slow 3`): a deployment
// option outside the spec, like a raised rate limit, that makes the reference behave like a
// remote staging deployment whose answers, sending engine and verification are N times slower
// than the reference's own. It gives the kit's run estimate a target whose durations differ from
// the ones it was measured on (`npm run bench:staging`).
//
// Factor N stretches the reference's typical times: every public answer waits (N - 1) x
// LATENCY_MS before it is handled (a network's round trip, not CPU: unlike --slowdown it holds no
// event loop); each sending round with something due and each mailbox verification waits
// (N - 1) x WORK_MS before it starts (about the second a verification takes here), and their
// timers tick N times less often. With the control API on, a drain pays only for the work it finds
// (a round with nothing due ends at once, or the send path's clock steps would each wait).

/** The answer latency one step of the factor adds. */
export const LATENCY_MS = 25;
/** The pause one step of the factor adds before a sending round or a verification. */
export const WORK_MS = 1_000;
/** The largest factor: a slower target would mostly measure the kit's timeouts. */
export const MAX_SLOW = 20;

/** The factor, checked: 1 (not slowed) to MAX_SLOW. */
export function slowFactor(n: number | undefined): number {
  if (n === undefined) return 1;
  if (!Number.isFinite(n) || n < 1 || n > MAX_SLOW) throw new Error(`slow must be a factor from 1 to ${MAX_SLOW}, not ${n}`);
  return n;
}

/** The public API's handler, each answer delayed by the factor's latency. */
export function slowAnswers(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, factor: number): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const ms = (slowFactor(factor) - 1) * LATENCY_MS;
  if (ms <= 0) return handle;
  return async (req, res) => {
    await pause(ms);
    await handle(req, res);
  };
}

/** Waits before background work (a sending round, a verification): resolves at once unslowed. */
export function slowWork(factor: number): Promise<void> {
  return pause((factor - 1) * WORK_MS);
}

/** A background timer's period under the factor. */
export function slowTick(ms: number, factor: number): number {
  return Math.round(ms * factor);
}

function pause(ms: number): Promise<void> {
  if (!(ms > 0)) return Promise.resolve();
  // Unref'd: a stopping reference never waits on a pause.
  return new Promise((r) => setTimeout(r, ms).unref());
}
