import type { Check, Depth } from '../../../harness/ground/check.ts';
import { acceptedBy, ENDPOINTS, label, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';
import { ALL_SCOPES, domainOf, DOMAIN_WILDCARDS, SCOPE_GROUPS, type Scope } from '../../../harness/ground/spec-model/scopes.ts';
import { grantClauseId } from '../../../harness/ground/spec-model/clauses/part5.ts';
import { placeholderRequest } from '../../lib/requests.ts';
import { refusedProblem, servedProblem } from './scope-answers.ts';
import { MAILBOX_READS, NARROW, ownEndpoints } from './scope-probes.ts';
import { SCOPE_GRANT_CHECK } from './scope-grant.ts';
import { envelopeProblems, expectError, expectThat, msg, problemCause } from '../../lib/expect.ts';
import { fail, naming } from '../../../harness/ground/check.ts';

// The scope x endpoint matrix (part 5), one check per credential: a key holding exactly that
// scope asks endpoints with placeholder requests (free of effects). Where the credential is
// accepted (acceptedBy: the group rows of part 5, else the granular scope and its wildcards) the
// answer must be 2xx, or a refusal that the placeholder itself explains (404 for an id naming
// nothing, 400 for an empty body) in the error envelope; a 5xx or any other refusal is wrong.
// Where it is not accepted the answer must be 403 permission_denied.
// Depth: "quick" and "default" ask one endpoint per accepted set, plus the endpoints this
// credential proves per endpoint: those requiring exactly it (served) and those it is the
// designated outsider of (refused). Together the credential checks prove every endpoint's scope
// clause. At "default" a wildcard also asks every route of what it covers (a domain wildcard:
// its domain's routes; all:read: every route outside apikeys:manage, reads served, writes, sends
// and lifecycle refused), so a route table that forgets the wildcard on one route fails; all:read and
// all:all also ask every apikeys:manage route (refused), all:all every mailbox-read and lifecycle
// route (the group rows naming it). "full" asks every endpoint with every credential.

/** apikeys:manage is granted only from the dashboard: the kit cannot make a key holding only it. */
const CREDENTIALS = ALL_SCOPES.filter((s) => s !== 'apikeys:manage');

const acceptKey = (e: Endpoint) => acceptedBy(e).join(',');

/**
 * The narrow credentials that must be refused by `ep` in the sampled matrix: every one of its own
 * domain (a neighbouring scope is the plausible slip: emails:write serving a read), else one.
 */
function outsidersOf(ep: Endpoint, index: number): Scope[] {
  const refused = NARROW.filter((s) => !acceptedBy(ep).includes(s));
  const near = refused.filter((s) => domainOf(s) === domainOf(ep.scope));
  if (near.length) return near;
  const one = refused[index % Math.max(1, refused.length)];
  return one ? [one] : [];
}

function sampled(scope: Scope): Endpoint[] {
  const seen = new Set<string>();
  return ENDPOINTS.filter(
    (e, i) =>
      (!seen.has(acceptKey(e)) && seen.add(acceptKey(e))) ||
      (e.scope === scope && acceptedBy(e).includes(scope)) ||
      outsidersOf(e, i).includes(scope),
  );
}

/** Every route a wildcard speaks for: its domain's (a domain wildcard), or all but apikeys:manage (all:read). */
function wildcardRoutes(scope: Scope): Endpoint[] {
  if ((DOMAIN_WILDCARDS as readonly string[]).includes(scope)) return ENDPOINTS.filter((e) => domainOf(e.scope) === domainOf(scope));
  return scope === 'all:read' ? ENDPOINTS.filter((e) => e.scope !== 'apikeys:manage') : [];
}

/**
 * What the whole-workspace wildcards also ask from default on: every apikeys:manage route, refused
 * (the key list is a read all:read could be taken to cover, creation an action all:all could), and
 * for all:all every route of the group rows that name it besides the first (a per-route table
 * forgetting all:all on one of them).
 */
function wholeWorkspaceRoutes(scope: Scope): Endpoint[] {
  if (scope !== 'all:read' && scope !== 'all:all') return [];
  const named = scope === 'all:all' ? ENDPOINTS.filter((e) => e.group === 'mailbox-read' || e.group === 'lifecycle') : [];
  return [...ENDPOINTS.filter((e) => e.scope === 'apikeys:manage'), ...named];
}

function endpointsAt(depth: Depth, scope: Scope): readonly Endpoint[] {
  if (depth === 'full') return ENDPOINTS;
  const asked = new Set([...sampled(scope), ...(depth === 'default' ? [...wildcardRoutes(scope), ...wholeWorkspaceRoutes(scope)] : [])]);
  return ENDPOINTS.filter((e) => asked.has(e));
}

function clausesFor(scope: Scope): string[] {
  // Every route asked under /v1 must answer as a route there (served, or 403): one mounted without
  // the prefix answers 404, so each credential proves part 9's prefix for the routes it asks.
  const c = ['SCOPE-REQUIRED', 'SCOPE-403-MISSING', 'ERR-TABLE-403', 'AUTH-BEARER', 'VER-V1-PREFIX'];
  // Wildcard rules are proven by the wildcard credentials only (a granular key says nothing of them).
  const wildcard = ['CONV-WILDCARD-ACCEPTED', 'SCOPE-APIKEYS-NO-WILDCARD'];
  if ((DOMAIN_WILDCARDS as readonly string[]).includes(scope))
    c.push(...wildcard, `SCOPE-WILDCARD-${domainOf(scope).toUpperCase()}`, 'SCOPE-WILDCARD-DOMAIN-ONLY');
  else if (scope === 'all:read') c.push(...wildcard, 'SCOPE-ALLREAD-READS', 'SCOPE-ALLREAD-NO-WRITE');
  else if (scope === 'all:all') c.push(...wildcard, 'SCOPE-ALLALL');
  else c.push(grantClauseId(scope));
  // The endpoint-group rows of part 5 are proven by every credential (each group is asked at
  // every depth): those listed must be served, every other one refused.
  c.push(...Object.values(SCOPE_GROUPS).map((g) => g.clause));
  // Per-endpoint scope clauses of part 4, for the endpoints this credential proves served or refused.
  for (const e of sampled(scope)) if (e.scope === scope || !acceptedBy(e).includes(scope)) c.push(...(e.scopeClauses ?? []));
  // From default on a wildcard asks every route it speaks for (shallowerAt): those that must refuse it
  // (all:read on a write, send or lifecycle route) prove that route's scope clause too.
  for (const e of wildcardRoutes(scope)) if (!acceptedBy(e).includes(scope)) c.push(...(e.scopeClauses ?? []));
  return [...new Set(c)];
}

function matrixCheck(scope: Scope): Check {
  return {
    id: `SCOPE-MATRIX/${scope}`,
    title: `MUST serve exactly the endpoints that accept ${scope} and answer 403 permission_denied to the rest`,
    clauses: clausesFor(scope),
    level: 'MUST',
    features: ['op:apikeys.create'],
    budget: ENDPOINTS.length + 1,
    // A wildcard asks its routes only from default on (endpointsAt).
    ...(wildcardRoutes(scope).length || wholeWorkspaceRoutes(scope).length ? { shallowerAt: ['smoke', 'quick'] as const } : {}),
    async run(ctx) {
      const ws = await ctx.workspace();
      const key = await ws.createKey([scope]);
      const wrong: string[] = [];
      const evidence: string[] = [];
      // The envelope problems the wrong answers name: a root cause they share with other checks' failures.
      const problemsNamed: string[] = [];
      for (const ep of endpointsAt(ctx.depth, scope)) {
        const placeholder = placeholderRequest(ep, ctx.profile);
        if (!placeholder) continue;
        const { explains, ...req } = placeholder;
        const res = await key.client.request(req);
        const code = res.body?.error?.code;
        let envelope: string[] = [];
        const readEnvelope = () => (envelope = envelopeProblems(res, ctx.profile));
        const problem = acceptedBy(ep).includes(scope) ? servedProblem(res.status, code, placeholder, readEnvelope) : refusedProblem(res.status, code, readEnvelope);
        if (problem) {
          wrong.push(`${label(ep)} (needs ${ep.scope}) ${problem}`);
          evidence.push(res.exchangeId);
          problemsNamed.push(...envelope.map(problemCause));
        }
      }
      if (wrong.length) fail(naming(msg`key with [${scope}]: ${wrong.length} wrong answer(s): ${wrong.join(' | ')}`, problemsNamed), ...evidence);
    },
  };
}

export const SCOPE_MATRIX_CHECKS: Check[] = CREDENTIALS.map(matrixCheck);

// SCOPE-GRANT (scope-grant.ts) asks every route both ways; SCOPE-ALLALL the one exception of all:all.
export const SCOPE_GRANT_CHECKS: Check[] = [
  SCOPE_GRANT_CHECK,
  {
    // The one exception of all:all, on a key that exists: its revocation is refused and the key still works.
    id: 'SCOPE-ALLALL/not-apikeys-manage',
    title: 'MUST refuse an all:all key on an apikeys:manage endpoint with 403 permission_denied (all:all covers everything except apikeys:manage), and revoke nothing; serve it on the email delete and mailbox-read rows and on a route of every other granular scope',
    clauses: ['SCOPE-ALLALL', 'SCOPE-APIKEYS-NO-WILDCARD', 'SCOPE-GROUP-EMAIL-DELETE', 'SCOPE-GROUP-MAILBOX-READ'],
    level: 'MUST',
    features: ['op:apikeys.create'],
    budget: 5 + MAILBOX_READS.length + NARROW.length,
    async run(ctx) {
      const ws = await ctx.workspace();
      const victim = await ws.createKey(['usage:read'], `${ctx.prefix}allall-victim`);
      const wide = await ws.createKey(['all:all']);
      const res = await wide.client.delete(`/v1/api-keys/${victim.id}`);
      expectError(res, 403, ctx.profile, 'DELETE /v1/api-keys/{id} with a key holding all:all (apikeys:manage is covered by no wildcard)', 'permission_denied');
      const still = await victim.client.get('/v1/workspace');
      expectThat(still.status >= 200 && still.status < 300, msg`the key an all:all key was refused to revoke must still work, GET /v1/workspace with it answered ${still.status}`, res, still);
      // The email delete and mailbox-read rows of part 5 list all:all by name (a placeholder id: 2xx or the 404 it explains).
      for (const ep of [ENDPOINTS.find((e) => e.id === 'emails.delete')!, ...MAILBOX_READS]) {
        const placeholder = placeholderRequest(ep, ctx.profile);
        if (!placeholder) continue;
        const { explains, ...req } = placeholder;
        const got = await wide.client.request(req);
        const problem = servedProblem(got.status, got.body?.error?.code, placeholder, () => envelopeProblems(got, ctx.profile));
        expectThat(!problem, msg`${label(ep)} with a key holding all:all ${problem}`, got);
      }
      // "Everything else": one route of every granular scope (an expansion of all:all that lacks a scope is refused there).
      const wrong: string[] = [];
      const evidence: string[] = [];
      for (const scope of NARROW) {
        const route = ownEndpoints(scope).map((e) => [e, placeholderRequest(e, ctx.profile)] as const).find(([, p]) => p);
        if (!route) continue;
        const [e, p] = route;
        const { explains, ...r } = p!;
        const res = await wide.client.request(r);
        const why = servedProblem(res.status, res.body?.error?.code, p!, () => envelopeProblems(res, ctx.profile));
        if (why) {
          wrong.push(`${label(e)} (needs ${scope}) ${why}`);
          evidence.push(res.exchangeId);
        }
      }
      if (wrong.length) fail(msg`all:all covers everything except apikeys:manage, yet ${wrong.length} route(s) refused a key holding it: ${wrong.join(' | ')}`, ...evidence);
    },
  },
];
