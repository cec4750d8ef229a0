// The CI recipes (examples/github-actions.yml, examples/gitlab-ci.yml, the YAML in docs/CI.md)
// read with a real YAML parser and GitHub's own workflow parser (@actions/workflow-parser): the jobs docs/CI.md promises exist,
// GitHub's use the kit's action with inputs it declares, every `npx outreach-conformance ...`
// is a command of this kit with flags its own parser knows (asked from the CLI itself, so the
// recipes cannot rot when a flag is renamed), the secrets carry the names `init` writes, sinks
// are passed only where declared, a fork's pull request skips saying so, and each job that
// leaves campaigns says how many.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseDocument } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess as cli, NOT_A_FLAG } from './in-process.test-helper.ts';
import { DEPTHS } from '../ground/check.ts';
import { workflowErrors } from './github-yaml.test-helper.ts';
import { ROOT, readYaml } from './workflow.test-helper.ts';

const EXAMPLES = join(ROOT, 'examples/');
const sh = promisify(execFile);

/** The flags a command knows, from its own refusal of an unknown one (or its usage). */
async function knownFlags(command: string[]): Promise<Set<string>> {
  const { code, text } = await cli([...command, NOT_A_FLAG]);
  expect(code, `outreach-conformance ${command.join(' ')} should refuse ${NOT_A_FLAG}:\n${text}`).toBe(2);
  expect(text, `outreach-conformance ${command.join(' ')} is not a command of this kit`).not.toMatch(/unknown command/);
  const known = /known: (.*)/.exec(text)?.[1] ?? /usage: [\s\S]*/.exec(text)?.[0] ?? '';
  return new Set(known.match(/--[a-z][\w-]*/g) ?? []);
}

/** Shell words of one command line (double or single quotes keep a word together). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** Every `npx outreach-conformance ...` command line in a parsed YAML document. */
function commands(doc: unknown): string[][] {
  const found: string[][] = [];
  const visit = (v: unknown) => {
    if (typeof v === 'string') {
      for (const line of v.split('\n')) {
        const at = line.indexOf('npx outreach-conformance ');
        if (at >= 0) found.push(words(line.slice(at)).slice(2));
      }
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(doc);
  return found;
}

/** Every command line is a real command with real flags; --depth names a real depth. */
async function expectRealCommands(cmds: string[][]): Promise<void> {
  expect(cmds.length).toBeGreaterThan(0);
  for (const argv of cmds) {
    const command = argv[0] === 'load' ? argv.slice(0, 2) : argv.slice(0, 1);
    if (command[0] === 'verify') {
      // No flags: one bundle file, the one every run writes.
      expect(argv.slice(1), argv.join(' ')).toEqual([expect.stringMatching(/\/bundle\.tgz$/)]);
      expect((await cli(['verify', '--help'])).code).toBe(0);
      continue;
    }
    const known = await knownFlags(command);
    for (const w of argv.filter((x) => x.startsWith('--'))) expect(known, `${argv.join(' ')}: ${w} is not a flag of "${command.join(' ')}"`).toContain(w.split('=')[0]);
    const depth = argv[argv.indexOf('--depth') + 1];
    if (argv.includes('--depth')) expect(DEPTHS as readonly string[]).toContain(depth);
  }
}

const jobCommands = (job: unknown) => commands(job).map((c) => c.join(' '));

/** The environment variables the profile `init` writes reads its secrets from. */
async function initSecretNames(): Promise<string[]> {
  const out = join(await mkdtemp(join(tmpdir(), 'oc-init-')), 'starter.json');
  expect((await cli(['init', '--out', out])).code).toBe(0);
  const starter = JSON.parse(await readFile(out, 'utf8')) as { workspaces: { apiKey: { env: string } }[] };
  return starter.workspaces.map((w) => w.apiKey.env);
}

/** Names of the OUTREACH_* variables a text mentions. */
const outreachVariables = (text: string) => new Set(text.match(/\bOUTREACH_[A-Z_]+\b/g) ?? []);

/** The comment lines right above `key:` at the start of a line (YAML comments the parser drops). */
function commentAbove(text: string, key: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`${key}:`) || l.startsWith(`  ${key}:`));
  expect(at, key).toBeGreaterThan(0);
  const above: string[] = [];
  for (let i = at - 1; i >= 0 && /^\s*#/.test(lines[i]!); i--) above.unshift(lines[i]!);
  return above.join('\n');
}

/** The campaigns a recipe says its smoke and nightly jobs leave (and that its compare job leaves some). */
function campaignsLeft(text: string, [smoke, change]: [string, string], nightly: string): [number, number] {
  const count = (job: string, per: string) => Number(new RegExp(`Leaves about (\\d+) campaigns per ${per}`).exec(commentAbove(text, job))?.[1]);
  expect(commentAbove(text, 'load-compare')).toMatch(/Leaves campaigns on both deployments/);
  return [count(smoke, change), count(nightly, 'night')];
}

/** What docs/CI.md says a smoke and a default run leave. */
async function documentedCampaigns(): Promise<[number, number]> {
  const m = /a smoke run leaves about (\d+) campaigns, a default run about (\d+)/.exec((await readFile(join(ROOT, 'docs/CI.md'), 'utf8')).replace(/\s+/g, ' '));
  expect(m, 'docs/CI.md: "a smoke run leaves about N campaigns, a default run about M"').not.toBeNull();
  return [Number(m![1]), Number(m![2])];
}

describe('examples/github-actions.yml', () => {
  let text: string;
  let wf: any;
  const action = readYaml('action.yml');
  const kitSteps = (job: string): any[] => wf.jobs[job].steps.filter((s: any) => /\/outreach-conformance@/.test(String(s.uses)));
  beforeAll(async () => {
    text = await readFile(`${EXAMPLES}github-actions.yml`, 'utf8');
    wf = parse(text);
  });

  it("is a valid workflow by GitHub's workflow parser", async () => {
    expect(await workflowErrors(text, 'github-actions.yml')).toEqual([]);
  });

  it("GitHub's workflow parser refuses a broken copy: a job without runs-on, an unknown key, a need of no job", async () => {
    const step = { run: 'true' };
    expect(await workflowErrors({ ...wf, jobs: { ...wf.jobs, x: { steps: [step] } } })).toEqual([expect.stringMatching(/Required property is missing: runs-on/)]);
    expect(await workflowErrors({ ...wf, jobs: { ...wf.jobs, smoke: { ...wf.jobs.smoke, 'run-on': 'ubuntu-latest' } } })).toContainEqual(expect.stringMatching(/Unexpected value 'run-on'/));
    expect(await workflowErrors({ ...wf, jobs: { ...wf.jobs, x: { 'runs-on': 'ubuntu-latest', needs: 'no-such-job', steps: [step] } } })).toContainEqual(expect.stringMatching(/no-such-job/));
  });

  it('runs smoke on pull requests, the default depth nightly, a load compare on release branches, each through the action', () => {
    expect(Object.keys(wf.on)).toEqual(expect.arrayContaining(['pull_request', 'schedule', 'push']));
    expect(wf.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(wf.on.push.branches).toContain('release/**');
    const { smoke, nightly, 'load-compare': compare } = wf.jobs;
    expect(smoke.if).toContain("github.event_name == 'pull_request'");
    expect(kitSteps('smoke')[0].with).toMatchObject({ depth: 'smoke' });
    expect(nightly.if).toContain("'schedule'");
    expect(kitSteps('nightly')[0].with).toMatchObject({ depth: 'default' });
    expect(compare.if).toContain('refs/heads/release/');
    expect(kitSteps('load-compare')[0].with).toMatchObject({ command: 'compare', thresholds: expect.stringMatching(/^p99=/) });
  });

  it("gives the action only inputs it declares, and runs no kit command of its own", () => {
    for (const job of Object.keys(wf.jobs)) {
      const steps = kitSteps(job);
      expect(steps, job).toHaveLength(1);
      for (const input of Object.keys(steps[0].with)) expect(Object.keys(action.inputs), `${job}: ${input}`).toContain(input);
      if (steps[0].with.depth) expect(DEPTHS as readonly string[]).toContain(steps[0].with.depth);
    }
    expect(commands(wf)).toEqual([]);
  });

  it('uses the secret names init writes, and passes sinks only from a variable the team declares', async () => {
    const names = await initSecretNames();
    expect(names).toEqual(['OUTREACH_KEY_A', 'OUTREACH_KEY_B']);
    for (const job of Object.keys(wf.jobs)) {
      const w = kitSteps(job)[0].with;
      expect(w['api-key-a'], job).toBe(`\${{ secrets.${names[0]} }}`);
      expect(w['api-key-b'], job).toBe(`\${{ secrets.${names[1]} }}`);
      // The action passes --sinks only when this is not empty (action.test.ts).
      if ('sinks-url' in w) expect(w['sinks-url'], job).toBe('${{ vars.CONFORMANCE_SINKS_URL }}');
    }
    expect([...outreachVariables(text)].sort()).toEqual([...names, 'OUTREACH_SIGNING_KEY'].sort());
  });

  it("skips a fork's pull request, whose job name says why", () => {
    expect(wf.jobs.smoke.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
    expect(wf.jobs.smoke.name).toMatch(/skipped for pull requests from forks/);
  });

  it('says next to each job how many campaigns it leaves, the counts docs/CI.md gives', async () => {
    expect(campaignsLeft(text, ['smoke', 'pull request'], 'nightly')).toEqual(await documentedCampaigns());
  });
});

describe('examples/gitlab-ci.yml', () => {
  let text: string;
  let ci: any;
  beforeAll(async () => {
    text = await readFile(`${EXAMPLES}gitlab-ci.yml`, 'utf8');
    ci = parse(text);
  });
  /** A job's script lines as GitLab runs them (nested lists flattened). */
  const lines = (job: any, key: 'before_script' | 'script') => [job[key]].flat(10).filter((x): x is string => typeof x === 'string');

  it('has the smoke, nightly and compare jobs with JUnit reports and artifacts', () => {
    expect(jobCommands(ci['conformance-smoke'])).toContainEqual(expect.stringMatching(/^run .*--depth smoke/));
    expect(ci['conformance-smoke'].rules[0].if).toContain('merge_request_event');
    expect(jobCommands(ci['conformance-nightly'])).toContainEqual(expect.stringMatching(/^run .*--depth default/));
    expect(ci['conformance-nightly'].rules[0].if).toContain('schedule');
    expect(jobCommands(ci['load-compare'])).toContainEqual(expect.stringMatching(/^compare /));
    expect(ci['load-compare'].rules[0].if).toContain('release');
    expect(ci['.conformance'].artifacts).toMatchObject({ when: 'always', reports: { junit: 'reports/latest/junit.xml' } });
    for (const job of ['conformance-smoke', 'conformance-nightly']) expect(ci[job].extends).toBe('.conformance');
    expect(ci['load-compare'].extends).toBe('.kit');
  });

  it('runs only real commands and flags of this kit', async () => {
    await expectRealCommands(commands(ci));
  });

  it('uses the variable names init writes', async () => {
    expect([...outreachVariables(text)].sort()).toEqual(await initSecretNames());
  });

  it("passes --sinks only where CONFORMANCE_SINKS_URL is set", async () => {
    expect(commands(ci).filter((c) => c.some((w) => w.startsWith('--sinks')))).toEqual([]);
    const setup = lines(ci['.conformance'], 'before_script').find((l) => l.includes('SINKS_FLAG'))!;
    const flag = async (env: Record<string, string>) => (await sh('sh', ['-c', `${setup}\nprintf %s "$SINKS_FLAG"`], { env: { PATH: process.env.PATH!, ...env } })).stdout;
    expect(await flag({})).toBe('');
    expect(await flag({ CONFORMANCE_SINKS_URL: 'http://sinks:8025' })).toBe('--sinks=http://sinks:8025');
    expect((await knownFlags(['run'])).has('--sinks')).toBe(true);
  });

  it("ends a fork's merge request, which has no variables, with a line and exit 77, shown as a warning; a key missing otherwise is not skipped", async () => {
    const guard = lines(ci['.kit'], 'before_script').find((l) => l.includes('exit 77'))!;
    const run = (env: Record<string, string>) => sh('sh', ['-c', guard], { env: { PATH: process.env.PATH!, ...env } }).then(() => ({ code: 0, stdout: '' }), (e: { code: number; stdout: string }) => e);
    const fork = { CI_MERGE_REQUEST_PROJECT_ID: '11', CI_PROJECT_ID: '42', CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'someone/api' };
    const skipped = await run(fork);
    expect(skipped.code).toBe(77);
    expect(skipped.stdout).toMatch(/^conformance skipped: a merge request from the fork someone\/api/);
    // The project's own branch, a schedule, a fork's pipeline run in this project: the run goes on
    // (a missing key then fails it, the kit naming the variable).
    expect((await run({ CI_MERGE_REQUEST_PROJECT_ID: '11', CI_PROJECT_ID: '11' })).code).toBe(0);
    expect((await run({ CI_PROJECT_ID: '11' })).code).toBe(0);
    expect((await run({ ...fork, CI_PROJECT_ID: '11', OUTREACH_KEY_A: 'k' })).code).toBe(0);
    expect(ci['.kit'].allow_failure).toEqual({ exit_codes: [77] });
    for (const job of ['conformance-smoke', 'conformance-nightly', 'load-compare']) expect(['.kit', '.conformance']).toContain(ci[job].extends);
  });

  it('says next to each job how many campaigns it leaves, the counts docs/CI.md gives', async () => {
    expect(campaignsLeft(text, ['conformance-smoke', 'merge request'], 'conformance-nightly')).toEqual(await documentedCampaigns());
  });
});

describe('docs/CI.md', () => {
  let text: string;
  beforeAll(async () => {
    text = await readFile(join(ROOT, 'docs/CI.md'), 'utf8');
  });

  it('parses every YAML block; each workflow is valid and uses the action with inputs it declares', async () => {
    const blocks = [...text.matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThan(0);
    const action = readYaml('action.yml');
    let usingAction = 0;
    for (const block of blocks) {
      expect(parseDocument(block).errors, block).toEqual([]);
      const doc = parse(block);
      if (doc.jobs) expect(await workflowErrors(block, 'docs/CI.md'), block).toEqual([]);
      const steps = Object.values(doc.jobs ?? {}).flatMap((j: any) => j.steps ?? []).filter((s: any) => /outreach-conformance@/.test(String(s.uses)));
      for (const s of steps) for (const input of Object.keys(s.with ?? {})) expect(Object.keys(action.inputs)).toContain(input);
      usingAction += steps.length;
    }
    expect(usingAction).toBeGreaterThan(0);
  });

  it('names only the variables init writes (and the signing key)', async () => {
    const names = await initSecretNames();
    expect([...outreachVariables(text)].filter((v) => !names.includes(v) && !['OUTREACH_SIGNING_KEY', 'OUTREACH_CONTROL_TOKEN'].includes(v))).toEqual([]);
  });
});
