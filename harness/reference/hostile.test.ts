import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Env } from './reference.test-helper.ts';

// Hostile bodies the kit's ROBUST-HOSTILE checks send: a free-form value nested thousands of
// levels deep is refused in the envelope before anything stores or serializes it.
describe('deeply nested bodies', () => {
  let e: Env;
  beforeAll(async () => {
    e = await Env.start();
  });
  afterAll(() => e.stop());

  it('a lead PATCH with customFields nested 10,000 levels answers 400 validation_failed, and the lead still reads', async () => {
    const w = await e.workspace();
    const c = await e.campaign(w, { leads: ['deep@leads.test'] });
    const leads = await e.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`);
    const id = leads.body.data[0].id;
    const r = await e.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${id}`, { raw: `{"customFields":{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}}` });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('validation_failed');
    const after = await e.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`);
    expect(after.status).toBe(200);
    expect(after.body.data[0].customFields).toEqual({});
  });
});
