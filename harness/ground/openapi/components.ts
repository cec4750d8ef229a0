import { z } from 'zod';
import { listOf, mutateBody, SCHEMAS } from '../spec-model/schemas/index.ts';
import type { Endpoint } from '../spec-model/endpoints.ts';
import { marked, type Reading } from './reading.ts';
import { applyDeclarations } from './declared-schemas.ts';

// components.schemas: the spec model's named zod schemas, converted together so a schema used
// inside another is a $ref to its component (not a copy), plus the list answers of the list
// endpoints and the mutate body under the vendor's field names; the vendor's declared values
// where the spec leaves them open (declared-schemas.ts).

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The component of a list endpoint's answer ({ data: [item], meta }). */
export const listName = (item: string) => `${item}List`;

export const MUTATE_BODY = 'LeadMutateBody';

export function componentSchemas(endpoints: readonly Endpoint[], r: Reading): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SCHEMAS)) registry.add(schema, { id });
  for (const ep of endpoints) {
    if (ep.list && ep.response) registry.add(listOf(SCHEMAS[ep.response as keyof typeof SCHEMAS]), { id: listName(ep.response) });
  }
  const names = { operation: r.names.mutateOperation.name, status: r.names.mutateStatus.name };
  registry.add(mutateBody(names), { id: MUTATE_BODY });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    io: 'output',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  const mutateProps = schemas[MUTATE_BODY]!.properties as Record<string, Record<string, unknown>>;
  Object.assign(mutateProps[names.operation]!, marked(r.names.mutateOperation.declared));
  Object.assign(mutateProps[names.status]!, marked(r.names.mutateStatus.declared));
  applyDeclarations(schemas, r);
  return schemas;
}

/** The components `root` refers to, directly or through other components: the document carries no others. */
export function usedComponents(root: unknown, schemas: Record<string, unknown>): Record<string, unknown> {
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const ref = (node as { $ref?: unknown }).$ref;
    const name = typeof ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1] : undefined;
    if (name && !used.has(name)) {
      used.add(name);
      visit(schemas[name]);
    }
    for (const v of Object.values(node)) visit(v);
  };
  visit(root);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}
