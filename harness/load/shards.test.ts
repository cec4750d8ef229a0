import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import S3rver from 's3rver';
import { scheduleSlice } from './generator/api.ts';
import { runOpenModel, type Shot } from './generator/open-model.ts';
import { checkStarted, ClockProbe, parseStartAt, waitForStart } from './generator/start-at.ts';
import { collectShards, readLoadJson } from './merge-shards.ts';
import { parseShardFlags, runFromInstant, shardFolder } from './shards.ts';
import { dirStore, openStore, probeWritable } from './store/store.ts';
import { s3Store } from './store/s3-store.ts';
import { emptyLoadReport } from './report/load-report.test-helper.ts';

// Shards of one run: the slices interleave into one schedule, a late or clock-skewed shard fails
// naming its skew, a store is probed before the start, and merge waits for, names and refuses.

describe('shards of one schedule', () => {
  it('interleave: shard k of n sends requests k-1, k-1+n, ... of the single schedule, at their times', () => {
    for (const [rate, ms, n] of [[100, 1000, 3], [7, 3000, 4], [2000, 500, 5]] as const) {
      const single = scheduleSlice(rate, ms);
      const times = Array.from({ length: n }, (_, k) => {
        const s = scheduleSlice(rate, ms, { index: k + 1, of: n });
        return Array.from({ length: s.count }, (_, i) => s.phaseMs + (i * 1000) / s.rate);
      }).flat();
      expect(times.length).toBe(single.count);
      const want = Array.from({ length: single.count }, (_, i) => (i * 1000) / rate);
      times.sort((a, b) => a - b).forEach((t, i) => expect(t).toBeCloseTo(want[i]!, 6));
    }
  });

  it('the generator runs a slice from a given origin and phase, counting from that origin', async () => {
    const origin = performance.now() + 30;
    const shots: Shot[] = [];
    await runOpenModel({ rate: 200, durationMs: 1000, count: 4, phaseMs: 2.5, origin, send: async () => ({ status: 200 }), onShot: (s) => shots.push(s) });
    expect(shots.map((s) => s.intended).sort((a, b) => a - b)).toEqual([2.5, 7.5, 12.5, 17.5]);
    expect(Math.min(...shots.map((s) => s.sent))).toBeGreaterThanOrEqual(2.5);
  });

  it('waits for the instant, and a shard ready after it fails naming the skew', async () => {
    const wall = () => performance.timeOrigin + performance.now(); // the clock the gate reads
    // A second ahead: ready before the instant even on a busy machine.
    const gate = { at: wall() + 1000, toleranceMs: 50, shard: '1/2' };
    const { origin, start } = await waitForStart(gate, new ClockProbe());
    expect(wall()).toBeGreaterThanOrEqual(gate.at - 5);
    expect(start).toMatchObject({ shard: '1/2', startAt: new Date(gate.at).toISOString(), toleranceMs: 50 });
    expect(start.marginMs).toBeGreaterThan(0);
    // The origin is the instant itself on the performance clock, however late this process woke.
    expect(origin).toBeLessThanOrEqual(gate.at - performance.timeOrigin);
    expect(origin).toBeGreaterThan(gate.at - performance.timeOrigin - 1000);
    // A slice begun now is within the tolerance; one begun 400 ms ago is not.
    expect(() => checkStarted(gate, performance.now())).not.toThrow();
    expect(() => checkStarted(gate, performance.now() - 400)).toThrow(/began its slice \d+ ms after the start instant .*skew \+\d+ ms, tolerance 50 ms/);
    const late = await waitForStart({ at: wall() - 2500, toleranceMs: 50, shard: '2/2' }, new ClockProbe()).catch((e: Error) => e);
    expect(late).toBeInstanceOf(Error);
    const m = /shard 2\/2 was ready at .*, (\d+) ms after the start instant .*skew \+(\d+) ms, tolerance 50 ms/.exec((late as Error).message);
    expect(m, (late as Error).message).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(2500);
    expect(m![2]).toBe(m![1]);
  });

  it('refuses a shard whose clock the target\'s Date headers show off by more than the tolerance', async () => {
    const clock = new ClockProbe();
    const now = Date.now();
    // The target says it is 10 s later than this machine thinks.
    clock.observe(now, now + 20, new Date(now + 10_000).toUTCString());
    expect(clock.bounds()!.lo).toBeGreaterThan(8_900);
    await expect(waitForStart({ at: Date.now() + 5_000, toleranceMs: 50, shard: '3/4' }, clock)).rejects.toThrow(/shard 3\/4: this machine's clock differs from the target's by at least \d+ ms .*tolerance 50 ms/);
    const fine = new ClockProbe();
    fine.observe(now, now + 20, new Date(now).toUTCString());
    expect(fine.bounds()!.lo).toBeLessThanOrEqual(0);
    expect(fine.bounds()!.hi).toBeGreaterThanOrEqual(0);
  });

  it('reads its flags: the run from the instant, bad values named', () => {
    const at = parseStartAt('2026-11-28T02:00:00Z');
    expect(parseShardFlags({ shard: '2/4', 'start-at': '2026-11-28T02:00:00Z' })).toEqual({ shard: { index: 2, of: 4 }, startAt: at, toleranceMs: 50, run: 'load-20261128T020000Z' });
    expect(runFromInstant(at)).toBe('load-20261128T020000Z');
    expect(() => parseStartAt('tomorrow')).toThrow(/--start-at takes an ISO 8601 instant/);
    expect(() => parseStartAt('2026-11-28T02:00:00')).toThrow(/with its zone/);
    expect(() => parseShardFlags({ run: '../x' })).toThrow(/--run takes a name/);
  });
});

function shardReport(k: number, n: number): string {
  const r = emptyLoadReport();
  r.kind = 'api';
  r.plan = { ...r.plan, rate: 10, shard: `${k}/${n}`, run: 'r1', schedule: { rate: 20, durationMs: 1000 } };
  return JSON.stringify(r);
}

describe('results where every shard writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shards-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('merge waits for every shard, then names the missing ones past its deadline', async () => {
    const store = dirStore(join(dir, 'wait'));
    await store.put(`${shardFolder('r1', 1, 3)}/load.json`, shardReport(1, 3));
    setTimeout(() => void store.put(`${shardFolder('r1', 2, 3)}/load.json`, shardReport(2, 3)), 100);
    const said: string[] = [];
    await expect(collectShards({ store, run: 'r1', of: 3, waitMs: 600, pollMs: 50, say: (s) => said.push(s) })).rejects.toThrow(/shard\(s\) 3\/3 of run r1 did not write .*shard-k-of-3\/load.json within 1 s/);
    expect(said[0]).toMatch(/waiting for shard\(s\) 2\/3, 3\/3 of run r1/);
    await store.put(`${shardFolder('r1', 3, 3)}/load.json`, shardReport(3, 3));
    const got = await collectShards({ store, run: 'r1', of: 3, waitMs: 0, say: () => {} });
    expect(got.parts.map((p) => p.plan.shard)).toEqual(['1/3', '2/3', '3/3']);
    expect(got.names[2]).toBe(join(dir, 'wait', 'r1/shard-3-of-3/load.json'));
  });

  it('refuses a cut-short report, naming the file', async () => {
    const store = dirStore(join(dir, 'cut'));
    await store.put(`${shardFolder('r1', 1, 1)}/load.json`, shardReport(1, 1).slice(0, 200));
    await expect(collectShards({ store, run: 'r1', of: 1, waitMs: 0, say: () => {} })).rejects.toThrow(/cut\/r1\/shard-1-of-1\/load.json is cut short/);
    expect(() => readLoadJson(JSON.stringify({ schemaVersion: 1, kind: 'api' }), 'x.json')).toThrow(/x.json is cut short: it has no plan, totals/);
  });

  it('a directory that cannot be written fails before the start', async () => {
    const ro = join(dir, 'ro');
    await dirStore(ro).put('keep', 'x');
    chmodSync(ro, 0o500);
    try {
      // root writes anywhere: then a path under a file stands in for a volume that is not there.
      const store = process.getuid?.() === 0 ? dirStore(join(dir, 'ro', 'keep', 'sub')) : dirStore(ro);
      await expect(probeWritable(store, 'run/shard-1-of-2/.probe')).rejects.toThrow(/--out .* cannot be written .*the shard stops before its start instant/);
    } finally {
      chmodSync(ro, 0o700);
    }
    await expect(openStore('gs://bucket/x')).rejects.toThrow(/--out takes a directory or s3:\/\/bucket\/prefix/);
  });
});

describe('an S3-compatible bucket (s3rver, a real implementation of the protocol, on loopback)', () => {
  let server: S3rver;
  const dir = mkdtempSync(join(tmpdir(), 's3rver-'));
  const env: NodeJS.ProcessEnv = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  beforeAll(async () => {
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'loads', configs: [] }] });
    const { port } = await server.run();
    env.AWS_ENDPOINT_URL_S3 = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds the shards of a run under its prefix, and merge reads them there', async () => {
    const store = s3Store('s3://loads/ci/nightly', env);
    await probeWritable(store, 'r1/shard-1-of-2/.probe');
    expect(await store.get('r1/shard-1-of-2/.probe')).toBeUndefined();
    await store.put(`${shardFolder('r1', 1, 2)}/load.json`, shardReport(1, 2));
    await store.put(`${shardFolder('r1', 2, 2)}/load.json`, Buffer.from(shardReport(2, 2)));
    const got = await collectShards({ store, run: 'r1', of: 2, waitMs: 0, say: () => {} });
    expect(got.parts.map((p) => p.plan.shard)).toEqual(['1/2', '2/2']);
    expect(got.names).toEqual(['s3://loads/ci/nightly/r1/shard-1-of-2/load.json', 's3://loads/ci/nightly/r1/shard-2-of-2/load.json']);
  });

  it('a bucket that cannot be written fails the shard before its start, naming the bucket', async () => {
    await expect(probeWritable(s3Store('s3://no-such-bucket/x', env), 'r/.probe')).rejects.toThrow(/--out s3:\/\/no-such-bucket\/x cannot be written .*NoSuchBucket/);
    expect(() => s3Store('s3://A_B/x', env)).toThrow(/names no valid bucket/);
  });
});
