import { describe, expect, it } from 'vitest';
import * as L from './lead.ts';
import { LEAD_USER_SETTABLE_STATUSES } from '../../harness/ground/spec-model/schemas/index.ts';

const lead = (o: Partial<L.LeadState> = {}): L.LeadState => ({ deleted: false, status: 'not_contacted', email: 'a@x.test', replied: false, contacted: false, ...o });
const view = (status: string, o: Partial<L.LeadView> = {}): L.LeadView => ({ status, email: 'a@x.test', metrics: { sent: 0, replied: 0 }, lastContactedAt: null, lastRepliedAt: null, ...o });
const clauses = (s: { violations: { clause: string }[] }) => s.violations.map((v) => v.clause);

describe('lead model (3.3)', () => {
  it('classifies the statuses of 3.3', () => {
    expect(LEAD_USER_SETTABLE_STATUSES.map(L.classify).filter((c) => c === 'after-reply')).toHaveLength(8);
    expect(L.classify('lead_lost')).toBe('anytime');
    expect(L.classify('blacklisted')).toBe('anytime');
    expect(L.classify('email_sent')).toBe('platform');
    expect(L.classify('scheduled')).toBe('platform');
    expect(L.classify('lead_bogus')).toBe('unknown');
  });
  it('replied-only statuses: set after a reply, refused before', () => {
    expect(L.expectSetStatus(lead(), 'lead_converted').outcome).toBe('rejected');
    expect(L.expectSetStatus(lead({ replied: true }), 'lead_converted').outcome).toBe('set');
    expect(L.setStatus(lead(), 'lead_replied_interested', { via: 'patch', http: 400, view: view('not_contacted') }).violations).toEqual([]);
    expect(L.setStatus(lead(), 'lead_replied_interested', { via: 'patch', http: 409, view: view('not_contacted') }).violations).toEqual([]);
    expect(clauses(L.setStatus(lead(), 'lead_replied_interested', { via: 'patch', http: 200, view: view('lead_replied_interested') }))).toEqual([
      'STATE-LEAD-REPLIED-BEFORE-REPLY',
      'STATE-LEAD-REPLIED-BEFORE-REPLY',
    ]);
    const replied = lead({ replied: true, contacted: true });
    expect(L.setStatus(replied, 'lead_converted', { via: 'patch', http: 200, view: view('lead_converted', { metrics: { sent: 1, replied: 1 } }) }).violations).toEqual([]);
    expect(clauses(L.setStatus(replied, 'lead_converted', { via: 'patch', http: 400, view: view('not_contacted', { metrics: { sent: 1, replied: 1 } }) }))).toContain('STATE-LEAD-REPLIED-AFTER-REPLY');
  });
  it('lead_lost and blacklisted any time; platform statuses rejected; unknown rejected (reading)', () => {
    const s = L.setStatus(lead(), 'blacklisted', { via: 'patch', http: 200, view: view('blacklisted') });
    expect(s.violations).toEqual([]);
    expect(s.next.status).toBe('blacklisted');
    expect(clauses(L.setStatus(s.next, 'lead_lost', { via: 'patch', http: 400, view: view('blacklisted') }))).toEqual(['STATE-LEAD-LOST-ANYTIME', 'STATE-LEAD-LOST-ANYTIME']);
    expect(clauses(L.setStatus(lead(), 'email_sent', { via: 'patch', http: 200, view: view('email_sent') }))).toEqual(['STATE-LEAD-PLATFORM-REJECTED', 'STATE-LEAD-PLATFORM-REJECTED']);
    expect(L.setStatus(lead(), 'lead_bogus', { via: 'patch', http: 200, view: view('not_contacted') }).violations).toEqual([
      expect.objectContaining({ clause: 'STATE-LEAD-UNKNOWN-STATUS-REJECTED', level: 'SHOULD' }),
    ]);
  });
  it('mutate set_status: same rules; refusal may be whole (400/409) or per lead (affected 0)', () => {
    expect(L.setStatus(lead(), 'lead_lost', { via: 'mutate', http: 200, affected: 1, failed: 0, view: view('lead_lost') }).violations).toEqual([]);
    expect(clauses(L.setStatus(lead(), 'lead_lost', { via: 'mutate', http: 200, affected: 0, failed: 1, view: view('not_contacted') }))).toEqual([
      'STATE-LEAD-LOST-ANYTIME',
      'STATE-LEAD-LOST-ANYTIME',
      'STATE-LEAD-RULES-BOTH-PATHS',
    ]);
    expect(L.setStatus(lead(), 'lead_replied_wrong_person', { via: 'mutate', http: 200, affected: 0, failed: 1, view: view('not_contacted') }).violations).toEqual([]);
    expect(L.setStatus(lead(), 'scheduled', { via: 'mutate', http: 400, view: view('not_contacted') }).violations).toEqual([]);
    expect(clauses(L.setStatus(lead(), 'scheduled', { via: 'mutate', http: 200, affected: 1, failed: 0, view: view('scheduled') }))).toContain('STATE-LEAD-RULES-BOTH-PATHS');
  });
  it('reply and contact facts come from the read-back (platform-managed, not predicted)', () => {
    expect(L.facts(view('x'))).toEqual({ replied: false, contacted: false });
    expect(L.facts(view('x', { lastContactedAt: '2026-01-01T00:00:00Z' }))).toEqual({ replied: false, contacted: true });
    expect(L.facts(view('x', { metrics: { sent: 1, replied: 1 } }))).toEqual({ replied: true, contacted: true });
    const s = L.observe(lead(), view('email_sent', { metrics: { sent: 1, replied: 0 } }));
    expect(s.violations).toEqual([]);
    expect(s.next).toMatchObject({ status: 'email_sent', contacted: true, replied: false });
  });
  it('email change: before contact changed, after contact rejected', () => {
    expect(L.changeEmail(lead(), 'B@x.test', { http: 200, view: view('not_contacted', { email: 'b@x.test' }) }).violations).toEqual([]);
    expect(clauses(L.changeEmail(lead(), 'b@x.test', { http: 400, view: view('not_contacted') }))).toEqual(['STATE-LEAD-EMAIL-CHANGE-UNCONTACTED']);
    const c = lead({ contacted: true });
    expect(L.changeEmail(c, 'b@x.test', { http: 409, view: view('email_sent') }).violations).toEqual([]);
    expect(clauses(L.changeEmail(c, 'b@x.test', { http: 200, view: view('email_sent', { email: 'b@x.test' }) }))).toEqual([
      'STATE-LEAD-EMAIL-CHANGE-CONTACTED',
      'STATE-LEAD-EMAIL-CHANGE-CONTACTED',
    ]);
  });
  it('delete: retentionDays, then hidden and 404 (reading)', () => {
    const d = L.remove(lead(), { http: 200, retentionDays: 30, view: undefined });
    expect(d.violations).toEqual([]);
    expect(d.next.deleted).toBe(true);
    expect(clauses(L.remove(lead(), { http: 200, retentionDays: '30', view: undefined }))).toEqual(['STATE-LEAD-DELETE-RETENTION']);
    expect(L.remove(lead(), { http: 200, retentionDays: 0, view: view('not_contacted') }).violations).toEqual([expect.objectContaining({ level: 'SHOULD', clause: 'STATE-LEAD-DELETE-HIDDEN' })]);
    expect(L.setStatus(d.next, 'lead_lost', { via: 'patch', http: 404, view: undefined }).violations).toEqual([]);
    expect(clauses(L.setStatus(d.next, 'lead_lost', { via: 'patch', http: 200, view: undefined }))).toEqual(['STATE-LEAD-DELETE-HIDDEN']);
    expect(clauses(L.remove(d.next, { http: 200, retentionDays: 1, view: undefined }))).toEqual(['STATE-LEAD-DELETE-HIDDEN']);
    // a status that may never be set: refusing the request before looking the lead up is fine
    expect(L.setStatus(d.next, 'not_contacted', { via: 'mutate', http: 400, view: undefined }).violations).toEqual([]);
    expect(L.setStatus(d.next, 'email_sent', { via: 'patch', http: 400, view: undefined }).violations).toEqual([]);
    expect(clauses(L.setStatus(d.next, 'lead_lost', { via: 'patch', http: 400, view: undefined }))).toEqual(['STATE-LEAD-DELETE-HIDDEN']);
    // mutate reports a lead it cannot find as failed, with a 2xx answer
    expect(L.setStatus(d.next, 'lead_lost', { via: 'mutate', http: 200, affected: 0, failed: 1, view: undefined }).violations).toEqual([]);
    expect(clauses(L.setStatus(d.next, 'lead_lost', { via: 'mutate', http: 200, affected: 1, failed: 0, view: undefined }))).toEqual(['STATE-LEAD-DELETE-HIDDEN']);
  });
});
