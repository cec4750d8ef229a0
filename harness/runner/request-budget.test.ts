import { describe, expect, it } from 'vitest';
import { NOT_STARTED_FOR_BUDGET, RequestBudget } from './request-budget.ts';

describe('the run held to its request budget', () => {
  it('starts every check without a budget', () => {
    const b = new RequestBudget(undefined);
    for (let i = 0; i < 1000; i++) b.sent();
    expect(b.begin('A', 10_000)).toBeUndefined();
  });

  it('starts a check while its measured requests fit beside what was sent, what running checks still owe and the clean-up', () => {
    const b = new RequestBudget(100);
    for (let i = 0; i < 30; i++) b.sent(); // set-up
    expect(b.begin('A', 40)).toBeUndefined();
    for (let i = 0; i < 10; i++) b.sent('A'); // A owes 30 more
    // 100 - 40 sent - 30 owed by A - 5 owed to the clean-up = 25
    expect(b.begin('B', 25, 5)).toBeUndefined();
    const refused = b.begin('C', 1, 5);
    expect(refused).toMatch(new RegExp(`^${NOT_STARTED_FOR_BUDGET} of 100: 40 requests sent, 55 more owed to running checks and 5 to the final clean-up leave 0, fewer than the 1`));
    expect(b.notStarted).toBe(1);
  });

  it('frees what an ended check was promised but did not send', () => {
    const b = new RequestBudget(50);
    expect(b.begin('A', 40)).toBeUndefined();
    for (let i = 0; i < 20; i++) b.sent('A');
    expect(b.begin('B', 20)).toBeDefined();
    b.end('A');
    expect(b.begin('B', 20)).toBeUndefined();
  });

  it('counts what a running check sends past its measure, and says how this target compares', () => {
    const b = new RequestBudget(100);
    expect(b.begin('A', 20)).toBeUndefined();
    for (let i = 0; i < 50; i++) b.sent('A');
    b.end('A');
    expect(b.begin('B', 51)).toMatch(/the finished checks sent 50 requests where 20 were measured, 150 % more/);
    expect(b.begin('B', 50)).toBeUndefined();
  });
});
