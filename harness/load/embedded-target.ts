import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { KitError } from '../ground/errors.ts';
import type { ControlEndpoint } from '../ground/control-endpoint.ts';

// The embedded reference for load runs, in a child process of its own: a generator sharing an
// event loop with its target would measure its own pauses as the target's latency (and the
// target's work as its own lateness). The child is the CLI's `reference` command; it stops when
// this process closes its standard input, so it never outlives the run. `compare` serves another
// checkout's reference the same way, through that checkout's own bin.

/** The embedded reference's limit in a capacity run (load and compare raise it alike): outside the spec, as a capacity target's profile declares. */
export const EMBEDDED_CAPACITY_LIMIT = { requests: 1_000_000, windowMs: 1000 };

/** This kit's own CLI entry point. */
export const KIT_BIN = fileURLToPath(new URL('../../bin/outreach-conformance.js', import.meta.url));

export interface ChildTarget {
  baseUrl: string;
  control: ControlEndpoint;
  /** the child's process id (its CPU time is read from /proc by `compare`) */
  pid: number;
  /** The profile of the served choice set (with `choices` only). */
  profile?: Record<string, unknown>;
  stop(): Promise<void>;
}

export interface ChildReferenceOptions {
  rateLimit?: { requests: number; windowMs: number };
  mutants?: string[];
  /** the CLI entry point to serve from (another checkout's `bin/outreach-conformance.js`); default this kit's */
  bin?: string;
  /** extra CPU per request, as a share of the measured handling CPU (`reference --slowdown`, outside the spec) */
  slowdown?: number;
  /** answers, sending and verification this many times slower (`reference --slow`, outside the spec) */
  slow?: number;
  /** how the target is named in messages; default "the embedded reference" */
  name?: string;
  /** serve this choice set (`reference --choices`); the child then prints the profile of it too */
  choices?: string;
}

export async function startChildReference(opts: ChildReferenceOptions = {}): Promise<ChildTarget> {
  const name = opts.name ?? 'the embedded reference';
  const args = [opts.bin ?? KIT_BIN, 'reference', '--stop-with-stdin'];
  if (opts.rateLimit) args.push('--rate-limit', `${opts.rateLimit.requests}/${opts.rateLimit.windowMs}ms`);
  if (opts.mutants?.length) args.push('--mutants', opts.mutants.join(','));
  if (opts.slowdown) args.push('--slowdown', String(opts.slowdown));
  if (opts.slow && opts.slow !== 1) args.push('--slow', String(opts.slow));
  if (opts.choices) args.push('--choices', opts.choices);
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new KitError(`${name} did not start within 30 s: ${stderr}`));
    }, 30_000);
    createInterface({ input: child.stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new KitError(`${name} exited with ${code} before it served: ${stderr.trim()}`));
    });
  });
  child.stdout.resume(); // keep draining whatever it prints later
  let info: { baseUrl: string; controlUrl: string; controlToken: string; profile?: Record<string, unknown> };
  try {
    info = JSON.parse(line) as typeof info;
  } catch {
    child.kill('SIGKILL');
    throw new KitError(`${name} printed something other than its URLs: ${line.slice(0, 200)}`);
  }
  let stopping: Promise<void> | undefined;
  return {
    baseUrl: info.baseUrl,
    control: { baseUrl: info.controlUrl, token: info.controlToken },
    pid: child.pid!,
    ...(info.profile ? { profile: info.profile } : {}),
    stop: () =>
      (stopping ??= (async () => {
        child.stdin.end();
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      })()),
  };
}
