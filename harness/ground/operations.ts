import type { Operation, Profile } from './profile-schema.ts';
import type { ReferencedOperationId } from './spec-model/referenced-operations.ts';

// Referenced operations ("not shown" shapes) come from the profile: these helpers read them.

export function operation(profile: Profile, id: ReferencedOperationId): Operation | undefined {
  return profile.operations[id];
}

/** "/v1/campaigns/{id}/pause" + { id } -> "/v1/campaigns/3f.../pause"; a missing param is an error. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`path ${template} needs parameter {${name}}`);
    return encodeURIComponent(v);
  });
}

/** Reads a dotted path ("data", "key.secret") from a JSON value. */
export function getPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The request field name the target uses for a logical field (defaults to the logical name). */
export function fieldName(op: Operation, logical: string): string {
  return op.fields[logical] ?? logical;
}

/**
 * An answer whose resource (a mailbox for accounts.get / accounts.resume) sits at the profile's
 * `result.item` path; the body itself when the profile gives none. Same exchange, a 2xx body
 * narrowed (errors keep their envelope).
 */
export function itemOf<R extends { status: number; body: unknown }>(op: Operation, res: R): R {
  const path = op.result.item;
  return path === undefined || res.status < 200 || res.status > 299 ? res : { ...res, body: getPath(res.body, path) };
}

/** The response path for a logical result (defaults to the logical name). */
export function resultPath(op: Operation, logical: string): string {
  return op.result[logical] ?? logical;
}
