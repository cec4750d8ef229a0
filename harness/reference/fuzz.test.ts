// The reference's two ports under fuzzed input (harness/fuzz/): no crash, no unhandled
// rejection, never a 5xx or an answer outside the envelope, no hang, no lost record, a bounded
// heap. A CI-sized count here; `npm run fuzz` runs 10,000 inputs per port. Fixed cases keep the
// crashes fuzzing found from coming back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFigures, runFuzz } from '../fuzz/core.ts';
import { referenceTargets, type ReferenceFuzz } from '../fuzz/reference.ts';
import { Env, envelopeProblems, type Workspace } from './reference.test-helper.ts';
import { exchange, parseHttpAnswer } from '../fuzz/wire.ts';

const SEED = Number(process.env.OUTREACH_FUZZ_SEED ?? 20261125);
const RUNS = 250;

describe('reference under fuzzed input', () => {
  let fuzz: ReferenceFuzz;
  beforeAll(async () => {
    fuzz = await referenceTargets();
  });
  afterAll(() => fuzz?.stop());

  it.each(['reference-public', 'reference-control'])('%s holds', async (server) => {
    const f = await runFuzz(fuzz.targets.find((t) => t.server === server)!, { runs: RUNS, seed: SEED });
    console.log(formatFigures(f));
    expect(f.findings).toEqual([]);
    expect(f.processErrors).toEqual([]);
    expect(f.probes).toBeGreaterThanOrEqual(3);
    expect(Object.keys(f.outcomes).some((o) => o.startsWith('2')), 'some inputs reached a handler').toBe(true);
  });
});

describe('what fuzzing found (fixed cases)', () => {
  let env: Env;
  let ws: Workspace;
  beforeAll(async () => {
    env = await Env.start();
    ws = await env.workspace();
  });
  afterAll(() => env?.stop());

  it('a body nested 20,000 levels deep under an Idempotency-Key is a 400, not a 500', async () => {
    const deep = `{"name":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    for (const [method, path] of [['POST', '/v1/campaigns'], ['POST', '/v1/api-keys'], ['POST', '/v1/accounts']] as const) {
      const r = await env.call(ws.key, method, path, { raw: deep, idem: `deep-${path}` });
      expect(r.status, path).toBe(400);
      expect(envelopeProblems(r)).toEqual([]);
    }
  });

  it('the control clock refuses to move past year 9999, and the target keeps answering', async () => {
    for (const seconds of [1e300, 8.64e12, 3e11]) {
      const r = await env.ctl('POST', '/clock/advance', { seconds });
      expect(r.status, String(seconds)).toBe(400);
      expect(r.body.error.code).toBe('validation_failed');
    }
    expect((await env.call(ws.key, 'POST', '/v1/campaigns', { body: { name: 'after the clock' } })).status).toBeLessThan(300);
    expect((await env.ctl('GET', '/clock')).status).toBe(200);
  });

  it('an Expect header other than 100-continue is served, in the envelope when refused', async () => {
    for (const url of [env.ref.baseUrl, env.ref.controlUrl]) {
      const r = await exchange({ port: Number(new URL(url).port), parts: [{ bytes: Buffer.from('GET /nowhere HTTP/1.1\r\nhost: x\r\nexpect: keep-alive\r\n\r\n') }], ending: 'wait', timeoutMs: 30_000, done: (d) => parseHttpAnswer(d) !== null });
      const a = parseHttpAnswer(r.data)!;
      expect(a.status).toBe(404);
      expect(JSON.parse(a.body.toString()).error).toMatchObject({ status: 404, code: 'not_found' });
    }
  });
});
