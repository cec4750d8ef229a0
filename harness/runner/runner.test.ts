import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runner } from './runner.ts';
import { DEFAULT_PROFILE_PATH, loadProfile, parseProfile } from './profile.ts';
import { startServer, json, type TestServer } from '../client/server.test-helper.ts';
import { fail, type Check } from '../ground/check.ts';
import type { RunEvent } from '../ground/events.ts';

// The runner's guarantees about a check's result, against a plain HTTP server.

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_r, res) => json(res, 200, { ok: true }));
});
afterAll(() => server.close());

async function runner() {
  const reference = await loadProfile(DEFAULT_PROFILE_PATH);
  const profile = parseProfile({ ...reference, embedded: false, baseUrl: server.url, workspaces: [{ apiKey: 'key-aaaaaaaa' }, { apiKey: 'key-bbbbbbbb' }] });
  const events: RunEvent[] = [];
  const r = new Runner({ profile, baseUrl: server.url, depth: 'quick', sink: { emit: (e) => events.push(e) }, prefix: 'oct-', seed: 1 });
  return { r, events };
}

const check = (id: string, run: Check['run']): Check => ({ id, title: 't', clauses: ['ERR-ENVELOPE'], level: 'MUST', features: [], budget: 4, run });

describe('runner', () => {
  it('gives a failure that named no exchange the check\'s latest exchanges as evidence', async () => {
    const { r, events } = await runner();
    const end = await r.runCheck(
      check('T-NO-EVIDENCE', async (ctx) => {
        for (let i = 0; i < 5; i++) await ctx.anonymous.get(`/v1/x${i}`);
        fail('something was wrong');
      }),
    );
    expect(end.verdict).toBe('fail');
    const mine = events.filter((e) => e.type === 'exchange' && e.checkId === 'T-NO-EVIDENCE').map((e) => (e as { id: string }).id);
    expect(mine).toHaveLength(5);
    expect(end.evidence).toEqual(mine.slice(-3));
    expect(end.requests).toBe(5);
  });

  it('keeps the evidence a check named', async () => {
    const { r } = await runner();
    const end = await r.runCheck(
      check('T-EVIDENCE', async (ctx) => {
        const first = await ctx.anonymous.get('/v1/first');
        await ctx.anonymous.get('/v1/second');
        fail('the first answer was wrong', first);
      }),
    );
    expect(end.evidence).toHaveLength(1);
  });

  it('attaches evidence to a harness error too, and none when nothing was sent', async () => {
    const { r } = await runner();
    const err = await r.runCheck(
      check('T-ERROR', async (ctx) => {
        await ctx.anonymous.get('/v1/one');
        throw new Error('boom');
      }),
    );
    expect(err.verdict).toBe('error');
    expect(err.evidence).toHaveLength(1);
    const quiet = await r.runCheck(check('T-QUIET', async () => fail('nothing sent')));
    expect(quiet.evidence).toBeUndefined();
  });

  it('reports the level the clause catalog gives, whatever the check declares', async () => {
    const { r } = await runner();
    // VER-UNKNOWN-404 is a SHOULD reading: a failure is a warning, never a blocking failure.
    const end = await r.runCheck({ ...check('T-LEVEL', async () => fail('x')), clauses: ['VER-UNKNOWN-404'], level: 'MUST' });
    expect(end.level).toBe('SHOULD');
    const must = await r.runCheck(check('T-LEVEL-MUST', async () => fail('x')));
    expect(must.level).toBe('MUST');
  });
});
