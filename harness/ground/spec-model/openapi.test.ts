import { describe, expect, it } from 'vitest';
import { buildOpenApi } from './openapi.ts';
import { ENDPOINTS } from './endpoints.ts';

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
  it('answers 201 for POST /v1/accounts and refers errors to the envelope', () => {
    const create = (doc.paths['/v1/accounts'] as Record<string, { responses: Record<string, unknown> }>).post!;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '429']));
    expect(JSON.stringify(create.responses['401'])).toContain('ErrorEnvelope');
  });
  it('lists the referenced operations without inventing their shapes', () => {
    expect(doc['x-referenced-operations'].map((o) => o.id)).toContain('apikeys.create');
  });
});
