// npm run fuzz -- [--runs 10000] [--seed N] [--server sink-smtp,sink-http,sink-imaps-proxy,reference-public,reference-control]
// Fuzzes each of the kit's own servers with `--runs` inputs and prints its figures; exits 1 when
// any server broke a rule (a crash, an unhandled rejection, a 5xx, a hang, a lost record, the
// heap past its bound), 2 on a bad argument. The seed is printed; `--seed` replays a run.
import { formatFigures, runFuzz, type FuzzFigures, type FuzzTarget } from './core.ts';
import { imapsTarget, sinkHttpTarget, smtpTarget } from './sinks.ts';
import { referenceTargets } from './reference.ts';

type Started = { targets: FuzzTarget<any>[]; stop(): Promise<void> } | { unavailable: string; server: string };

/** Each server, started on demand (one reference serves both of its ports). */
const SERVERS: Record<string, () => Promise<Started>> = {
  'sink-smtp': async () => {
    const s = await smtpTarget();
    return { targets: [s.target], stop: s.stop };
  },
  'sink-http': async () => {
    const s = await sinkHttpTarget();
    return { targets: [s.target], stop: s.stop };
  },
  'sink-imaps-proxy': async () => {
    const s = await imapsTarget();
    return 'unavailable' in s ? { unavailable: s.unavailable, server: 'sink-imaps-proxy' } : { targets: [s.target], stop: s.stop };
  },
  reference: referenceTargets,
};
const NAMES = ['sink-smtp', 'sink-http', 'sink-imaps-proxy', 'reference-public', 'reference-control'];

function parse(argv: string[]): { runs: number; seed: number; servers: string[] } {
  let runs = 10_000;
  let seed = Date.now() % 2 ** 31;
  let servers = NAMES;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.includes('=') ? argv[i]!.split(/=(.*)/s) : [argv[i]!, undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--runs') runs = Number(value());
    else if (flag === '--seed') seed = Number(value());
    else if (flag === '--server') servers = value().split(',').map((s) => s.trim()).filter(Boolean);
    else throw new Error(`fuzz: unknown argument ${argv[i]} (known: --runs N, --seed N, --server ${NAMES.join(',')})`);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('fuzz: --runs takes a whole number above 0');
  if (!Number.isInteger(seed)) throw new Error('fuzz: --seed takes a whole number');
  const unknown = servers.filter((s) => !NAMES.includes(s));
  if (unknown.length) throw new Error(`fuzz: unknown server(s) ${unknown.join(', ')}; known: ${NAMES.join(', ')}`);
  return { runs, seed, servers };
}

async function main(): Promise<number> {
  const { runs, seed, servers } = parse(process.argv.slice(2));
  const only = servers.length < NAMES.length ? ` --server ${servers.join(',')}` : '';
  process.stdout.write(`fuzzing ${servers.join(', ')} with ${runs} inputs each, seed ${seed} (replay: npm run fuzz -- --seed ${seed} --runs ${runs}${only})\n`);
  const all: FuzzFigures[] = [];
  for (const [group, start] of Object.entries(SERVERS)) {
    const wanted = (name: string) => servers.includes(name);
    if (group === 'reference' ? !wanted('reference-public') && !wanted('reference-control') : !wanted(group)) continue;
    const started = await start();
    if ('unavailable' in started) {
      process.stdout.write(`${started.server}: skipped: ${started.unavailable}\n`);
      continue;
    }
    try {
      for (const t of started.targets) {
        if (!wanted(t.server)) continue;
        const f = await runFuzz(t, { runs, seed });
        all.push(f);
        process.stdout.write(`${formatFigures(f)}\n`);
        for (const line of [...f.findings, ...f.processErrors]) process.stdout.write(`  ! ${line.slice(0, 1000)}\n`);
      }
    } finally {
      await started.stop();
    }
  }
  const bad = all.filter((f) => f.findings.length || f.processErrors.length);
  process.stdout.write(bad.length ? `FAILED: ${bad.map((f) => f.server).join(', ')} (seed ${seed})\n` : `every server held (seed ${seed})\n`);
  return bad.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  },
);
