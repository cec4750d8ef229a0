import { request } from 'undici';
import type { Profile } from '../ground/profile-schema.ts';
import type { ControlEndpoint } from '../ground/control-endpoint.ts';
import { KitError } from '../ground/errors.ts';
import { resolveSecret } from '../ground/profile.ts';

// Before a run writes anything: every secret the profile names resolves, the target answers HTTP,
// and the control token is accepted. A failure here is the user's set-up, not the target's
// conformance: a KitError (exit 2) naming the profile field, the variable or the URL. What needs
// a workspace key's request (whether the target accepts it) is verified where the key's rate
// budget counts it: the worker's workspace pool (harness/runner/pool.ts).

const TIMEOUT_MS = 10_000;

/** Resolves the workspace keys (profile without a control API) so an unset or empty variable stops the run before it starts. */
export function resolveWorkspaceKeys(profile: Profile): void {
  if (profile.embedded || profile.control) return;
  profile.workspaces.forEach((w, i) => resolveSecret(w.apiKey, `workspaces.${i}.apiKey`));
}

/** The target answers HTTP at all (any status); otherwise the kit cannot run. */
export async function probeTarget(baseUrl: string): Promise<void> {
  try {
    const res = await request(`${baseUrl}/v1/workspace`, { method: 'GET', headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    await res.body.dump();
  } catch (e) {
    throw new KitError(`target ${baseUrl} is unreachable (profile field baseUrl): ${(e as Error).message}`);
  }
}

/** The profile's control API with its token resolved, after GET /clock accepted the token. */
export async function resolveControl(profile: Profile): Promise<ControlEndpoint | undefined> {
  if (!profile.control) return undefined;
  const control = { baseUrl: profile.control.baseUrl.replace(/\/+$/, ''), token: resolveSecret(profile.control.token, 'control.token') };
  const from = typeof profile.control.token === 'string' ? 'given inline' : `from environment variable ${profile.control.token.env}`;
  let status: number;
  try {
    const res = await request(`${control.baseUrl}/clock`, { method: 'GET', headers: { authorization: `Bearer ${control.token}` }, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    await res.body.dump();
    status = res.statusCode;
  } catch (e) {
    throw new KitError(`the conformance-control API at ${control.baseUrl} (profile field control.baseUrl) is unreachable: ${(e as Error).message}`);
  }
  if (status === 401 || status === 403) throw new KitError(`the control token (profile field control.token, ${from}) was refused: GET ${control.baseUrl}/clock answered ${status}`);
  if (status < 200 || status > 299) throw new KitError(`the conformance-control API at ${control.baseUrl} (profile field control.baseUrl) answered GET /clock with ${status}, not 200: is it the control API's base URL?`);
  return control;
}
