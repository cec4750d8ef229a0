import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../harness/ground/api-client.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../../harness/ground/profile.ts';
import type { Profile } from '../../harness/ground/profile-schema.ts';
import { ENDPOINTS } from '../../harness/ground/spec-model/endpoints.ts';
import { z } from 'zod';
import { fail, type CheckFailure } from '../../harness/ground/check.ts';
import { failureKey } from '../../harness/ground/failure.ts';
import { envelopeProblems, expectError, expectSchema, expectStatus, expectThat, msg } from './expect.ts';
import { placeholderRequest } from './requests.ts';

// A failure message names the profile values the check read (harness/runner/profile-reads.ts):
// the business-rule code bears on a 400 alone, so a broken 401, 403 or 404 must not read it.

const reference = await loadProfile(DEFAULT_PROFILE_PATH);

/** The profile with its names recording what is read of them. */
function watched(): { profile: Profile; read: string[] } {
  const read: string[] = [];
  const names = new Proxy(reference.names, { get: (t, k, r) => (typeof k === 'string' && read.push(k), Reflect.get(t, k, r)) });
  return { profile: { ...reference, names }, read };
}

const broken = (status: number): ApiResponse => ({ status, headers: { 'content-type': 'application/json' }, body: { message: 'no' }, text: '{"message":"no"}', exchangeId: 'x', durationMs: 1 });

describe('the profile fields a failure rests on', () => {
  it('a broken 401, 403 or 404 envelope reads no business-rule code; a 400 does', () => {
    for (const status of [401, 403, 404]) {
      const { profile, read } = watched();
      expect(envelopeProblems(broken(status), profile).length).toBeGreaterThan(0);
      expect(read, `HTTP ${status}`).not.toContain('businessRuleErrorCode');
    }
    const { profile, read } = watched();
    envelopeProblems(broken(400), profile);
    expect(read).toContain('businessRuleErrorCode');
  });

  it("a placeholder request reads the business-rule code only for the route it explains (a campaign's resume)", () => {
    for (const ep of ENDPOINTS) {
      const { profile, read } = watched();
      placeholderRequest(ep, profile);
      expect(read.includes('businessRuleErrorCode'), ep.id).toBe(ep.id === 'campaigns.resume');
    }
  });
});

describe('failures as data: the shaped assertions throw their kind and fields', () => {
  const thrown = (f: () => void) => {
    try {
      f();
    } catch (e) {
      return e as CheckFailure;
    }
    throw new Error('no failure thrown');
  };
  const answer = (status: number, body: unknown, text = JSON.stringify(body)): ApiResponse => ({ status, headers: { 'content-type': 'application/json' }, body, text, exchangeId: 'x', durationMs: 1 });

  it('a status: expected and got, never the endpoint the message names', () => {
    const a = thrown(() => expectStatus(answer(403, {}), 401, 'GET /v1/campaigns/abc'));
    const b = thrown(() => expectStatus(answer(403, {}), 401, 'DELETE /v1/leads/xyz'));
    expect(a.typed).toEqual({ kind: 'status', fields: { expected: 401, got: 403 } });
    expect(failureKey(a.typed!)).toBe(failureKey(b.typed!));
    expect(a.message).toContain('GET /v1/campaigns/abc');
  });

  it("an envelope: the status and the problems, without the body text a non-JSON answer quotes", () => {
    const a = thrown(() => expectError({ ...answer(404, undefined, 'Cannot GET /v1/x/123'), headers: { 'content-type': 'text/html' } }, 404, reference, 'x'));
    const b = thrown(() => expectError({ ...answer(404, undefined, 'Cannot GET /v1/y/456'), headers: { 'content-type': 'text/html' } }, 404, reference, 'y'));
    expect(a.typed?.kind).toBe('envelope');
    expect(a.typed?.fields.problems).toEqual(['body is not JSON (text/html)']);
    expect(failureKey(a.typed!)).toBe(failureKey(b.typed!));
  });

  it('an error code: the status, the code expected and the code got', () => {
    const body = { error: { type: 'invalid_request_error', code: 'not_found', message: 'm', status: 404, requestId: '00000000-0000-4000-8000-000000000000' } };
    const e = thrown(() => expectError(answer(404, body), 404, reference, 'x', 'gone'));
    expect(e.typed).toEqual({ kind: 'error-code', fields: { status: 404, expected: 'gone', got: 'not_found' } });
  });

  it('a schema: its issues with array positions as *, so one broken field of a list is one cause', () => {
    const schema = z.object({ data: z.array(z.object({ id: z.string() })) });
    const a = thrown(() => expectSchema(answer(200, { data: [{ id: 'a' }, { id: 3 }] }), schema, 'x'));
    const b = thrown(() => expectSchema(answer(200, { data: [{ id: 7 }] }), schema, 'y'));
    expect(a.typed?.fields.issues).toEqual(['data.*.id: Invalid input: expected string, received number']);
    expect(failureKey(a.typed!)).toBe(failureKey(b.typed!));
  });

  it('a message written msg`...`: its template is the cause, whatever values fill it', () => {
    const a = thrown(() => expectThat(false, msg`${'GET /v1/campaigns/abc'}: sent must be ${3}, got ${2}`));
    const b = thrown(() => expectThat(false, msg`${'GET /v1/leads/xyz'}: sent must be ${5}, got ${0}`));
    expect(a.message).toBe('GET /v1/campaigns/abc: sent must be 3, got 2');
    expect(a.typed).toEqual({ kind: 'value', fields: { rule: '…: sent must be …, got …' } });
    expect(failureKey(a.typed!)).toBe(failureKey(b.typed!));
    expect(failureKey(thrown(() => fail(msg`another rule ${1}`)).typed!)).not.toBe(failureKey(a.typed!));
  });

  it('a message built any other way stays prose', () => {
    const rule = 'some rule';
    expect(thrown(() => expectThat(false, rule)).typed).toBeUndefined();
  });
});
