import type { z } from 'zod';

// The request fields of a body schema of the spec model (harness/ground/spec-model/schemas/), read from its
// zod definition: what hostile values each field can be given and which of them the spec refuses.

export type FieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'array' | 'object' | 'record' | 'unknown';

export interface FieldInfo {
  /** Path below the body, e.g. ['schedule', 'dailyLimit']. */
  path: string[];
  kind: FieldKind;
  required: boolean;
  /** Strings: the spec's length bound (part 8 "Field lengths"; 2.2). */
  maxLength?: number;
  /** Numbers: bounds the spec states (not the safe-integer limits every int carries). */
  min?: number;
  max?: number;
  integer?: boolean;
}

const SAFE = Number.MAX_SAFE_INTEGER;

type Def = { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(s: z.ZodType): { schema: z.ZodType; optional: boolean } {
  let optional = false;
  let cur = s;
  for (let d = defOf(cur); ['optional', 'nullable', 'default', 'readonly'].includes(d.type) && d.innerType; d = defOf(cur)) {
    if (d.type !== 'nullable') optional = true;
    cur = d.innerType!;
  }
  return { schema: cur, optional };
}

function kindOf(t: string): FieldKind {
  return (['string', 'number', 'boolean', 'enum', 'array', 'object', 'record'] as const).find((k) => k === t) ?? 'unknown';
}

/** Every field of an object schema, and of its nested objects down to `depth` levels. */
export function fieldsOf(schema: z.ZodType, depth = 2, prefix: string[] = []): FieldInfo[] {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return [];
  const out: FieldInfo[] = [];
  for (const [name, raw] of Object.entries(shape)) {
    const { schema: s, optional } = unwrap(raw);
    const kind = kindOf(defOf(s).type);
    const info: FieldInfo = { path: [...prefix, name], kind, required: !optional };
    const any = s as unknown as { maxLength?: number | null; minValue?: number | null; maxValue?: number | null; isInt?: boolean };
    if (kind === 'string' && typeof any.maxLength === 'number') info.maxLength = any.maxLength;
    if (kind === 'number') {
      if (typeof any.minValue === 'number' && any.minValue > -SAFE) info.min = any.minValue;
      if (typeof any.maxValue === 'number' && any.maxValue < SAFE) info.max = any.maxValue;
      if (any.isInt) info.integer = true;
    }
    out.push(info);
    if (kind === 'object' && depth > 1) out.push(...fieldsOf(s, depth - 1, info.path));
  }
  return out;
}

/** A scalar field: a nested or container value given to it is of the wrong type. */
export function isScalar(f: FieldInfo): boolean {
  return f.kind === 'string' || f.kind === 'number' || f.kind === 'boolean' || f.kind === 'enum';
}
