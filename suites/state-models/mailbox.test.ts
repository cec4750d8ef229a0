import { describe, expect, it } from 'vitest';
import * as M from './mailbox.ts';

const st = (status: M.MailboxStatus, o: Partial<M.MailboxState> = {}): M.MailboxState => ({ removed: false, status, settled: true, held: false, ...o });
const obs = (http: number, readBack: unknown, bodyStatus?: unknown, readHttp = 200): M.Obs => ({ http, readBack, bodyStatus, readHttp });
const clauses = (s: { violations: { clause: string }[] }) => s.violations.map((v) => v.clause);

describe('mailbox model (3.2)', () => {
  it('a new mailbox answers inactive; the read-back may already show a verification outcome', () => {
    const s = M.created(obs(201, 'checking', 'inactive'));
    expect(s.violations).toEqual([]);
    expect(s.next).toEqual({ removed: false, status: 'checking', settled: false, held: false });
    expect(clauses(M.created(obs(201, 'active', 'active')))).toEqual(['STATE-ACCT-CREATE-INACTIVE']);
    expect(clauses(M.created(obs(201, 'bogus', 'inactive')))).toEqual(['STATE-ACCT-STATES']);
  });
  it('pause: 400 unless active once settled; success leads to inactive and holds it there', () => {
    expect(M.expectPause(st('active'))).toBe('pauses');
    for (const s of ['inactive', 'checking', 'failed', 'revoked'] as const) {
      expect(M.expectPause(st(s))).toBe('refused');
      expect(clauses(M.pause(st(s), obs(200, 'inactive', 'inactive')))).toContain('STATE-ACCT-PAUSE-ACTIVE-ONLY');
      expect(M.pause(st(s), obs(400, s)).violations).toEqual([]);
    }
    const p = M.pause(st('active'), obs(200, 'inactive', 'inactive'));
    expect(p.violations).toEqual([]);
    expect(p.next).toEqual({ removed: false, status: 'inactive', settled: true, held: true });
    expect(clauses(M.pause(st('active'), obs(200, 'active', 'active')))).toEqual(['STATE-ACCT-PAUSE-INACTIVE', 'STATE-ACCT-PAUSE-INACTIVE']);
    expect(clauses(M.pause(st('active'), obs(400, 'active')))).toEqual(['STATE-ACCT-PAUSE-ACTIVE-ONLY']);
  });
  it('pause while verification may run: 200 or 400, never anything else; success must read inactive', () => {
    const u = st('inactive', { settled: false });
    expect(M.expectPause(u)).toBe('either');
    expect(M.pause(u, obs(400, 'failed')).violations).toEqual([]);
    expect(M.pause(u, obs(200, 'inactive', 'inactive')).violations).toEqual([]);
    expect(clauses(M.pause(u, obs(409, 'inactive')))).toEqual(['STATE-ACCT-PAUSE-ACTIVE-ONLY']);
    expect(clauses(M.pause(u, obs(200, 'checking')))).toEqual(['STATE-ACCT-PAUSE-INACTIVE']);
  });
  it('held: nothing but a resume re-activates a paused mailbox', () => {
    const held = st('inactive', { held: true });
    expect(M.drained(held, obs(200, 'inactive')).violations).toEqual([]);
    expect(clauses(M.drained(held, obs(200, 'active')))).toEqual(['STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE']);
    expect(clauses(M.observe(held, obs(200, 'active')))).toEqual(['STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE']);
    expect(M.observe(held, obs(200, 'failed')).violations).toEqual([]);
    expect(clauses(M.patchOther(held, obs(200, 'active')))).toContain('STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE');
    const r = M.resume(held, obs(200, 'checking', 'checking'));
    expect(r.violations).toEqual([]);
    expect(r.next.held).toBe(false);
    expect(M.drained(r.next, obs(200, 'active')).violations).toEqual([]);
  });
  it('resume: inactive or failed -> checking; other states not shown', () => {
    expect(M.resume(st('failed'), obs(200, 'checking', 'checking')).violations).toEqual([]);
    expect(clauses(M.resume(st('failed'), obs(400, 'failed')))).toEqual(['STATE-ACCT-RESUME-FAILED-RECHECK']);
    expect(clauses(M.resume(st('inactive'), obs(400, 'inactive')))).toEqual(['STATE-ACCT-RESUME-CHECKING']);
    expect(clauses(M.resume(st('inactive'), obs(200, 'active', 'active')))).toEqual(['STATE-ACCT-RESUME-CHECKING']);
    // read-back after a resume: verification may already be over (any state)
    expect(M.resume(st('inactive'), obs(200, 'failed', 'checking')).violations).toEqual([]);
    // an answer that is not a mailbox (shape not shown): only the read-back counts
    expect(M.resume(st('inactive'), obs(204, 'checking')).violations).toEqual([]);
    for (const s of ['active', 'checking', 'revoked'] as const) {
      expect(M.resume(st(s), obs(400, s)).violations).toEqual([]);
      expect(M.resume(st(s), obs(200, 'checking', 'checking')).violations).toEqual([]);
    }
    expect(M.resume(st('inactive'), obs(200, 'checking')).next.settled).toBe(false);
  });
  it('credential PATCH re-verifies (any state after, unsettled); other PATCH keeps the status (reading)', () => {
    const p = M.patchCredentials(st('active'), obs(200, 'checking', 'checking'));
    expect(p.violations).toEqual([]);
    expect(p.next).toMatchObject({ removed: false, status: 'checking', settled: false, held: false });
    expect(clauses(M.patchCredentials(st('active'), obs(400, 'active')))).toEqual(['STATE-ACCT-PATCH-CREDS-ROTATE']);
    expect(M.patchOther(st('active'), obs(200, 'checking')).violations).toEqual([expect.objectContaining({ level: 'SHOULD', clause: 'STATE-ACCT-PATCH-NO-CREDS-NO-REVERIFY' })]);
    expect(M.patchOther(st('active', { settled: false }), obs(200, 'failed')).violations).toEqual([]);
  });
  it('drain settles whatever the verification gave (mapping not shown)', () => {
    for (const s of ['active', 'inactive', 'checking', 'revoked', 'failed'] as const) {
      const d = M.drained(st('checking', { settled: false }), obs(200, s));
      expect(d.violations).toEqual([]);
      expect(d.next).toMatchObject({ status: s, settled: true });
    }
  });
  it('delete removes: later reads and writes answer 404', () => {
    const d = M.remove(st('failed'), obs(200, undefined, undefined, 404));
    expect(d.violations).toEqual([]);
    expect(d.next.removed).toBe(true);
    expect(clauses(M.remove(st('failed'), obs(200, 'failed', undefined, 200)))).toEqual(['STATE-ACCT-DELETE-REMOVED']);
    const gone = d.next;
    expect(M.expectPause(gone)).toBe('gone');
    expect(M.pause(gone, obs(404, undefined, undefined, 404)).violations).toEqual([]);
    expect(clauses(M.pause(gone, obs(400, undefined, undefined, 404)))).toEqual(['STATE-ACCT-DELETE-REMOVED']);
    expect(clauses(M.resume(gone, obs(200, undefined, undefined, 404)))).toEqual(['STATE-ACCT-DELETE-REMOVED']);
    expect(clauses(M.patchCredentials(gone, obs(200, undefined, undefined, 404)))).toEqual(['STATE-ACCT-DELETE-REMOVED']);
    expect(clauses(M.remove(gone, obs(200, undefined, undefined, 404)))).toEqual(['STATE-ACCT-DELETE-REMOVED']);
    expect(M.remove(gone, obs(404, undefined, undefined, 404)).violations).toEqual([]);
  });
  it('OAuth: a withdrawn grant gives revoked, which stays until a reconnection', () => {
    const c = M.connectedByOAuth(obs(200, 'active'));
    expect(c.violations).toEqual([]);
    const r = M.grantWithdrawn(c.next, obs(200, 'revoked'));
    expect(r.violations).toEqual([]);
    expect(r.next).toMatchObject({ status: 'revoked', settled: true, revokedHold: true });
    expect(clauses(M.grantWithdrawn(c.next, obs(200, 'active')))).toEqual(['STATE-ACCT-OAUTH-REVOKED']);
    expect(clauses(M.drained(r.next, obs(200, 'active')))).toEqual(['STATE-ACCT-REVOKED-RECONNECT']);
    expect(M.drained(r.next, obs(200, 'revoked')).violations).toEqual([]);
    expect(M.expectPause(r.next)).toBe('refused');
    expect(M.pause(r.next, obs(400, 'revoked')).violations).toEqual([]);
    // a paused OAuth mailbox is revoked too
    expect(M.grantWithdrawn(st('inactive', { held: true }), obs(200, 'revoked')).violations).toEqual([]);
    // a resume ends the hold (whether it reconnects is not shown)
    expect(M.resume(r.next, obs(200, 'active')).violations).toEqual([]);
  });
});
