import { createConfig, lintFromString } from '@redocly/openapi-core';

// Redocly's linter with its `recommended-strict` rules (every warning an error), for the tests
// of the generated OpenAPI document: each problem as "ruleId pointer: message".

export async function lintStrict(doc: unknown): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended-strict'] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  return problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
}

/** What the linter must say of a document of this kit: nothing, but the licence while package.json names none. */
export function expectedProblems(license: string | undefined): string[] {
  return license ? [] : ['info-license #/info: Info object should contain `license` field.'];
}
