// What a probe learnt, field by field. A field is named by its JSON pointer in the profile
// (`/operations/apikeys.list/path`); `observed` carries the value the target's answers proved,
// `notFound` why none was. Only observed values are ever written into the profile.

export interface Finding {
  pointer: string;
  value?: unknown;
  /** Set when the field is not found: what was tried, or what was missing. */
  why?: string;
}

export class Findings {
  readonly all: Finding[] = [];
  /** Extensions announced by the control API's GET /capabilities, when it answered. */
  controlExtensions: string[] | undefined;

  observe(pointer: string, value: unknown): void {
    this.all.push({ pointer, value });
  }

  notFound(pointer: string, why: string): void {
    this.all.push({ pointer, why });
  }

  get observed(): Finding[] {
    return this.all.filter((f) => f.why === undefined);
  }

  get missing(): Finding[] {
    return this.all.filter((f) => f.why !== undefined);
  }
}

/** Sets the value at a JSON pointer ("/a/b.c/d"), creating the objects on the way. */
export function setAt(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const parts = pointer.split('/').slice(1);
  let cur = target;
  for (const part of parts.slice(0, -1)) {
    if (cur[part] === null || typeof cur[part] !== 'object') cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** The value at a JSON pointer, undefined where the path ends early. */
export function getAt(source: unknown, pointer: string): unknown {
  let cur = source;
  for (const part of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** JSON pointers of every leaf of a value ("/names/list/cursor", ...), under `prefix`. */
export function leafPointers(value: unknown, prefix: string): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => leafPointers(v, `${prefix}/${k}`));
}
