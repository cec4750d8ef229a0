import { describe, expect, it } from 'vitest';
import { decode, encode, newHistogram, percentile, record } from './histogram.ts';
import { mergeLoadReports, parseShard } from './merge.ts';
import { emptyLoadReport } from './load-report.test-helper.ts';
import type { LoadReport } from './types.ts';

function shard(index: number, of: number, samplesMs: number[], status: Record<string, number>): LoadReport {
  const r = emptyLoadReport();
  const h = newHistogram();
  for (const ms of samplesMs) record(h, ms * 1000);
  r.kind = 'api';
  r.plan = { rate: 10, durationMs: 3000, intended: samplesMs.length, workspaces: 2, mix: { 'campaigns.status': 1 }, shard: `${index}/${of}` };
  r.totals = { ...r.totals, sent: samplesMs.length, completed: samplesMs.length, late: index, errors: 0, status, throughput: 10, corrected: encode(h), service: encode(h) };
  r.endpoints = [{ label: 'GET /v1/campaigns/{id}/status', count: samplesMs.length, status, corrected: encode(h), service: encode(h) }];
  r.flows = { 'campaigns.status': { count: samplesMs.length, errors: 0 } };
  r.timeline = [0, 1, 2].map((s) => ({ t: s * 1000, intended: 10, achieved: 10, p50: 1000 * index, p99: 2000 * index, s429: 0, s5xx: s === 2 ? 1 : 0 }));
  r.violationCounts = { 'no 5xx': index };
  return r;
}

describe('load merge', () => {
  const a = Array.from({ length: 300 }, (_, i) => 1 + (i % 50));
  const b = Array.from({ length: 200 }, (_, i) => 40 + (i % 300));
  const merged = mergeLoadReports([shard(1, 2, a, { '200': 300 }), shard(2, 2, b, { '200': 199, '500': 1 })], 'm');

  it('loses nothing: the merged histogram equals one histogram of every sample', () => {
    const one = newHistogram();
    for (const ms of [...a, ...b]) record(one, ms * 1000);
    const got = decode(merged.totals.corrected);
    expect(got.totalCount).toBe(500);
    for (const p of [0, 50, 90, 99, 99.9, 100]) expect(percentile(got, p), `p${p}`).toBe(percentile(one, p));
    expect(decode(merged.endpoints[0]!.corrected).totalCount).toBe(500);
  });

  it('adds counts, rates, workspaces, statuses, flows, timelines and violations', () => {
    expect(merged.totals).toMatchObject({ sent: 500, completed: 500, late: 3, throughput: 20, status: { '200': 499, '500': 1 } });
    expect(merged.plan).toMatchObject({ rate: 20, intended: 500, workspaces: 4 });
    expect(merged.plan.shard).toBeUndefined();
    expect(merged.flows['campaigns.status']!.count).toBe(500);
    expect(merged.timeline.map((p) => p.achieved)).toEqual([20, 20, 20]);
    expect(merged.timeline[2]!.s5xx).toBe(2);
    expect(merged.violationCounts).toEqual({ 'no 5xx': 3 });
  });

  it('says which shards are missing, and refuses what cannot be merged', () => {
    const part = mergeLoadReports([shard(1, 3, a, {}), shard(3, 3, b, {})], 'm');
    expect(part.notes).toContain('shards not given: 2/3 (the figures cover part of the load)');
    expect(() => mergeLoadReports([shard(1, 2, a, {}), shard(1, 2, b, {})], 'm', ['x/load.json', 'y/load.json'])).toThrow(/shard 1\/2 is given twice: x\/load.json and y\/load.json/);
    expect(() => mergeLoadReports([shard(1, 2, a, {}), shard(2, 3, b, {})], 'm', ['x', 'y'])).toThrow(/y is not a shard of the same run as x: its split is "3", not "2"/);
    const cap = { ...shard(1, 2, a, {}), kind: 'capacity' as const };
    expect(() => mergeLoadReports([cap], 'm', ['c.json'])).toThrow(/c.json is a capacity run, which is not split/);
    expect(() => mergeLoadReports([], 'm')).toThrow(/at least one/);
  });

  it('refuses, naming the file, a shard of another run, schedule or kit version', () => {
    const one = (f: (r: LoadReport) => void) => {
      const r = shard(2, 2, b, {});
      f(r);
      return () => mergeLoadReports([{ ...shard(1, 2, a, {}), plan: { ...shard(1, 2, a, {}).plan, run: 'r1', schedule: { rate: 20, durationMs: 3000, startAt: '2026-01-01T00:00:00.000Z' } } }, r], 'm', ['a.json', 'b.json']);
    };
    const same = (r: LoadReport) => Object.assign(r.plan, { run: 'r1', schedule: { rate: 20, durationMs: 3000, startAt: '2026-01-01T00:00:00.000Z' } });
    expect(one(same)).not.toThrow();
    expect(one((r) => (same(r), (r.plan.run = 'r2')))).toThrow(/b.json is not a shard of the same run as a.json: its run is "r2", not "r1"/);
    expect(one((r) => (same(r), (r.plan.schedule!.startAt = '2026-01-01T00:01:00.000Z')))).toThrow(/b.json .* its schedule is/);
    expect(one((r) => (same(r), (r.environment.kit = '9.9.9')))).toThrow(/b.json .* its kit version is "9.9.9"/);
  });

  it('lists every shard start, and sums send-path shards: their own mailboxes, rules held per shard', () => {
    const sp = (index: number, dup: number, gap: number) => {
      const r = { ...shard(index, 2, a, {}), kind: 'sendpath' as const };
      r.shardStarts = [{ shard: `${index}/2`, startAt: 'x', readyAt: 'y', marginMs: 100, startSkewMs: index / 10, toleranceMs: 50 }];
      r.sendpath = { simulated: true, leads: 10, mailboxes: [{ id: `m${index}`, address: `m${index}@x.test`, cap: 200, gapMinutes: 5, sends: [1] }], fromAllowed: encode(newHistogram()), duplicates: dup, losses: 1, achievedPerDay: 100, idealPerDay: 120, emailsPerWallSecond: 3, gapViolations: gap, capViolations: 0 };
      return r;
    };
    const m = mergeLoadReports([sp(2, 1, 0), sp(1, 0, 2)], 'm');
    expect(m.shardStarts!.map((s) => [s.shard, s.startSkewMs])).toEqual([['1/2', 0.1], ['2/2', 0.2]]);
    expect(m.sendpath).toMatchObject({ leads: 20, duplicates: 1, losses: 2, gapViolations: 2, capViolations: 0, achievedPerDay: 200, idealPerDay: 240, emailsPerWallSecond: 6 });
    expect(m.sendpath!.mailboxes.map((b) => b.id)).toEqual(['m2', 'm1']);
  });

  it('parses --shard k/n and names a bad one', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, of: 4 });
    for (const bad of ['0/4', '5/4', '2', 'a/b']) expect(() => parseShard(bad)).toThrow(/--shard takes k\/n/);
  });
});
