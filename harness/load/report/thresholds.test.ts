import { describe, expect, it } from 'vitest';
import { evaluateThresholds, parseThreshold, describeBroken } from './thresholds.ts';
import { encode, newHistogram, record } from './histogram.ts';
import type { LoadReport } from './types.ts';
import { emptyLoadReport } from './load-report.test-helper.ts';
import { planWorkspaces } from '../generator/workspaces.ts';
import { parseProfile } from '../../ground/profile.ts';
import { DEFAULT_PROFILE_PATH } from '../../ground/profile.ts';
import { readFileSync } from 'node:fs';
import { parseDuration, parseRate } from '../../ground/units.ts';
import { resolveMix, parseMix } from '../generator/flows.ts';

function report(latenciesMs: number[], opts: Partial<LoadReport['totals']> = {}): LoadReport {
  const h = newHistogram();
  for (const ms of latenciesMs) record(h, ms * 1000);
  const s = newHistogram();
  for (const ms of latenciesMs) record(s, (ms * 1000) / 2);
  const r = emptyLoadReport();
  r.plan = { ...r.plan, intended: latenciesMs.length };
  r.totals = { sent: latenciesMs.length, completed: latenciesMs.length, late: 0, errors: 0, status: { '200': latenciesMs.length }, throughput: 100, corrected: encode(h), service: encode(s), ...opts };
  return r;
}

describe('thresholds', () => {
  const r = report(Array.from({ length: 1000 }, (_, i) => i + 1), { errors: 3 }); // 1..1000 ms

  it('reads latency percentiles from the corrected histogram, service.* from the service one', () => {
    const [p99, svc, p50s] = evaluateThresholds([parseThreshold('p99<300ms'), parseThreshold('service.p99<600ms'), parseThreshold('p50<=1s')], r);
    expect(p99).toMatchObject({ ok: false, unit: 'ms' });
    expect(p99!.actual).toBeGreaterThan(980);
    expect(svc!.ok).toBe(true);
    expect(svc!.actual).toBeLessThan(600);
    expect(p50s!.ok).toBe(true);
  });

  it('counts and percentages of errors, throughput and late sends', () => {
    const res = evaluateThresholds(['errors<0.1%', 'errors<=3', 'throughput>=100/s', 'late<1'].map(parseThreshold), r);
    expect(res.map((x) => x.ok)).toEqual([false, true, true, true]);
    expect(res[0]!.actual).toBeCloseTo(0.3);
  });

  it('a broken threshold is named with its measured value', () => {
    const lines = describeBroken(evaluateThresholds([parseThreshold('p99<300ms')], r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^threshold p99<300ms broke: \d+(\.\d+)? ms$/);
  });

  it('a metric the run did not measure fails, saying so', () => {
    const [t] = evaluateThresholds([parseThreshold('duplicates<1')], r);
    expect(t).toMatchObject({ ok: false, note: 'this run did not measure it' });
  });

  it('refuses malformed expressions with an example', () => {
    for (const bad of ['p99<300', 'p99 300ms', 'errors<3ms', 'p101<1ms', 'speed>3', 'throughput>3ms'])
      expect(() => parseThreshold(bad), bad).toThrow(/threshold ".*": .*e\.g\. p99<300ms/);
  });
});

describe('load planning', () => {
  const profile = parseProfile(JSON.parse(readFileSync(DEFAULT_PROFILE_PATH, 'utf8')));

  it('spreads the rate over enough workspaces that none passes its budget in any window', () => {
    for (const [rate, durationMs] of [
      [200, 120_000],
      [2, 60_000],
      [50, 10_000],
      [1000, 300_000],
    ] as const) {
      const p = planWorkspaces(profile, rate, durationMs, 3);
      expect(p.peakPerWindow, `${rate}/s`).toBeLessThanOrEqual(profile.rateLimit.requests);
      // and not wastefully many: one fewer workspace would pass the headroom
      const fewer = rate / (p.workspaces - 1 || 1);
      if (p.workspaces > 1) expect(fewer * Math.min(60, durationMs / 1000) + 3).toBeGreaterThan(profile.rateLimit.requests * 0.9);
    }
    expect(planWorkspaces(profile, 200, 120_000, 3).workspaces).toBe(115); // 200 x 60 / (108 - 3)
  });

  it('parses rates, durations and mixes, and names what is wrong', () => {
    expect(parseRate('200/s')).toBe(200);
    expect(parseRate('600/m')).toBe(10);
    expect(parseDuration('2m', '--duration')).toBe(120_000);
    expect(parseDuration('45', '--duration')).toBe(45_000);
    expect(() => parseRate('fast')).toThrow(/--rate takes requests per second/);
    expect(() => parseDuration('2 weeks', '--duration')).toThrow(/--duration takes a duration/);
    expect(parseMix('campaigns.status=4, leads.search=1')).toEqual({ 'campaigns.status': 4, 'leads.search': 1 });
    expect(() => resolveMix(profile, { 'campaigns.nope': 1 })).toThrow(/--mix: unknown flow "campaigns.nope"; known: campaigns.create/);
    expect(Object.keys(resolveMix(profile, { 'campaigns.status': 1 }).weights)).toEqual(['campaigns.status']);
  });

  it('leaves out a flow the profile cannot serve, with the reason', () => {
    const bare = { ...profile, operations: {} };
    const mix = resolveMix(bare);
    expect(mix.weights['leads.mutate']).toBeUndefined();
    expect(mix.left).toContainEqual({ flow: 'leads.mutate', reason: expect.stringMatching(/leads\.list/) });
  });
});
