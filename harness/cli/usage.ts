// The commands and where each one's help comes from: the table its parser reads (CommandHelp,
// harness/ground/args.ts). `outreach-conformance --help` lists the commands; `COMMAND --help`
// (or -h, or `help COMMAND`) prints that command's flags, generated from its table. Each table
// is loaded only when its help is asked for.
import { helpText, type CommandHelp } from '../ground/args.ts';

interface CommandEntry {
  /** one line for the command list */
  summary: string;
  /** the command's help tables (load: one per mode) */
  help: () => Promise<CommandHelp[]>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  run: { summary: 'runs the conformance checks (reports/<run>/)', help: async () => [(await import('./run.ts')).RUN_HELP] },
  plan: { summary: "the four depths, or one run's plan", help: async () => [(await import('./plan.ts')).PLAN_HELP] },
  verify: { summary: "checks a run's certification bundle and its signature", help: async () => [(await import('./verify.ts')).VERIFY_HELP] },
  init: { summary: 'writes a starter profile, or probes your running target for one', help: async () => [(await import('./init.ts')).INIT_HELP] },
  sweep: { summary: 'deletes what runs that did not finish left', help: async () => [(await import('./sweep.ts')).SWEEP_HELP] },
  load: { summary: 'load runs: api, capacity, sendpath, merge (load.json, load.html)', help: async () => Object.values((await import('../load/flags.ts')).LOAD_HELP) },
  compare: { summary: 'a load regression compare of two builds (compare.json, compare.html)', help: async () => [(await import('../load/compare/command.ts')).COMPARE_HELP] },
  openapi: { summary: 'prints an OpenAPI 3.1 document of the spec, or of your profile', help: async () => [(await import('./openapi.ts')).OPENAPI_HELP] },
  sinks: { summary: 'standalone SMTP/IMAP sinks with their HTTP API', help: async () => [(await import('../sinks/cli.ts')).SINKS_HELP] },
  mutation: { summary: 'kills every mutant of the reference target', help: async () => [(await import('../mutation/command.ts')).MUTATION_HELP] },
  reference: { summary: 'serves the reference target alone', help: async () => [(await import('../reference/serve.ts')).REFERENCE_HELP] },
  soak: { summary: 'the suite against the reference again and again', help: async () => [(await import('../portability/soak.ts')).SOAK_HELP] },
};

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
