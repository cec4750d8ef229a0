// Where a value sits in a JSON answer: the answer's own fields and those one object below
// (`plan`, `subscription.plan`). Deeper guesses are not made.

/** Dotted paths (depth 1 or 2) whose field name and value pass `want`. */
export function pathsWhere(body: unknown, want: (key: string, value: unknown) => boolean): string[] {
  if (!isObject(body)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (want(k, v)) out.push(k);
    else if (isObject(v)) for (const [k2, v2] of Object.entries(v)) if (want(k2, v2)) out.push(`${k}.${k2}`);
  }
  return out;
}

/** The one path of a field named `key` whose value passes `want`; undefined when none or several. */
export function uniquePath(body: unknown, key: string, want: (v: unknown) => boolean): string | undefined {
  const paths = pathsWhere(body, (k, v) => k === key && want(v));
  return paths.length === 1 ? paths[0] : undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
