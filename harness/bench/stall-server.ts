import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

// A loopback HTTP server that stalls on a fixed schedule, for measuring load generators against
// a known truth. Every `periodMs` it stops answering for `stallMs`: a request arriving inside a
// stall window is answered at the window's end, any other at once, with a tiny JSON body.
// Windows are [start + k*periodMs, start + k*periodMs + stallMs) for every integer k, `start`
// on the performance clock of this process, so a caller that knows `start` (passed in, or read
// back) can compute the expected answer time of any arrival (`stallAnswerAt`).
// Each request's arrival and response times are logged, so the server's own service times are
// known. It closes itself after `maxLifetimeMs`; `close()` is idempotent. `forkStallServer` runs
// it in a child process (stall-server-main.ts), so that a generator measured against it does not
// share its event loop; the two processes meet on the wall clock (performance.timeOrigin +
// performance.now(), which agree across processes on one machine to a few hundredths of a ms).

export interface StallSchedule {
  /** ms on the performance clock at which a stall window begins (the schedule's phase) */
  start: number;
  periodMs: number;
  stallMs: number;
}

export interface StallServerOptions {
  /** default 770 */
  periodMs?: number;
  /** default 200; 0 never stalls */
  stallMs?: number;
  /** performance-clock ms of a window's beginning (default: now + periodMs, so the first stall comes one period after start-up) */
  start?: number;
  /** closes itself after this long (default 5 minutes) */
  maxLifetimeMs?: number;
  /** keep the per-request log (default true) */
  log?: boolean;
  /** the performance clock (ms) */
  now?: () => number;
}

export interface StallServer {
  url: string;
  port: number;
  schedule: StallSchedule;
  /** requests answered so far (arrival and response, performance-clock ms), in response order */
  log(): ReadonlyArray<{ arrival: number; response: number }>;
  /** requests received so far */
  received(): number;
  close(): Promise<void>;
}

/** The time at which a request arriving at `t` is answered under the schedule (ms, same clock). */
export function stallAnswerAt(s: StallSchedule, t: number): number {
  if (s.stallMs <= 0) return t;
  const end = s.start + Math.floor((t - s.start) / s.periodMs) * s.periodMs + s.stallMs;
  return t < end ? end : t;
}

const BODY = '{"ok":true}';

export async function startStallServer(opts: StallServerOptions = {}): Promise<StallServer> {
  const now = opts.now ?? (() => performance.now());
  const periodMs = opts.periodMs ?? 770;
  const stallMs = opts.stallMs ?? 200;
  if (!(periodMs > 0) || stallMs < 0 || stallMs >= periodMs) throw new Error(`bad stall schedule: every ${periodMs} ms for ${stallMs} ms`);
  const schedule: StallSchedule = { start: opts.start ?? now() + periodMs, periodMs, stallMs };
  const keepLog = opts.log ?? true;
  const arrivals: number[] = [];
  const responses: number[] = [];
  // Requests held in a stall, by the window's end: one timer per window answers them all.
  const held = new Map<number, { res: http.ServerResponse; arrival: number }[]>();
  const timers = new Set<NodeJS.Timeout>();
  const immediates = new Set<NodeJS.Immediate>();
  let received = 0;

  const answer = (res: http.ServerResponse, arrival: number) => {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
    if (keepLog) {
      arrivals.push(arrival);
      responses.push(now());
    }
    res.end(BODY);
  };

  const release = (end: number) => {
    // Timers round to whole milliseconds and may wake a little early: never answer before the end.
    if (now() < end) {
      const i = setImmediate(() => {
        immediates.delete(i);
        release(end);
      });
      immediates.add(i);
      return;
    }
    const list = held.get(end) ?? [];
    held.delete(end);
    for (const h of list) answer(h.res, h.arrival);
  };

  const server = http.createServer((req, res) => {
    const arrival = now();
    received++;
    req.resume();
    const end = stallAnswerAt(schedule, arrival);
    if (end <= arrival) return answer(res, arrival);
    let list = held.get(end);
    if (!list) {
      held.set(end, (list = []));
      const t = setTimeout(() => {
        timers.delete(t);
        release(end);
      }, Math.max(0, Math.floor(end - arrival) - 1));
      timers.add(t);
    }
    list.push({ res, arrival });
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      clearTimeout(lifetime);
      for (const t of timers) clearTimeout(t);
      for (const i of immediates) clearImmediate(i);
      timers.clear();
      immediates.clear();
      held.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  const lifetime = setTimeout(() => void close(), opts.maxLifetimeMs ?? 300_000);
  lifetime.unref();

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    schedule,
    log: () => arrivals.map((arrival, i) => ({ arrival, response: responses[i]! })),
    received: () => received,
    close,
  };
}

export interface ForkedStallServer {
  url: string;
  port: number;
  pid: number;
  /** the schedule on the wall clock: `start` is in ms since the epoch (performance.timeOrigin + performance.now()) */
  schedule: StallSchedule;
  /** the requests answered so far, arrival and response on the wall clock (ms since the epoch), in response order */
  log(): Promise<Array<{ arrival: number; response: number }>>;
  /** stops the child; idempotent */
  close(): Promise<void>;
}

/** Starts the stalling server in a child process (Node with tsx) and waits until it listens. */
export async function forkStallServer(opts: { periodMs?: number; stallMs?: number; startEpochMs?: number; maxLifetimeMs?: number; log?: boolean } = {}): Promise<ForkedStallServer> {
  const main = new URL('./stall-server-main.ts', import.meta.url).pathname;
  const child = fork(main, [JSON.stringify(opts)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  type Ready = { type: 'ready'; port: number; url: string; startEpochMs: number; periodMs: number; stallMs: number };
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the stall server did not start within 20 s')), 20_000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the stall server exited (${code}) before listening`)));
    child.once('message', (m: Ready) => {
      clearTimeout(timer);
      resolve(m);
    });
  });
  let closing: Promise<void> | undefined;
  return {
    url: ready.url,
    port: ready.port,
    pid: child.pid!,
    schedule: { start: ready.startEpochMs, periodMs: ready.periodMs, stallMs: ready.stallMs },
    log: () =>
      new Promise((resolve, reject) => {
        if (!child.connected) return reject(new Error('the stall server has exited'));
        const onMessage = (m: { type?: string; entries?: [number, number][] }) => {
          if (m?.type !== 'log') return;
          child.off('message', onMessage);
          resolve((m.entries ?? []).map(([arrival, response]) => ({ arrival, response })));
        };
        child.on('message', onMessage);
        child.send({ type: 'log' });
      }),
    close: () => {
      closing ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          if (child.connected) child.send({ type: 'close' });
          const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(kill);
        }
      })();
      return closing;
    },
  };
}
