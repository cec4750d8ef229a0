// One parser, one help: for every command (and each load mode), the flags its --help shows are
// exactly the flags its parser accepts (asked from the command itself, with a flag it cannot
// know: its refusal lists what it knows), each accepted with a value of its type, and its help
// ends with its own exit-code line.
import { describe, expect, it } from 'vitest';
import { flagsShown, helpText, parseArgs, type CommandHelp, type FlagSpec } from '../ground/args.ts';
import { cliInProcess as cli, NOT_A_FLAG } from './in-process.test-helper.ts';
import { COMMANDS } from './usage.ts';

/** The command line of each help table: `load api`, `run`... */
const invocation = (command: string, h: CommandHelp) => (command === 'load' ? ['load', h.usage[0]!.split(' ')[2]!] : [command]);
const flagsOf = (spec: FlagSpec) => Object.keys(spec).map((k) => `--${k}`).sort();
/** A value each flag type takes. */
const sample = { string: 'x', number: '1', list: 'a,b', strings: 'a:b' } as const;

describe('every command: its help and its parser, from one table', async () => {
  const tables = await Promise.all(Object.entries(COMMANDS).map(async ([command, c]) => (await c.help()).map((h) => ({ command, h }))));
  for (const { command, h } of tables.flat()) {
    const argv = invocation(command, h);
    describe(argv.join(' '), () => {
      it('--help shows exactly the flags of its table, and -h/--help', async () => {
        const r = await cli([...argv, '--help']);
        expect(r.code).toBe(0);
        expect(r.text).toBe(helpText(h));
        expect([...flagsShown(r.text)].sort()).toEqual([...flagsOf(h.flags), '--help'].sort());
      });

      it('its parser knows exactly those flags: an unknown one is refused with exit 2, naming them', async () => {
        const r = await cli([...argv, NOT_A_FLAG]);
        expect(r.code, r.text).toBe(2);
        const known = /known: ([^)\n]*)/.exec(r.text)?.[1] ?? '';
        expect(known.split(', ').sort(), r.text).toEqual(flagsOf(h.flags));
      });

      it('accepts each flag with a value of its type', () => {
        for (const [name, row] of Object.entries(h.flags)) {
          const args = row.type === 'boolean' ? [`--${name}`] : [`--${name}`, sample[row.type]];
          expect(() => parseArgs(args, h.flags), name).not.toThrow();
        }
      });

      it('ends with its own exit-code line', () => {
        const text = helpText(h).trimEnd();
        expect(text.slice(text.lastIndexOf('\nexit codes: ') + 1)).toBe(h.exit);
        if (command !== 'run') expect(h.exit).not.toMatch(/MUST check/);
      });
    });
  }
});

describe('the parser', () => {
  const spec = { out: { type: 'string', help: '' }, n: { type: 'number', help: '' }, tags: { type: 'list', help: '' }, user: { type: 'strings', help: '' }, quiet: { type: 'boolean', help: '' } } as const;

  it('reads --flag value, --flag=value, lists (joined, repeated) and whole repeated values', () => {
    expect(parseArgs(['--out', 'a', '--n=3', '--tags', 'x,y', '--tags=z', '--user', 'a:b,c', '--quiet'], spec)).toEqual({ out: 'a', n: 3, tags: ['x', 'y', 'z'], user: ['a:b,c'], quiet: true });
  });

  it('refuses, naming the flag: unknown ones, a missing value, a value for a boolean, a bad number, a stray positional', () => {
    expect(() => parseArgs(['--nope'], spec)).toThrow('unknown argument "--nope"; known: --out, --n, --tags, --user, --quiet');
    expect(() => parseArgs(['--out'], spec)).toThrow('--out needs a value');
    expect(() => parseArgs(['--quiet=yes'], spec)).toThrow('--quiet takes no value');
    expect(() => parseArgs(['--n', 'many'], spec)).toThrow('--n takes a number, got "many"');
    expect(() => parseArgs(['file.json'], spec)).toThrow('unknown argument "file.json"');
    expect(parseArgs(['file.json', '--n', '2'], spec, { positionals: true })).toEqual({ _: ['file.json'], n: 2 });
  });
});
