import type { Profile } from '../../../harness/ground/profile-schema.ts';
import type { CheckContext } from '../../../harness/ground/check.ts';
import { apiAnswers } from '../../lib/observed.ts';
import { ENDPOINTS, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';

// Which endpoint an observed request went to: the catalog's paths, and the referenced operations
// at the paths the profile gives them.

interface Matcher { id: string; method: string; re: RegExp; literal: number; ep?: Endpoint }

const templateRe = (path: string) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`);
const literalLength = (path: string) => path.replace(/\{\w+\}/g, '').length;
// The most literal template first: /v1/campaigns/analytics/overview before /v1/campaigns/{id}/status.
const byLiteral = (a: Matcher, b: Matcher) => b.literal - a.literal;

const CATALOG: Matcher[] = ENDPOINTS.filter((e) => e.path)
  .map((ep) => ({ id: ep.id, method: ep.method, re: templateRe(ep.path!), literal: literalLength(ep.path!), ep }))
  .sort(byLiteral);

/** The catalog endpoint (with a path of its own) a request went to. */
export function endpointOf(method: string, pathname: string): Endpoint | undefined {
  return CATALOG.find((m) => m.method === method && m.re.test(pathname))?.ep;
}

/** The id of the endpoint or referenced operation (as the profile places it) a request went to. */
export function endpointIdOf(profile: Profile, method: string, pathname: string): string | undefined {
  const referenced: Matcher[] = Object.entries(profile.operations).map(([id, op]) => ({ id, method: op!.method, re: templateRe(op!.path), literal: literalLength(op!.path) }));
  return [...referenced, ...CATALOG].sort(byLiteral).find((m) => m.method === method && m.re.test(pathname))?.id;
}

/** The endpoints (ids as endpointIdOf names them) the run has so far seen answer with a success. */
export function succeededEndpoints(ctx: CheckContext): Set<string> {
  const ids = apiAnswers(ctx)
    .filter((ex) => ex.response!.status >= 200 && ex.response!.status < 300)
    .map((ex) => endpointIdOf(ctx.profile, ex.request.method, new URL(ex.request.url).pathname));
  return new Set(ids.filter((id): id is string => id !== undefined));
}
