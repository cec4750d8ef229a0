import { runCommand } from './run.ts';
import { KitError } from '../runner/profile.ts';

const HELP = `outreach-conformance: conformance suite and load harness for the Outreach Email Service API v1

usage:
  outreach-conformance run [--profile FILE] [--depth smoke|quick|default|full] [--time-budget 5m] [--out DIR] [--only REGEX]
                           [--seed N] [--concurrency N] [--workspaces N] [--mutants a,b] [--quiet]
                           [--spec FILE]  compare a spec file with the one the kit was written from
                           [--sinks URL]  use a standalone "sinks" the target can reach (its HTTP API URL)
                           [--check REGEX] [--clause ID,..] [--section 4.2,..] [--rerun-failed]  choose checks
                           [--baseline FILE]  known failures (expected, with a reason; a stale entry fails the run)
  outreach-conformance verify BUNDLE.tgz                       checks a run's certification bundle (exit 1 tampered, 2 unreadable)
  outreach-conformance init [--out FILE]                       writes a starter profile for your own target
  outreach-conformance load api|capacity|sendpath [--profile FILE] ...   load runs (load.json, load.html); "load help" lists the flags
  outreach-conformance compare --base <dir|git rev|url> --head <dir|.|url> [--pairs 5] [--mode api|sendpath] ...
                                                               a regression compare (compare.json, compare.html); "compare --help" lists the flags
  outreach-conformance plan [--profile FILE] [--depth D] [--time-budget 5m] [--left-out]   the four depths (checks, requests, clauses, minutes), or one run's plan
  outreach-conformance openapi                                 prints an OpenAPI 3.1 document from the spec model
  outreach-conformance sinks [--smtp-port N] [--imap-port N] [--http-port N] [--user addr:pass]...
  outreach-conformance mutation [--out DIR] [--only REGEX]     kills every mutant of the reference target
  outreach-conformance reference [--mutants a,b] [--choices default|alt|random:SEED]
                                 serves the reference target alone (prints its URLs and, with
                                 --choices, the profile of that choice set)
  outreach-conformance soak [--runs N] [--choices default|alt|random] [--no-control] [--seed N]
                                                               the suite against the reference again and again

exit codes: 0 every MUST check passed, 1 a MUST check failed, 2 the kit itself could not run
`;

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'run':
        return await runCommand(rest);
      case 'init':
        return await (await import('./init.ts')).initCommand(rest);
      case 'load':
        return await (await import('../load/command.ts')).loadCommand(rest);
      case 'compare':
        return await (await import('../load/compare.ts')).compareCommand(rest);
      case 'plan':
        return await (await import('./plan.ts')).planCommand(rest);
      case 'openapi':
        return await (await import('./openapi.ts')).openapiCommand();
      case 'verify':
        return await (await import('./verify.ts')).verifyCommand(rest);
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
