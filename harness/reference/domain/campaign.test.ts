import { describe, expect, it } from 'vitest';
import { isWithinSchedule, nextOpening, type Schedule } from './campaign.ts';

const every = (timezone: string, start: number, end: number): Schedule => ({
  timezone, sendingDays: [0, 1, 2, 3, 4, 5, 6], sendingMinutesStart: start, sendingMinutesEnd: end, dailyLimit: 5, startDate: null, endDate: null,
});

describe("the schedule window at a daylight-saving change (St John's: 02:00 -> 03:00 on 14 March 2027, 02:00 -> 01:00 on 7 November 2027)", () => {
  it('opens on the day itself when its start minute is skipped: at the first instant after the skip', () => {
    const s = every('America/St_Johns', 150, 300); // 02:30 .. 05:00 local
    const opens = nextOpening(s, Date.parse('2027-03-14T03:00:00Z'))!;
    expect(new Date(opens).toISOString()).toBe('2027-03-14T05:30:00.000Z'); // 03:00 NDT, not 02:30 a day later
    expect(isWithinSchedule(s, opens)).toBe(true);
    expect(isWithinSchedule(s, opens - 1000)).toBe(false);
  });

  it('opens at the first of the two 01:30s of the night the clock goes back', () => {
    const s = every('America/St_Johns', 90, 300);
    expect(new Date(nextOpening(s, Date.parse('2027-11-07T02:00:00Z'))!).toISOString()).toBe('2027-11-07T04:00:00.000Z'); // 01:30 NDT
  });

  it('is unchanged on other days and in zones without the change', () => {
    expect(new Date(nextOpening(every('UTC', 150, 300), Date.parse('2027-03-14T03:00:00Z'))!).toISOString()).toBe('2027-03-15T02:30:00.000Z');
    expect(new Date(nextOpening(every('America/St_Johns', 150, 300), Date.parse('2027-03-15T03:00:00Z'))!).toISOString()).toBe('2027-03-15T05:00:00.000Z');
  });
});
