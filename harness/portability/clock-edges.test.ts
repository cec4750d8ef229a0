import { describe, expect, it } from 'vitest';
import { CLOCK_EDGES, LEAD_MS, offsetAt } from './clock-edges.ts';

const local = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(ms));
const edge = (name: RegExp) => CLOCK_EDGES.find((e) => name.test(e.name))!;
const NOW = Date.parse('2026-12-07T01:50:00Z');

describe('the calendar edges a clock-edge run starts before', () => {
  it('are each the first such instant more than the lead after now', () => {
    for (const e of CLOCK_EDGES) {
      for (const now of [NOW, Date.parse('2027-03-14T05:29:40Z'), Date.parse('2028-02-28T23:59:45Z')]) {
        const t = e.next(now);
        expect(t - now, e.name).toBeGreaterThanOrEqual(LEAD_MS);
        expect(t - now, e.name).toBeLessThan(6 * 366 * 86_400_000);
      }
    }
  });

  it('fall at local midnight, on the day named', () => {
    expect(local(edge(/^23:59:30 UTC/).next(NOW) - LEAD_MS, 'UTC')).toBe('Mon, 07/12/2026, 23:59:30');
    expect(local(edge(/UTC\+14/).next(NOW) - LEAD_MS, 'Pacific/Kiritimati')).toBe('Mon, 07/12/2026, 23:59:30');
    expect(local(edge(/Sunday/).next(NOW) - LEAD_MS, 'UTC')).toBe('Sun, 13/12/2026, 23:59:30');
    expect(local(edge(/last day/).next(NOW) - LEAD_MS, 'Asia/Kathmandu')).toBe('Thu, 31/12/2026, 23:59:30');
    expect(local(edge(/February/).next(NOW) - LEAD_MS, 'UTC')).toBe('Mon, 28/02/2028, 23:59:30');
    expect(local(edge(/half-hour/).next(NOW) - LEAD_MS, 'America/St_Johns')).toBe('Sun, 06/12/2026, 23:59:30');
  });

  it("fall where St John's moves its clock forward and back (an hour each way, from a half-hour offset)", () => {
    const start = edge(/saving starts/).next(NOW);
    const end = edge(/saving ends/).next(NOW);
    expect(new Date(start).toISOString()).toBe('2027-03-14T05:30:00.000Z');
    expect(new Date(end).toISOString()).toBe('2027-11-07T04:30:00.000Z');
    expect(offsetAt(start, 'America/St_Johns') - offsetAt(start - 1000, 'America/St_Johns')).toBe(3_600_000);
    expect(offsetAt(end, 'America/St_Johns') - offsetAt(end - 1000, 'America/St_Johns')).toBe(-3_600_000);
    expect(offsetAt(start - 1000, 'America/St_Johns')).toBe(-3.5 * 3_600_000);
  });
});
