import { KitError } from '../ground/errors.ts';
import { HELP, usageOf } from './usage.ts';
import { commandNamed } from './commands.ts';
import { KIT } from '../ground/kit.ts';

export { DONE_WHEN_RETURNED } from './commands.ts';

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/** `COMMAND --help` anywhere among its arguments: its usage, exit 0, before anything starts. */
async function helpFor(cmd: string, rest: string[]): Promise<number> {
  process.stdout.write(await usageOf(cmd, rest[0]));
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    if (cmd === '--version' || cmd === '-V' || cmd === 'version') {
      process.stdout.write(`${KIT.name} ${KIT.version}\n`);
      return 0;
    }
    const command = commandNamed(cmd);
    if (command && wantsHelp(rest)) return await helpFor(cmd!, rest);
    if (command) return await command.run(rest);
    switch (cmd) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        if (cmd === 'help' && commandNamed(rest[0])) return await helpFor(rest[0]!, rest.slice(1));
        process.stdout.write(HELP);
        return cmd === undefined ? 2 : 0;
      default:
        process.stderr.write(`outreach-conformance: unknown command "${cmd}"\n\n${HELP}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof KitError) {
      process.stderr.write(`outreach-conformance: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`outreach-conformance: ${(e as Error).stack ?? e}\n`);
    return 2;
  }
}
