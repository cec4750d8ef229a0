import { isDeepStrictEqual } from 'node:util';
import type { ApiResponse } from '../../client/index.ts';
import type { Findings } from './findings.ts';
import type { Wire } from './wire.ts';
import { pathsWhere, uniquePath } from './answer-paths.ts';
import { getPath } from '../../ground/operations.ts';
import { GET_OPERATION_PATHS } from './probe-operations.ts';

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
  // The list's own path first: a collection is most often created where it is listed.
  const paths = [...new Set([...(listPath ? [listPath] : []), ...GET_OPERATION_PATHS['apikeys.list']])];
  const answers: string[] = [];
  const made = await tryCreate(wire, paths, name, answers);
  if (!made) {
    findings.notFound(`${at}/path`, `no POST created a key with the field names ${NAME_FIELDS.join('/')} and ${SCOPES_FIELDS.join('/')} (${answers.join(', ')})`);
    return undefined;
  }
  const { res, path, nameField, scopesField } = made;
  findings.observe(`${at}/method`, 'POST');
  findings.observe(`${at}/path`, path);
  // Taken names are proven by the answer echoing what they carried.
  if (JSON.stringify(res.body ?? null).includes(JSON.stringify(name))) findings.observe(`${at}/fields/name`, nameField);
  else findings.notFound(`${at}/fields/name`, `the answer did not echo the name sent as "${nameField}"`);
  findings.observe('/declarations/successStatus/apikeys.create', res.status);
  const scopesPath = pathsWhere(res.body, (_, v) => isDeepStrictEqual(v, [SCOPE]));
  if (scopesPath.length === 1) {
    findings.observe(`${at}/fields/scopes`, scopesField);
    findings.observe(`${at}/result/scopes`, scopesPath[0]);
  } else for (const f of ['fields', 'result']) findings.notFound(`${at}/${f}/scopes`, `the answer shows the scope sent as "${scopesField}" at no single path`);
  const idPath = uniquePath(res.body, 'id', (v) => typeof v === 'string');
  const key = { revoke: () => revoke(wire, findings, res.body, idPath) };
  try {
    await proveSecret(wire, findings, res.body);
  } catch (e) {
    await key.revoke();
    throw e;
  }
  return key;
}

/**
 * POSTs the field-name pairs in turn: a 404 or 405 to the first says "not this path" (the next
 * is tried), a 400 or 422 "not these names"; the first path that answers otherwise is the only one
 * whose pairs are all tried (bounded: at most paths + pairs requests). A 2xx is a key created,
 * revoked whatever else it proves; anything else stops (a 403: the key may not manage keys).
 */
async function tryCreate(wire: Wire, paths: readonly string[], name: string, answers: string[]) {
  const pairs = NAME_FIELDS.flatMap((nameField) => SCOPES_FIELDS.map((scopesField) => ({ nameField, scopesField })));
  for (const path of paths) {
    for (const [i, { nameField, scopesField }] of pairs.entries()) {
      const res: ApiResponse = await wire.post(path, { [nameField]: name, [scopesField]: [SCOPE] });
      if (res.status >= 200 && res.status < 300) return { res, path, nameField, scopesField };
      answers.push(`${path} {${nameField}, ${scopesField}} ${res.status}`);
      if (i === 0 && (res.status === 404 || res.status === 405)) break; // not this path: the next
      if (res.status !== 400 && res.status !== 422) return undefined;
      if (i === pairs.length - 1) return undefined; // the path is there; no pair of names fits
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
