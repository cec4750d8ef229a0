import { parseArgs as nodeParseArgs } from 'node:util';
import { KitError } from './errors.ts';

// Every command's flags as one table each: Node's util.parseArgs reads the argv from it, and the
// command's help is written from the same table, so no command accepts a flag its help does not
// show. A flag is added by adding a row.

export interface FlagRow {
  /** number: checked finite; list: comma-separated, and the flag may repeat (values join); strings: repeated, each value whole */
  readonly type: 'string' | 'number' | 'boolean' | 'list' | 'strings';
  /** what the help says the flag takes, e.g. FILE, N, a,b (none for a boolean) */
  readonly value?: string;
  /** one line: what the flag does */
  readonly help: string;
  /** a one-letter alias (-h) */
  readonly short?: string;
}

export type FlagSpec = Readonly<Record<string, FlagRow>>;

export type ParsedFlags = Record<string, string | number | boolean | string[] | undefined>;

/** A command's help, generated: its synopsis lines, its flags, and its own exit-code line. */
export interface CommandHelp {
  /** synopsis lines after "usage:", e.g. `outreach-conformance verify BUNDLE.tgz [flags]` */
  readonly usage: readonly string[];
  /** what it does, a line or two */
  readonly summary: string;
  readonly flags: FlagSpec;
  /** lines after the flags (value syntax, notes) */
  readonly notes?: readonly string[];
  /** `exit codes: 0 ..., 1 ..., 2 ...` for this command */
  readonly exit: string;
}

const known = (spec: FlagSpec) => Object.keys(spec).map((k) => `--${k}`).join(', ');

/**
 * Parses `argv` by `spec`: unknown flags, missing values and bad numbers are KitErrors naming
 * the flag. Positionals are refused unless `positionals` is set (then they are returned in `_`).
 */
export function parseArgs(argv: string[], spec: FlagSpec, o: { positionals?: boolean } = {}): ParsedFlags & { _?: string[] } {
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, row]) => [name, { type: row.type === 'boolean' ? 'boolean' : 'string', multiple: row.type === 'list' || row.type === 'strings', ...(row.short ? { short: row.short } : {}) } as const]),
  );
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args: argv, options, strict: true, allowPositionals: !!o.positionals });
  } catch (e) {
    throw refusal(e as Error & { code?: string }, argv, spec);
  }
  const out: ParsedFlags & { _?: string[] } = o.positionals ? { _: parsed.positionals } : {};
  for (const [name, raw] of Object.entries(parsed.values)) {
    const { type } = spec[name]!;
    if (type === 'list') out[name] = (raw as string[]).flatMap((v) => v.split(',')).filter(Boolean);
    else if (type === 'number') {
      const n = Number(raw);
      if (raw === '' || !Number.isFinite(n)) throw new KitError(`--${name} takes a number, got "${raw}"`);
      out[name] = n;
    } else out[name] = raw as string | boolean;
  }
  return out;
}

/** util.parseArgs' error as the kit says it: the argument, and the flags there are. */
function refusal(e: Error & { code?: string }, argv: string[], spec: FlagSpec): KitError {
  const named = /'(-{1,2}[^' ]+)/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = Object.keys(spec).find((k) => named === `--${k}` || (named && named.startsWith(`--${k} `)) || e.message.includes(`--${k}`));
    if (name && spec[name]!.type !== 'boolean') return new KitError(`--${name} needs a value`);
    if (name) return new KitError(`--${name} takes no value`);
  }
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = argv.find((a) => !a.startsWith('-')) ?? named ?? '';
    return new KitError(`unknown argument "${arg}"; known: ${known(spec)}`);
  }
  const arg = argv.find((a) => named !== undefined && (a === named || a.startsWith(`${named}=`))) ?? named ?? argv.join(' ');
  return new KitError(`unknown argument "${arg}"; known: ${known(spec)}`);
}

/** Every command takes -h/--help (the CLI answers it before the command's parser runs). */
const HELP_ROW: FlagRow = { type: 'boolean', short: 'h', help: 'this help' };

/** The flags of a table as help lines: `--name VALUE   what it does`, aligned. */
export function flagLines(spec: FlagSpec): string[] {
  const left = Object.entries(spec).map(([name, row]) => `${row.short ? `-${row.short}, ` : ''}--${name}${row.type === 'boolean' ? '' : ` ${row.value ?? (row.type === 'number' ? 'N' : 'VALUE')}`}${row.type === 'list' || row.type === 'strings' ? ' (repeatable)' : ''}`);
  const width = Math.min(40, Math.max(...left.map((l) => l.length)));
  return Object.values(spec).map((row, i) => `  ${left[i]!.padEnd(width)}  ${row.help}`);
}

/** The whole help of a command. */
export function helpText(h: CommandHelp): string {
  return [
    'usage:',
    ...h.usage.map((u) => `  ${u}`),
    '',
    ...h.summary.split('\n'),
    '',
    'flags:',
    ...flagLines({ ...h.flags, help: HELP_ROW }),
    ...(h.notes?.length ? ['', ...h.notes] : []),
    '',
    h.exit,
    '',
  ].join('\n');
}

/** The long flags a help text shows (what a user can read there). */
export function flagsShown(help: string): Set<string> {
  return new Set(help.match(/(?<![\w-])--[a-z][\w-]*/g) ?? []);
}
