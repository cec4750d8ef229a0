// CLI hook: start the reference target and print `{ baseUrl, controlUrl, controlToken }` as one
// JSON line on stdout; stop on SIGINT/SIGTERM.
//   node --import tsx harness/reference/serve.ts [--mutants a,b] [--db path] [--control-token t]
//                                                [--choices default|alt|serialized-drain|random:SEED]
//                                                [--rate-limit N/Ms] [--slowdown SHARE] [--slow N] [--clock-start ISO]
//                                                [--stop-with-stdin]
// --rate-limit raises the limit for capacity runs (outside the spec's 120 per 60 s), e.g. 1000000/1000ms;
// --slowdown 0.2 adds about 20 % CPU per request (a known regression for `compare`, outside the spec);
// --slow 3 makes answers, sending and verification about 3 times slower (switches/slow.ts, outside the spec);
// --clock-start 2026-12-07T23:59:30Z starts the target's clock at that instant (real time runs on from there);
// --stop-with-stdin stops the target when its standard input closes (a parent that spawned it died).
// Mutants also come from OUTREACH_REFERENCE_MUTANTS=a,b (joined with --mutants).
// With --choices, the line also holds `choices` (the set's name) and `profile`: the profile a
// vendor with these choices would write (run the kit with it: `run --profile FILE`).
import { parseArgs } from 'node:util';
import { MAX_SLOW } from './switches/slow.ts';
import { parseClockStart } from './domain/clock.ts';
import { startReference, parseChoices, profileFor, type Choices, type ReferenceHandle } from './index.ts';

const split = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

/**
 * The flags, one row each, as util.parseArgs reads them; the kit writes `reference --help` from
 * the same rows (CommandHelp of harness/ground/args.ts: the reference imports nothing of the kit).
 */
export const REFERENCE_HELP = {
  usage: ['outreach-conformance reference [flags]'],
  summary:
    'serves the reference target alone: prints {"baseUrl","controlUrl","controlToken"} as one JSON line (with --choices, also\n' +
    'the profile of that choice set) and runs until SIGTERM/SIGINT. Mutants also come from OUTREACH_REFERENCE_MUTANTS=a,b.',
  flags: {
    mutants: { type: 'list', value: 'a,b', help: 'serve these mutants (deliberate breaks of the spec)' },
    db: { type: 'string', value: 'PATH', help: 'keep the state in this SQLite file (default: in memory)' },
    'control-token': { type: 'string', value: 'TOKEN', help: "the control API's token (default: a random one)" },
    choices: { type: 'string', value: 'default|alt|serialized-drain|random:SEED', help: 'the choice set where the spec leaves names and shapes open (serialized-drain: the default set with a plain control API)' },
    'rate-limit': { type: 'string', value: 'N/Mms', help: "raise the limit for capacity runs, e.g. 1000000/1000ms (outside the spec's 120 per 60 s)" },
    slowdown: { type: 'string', value: 'SHARE', help: 'about SHARE more CPU per request, e.g. 0.2 (a known regression for compare)' },
    slow: { type: 'string', value: 'N', help: 'a target N times slower on purpose: answers wait (N-1) x 25 ms, sending rounds and verifications (N-1) x 1 s' },
    'clock-start': { type: 'string', value: 'ISO', help: "start the target's clock at this instant, e.g. 2026-12-07T23:59:30Z (real time runs on from there)" },
    'stop-with-stdin': { type: 'boolean', help: 'stop when standard input closes (a parent that spawned it died)' },
  },
  exit: 'exit codes: 0 stopped by SIGTERM or SIGINT, 2 a bad flag or a target that could not start',
} as const;

const known = Object.keys(REFERENCE_HELP.flags).map((k) => `--${k}`).join(', ');

export async function serveReference(argv: string[]): Promise<ReferenceHandle> {
  const mutants = split(process.env.OUTREACH_REFERENCE_MUTANTS);
  const options = Object.fromEntries(Object.entries(REFERENCE_HELP.flags).map(([k, row]) => [k, { type: row.type === 'boolean' ? 'boolean' : 'string', multiple: row.type === 'list' } as const]));
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as typeof values;
  } catch (e) {
    throw new Error(`serve: ${(e as Error).message.split('.')[0]} (known: ${known})`);
  }
  for (const m of (values.mutants as string[] | undefined) ?? []) mutants.push(...split(m));
  const dbPath = values.db as string | undefined;
  const controlToken = values['control-token'] as string | undefined;
  const choices: Choices | undefined = values.choices === undefined ? undefined : parseChoices(values.choices as string);
  let rateLimit: { requests: number; windowMs: number } | undefined;
  if (values['rate-limit'] !== undefined) {
    const m = /^(\d+)\/(\d+)ms$/.exec(values['rate-limit'] as string);
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error('serve: --rate-limit takes N/Mms, e.g. 1000000/1000ms');
    rateLimit = { requests: Number(m[1]), windowMs: Number(m[2]) };
  }
  const slowdown = values.slowdown === undefined ? undefined : Number(values.slowdown);
  if (slowdown !== undefined && !(slowdown > 0 && slowdown <= 10)) throw new Error('serve: --slowdown takes a share of CPU per request above 0 and at most 10, e.g. 0.2');
  const slow = values.slow === undefined ? undefined : Number(values.slow);
  if (slow !== undefined && !(slow >= 1 && slow <= MAX_SLOW)) throw new Error(`serve: --slow takes a factor from 1 to ${MAX_SLOW}, e.g. 3`);
  let clockStartMs: number | undefined;
  try {
    clockStartMs = values['clock-start'] === undefined ? undefined : parseClockStart(values['clock-start'] as string);
  } catch (e) {
    throw new Error(`serve: ${(e as Error).message}`);
  }
  const stopWithStdin = values['stop-with-stdin'] === true;
  const handle = await startReference({ mutants: [...new Set(mutants)], dbPath, controlToken, choices, rateLimit, slowdown, slow, clockStartMs });
  const line: Record<string, unknown> = { baseUrl: handle.baseUrl, controlUrl: handle.controlUrl, controlToken: handle.controlToken };
  if (choices) {
    line.choices = choices.name;
    line.profile = profileFor(choices, { baseUrl: handle.baseUrl, control: { baseUrl: handle.controlUrl, token: handle.controlToken } });
  }
  process.stdout.write(`${JSON.stringify(line)}\n`);
  const onSignal = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    void handle.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (stopWithStdin) {
    process.stdin.on('end', onSignal).on('close', onSignal).resume();
  }
  return handle;
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  serveReference(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  });
}
