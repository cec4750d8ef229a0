import type { ApiRequest } from '../../../harness/ground/api-client.ts';
import { CheckFailure, type Check, type CheckContext } from '../../../harness/ground/check.ts';
import type { Profile } from '../../../harness/ground/profile-schema.ts';
import { ENDPOINTS, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';

// For the scope checks' tests, which judge them against scripted targets: the catalog endpoint a
// request addresses (templates of the spec or the profile).

export function endpointOf(req: ApiRequest, profile: Profile): Endpoint {
  const found = ENDPOINTS.find((e) => {
    const op = e.referenced ? profile.operations[e.referenced] : undefined;
    const template = e.path ?? op?.path;
    if (!template || (op?.method ?? e.method) !== req.method) return false;
    return new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(req.path);
  });
  if (!found) throw new Error(`no endpoint for ${req.method} ${req.path}`);
  return found;
}

/** A check's verdict against a scripted target: its failure's message, or undefined when it passes. */
export async function failureOf(check: Pick<Check, 'run'>, ctx: CheckContext): Promise<string | undefined> {
  try {
    await check.run(ctx);
    return undefined;
  } catch (e) {
    if (e instanceof CheckFailure) return e.message;
    throw e;
  }
}
