import { KitError } from './errors.ts';

// A small, strict argv parser: unknown flags are errors that say which flag.
export interface FlagSpec {
  [name: string]: { type: 'string' | 'number' | 'boolean' | 'list'; alias?: string };
}

export function parseArgs(argv: string[], spec: FlagSpec): Record<string, string | number | boolean | string[] | undefined> {
  const out: Record<string, string | number | boolean | string[] | undefined> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--?([\w-]+)(?:=(.*))?$/.exec(arg);
    const name = m ? (Object.keys(spec).find((k) => k === m[1] || spec[k]!.alias === m[1]) ?? m[1]!) : undefined;
    if (!m || !name || !spec[name]) throw new KitError(`unknown argument "${arg}"; known: ${Object.keys(spec).map((k) => `--${k}`).join(', ')}`);
    const { type } = spec[name]!;
    if (type === 'boolean') {
      out[name] = m[2] === undefined ? true : m[2] !== 'false';
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new KitError(`--${name} needs a value`);
    if (type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new KitError(`--${name} takes a number, got "${value}"`);
      out[name] = n;
    } else if (type === 'list') out[name] = [...((out[name] as string[]) ?? []), ...value.split(',').filter(Boolean)];
    else out[name] = value;
  }
  return out;
}
