// CLI hook: start the reference target and print `{ baseUrl, controlUrl, controlToken }` as one
// JSON line on stdout; stop on SIGINT/SIGTERM.
//   node --import tsx harness/reference/serve.ts [--mutants a,b] [--db path] [--control-token t]
// Mutants also come from OUTREACH_REFERENCE_MUTANTS=a,b (joined with --mutants).
import { startReference, type ReferenceHandle } from './index.ts';

const split = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

export async function serveReference(argv: string[]): Promise<ReferenceHandle> {
  const mutants = split(process.env.OUTREACH_REFERENCE_MUTANTS);
  let dbPath: string | undefined;
  let controlToken: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--mutants') mutants.push(...split(value()));
    else if (flag === '--db') dbPath = value();
    else if (flag === '--control-token') controlToken = value();
    else throw new Error(`serve: unknown argument ${a} (known: --mutants a,b, --db <path>, --control-token <token>)`);
  }
  const handle = await startReference({ mutants: [...new Set(mutants)], dbPath, controlToken });
  process.stdout.write(`${JSON.stringify({ baseUrl: handle.baseUrl, controlUrl: handle.controlUrl, controlToken: handle.controlToken })}\n`);
  const onSignal = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    void handle.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return handle;
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  serveReference(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  });
}
