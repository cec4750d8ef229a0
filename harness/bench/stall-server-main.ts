import { performance } from 'node:perf_hooks';
import { startStallServer } from './stall-server.ts';

// The stalling server in a process of its own, so a load generator measured against it does not
// share its event loop:
//   node --import tsx harness/bench/stall-server-main.ts '{"periodMs":770,"stallMs":200}'
// Options (JSON, all optional): periodMs, stallMs, maxLifetimeMs, log (keep the per-request
// log), startEpochMs (a stall window begins at this wall-clock ms, performance.timeOrigin +
// performance.now() of the caller: the caller's and this process's clocks meet there).
// Prints one JSON line {"port", "url", "startEpochMs", "periodMs", "stallMs"} once listening.
// With an IPC channel (child_process.fork) it also sends that line as a message, answers
// {type:"log"} with {type:"log", entries:[[arrival, response], ...]} (wall-clock ms, in response
// order) and {type:"close"} by closing and exiting; it exits when the parent goes away, and in any case after maxLifetimeMs.

interface MainOptions {
  periodMs?: number;
  stallMs?: number;
  maxLifetimeMs?: number;
  log?: boolean;
  startEpochMs?: number;
}

const opts = JSON.parse(process.argv[2] ?? '{}') as MainOptions;
const server = await startStallServer({
  ...(opts.periodMs !== undefined ? { periodMs: opts.periodMs } : {}),
  ...(opts.stallMs !== undefined ? { stallMs: opts.stallMs } : {}),
  ...(opts.startEpochMs !== undefined ? { start: opts.startEpochMs - performance.timeOrigin } : {}),
  maxLifetimeMs: opts.maxLifetimeMs ?? 180_000,
  log: opts.log ?? true,
});

const ready = {
  type: 'ready',
  port: server.port,
  url: server.url,
  startEpochMs: performance.timeOrigin + server.schedule.start,
  periodMs: server.schedule.periodMs,
  stallMs: server.schedule.stallMs,
};
process.stdout.write(`${JSON.stringify(ready)}\n`);

const exit = () => void server.close().then(() => process.exit(0));
process.once('SIGTERM', exit);
process.once('SIGINT', exit);
if (process.send) {
  process.send(ready);
  process.on('message', (m: { type?: string }) => {
    // Times on the wall clock (performance.timeOrigin + performance.now()), as [arrival, response] pairs.
    if (m?.type === 'log') process.send!({ type: 'log', entries: server.log().map((e) => [performance.timeOrigin + e.arrival, performance.timeOrigin + e.response]) });
    else if (m?.type === 'close') exit();
  });
  process.once('disconnect', exit);
}
// The server closes itself after its lifetime; the process (held by the IPC channel) leaves too.
setTimeout(exit, (opts.maxLifetimeMs ?? 180_000) + 100).unref();
