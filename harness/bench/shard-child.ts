// One shard of `npm run bench:shards`, in a process of its own: the same start gate, slice and
// generator as `load api --shard k/n --start-at` (generator/start-at.ts, scheduleSlice,
// open-model.ts, transport.ts), against the stalling server. Prints one JSON line: its corrected
// latency histogram (encoded), how long before the instant it was ready, its start skew.
//   node --import tsx harness/bench/shard-child.ts '{"url":"http://127.0.0.1:PORT","rate":600,"durationMs":10000,"index":1,"of":3,"startAt":EPOCH_MS}'
import { scheduleSlice } from '../load/generator/api.ts';
import { runOpenModel } from '../load/generator/open-model.ts';
import { checkStarted, ClockProbe, waitForStart } from '../load/generator/start-at.ts';
import { createTransport } from '../load/generator/transport.ts';
import { encode, newHistogram, record } from '../load/report/histogram.ts';

const o = JSON.parse(process.argv[2]!) as { url: string; rate: number; durationMs: number; index: number; of: number; startAt: number };
const shard = { index: o.index, of: o.of };
const slice = scheduleSlice(o.rate, o.durationMs, shard);
const transport = createTransport(o.url, { connections: 256, timeoutMs: 10_000 });
const clock = new ClockProbe();
// Prepare: warm a few connections (as a shard's setup would), reading the server's Date headers.
for (let i = 0; i < 8; i++) {
  const sent = Date.now();
  const res = await transport.send({ method: 'GET', path: '/warm' });
  clock.observe(sent, Date.now(), res.headers.date);
}
const gate = { at: o.startAt, toleranceMs: 50, shard: `${o.index}/${o.of}` };
const { origin, start } = await waitForStart(gate, clock);
checkStarted(gate, origin);
const corrected = newHistogram();
let late = 0;
const r = await runOpenModel({
  rate: slice.rate,
  durationMs: o.durationMs,
  count: slice.count,
  phaseMs: slice.phaseMs,
  origin,
  send: async () => ({ status: (await transport.send({ method: 'GET', path: '/' })).status }),
  onShot: (s) => {
    if (s.index === 0) start.startSkewMs = Math.round((s.sent - s.intended) * 1000) / 1000;
    if (s.late) late++;
    record(corrected, (s.done - s.intended) * 1000);
  },
});
await transport.close();
process.stdout.write(`${JSON.stringify({ shard: gate.shard, sent: r.sent, late, marginMs: start.marginMs, startSkewMs: start.startSkewMs, corrected: encode(corrected) })}\n`);
