import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import { burst } from './ratelimit.ts';

// The rate-limit check's burst against a simulated workspace: a window of `limit` requests that
// is fixed (it restarts whole at `resetAfter` requests of the burst) or sliding (never restarts).

function workspace(limit: number, used: number, resetAfter?: number): ApiClient[] {
  let count = used;
  let sent = 0;
  const request = async (): Promise<ApiResponse> => {
    sent++;
    if (resetAfter !== undefined && sent === resetAfter + 1) count = 0; // a fixed window's boundary
    if (count >= limit) return { status: 429, headers: { 'retry-after': '30' }, body: {}, text: '' } as unknown as ApiResponse;
    count++;
    return { status: 200, headers: { 'x-ratelimit-remaining': String(limit - count) }, body: {}, text: '' } as unknown as ApiResponse;
  };
  const key = { request } as unknown as ApiClient;
  return [key, key];
}

describe('burst', () => {
  it('counts to the first 429 on a window that holds what came before', async () => {
    const r = await burst(workspace(120, 2), 120, 2, true);
    expect([r.served.length + r.leading, r.limited?.status]).toEqual([120, 429]);
  });

  it('starts the count again when a fixed window restarts under the burst (real time), once', async () => {
    const r = await burst(workspace(120, 2, 50), 120, 2, true);
    // 50 served in the old window, then a whole new one: 120 served in it before the 429.
    expect([r.served.length, r.leading, r.limited?.status]).toEqual([120, 0, 429]);
    // A second restart is not forgiven: the burst ends after limit + 5 served.
    let n = 0;
    const flapping = { request: async () => ({ status: 200, headers: { 'x-ratelimit-remaining': String(++n % 2 ? 10 : 20) }, body: {}, text: '' }) } as unknown as ApiClient;
    const f = await burst([flapping, flapping], 120, 2, true);
    expect(f.limited).toBeUndefined();
  });

  it('never restarts where the control clock holds time still, and counts what came before', async () => {
    const held = await burst(workspace(120, 1), 120, 1, false);
    expect([held.served.length + held.leading, held.limited?.status]).toEqual([120, 429]);
    const r = await burst(workspace(120, 0, 50), 120, 0, false);
    expect(r.limited).toBeUndefined(); // 125 served: the check then fails, as a target that reset would
    expect(r.served.length).toBe(125);
  });
});
