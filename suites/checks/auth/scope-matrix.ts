import type { Check, Depth } from '../../lib/check.ts';
import { ENDPOINTS, label, type Endpoint } from '../../spec/endpoints.ts';
import { ALL_SCOPES, covers, domainOf, DOMAIN_WILDCARDS, type Scope } from '../../spec/scopes.ts';
import { grantClauseId } from '../../spec/clauses/part5.ts';
import { placeholderRequest } from '../../lib/requests.ts';
import { envelopeProblems } from '../../lib/expect.ts';
import { fail } from '../../lib/check.ts';

// The scope x endpoint matrix (part 5), one check per credential: a key holding exactly that
// scope asks every endpoint; allowed means neither 401 nor 403, denied means 403
// permission_denied. Placeholder ids keep every request free of effects.
// Depth: "quick" and "default" ask one endpoint per required scope (the decision depends only
// on the required scope); "full" asks every endpoint.

/** apikeys:manage is granted only from the dashboard: the kit cannot make a key holding only it. */
const CREDENTIALS = ALL_SCOPES.filter((s) => s !== 'apikeys:manage');

function endpointsAt(depth: Depth): Endpoint[] {
  if (depth === 'full') return [...ENDPOINTS];
  const seen = new Set<string>();
  return ENDPOINTS.filter((e) => !e.referenced && !seen.has(e.scope) && seen.add(e.scope)).concat(
    ENDPOINTS.filter((e) => e.referenced && !ENDPOINTS.some((x) => !x.referenced && x.scope === e.scope)).slice(0, 1),
  );
}

function clausesFor(scope: Scope): string[] {
  const c = ['SCOPE-REQUIRED', 'SCOPE-403-MISSING', 'ERR-TABLE-403', 'CONV-WILDCARD-ACCEPTED', 'SCOPE-APIKEYS-NO-WILDCARD'];
  if ((DOMAIN_WILDCARDS as readonly string[]).includes(scope))
    c.push(`SCOPE-WILDCARD-${domainOf(scope).toUpperCase()}`, 'SCOPE-WILDCARD-DOMAIN-ONLY');
  else if (scope === 'all:read') c.push('SCOPE-ALLREAD-READS', 'SCOPE-ALLREAD-NO-WRITE', 'SCOPE-GROUP-READS', 'SCOPE-GROUP-MAILBOX-READ');
  else if (scope === 'all:all') c.push('SCOPE-ALLALL');
  else c.push(grantClauseId(scope));
  // The endpoint-group rows of part 5 ("X accepts a, b, c") are proven by every credential:
  // those listed must be served, every other one refused.
  c.push('SCOPE-GROUP-MAILBOX-WRITE', 'SCOPE-GROUP-MAILBOX-READ', 'SCOPE-GROUP-CAMPAIGN-WRITE', 'SCOPE-GROUP-LIFECYCLE', 'SCOPE-GROUP-READS', 'SCOPE-GROUP-EMAIL-DELETE');
  return [...new Set(c)];
}

function matrixCheck(scope: Scope): Check {
  return {
    id: `SCOPE-MATRIX/${scope}`,
    title: `MUST serve exactly the endpoints that ${scope} covers and answer 403 permission_denied to the rest`,
    clauses: clausesFor(scope),
    level: 'MUST',
    features: ['op:apikeys.create'],
    budget: ENDPOINTS.length + 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const key = await ws.createKey([scope]);
      const wrong: string[] = [];
      const evidence: string[] = [];
      for (const ep of endpointsAt(ctx.depth)) {
        const req = placeholderRequest(ep, ctx.profile);
        if (!req) continue;
        const res = await key.client.request(req);
        const allowed = covers([scope], ep.scope);
        if (allowed && (res.status === 401 || res.status === 403)) {
          wrong.push(`${label(ep)} (needs ${ep.scope}) answered ${res.status}, but ${scope} covers it`);
          evidence.push(res.exchangeId);
        } else if (!allowed) {
          const problems = res.status === 403 ? envelopeProblems(res, ctx.profile) : [];
          if (res.status !== 403 || problems.length || res.body?.error?.code !== 'permission_denied') {
            wrong.push(`${label(ep)} (needs ${ep.scope}) answered ${res.status}${problems.length ? ` (${problems.join('; ')})` : ''}, expected 403 permission_denied`);
            evidence.push(res.exchangeId);
          }
        }
      }
      if (wrong.length) fail(`key with [${scope}]: ${wrong.length} wrong answer(s): ${wrong.join(' | ')}`, ...evidence);
    },
  };
}

export const SCOPE_MATRIX_CHECKS: Check[] = CREDENTIALS.map(matrixCheck);
