// CLI hook: start the reference target and print `{ baseUrl, controlUrl, controlToken }` as one
// JSON line on stdout; stop on SIGINT/SIGTERM.
//   node --import tsx harness/reference/serve.ts [--mutants a,b] [--db path] [--control-token t]
//                                                [--choices default|alt|random:SEED]
//                                                [--rate-limit N/Ms] [--slowdown SHARE] [--slow N] [--stop-with-stdin]
// --rate-limit raises the limit for capacity runs (outside the spec's 120 per 60 s), e.g. 1000000/1000ms;
// --slowdown 0.2 adds about 20 % CPU per request (a known regression for `compare`, outside the spec);
// --slow 3 makes answers, sending and verification about 3 times slower (switches/slow.ts, outside the spec);
// --stop-with-stdin stops the target when its standard input closes (a parent that spawned it died).
// Mutants also come from OUTREACH_REFERENCE_MUTANTS=a,b (joined with --mutants).
// With --choices, the line also holds `choices` (the set's name) and `profile`: the profile a
// vendor with these choices would write (run the kit with it: `run --profile FILE`).
import { MAX_SLOW } from './switches/slow.ts';
import { startReference, parseChoices, profileFor, type Choices, type ReferenceHandle } from './index.ts';

const split = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

export async function serveReference(argv: string[]): Promise<ReferenceHandle> {
  const mutants = split(process.env.OUTREACH_REFERENCE_MUTANTS);
  let dbPath: string | undefined;
  let controlToken: string | undefined;
  let choices: Choices | undefined;
  let rateLimit: { requests: number; windowMs: number } | undefined;
  let slowdown: number | undefined;
  let slow: number | undefined;
  let stopWithStdin = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--mutants') mutants.push(...split(value()));
    else if (flag === '--db') dbPath = value();
    else if (flag === '--control-token') controlToken = value();
    else if (flag === '--choices') choices = parseChoices(value() ?? '');
    else if (flag === '--rate-limit') {
      const m = /^(\d+)\/(\d+)ms$/.exec(value() ?? '');
      if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error('serve: --rate-limit takes N/Mms, e.g. 1000000/1000ms');
      rateLimit = { requests: Number(m[1]), windowMs: Number(m[2]) };
    } else if (flag === '--slowdown') {
      slowdown = Number(value());
      if (!(slowdown > 0 && slowdown <= 10)) throw new Error('serve: --slowdown takes a share of CPU per request above 0 and at most 10, e.g. 0.2');
    } else if (flag === '--slow') {
      slow = Number(value());
      if (!(slow >= 1 && slow <= MAX_SLOW)) throw new Error(`serve: --slow takes a factor from 1 to ${MAX_SLOW}, e.g. 3`);
    } else if (flag === '--stop-with-stdin') stopWithStdin = true;
    else throw new Error(`serve: unknown argument ${a} (known: --mutants a,b, --db <path>, --control-token <token>, --choices default|alt|random:SEED, --rate-limit N/Mms, --slowdown SHARE, --slow N, --stop-with-stdin)`);
  }
  const handle = await startReference({ mutants: [...new Set(mutants)], dbPath, controlToken, choices, rateLimit, slowdown, slow });
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
