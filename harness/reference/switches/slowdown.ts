import type { IncomingMessage, ServerResponse } from 'node:http';

// A deliberately slowed reference (`startReference({ slowdown: 0.2 })`, `reference --slowdown
// 0.2`): a deployment option outside the spec, like a raised rate limit, that gives a regression
// comparison a known regression to find. Every answer of the public API is followed by a busy
// loop of `share` times the CPU one request costs this process, so CPU per request rises by
// about that share whatever else the machine runs (and latency with it, since the loop holds the
// event loop).
//
// The cost of a request is measured, not guessed: every WINDOW requests the process's CPU time
// (process.cpuUsage: every thread, as /proc counts it) less the time spent spinning, divided by
// the requests of the window, gives the unslowed CPU per request; the loop spins `share` of a
// running average of it. The first window runs unslowed while the first estimate forms.

const WINDOW = 64;

export function slowed(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, share: number): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  if (!(share > 0) || !Number.isFinite(share)) throw new Error(`slowdown must be a share above 0, not ${share}`);
  let perRequestUs = 0; // running estimate of the unslowed CPU of one request
  let n = 0;
  let spunUs = 0;
  let mark = cpuUs();
  return async (req, res) => {
    await handle(req, res);
    const spinUs = share * perRequestUs;
    if (spinUs > 0) {
      // Spin on this process's CPU clock, not the wall clock: on a busy machine a wall-clock spin
      // is preempted and burns less CPU than asked, and the known regression shrinks with the load.
      const end = cpuUs() + spinUs;
      while (cpuUs() < end) {
        /* busy: this is the point */
      }
      spunUs += spinUs;
    }
    if (++n >= WINDOW) {
      const now = cpuUs();
      const base = Math.max(0, now - mark - spunUs) / n;
      perRequestUs = perRequestUs === 0 ? base : 0.7 * perRequestUs + 0.3 * base;
      mark = now;
      n = 0;
      spunUs = 0;
    }
  };
}

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}
