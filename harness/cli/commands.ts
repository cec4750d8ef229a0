// The command table: each command's name, its line in the command list, where its help comes
// from (the table its parser reads: CommandHelp, harness/ground/args.ts) and how it runs. main.ts
// dispatches from it and usage.ts lists it, so a command is written once. Each command loads what
// it needs only when it runs or its help is asked for: the run's modules (the checks, reports)
// are a second and more that `reference`, `sinks` or `--help` need not wait for.
import type { CommandHelp } from '../ground/args.ts';

export interface Command {
  /** one line for the command list */
  summary: string;
  /** the command's help tables (load: one per mode) */
  help: () => Promise<CommandHelp[]>;
  run: (args: string[]) => Promise<number>;
  /**
   * Done when it returns: the process exits then, rather than waiting for what the embedded
   * reference left on the wire (a verification waiting out a 5 s DNS timeout keeps the event loop
   * alive after the run is over). Servers (`reference`, `sinks`) stay up.
   */
  doneWhenReturned?: true;
}

export const COMMANDS: Readonly<Record<string, Command>> = {
  run: {
    summary: 'runs the conformance checks (reports/<run>/)',
    help: async () => [(await import('../conformance/run.ts')).RUN_HELP],
    // The run is given the kit's checks here: the conformance room imports none (its worker takes them by id).
    run: async (a) => {
      const [{ runCommand }, { ALL_CHECKS }] = await Promise.all([import('../conformance/run.ts'), import('../../suites/checks/index.ts')]);
      return runCommand(a, ALL_CHECKS);
    },
    doneWhenReturned: true,
  },
  plan: {
    summary: "the four depths, or one run's plan",
    help: async () => [(await import('./plan.ts')).PLAN_HELP],
    run: async (a) => (await import('./plan.ts')).planCommand(a),
    doneWhenReturned: true,
  },
  verify: {
    summary: "checks a run's certification bundle and its signature",
    help: async () => [(await import('./verify.ts')).VERIFY_HELP],
    run: async (a) => (await import('./verify.ts')).verifyCommand(a),
    doneWhenReturned: true,
  },
  init: {
    summary: 'writes a starter profile, or probes your running target for one',
    help: async () => [(await import('./init.ts')).INIT_HELP],
    run: async (a) => (await import('./init.ts')).initCommand(a),
    doneWhenReturned: true,
  },
  sweep: {
    summary: 'deletes what runs that did not finish left',
    help: async () => [(await import('./sweep.ts')).SWEEP_HELP],
    run: async (a) => (await import('./sweep.ts')).sweepCommand(a),
    doneWhenReturned: true,
  },
  load: {
    summary: 'load runs: api, capacity, sendpath, merge (load.json, load.html)',
    help: async () => Object.values((await import('../load/flags.ts')).LOAD_HELP),
    run: async (a) => (await import('../load/command.ts')).loadCommand(a),
  },
  compare: {
    summary: 'a load regression compare of two builds (compare.json, compare.html)',
    help: async () => [(await import('../load/compare/command.ts')).COMPARE_HELP],
    run: async (a) => (await import('../load/compare/command.ts')).compareCommand(a),
  },
  openapi: {
    summary: 'prints an OpenAPI 3.1 document of the spec, or of your profile',
    help: async () => [(await import('./openapi.ts')).OPENAPI_HELP],
    run: async (a) => (await import('./openapi.ts')).openapiCommand(a),
    doneWhenReturned: true,
  },
  sinks: {
    summary: 'standalone SMTP/IMAP sinks with their HTTP API',
    help: async () => [(await import('../sinks/cli.ts')).SINKS_HELP],
    run: async (a) => (await import('../sinks/cli.ts')).sinksCommand(a),
  },
  mutation: {
    summary: 'kills every mutant of the reference target',
    help: async () => [(await import('../mutation/command.ts')).MUTATION_HELP],
    run: async (a) => (await import('../mutation/command.ts')).mutationCommand(a),
    doneWhenReturned: true,
  },
  reference: {
    summary: 'serves the reference target alone',
    help: async () => [(await import('../reference/serve.ts')).REFERENCE_HELP],
    run: async (a) =>
      (await import('../reference/serve.ts')).serveReference(a).then(
        () => 0,
        (e: unknown) => (process.stderr.write(`outreach-conformance reference: ${(e as Error).message}\n`), 2),
      ),
  },
  soak: {
    summary: 'the suite against the reference again and again',
    help: async () => [(await import('../portability/soak.ts')).SOAK_HELP],
    run: async (a) => (await import('../portability/soak.ts')).soakCommand(a),
  },
};

/** The commands whose process exits when they return (bin/outreach-conformance.js). */
export const DONE_WHEN_RETURNED: ReadonlySet<string> = new Set(Object.entries(COMMANDS).filter(([, c]) => c.doneWhenReturned).map(([n]) => n));

/** The command of that name, or undefined (never an Object prototype's member: `constructor`). */
export const commandNamed = (name: string | undefined): Command | undefined => (name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined);
