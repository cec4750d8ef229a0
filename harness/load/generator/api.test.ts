import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceHandle } from '../../reference/index.ts';
import { loadProfile } from '../../ground/profile.ts';
import { Redactor } from '../../client/redact.ts';
import { runApiLoad } from './api.ts';
import { Watch } from './watch.ts';
import { decode } from '../report/histogram.ts';
import type { Profile } from '../../ground/profile-schema.ts';

// The API load against the reference: a clean target gives no violation; mutants that break a
// rule the load watches are caught while it runs. Behaviour only: timing is the benchmark's job.

const refs: ReferenceHandle[] = [];
let profile: Profile;
beforeAll(async () => {
  profile = await loadProfile();
});
afterAll(async () => {
  await Promise.all(refs.map((r) => r.stop()));
});

async function load(mutants: string[], rate: number, durationMs: number) {
  const ref = await startReference({ mutants, log: () => {} });
  refs.push(ref);
  const redactor = new Redactor();
  return runApiLoad({ profile, baseUrl: ref.baseUrl, control: { baseUrl: ref.controlUrl, token: ref.controlToken }, rate, durationMs, seed: 7, redactor, prefix: 'lt-' });
}

describe('load api against the reference', () => {
  it('a clean target: every flow of the mix runs, every answer conforms, the histograms hold every request', async () => {
    const r = await load([], 40, 3000);
    expect(r.violations).toEqual([]);
    expect(r.totals.sent).toBe(120);
    expect(r.totals.completed).toBe(120);
    expect(r.totals.errors).toBe(0);
    expect(decode(r.totals.corrected).totalCount).toBe(120);
    expect(r.endpoints.reduce((a, e) => a + e.count, 0)).toBe(120);
    expect(Object.keys(r.flows).sort()).toEqual(Object.keys(r.plan.mix).sort());
    expect(r.plan.workspaces).toBeGreaterThanOrEqual(2);
    expect(r.timeline.length).toBeGreaterThanOrEqual(3);
    expect(r.timeline.reduce((a, p) => a + p.achieved, 0)).toBe(120);
  });

  it('a target whose rate limit is global (not per workspace) shows unplanned 429s', async () => {
    const r = await load(['rate-global'], 50, 4000);
    expect(r.violationCounts?.['unplanned 429']).toBeGreaterThan(0);
    const v = r.violations.find((x) => x.rule === 'unplanned 429')!;
    expect(v.clauses).toContain('RATE-120-PER-60S');
    expect(v.response?.status).toBe(429);
  });
});

describe('conformance under load (Watch)', () => {
  const req = { method: 'GET' as const, path: '/v1/campaigns/x/status', label: 'GET /v1/campaigns/{id}/status', schema: 'CampaignStatusView' };
  const envelope = (status: number, code: string, type = 'invalid_request_error') => JSON.stringify({ error: { type, code, message: 'm', status, requestId: '2b0f3f3e-7c1e-4f57-9a39-1d2f0e0b6c11' } });

  it('flags a 5xx, an error without the envelope, an unplanned 429 and a 2xx that breaks the schema', () => {
    const w = new Watch(new Redactor());
    expect(w.check(req, { status: 500, text: '{}', at: 1 })).toBe(false);
    expect(w.check(req, { status: 404, text: '{"message":"nope"}', at: 2 })).toBe(false);
    expect(w.check(req, { status: 429, text: envelope(429, 'rate_limited', 'rate_limit_error'), at: 3 })).toBe(false);
    expect(w.check(req, { status: 200, text: '{"id":"not-a-uuid"}', at: 4 })).toBe(false);
    expect(w.check(req, { status: 0, text: '', at: 5, error: 'ECONNRESET' })).toBe(false);
    expect(Object.keys(w.counts).sort()).toEqual(['answer', 'error envelope', 'no 5xx', 'schema', 'unplanned 429', 'valid request refused']);
  });

  it('a conforming error still counts as a refused valid request, but not as an envelope fault', () => {
    const w = new Watch(new Redactor());
    w.check(req, { status: 404, text: envelope(404, 'not_found'), at: 1 });
    expect(w.counts).toEqual({ 'valid request refused': 1 });
  });

  it('redacts secrets in the evidence and keeps evidence bounded', () => {
    const redactor = new Redactor();
    redactor.add('sk_live_canary_123456');
    const w = new Watch(redactor);
    for (let i = 0; i < 50; i++) w.check(req, { status: 503, text: '{"leak":"sk_live_canary_123456"}', at: i });
    expect(w.counts['no 5xx']).toBe(50);
    expect(w.violations.length).toBeLessThanOrEqual(20);
    expect(JSON.stringify(w.violations)).not.toContain('sk_live_canary_123456');
  });
});
