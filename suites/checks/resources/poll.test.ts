import { describe, expect, it } from 'vitest';
import { pollPauseMs } from './lib.ts';

/** How many polls a wait of `ms` costs when each pause is pollPauseMs of the time waited. */
function pollsFor(ms: number): number {
  let t = 0;
  let polls = 1; // the first poll, at once
  while (t < ms) {
    t += pollPauseMs(t);
    polls++;
  }
  return polls;
}

describe('verification polling (settle)', () => {
  it('polls soon at first: a quick target is seen within a quarter of a second', () => {
    expect(pollPauseMs(0)).toBe(250);
  });

  it('costs a few more polls, not proportionally more, on a target that takes three or ten times as long', () => {
    const quick = pollsFor(700);
    expect(pollsFor(2_100)).toBeLessThanOrEqual(quick + 2);
    expect(pollsFor(7_000)).toBeLessThanOrEqual(quick + 3);
  });

  it('never pauses longer than 4 s, so the end of a long wait is seen within 4 s', () => {
    expect(pollPauseMs(60_000)).toBe(4_000);
    expect(pollsFor(30_000)).toBeLessThanOrEqual(12);
  });
});
