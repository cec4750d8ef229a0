// A small, strict checker of JSON answers against a Swagger 2.0 schema (the subset Mailpit's
// description uses: type, properties, items, $ref, additionalProperties, format date-time).
// Strict on purpose: every documented property must be present (Mailpit always sends them all)
// and no undocumented property may appear.

export type SwaggerDoc = { definitions: Record<string, Schema>; responses: Record<string, { schema?: Schema }>; paths: Record<string, Record<string, Operation>> };
type Operation = { responses: Record<string, { $ref?: string; schema?: Schema }> };
export type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
};

function resolve(doc: SwaggerDoc, ref: string): Schema {
  const m = /^#\/(definitions|responses)\/(.+)$/.exec(ref);
  if (!m) throw new Error(`unsupported $ref ${ref}`);
  const target = m[1] === 'definitions' ? doc.definitions[m[2]!] : doc.responses[m[2]!]?.schema;
  if (!target) throw new Error(`unresolved $ref ${ref}`);
  return target;
}

/** The schema of an operation's answer for a status code. */
export function responseSchema(doc: SwaggerDoc, path: string, method: string, status: number): Schema {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`no operation ${method} ${path} in the description`);
  const r = op.responses[String(status)];
  if (!r) throw new Error(`no ${status} answer for ${method} ${path}`);
  if (r.$ref) return resolve(doc, r.$ref.replace('#/responses/', '#/responses/'));
  if (!r.schema) throw new Error(`no schema for ${status} ${method} ${path}`);
  return r.schema;
}

/** Every violation as "path: problem"; empty when the value conforms. */
export function validate(doc: SwaggerDoc, schema: Schema, value: unknown, path = '$'): string[] {
  if (schema.$ref) return validate(doc, resolve(doc, schema.$ref), value, path);
  const errs: string[] = [];
  const t = schema.type ?? (schema.properties ? 'object' : undefined);
  switch (t) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: expected object, got ${JSON.stringify(value)?.slice(0, 60)}`];
      const obj = value as Record<string, unknown>;
      const props = schema.properties ?? {};
      for (const [k, s] of Object.entries(props)) {
        if (!(k in obj)) errs.push(`${path}.${k}: missing`);
        else errs.push(...validate(doc, s, obj[k], `${path}.${k}`));
      }
      for (const k of Object.keys(obj)) {
        if (k in props) continue;
        if (schema.additionalProperties && typeof schema.additionalProperties === 'object') errs.push(...validate(doc, schema.additionalProperties, obj[k], `${path}.${k}`));
        else errs.push(`${path}.${k}: not in the description`);
      }
      return errs;
    }
    case 'array':
      if (!Array.isArray(value)) return [`${path}: expected array`];
      value.forEach((v, i) => errs.push(...validate(doc, schema.items ?? {}, v, `${path}[${i}]`)));
      return errs;
    case 'string':
      if (typeof value !== 'string') return [`${path}: expected string, got ${typeof value}`];
      if (schema.format === 'date-time' && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return [`${path}: not an RFC 3339 date-time: ${value}`];
      return [];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${path}: expected integer`];
    case 'number':
      return typeof value === 'number' ? [] : [`${path}: expected number`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path}: expected boolean`];
    default:
      return [];
  }
}
