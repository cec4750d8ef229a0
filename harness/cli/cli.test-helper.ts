import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

// The CLI as a user runs it, for the project's tests: a child process, its exit code and output.

export const BIN = fileURLToPath(new URL('../../bin/outreach-conformance.js', import.meta.url));
const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: string[], o: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { timeout: o.timeoutMs ?? 280_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...o.env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as CliResult;
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** The same, for a command that must succeed: a non-zero exit throws with the end of its output. */
export async function cliOk(args: string[], o: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  const r = await cli(args, o);
  if (r.code !== 0) throw new Error(`outreach-conformance ${args[0]} failed (exit ${r.code}): ${r.stdout.slice(-2000)}${r.stderr.slice(-1000)}`);
  return r;
}
