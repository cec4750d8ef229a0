import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { KitError } from '../runner/profile.ts';

// The embedded reference for load runs, in a child process of its own: a generator sharing an
// event loop with its target would measure its own pauses as the target's latency (and the
// target's work as its own lateness). The child is the CLI's `reference` command; it stops when
// this process closes its standard input, so it never outlives the run.

const BIN = fileURLToPath(new URL('../../bin/outreach-conformance.js', import.meta.url));

export interface ChildTarget {
  baseUrl: string;
  control: { baseUrl: string; token: string };
  stop(): Promise<void>;
}

export async function startChildReference(opts: { rateLimit?: { requests: number; windowMs: number }; mutants?: string[] } = {}): Promise<ChildTarget> {
  const args = [BIN, 'reference', '--stop-with-stdin'];
  if (opts.rateLimit) args.push('--rate-limit', `${opts.rateLimit.requests}/${opts.rateLimit.windowMs}ms`);
  if (opts.mutants?.length) args.push('--mutants', opts.mutants.join(','));
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new KitError(`the embedded reference did not start within 30 s: ${stderr}`)), 30_000);
    createInterface({ input: child.stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new KitError(`the embedded reference exited with ${code} before it served: ${stderr}`));
    });
  });
  child.stdout.resume(); // keep draining whatever it prints later
  const info = JSON.parse(line) as { baseUrl: string; controlUrl: string; controlToken: string };
  let stopping: Promise<void> | undefined;
  return {
    baseUrl: info.baseUrl,
    control: { baseUrl: info.controlUrl, token: info.controlToken },
    stop: () =>
      (stopping ??= (async () => {
        child.stdin.end();
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      })()),
  };
}
