import type { Findings } from './findings.ts';
import type { Wire } from './wire.ts';

// Names of a route's one required query parameter: the route refuses (400 or 422) a request
// without any, and the right name turns that refusal into an answer about the value: a 2xx (no
// lead matches) or a 404 (no such OAuth flow). A name the target ignores, or refuses as unknown,
// leaves the refusal as it was. Nothing is created.

/** The conventions tried, in order (README, "init"). */
export const REQUIRED_PARAM_CANDIDATES = {
  leadsSearchParam: ['email', 'q', 'query', 'search', 'term', 'fragment'],
  // the spec calls the OAuth `state` "an opaque handle"
  oauthStatusStateParam: ['state', 'handle', 'oauthState', 'oauth_state', 'stateToken'],
} as const;

const PROBES = [
  { field: 'leadsSearchParam', path: '/v1/leads/search', value: 'oc-init-no-such-lead' },
  { field: 'oauthStatusStateParam', path: '/v1/accounts/oauth/google/status', value: 'oc-init-no-such-flow' },
] as const;

const refused = (status: number) => status === 400 || status === 422;
const answered = (status: number) => (status >= 200 && status < 300) || status === 404;

export async function probeRequiredParams(wire: Wire, findings: Findings): Promise<void> {
  for (const { field, path, value } of PROBES) {
    const pointer = `/names/${field}`;
    const bare = await wire.get(path);
    if (!refused(bare.status)) {
      findings.notFound(pointer, `GET ${path} without a parameter answered ${bare.status}, not a refusal a name could lift`);
      continue;
    }
    const names = REQUIRED_PARAM_CANDIDATES[field];
    let found: string | undefined;
    for (const name of names) {
      if (answered((await wire.get(path, { [name]: value })).status)) {
        found = name;
        break;
      }
    }
    if (found) findings.observe(pointer, found);
    else findings.notFound(pointer, `no name lifted GET ${path}'s ${bare.status} (tried ${names.join(', ')})`);
  }
}
