import { describe, expect, it } from 'vitest';
import type { RunEvent, TargetWorkEvent } from '../ground/events.ts';
import { runPortability } from '../portability/run.ts';
import { targetWorkStats } from '../plan/target-pace.ts';

// A mailbox's verification in the target's own time is reported (TargetWorkEvent): the progress
// line reads the target's engine pace from it. With the control API the kit drains the
// verification at once, and there is nothing of the target's own time to report.

async function settles(control: boolean): Promise<TargetWorkEvent[]> {
  const events: RunEvent[] = [];
  const r = await runPortability({ choices: 'default', control, workspaces: 2, only: /^VERIF-SINK\/active$/, sink: { emit: (e) => events.push(e) } });
  expect(r.results.map((x) => `${x.checkId}: ${x.verdict}`)).toEqual(['VERIF-SINK/active: pass']);
  return events.filter((e): e is TargetWorkEvent => e.type === 'target-work');
}

describe('target-work events', () => {
  it("report how long a mailbox took to settle in the target's own time, and none where the control API drains it", async () => {
    const real = await settles(false);
    expect(real.length).toBeGreaterThanOrEqual(1);
    for (const e of real) expect(e).toMatchObject({ checkId: 'VERIF-SINK/active', what: 'mailbox-settle', ms: expect.any(Number) });
    expect(real.every((e) => e.ms > 0 && Number.isFinite(Date.parse(e.at)))).toBe(true);
    expect(await settles(true)).toEqual([]);
  });

  it('are summed up for results.json: count and median by kind, nothing when none was seen', () => {
    const at = '2026-11-28T00:00:00.000Z';
    const e = (ms: number): TargetWorkEvent => ({ type: 'target-work', checkId: 'X', what: 'mailbox-settle', at, ms });
    expect(targetWorkStats([e(300), e(900), e(500)])).toEqual({ targetWork: { 'mailbox-settle': { count: 3, medianMs: 500 } } });
    expect(targetWorkStats([{ type: 'check-start', checkId: 'X', at }])).toEqual({});
  });
});
