import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import { FIRST_LOOK_ID, type ExchangeEvent, type FirstLookEvent, type RunEvent } from '../ground/events.ts';
import { selectChecks } from '../plan/eligible.ts';
import { plan } from '../plan/planner.ts';
import { expectedControlUse, expectedData, expectedDurationMs, targetRequests } from '../plan/expected.ts';
import { KIT_BIN, startChildReference } from '../load/embedded-target.ts';
import { firstLookPaceOf, formatFirstLook, takesFirstLook, withSettles } from './first-look.ts';
import { progressOptions } from './run-progress.ts';

const execFileAsync = promisify(execFile);

// A first run against a target without the control API takes a first look at it before its
// checks (a few answers, one mailbox verified at the sinks) and announces the estimate made again
// from it; a later run learns from the first instead.

const staging = async () => ({ ...(await loadProfile(DEFAULT_PROFILE_PATH)), embedded: false, control: undefined, baseUrl: 'http://x.test' });

describe('takesFirstLook', () => {
  it('only on a first run against real time whose checks, not the rate limit, bound it, where checks wait on the sinks', async () => {
    const profile = await staging();
    const checks = selectChecks(ALL_CHECKS, 'quick');
    const mailless = checks.filter((c) => ![...c.features, ...(c.uses ?? [])].includes('sinks'));
    const base = { embedded: false, profile, checks, history: undefined, learned: false, plan: { minSeconds: 0 } };
    expect(takesFirstLook(base)).toBe(true);
    expect(takesFirstLook({ ...base, embedded: true })).toBe(false);
    expect(takesFirstLook({ ...base, learned: true })).toBe(false);
    expect(takesFirstLook({ ...base, history: 'none' })).toBe(false);
    expect(takesFirstLook({ ...base, checks: mailless })).toBe(false);
    // A run the rate limit sets the time of (a second window): a look would change nothing of it.
    expect(takesFirstLook({ ...base, plan: { minSeconds: 20 } })).toBe(false);
    expect(takesFirstLook({ ...base, profile: { ...profile, features: { ...profile.features, sinks: false } } })).toBe(false);
    // --first-look: wherever it can be taken (the embedded reference's own: the baseline).
    expect(takesFirstLook({ ...base, embedded: true, learned: true, plan: { minSeconds: 20 }, force: true })).toBe(true);
  });

  it('with the control API: on a first run its checks bound, sinks or not (the look times the control API and its drains)', async () => {
    const profile = { ...(await staging()), control: { baseUrl: 'http://c.test', token: 't' } };
    const checks = selectChecks(ALL_CHECKS, 'quick');
    const base = { embedded: false, profile, checks, history: undefined, learned: false, plan: { minSeconds: 0 } };
    expect(takesFirstLook(base)).toBe(true);
    expect(takesFirstLook({ ...base, profile: { ...profile, features: { ...profile.features, sinks: false } } })).toBe(true);
    expect(takesFirstLook({ ...base, embedded: true })).toBe(false);
    expect(takesFirstLook({ ...base, learned: true })).toBe(false);
    expect(takesFirstLook({ ...base, history: 'none' })).toBe(false);
    expect(takesFirstLook({ ...base, plan: { minSeconds: 20 } })).toBe(false);
    expect(takesFirstLook({ ...base, embedded: true, force: true })).toBe(true);
  });

  it("with the control API: each check's drains, their work and its control calls at the target's extra cost; said as a prediction", async () => {
    const profile = { ...(await staging()), control: { baseUrl: 'http://c.test', token: 't' } };
    const checks = selectChecks(ALL_CHECKS, 'quick');
    // Measured by npm run measure-requests from embedded runs with --first-look.
    const ref = expectedData().firstLookControl!;
    const look: FirstLookEvent = { type: 'first-look', at: new Date(2_000).toISOString(), answerMs: ref.answerMs + 50, controlMs: ref.controlMs, drainMs: ref.drainMs + 100, workDrainMs: ref.workDrainMs + 2_100 };
    const pace = firstLookPaceOf(look, checks, 'quick', profile, 1_000)!;
    const drained = checks.find((c) => expectedControlUse(c).drains > 0 && expectedControlUse(c).work > 0)!;
    const use = expectedControlUse(drained);
    expect(pace.own[drained.id]).toBe(Math.round(expectedDurationMs(drained, 'control') + 50 * targetRequests(drained, 'quick', profile) + 100 * use.drains + 2_000 * use.work));
    const made = plan(checks, profile, 8, 'quick', 8, { pace });
    expect(formatFirstLook(look, made, ref)).toMatch(/^first look: answers in \d+ ms \(the reference's \d+ ms\), GET \/clock in \d+ ms \(the reference's \d+ ms\), an empty drain in \d+ ms \(the reference's \d+ ms\), a drain with one verification due in .* now expected to take about .* \(a prediction from these, .*drain/);
  });

  it('the progress line expects what the plan made from it expects, and takes no second look', async () => {
    const profile = await staging();
    const checks = selectChecks(ALL_CHECKS, 'quick');
    const first = plan(checks, profile, 8, 'quick', 32);
    const look: FirstLookEvent = { type: 'first-look', at: new Date(5_000).toISOString(), answerMs: 60, settleMs: 3_000 };
    const made = plan(checks, profile, 8, 'quick', 32, { pace: firstLookPaceOf(look, checks, 'quick', profile, 1_000)! });
    expect(made.basis.pace?.startMs).toBe(4_000);
    expect(made.estimate.ms).toBeGreaterThan(first.estimate.ms);
    const o = progressOptions({ plan: first, concurrency: 32, clock: 'real', startedAt: 0, firstLook: () => made });
    const after = o.firstLook!(look)!;
    const id = checks.find((c) => expectedDurationMs(c, 'real') > 0)!.id;
    expect(after.expectedMs!(id)).toBe(made.basis.pace!.own[id]);
    expect(after.announced?.ms).toBe(made.estimate.ms);
    expect(after.firstLook).toBeUndefined();
  });
});

describe('outreach-conformance run against a target it has not seen', () => {
  // The reference's own choices and the other set (every "not shown" item differs): the look reads only the profile's.
  it.each(['default', 'alt'] as const)('takes a first look before its checks, announces from it and records it; the next run learns from the first (choices %s)', async (choices) => {
    const served = await startChildReference({ choices, name: 'the reference for the first-look test' });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'oc-first-look-'));
      const keys: Record<string, string> = {};
      const workspaces = [];
      for (let i = 0; i < 2; i++) {
        const r = await fetch(`${served.control.baseUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${served.control.token}`, 'content-type': 'application/json' }, body: '{}' });
        const w = (await r.json()) as { apiKey: string; organizationId: string };
        keys[`OC_FIRST_LOOK_KEY_${i}`] = w.apiKey;
        workspaces.push({ apiKey: { env: `OC_FIRST_LOOK_KEY_${i}` }, organizationId: w.organizationId });
      }
      const { control: _c, embedded: _e, ...rest } = served.profile!;
      const profile = join(dir, 'profile.json');
      await writeFile(profile, JSON.stringify({ ...rest, baseUrl: served.baseUrl, workspaces }));
      const run = () => execFileAsync(process.execPath, [KIT_BIN, 'run', '--profile', profile, '--depth', 'smoke', '--check', '^(VERIF-SINK/active|VER-UNKNOWN-404)$', '--out', join(dir, 'reports')], { env: { ...process.env, ...keys } });

      const first = await run();
      expect(first.stdout).toContain('first run against this target: the checks start after a first look at it');
      expect(first.stdout).toMatch(/first look: answers in \d+ ms \(the reference's \d+ ms\), a mailbox verified in \d+\.\d s \(the reference's \d+\.\d s\); now expected to take about \d+ s from the run's start/);
      const results = JSON.parse(await readFile(join(dir, 'reports', 'latest', 'results.json'), 'utf8'));
      expect(results.verdict).not.toBe('nothing-checked');
      expect(results.stats.firstLook).toMatchObject({ answerMs: expect.any(Number), settleMs: expect.any(Number) });
      expect(results.stats.firstLook.error).toBeUndefined();
      const e = results.stats.estimate;
      expect(e.basis.pace.firstLook).toMatchObject({ answerMs: results.stats.firstLook.answerMs, settleMs: results.stats.firstLook.settleMs });
      expect(e.basis.pace.startMs).toBeGreaterThan(0);
      expect(e.beforeFirstLookMs).toBeGreaterThan(0);
      expect(results.stats.plannedMs).toBe(e.firstMs);
      // It runs like a check that proves nothing: its requests carry its id, and what it created is deleted.
      expect(results.checks.map((c: { id: string }) => c.id)).not.toContain(FIRST_LOOK_ID);
      const events = (await readFile(join(dir, 'reports', 'latest', 'events.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as RunEvent);
      const own = events.filter((x): x is ExchangeEvent => x.type === 'exchange' && x.checkId === FIRST_LOOK_ID);
      const created = own.find((x) => x.request.method === 'POST' && x.request.url.endsWith('/v1/accounts'));
      const id = JSON.parse(created!.response!.body!).accounts[0].id as string;
      expect(events.some((x) => x.type === 'exchange' && x.request.method === 'DELETE' && x.request.url.endsWith(`/v1/accounts/${id}`) && x.response?.status === 200)).toBe(true);
      // Its mailbox password never reaches the record.
      expect(JSON.stringify(own)).not.toMatch(/"smtpPassword":"(?!\[REDACTED)/);
      // Its look comes before any check starts.
      const lookAt = events.findIndex((x) => x.type === 'first-look');
      expect(lookAt).toBeGreaterThan(0);
      expect(lookAt).toBeLessThan(events.findIndex((x) => x.type === 'check-start'));

      const second = await run();
      expect(second.stdout).not.toContain('first look');
      expect(second.stdout).toContain(`pace: learned from ${results.runId}`);
    } finally {
      await served.stop();
    }
  });

  it('with its control API: looks at the control API too (GET /clock, an empty drain, a drain with a verification due) and announces from it', async () => {
    const served = await startChildReference({ choices: 'default', name: 'the reference for the control first-look test' });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'oc-first-look-control-'));
      const { embedded: _e, ...rest } = served.profile!;
      const profile = join(dir, 'profile.json');
      await writeFile(profile, JSON.stringify({ ...rest, baseUrl: served.baseUrl, control: { baseUrl: served.control.baseUrl, token: { env: 'OC_FIRST_LOOK_CONTROL' } } }));
      const run = () => execFileAsync(process.execPath, [KIT_BIN, 'run', '--profile', profile, '--depth', 'smoke', '--check', '^(VERIF-SINK/active|VER-UNKNOWN-404)$', '--out', join(dir, 'reports')], { env: { ...process.env, OC_FIRST_LOOK_CONTROL: served.control.token } });
      const first = await run();
      expect(first.stdout).toContain('first run against this target: the checks start after a first look at it and its control API');
      expect(first.stdout).toMatch(/first look: answers in \d+ ms \(the reference's \d+ ms\), GET \/clock in \d+ ms \(the reference's \d+ ms\), an empty drain in [\d.]+ m?s \(the reference's [\d.]+ m?s\), a drain with one verification due in [\d.]+ m?s \(the reference's [\d.]+ m?s\); now expected to take about/);
      const results = JSON.parse(await readFile(join(dir, 'reports', 'latest', 'results.json'), 'utf8'));
      expect(results.stats.firstLook).toMatchObject({ answerMs: expect.any(Number), controlMs: expect.any(Number), drainMs: expect.any(Number), workDrainMs: expect.any(Number) });
      expect(results.stats.firstLook.error).toBeUndefined();
      expect(results.stats.estimate.basis.pace.firstLook.reference).toEqual(expectedData().firstLookControl);
      expect(results.stats.plannedMs).toBe(results.stats.estimate.firstMs);
      const second = await run();
      expect(second.stdout).not.toContain('first look');
    } finally {
      await served.stop();
    }
  });
});

describe('withSettles', () => {
  it('counts a working drain for every mailbox verification a check waits on, where the reference drained none', () => {
    expect(withSettles({ drains: 2, work: 0, calls: 1 }, 1)).toEqual({ drains: 2, work: 1, calls: 1 });
    expect(withSettles({ drains: 0, work: 0, calls: 0 }, 2)).toEqual({ drains: 2, work: 2, calls: 0 });
    expect(withSettles({ drains: 5, work: 3, calls: 0 }, 1)).toEqual({ drains: 5, work: 3, calls: 0 });
  });
});
