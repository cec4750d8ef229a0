import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../ground/api-client.ts';
import { parseProfile } from '../ground/profile.ts';
import { WorkspacePool } from './pool.ts';

// Leasing rules without a target: shared leases spread over the pool and avoid the workspaces a
// check already holds; an exclusive lease (no control API) waits for a member to be idle and
// never takes the last shared one.

const names = { list: { cursor: 'c', pageSize: 'l', status: 's', tags: 't' }, leadsSearchParam: 'q', analytics: { start: 'a', end: 'b', excludeOutOfOffice: 'o' }, mutate: { operation: 'op', status: 'st' } };
const profile = parseProfile({ name: 't', baseUrl: 'http://127.0.0.1:9', workspaces: [{ apiKey: 'key-aaaaaa1' }, { apiKey: 'key-aaaaaa2' }, { apiKey: 'key-aaaaaa3' }], names });
// Every key is accepted (GET /v1/workspace answers 200) unless it is one of `refused`.
const refused = new Set<string>();
const fakeClient = (key: string) => ({ baseUrl: key, request: async () => ({ status: refused.has(key) ? 401 : 200, body: refused.has(key) ? { error: { code: 'unauthenticated' } } : {} }) }) as unknown as ApiClient;

async function pool() {
  const secrets: string[] = [];
  const p = new WorkspacePool({ profile, prefix: 'oct-', clientFor: fakeClient, registerSecret: (s) => secrets.push(s) });
  await p.prepare();
  return { p, secrets };
}

describe('WorkspacePool', () => {
  it("refuses to prepare when the target refuses a workspace's key, naming the field (a set-up failure, not a finding)", async () => {
    refused.add('key-aaaaaa2');
    try {
      await expect(pool()).rejects.toThrow(/the key of workspaces\.1\.apiKey was refused: GET \/v1\/workspace answered 401 unauthenticated/);
    } finally {
      refused.clear();
    }
  });
  it('registers every key as a secret and spreads shared leases round-robin', async () => {
    const { p, secrets } = await pool();
    expect(secrets).toEqual(['key-aaaaaa1', 'key-aaaaaa2', 'key-aaaaaa3']);
    const a = await p.lease();
    const b = await p.lease();
    const c = await p.lease();
    expect(new Set([a.ws.index, b.ws.index, c.ws.index]).size).toBe(3);
  });
  it('a second shared lease of one check avoids the workspace it holds', async () => {
    const { p } = await pool();
    const first = await p.lease();
    for (let i = 0; i < 5; i++) {
      const other = await p.lease([first.ws]);
      expect(other.ws).not.toBe(first.ws);
      other.release();
    }
  });
  it('an exclusive lease waits until its workspace is idle and keeps one member shared', async () => {
    const { p } = await pool();
    const held = [await p.lease(), await p.lease(), await p.lease()];
    let got: Awaited<ReturnType<WorkspacePool['leaseExclusive']>> | undefined;
    const pending = p.leaseExclusive(0, 'C/waits').then((l) => (got = l));
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toBeUndefined(); // every member is busy
    held.forEach((h) => h.release());
    await pending;
    expect(got!.ws.index).not.toBe(0); // the first member stays for shared leases
    // The wait is the kit's, not the target's: counted against the check once (its learned pace leaves it out).
    expect(p.takeWaited('C/waits')).toBeGreaterThanOrEqual(15);
    expect(p.takeWaited('C/waits')).toBe(0);
    const shared = await p.lease();
    expect(shared.ws).not.toBe(got!.ws); // nobody shares an exclusive workspace
    got!.release();
  });
  it('never lets the run pass 12 test emails in a workspace: packs them, keeps untouched ones whole, then skips', async () => {
    const { p } = await pool();
    // Five checks of 2 test emails each share the same workspace while it has room (12 = 6 x 2).
    const packed = await Promise.all(Array.from({ length: 5 }, () => p.lease([], 2)));
    expect(new Set(packed.map((l) => l.ws.index)).size).toBe(1);
    packed.forEach((l) => l.release());
    // A check that needs all 12 gets an untouched member; the last 2 of the first still fit.
    const whole = await p.leaseExclusive(12);
    expect(whole.ws.testEmails).toBe(12);
    expect(whole.ws).not.toBe(packed[0]!.ws);
    whole.release();
    expect((await p.lease([], 2)).ws).toBe(packed[0]!.ws);
    // The third member takes 12 one check at a time; then no workspace has room: a clear skip.
    for (let i = 0; i < 12; i++) (await p.lease([], 1)).release();
    await expect(p.lease([], 1)).rejects.toThrow(/test emails of the day left.*all 3 workspaces of the profile: give it more workspaces/);
    await expect(p.leaseExclusive(12)).rejects.toThrow(/give it more workspaces/);
    expect(p.members.map((m) => m.testEmails)).toEqual([12, 12, 12]);
  });
  it('keeps an untouched workspace for a check that needs a whole day of test emails until it leases or ends', async () => {
    // Two members filled with single test emails (touched ones first), then the last untouched one is kept.
    const filled = async (kept: string) => {
      const { p } = await pool();
      p.keepUntouched([kept]);
      for (let i = 0; i < 24; i++) (await p.lease([], 1, `C${i}`)).release();
      const untouched = p.members.filter((m) => m.testEmails === 0);
      expect(untouched).toHaveLength(1);
      let late: Awaited<ReturnType<WorkspacePool['lease']>> | undefined;
      const pending = p.lease([], 1, 'LATE').then((l) => (late = l));
      await new Promise((r) => setTimeout(r, 20));
      expect(late).toBeUndefined(); // it waits rather than take the kept one
      return { p, kept: untouched[0]!, pending, got: () => late };
    };
    const leased = await filled('WHOLE');
    const whole = await leased.p.lease([], 12, 'WHOLE');
    expect(whole.ws).toBe(leased.kept);
    // A check kept for that ends without a lease (a skip) gives it up: the waiting one takes it.
    const ended = await filled('GONE');
    ended.p.settle('GONE');
    await ended.pending;
    expect(ended.got()!.ws).toBe(ended.kept);
  });
});
