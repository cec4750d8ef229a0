import { describe, expect, it } from 'vitest';
import { Pace, WAITS_MS, waits, windowRoomMs } from './time-left.ts';

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
    expect(p.scales).toEqual({ short: 1, works: 1, waiting: 1 });
    // Short checks three times slower than measured (30 s of them): the short pace moves, damped by 30 s.
    for (let i = 0; i < 100; i++) p.add(300, 900);
    expect(p.scale(300)).toBeCloseTo((90_000 + 30_000) / (30_000 + 30_000));
    // ... while a check measured at a minute still counts its minute, down from its start.
    expect(waits(60_000) && !waits(WAITS_MS - 1)).toBe(true);
    expect(p.leftMs(60_000, 20_000)).toBe(40_000);
    // A waiting check that took 90 s against 60 s: the waits' pace moves, damped by one such check.
    p.add(60_000, 90_000);
    expect(p.scale(60_000)).toBeCloseTo(150_000 / 120_000);
    expect(p.leftMs(60_000, 80_000)).toBe(0);
  });

  it('learns nothing of waiting from a waiting check that ended in a fraction of its measure', () => {
    const p = new Pace();
    p.add(60_000, 1000); // failed early or took another way: it did not wait
    expect(p.scales.waiting).toBe(1);
  });
});
