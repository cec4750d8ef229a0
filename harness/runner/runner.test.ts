import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runner } from './runner.ts';
import { withoutProfileReads } from './profile-reads.ts';
import { DEFAULT_PROFILE_PATH, loadProfile, parseProfile } from '../ground/profile.ts';
import { startServer, json, type TestServer } from '../client/server.test-helper.ts';
import { fail, type Check } from '../ground/check.ts';
import type { RunEvent } from '../ground/events.ts';

// The runner's guarantees about a check's result, against a plain HTTP server.

let server: TestServer;
beforeAll(async () => {
  server = await startServer((_r, res) => json(res, 200, { ok: true }));
});
afterAll(() => server.close());

async function runner(requestBudget?: number) {
  const reference = await loadProfile(DEFAULT_PROFILE_PATH);
  const profile = parseProfile({ ...reference, embedded: false, baseUrl: server.url, workspaces: [{ apiKey: 'key-aaaaaaaa' }, { apiKey: 'key-bbbbbbbb' }] });
  const events: RunEvent[] = [];
  const r = new Runner({ profile, baseUrl: server.url, depth: 'quick', sink: { emit: (e) => events.push(e) }, prefix: 'oct-', seed: 1, requestBudget });
  return { r, events };
}

const check = (id: string, run: Check['run']): Check => ({ id, title: 't', clauses: ['ERR-ENVELOPE'], level: 'MUST', features: [], budget: 4, run });

describe('runner', () => {
  it("names a slow control API in a failure whose drains ended with work left, and only then", async () => {
    const reference = await loadProfile(DEFAULT_PROFILE_PATH);
    const profile = parseProfile({ ...reference, embedded: false, baseUrl: server.url, workspaces: [{ apiKey: 'key-aaaaaaaa' }, { apiKey: 'key-bbbbbbbb' }] });
    const inner = server.handler;
    server.handler = (req, res, i) => (req.url === '/work/drain' ? json(res, 200, { processed: 0 }) : inner(req, res, i));
    try {
      const r = new Runner({ profile, baseUrl: server.url, control: { baseUrl: server.url, token: 'ctl-token-1234' }, depth: 'quick', sink: { emit: () => {} }, prefix: 'oct-', seed: 1 });
      // A bound of 0 ms: no answer comes within it, so the drain may have left work.
      const slow = await r.runCheck(check('T-SLOW-DRAIN', async (ctx) => (await ctx.control!.drain(0), fail('the state did not change'))));
      expect(slow.message).toMatch(/^the state did not change \(a slow control API: 1 of the drains this check asked for ended with work left or went unanswered\)/);
      const quick = await r.runCheck(check('T-QUICK-DRAIN', async (ctx) => (await ctx.control!.drain(60_000), fail('the state did not change'))));
      expect(quick.message).not.toMatch(/slow control API/);
      const passed = await r.runCheck(check('T-SLOW-PASS', async (ctx) => void (await ctx.control!.drain(0))));
      expect(passed.verdict).toBe('pass');
    } finally {
      server.handler = inner;
    }
  });

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
    // The kit's own error has its cause as data too: the report groups by it, not by the prose.
    expect(err.failure).toEqual({ kind: 'kit', fields: { name: 'Error', message: 'boom' } });
    const quiet = await r.runCheck(check('T-QUIET', async () => fail('nothing sent')));
    expect(quiet.evidence).toBeUndefined();
  });

  it("names in a failure the profile values the check read where the spec says \"not shown\", never a secret, and nothing else", async () => {
    const { r } = await runner();
    const end = await r.runCheck(
      check('T-READS', async (ctx) => {
        const { cursor, pageSize } = ctx.profile.names.list;
        void ctx.profile.workspaces[0]!.apiKey; // a secret: never recorded
        void ctx.profile.declarations.campaignRequiredFields?.length; // an array: recorded whole
        fail(`a page walked with ${cursor} and ${pageSize} repeated an item`);
      }),
    );
    expect(end.verdict).toBe('fail');
    expect(end.message).toMatch(/^a page walked with cursor and limit repeated an item; the profile declares names\.list\.cursor = "cursor", names\.list\.pageSize = "limit", declarations\.campaignRequiredFields = \["name"\] \(check seed \d+, run seed 1\)$/);
    expect(end.message).not.toContain('key-aaaaaaaa');
    expect(withoutProfileReads(end.message!)).toMatch(/^a page walked with cursor and limit repeated an item \(check seed \d+, run seed 1\)$/);
    // A failure that read nothing of those sections says nothing of the profile.
    const plain = await r.runCheck(check('T-NO-READS', async (ctx) => fail(`rate ${ctx.profile.rateLimit.requests}`)));
    expect(plain.message).toMatch(/^rate 120 \(check seed/);
    // Passing and skipping checks are untouched; a check may not change the profile.
    expect((await r.runCheck(check('T-PASS', async (ctx) => void ctx.profile.names.leadsSearchParam))).message).toBeUndefined();
    const write = await r.runCheck(check('T-WRITE', async (ctx) => void ((ctx.profile.names.list as { cursor: string }).cursor = 'x')));
    expect(write.verdict).toBe('error');
    expect(write.message).toMatch(/read-only/);
  });

  it('keeps the runner\'s own profile a plain object, and the check\'s view readable as JSON', async () => {
    const { r } = await runner();
    let json = '';
    await r.runCheck(check('T-JSON', async (ctx) => void (json = JSON.stringify(ctx.profile))));
    expect(JSON.parse(json).names).toEqual(r.opts.profile.names);
    expect(structuredClone(r.opts.profile).names.list.cursor).toBe('cursor');
    expect(r.opts.profile.names.list.cursor).toBe('cursor');
  });

  it('reports the level the clause catalog gives, whatever the check declares', async () => {
    const { r } = await runner();
    // VER-UNKNOWN-404 is a SHOULD reading: a failure is a warning, never a blocking failure.
    const end = await r.runCheck({ ...check('T-LEVEL', async () => fail('x')), clauses: ['VER-UNKNOWN-404'], level: 'MUST' });
    expect(end.level).toBe('SHOULD');
    const must = await r.runCheck(check('T-LEVEL-MUST', async () => fail('x')));
    expect(must.level).toBe('MUST');
  });

  it('does not start a check once what it was measured to send no longer fits the run\'s request budget, and says why', async () => {
    const { r, events } = await runner(10);
    // Measured at its budget of 4, it sends 8: a target that makes checks poll more than measured.
    const first = await r.runCheck(check('T-GREEDY', async (ctx) => void (await Promise.all(Array.from({ length: 8 }, (_, i) => ctx.anonymous.get(`/v1/g${i}`))))));
    expect(first.verdict).toBe('pass');
    let ran = false;
    const second = await r.runCheck(check('T-LATE', async () => void (ran = true)));
    expect(ran).toBe(false);
    expect(second.verdict).toBe('skip');
    expect(second.message).toMatch(/^not started, to keep the run within its request budget of 10: 8 requests sent, .* fewer than the 4 this check was measured to send \(on this target the finished checks sent 8 requests where 4 were measured, 100 % more\)$/);
    expect(second.requests).toBe(0);
    expect(events.filter((e) => e.type === 'check-start').map((e) => (e as { checkId: string }).checkId)).toEqual(['T-GREEDY', 'T-LATE']);
    // Without a budget (a selection run whole) it starts.
    const { r: free } = await runner();
    expect((await free.runCheck(check('T-LATE', async () => undefined))).verdict).toBe('pass');
  });
});
