import { describe, expect, it } from 'vitest';
import { buildOpenApi } from './openapi.ts';
import { ENDPOINTS } from './spec-model/endpoints.ts';
import { lintStrict } from './openapi/lint.test-helper.ts';

describe('the generated OpenAPI document', () => {
  const doc = buildOpenApi(ENDPOINTS);
  it('is OpenAPI 3.1 with every spec path under /v1', () => {
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(20);
    for (const p of paths) expect(p.startsWith('/v1/')).toBe(true);
  });
  it('has one operation per catalog endpoint with a path, each naming its scope', () => {
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p)) as { operationId: string; 'x-required-scope': string }[];
    expect(ops.map((o) => o.operationId).sort()).toEqual(ENDPOINTS.filter((e) => e.path).map((e) => e.id).sort());
    expect(ops.find((o) => o.operationId === 'apikeys.revoke')!['x-required-scope']).toBe('apikeys:manage');
    // Part 5: mailbox reads also accept accounts:write; any one accepted scope is enough.
    const verification = ops.find((o) => o.operationId === 'accounts.verification') as unknown as { security: { bearer: string[] }[] };
    expect(verification.security).toContainEqual({ bearer: ['accounts:write'] });
    expect(verification.security).not.toContainEqual({ bearer: ['campaigns:read'] });
  });
  it('answers 201 for POST /v1/accounts, any 2xx (marked open) elsewhere, and refers errors to the envelope', () => {
    const create = doc.paths['/v1/accounts']!.post!;
    expect(Object.keys(create.responses as object)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '429']));
    expect((create.responses as Record<string, unknown>)['401']).toEqual({ $ref: '#/components/responses/Unauthenticated' });
    expect(JSON.stringify(doc.components.responses)).toContain('ErrorEnvelope');
    const start = doc.paths['/v1/campaigns/{id}/start']!.post!.responses as Record<string, Record<string, unknown>>;
    expect(start['2XX']!['x-outreach-conformance']).toBe('not-declared');
  });
  it('lists the referenced operations without inventing their shapes, each marked not declared', () => {
    const listed = doc['x-referenced-operations']!;
    expect(listed.map((o) => o.id)).toContain('apikeys.create');
    for (const o of listed) expect(o).toMatchObject({ shape: 'not shown', 'x-outreach-conformance': 'not-declared' });
  });
  it('refers to named schemas by $ref instead of copying them', () => {
    const response = doc.components.schemas.AccountsCreateResponse as { properties: { accounts: { items: unknown } } };
    expect(response.properties.accounts.items).toEqual({ $ref: '#/components/schemas/Mailbox' });
  });
  // A stand-in licence identifier: the kit's own licence is whatever package.json names (none yet).
  it('lints clean under Redocly recommended-strict once it carries a licence', async () => {
    expect(await lintStrict(buildOpenApi(ENDPOINTS, { license: 'LicenseRef-example' }))).toEqual([]);
  });
  it('is held by a live linter: an unused component or a missing licence is reported', async () => {
    const withUnused = { ...doc, info: { ...doc.info, license: { name: 'LicenseRef-example', identifier: 'LicenseRef-example' } }, components: { ...doc.components, schemas: { ...doc.components.schemas, Spare: { type: 'string' } } } };
    expect(await lintStrict(withUnused)).toEqual(['no-unused-components #/components/schemas/Spare: Component: "Spare" is never used.']);
    expect((await lintStrict(doc)).map((p) => p.split(' ')[0])).toEqual(['info-license']);
  });
});
