import { describe, expect, it } from 'vitest';
import { CLOCK_EDGES, LEAD_MS, type ClockEdge } from './clock-edges.ts';
import { runPortability } from './run.ts';
import { expectClean } from './expect-clean.ts';

// The kit's verdict does not depend on the hour, the day or the month the run meets. The reference
// (default choices, control API) starts its clock LEAD_MS before each edge of CLOCK_EDGES, every
// workspace in the edge's zone: 0 failures, 0 errors. The edge is reached through the control
// API's clock, never by waiting: nothing here depends on timing.
//
// In a whole run the checks that move the clock (days at a time) carry it past the edge within
// seconds, so the checks that read the target's calendar (a window's minutes, a day's count, a
// day of the week) also run by themselves, starting at the edge; the reference served alone is
// started there too (`reference --clock-start`, as faketime would). The sending checks that move
// the clock begin by moving it clear of midnight (suites/checks/sending/lib.ts awayFromMidnight):
// an edge never reaches them.

/** Checks that read the target's minute, day or month and do not move its clock: they run together at every edge. */
const CALENDAR_CHECKS = [
  'CAMP-STATUS/always-open', // a window of every minute of the day: whether its end minute is in it is not stated
  'CAMP-STATUS/window',
  'TEST-EMAIL/mailbox-daily-limit', // "a day": whose midnight is not stated
  'TEST-EMAIL/workspace-12',
  'ANLT/windows', // whole days in the workspace's zone, ending today
  'ANLT/campaign-answer',
  'ANLT/timeseries-coarsening',
  'ANLT/clamping-profile',
];

/** Of CALENDAR_CHECKS, those that run without the control API in a few seconds (the others skip, or wait in real time). */
const WITHOUT_CONTROL = ['CAMP-STATUS/always-open', 'TEST-EMAIL/mailbox-daily-limit', 'TEST-EMAIL/workspace-12', 'ANLT/windows', 'ANLT/timeseries-coarsening', 'ANLT/clamping-profile'];

const escape = (id: string) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const only = (ids: readonly string[]) => new RegExp(`^(${ids.map(escape).join('|')})$`);
const at = (clockAt: string | undefined) => `target clock at the run's start ${clockAt ?? '?'}`;

/** The calendar checks in a run of their own starting LEAD_MS before the edge: every one ran, none failed. */
async function expectCalendarClean(edge: ClockEdge, ids: readonly string[], control: boolean): Promise<void> {
  const r = await runPortability({ choices: 'default', control, workspaces: 8, clockEdge: edge, only: only(ids) });
  expect(r.results.map((x) => x.checkId).sort(), 'the calendar checks ran').toEqual([...ids].sort());
  expect(r.problems, at(r.clockAt)).toEqual([]);
  expect(r.unexplainedSkips).toEqual([]);
}

describe.concurrent(`the suite passes the reference at the calendar's edges (its clock starting ${LEAD_MS / 1000} s before each)`, () => {
  for (const edge of CLOCK_EDGES) {
    it(`a default run at ${edge.name}`, async () => {
      const r = await runPortability({ choices: 'default', control: true, clockEdge: edge });
      expect(r.clockAt, 'the target clock was moved to the edge').toBeDefined();
      expect(r.problems, at(r.clockAt)).toEqual([]);
      expectClean(r);
    }, 900_000);
  }
});

describe.concurrent("the checks that read the target's calendar pass, starting at each edge", () => {
  for (const edge of CLOCK_EDGES) {
    it(`at ${edge.name}, with the control API`, () => expectCalendarClean(edge, CALENDAR_CHECKS, true), 300_000);
    it(`at ${edge.name}, the reference started there without the control API (as under faketime)`, () => expectCalendarClean(edge, WITHOUT_CONTROL, false), 300_000);
  }
});
