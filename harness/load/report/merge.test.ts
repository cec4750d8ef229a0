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
    expect(() => mergeLoadReports([shard(1, 2, a, {}), shard(1, 2, b, {})], 'm')).toThrow(/shard 1\/2 is given twice/);
    expect(() => mergeLoadReports([shard(1, 2, a, {}), shard(2, 3, b, {})], 'm')).toThrow(/different splits/);
    const sp = { ...shard(1, 2, a, {}), kind: 'sendpath' as const };
    expect(() => mergeLoadReports([sp], 'm')).toThrow(/takes api loads/);
    expect(() => mergeLoadReports([], 'm')).toThrow(/at least one/);
  });

  it('parses --shard k/n and names a bad one', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, of: 4 });
    for (const bad of ['0/4', '5/4', '2', 'a/b']) expect(() => parseShard(bad)).toThrow(/--shard takes k\/n/);
  });
});
