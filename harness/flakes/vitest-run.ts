// Runs vitest in a fresh process, as `npm test` does: the list of test files, and one run with
// the JSON reporter. Each call is a separate `vitest` process, so no run shares state with another.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { VitestJson } from './verdicts.ts';

export const CONFIG = 'vitest.config.ts';

/** One `vitest run` of `npm test`, with the environment it runs under. */
export interface Phase {
  name: string;
  env: Record<string, string | undefined>;
}

/** The phases of `npm test`: one `vitest run` today (kept a list so a second pass is one line). */
export async function testPhases(_root: string): Promise<Phase[]> {
  return [{ name: 'main', env: {} }];
}

function vitest(root: string, args: string[], env: Phase['env'], log: string): Promise<number> {
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const bin = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const out = createWriteStream(log);
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => out.end(() => resolve(code ?? (signal ? 128 : 1))));
  });
}

/** The phase's test files, relative to root with forward slashes, as vitest itself selects them. */
export async function listFiles(root: string, phase: Phase, tmp: string): Promise<string[]> {
  const json = join(tmp, `list-${phase.name}.json`);
  const log = join(tmp, `list-${phase.name}.log`);
  const code = await vitest(root, ['list', '--config', CONFIG, '--filesOnly', `--json=${json}`], phase.env, log);
  if (code !== 0 || !existsSync(json)) {
    const tail = (await readFile(log, 'utf8')).trim().split('\n').slice(-20).join('\n');
    throw new Error(`vitest list (phase ${phase.name}) exited ${code}:\n${tail}`);
  }
  const listed = JSON.parse(await readFile(json, 'utf8')) as Array<{ file: string }>;
  return listed.map((f) => relative(root, f.file).replace(/\\/g, '/'));
}

export interface PhaseRun {
  exitCode: number;
  ms: number;
  /** undefined when vitest wrote no report (it crashed before the end of the run). */
  report: VitestJson | undefined;
}

/** One `vitest run` of the phase: all of its files, or only `files` when given. */
export async function runPhase(root: string, phase: Phase, files: string[] | undefined, json: string, log: string): Promise<PhaseRun> {
  const args = ['run', '--config', CONFIG, '--reporter=json', `--outputFile=${json}`, ...(files ?? [])];
  const start = performance.now();
  const exitCode = await vitest(root, args, phase.env, log);
  const ms = performance.now() - start;
  return { exitCode, ms, report: await readReport(json) };
}

async function readReport(json: string): Promise<VitestJson | undefined> {
  try {
    return JSON.parse(await readFile(json, 'utf8')) as VitestJson;
  } catch {
    return undefined; // not written, or cut short
  }
}
