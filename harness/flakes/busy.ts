// npm run test:busy [-- --spinners N]
// Runs exactly `CI=true npm test` with N CPU-bound processes (default 2) beside it, as on a CI
// runner that is never quiet, and prints the outcome and how long it took. The spinners are this
// script's children: they are stopped when the tests end, whatever happens (a failed run, a signal
// to this script, and even this script being killed: each spinner ends when its parent goes).
// Exit: npm test's own exit code; 2 on a bad argument.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../ground/args.ts';

const USAGE = `usage: npm run test:busy [-- --spinners N]

Runs \`CI=true npm test\` with N CPU-bound processes beside it (default 2), then prints its outcome,
its duration and the CPU time the spinners took. Every test must pass on a machine this busy.

  --spinners N  how many CPU-bound processes run beside the tests (default 2)
  --help, -h    this text

Exit: npm test's exit code (0 green). 2: bad argument.`;

const SPINNER = fileURLToPath(new URL('./spinner.ts', import.meta.url));

interface Spinner {
  child: ChildProcess;
  cpuSeconds: number | null;
}

function startSpinner(): Spinner {
  const child = fork(SPINNER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const s: Spinner = { child, cpuSeconds: null };
  child.on('message', (m: { cpuSeconds?: number }) => {
    if (typeof m?.cpuSeconds === 'number') s.cpuSeconds = m.cpuSeconds;
  });
  return s;
}

/** Asks each spinner for its CPU time and stops it; kills it if it does not end within 5 s. */
async function stopSpinners(spinners: Spinner[]): Promise<void> {
  await Promise.all(
    spinners.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          if (child.connected) child.send('stop', (e) => e && child.kill('SIGKILL'));
          else child.kill('SIGKILL');
        }),
    ),
  );
}

/** `CI=true npm test`, its output passed through; resolves to its exit code. */
function npmTest(root: string, onChild: (c: ChildProcess) => void): Promise<number> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['test'], { cwd: root, env: { ...process.env, CI: 'true' }, stdio: 'inherit' });
  onChild(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + signalNumber(signal) : 1)));
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 1;
}

const minutes = (s: number) => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv, { spinners: { type: 'number', help: 'CPU-bound processes' }, help: { type: 'boolean', short: 'h', help: 'this help' } });
  } catch (e) {
    process.stderr.write(`test:busy: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const n = (args.spinners as number | undefined) ?? 2;
  if (!Number.isInteger(n) || n < 0 || n > 64) {
    process.stderr.write(`test:busy: --spinners takes a whole number from 0 to 64, got ${n}\n`);
    return 2;
  }
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const spinners = Array.from({ length: n }, startSpinner);
  let tests: ChildProcess | null = null;
  // A signal to this script ends the tests, then the finally below stops the spinners.
  const forward = (sig: NodeJS.Signals) => () => tests?.kill(sig);
  process.on('SIGINT', forward('SIGINT')).on('SIGTERM', forward('SIGTERM'));
  const pids = spinners.map((s) => s.child.pid).join(', ');
  process.stdout.write(`test:busy: CI=true npm test with ${n} CPU-bound process(es) beside it${n ? ` (pids ${pids})` : ''}; load average now ${loadavg()[0]!.toFixed(2)}\n`);
  const start = Date.now();
  let code: number;
  try {
    code = await npmTest(root, (c) => (tests = c));
  } finally {
    await stopSpinners(spinners);
  }
  const seconds = (Date.now() - start) / 1000;
  const cpu = spinners.reduce((sum, s) => sum + (s.cpuSeconds ?? 0), 0);
  const outcome = code === 0 ? 'GREEN' : `FAILED (npm test exit ${code})`;
  process.stdout.write(
    `\ntest:busy: ${outcome} in ${seconds.toFixed(0)} s (${minutes(seconds)}), beside ${n} spinner(s) that used ${cpu.toFixed(0)} CPU-s (${seconds > 0 ? (cpu / seconds).toFixed(2) : '0'} cores on average); load average at the end ${loadavg()[0]!.toFixed(2)}\n`,
  );
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`test:busy: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);
