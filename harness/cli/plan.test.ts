import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEPTHS, type Depth } from '../ground/check.ts';
import { DEFAULT_PROFILE_PATH, loadProfile, parseProfile } from '../ground/profile.ts';
import { controlExtensions, depthTable } from './plan.ts';
import { parseDepth, parseTimeBudget } from '../ground/units.ts';
import { json, startServer } from '../client/server.test-helper.ts';
import { cli } from './cli.test-helper.ts';

/** The depth rows of depthTable: depth -> [checks, left out, requests, clauses covered, mutants killed]. */
function rows(table: string): Record<Depth, { clauses: number; killed: number }> {
  const lines = table.split('\n');
  return Object.fromEntries(
    DEPTHS.map((d) => {
      const r = lines.find((l) => l.startsWith(`${d} `))!.trim().split(/\s+/);
      return [d, { clauses: Number(r[4]!.split('/')[0]), killed: Number(r[5]!.split('/')[0]) }];
    }),
  ) as Record<Depth, { clauses: number; killed: number }>;
}

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

  it('counts only what runs on the profile: without a declaration, fewer clauses and mutants, and the field listed with its cost', async () => {
    const reference = await loadProfile(DEFAULT_PROFILE_PATH);
    const { variantIdPath: _, ...declarations } = reference.declarations;
    const lacking = parseProfile({ ...reference, declarations });
    const [full, less] = [depthTable(reference), depthTable(lacking)];
    expect(full).toMatch(/every check: every check can run on this profile$/);
    for (const d of ['default', 'full'] as const) {
      expect(rows(less)[d].clauses).toBeLessThan(rows(full)[d].clauses);
      expect(rows(less)[d].killed).toBeLessThan(rows(full)[d].killed);
    }
    const cost = /\n  declarations\.variantIdPath: (\d+) clauses, (\d+) mutants \((\d+) checks skip without it\)$/.exec(less);
    expect(cost, less).not.toBeNull();
    // What it costs at full is what the table lost there.
    expect(Number(cost![1])).toBe(rows(full).full.clauses - rows(less).full.clauses);
    expect(Number(cost![2])).toBe(rows(full).full.killed - rows(less).full.killed);
  });

  it('asks the control API which extensions it offers: the ones it does not announce cost their checks; unreachable, it says so and assumes them', async () => {
    const reference = await loadProfile(DEFAULT_PROFILE_PATH);
    const server = await startServer((r, res) => (r.url === '/capabilities' ? json(res, 200, { version: 1, extensions: ['lead-events', 'scoped-drain'] }) : json(res, 404, {})));
    try {
      const token = 'ctl-token-never-shown-1234';
      const profile = parseProfile({ ...reference, embedded: false, baseUrl: 'http://127.0.0.1:9', control: { baseUrl: server.url, token } });
      const asked = await controlExtensions(profile);
      expect(asked.known.extensions).toEqual(['lead-events', 'scoped-drain']);
      expect(asked.said).toBe(`control API ${server.url}: GET /capabilities announces lead-events, scoped-drain`);
      expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${token}`);
      const table = depthTable(profile, asked.known);
      expect(table).toMatch(/\n  control extension blacklist: \d+ clauses?, \d+ mutants? \(2 checks skip without it\)/);
      expect(table).toMatch(/\n  control extension workspace-keys: /);
      expect(table).not.toMatch(/control extension (lead-events|scoped-drain)/);
      expect(rows(table).full.clauses).toBeLessThan(rows(depthTable(profile)).full.clauses);
    } finally {
      await server.close();
    }
    // Through the command: a control API that does not answer is named, and plan goes on with the extensions unknown.
    const dir = await mkdtemp(join(tmpdir(), 'oc-plan-'));
    try {
      const path = join(dir, 'p.json');
      await writeFile(path, JSON.stringify({ ...reference, embedded: false, baseUrl: 'http://127.0.0.1:9', control: { baseUrl: 'http://127.0.0.1:9/ctl', token: { env: 'OC_PLAN_TEST_TOKEN' } } }));
      const r = await cli(['plan', '--profile', path, '--depth', 'smoke'], { env: { OC_PLAN_TEST_TOKEN: 'tok-never-shown-5678' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^control API http:\/\/127\.0\.0\.1:9\/ctl: GET \/capabilities could not be read \(.+\); planned with its extensions unknown \(each assumed available\)\n/);
      expect(r.stdout).toMatch(/\ndepth smoke: every check can run on this profile\n$/);
      expect(r.stdout + r.stderr).not.toContain('tok-never-shown-5678');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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
