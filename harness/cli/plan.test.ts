import { describe, expect, it } from 'vitest';
import { DEPTHS } from '../ground/check.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../runner/profile.ts';
import { depthTable, parseDepth, parseTimeBudget } from './plan.ts';

describe('plan', () => {
  it('shows the four depths with checks, requests, clauses, mutants killed and minutes for 2 and 16 workspaces', async () => {
    const slow = { ...(await loadProfile(DEFAULT_PROFILE_PATH)), rateLimit: { requests: 120, windowSeconds: 60 } };
    const lines = depthTable(slow).split('\n');
    expect(lines[1]).toMatch(/^depth\s+checks\s+left out\s+requests\s+clauses\s+mutants killed\s+min @2 ws\s+min @16 ws$/);
    const rows = DEPTHS.map((d) => lines.find((l) => l.startsWith(`${d} `))!.trim().split(/\s+/));
    const requests = rows.map((r) => Number(r[3]!.replace(/,/g, '')));
    expect(requests[0]).toBeLessThanOrEqual(120);
    expect(requests[2]).toBeLessThanOrEqual(2000);
    // full leaves nothing out; every smaller depth leaves something out, and fewer requests take fewer minutes.
    expect(rows[3]![2]).toBe('0');
    // A time too small to show reads "<0.1", never "0.0".
    const minutes = (s: string) => (s === '<0.1' ? 0.05 : Number(s));
    expect(rows.flatMap((r) => [r[6], r[7]])).not.toContain('0.0');
    for (const r of rows) expect(minutes(r[6]!)).toBeGreaterThanOrEqual(minutes(r[7]!));
    expect(minutes(rows[3]![6]!)).toBeGreaterThan(minutes(rows[0]![6]!));
    // Clauses "covered/total", total the catalog's, as every report counts them.
    expect(new Set(rows.map((r) => r[4]!.split('/')[1])).size).toBe(1);
    // Mutants killed "k/n": default and full kill them all (the kill matrix), smoke fewer.
    const [k, n] = rows[2]![5]!.split('/').map(Number);
    expect(k).toBe(n);
    expect(rows[3]![5]).toBe(rows[2]![5]);
    expect(Number(rows[0]![5]!.split('/')[0])).toBeLessThan(n!);
  });

  it('refuses a bad --depth or --time-budget, naming the flag', () => {
    expect(parseDepth(undefined)).toBe('default');
    expect(parseDepth('smoke')).toBe('smoke');
    expect(() => parseDepth('deep')).toThrow(/--depth must be smoke, quick, default, full/);
    expect(parseTimeBudget('5m')).toBe(300);
    expect(() => parseTimeBudget('soon')).toThrow(/--time-budget/);
    expect(() => parseTimeBudget('10ms')).toThrow(/--time-budget must be at least 1s/);
  });
});
