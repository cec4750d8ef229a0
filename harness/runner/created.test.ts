import { describe, expect, it } from 'vitest';
import type { ExchangeEvent } from '../ground/events.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import { cleanupByCheck, CreatedLedger, createdResources } from './created.ts';

const profile = await loadProfile(DEFAULT_PROFILE_PATH);
const BASE = 'http://127.0.0.1:9/api';
let seq = 0;
function x(method: string, path: string, status: number, body?: unknown, o: { workspace?: number; checkId?: string; request?: unknown; raw?: string } = {}): ExchangeEvent {
  return {
    type: 'exchange',
    id: `x${++seq}`,
    ...(o.checkId ? { checkId: o.checkId } : {}),
    workspace: o.workspace ?? 0,
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    request: { method, url: `${BASE}${path}`, headers: {}, ...(o.request ? { body: JSON.stringify(o.request) } : {}) },
    response: { status, headers: {}, body: o.raw ?? (body === undefined ? undefined : JSON.stringify(body)) },
    curl: '',
  };
}

describe('what a run created and must clean up (from its own exchanges)', () => {
  const keys = profile.operations['apikeys.create']!;
  const run = [
    x('POST', '/v1/accounts', 201, { accounts: [{ id: 'm1', emailAddress: 'oc1-a@x.test' }, { id: 'm2', emailAddress: 'oc1-b@x.test' }, { id: 'm9', emailAddress: 'someone@x.test' }] }, { checkId: 'A' }),
    x('DELETE', '/v1/accounts/m2', 200, {}, { checkId: 'A' }),
    x('POST', '/v1/accounts', 400, { error: {} }, { checkId: 'A' }),
    x(keys.method, keys.path, 201, { id: 'k1', key: 'ock_secret' }, { checkId: 'B', request: { name: 'oc1-key-0', scopes: ['usage:read'] } }),
    x('POST', '/v1/campaigns', 201, { id: 'c1' }, { checkId: 'B' }),
    x('POST', '/v1/accounts', 201, undefined, { workspace: 1, checkId: 'C', raw: '{"accounts":[{"id":"m3"' }),
  ];
  const made = createdResources(run, profile, BASE, 'oc1-');

  it('keeps what carries the run prefix and was not deleted, per workspace', () => {
    expect(made.get(0)!.resources).toEqual([
      { kind: 'mailbox', id: 'm1', label: 'oc1-a@x.test', checkId: 'A', exchangeId: run[0]!.id },
      { kind: 'api key', id: 'k1', label: 'oc1-key-0', checkId: 'B', exchangeId: run[3]!.id },
    ]);
    expect(made.get(0)!.campaigns).toBe(1);
    expect(made.get(0)!.unreadable).toBe(false);
  });

  it('marks a workspace whose creation answer was cut short: only a listing finds all there', () => {
    expect(made.get(1)!.unreadable).toBe(true);
  });

  it('keeps the same account when fed one exchange at a time, saying which exchanges changed it', () => {
    const ledger = new CreatedLedger(profile, BASE, 'oc1-');
    expect(run.map((e) => ledger.add(e))).toEqual([true, true, false, true, true, true]);
    expect(ledger.byWorkspace).toEqual(made);
  });

  it('counts one DELETE per leftover mailbox and key, for the check that made it', () => {
    expect(Object.fromEntries(cleanupByCheck(made))).toEqual({ A: 1, B: 1 });
  });
});
