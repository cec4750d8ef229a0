import { describe, expect, it } from 'vitest';
import type { CheckEndEvent, CheckStartEvent, RunEvent } from '../ground/events.ts';
import { halfwayEstimate, midwayEstimate } from './progress-replay.ts';

// A staging-like run replayed: the mail checks (measured at a minute: a sending gap, a sink
// arrival) start first and wait in real time while the short checks, on a target whose answers
// are three times slower than measured, go through the other slots.

const at = (ms: number) => new Date(ms).toISOString();
const startEv = (checkId: string, ms: number): CheckStartEvent => ({ type: 'check-start', checkId, at: at(ms) });
const endEv = (checkId: string, durationMs: number, requests = 2): CheckEndEvent => ({ type: 'check-end', checkId, title: checkId, clauses: [checkId], level: 'MUST', verdict: 'pass', durationMs, requests });

const waiting = ['SEND/a', 'SEND/b', 'EMAIL/received', 'REPLY/thread'];
const short = Array.from({ length: 36 }, (_, i) => `SHORT/${i}`);
const checks = [...waiting, ...short].map((id) => ({ id, clauses: [id] }));
const expectedMs = (id: string) => (waiting.includes(id) ? 60_000 : 400);

/** The waiting checks take `waitMs` from 0; the short ones `shortMs` each, four at a time on the slots left. */
function run(waitMs: number, shortMs: number): { events: RunEvent[]; endMs: number } {
  const events: RunEvent[] = [{ type: 'run-start', startedAt: at(0) } as RunEvent, ...waiting.map((id) => startEv(id, 0))];
  short.forEach((id, i) => {
    const from = Math.floor(i / 4) * shortMs;
    events.push(startEv(id, from), endEv(id, shortMs));
  });
  waiting.forEach((id, i) => events.push(endEv(id, waitMs + i * 100, 20)));
  return { events, endMs: waitMs + 300 + 2000 };
}

describe('halfwayEstimate', () => {
  const o = { concurrency: 8, clock: 'real' as const, expectedMs, finishMs: 2000 };

  it('counts a running mail check down from its start at its own measure, not at the short checks\' pace', () => {
    // Short checks three times slower than measured; the waits as measured. At half (20 checks,
    // all short, 6 s in) what is left is the waits' last 56 s and the clean-up.
    const { events, endMs } = run(61_000, 1200);
    const h = halfwayEstimate(events, checks, o, endMs)!;
    expect(h.atMs).toBe(5 * 1200);
    expect(Math.abs(h.error)).toBeLessThan(0.1);
    // What it rested on: the checks left, the short ones at their slower pace, the waits at their measure.
    expect(h.from).toBe('pace');
    expect(h.scales.short).toBeGreaterThan(1.2);
    expect(h.scales.waiting).toBe(1);
  });

  it('learns the waits\' own pace from the mail checks that finished', () => {
    // The waits take half as long again as measured here; two mail checks finish before half.
    const slowWaits = ['SEND/a', 'SEND/b', 'EMAIL/received', 'REPLY/thread', 'SEND/c', 'SEND/d'];
    const many = [...slowWaits, ...short].map((id) => ({ id, clauses: [id] }));
    const events: RunEvent[] = [{ type: 'run-start', startedAt: at(0) } as RunEvent];
    // Two early mail checks end at 90 s; the short ones run from 85 s; four more mail checks ran from 80 s.
    events.push(startEv('SEND/c', 0), startEv('SEND/d', 0), endEv('SEND/c', 90_000, 20), endEv('SEND/d', 90_000, 20));
    for (const id of waiting) events.push(startEv(id, 80_000));
    short.forEach((id, i) => events.push(startEv(id, 85_000 + Math.floor(i / 4) * 400), endEv(id, 400)));
    waiting.forEach((id) => events.push(endEv(id, 90_000, 20)));
    const h = halfwayEstimate(events, many, { ...o, expectedMs: (id) => (slowWaits.includes(id) ? 60_000 : 400) }, 170_000 + 2000)!;
    expect(Math.abs(h.error)).toBeLessThan(0.25);
  });
});

describe('midwayEstimate', () => {
  const o = { concurrency: 8, clock: 'real' as const, expectedMs, finishMs: 2000 };

  it('asks the line at its first tick once half the run\'s time has passed, not when half the checks are done', () => {
    // The short checks are all done 11 s in; the waits run to 61 s and the run ends at 63.3 s.
    const { events, endMs } = run(61_000, 1200);
    const m = midwayEstimate(events, checks, o, endMs)!;
    expect(m.atMs).toBeGreaterThanOrEqual(endMs / 2);
    expect(m.atMs).toBeLessThan(endMs / 2 + 1000);
    expect(m.actualLeftMs).toBe(endMs - m.atMs);
    // The waits counted down from their start at their own measure: about right.
    expect(Math.abs(m.error)).toBeLessThan(0.1);
    // Told a wrong measure of the waits (half of it), the line is wrong by about as much.
    const wrong = midwayEstimate(events, checks, { ...o, expectedMs: (id: string) => (waiting.includes(id) ? 45_000 : 400) }, endMs)!;
    expect(wrong.error).toBeLessThan(-0.2);
  });
});
