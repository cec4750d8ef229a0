import { KitError } from '../ground/errors.ts';
import { COMMANDS, HELP, usageOf } from './usage.ts';
import { KIT } from '../ground/kit.ts';


/**
 * Commands that are done when they return: the process exits then, rather than waiting for
 * what the embedded reference left on the wire (a verification waiting out a 5 s DNS timeout
 * keeps the event loop alive after the run is over). Servers (`reference`, `sinks`) stay up.
 */
export const DONE_WHEN_RETURNED: ReadonlySet<string> = new Set(['run', 'plan', 'openapi', 'verify', 'init', 'mutation', 'sweep']);

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
    if (cmd !== undefined && COMMANDS[cmd] && wantsHelp(rest)) return await helpFor(cmd, rest);
    switch (cmd) {
      // Each command loads what it needs: the run's modules (the checks, reports) are a second and
      // more that `reference`, `sinks` or `--help` need not wait for.
      case 'run':
        return await (await import('./run.ts')).runCommand(rest);
      case 'init':
        return await (await import('./init.ts')).initCommand(rest);
      case 'load':
        return await (await import('../load/command.ts')).loadCommand(rest);
      case 'compare':
        return await (await import('../load/compare/command.ts')).compareCommand(rest);
      case 'plan':
        return await (await import('./plan.ts')).planCommand(rest);
      case 'openapi':
        return await (await import('./openapi.ts')).openapiCommand(rest);
      case 'verify':
        return await (await import('./verify.ts')).verifyCommand(rest);
      case 'sweep':
        return await (await import('./sweep.ts')).sweepCommand(rest);
      case 'sinks':
        return await (await import('../sinks/cli.ts')).sinksCommand(rest);
      case 'mutation':
        return await (await import('../mutation/command.ts')).mutationCommand(rest);
      case 'soak':
        return await (await import('../portability/soak.ts')).soakCommand(rest);
      case 'reference':
        return await (await import('../reference/serve.ts')).serveReference(rest).then(
          () => 0,
          (e: unknown) => (process.stderr.write(`outreach-conformance reference: ${(e as Error).message}\n`), 2),
        );
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        if (cmd === 'help' && rest[0] && COMMANDS[rest[0]]) return await helpFor(rest[0], rest.slice(1));
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
