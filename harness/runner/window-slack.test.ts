import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import { chooseChecks, WINDOW_SLACK, withWindowSlack } from '../plan/planner.ts';
import { DEPTH_BUDGETS, PLANNED_SHARE, type DepthSelection } from '../plan/select-depth.ts';
import { WINDOW_FILL } from '../plan/schedule.ts';

// Planned slack: against a target that keeps real time a run is as long as the rate windows its
// requests fill, so a selection that fills its last window to the last few requests is chosen
// again to leave WINDOW_SLACK of their room free (a little change of order spilled such runs into
// one more window).

const reference = await loadProfile(DEFAULT_PROFILE_PATH);
const staging = { ...reference, embedded: false, control: undefined, baseUrl: 'http://x.test' };

/** A selection planning its budget's planned share (what selectWithin does, give or take a check). */
const fake = (calls: number[]) => (budget: number) => {
  calls.push(budget);
  return { requests: Math.floor(budget * PLANNED_SHARE) } as DepthSelection;
};

describe('withWindowSlack', () => {
  const room = 8 * staging.rateLimit.requests * WINDOW_FILL; // 912 a window over 8 workspaces

  it('chooses again, within the slack, a selection that comes within it of filling its windows', () => {
    const calls: number[] = [];
    const s = withWindowSlack(2000, 8, staging, fake(calls));
    // 1,800 planned need two windows (1,824): within 5 % of them, so chosen again at 1,733 planned.
    expect(calls).toEqual([2000, Math.floor((2 * room * (1 - WINDOW_SLACK)) / PLANNED_SHARE)]);
    expect(s.requests).toBeLessThanOrEqual(2 * room * (1 - WINDOW_SLACK));
  });

  it('leaves a selection with room to spare, and any selection against the control clock, as it is', () => {
    const calls: number[] = [];
    expect(withWindowSlack(700, 8, staging, fake(calls)).requests).toBe(630); // one window: 630 of 912
    expect(withWindowSlack(2000, 8, { ...staging, control: { baseUrl: 'http://c.test', token: 't' } }, fake(calls)).requests).toBe(1800);
    expect(withWindowSlack(2000, 8, reference, fake(calls)).requests).toBe(1800);
    expect(calls).toEqual([700, 2000, 2000]);
  });

  it("a staging-like default run's checks fit two windows with the slack free", () => {
    const choice = chooseChecks(ALL_CHECKS, { depth: 'default', profile: staging, workspaces: 8 });
    expect(choice.selection!.requests).toBeLessThanOrEqual(2 * room * (1 - WINDOW_SLACK));
    // The embedded reference (the control clock) keeps the depth's whole budget.
    const embedded = chooseChecks(ALL_CHECKS, { depth: 'default', profile: reference, workspaces: 40 });
    expect(embedded.selection!.budget).toBe(DEPTH_BUDGETS.default);
  });
});
