// The sharded-load CI recipes (examples/load-shards-*.yml, docs/LOAD-SHARDS.md) read with a real
// YAML parser (the GitHub one also by GitHub's own workflow parser, @actions/workflow-parser): a first job chooses the instant, a matrix of shards shares it and keeps its
// load.json, a merge job gates on the thresholds; and every `npx outreach-conformance load ...`
// they run uses flags the kit's own parser knows (asked from the CLI, so the recipes cannot rot).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { workflowErrors } from '../cli/github-yaml.test-helper.ts';
import { loadCommand } from './command.ts';

const text = (f: string) => readFileSync(fileURLToPath(new URL(`../../examples/${f}`, import.meta.url)), 'utf8');
const read = (f: string) => parse(text(f)) as Record<string, any>;

/** Every `npx outreach-conformance ...` line of a job, as words (quotes keep a word together). */
function kitCommands(job: unknown): string[][] {
  const text = JSON.stringify(job).replace(/\\n/g, '\n');
  return [...text.matchAll(/npx outreach-conformance ([^\n"]*(?:"[^"]*"[^\n"]*)*)/g)].map((m) => [...m[1]!.replace(/\\"/g, '"').matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((w) => w[1] ?? w[2] ?? w[3]!));
}

/** The flags `load <mode>` refuses an unknown flag with ("known: --a, --b"). */
async function knownFlags(mode: string): Promise<string[]> {
  const err = await loadCommand([mode, '--no-such-flag-here']).then(
    () => undefined,
    (e: Error) => e.message,
  );
  return /known: (.*)/.exec(err ?? '')?.[1]?.match(/--[a-z][\w-]*/g) ?? [];
}

async function expectRealFlags(cmds: string[][]): Promise<void> {
  for (const argv of cmds) {
    expect(argv[0]).toBe('load');
    const known = await knownFlags(argv[1]!);
    for (const w of argv.filter((x) => x.startsWith('--'))) expect(known, `${argv.join(' ')}: ${w}`).toContain(w);
  }
}

/** The variables a profile from `init` reads its secrets from (harness/cli/init.ts): its two workspaces' keys, the control API's token. */
const PROFILE_VARIABLES = ['OUTREACH_CONTROL_TOKEN', 'OUTREACH_KEY_A', 'OUTREACH_KEY_B'];
/** Variables the kit itself reads, with the file that reads them: the --metrics endpoints' basic auth. */
const KIT_VARIABLES = { OUTREACH_METRICS_AUTH: 'harness/load/metrics/flag.ts' };
const outreachVariables = (t: string) => [...new Set(t.match(/\bOUTREACH_[A-Z_]+\b/g) ?? [])].sort();

describe('the sharded-load CI recipes', () => {
  it('name only the variables a profile reads (a key under another name is read by nothing)', () => {
    const docs = (f: string) => readFileSync(fileURLToPath(new URL(`../../${f}`, import.meta.url)), 'utf8');
    expect(outreachVariables(text('load-shards-github-actions.yml'))).toEqual(PROFILE_VARIABLES);
    for (const [v, file] of Object.entries(KIT_VARIABLES)) expect(docs(file), `${file} reads ${v}`).toContain(`env.${v}`);
    const read = [...PROFILE_VARIABLES, ...Object.keys(KIT_VARIABLES)];
    for (const t of [text('load-shards-gitlab-ci.yml'), docs('docs/LOAD-SHARDS.md')]) for (const v of outreachVariables(t)) expect(read).toContain(v);
    const secretLines = docs('README.md').split('\n').filter((l) => l.includes('kubectl create secret'));
    expect(secretLines.length).toBeGreaterThan(0);
    for (const v of outreachVariables(secretLines.join('\n'))) expect(PROFILE_VARIABLES).toContain(v);
  });

  it("GitHub Actions: a valid workflow by GitHub's parser, which refuses it when the shards need a job that is not there", async () => {
    expect(await workflowErrors(text('load-shards-github-actions.yml'), 'load-shards-github-actions.yml')).toEqual([]);
    const wf = read('load-shards-github-actions.yml');
    const broken = { ...wf, jobs: { ...wf.jobs, shard: { ...wf.jobs.shard, needs: 'plan' } } };
    expect(await workflowErrors(broken)).toContainEqual(expect.stringMatching(/Job 'shard' depends on unknown job 'plan'/));
  });

  it('GitHub Actions: instant, a matrix of shards uploading load.json, a merge gating on thresholds', async () => {
    const wf = read('load-shards-github-actions.yml');
    expect(Object.keys(wf.jobs)).toEqual(['instant', 'shard', 'merge']);
    expect(JSON.stringify(wf.jobs.instant)).toMatch(/start-at=\$\(date -u -d '\+\d+ minutes'/);
    const shard = wf.jobs.shard;
    expect(shard.needs).toBe('instant');
    expect(shard.strategy.matrix.shard).toEqual([1, 2, 3, 4]);
    const [load] = kitCommands(shard);
    expect(load!.join(' ')).toMatch(/^load api .*--shard \$\{\{ matrix.shard \}\}\/\$\{\{ env.SHARDS \}\} --start-at \$\{\{ needs.instant.outputs.start-at \}\} --run \$\{\{ needs.instant.outputs.run \}\} --out shards/);
    const upload = shard.steps.find((s: any) => String(s.uses).startsWith('actions/upload-artifact'));
    expect(upload.with.path).toMatch(/shards\/.*\/shard-\$\{\{ matrix.shard \}\}-of-4\/$/);
    expect(wf.jobs.merge.needs).toEqual(['instant', 'shard']);
    const [merge] = kitCommands(wf.jobs.merge);
    expect(merge!.slice(0, 2)).toEqual(['load', 'merge']);
    expect(merge).toContain('--threshold');
    await expectRealFlags([load!, merge!]);
  });

  it('GitLab: instant as a dotenv artifact, parallel shards keeping load.json, a merge gating on thresholds', async () => {
    const ci = read('load-shards-gitlab-ci.yml');
    expect(ci.stages).toEqual(['plan', 'load', 'merge']);
    expect(ci.instant.artifacts.reports.dotenv).toBe('instant.env');
    expect(ci.shard).toMatchObject({ needs: ['instant'], parallel: 4, artifacts: { when: 'always', paths: ['shards/'] } });
    const [load] = kitCommands(ci.shard);
    expect(load!.join(' ')).toContain('--shard $CI_NODE_INDEX/$CI_NODE_TOTAL --start-at $START_AT --run $LOAD_RUN');
    const [merge] = kitCommands(ci.merge);
    expect(merge).toEqual(expect.arrayContaining(['merge', '--from', 'shards', '--shards', '--threshold']));
    await expectRealFlags([load!, merge!]);
  });
});
