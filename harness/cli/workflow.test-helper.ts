// GitHub's YAML as a runner reads it, for the tests of action.yml and the CI recipes: a composite
// action's `run` step executed the way a runner does, with its `env:` evaluated. (Validation by
// GitHub's own parser is in github-yaml.test-helper.ts.)
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const readYaml = (path: string): any => parse(readFileSync(join(ROOT, path), 'utf8'));

/** Every `${{ ... }}` expression in a value, trimmed. */
export function expressions(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)].map((m) => m[1]!);
}

export interface StepContext {
  inputs: Record<string, string>;
  github: Record<string, unknown>;
}

/** A step's `env:` with each `${{ inputs.x }}` / `${{ github.a.b }}` replaced (anything else is refused). */
export function evaluateEnv(env: Record<string, string>, ctx: StepContext): Record<string, string> {
  const value = (expr: string): string => {
    const [root, ...path] = expr.split('.');
    if (root !== 'inputs' && root !== 'github') throw new Error(`unsupported expression in a step's env: ${expr}`);
    let v: unknown = root === 'inputs' ? ctx.inputs : ctx.github;
    for (const p of root === 'inputs' ? [path.join('.')] : path) v = (v as Record<string, unknown> | undefined)?.[p];
    return v === undefined || v === null ? '' : String(v);
  };
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => value(e))]));
}

export interface StepResult {
  code: number;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Runs a `shell: bash` step as a runner does (`bash --noprofile --norc -eo pipefail`), in `cwd`. */
export async function runBashStep(step: { run: string; env?: Record<string, string> }, ctx: StepContext, cwd: string): Promise<StepResult> {
  const dir = await mkdtemp(join(tmpdir(), 'oc-step-'));
  const [script, output, summary] = ['step.sh', 'output', 'summary'].map((f) => join(dir, f)) as [string, string, string];
  await Promise.all([writeFile(script, step.run), writeFile(output, ''), writeFile(summary, '')]);
  const env = { PATH: process.env.PATH!, HOME: process.env.HOME ?? dir, RUNNER_TEMP: dir, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, ...evaluateEnv(step.env ?? {}, ctx) };
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (err, out, errOut) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: `${out}${errOut}` }),
    ),
  );
  const outputs = Object.fromEntries((await readFile(output, 'utf8')).split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { code, stdout, outputs, summary: await readFile(summary, 'utf8') };
}
