import { isDeepStrictEqual } from 'node:util';
import type { ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { envelopeProblems, expectError, expectThat, is2xx, snippet } from '../../lib/expect.ts';
import { endpoint, label } from '../../../harness/ground/spec-model/endpoints.ts';
import { SUBJECTS, type Subject } from './subjects.ts';
import { createMailbox } from '../../lib/recipes.ts';

// Part 4.1 Idempotency-Key, generated for every state-changing endpoint of the catalog.

const idemKey = (ctx: CheckContext, tag: string) => `${ctx.prefix}${tag}-${Math.random().toString(36).slice(2, 12)}`;

async function first(ctx: CheckContext, res: ApiResponse, what: string, unmet?: (res: ApiResponse) => string | undefined) {
  const why = is2xx(res) ? undefined : unmet?.(res);
  if (why) skip(why);
  if (!is2xx(res)) fail(msg`${what}: the first request answered ${res.status} ${snippet(res)}; idempotency is checked on a request that succeeds`, res);
}

function subjectCheck(s: Subject, kind: 'replay' | 'reuse' | 'concurrent'): Check {
  const ep = endpoint(s.endpoint);
  const base = { features: s.features, level: 'MUST' as const, ...(s.testEmails ? { testEmails: s.testEmails } : {}) };
  const name = label(ep);
  if (kind === 'replay')
    return {
      ...base,
      id: `IDEM-REPLAY/${name}`,
      title: 'MUST replay the original status and body to a retry with the same Idempotency-Key, without a second effect',
      clauses: ['IDEM-REPLAY', 'IDEM-REPLAY-NO-EFFECT'],
      budget: 12,
      async run(ctx) {
        const ws = await ctx.workspace();
        const { request, effects, observe, unmet } = await s.prepare(ctx, ws);
        const key = idemKey(ctx, 'replay');
        const r1 = await ws.api.request({ ...request, idempotencyKey: key });
        await first(ctx, r1, name, unmet);
        if (ctx.control) await ctx.control.advance(2); // a second execution would now differ (timestamps)
        await observe?.between(); // ... and, where it would answer the same, leave a trace
        const r2 = await ws.api.request({ ...request, idempotencyKey: key });
        expectThat(r2.status === r1.status, msg`${name}: the retry answered ${r2.status}, the original ${r1.status}`, r1, r2);
        expectThat(isDeepStrictEqual(r2.body, r1.body), msg`${name}: the retry's body differs from the original's`, r1, r2);
        if (effects) {
          const n = await effects();
          expectThat(n === 1, msg`${name}: the request and its retry made ${n} resources, expected 1`, r1, r2);
        }
        const again = await observe?.executedAgain();
        expectThat(again === undefined, msg`${name}: the retry with the same Idempotency-Key was executed again, not replayed: ${again}`, r1, r2);
      },
    };
  if (kind === 'reuse')
    return {
      ...base,
      id: `IDEM-REUSED-422/${name}`,
      title: 'MUST answer 422 idempotency_key_reused to the same Idempotency-Key with a different body',
      clauses: ['IDEM-REUSED-422', 'ERR-TABLE-422'],
      budget: 10,
      async run(ctx) {
        const ws = await ctx.workspace();
        const { request, other, unmet } = await s.prepare(ctx, ws);
        const key = idemKey(ctx, 'reuse');
        await first(ctx, await ws.api.request({ ...request, idempotencyKey: key }), name, unmet);
        const res = await ws.api.request({ ...(other as ApiRequest), idempotencyKey: key });
        expectError(res, 422, ctx.profile, `${name} again with the same Idempotency-Key and another body`, 'idempotency_key_reused');
      },
    };
  return {
    ...base,
    id: `IDEM-CONCURRENT/${name}`,
    title: 'MUST take effect once for concurrent requests with one Idempotency-Key (others: a replay or 409 conflict)',
    // Not IDEM-INFLIGHT-409: requests that need not overlap may all be replays here; the request held
    // at the SMTP sink (IDEM-INFLIGHT/...test-email) is the one seen still processing.
    clauses: ['IDEM-CONCURRENT-ONE-EFFECT', 'ERR-TABLE-409'],
    budget: 14,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { request, effects } = await s.prepare(ctx, ws);
      // One effect is proven by reading the state afterwards: 409s need not occur (requests that
      // do not overlap get replays), so answers alone could not fail a target without a store.
      if (!effects) throw new Error(`${name}: a concurrency subject must count its effects`);
      const key = idemKey(ctx, 'conc');
      const all = await Promise.all(Array.from({ length: 4 }, () => ws.api.request({ ...request, idempotencyKey: key })));
      const ok = all.filter(is2xx);
      if (ok.length === 0) fail(msg`${name}: none of 4 concurrent requests succeeded: ${all.map((r) => r.status).join(', ')}`, ...all);
      for (const r of ok) expectThat(isDeepStrictEqual(r.body, ok[0]!.body) && r.status === ok[0]!.status, msg`${name}: two concurrent requests with one key answered different successes`, ok[0], r);
      for (const r of all.filter((x) => !is2xx(x))) {
        expectThat(r.status === 409, msg`${name}: a concurrent request with the same key answered ${r.status}; expected a replay or 409 conflict`, r);
        const problems = envelopeProblems(r, ctx.profile);
        expectThat(problems.length === 0 && r.body.error.code === 'conflict', msg`${name}: the 409 is not conflict in the envelope: ${problems.join('; ') || r.body?.error?.code}`, r);
      }
      const n = await effects();
      expectThat(n === 1, msg`${name}: 4 concurrent requests with one Idempotency-Key made ${n} resources, expected 1`, ...all);
      if (!all.some((r) => r.status === 409)) ctx.log(`${name}: no request overlapped another (no 409 seen); one effect read back`);
    },
  };
}

const KEY_TAIL = 12;
/** A fresh key of exactly n characters: `k`s and a random tail of KEY_TAIL (so runs never collide), other than `not`. */
function keyOfLength(n: number, not?: string): string {
  for (;;) {
    const tail = Math.random().toString(36).slice(2, 2 + KEY_TAIL).padEnd(KEY_TAIL, '0');
    const key = `${'k'.repeat(n - KEY_TAIL)}${tail}`;
    if (key !== not) return key;
  }
}

/** Endpoints whose request has a body, so "the same key with a different body" can be asked. */
const WITH_BODY = ['accounts.create', 'accounts.update', 'campaigns.create', 'campaigns.update', 'campaigns.testEmail', 'leads.create', 'leads.update', 'leads.mutate', 'apikeys.create', 'emails.reply', 'emails.forward'];
/** Endpoints that make a resource the kit can count. */
const CREATORS = ['accounts.create', 'campaigns.create', 'leads.create', 'apikeys.create'];

const lengthChecks: Check[] = [
  {
    id: 'IDEM-KEY-ROTATION/POST /v1/campaigns',
    title: 'SHOULD replay a retry sent with another API key of the same workspace',
    clauses: ['IDEM-KEY-ROTATION-SHARED'],
    level: 'SHOULD',
    features: ['op:apikeys.create'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      const rotated = await ws.createKey(['all:all']);
      const s = SUBJECTS.find((x) => x.endpoint === 'campaigns.create')!;
      const { request, effects } = await s.prepare(ctx, ws);
      const key = idemKey(ctx, 'rot');
      const r1 = await ws.api.request({ ...request, idempotencyKey: key });
      await first(ctx, r1, 'POST /v1/campaigns');
      const r2 = await rotated.client.request({ ...request, idempotencyKey: key });
      expectThat(r2.status === r1.status && isDeepStrictEqual(r2.body, r1.body), msg`the retry with a rotated key of the same workspace did not replay the original response`, r1, r2);
      const n = await effects!();
      expectThat(n === 1, msg`the request and its retry with a rotated key made ${n} campaigns`, r1, r2);
    },
  },
  {
    id: 'IDEM-WORKSPACE-SCOPED/POST /v1/campaigns',
    title: "MUST NOT replay one workspace's response to another workspace that sends the same Idempotency-Key",
    clauses: ['IDEM-WORKSPACE-SCOPED', 'AUTH-KEY-IDENTIFIES-WORKSPACE'],
    level: 'MUST',
    features: [],
    budget: 6,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const s = SUBJECTS.find((x) => x.endpoint === 'campaigns.create')!;
      const key = idemKey(ctx, 'ws');
      const ra = await a.api.request({ ...(await s.prepare(ctx, a)).request, idempotencyKey: key });
      await first(ctx, ra, 'POST /v1/campaigns in workspace A');
      const rb = await b.api.request({ ...(await s.prepare(ctx, b)).request, idempotencyKey: key });
      expectThat(is2xx(rb), msg`workspace B's request with A's Idempotency-Key answered ${rb.status}; it is B's own request`, rb);
      expectThat(rb.body?.campaign?.id !== ra.body?.campaign?.id, msg`workspace B received workspace A's campaign: the Idempotency-Key replayed across workspaces`, ra, rb);
    },
  },
  {
    id: 'IDEM-KEY-LENGTH/POST /v1/campaigns',
    title: 'MUST take an Idempotency-Key of 255 characters as a whole key (a second one alike in all but its tail is its own, a retry replays) and refuse one of 256 without an effect',
    clauses: ['IDEM-MAX-255'],
    level: 'MUST',
    features: [],
    budget: 10,
    async run(ctx) {
      const ws = await ctx.workspace();
      const s = SUBJECTS.find((x) => x.endpoint === 'campaigns.create')!;
      const ok = await s.prepare(ctx, ws);
      const k1 = keyOfLength(255);
      const r1 = await ws.api.request({ ...ok.request, idempotencyKey: k1 });
      expectThat(is2xx(r1), msg`a 255-character Idempotency-Key was refused (${r1.status} ${snippet(r1)})`, r1);
      // Keys of 255 characters alike in all but their last 12: a store that cuts keys short conflates them.
      const another = await s.prepare(ctx, ws);
      const r2 = await ws.api.request({ ...another.request, idempotencyKey: keyOfLength(255, k1) });
      expectThat(is2xx(r2) && r2.body?.campaign?.id !== r1.body?.campaign?.id, msg`another 255-character Idempotency-Key, alike in its first ${k1.length - KEY_TAIL} characters, was not taken as a key of its own (${r2.status} ${snippet(r2)})`, r1, r2);
      const retry = await ws.api.request({ ...ok.request, idempotencyKey: k1 });
      expectThat(retry.status === r1.status && isDeepStrictEqual(retry.body, r1.body), msg`a retry with the first 255-character Idempotency-Key did not replay the original response (${retry.status})`, r1, retry);
      const over = await s.prepare(ctx, ws);
      const r3 = await ws.api.request({ ...over.request, idempotencyKey: keyOfLength(256) });
      expectThat(!is2xx(r3), msg`a 256-character Idempotency-Key was accepted (${r3.status}); the header is at most 255 characters`, r3);
      const n = await over.effects!();
      expectThat(n === 0, msg`the refused request still made ${n} campaign(s)`, r3);
    },
  },
  {
    // The bound holds on every state-changing endpoint (4.1), not only where it is first declared.
    id: 'IDEM-KEY-LENGTH/PATCH /v1/accounts/{id}',
    title: 'MUST refuse an Idempotency-Key of 256 characters on a mailbox PATCH without an effect, take one of 255 as a whole key (another alike in all but its tail is its own), and answer 422 idempotency_key_reused to that key with another body',
    clauses: ['IDEM-MAX-255', 'IDEM-REUSED-422', 'ERR-TABLE-422'],
    level: 'MUST',
    features: [],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      const path = `/v1/accounts/${id}`;
      const refused = await ws.api.patch(path, { firstName: 'Overlong' }, { idempotencyKey: keyOfLength(256) });
      expectThat(!is2xx(refused), msg`PATCH ${path} with a 256-character Idempotency-Key was accepted (${refused.status}); the header is at most 255 characters`, refused);
      // The PATCH answer is the mailbox (4.2): it shows whether the refused one changed firstName.
      const long = keyOfLength(255);
      const read = await ws.api.patch(path, { lastName: 'Bounded' }, { idempotencyKey: long });
      expectThat(is2xx(read), msg`PATCH ${path} with a 255-character Idempotency-Key was refused (${read.status} ${snippet(read)})`, read);
      expectThat(read.body?.firstName !== 'Overlong', msg`the PATCH refused for its 256-character Idempotency-Key still changed firstName`, refused, read);
      // 4.1 holds on every state-changing endpoint, not on POST alone: the same key with another body is refused here too.
      const reused = await ws.api.patch(path, { lastName: 'Rebounded' }, { idempotencyKey: long });
      expectError(reused, 422, ctx.profile, `PATCH ${path} again with the same Idempotency-Key and another body`, 'idempotency_key_reused');
      // A second key of 255 characters alike in all but its tail is a key of its own: a store that cuts keys short conflates them (a 422 or a replay).
      const sibling = await ws.api.patch(path, { lastName: 'Rebounded' }, { idempotencyKey: keyOfLength(255, long) });
      expectThat(is2xx(sibling) && sibling.body?.lastName === 'Rebounded', msg`PATCH ${path} with another 255-character Idempotency-Key, alike in its first ${long.length - KEY_TAIL} characters, was not taken as a key of its own (${sibling.status} ${snippet(sibling)})`, read, sibling);
    },
  },
  {
    id: 'IDEM-KEY-OVERLONG-400/POST /v1/campaigns',
    title: 'SHOULD refuse an Idempotency-Key over 255 characters as an invalid parameter (400 validation_failed)',
    clauses: ['IDEM-OVERLONG-400'],
    level: 'SHOULD',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const s = SUBJECTS.find((x) => x.endpoint === 'campaigns.create')!;
      const { request } = await s.prepare(ctx, ws);
      const res = await ws.api.request({ ...request, idempotencyKey: 'x'.repeat(300) });
      expectError(res, 400, ctx.profile, 'POST /v1/campaigns with a 300-character Idempotency-Key', 'validation_failed');
    },
  },
];

export const IDEMPOTENCY_CHECKS: Check[] = [
  ...SUBJECTS.map((s) => subjectCheck(s, 'replay')),
  ...SUBJECTS.filter((s) => WITH_BODY.includes(s.endpoint)).map((s) => subjectCheck(s, 'reuse')),
  ...SUBJECTS.filter((s) => CREATORS.includes(s.endpoint)).map((s) => subjectCheck(s, 'concurrent')),
  ...lengthChecks,
];
