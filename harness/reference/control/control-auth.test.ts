// The control API's door, walked from its own route table (CONTROL_ROUTES), so a route added
// later is covered without touching this file: every route refuses a missing or wrong token
// with 401 in the spec's envelope, and no control route is served on the public port.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_ROUTES } from './control.ts';
import { Env, envelopeProblems, type Res, type Workspace } from '../reference.test-helper.ts';

let env: Env;
let ws: Workspace;
beforeAll(async () => {
  env = await Env.start();
  ws = await env.workspace();
});
afterAll(() => env?.stop());

/** A concrete path for a route template: each `{param}` becomes a fresh uuid. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, () => randomUUID());
const label = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

async function raw(url: string, method: string, auth: string | null, body?: string): Promise<Res> {
  const headers: Record<string, string> = {};
  if (auth !== null) headers.authorization = auth;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(url, { method, headers, body });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: r.status, headers: r.headers, body: parsed, text };
}

describe('control API: every route needs the control token', () => {
  it('the route table is the one served (a listed route answers with the token)', async () => {
    expect(CONTROL_ROUTES.length).toBeGreaterThanOrEqual(15);
    for (const r of CONTROL_ROUTES) {
      const res = await env.ctl(r.method, concrete(r.path), r.method === 'GET' ? undefined : {});
      expect(res.status, label(r)).not.toBe(401);
      expect(res.body?.error?.message ?? '', label(r)).not.toMatch(/^No control route/);
    }
  });

  it('missing, empty, malformed and wrong tokens answer 401 unauthenticated in the envelope', async () => {
    const token = env.ref.controlToken;
    const sameLength = token.replace(/./g, (c) => (c === 'x' ? 'y' : 'x'));
    const credentials: [string, string | null][] = [
      ['missing', null],
      ['empty', ''],
      ['scheme only', 'Bearer'],
      ['wrong, same length', `Bearer ${sameLength}`],
      ['wrong, longer', `Bearer ${token}x`],
      ['truncated', `Bearer ${token.slice(0, -1)}`],
      ['bare token', token],
      ['other scheme', `Basic ${token}`],
      ['two tokens', `Bearer ${token} ${token}`],
      ['an API key of the public port', `Bearer ${ws.key}`],
    ];
    for (const r of CONTROL_ROUTES) {
      for (const [name, auth] of credentials) {
        const res = await raw(env.ref.controlUrl + concrete(r.path), r.method, auth, r.method === 'GET' ? undefined : '{"seconds":1}');
        expect(res.status, `${label(r)} with ${name}`).toBe(401);
        expect(res.body.error, `${label(r)} with ${name}`).toMatchObject({ type: 'authentication_error', code: 'unauthenticated', status: 401 });
        expect(envelopeProblems(res), `${label(r)} with ${name}`).toEqual([]);
      }
    }
  });

  it('a refused request has no effect (the clock did not move)', async () => {
    const before = (await env.ctl('GET', '/clock')).body.now;
    expect((await raw(`${env.ref.controlUrl}/clock/advance`, 'POST', 'Bearer nope', '{"seconds":86400}')).status).toBe(401);
    expect((await env.ctl('GET', '/clock')).body.now.slice(0, 13)).toBe(before.slice(0, 13));
  });
});

describe('the public port never serves the control API', () => {
  it('every control path answers as an unknown public path, whatever the credential', async () => {
    const unknownPath = `/no-such-path-${randomUUID()}`;
    for (const auth of [null, `Bearer ${env.ref.controlToken}`, `Bearer ${ws.key}`]) {
      const unknown = await raw(env.ref.baseUrl + unknownPath, 'GET', auth);
      expect(unknown.status).toBe(404);
      for (const r of CONTROL_ROUTES) {
        const path = concrete(r.path);
        const res = await raw(env.ref.baseUrl + path, r.method, auth, r.method === 'GET' ? undefined : '{}');
        const what = `${label(r)} on the public port with ${auth === null ? 'no credential' : auth.includes(ws.key) ? 'an API key' : 'the control token'}`;
        expect(res.status, what).toBe(unknown.status);
        expect(res.body.error, what).toMatchObject({ type: unknown.body.error.type, code: unknown.body.error.code });
        expect(res.body.error.message, what).toMatch(/^No route for /);
        expect(envelopeProblems(res), what).toEqual([]);
      }
    }
  });
});
