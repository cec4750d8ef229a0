import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { expectedDurationMs, expectedSettleMs } from './expected.ts';
import { selectChecks } from './eligible.ts';
import { formatPlan, plan } from './planner.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import { progressOptions } from './live-estimate.ts';
import { KIT_BIN, startChildReference } from '../load/embedded-target.ts';
import { targetHistory } from './target-history.ts';
import { ownMs } from './target-pace.ts';

const execFileAsync = promisify(execFile);

// Earlier runs written as results.json files: real check ids, each `factor` times its measured
// duration against the reference served alone (no control API).
const URL_A = 'https://staging.example.test';
const ids = ALL_CHECKS.map((c) => c.id).filter((id) => expectedDurationMs({ id }, 'real') < 15_000).slice(0, 40);

interface Past {
  runId: string;
  depth?: string;
  baseUrl?: string;
  embedded?: boolean;
  control?: boolean;
  factor: number;
}

async function reports(runs: Past[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'oc-history-'));
  for (const r of runs) {
    await mkdir(join(dir, r.runId), { recursive: true });
    const checks = ids.map((id) => ({ id, verdict: 'pass', durationMs: expectedDurationMs({ id }, r.control ? 'control' : 'real') * r.factor }));
    const results = { runId: r.runId, depth: r.depth ?? 'quick', target: { baseUrl: r.baseUrl ?? URL_A, embedded: !!r.embedded }, profile: r.control ? { control: { baseUrl: 'http://c' } } : {}, checks };
    await writeFile(join(dir, r.runId, 'results.json'), JSON.stringify(results));
  }
  return dir;
}

const at = (n: number) => `2026-11-2${n}T10-00-00-000Z-ab${n}c`;

describe('targetHistory', () => {
  it('learns from the newest runs against the same base URL and clock, passing over other targets', async () => {
    const dir = await reports([
      { runId: at(1), factor: 2 },
      { runId: at(2), factor: 3, baseUrl: 'https://other.example.test' },
      { runId: at(3), factor: 3, embedded: true },
      { runId: at(4), factor: 3, control: true },
      { runId: at(5), factor: 2 },
    ]);
    const h = await targetHistory(dir, { baseUrl: `${URL_A}/`, clock: 'real', depth: 'quick' }, false);
    expect(h.pace?.runs).toEqual([at(5), at(1)]);
    expect(h.pace?.short).toBeCloseTo(2, 1);
    expect(h.said).toContain(at(5));
  });

  it("learns how long the target's mailboxes took to settle (the median of the runs' medians), where the runs saw any", async () => {
    const dir = await reports([{ runId: at(1), factor: 2 }, { runId: at(2), factor: 2 }, { runId: at(3), factor: 2 }]);
    const settle = async (runId: string, medianMs: number) => {
      const path = join(dir, runId, 'results.json');
      const r = JSON.parse(await readFile(path, 'utf8'));
      await writeFile(path, JSON.stringify({ ...r, stats: { targetWork: { 'mailbox-settle': { count: 5, medianMs } } } }));
    };
    expect((await targetHistory(dir, { baseUrl: URL_A, clock: 'real' }, false)).pace?.settleMs).toBeUndefined();
    await settle(at(1), 3000);
    await settle(at(3), 1000);
    expect((await targetHistory(dir, { baseUrl: URL_A, clock: 'real' }, false)).pace?.settleMs).toBe(3000);
    await settle(at(2), 2000);
    expect((await targetHistory(dir, { baseUrl: URL_A, clock: 'real' }, false)).pace?.settleMs).toBe(2000);
  });

  it('prefers runs at the same depth, else takes any depth', async () => {
    const dir = await reports([{ runId: at(1), factor: 2, depth: 'quick' }, { runId: at(2), factor: 3, depth: 'default' }]);
    expect((await targetHistory(dir, { baseUrl: URL_A, clock: 'real', depth: 'quick' }, false)).pace?.runs).toEqual([at(1)]);
    expect((await targetHistory(dir, { baseUrl: URL_A, clock: 'real', depth: 'smoke' }, false)).pace?.runs).toEqual([at(2), at(1)]);
  });

  it('reads one run\'s own directory, and passes over a damaged report', async () => {
    const dir = await reports([{ runId: at(1), factor: 2 }, { runId: at(2), factor: 3 }]);
    await writeFile(join(dir, at(2), 'results.json'), '{"checks": [');
    expect((await targetHistory(dir, { baseUrl: URL_A, clock: 'real' }, false)).pace?.runs).toEqual([at(1)]);
    expect((await targetHistory(join(dir, at(1)), { baseUrl: URL_A, clock: 'real' }, true)).pace?.runs).toEqual([at(1)]);
  });

  it('says why it learned nothing, a --history directory that does not exist yet included', async () => {
    const empty = await reports([]);
    const none = await targetHistory(empty, { baseUrl: URL_A, clock: 'real' }, false);
    expect(none.pace).toBeUndefined();
    expect(none.said).toMatch(/no earlier run against https:\/\/staging\.example\.test .*rests on the reference's durations/);
    expect((await targetHistory(join(empty, 'missing'), { baseUrl: URL_A, clock: 'real' }, false)).pace).toBeUndefined();
    const missing = await targetHistory(join(empty, 'missing'), { baseUrl: URL_A, clock: 'real' }, true);
    expect([missing.pace, missing.said]).toEqual([undefined, `pace: --history ${join(empty, 'missing')} does not exist (yet); the estimate rests on the reference's durations`]);
  });
});

describe('a run learns from the earlier runs against its target', () => {
  it('the second run against a served reference announces at the first one\'s durations, and records what it rested on', async () => {
    const served = await startChildReference({ choices: 'default', name: 'the reference for the history test' });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'oc-history-run-'));
      const profile = join(dir, 'profile.json');
      await writeFile(profile, JSON.stringify({ ...served.profile, baseUrl: served.baseUrl, control: { baseUrl: served.control.baseUrl, token: { env: 'OC_HISTORY_CONTROL' } } }));
      const run = () =>
        execFileAsync(process.execPath, [KIT_BIN, 'run', '--profile', profile, '--depth', 'smoke', '--check', '^(KEY-REVOKE|VER-UNKNOWN-404|EVT/polling)$', '--out', join(dir, 'reports')], { env: { ...process.env, OC_HISTORY_CONTROL: served.control.token } });
      const first = await run();
      expect(first.stdout).toMatch(/pace: no earlier run against http:\/\/127\.0\.0\.1:\d+ in .*rests on the reference's durations/);
      const firstResults = JSON.parse(await readFile(join(dir, 'reports', 'latest', 'results.json'), 'utf8'));
      // Nothing learned yet: the first run rests on its first look at the target (its control API's times), no earlier run.
      expect(firstResults.stats.estimate.basis.pace.runs).toEqual([]);
      expect(firstResults.stats.estimate.basis.pace.firstLook).toBeDefined();

      const second = await run();
      const results = JSON.parse(await readFile(join(dir, 'reports', 'latest', 'results.json'), 'utf8'));
      const pace = results.stats.estimate.basis.pace;
      expect(second.stdout).toContain(`pace: learned from ${firstResults.runId}`);
      expect(second.stdout).toMatch(/at this target's pace as seen in 1 earlier run against this target \(3 checks at their own time there/);
      expect(pace.runs).toEqual([firstResults.runId]);
      // Each check is expected to take what it took the first time, less what it waited on the kit.
      const ran = firstResults.checks.filter((c: { verdict: string }) => c.verdict === 'pass');
      expect(ran).toHaveLength(3);
      const took = Object.fromEntries(ran.map((c: { id: string; durationMs: number; waitedMs?: number }) => [c.id, Math.round(ownMs(c))]));
      expect(pace.own).toEqual(took);
      expect(results.stats.estimate.basis.checksMs).toBeGreaterThanOrEqual(Math.max(...Object.values(took).map(Number)));
    } finally {
      await served.stop();
    }
  });
});

describe('a plan at this target\'s pace', () => {
  it('announces the checks at their learned durations, says what it rests on, and the progress line expects the same', async () => {
    const profile = { ...(await loadProfile(DEFAULT_PROFILE_PATH)), embedded: false, baseUrl: 'http://x.test' };
    const checks = selectChecks(ALL_CHECKS, 'quick');
    const longest = checks.reduce((a, c) => (expectedDurationMs(c, 'control') > expectedDurationMs(a, 'control') ? c : a));
    const reference = plan(checks, profile, 8, 'quick', 8);
    const pace = { short: 2, works: 1, waiting: 1, runs: ['r1'], compared: { short: 30, works: 0, waiting: 0 }, own: { [longest.id]: 600_000 } };
    const paced = plan(checks, profile, 8, 'quick', 8, { pace });
    expect(paced.estimate.checksMs).toBeGreaterThanOrEqual(600_000);
    expect(reference.estimate.checksMs).toBeLessThan(600_000);
    expect(formatPlan(paced)).toContain("at this target's pace as seen in 1 earlier run against this target (1 checks at their own time there at this depth, the others at short checks 2.00x the reference's time)");
    expect(formatPlan(reference)).not.toContain('earlier run');
    const o = progressOptions({ plan: paced, concurrency: 8, clock: 'control', startedAt: 0 });
    const other = checks.find((c) => c.id !== longest.id && expectedDurationMs(c, 'control') < 15_000)!;
    expect([o.expectedMs!(longest.id), o.expectedMs!(other.id)]).toEqual([600_000, expectedDurationMs(other, 'control') * 2]);
    expect(progressOptions({ plan: reference, concurrency: 8, clock: 'control', startedAt: 0 }).expectedMs).toBeUndefined();
    // What a mailbox's settling is expected to take: the reference's, or the earlier runs' where the plan learned from them; nothing with a control API.
    expect(progressOptions({ plan: reference, concurrency: 8, clock: 'real', startedAt: 0 }).settleMs).toBe(expectedSettleMs());
    expect(expectedSettleMs()).toBeGreaterThan(0);
    expect(progressOptions({ plan: paced, concurrency: 8, clock: 'real', startedAt: 0 }).settleMs).toBeUndefined();
    const settled = plan(checks, profile, 8, 'quick', 8, { pace: { ...pace, settleMs: 2500 } });
    expect(progressOptions({ plan: settled, concurrency: 8, clock: 'real', startedAt: 0 }).settleMs).toBe(2500);
    expect(progressOptions({ plan: settled, concurrency: 8, clock: 'control', startedAt: 0 }).settleMs).toBeUndefined();
  });
});
