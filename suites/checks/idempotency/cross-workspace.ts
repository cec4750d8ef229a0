import { isDeepStrictEqual } from 'node:util';
import type { Check } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { expectThat, is2xx, snippet } from '../../lib/expect.ts';
import { endpoint, label } from '../../../harness/ground/spec-model/endpoints.ts';
import { UUID_RE } from '../../../harness/ground/spec-model/schemas/index.ts';
import { SUBJECTS, type Subject } from './subjects.ts';

// Idempotency replays never cross workspaces, on every state-changing endpoint of the catalog
// (IDEM-WORKSPACE-SCOPED/POST /v1/campaigns proves it on one at every depth): two workspaces send
// their own valid request with the same Idempotency-Key; the second is its own request, executed,
// never the first one's replay and never refused as a reuse of it.

/** An answer two executions would not share: it carries an id or another long string (an OAuth state). */
function distinctive(v: unknown): boolean {
  if (typeof v === 'string') return UUID_RE.test(v) || v.length >= 16;
  if (v !== null && typeof v === 'object') return Object.values(v).some(distinctive);
  return false;
}

function crossWorkspace(s: Subject): Check {
  const name = label(endpoint(s.endpoint));
  return {
    id: `SEC-IDEM-WORKSPACE/${name}`,
    title: `MUST execute ${name} sent from a second workspace with the first one's Idempotency-Key as its own request (no replay, no 422, no 409)`,
    clauses: ['IDEM-WORKSPACE-SCOPED', 'TENANT-ISOLATION'],
    level: 'MUST',
    features: [...s.features, 'twoWorkspaces'],
    ...(s.testEmails ? { testEmails: s.testEmails } : {}),
    depth: 'full',
    budget: 20,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const pa = await s.prepare(ctx, a);
      const pb = await s.prepare(ctx, b);
      const key = `${ctx.prefix}xws-${Math.random().toString(36).slice(2, 12)}`;
      const ra = await a.api.request({ ...pa.request, idempotencyKey: key });
      if (!is2xx(ra)) {
        const why = pa.unmet?.(ra);
        if (why) skip(why);
        fail(msg`${name} in the first workspace answered ${ra.status} ${snippet(ra)}; the check needs a request that succeeds`, ra);
      }
      const rb = await b.api.request({ ...pb.request, idempotencyKey: key });
      expectThat(rb.status !== 422 && rb.status !== 409, msg`${name} from the second workspace with the first one's Idempotency-Key answered ${rb.status}: the key space crossed workspaces`, ra, rb);
      if (!is2xx(rb)) {
        const why = pb.unmet?.(rb);
        if (why) skip(why);
        fail(msg`${name} from the second workspace answered ${rb.status} ${snippet(rb)}; it is that workspace's own valid request`, rb);
      }
      expectThat(!(distinctive(ra.body) && isDeepStrictEqual(rb.body, ra.body)), msg`${name} from the second workspace got the first workspace's answer replayed`, ra, rb);
      if (pb.effects) {
        const n = await pb.effects();
        expectThat(n >= 1, msg`${name} from the second workspace had no effect (${n}): it was answered without being executed`, rb);
      }
    },
  };
}

export const CROSS_WORKSPACE_IDEMPOTENCY_CHECKS: Check[] = SUBJECTS.map(crossWorkspace);
