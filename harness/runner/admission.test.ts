import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../ground/api-client.ts';
import { parseProfile } from '../ground/profile.ts';
import { RateBudget, type Clock } from '../client/budget.ts';
import { OVERRUN_STEP, OWED_MARGIN, WorkspacePool } from './pool.ts';
import { Admission } from './admission.ts';

// Admission by window room, without a target: a check starts where its measured requests fit in
// a workspace's rate window now (promised to it there, so nobody takes that room meanwhile), a
// check that fits nowhere waits while one behind it that fits goes first, and the slots bound
// how many run. The windows' time is a manual clock: behaviour, not speed.

const names = { list: { cursor: 'c', pageSize: 'l', status: 's', tags: 't' }, leadsSearchParam: 'q', analytics: { start: 'a', end: 'b', excludeOutOfOffice: 'o' }, mutate: { operation: 'op', status: 'st' } };
const profile = parseProfile({ name: 't', baseUrl: 'http://127.0.0.1:9', workspaces: [{ apiKey: 'key-aaaaaa1' }, { apiKey: 'key-aaaaaa2' }, { apiKey: 'key-aaaaaa3' }], names });

class ManualClock implements Clock {
  t = 0;
  now = () => this.t;
  setTimeout = () => 0;
  clearTimeout = () => {};
}

/** `lastWindowFrom`: where the run's last window begins on the manual clock (the runner's packFrom); absent, nothing is packed. */
async function pool(holdsOwed?: () => boolean, lastWindowFrom?: number) {
  const clock = new ManualClock();
  const lastWindowMs = lastWindowFrom === undefined ? undefined : () => clock.t - lastWindowFrom;
  const budgets: RateBudget[] = [];
  const clientFor = () => {
    const budget = new RateBudget({ requests: 120, windowMs: 60_000, clock });
    budgets.push(budget);
    return { budget, request: async () => ({ status: 200, body: {} }) } as unknown as ApiClient;
  };
  const p = new WorkspacePool({ profile, prefix: 'oct-', clientFor, registerSecret: () => {}, holdsOwed, lastWindowMs });
  await p.prepare();
  // Every window has 118 usable slots (these fake clients send around the budgets).
  return { p, clock, budgets, fill: (i: number, n: number) => Array.from({ length: n }, () => budgets[i]!.note()) };
}

const tick = () => new Promise((r) => setTimeout(r, 15));

describe('Admission', () => {
  it('of the workspaces with room now, promises a check the one that carried least of the run so far (every window)', async () => {
    const { p, clock, fill } = await pool();
    fill(0, 100); // an earlier window: gone from it, still part of the run
    fill(1, 40);
    clock.t = 61_000;
    fill(1, 10);
    fill(2, 30);
    const a = new Admission(p, 8, 120, 5);
    await a.enter('C', 20);
    // Window room: 118, 108, 88 (all fit); the run so far: 100, 50, 30.
    expect(p.members.filter((m) => m.promises.has('C')).map((m) => m.index)).toEqual([2]);
  });

  it('moves what a second workspace needs kept (its clean-up there) from the check\'s promise in the first', async () => {
    const { p } = await pool();
    const a = new Admission(p, 8, 120, 5);
    await a.enter('C', 40);
    const first = await p.lease([], 0, 'C');
    const second = await p.lease([first.ws], 0, 'C');
    expect(second.ws).not.toBe(first.ws);
    expect(second.ws.promises.has('C')).toBe(false); // a second lease takes no promise by itself
    p.keepFor('C', second.ws, 3);
    expect([first.ws.promises.get('C'), second.ws.promises.get('C')]).toEqual([37, 3]);
    p.keepFor('C', second.ws, 100); // never more than is left
    expect([first.ws.promises.get('C'), second.ws.promises.get('C')]).toEqual([0, 40]);
  });

  it("keeps what a workspace owes the final clean-up, and a margin, free in the run's last window only", async () => {
    let last = false;
    const { p } = await pool(() => last);
    const ws = p.members[1]!;
    ws.owed = 5;
    expect(ws.room()).toBe(118);
    last = true;
    expect(ws.room()).toBe(118 - 5 - OWED_MARGIN);
    const a = new Admission(p, 8, 120, 5);
    p.members[0]!.owed = 0;
    p.members[2]!.owed = 0;
    // A check needing all but the margin fits where nothing is owed, not in workspace 1.
    await a.enter('C', 118 - OWED_MARGIN);
    expect(ws.promises.has('C')).toBe(false);
  });

  it('promises a check the room of the workspace where its requests fit now, and its lease takes that one', async () => {
    const { p, fill } = await pool();
    fill(0, 100);
    fill(1, 60);
    const a = new Admission(p, 8, 120, 5);
    await a.enter('C', 50);
    const promised = p.members.filter((m) => m.promises.has('C'));
    expect(promised.map((m) => m.index)).toEqual([2]);
    expect(promised[0]!.room()).toBe(118 - 50);
    const lease = await p.lease([], 0, 'C');
    expect(lease.ws.index).toBe(2);
    // Each request it sends there spends the promise; the end of the check frees what is left.
    p.sent('C', 2);
    expect(promised[0]!.promises.get('C')).toBe(49);
    p.settle('C');
    expect(promised[0]!.promises.size).toBe(0);
  });

  it("lets a check's clean-up spend what it was promised, then only room nobody was promised", async () => {
    const { p, fill } = await pool();
    fill(0, 118);
    fill(1, 118);
    fill(2, 100);
    const a = new Admission(p, 8, 120, 5);
    await a.enter('OTHER', 10);
    await a.enter('C', 2);
    const ws = p.members[2]!;
    expect([ws.promises.get('OTHER'), ws.promises.get('C')]).toEqual([10, 2]);
    fill(2, 6);
    expect(ws.room()).toBe(0);
    // Each spend is followed by its DELETE (one request in the window).
    for (let i = 0; i < 2; i++) {
      expect(p.spend('C', 2)).toBe(true);
      fill(2, 1);
    }
    expect(ws.promises.get('C')).toBe(0);
    // Its promise spent, the window's room promised to another: a third DELETE is left to the final clean-up.
    expect(p.spend('C', 2)).toBe(false);
    p.settle('OTHER');
    expect(p.spend('C', 2)).toBe(true);
  });

  it('holds a check that fits nowhere, lets one behind it that fits go first, and admits it once a window slides', async () => {
    const { p, clock, fill } = await pool();
    fill(0, 110);
    fill(1, 110);
    fill(2, 100);
    const a = new Admission(p, 8, 120, 5);
    const order: string[] = [];
    const big = a.enter('BIG', 40).then((leave) => (order.push('BIG'), leave));
    const small = a.enter('SMALL', 5).then((leave) => (order.push('SMALL'), leave));
    await small;
    await tick();
    expect(order).toEqual(['SMALL']);
    // SMALL did not take the roomiest workspace (2): it is kept for BIG, first in line.
    expect(p.members[2]!.promises.has('SMALL')).toBe(false);
    clock.t = 60_001; // the window slides past what the workspaces held
    await big;
    expect(order).toEqual(['SMALL', 'BIG']);
  });

  it("in the run's last window, places a waiting check where it fits before the run ends, and a smaller one behind it where that leaves its room", async () => {
    const { p, clock, fill } = await pool(() => true, 20_000);
    fill(1, 10); // before the last window: these leave workspace 1's window before the run ends
    clock.t = 30_000;
    fill(0, 118 - OWED_MARGIN - 20); // room now 20, and to the run's end 20
    fill(1, 118 - OWED_MARGIN - 27); // room now 17, to the run's end 27
    fill(2, 118 - OWED_MARGIN); // full
    expect([...p.runRoom()!.values()]).toEqual([20, 27, 0]);
    const a = new Admission(p, 8, 120, 5);
    const big = a.enter('BIG', 25);
    // SMALL fits in workspace 1 now, but there it would leave BIG no room to the run's end: it goes to 0.
    await a.enter('SMALL', 9);
    expect(p.members.filter((m) => m.promises.has('SMALL')).map((m) => m.index)).toEqual([0]);
    clock.t = 61_000; // the 10 early requests leave workspace 1's window
    await big;
    expect(p.members.filter((m) => m.promises.has('BIG')).map((m) => m.index)).toEqual([1]);
  });

  it('a placed check whose workspace has no room now takes another where the packing left that much over', async () => {
    const { p, clock, fill } = await pool(() => true, 20_000);
    fill(0, 30); // leaves workspace 0's window before the run ends
    clock.t = 30_000;
    fill(0, 118 - OWED_MARGIN - 35); // room now 5, to the run's end 35
    fill(1, 118 - OWED_MARGIN - 55); // room now and to the end 55
    fill(2, 118 - OWED_MARGIN); // full
    const a = new Admission(p, 8, 120, 5);
    await a.enter('A', 30); // placed in 1 (the most left), where it fits now
    // B is placed in 0 (35 left to the end), which has 5 now; 1 has 25 over once A is placed (its need and the margin): B goes there at once.
    await a.enter('B', 20);
    expect(p.members.filter((m) => m.promises.has('B')).map((m) => m.index)).toEqual([1]);
  });

  it("before a real-time run's last window packs nothing and keeps no workspace idle for the first in line (nothing leaves a window in time)", async () => {
    let last = false;
    const { p, clock, fill } = await pool(() => last, 20_000);
    clock.t = 30_000;
    expect(p.runRoom()).toBeUndefined();
    fill(0, 100);
    fill(1, 100);
    fill(2, 80);
    const a = new Admission(p, 8, 120, 5);
    void a.enter('BIG', 50);
    // Workspace 2, the roomiest, is not kept for BIG: SMALL takes it.
    await a.enter('SMALL', 30);
    expect(p.members[2]!.promises.has('SMALL')).toBe(true);
    last = true;
    expect(p.runRoom()).toBeDefined();
  });

  it('against real time, a check that sent all it was promised in a workspace and goes on, or runs past its measured time, is promised more there until it ends', async () => {
    const { p } = await pool(undefined, 0);
    const a = new Admission(p, 8, 120, 5);
    await a.enter('POLL', 2);
    const ws = p.members.find((m) => m.promises.has('POLL'))!;
    p.sent('POLL', ws.index);
    p.sent('POLL', ws.index);
    expect(ws.promises.get('POLL')).toBe(0);
    p.sent('POLL', ws.index); // a third poll: the room it goes on taking is kept for it
    expect(ws.promises.get('POLL')).toBe(OVERRUN_STEP - 1);
    // Overdue (running past its measured time): promised more where most of its promise is left.
    p.promiseMore('POLL', 10);
    expect(ws.promises.get('POLL')).toBe(OVERRUN_STEP - 1 + 10);
    p.settle('POLL');
    expect(ws.promised()).toBe(0);
  });

  it('runs at most `slots` checks at once; the next starts when one ends', async () => {
    const { p } = await pool();
    const a = new Admission(p, 2, 120, 5);
    const first = await a.enter('A', 1);
    await a.enter('B', 1);
    let third = false;
    const c = a.enter('C', 1).then(() => (third = true));
    await tick();
    expect(third).toBe(false);
    expect(a.waiting).toBe(1);
    first();
    await c;
    expect(third).toBe(true);
  });

  it('caps a need beyond the window (a rate-limit probe) so it starts once most of a window is free', async () => {
    const { p } = await pool();
    const a = new Admission(p, 8, 120, 5);
    await a.enter('RATE', 125);
    expect(Math.max(...p.members.map((m) => m.promises.get('RATE') ?? 0))).toBe(108);
  });

  it('an exclusive lease takes the idle member promised to the check, else the roomiest idle one but the first', async () => {
    const { p, fill } = await pool();
    fill(0, 60);
    fill(2, 20);
    const a = new Admission(p, 8, 120, 5);
    await a.enter('X', 10);
    const promised = p.members.find((m) => m.promises.has('X'))!;
    expect(promised.index).toBe(1);
    const x = await p.leaseExclusive(0, 'X');
    expect(x.ws).toBe(promised);
    // Workspace 1 is held: of the idle ones, 0 stays for shared leases, so 2.
    const y = await p.leaseExclusive(0, 'Y');
    expect(y.ws.index).toBe(2);
  });

  it('a holder that lends its workspace shares it (and its budget) with checks that send no mail, never with one that does', async () => {
    const { p, fill } = await pool();
    fill(0, 100);
    fill(2, 100);
    const usage = await p.leaseExclusive(0, 'USAGE', true);
    expect(usage.ws.index).toBe(1);
    // The lender's workspace has the most room: a mailless check takes it, one sending mail does not.
    const mailless = await p.lease([], 0, 'M', true);
    expect(mailless.ws).toBe(usage.ws);
    const mail = await p.lease([], 0, 'S', false);
    expect(mail.ws).not.toBe(usage.ws);
    // Released, it lends nothing more: the next exclusive holder that does not lend keeps it whole.
    mailless.release();
    usage.release();
    const rate = await p.leaseExclusive(0, 'RATE');
    expect((await p.lease([], 0, 'M2', true)).ws).not.toBe(rate.ws);
  });

  it('keeps an idle member (never the first) for a check that will lease exclusively: other checks lease elsewhere until it does', async () => {
    const { p } = await pool();
    const a = new Admission(p, 8, 120, 5);
    await a.enter('RATE', 125, 0, false, true);
    const kept = p.members.find((m) => m.keptFor === 'RATE')!;
    expect(kept.index).not.toBe(0);
    for (const id of ['A', 'B', 'C', 'D']) expect((await p.lease([], 0, id)).ws).not.toBe(kept);
    // The others hold every other member: the exclusive lease still gets the kept one at once.
    expect((await p.leaseExclusive(0, 'RATE')).ws).toBe(kept);
    expect(kept.keptFor).toBeUndefined();
  });
});
