import { describe, expect, it } from 'vitest';
import { firstLookPace, type FirstLookModel } from './first-look-pace.ts';
import { describePace, pacedMs } from './target-pace.ts';
import { estimateRun } from './schedule.ts';
import { expectedOverheadMs } from './expected.ts';

// A first look's pace: each check its measured time, plus the target's extra answer time for each
// request it sends and its extra verification time for each mailbox it waits on.

const model: FirstLookModel = {
  reference: { answerMs: 2, settleMs: 300 },
  runSettleMs: 550,
  measuredMs: (id) => ({ short: 400, send: 3_000, wait: 60_000 })[id] ?? 0,
  requestsOf: (id) => ({ short: 10, send: 6, wait: 20 })[id] ?? 0,
  settlesOf: (id) => ({ send: 2 })[id] ?? 0,
};
const ids = ['short', 'send', 'wait'];

describe('firstLookPace', () => {
  it("adds the extra answer time per request and the extra verification time per mailbox to each check's measured time", () => {
    const p = firstLookPace({ answerMs: 52, settleMs: 2_300, startMs: 4_100 }, ids, model);
    expect(p.own).toEqual({ short: 400 + 10 * 50, send: 3_000 + 6 * 50 + 2 * 2_000, wait: 60_000 + 20 * 50 });
    // Every other pace stays the reference's: the own times carry the prediction.
    expect([p.short, p.works, p.waiting, p.runs, p.compared]).toEqual([1, 1, 1, [], { short: 0, works: 0, waiting: 0 }]);
    // The checks' own settles are expected to take as much longer: the progress line's shift counts from there.
    expect(p.settleMs).toBe(550 + 2_000);
    expect(p.firstLook).toEqual({ answerMs: 52, settleMs: 2_300, reference: model.reference });
    expect(pacedMs('send', 3_000, p)).toBe(7_300);
  });

  it('keeps the engine at the reference pace where no mailbox was verified, and a faster target faster but never below the least pace', () => {
    const unverified = firstLookPace({ answerMs: 52, startMs: 0 }, ids, model);
    expect(unverified.own.send).toBe(3_000 + 6 * 50);
    expect(unverified.settleMs).toBe(550);
    const faster = firstLookPace({ answerMs: 1, settleMs: 0, startMs: 0 }, ids, { ...model, reference: { answerMs: 500, settleMs: 300 } });
    expect(faster.own.short).toBe(100); // 400 - 10 * 499 floored at a quarter
    expect(faster.own.send).toBe(750); // 3000 - 6 * 499 - 2 * 300 is below a quarter of 3000
  });

  it('says what it rests on, and the run estimate starts its checks when the look ended', () => {
    const p = firstLookPace({ answerMs: 52, settleMs: 2_300, startMs: 4_100 }, ids, model);
    expect(describePace(p)).toBe(
      "a first look at this target (answers in 52 ms, the reference's 2 ms; a mailbox verified in 2.3 s, the reference's 0.3 s): each check's measured time with the extra answer time for each of its requests and the extra verification time for each mailbox it waits on",
    );
    expect(describePace(firstLookPace({ answerMs: 52, startMs: 0 }, ids, model))).toContain("no mailbox verified in time, so verification at the reference's pace");
    const checks = [{ id: 'short', solo: false }];
    const run = estimateRun(checks, { clock: 'real', concurrency: 8, rateFloorMs: 0, pace: p });
    const reference = estimateRun(checks, { clock: 'real', concurrency: 8, rateFloorMs: 0 });
    const { start, finish } = expectedOverheadMs('real');
    expect(run.checksMs).toBe(p.own.short);
    expect(run.ms - run.checksMs).toBe(4_100 + finish);
    expect(reference.ms - reference.checksMs).toBe(start + finish);
  });

  it("with the control API: the extra round trip per control call, the extra empty drain per drain and the extra time per drained work item", () => {
    const control: FirstLookModel = {
      reference: { answerMs: 2, controlMs: 1, drainMs: 5, workDrainMs: 305 },
      measuredMs: (id) => ({ short: 400, send: 3_000 })[id] ?? 0,
      requestsOf: (id) => ({ short: 10, send: 6 })[id] ?? 0,
      settlesOf: () => 0,
      controlOf: (id) => ({ short: { drains: 0, work: 0, calls: 1 }, send: { drains: 40, work: 3, calls: 42 } })[id] ?? { drains: 0, work: 0, calls: 0 },
    };
    // Answers 50 ms slower, control calls 4 ms, an empty drain 95 ms, a work item 2 s (2.1 s - 0.1 s, against the reference's 0.3 s).
    const p = firstLookPace({ answerMs: 52, controlMs: 5, drainMs: 100, workDrainMs: 2_400, startMs: 1_000 }, ['short', 'send'], control);
    expect(p.own).toEqual({ short: 400 + 10 * 50 + 4, send: 3_000 + 6 * 50 + 42 * 4 + 40 * 95 + 3 * 2_000 });
    expect(p.firstLook).toEqual({ answerMs: 52, controlMs: 5, drainMs: 100, workDrainMs: 2_400, reference: control.reference });
    expect(describePace(p)).toMatch(/^a first look at this target and its control API \(answers in 52 ms, the reference's 2 ms; GET \/clock in 5 ms \(the reference's 1 ms\), an empty drain in 100 ms \(the reference's 5 ms\), a drain with one verification due in 2\.4 s \(the reference's 305 ms\)\): .*each drain/);
    // Without sinks no drain with work was timed: drained work stays at the reference's pace.
    const noSinks = firstLookPace({ answerMs: 52, controlMs: 5, drainMs: 100, startMs: 0 }, ['send'], control);
    expect(noSinks.own.send).toBe(3_000 + 6 * 50 + 42 * 4 + 40 * 95);
  });
});
