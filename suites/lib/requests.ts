import { randomUUID } from 'node:crypto';
import type { ApiRequest } from '../../harness/client/types.ts';
import type { Profile } from '../../fixtures/profiles/schema.ts';
import type { Endpoint } from '../spec/endpoints.ts';
import { fillPath } from '../../harness/runner/operations.ts';

/**
 * A request to any catalog endpoint with placeholder parameters: ids are fresh UUIDs (absent from
 * every workspace), a provider is "google", a limitType "monthly_emails". Used where only the
 * route matters (401 and 403 checks): no request built here can change state.
 * Returns undefined for a referenced operation the profile does not declare.
 */
export function placeholderRequest(ep: Endpoint, profile: Profile, params: Record<string, string> = {}): ApiRequest | undefined {
  const op = ep.referenced ? profile.operations[ep.referenced] : undefined;
  const template = ep.path ?? op?.path;
  if (!template) return undefined;
  const method = (op?.method ?? ep.method) as ApiRequest['method'];
  const filled = fillPath(template, new Proxy(params, { get: (t, k: string) => t[k] ?? placeholder(k) }));
  const req: ApiRequest = { method, path: filled };
  if (ep.id === 'leads.search') req.query = { [profile.names.leadsSearchParam]: 'nobody@example.invalid' };
  if (method !== 'GET' && method !== 'DELETE') req.body = {};
  return req;
}

function placeholder(name: string): string {
  if (name === 'provider') return 'google';
  if (name === 'limitType') return 'monthly_emails';
  return randomUUID();
}

/** The path of an endpoint (spec path or the profile's path for a referenced operation). */
export function endpointPath(ep: Endpoint, profile: Profile, params: Record<string, string>): string | undefined {
  const template = ep.path ?? (ep.referenced ? profile.operations[ep.referenced]?.path : undefined);
  return template ? fillPath(template, params) : undefined;
}
