import { isDeepStrictEqual } from 'node:util';
import type { ApiResponse } from '../../client/index.ts';
import type { Findings } from './findings.ts';
import type { Wire } from './wire.ts';
import { pathsWhere, uniquePath } from './answer-paths.ts';
import { getPath } from '../../ground/operations.ts';

// apikeys.create, proven by creating one API key (the only create init makes: a key can be
// revoked, DELETE /v1/api-keys/{id} is the spec's, while a campaign cannot be deleted). The key
// asks the narrowest read scope; its name starts with init's prefix. Its success status, request
// field names and answer paths are kept only where the answer proves them: the key's secret
// authenticates, its id revokes it.

export const NAME_FIELDS = ['name', 'label', 'title'] as const;
export const SCOPES_FIELDS = ['scopes', 'permissions', 'scope'] as const;
const SECRET_FIELDS = new Set(['key', 'secret', 'token', 'apiKey', 'value', 'plaintext']);
/** The scope of init's key, and a route it opens (to prove the secret authenticates). */
const SCOPE = 'campaigns:read';
const SCOPE_PROOF_PATH = '/v1/campaigns';

export interface CreatedKey {
  /** Revokes the key (false when it could not); records whether that proved the id's path. Call once, always. */
  revoke(): Promise<boolean>;
}

export async function probeApiKeyCreate(wire: Wire, findings: Findings, listPath: string | undefined, name: string): Promise<CreatedKey | undefined> {
  const at = '/operations/apikeys.create';
  if (!listPath) {
    findings.notFound(`${at}/path`, 'init creates a key at the API keys list path, which it did not find');
    return undefined;
  }
  const made = await tryCreate(wire, listPath, name);
  if (!made) {
    findings.notFound(`${at}/path`, `POST ${listPath} created no key with any of the field names ${NAME_FIELDS.join('/')} and ${SCOPES_FIELDS.join('/')}`);
    return undefined;
  }
  const { res, nameField, scopesField } = made;
  findings.observe(`${at}/method`, 'POST');
  findings.observe(`${at}/path`, listPath);
  findings.observe(`${at}/fields/name`, nameField);
  findings.observe(`${at}/fields/scopes`, scopesField);
  findings.observe('/declarations/successStatus/apikeys.create', res.status);
  const scopesPath = pathsWhere(res.body, (_, v) => isDeepStrictEqual(v, [SCOPE]));
  if (scopesPath.length === 1) findings.observe(`${at}/result/scopes`, scopesPath[0]);
  else findings.notFound(`${at}/result/scopes`, 'the answer shows the granted scopes at no single path');
  await proveSecret(wire, findings, res.body);
  const idPath = uniquePath(res.body, 'id', (v) => typeof v === 'string');
  return { revoke: () => revoke(wire, findings, res.body, idPath) };
}

/** POSTs the field-name pairs in turn; a 400 says "not these names", anything else stops. */
async function tryCreate(wire: Wire, path: string, name: string) {
  for (const nameField of NAME_FIELDS) {
    for (const scopesField of SCOPES_FIELDS) {
      const res: ApiResponse = await wire.post(path, { [nameField]: name, [scopesField]: [SCOPE] });
      if (res.status >= 200 && res.status < 300 && JSON.stringify(res.body ?? null).includes(JSON.stringify(name))) return { res, nameField, scopesField };
      if (res.status !== 400 && res.status !== 422) return undefined;
    }
  }
  return undefined;
}

/** The secret is the one candidate field whose value opens a route of the key's scope. */
async function proveSecret(wire: Wire, findings: Findings, body: unknown): Promise<void> {
  const at = '/operations/apikeys.create/result/secret';
  const candidates = pathsWhere(body, (k, v) => SECRET_FIELDS.has(k) && typeof v === 'string' && v.length >= 8);
  for (const path of candidates) {
    const secret = getPath(body, path) as string;
    const res = await wire.withKey(secret).get(SCOPE_PROOF_PATH);
    if (res.status === 200) return findings.observe(at, path);
  }
  findings.notFound(at, `no field (${[...SECRET_FIELDS].join(', ')}) of the answer authenticated GET ${SCOPE_PROOF_PATH}`);
}

async function revoke(wire: Wire, findings: Findings, body: unknown, idPath: string | undefined): Promise<boolean> {
  const at = '/operations/apikeys.create/result/id';
  const id = idPath === undefined ? undefined : (getPath(body, idPath) as string);
  const res = id === undefined ? undefined : await wire.delete(`/v1/api-keys/${encodeURIComponent(id)}`);
  if (res && res.status >= 200 && res.status < 300) {
    findings.observe(at, idPath);
    return true;
  }
  findings.notFound(at, `no id of the answer revoked the key: DELETE /v1/api-keys/{id} ${res ? `answered ${res.status}` : 'had no id to send'}`);
  return false;
}
