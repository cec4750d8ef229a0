// The command list and each command's help, read from the command table (commands.ts).
// `outreach-conformance --help` lists the commands; `COMMAND --help` (or -h, or `help COMMAND`)
// prints that command's flags, generated from its table. Each table is loaded only when its help
// is asked for.
import { helpText } from '../ground/args.ts';
import { COMMANDS } from './commands.ts';

export { COMMANDS };

const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));

export const HELP = `outreach-conformance: conformance suite and load harness for the Outreach Email Service API v1

usage: outreach-conformance COMMAND [flags]      "outreach-conformance COMMAND --help" lists a command's flags

commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`).join('\n')}
  ${'--version'.padEnd(width)}  the kit's version

exit codes: 0 the command did what it was asked (run: every MUST check passed), 1 it found a failure
            (run: a MUST check failed), 2 the kit could not run; each command's help says its own
`;

/** The help of one command (`mode`: a load mode, for `load MODE --help`). */
export async function usageOf(command: string, mode?: string): Promise<string> {
  const tables = await COMMANDS[command]!.help();
  if (command === 'load' && mode) {
    const { LOAD_HELP } = await import('../load/flags.ts');
    if (mode in LOAD_HELP) return helpText(LOAD_HELP[mode as keyof typeof LOAD_HELP]);
  }
  return tables.map(helpText).join('\n');
}
