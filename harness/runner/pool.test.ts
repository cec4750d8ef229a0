import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../ground/api-client.ts';
import { parseProfile } from './profile.ts';
import { WorkspacePool } from './pool.ts';

// Leasing rules without a target: shared leases spread over the pool and avoid the workspaces a
// check already holds; an exclusive lease (no control API) waits for a member to be idle and
// never takes the last shared one.

const names = { list: { cursor: 'c', pageSize: 'l', status: 's', tags: 't' }, leadsSearchParam: 'q', analytics: { start: 'a', end: 'b', excludeOutOfOffice: 'o' }, mutate: { operation: 'op', status: 'st' } };
const profile = parseProfile({ name: 't', baseUrl: 'http://127.0.0.1:9', workspaces: [{ apiKey: 'key-aaaaaa1' }, { apiKey: 'key-aaaaaa2' }, { apiKey: 'key-aaaaaa3' }], names });
const fakeClient = (key: string) => ({ baseUrl: key }) as unknown as ApiClient;

async function pool() {
  const secrets: string[] = [];
  const p = new WorkspacePool({ profile, prefix: 'oct-', clientFor: fakeClient, registerSecret: (s) => secrets.push(s) });
  await p.prepare();
  return { p, secrets };
}

describe('WorkspacePool', () => {
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
    const pending = p.leaseExclusive().then((l) => (got = l));
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toBeUndefined(); // every member is busy
    held.forEach((h) => h.release());
    await pending;
    expect(got!.ws.index).not.toBe(0); // the first member stays for shared leases
    const shared = await p.lease();
    expect(shared.ws).not.toBe(got!.ws); // nobody shares an exclusive workspace
    got!.release();
  });
});
