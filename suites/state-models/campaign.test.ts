import { describe, expect, it } from 'vitest';
import * as C from './campaign.ts';

const world = (status: C.CampaignStatus, o: { leads?: boolean; seq?: boolean; mine?: number; exclusive?: boolean } = {}): C.CampaignWorld => ({
  campaign: { status, hasLeads: o.leads ?? true, hasSequence: o.seq ?? true },
  mailboxes: { mine: o.mine ?? 0, exclusive: o.exclusive ?? true },
});
const clauses = (s: { violations: { clause: string }[] }) => s.violations.map((v) => v.clause);
const okCreate = { http: 201, bodyStatus: 'draft', launched: false, launchError: null, leadsCreated: 0, readBack: 'draft', readHttp: 200 };

describe('campaign model (3.1)', () => {
  it('create without launch: draft, launched false', () => {
    const s = C.create(C.initialWorld(true), { leads: 0, steps: 1, launch: false }, okCreate);
    expect(s.violations).toEqual([]);
    expect(s.next.campaign).toEqual({ status: 'draft', hasLeads: false, hasSequence: true });
    expect(clauses(C.create(C.initialWorld(true), { leads: 0, steps: 1, launch: false }, { ...okCreate, readBack: 'active' }))).toContain('STATE-CAMP-CREATE-DRAFT');
    const s2 = C.create(C.initialWorld(true), { leads: 0, steps: 0, launch: false }, { ...okCreate, launched: undefined });
    expect(s2.violations).toEqual([expect.objectContaining({ clause: 'STATE-CAMP-CREATE-NO-LAUNCH', level: 'SHOULD' })]);
  });
  it('create with launch that cannot launch: exists, launched false, launchError, draft', () => {
    const input = { leads: 0, steps: 1, launch: true };
    expect(C.create(C.initialWorld(true), input, { ...okCreate, launchError: 'The campaign has no leads.' }).violations).toEqual([]);
    expect(clauses(C.create(C.initialWorld(true), input, { ...okCreate, launchError: null }))).toEqual(['STATE-CAMP-CREATE-LAUNCH-FAIL-REASON']);
    expect(clauses(C.create(C.initialWorld(true), input, { ...okCreate, launched: true, launchError: 'x', readBack: 'active' }))).toEqual(
      expect.arrayContaining(['STATE-CAMP-CREATE-LAUNCH-FAIL-FLAG', 'STATE-CAMP-CREATE-DRAFT']),
    );
    expect(clauses(C.create(C.initialWorld(true), input, { ...okCreate, launchError: 'x', readHttp: 404, readBack: undefined }))).toEqual(['STATE-CAMP-CREATE-LAUNCH-FAIL-EXISTS']);
  });
  it('create with launch that can launch: either outcome, consequences checked', () => {
    const input = { leads: 2, steps: 1, launch: true };
    const launched = C.create(C.initialWorld(true), input, { ...okCreate, leadsCreated: 2, launched: true, readBack: 'active' });
    expect(launched.violations).toEqual([]);
    expect(launched.next.campaign?.status).toBe('active');
    expect(C.create(C.initialWorld(true), input, { ...okCreate, leadsCreated: 2, launched: false, launchError: 'no mailbox' }).violations).toEqual([]);
    expect(C.create(C.initialWorld(true), input, { ...okCreate, leadsCreated: 2, launched: true, readBack: 'draft' }).violations).toEqual([
      expect.objectContaining({ clause: 'STATE-CAMP-CREATE-LAUNCH-OK', level: 'SHOULD' }),
    ]);
  });
  it('start needs leads and a sequence: else 400 from draft, 400 or 409 where startability is not shown', () => {
    for (const st of ['draft', 'active', 'paused', 'completed'] as const) {
      expect(clauses(C.start(world(st, { leads: false }), { http: 200, bodyStatus: 'active', readBack: 'active' }))).toContain('STATE-CAMP-START-REQUIRES-LEADS');
      expect(clauses(C.start(world(st, { seq: false }), { http: 422, bodyStatus: undefined, readBack: st }))).toContain('STATE-CAMP-START-REQUIRES-SEQUENCE');
      expect(C.start(world(st, { seq: false }), { http: 400, bodyStatus: undefined, readBack: st }).violations).toEqual([]);
    }
    expect(clauses(C.start(world('draft', { seq: false }), { http: 409, bodyStatus: undefined, readBack: 'draft' }))).toContain('STATE-CAMP-START-REQUIRES-SEQUENCE');
    expect(C.start(world('active', { seq: false }), { http: 409, bodyStatus: undefined, readBack: 'active' }).violations).toEqual([]);
    expect(C.start(world('draft', { leads: false }), { http: 400, bodyStatus: undefined, readBack: 'paused' }).violations).toEqual([
      expect.objectContaining({ clause: 'STATE-CAMP-START-NO-STATE-CHANGE-ON-400', level: 'SHOULD' }),
    ]);
  });
  it('start of a draft with leads and a sequence: sending begins, status reported', () => {
    const ok = C.start(world('draft'), { http: 200, bodyStatus: 'scheduled', readBack: 'scheduled' });
    expect(ok.violations).toEqual([]);
    expect(ok.next.campaign?.status).toBe('scheduled');
    expect(clauses(C.start(world('draft'), { http: 200, bodyStatus: 'active', readBack: 'scheduled' }))).toEqual(['STATE-CAMP-START-STATUS-REPORTED']);
    expect(clauses(C.start(world('draft'), { http: 200, bodyStatus: 'draft', readBack: 'draft' }))).toEqual(['STATE-CAMP-START-BEGINS']);
    expect(C.start(world('draft'), { http: 400, bodyStatus: undefined, readBack: 'draft' }).violations).toEqual([expect.objectContaining({ level: 'SHOULD', clause: 'STATE-CAMP-START-FROM-DRAFT' })]);
  });
  it('start from other states: not shown, any answer, observed status adopted', () => {
    for (const st of ['active', 'paused', 'stopped', 'completed', 'failed', 'scheduled'] as const) {
      const refused = C.start(world(st), { http: 400, bodyStatus: undefined, readBack: st });
      expect(refused.violations).toEqual([]);
      const ok = C.start(world(st), { http: 200, bodyStatus: 'active', readBack: 'active' });
      expect(ok.violations).toEqual([]);
      expect(ok.next.campaign?.status).toBe('active');
    }
  });
  it('resume: 400 without a mailbox, continues from paused with one (even one that cannot send)', () => {
    expect(clauses(C.resume(world('paused', { mine: 0 }), { http: 200, bodyStatus: 'active', readBack: 'active' }))).toEqual(['STATE-CAMP-RESUME-NEEDS-MAILBOX']);
    expect(clauses(C.resume(world('paused', { mine: 0 }), { http: 409, bodyStatus: undefined, readBack: 'paused' }))).toEqual(['STATE-CAMP-RESUME-NEEDS-MAILBOX']);
    // resume is defined only from paused: elsewhere a 409 conflict is as right as the 400
    for (const st of ['draft', 'active'] as const) {
      expect(C.resume(world(st, { mine: 0 }), { http: 409, bodyStatus: undefined, readBack: st }).violations).toEqual([]);
      expect(C.resume(world(st, { mine: 0 }), { http: 400, bodyStatus: undefined, readBack: st }).violations).toEqual([]);
      expect(clauses(C.resume(world(st, { mine: 0 }), { http: 200, bodyStatus: 'active', readBack: 'active' }))).toEqual(['STATE-CAMP-RESUME-NEEDS-MAILBOX']);
    }
    expect(C.resume(world('paused', { mine: 0 }), { http: 400, bodyStatus: undefined, readBack: 'paused' }).violations).toEqual([]);
    expect(C.resume(world('paused', { mine: 1 }), { http: 200, bodyStatus: 'active', readBack: 'active' }).violations).toEqual([]);
    expect(clauses(C.resume(world('paused', { mine: 1 }), { http: 400, bodyStatus: undefined, readBack: 'paused' }))).toEqual(['STATE-CAMP-RESUME-FROM-PAUSED']);
    expect(clauses(C.resume(world('paused', { mine: 1 }), { http: 200, bodyStatus: 'paused', readBack: 'paused' }))).toEqual(['STATE-CAMP-RESUME-FROM-PAUSED']);
    // from any other state with a mailbox: not shown
    expect(C.resume(world('draft', { mine: 1 }), { http: 400, bodyStatus: undefined, readBack: 'draft' }).violations).toEqual([]);
  });
  it('mailbox knowledge: unknown in a shared workspace until one of ours exists', () => {
    expect(C.workspaceHasMailbox({ mine: 0, exclusive: false })).toBeUndefined();
    expect(C.workspaceHasMailbox({ mine: 0, exclusive: true })).toBe(false);
    expect(C.workspaceHasMailbox({ mine: 1, exclusive: false })).toBe(true);
    const shared = world('paused', { mine: 0, exclusive: false });
    expect(C.resume(shared, { http: 400, bodyStatus: undefined, readBack: 'paused' }).violations).toEqual([]);
    expect(C.resume(shared, { http: 200, bodyStatus: 'active', readBack: 'active' }).violations).toEqual([]);
    let w = C.mailboxCreated(C.initialWorld(true), 201);
    expect(w.mailboxes.mine).toBe(1);
    w = C.mailboxDeleted(w, 404);
    expect(w.mailboxes.mine).toBe(1);
    expect(C.mailboxDeleted(w, 200).mailboxes.mine).toBe(0);
  });
  it('pause, patch, add leads: not shown transitions adopt the observed status but it must be a state', () => {
    const p = C.pause(world('active'), { http: 200, bodyStatus: 'paused', readBack: 'paused' });
    expect(p.violations).toEqual([]);
    expect(p.next.campaign?.status).toBe('paused');
    expect(clauses(C.pause(world('active'), { http: 200, bodyStatus: 'x', readBack: 'halted' }))).toEqual(['STATE-CAMP-STATES']);
    expect(C.patch(world('draft'), { http: 200, sequenceSteps: 0, readBack: 'draft' }).next.campaign?.hasSequence).toBe(false);
    expect(C.patch(world('draft', { seq: false }), { http: 400, sequenceSteps: 2, readBack: 'draft' }).next.campaign?.hasSequence).toBe(false);
    expect(C.addLeads(world('draft', { leads: false }), { http: 201, created: 2, requested: 2, readBack: 'draft' }).next.campaign?.hasLeads).toBe(true);
    expect(C.addLeads(world('draft', { leads: false }), { http: 201, created: 0, requested: 2, readBack: 'draft' }).next.campaign?.hasLeads).toBe(false);
  });
});
