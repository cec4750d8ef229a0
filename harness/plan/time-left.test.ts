import { describe, expect, it } from 'vitest';
import { LATE_SHARE, OUTLIER, Pace, WAITS_MS, waits, windowRoomMs } from './time-left.ts';

describe('windowRoomMs', () => {
  it('is nothing while the requests left fit the room the windows have now', () => {
    expect(windowRoomMs([], 100, 100, 60_000, 0)).toBe(0);
    // What went more than a window ago holds no room.
    expect(windowRoomMs([{ at: 0, requests: 100 }], 100, 100, 60_000, 60_000)).toBe(0);
  });

  it('places the requests left as the windows free what went into them, a window after it went', () => {
    // Empty windows of 100: 250 requests go 100 now, 100 a window later, the last 50 two windows later.
    expect(windowRoomMs([], 250, 100, 60_000, 0)).toBe(120_000);
    // 80 went at 10 s; at 20 s 20 fit now, 80 more at 70 s, then what went at 20 s and 70 s frees at 80 s and 130 s.
    const sent = [{ at: 10_000, requests: 80 }];
    expect(windowRoomMs(sent, 50, 100, 60_000, 20_000)).toBe(50_000);
    expect(windowRoomMs(sent, 100, 100, 60_000, 20_000)).toBe(50_000);
    expect(windowRoomMs(sent, 120, 100, 60_000, 20_000)).toBe(60_000);
    expect(windowRoomMs(sent, 150, 100, 60_000, 20_000)).toBe(110_000);
  });

  it('frees early what went early: the same requests sent just now wait a whole window', () => {
    const early = windowRoomMs([{ at: 1000, requests: 100 }], 50, 100, 60_000, 55_000);
    const late = windowRoomMs([{ at: 54_000, requests: 100 }], 50, 100, 60_000, 55_000);
    expect([early, late]).toEqual([6000, 59_000]);
  });
});

describe('Pace', () => {
  it('learns the short checks\' pace apart from the checks that wait on real time', () => {
    const p = new Pace();
    expect(p.scales()).toEqual({ short: 1, works: 1, waiting: 1 });
    // Short checks three times slower than measured: the short pace moves, damped as two checks at their measure.
    for (let i = 0; i < 100; i++) p.add(300, 900);
    expect(p.scale(300)).toBeCloseTo((90_000 + 600) / (30_000 + 600));
    // ... while a check measured at a minute still counts its minute, down from its start.
    expect(waits(60_000) && !waits(WAITS_MS - 1)).toBe(true);
    expect(p.leftMs(60_000, 20_000)).toBe(40_000);
    // A waiting check that took 90 s against 60 s: the waits' pace moves, damped by a minute (PRIOR_MS: two such checks would weigh more).
    p.add(60_000, 90_000);
    expect(p.scale(60_000)).toBeCloseTo(150_000 / 120_000);
    expect(p.leftMs(60_000, 80_000)).toBe(80_000 - 75_000 / 2); // past its expectation (75 s at this pace): what it has run beyond half of that
  });

  it('against real time, says a running check past its expectation ends within a share of it, not at once', () => {
    const p = new Pace();
    // No overrun rule against real time (overrun false): a 64-s wait 2 s past its measure ends a poll or two later.
    expect(p.leftMs(64_000, 66_000, 'waiting', 1, false)).toBeCloseTo(64_000 * (1 + LATE_SHARE) - 66_000);
    expect(p.leftMs(64_000, 80_000, 'waiting', 1, false)).toBe(0);
    // Before its measure: what is left of it, and the share at least from (1 - share) of it on.
    expect(p.leftMs(64_000, 20_000, 'waiting', 1, false)).toBe(44_000);
    expect(p.leftMs(64_000, 63_000, 'waiting', 1, false)).toBeCloseTo(64_000 * LATE_SHARE);
    // A check not started yet: its expectation.
    expect(p.leftMs(64_000, 0, 'waiting', 1, false)).toBe(64_000);
  });

  it('believes a few checks far from their expectation: three short checks twenty times slower', () => {
    const p = new Pace();
    for (let i = 0; i < 3; i++) p.add(1500, 30_000);
    // (90 s + 2 x 1.5 s) / (4.5 s + 2 x 1.5 s): twelve times, where a 30 s prior said about 3.
    expect(p.scale(1500)).toBeCloseTo((90_000 + 3000) / (4500 + 3000));
    // One check ten times slower among twenty at their measure: the pace is what the sum of such checks takes, (9.5 + 5 + 1) / (10 + 1).
    const q = new Pace();
    for (let i = 0; i < 19; i++) q.add(500, 500);
    q.add(500, 5000);
    expect(q.scale(500)).toBeCloseTo(15_500 / 11_000);
  });

  it('against real time counts a check at most OUTLIER times its kind\'s median pace (its time may hold a rate window\'s wait)', () => {
    const capped = new Pace(OUTLIER);
    const plain = new Pace();
    for (const p of [capped, plain]) {
      for (let i = 0; i < 19; i++) p.add(500, 500);
      p.add(500, 50_000); // waited out a window mid-way
    }
    expect(capped.scale(500)).toBeCloseTo((9500 + 1500 + 1000) / (10_000 + 1000));
    expect(plain.scale(500)).toBeCloseTo((9500 + 50_000 + 1000) / (10_000 + 1000));
  });

  it('counts a running check past its expectation in its kind\'s pace, at the time it has run', () => {
    const p = new Pace();
    // Nothing finished, one short check running a minute against its 2 s: the kind's pace is its.
    const running = [{ expectedMs: 1500, forMs: 60_000 }];
    expect(p.scale(1500, running)).toBeCloseTo((60_000 + 3000) / (1500 + 3000));
    // A running check within its expectation says nothing yet.
    expect(p.scale(1500, [{ expectedMs: 1500, forMs: 1000 }])).toBe(1);
  });

  it('never says a running check is nearly done once it has outlived its expectation', () => {
    const p = new Pace();
    // Continuous: the expectation rules until three quarters of it, then the time run beyond half of it.
    expect(p.leftMs(4000, 1000)).toBe(3000);
    expect(p.leftMs(4000, 3000)).toBe(1000);
    expect(p.leftMs(4000, 3500)).toBe(1500);
    // Expected 4 s, running a minute: about a minute left, not "~1 s".
    expect(p.leftMs(4000, 60_000)).toBe(58_000);
  });

  it('learns nothing of waiting from a waiting check that ended in a fraction of its measure', () => {
    const p = new Pace();
    p.add(60_000, 1000); // failed early or took another way: it did not wait
    expect(p.scales().waiting).toBe(1);
  });
});
