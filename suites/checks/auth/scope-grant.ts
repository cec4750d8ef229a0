import type { Check } from '../../../harness/ground/check.ts';
import { fail, msg } from '../../../harness/ground/check.ts';
import { label } from '../../../harness/ground/spec-model/endpoints.ts';
import type { Scope } from '../../../harness/ground/spec-model/scopes.ts';
import { placeholderRequest } from '../../lib/requests.ts';
import { envelopeProblems } from '../../lib/expect.ts';
import { holdEach } from '../../lib/claims.ts';
import { refusedProblem, servedProblem } from './scope-answers.ts';
import { grantProbes } from './scope-probes.ts';

// The granular rows of part 5 in one pass, one key a scope (scope-probes.ts says what is asked):
// every route asked with exactly its own scope and with the key its route table most plausibly
// serves by mistake, the cheap proof of every route's scope both ways where the matrix asks a
// key's whole row. Placeholder requests (absent ids, empty bodies) change nothing. One claim a
// clause: the failure names each clause broken and the routes that broke it.

const DEEP = grantProbes('default');
const CLAUSES = [...new Set(DEEP.flatMap((p) => p.clauses))];
const KEYS = new Set(DEEP.map((p) => p.scope)).size;

export const SCOPE_GRANT_CHECK: Check = {
  id: 'SCOPE-GRANT/each-granular-scope',
  title: 'MUST serve a key holding exactly one granular scope on every route of that scope, and answer 403 permission_denied on every route to the key its route table would most plausibly serve by mistake (a neighbouring scope, the read wildcard on a write); accounts:write on the mailbox reads, accounts:all, all:read and all:all where their rows list them, accounts:all nowhere outside its domain, and no wildcard on the API-key routes',
  clauses: CLAUSES,
  level: 'MUST',
  features: ['op:apikeys.create'],
  budget: DEEP.length + KEYS + 1,
  // quick: the referenced routes only where a neighbouring scope is the slip; smoke: one key a
  // granular scope, asked on its first route and on the first route refusing it (grantProbes).
  shallowerAt: ['smoke', 'quick'],
  async run(ctx) {
    const ws = await ctx.workspace();
    const keys = new Map<Scope, Awaited<ReturnType<typeof ws.createKey>>>();
    const keyFor = async (scope: Scope) => keys.get(scope) ?? keys.set(scope, await ws.createKey([scope])).get(scope)!;
    const broken = new Map<string, { wrong: string[]; evidence: string[] }>();
    for (const p of grantProbes(ctx.depth)) {
      const placeholder = placeholderRequest(p.ep, ctx.profile);
      if (!placeholder) continue;
      const { explains, ...req } = placeholder;
      const res = await (await keyFor(p.scope)).client.request(req);
      const code = res.body?.error?.code;
      const envelope = () => envelopeProblems(res, ctx.profile);
      const problem = p.served ? servedProblem(res.status, code, placeholder, envelope) : refusedProblem(res.status, code, envelope);
      if (!problem) continue;
      for (const clause of p.clauses) {
        const b = broken.get(clause) ?? { wrong: [], evidence: [] };
        b.wrong.push(`[${p.scope}] on ${label(p.ep)} (needs ${p.ep.scope}) ${problem}`);
        b.evidence.push(res.exchangeId);
        broken.set(clause, b);
      }
    }
    await holdEach(
      CLAUSES.map((clause) => ({
        clause,
        holds: () => {
          const b = broken.get(clause);
          if (b) fail(msg`${b.wrong.length} route(s): ${b.wrong.join(' | ')}`, ...b.evidence);
        },
      })),
    );
  },
};
