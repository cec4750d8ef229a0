import type { Operation } from '../profile-schema.ts';
import { REFERENCED_OPERATIONS, type ReferencedOperationId } from '../spec-model/referenced-operations.ts';
import type { Endpoint } from '../spec-model/endpoints.ts';
import { IDEMPOTENCY_KEY, pathParameters, queryParameters, type Parameter } from './parameters.ts';
import { NOT_DECLARED, type Reading } from './reading.ts';
import { schemaRef } from './components.ts';

// The referenced operations (spec 4.7 last paragraph, 4.2): the spec gives no shape, so a
// declared one is written as the vendor declares it (method, path, field names, where results
// sit), and an undeclared one is only listed, marked, under x-referenced-operations.

/** Operations whose declared `result.item` (or the whole answer) is a mailbox (profile-schema.ts). */
const MAILBOX_ANSWER: ReadonlySet<string> = new Set(['accounts.get', 'accounts.resume']);
/** The resource of part 2 each listing's `result.items` holds (emails as listed carry no body, 4.5). */
const LISTED: Record<string, string> = { 'accounts.list': 'Mailbox', 'leads.list': 'Lead', 'emails.list': 'EmailSummary' };

function resultLeaf(id: string, logical: string): Record<string, unknown> {
  if (logical === 'item' && MAILBOX_ANSWER.has(id)) return schemaRef('Mailbox');
  const description = `the kit's "${logical}"`;
  if (logical !== 'items') return { description };
  return { type: 'array', description, ...(LISTED[id] ? { items: schemaRef(LISTED[id]) } : {}) };
}

export interface DeclaredOperation {
  /** Lower case, as the key of a path item. */
  method: string;
  /** The operation object without its security, success and error answers (the caller adds those). */
  operation: Record<string, unknown>;
  /** The success answer's schema. */
  result: Record<string, unknown>;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Declared request fields: a JSON body for POST/PUT/PATCH, query parameters otherwise. */
function fieldsOf(op: Operation): { query: Parameter[]; body?: Record<string, unknown> } {
  const entries = Object.entries(op.fields);
  if (!BODY_METHODS.has(op.method)) {
    return { query: entries.map(([logical, name]) => ({ name, in: 'query', required: false, description: `the kit's "${logical}"`, schema: {} })) };
  }
  if (!entries.length) return { query: [] };
  const properties = Object.fromEntries(entries.map(([logical, name]) => [name, { description: `the kit's "${logical}"` }]));
  return { query: [], body: { required: true, content: { 'application/json': { schema: { type: 'object', properties } } } } };
}

/** A schema holding each declared result at its dotted path ("apiKey.secret"). */
function resultSchema(id: string, op: Operation): Record<string, unknown> {
  const item = op.result.item;
  if (MAILBOX_ANSWER.has(id) && item === undefined) return schemaRef('Mailbox');
  const root: Record<string, unknown> = { type: 'object', properties: {} };
  for (const [logical, path] of Object.entries(op.result)) {
    let node = root;
    const parts = path.split('.');
    for (const part of parts.slice(0, -1)) {
      const props = node.properties as Record<string, Record<string, unknown>>;
      if (!props[part]?.properties) props[part] = { type: 'object', properties: {} };
      node = props[part]!;
    }
    (node.properties as Record<string, unknown>)[parts.at(-1)!] = resultLeaf(id, logical);
  }
  return Object.keys(root.properties as object).length ? root : { description: 'the answer; its shape is not shown in the spec' };
}

/** `path`: the declared path, or the spec's own template of that path when they differ only in parameter names. */
export function declaredOperation(id: ReferencedOperationId, op: Operation, ep: Endpoint | undefined, r: Reading, path = op.path): DeclaredOperation {
  const fields = fieldsOf(op);
  const mutating = ep?.mutating ?? op.method !== 'GET';
  const operation: Record<string, unknown> = {
    operationId: id,
    summary: `${op.method} ${op.path}: the spec's referenced operation ${id}${ep ? ` (spec ${ep.section})` : ''}, as the profile declares it`,
    parameters: [...pathParameters(path), ...(mutating ? [IDEMPOTENCY_KEY] : []), ...queryParameters(id, op.list, r), ...fields.query],
    ...(fields.body ? { requestBody: fields.body } : {}),
  };
  return { method: op.method.toLowerCase(), operation, result: resultSchema(id, op) };
}

/** The referenced operations the profile leaves undeclared, listed with what the spec says of them. */
export function undeclaredOperations(endpoints: readonly Endpoint[], r: Reading): Record<string, unknown>[] {
  return REFERENCED_OPERATIONS.filter((id) => !r.operations[id]).map((id) => {
    const ep = endpoints.find((e) => e.referenced === id);
    return { id, ...(ep ? { scope: ep.scope, section: ep.section } : {}), shape: 'not shown', ...NOT_DECLARED };
  });
}
