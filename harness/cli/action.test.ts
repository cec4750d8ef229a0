// action.yml, the kit as a composite GitHub Action: valid by GitHub's own action parser
// (@actions/workflow-parser), every input used and every expression it uses declared, and its kit step run
// as a runner runs it: against a stand-in kit that records its arguments (how inputs become
// flags and secrets environment variables), and once against the real kit and its embedded
// reference (a smoke run, signed).
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionErrors } from './github-yaml.test-helper.ts';
import { ROOT, expressions, readYaml, runBashStep, type StepContext } from './workflow.test-helper.ts';

const actionText = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const action = readYaml('action.yml');
const steps: any[] = action.runs.steps;
const kitStep = steps.find((s) => s.id === 'kit');
const defaults = Object.fromEntries(Object.entries(action.inputs as Record<string, { default?: string }>).map(([k, v]) => [k, v.default ?? '']));

/** A runner's context for the kit step: these inputs over the defaults, a push to this repository. */
const context = (inputs: Record<string, string>, github: Record<string, unknown> = {}): StepContext => ({
  inputs: { ...defaults, ...inputs },
  github: { event_name: 'push', repository: 'acme/api', event: {}, action_path: ROOT, ...github },
});

/** A stand-in kit: writes its arguments and the secrets it saw to args.json, exits with $FAKE_EXIT. */
async function standInKit(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'oc-action-kit-'));
  await mkdir(join(dir, 'bin'));
  // CommonJS whatever package.json a directory above the temporary one holds.
  await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  const seen = "{ args: process.argv.slice(2), keyA: process.env.OUTREACH_KEY_A, keyB: process.env.OUTREACH_KEY_B, token: process.env.OUTREACH_CONTROL_TOKEN, signing: process.env.OUTREACH_SIGNING_KEY }";
  await writeFile(join(dir, 'bin', 'outreach-conformance.js'), `require('fs').writeFileSync(${JSON.stringify(join(dir, 'args.json'))}, JSON.stringify(${seen}));\nconsole.log('stand-in kit');\nprocess.exit(Number(process.env.FAKE_EXIT ?? 0));\n`);
  return dir;
}

describe('action.yml', () => {
  it("is valid by GitHub's action parser, and is a composite action", () => {
    expect(actionErrors(actionText)).toEqual([]);
    expect(action.runs.using).toBe('composite');
  });

  it("GitHub's action parser refuses a broken copy: an unknown key under runs, a run step without its shell, no runs", () => {
    expect(actionErrors({ ...action, runs: { ...action.runs, bogus: 1 } })).toEqual([expect.stringMatching(/Unexpected value 'bogus'/)]);
    expect(actionErrors({ ...action, runs: { using: 'composite', steps: [{ run: 'true' }] } })).toEqual([expect.stringMatching(/Required property is missing: shell/)]);
    const { runs: _, ...noRuns } = action;
    expect(actionErrors(noRuns)).toEqual([expect.stringMatching(/Required property is missing: runs/)]);
  });

  it('declares every input it reads and reads every input it declares; secrets reach no script text', () => {
    const used = new Set(expressions(action.runs).flatMap((e) => [...e.matchAll(/\binputs\.([\w-]+)/g)].map((m) => m[1]!)));
    expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const s of steps.filter((x) => x.run)) expect(expressions(s.run), s.name).toEqual([]);
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['profile', 'depth', 'api-key-a', 'api-key-b', 'signing-key', 'thresholds']));
  });

  it('gives the secrets to the kit under the names init writes into a profile', () => {
    expect(kitStep.env).toMatchObject({
      OUTREACH_KEY_A: '${{ inputs.api-key-a }}',
      OUTREACH_KEY_B: '${{ inputs.api-key-b }}',
      OUTREACH_CONTROL_TOKEN: '${{ inputs.control-token }}',
    });
  });

  it('uploads the reports and writes the job summary even when the run fails', () => {
    const upload = steps.find((s) => String(s.uses).startsWith('actions/upload-artifact@'));
    expect(upload.if).toMatch(/^always\(\)/);
    expect(upload.with.path).toBe('${{ steps.kit.outputs.reports }}');
    expect(kitStep.run).toMatch(/summary\.md" >> "\$\{GITHUB_STEP_SUMMARY/);
  });
});

describe("action.yml's kit step, with a stand-in kit", () => {
  let kit: string;
  let cwd: string;
  beforeAll(async () => {
    kit = await standInKit();
    cwd = await mkdtemp(join(tmpdir(), 'oc-action-ws-'));
  });
  const seen = async () => JSON.parse(await readFile(join(kit, 'args.json'), 'utf8'));
  const step = (env: Record<string, string> = {}) => ({ run: kitStep.run, env: { ...kitStep.env, ...env } });

  it('passes only the flags whose inputs are set: no --sinks, --baseline or --sign by default', async () => {
    const r = await runBashStep(step(), context({}, { action_path: kit }), cwd);
    expect(r.code, r.stdout).toBe(0);
    expect((await seen()).args).toEqual(['run', '--depth', 'smoke', '--out', 'reports']);
    expect(r.outputs).toEqual({ outcome: 'pass', 'exit-code': '0', reports: 'reports/latest' });
  });

  it('turns each set input into its flag, and the secrets into the environment only', async () => {
    const inputs = { profile: 'conformance/staging.json', depth: 'default', baseline: 'known.json', 'sinks-url': 'http://sinks:8025', 'time-budget': '10m', 'api-key-a': 'ka', 'api-key-b': 'kb', 'control-token': 'ct', 'signing-key': 'PEM' };
    const r = await runBashStep(step(), context(inputs, { action_path: kit }), cwd);
    expect(r.code, r.stdout).toBe(0);
    const s = await seen();
    expect(s.args).toEqual(['run', '--depth', 'default', '--out', 'reports', '--profile', 'conformance/staging.json', '--time-budget', '10m', '--baseline', 'known.json', '--sinks', 'http://sinks:8025', '--sign', 'env:OUTREACH_SIGNING_KEY', '--history', expect.stringMatching(/\/outreach-conformance-history$/)]);
    expect(s).toMatchObject({ keyA: 'ka', keyB: 'kb', token: 'ct', signing: 'PEM' });
    for (const secret of ['ka', 'kb', 'ct', 'PEM']) expect(r.stdout.split(/\s+/)).not.toContain(secret);
  });

  it("keeps each run's results.json (the newest 3) where the cache steps save it, and learns from it; pace-history false does neither", async () => {
    const ws = await mkdtemp(join(tmpdir(), 'oc-action-history-'));
    await mkdir(join(ws, 'reports', 'latest'), { recursive: true });
    await writeFile(join(ws, 'reports', 'latest', 'results.json'), '{"checks": []}');
    const cacheSteps = steps.filter((x) => String(x.uses).startsWith('actions/cache/'));
    expect(cacheSteps.map((x) => [x.uses.split('@')[0], x.with.path])).toEqual([
      ['actions/cache/restore', '${{ runner.temp }}/outreach-conformance-history'],
      ['actions/cache/save', '${{ runner.temp }}/outreach-conformance-history'],
    ]);
    expect(cacheSteps[1].if).toBe("always() && steps.kit.outputs.history == 'saved'");
    // The runner's temp directory, as the cache steps see it: three earlier runs restored.
    const rt = await mkdtemp(join(tmpdir(), 'oc-action-rt-'));
    const history = join(rt, 'outreach-conformance-history');
    const earlier = ['2020-01-01T00-00-01-run-1', '2020-01-01T00-00-02-run-2', '2020-01-01T00-00-03-run-3'];
    for (const e of earlier) await mkdir(join(history, e), { recursive: true });
    const r = await runBashStep(step({ RUNNER_TEMP: rt }), context({ profile: 'p.json' }, { action_path: kit }), ws);
    expect(r.outputs.history).toBe('saved');
    expect((await seen()).args.slice(-2)).toEqual(['--history', history]);
    const kept = readdirSync(history).sort();
    expect(kept.slice(0, 2)).toEqual(earlier.slice(1));
    expect(kept[2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-run-/);
    expect(readFileSync(join(history, kept[2]!, 'results.json'), 'utf8')).toBe('{"checks": []}');
    const off = await runBashStep(step({ RUNNER_TEMP: rt }), context({ profile: 'p.json', 'pace-history': 'false' }, { action_path: kit }), ws);
    expect((await seen()).args).not.toContain('--history');
    expect(off.outputs.history).toBeUndefined();
    // A failing kit (exit 2: no verdict) keeps nothing.
    const failed = await runBashStep(step({ FAKE_EXIT: '2', RUNNER_TEMP: rt }), context({ profile: 'p.json' }, { action_path: kit }), ws);
    expect(failed.outputs.history).toBeUndefined();
    expect(readdirSync(history).sort()).toEqual(kept);
  });

  it('compare: both sides, their profiles, pairs and each threshold', async () => {
    const inputs = { command: 'compare', base: 'https://base.example', head: 'https://head.example', 'base-profile': 'b.json', 'head-profile': 'h.json', thresholds: 'p99=20%,cpu=5%' };
    const r = await runBashStep(step(), context(inputs, { action_path: kit }), cwd);
    expect(r.code, r.stdout).toBe(0);
    expect((await seen()).args).toEqual(['compare', '--base', 'https://base.example', '--head', 'https://head.example', '--pairs', '5', '--out', 'reports', '--base-profile', 'b.json', '--head-profile', 'h.json', '--threshold', 'p99=20%', '--threshold', 'cpu=5%']);
    expect(r.summary).toContain('stand-in kit');
  });

  it("fails the step with the kit's own exit code, its outputs written first", async () => {
    for (const [exit, outcome] of [['1', 'fail'], ['2', 'error']] as const) {
      const r = await runBashStep(step({ FAKE_EXIT: exit }), context({}, { action_path: kit }), cwd);
      expect(r.code).toBe(Number(exit));
      expect(r.outputs).toMatchObject({ outcome, 'exit-code': exit });
    }
    const bad = await runBashStep(step(), context({ command: 'lint' }, { action_path: kit }), cwd);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('command takes run or compare, got "lint"');
  });

  it("skips a fork's pull request without secrets with a line that says so, neither passing nor failing it", async () => {
    const fork = { event_name: 'pull_request', event: { pull_request: { head: { repo: { full_name: 'someone/api' } } } }, action_path: kit };
    const r = await runBashStep(step(), context({ profile: 'conformance/staging.json' }, fork), cwd);
    expect(r.code).toBe(0);
    expect(r.outputs.outcome).toBe('skipped');
    expect(r.stdout).toMatch(/::warning title=conformance skipped::.*pull request from the fork someone\/api gets no secrets/);
    expect(r.summary).toMatch(/conformance skipped/);
    // The same pull request from a branch of the repository itself runs.
    const own = { ...fork, event: { pull_request: { head: { repo: { full_name: 'acme/api' } } } } };
    expect((await runBashStep(step(), context({ profile: 'p.json' }, own), cwd)).outputs.outcome).toBe('pass');
  });
});

describe("action.yml's kit step, with the real kit", () => {
  it('runs smoke against the embedded reference, signs the bundle, writes the summary and names the reports', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'oc-action-real-'));
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const r = await runBashStep(kitStep, context({ 'signing-key': pem }), cwd);
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.outputs).toEqual({ outcome: 'pass', 'exit-code': '0', reports: 'reports/latest' });
    expect(r.summary).toBe(await readFile(join(cwd, 'reports/latest/summary.md'), 'utf8'));
    expect(existsSync(join(cwd, 'reports/latest/bundle.intoto.jsonl'))).toBe(true);
    expect(r.stdout).not.toContain('PRIVATE KEY');
  });
});
