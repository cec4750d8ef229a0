import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { halfwayEstimate, readRecording, timeLeftTrace, type Recording } from './progress-replay.ts';
import { RunProgressState, type EstimateOptions } from './run-progress.ts';

// The progress line replayed through recorded runs (harness/conformance/recorded/, written by
// `npm run bench:estimate -- --record`): every time it reads is in the events, so what it says at
// each second of the run is the same on any machine at any hour. A first run against a target
// several times slower than the expectations the run started from: the line must learn its pace
// from what it sees, and never say a few seconds are left while a minute is.

function replay(name: string) {
  const { head, events } = readRecording(readFileSync(new URL(`./recorded/${name}.ndjson`, import.meta.url), 'utf8'));
  const checks = head.checks.map((c) => ({ id: c.id, clauses: [c.id], ...(c.solo ? { solo: true } : {}), ...(c.last ? { last: true } : {}) }));
  const expected = new Map(head.checks.map((c) => [c.id, c.expectedMs]));
  const o: EstimateOptions = { concurrency: head.concurrency, clock: head.clock, finishMs: head.finishMs, expectedMs: (id) => expected.get(id)! };
  return { head, events, checks, o, state: () => new RunProgressState(checks, o) };
}

/** The moments the line said under a third of the time left while more than `minLeftMs` was. */
function understated(r: ReturnType<typeof replay>, minLeftMs: number) {
  return timeLeftTrace(r.events, r.state(), r.head.startedAt, r.head.endAt).filter((p) => p.actualLeftMs > minLeftMs && p.saidMs < p.actualLeftMs / 3);
}

describe('the progress line on recorded runs', () => {
  const slow = replay('slow3-control-default');

  it('is a first run against a slowed target whose checks strayed far from their expectation', () => {
    expect(slow.head.clock).toBe('control');
    const ends = slow.events.flatMap((e) => (e.type === 'check-end' ? [e] : []));
    expect(ends.length).toBe(slow.checks.length);
    // Dozens of checks took over three times what the first look expected of them.
    expect(ends.filter((e) => e.durationMs > 3 * slow.o.expectedMs!(e.checkId)).length).toBeGreaterThan(50);
  });

  it('is within 25 % of the time left when half the checks are done', () => {
    const h = halfwayEstimate(slow.events, slow.checks, slow.o, slow.head.endAt)!;
    expect(Math.abs(h.error)).toBeLessThanOrEqual(0.25);
  });

  it('never says under a third of the time left while more than 20 s are left', () => {
    expect(understated(slow, 20_000)).toEqual([]);
  });

  // A machine busy with other work: the first look saw the target no slower than the reference,
  // and every check took many times its measure; the line learns it from the checks that finish.
  const busy = replay('serialized-control-default');

  it('learns a busy machine from the checks that finish: within 25 % at half, never under a third while 20 s are left', () => {
    const h = halfwayEstimate(busy.events, busy.checks, busy.o, busy.head.endAt)!;
    expect(h.scales.short).toBeGreaterThan(5);
    expect(Math.abs(h.error)).toBeLessThanOrEqual(0.25);
    expect(understated(busy, 20_000)).toEqual([]);
  });
});

export type { Recording };
