import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceHandle } from '../../reference/index.ts';
import { startSinks, type MailSink } from '../../sinks/index.ts';
import { loadProfile } from '../../ground/profile.ts';
import type { Profile } from '../../ground/profile-schema.ts';
import { CLAUSE_BY_ID } from '../../ground/spec-model/clauses/index.ts';
import { decode, percentile } from '../report/histogram.ts';
import { analyzeSendpath, SENDPATH_CLAUSES, type AnalyzeInput } from './analyze.ts';
import { stepSecondsFor } from './drive.ts';
import { idealPerDay, idealSchedule } from './ideal.ts';
import { runSendpathLoad } from './sendpath.ts';
import type { SendpathLoadOptions } from './types.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

// Small runs against the reference with its control API (simulated time): 8 mailboxes shared by
// 2 campaigns, 60 leads, 4 a day each, a 5-minute gap. Each takes a few seconds.
let sink: MailSink;
let profile: Profile;
const refs: ReferenceHandle[] = [];

beforeAll(async () => {
  sink = await startSinks({ requireAuth: true, maxLifetimeMs: 5 * MINUTE });
  profile = await loadProfile();
});
afterAll(async () => {
  for (const r of refs) await r.stop();
  await sink?.stop();
});

async function run(mutants: string[], extra: Partial<SendpathLoadOptions> = {}) {
  const ref = await startReference({ mutants, backgroundTimer: false, log: () => {} });
  refs.push(ref);
  return runSendpathLoad({
    baseUrl: ref.baseUrl,
    profile,
    control: { baseUrl: ref.controlUrl, token: ref.controlToken },
    sink,
    mailboxes: 8,
    leads: 60,
    campaigns: 2,
    capPerDay: 4,
    gapMinutes: 5,
    maxWallMs: 45_000,
    maxSimulatedDays: 3,
    ...extra,
  });
}

describe('send-path load against the reference (control clock)', () => {
  it('clean reference: nothing lost or sent twice, gaps and caps kept, close to the ideal rate', async () => {
    const progress: number[] = [];
    const r = await run([], { onProgress: (p) => progress.push(p.sent) });
    expect(r.stopped).toBe('complete');
    expect(r.stats.simulated).toBe(true);
    expect(r.stats.duplicates).toBe(0);
    expect(r.stats.losses).toBe(0);
    expect(r.stats.gapViolations).toBe(0);
    expect(r.stats.capViolations).toBe(0);
    expect(r.violations).toEqual([]);
    expect(r.delivered).toBe(60);
    expect(r.stats.achievedPerDay / r.stats.idealPerDay).toBeGreaterThanOrEqual(0.9);
    expect(r.stats.mailboxes).toHaveLength(8);
    for (const m of r.stats.mailboxes) expect(m.sends.length).toBeGreaterThan(0);
    expect(r.stats.emailsPerWallSecond).toBeGreaterThan(0);
    expect(decode(r.stats.fromAllowed).totalCount).toBe(60);
    // 60 leads at 32 a day: the second day is needed, its first sends go at midnight
    expect(r.targetMs).toBeGreaterThan(DAY - 2 * MINUTE);
    expect(r.targetMs).toBeLessThan(DAY + 30 * MINUTE);
    expect(progress.at(-1)).toBe(60);
    expect(r.setupRequests).toBeLessThan(20);
    // no secret in what a report would print
    const text = JSON.stringify(r);
    expect(text).not.toMatch(/password|Bearer/i);
  });

  it('send-gap-per-campaign: two campaigns sharing a mailbox break its gap', async () => {
    const r = await run(['send-gap-per-campaign']);
    expect(r.stats.gapViolations).toBeGreaterThan(0);
    const v = r.violations.find((x) => x.rule === 'sendingGapMinutes')!;
    expect(v.clauses).toEqual([SENDPATH_CLAUSES.gap]);
    expect(v.message).toMatch(/sendingGapMinutes is 5/);
    expect(r.stats.capViolations).toBe(0);
  });

  it('send-cap-per-campaign: a mailbox in two campaigns sends twice its cap', async () => {
    const r = await run(['send-cap-per-campaign']);
    expect(r.stats.capViolations).toBeGreaterThan(0);
    const v = r.violations.find((x) => x.rule === 'maxEmailsPerDay')!;
    expect(v.clauses).toEqual([SENDPATH_CLAUSES.cap]);
    expect(v.message).toMatch(/at least 8 campaign emails on .* maxEmailsPerDay is 4/);
    expect(r.stats.gapViolations).toBe(0);
  });

  it('send-step-twice: a step sent again to a lead is a duplicate', async () => {
    const r = await run(['send-step-twice'], { maxSimulatedDays: 1 });
    expect(r.stats.duplicates).toBeGreaterThan(0);
    const v = r.violations.find((x) => x.rule === 'sent once')!;
    expect(v.clauses).toEqual([SENDPATH_CLAUSES.once]);
    expect(v.message).toMatch(/received step 1 \d+ times/);
    expect(r.stopped).toBe('max-simulated-days');
  });

  it('send-nothing: the run stops once nothing arrived for a day and two gaps, and the losses are violations', async () => {
    const r = await run(['send-nothing']);
    expect(r.stopped).toBe('stalled');
    expect(r.stats.losses).toBe(60);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]!.message).toMatch(/60 of 60 expected messages never arrived, nothing arrived during the last/);
    expect(r.notes.join('\n')).toMatch(/nothing arrived for .* the run stopped/);
  });
});

describe('send-path load without the control API (real time)', () => {
  it('dates arrivals by the sink and stops at the wall bound, saying what was not reached', async () => {
    const ref = await startReference({ log: () => {} });
    refs.push(ref);
    const ctl = await fetch(`${ref.controlUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${ref.controlToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'sendpath-real' }) });
    const ws = (await ctl.json()) as { apiKey: string };
    // 3 mailboxes, 6 leads, gap 1 minute: the first 3 go at once, the rest a minute later, past the
    // bound. The bound leaves a busy machine room for the set-up and the first sends (seconds), and
    // the rest cannot come within it: they leave a minute after the first, which came after it began.
    const r = await runSendpathLoad({ baseUrl: ref.baseUrl, profile, apiKey: ws.apiKey, sink, mailboxes: 3, leads: 6, campaigns: 1, maxWallMs: 30_000 });
    expect(r.stats.simulated).toBe(false);
    expect(r.gapMinutes).toBe(1);
    expect(r.stopped).toBe('max-wall');
    expect(r.delivered).toBe(3);
    expect(r.stats.losses).toBe(3);
    expect(r.violations).toEqual([]);
    expect(r.notes.join('\n')).toMatch(/3 of 6 expected messages were not reached within the bound/);
    expect(r.stats.mailboxes.every((m) => m.sends.length === 1)).toBe(true);
  });
});

describe('send-path load: options', () => {
  const base = () => ({ baseUrl: 'http://127.0.0.1:9', profile, sink, mailboxes: 2, leads: 2, apiKey: 'k' }) as SendpathLoadOptions;
  it.each([
    [{ mailboxes: 0 }, /mailboxes must be a whole number from 1/],
    [{ leads: 0 }, /leads must be a whole number from 1/],
    [{ capPerDay: 201 }, /capPerDay \(maxEmailsPerDay\) must be a whole number from 1 to 200, got 201/],
    [{ gapMinutes: 0 }, /gapMinutes \(sendingGapMinutes\) must be a whole number from 1 to 300/],
    [{ gapMinutes: 2.5 }, /gapMinutes .* got 2.5/],
    [{ campaigns: 3 }, /campaigns must be a whole number from 1 to 2/],
    [{ apiKey: undefined }, /give a workspace apiKey, or the control API/],
    [{ maxWallMs: -1 }, /maxWallMs must be a positive/],
  ])('%j is refused', async (o, msg) => {
    await expect(runSendpathLoad({ ...base(), ...o })).rejects.toThrow(msg);
  });
  it('a profile without names.sendingDays is refused', async () => {
    const p = structuredClone(profile);
    delete p.names.sendingDays;
    await expect(runSendpathLoad({ ...base(), profile: p })).rejects.toThrow(/names\.sendingDays/);
  });
  it('mailboxes that never verify: the error says so, with the status seen', async () => {
    const ref = await startReference({ backgroundTimer: false, log: () => {} });
    refs.push(ref);
    // The profile points the target at a host where no sink listens.
    const p = { ...structuredClone(profile), sinks: { host: '127.0.0.2' } };
    await expect(runSendpathLoad({ ...base(), baseUrl: ref.baseUrl, profile: p, control: { baseUrl: ref.controlUrl, token: ref.controlToken } })).rejects.toThrow(
      /2 of 2 mailboxes at the kit's sinks did not verify: status 2 failed .* declares "active"/,
    );
  });
  it('the clauses it names exist in the catalog', () => {
    for (const id of Object.values(SENDPATH_CLAUSES)) expect(CLAUSE_BY_ID.has(id), id).toBe(true);
  });
});

describe('send-path analysis (pure)', () => {
  const start = Date.UTC(2030, 0, 7, 0, 1);
  const base = (arrivals: AnalyzeInput['arrivals'], o: Partial<AnalyzeInput> = {}): AnalyzeInput => ({
    simulated: true,
    start,
    end: start + 2 * DAY,
    timezone: 'UTC',
    mailboxes: [{ id: 'a', address: 'a@x.test', cap: 2, gapMinutes: 5 }],
    leads: Array.from({ length: 4 }, (_, i) => ({ address: `l${i}@x.test`, campaign: 0 })),
    campaignStarts: [start],
    steps: 1,
    arrivals,
    messagesThroughSink: arrivals.length,
    sendingWallMs: 1000,
    stepMs: MINUTE,
    ...o,
  });
  const at = (lead: number, t: number, step = MINUTE) => ({ mailbox: 0, lead, step: 0, at: t, lo: t - step, hi: t + 5 });

  it('a gap is broken only when the latest possible distance is below it', () => {
    // dated 3 steps apart: left at most 4 minutes (+5 ms) apart, gap 5 min: certain
    expect(analyzeSendpath(base([at(0, start), at(1, start + 3 * MINUTE)])).stats.gapViolations).toBe(1);
    // dated 4 steps apart: could have left 5 minutes apart: not certain
    expect(analyzeSendpath(base([at(0, start), at(1, start + 4 * MINUTE)])).stats.gapViolations).toBe(0);
  });

  it('the cap counts only sends certainly inside one day', () => {
    const midnight = start - MINUTE + DAY;
    // three sends in day one: over the cap of 2
    expect(analyzeSendpath(base([at(0, start), at(1, start + 10 * MINUTE), at(2, start + 20 * MINUTE)])).stats.capViolations).toBe(1);
    // the third straddles midnight: not certainly in day one
    const r = analyzeSendpath(base([at(0, midnight - 20 * MINUTE), at(1, midnight - 10 * MINUTE), at(2, midnight)]));
    expect(r.stats.capViolations).toBe(0);
  });

  it('duplicates, losses, ideal rate and latency from the allowed moment', () => {
    // cap 2/day, gap 5: an ideal target sends 2 on day one (at start and +5 min), 2 at the next midnight and +5 min
    const ideal = idealSchedule({ start, mailboxes: [{ cap: 2, gapMinutes: 5 }], leads: 4, steps: 1, timezone: 'UTC' });
    expect(ideal.map((t) => t - start)).toEqual([0, 5 * MINUTE, DAY - MINUTE, DAY + 4 * MINUTE]);
    const perfect = analyzeSendpath(base(ideal.map((t, i) => at(i, t))));
    expect(perfect.stats.achievedPerDay).toBeCloseTo(perfect.stats.idealPerDay, 6);
    expect(percentile(decode(perfect.stats.fromAllowed), 100)).toBeLessThanOrEqual(1);
    // the second lead sent twice, the fourth never: a loss, as the ideal finished long before the end
    const late = analyzeSendpath(base([at(0, start), at(1, start + 5 * MINUTE), at(1, start + DAY - MINUTE), at(2, start + DAY + 4 * MINUTE)], { end: start + 3 * DAY }));
    expect(late.stats.duplicates).toBe(1);
    expect(late.stats.losses).toBe(1);
    expect(late.violations.map((v) => v.rule).sort()).toEqual(['sent once', 'sent once']);
    expect(late.violations.find((v) => /never arrived/.test(v.message))?.message).toMatch(/1 of 4 expected messages never arrived/);
  });

  it('ideal sends per day are what the caps and gaps allow in a day, a short run not scaled past the caps', () => {
    // 5 mailboxes, a 5-minute gap, a cap of 200 each: the cap binds (200 < 1,440 / 5 = 288)
    const five = Array.from({ length: 5 }, (_, i) => ({ id: `m${i}`, address: `m${i}@x.test`, cap: 200, gapMinutes: 5 }));
    expect(idealPerDay(five)).toBe(1000);
    // a gap of 10 minutes binds instead (144 < 200); mixed mailboxes add up
    expect(idealPerDay([{ cap: 200, gapMinutes: 10 }, { cap: 50, gapMinutes: 5 }])).toBe(194);
    // an hour of perfect sending (every mailbox every 5 minutes) is no more than the ideal: 1,000 a day, not 1,440
    const arrivals = Array.from({ length: 60 }, (_, k) => ({ mailbox: k % 5, lead: k, step: 0, at: start + Math.floor(k / 5) * 5 * MINUTE, lo: start + Math.floor(k / 5) * 5 * MINUTE - MINUTE, hi: start + Math.floor(k / 5) * 5 * MINUTE + 5 }));
    const leads = arrivals.map((_, i) => ({ address: `l${i}@x.test`, campaign: 0 }));
    const r = analyzeSendpath(base(arrivals, { mailboxes: five, leads, end: start + 2 * 3_600_000 }));
    expect(r.stats.idealPerDay).toBe(1000);
    expect(r.stats.achievedPerDay).toBeCloseTo(1000, 0);
  });

  it('steps are smaller than the gap', () => {
    for (const g of [1, 2, 5, 10, 300]) expect(stepSecondsFor(g) * 1000).toBeLessThan(g * MINUTE);
    expect(stepSecondsFor(5)).toBe(60);
  });
});
