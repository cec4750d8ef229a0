// The CI recipes (examples/github-actions.yml, examples/gitlab-ci.yml) read with a real YAML
// parser: the jobs docs/CI.md promises exist, and every `npx outreach-conformance ...` they run
// is a command of this kit with flags its own parser knows (asked from the CLI itself, so the
// recipes cannot rot when a flag is renamed).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';
import { DEPTHS } from '../ground/check.ts';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const NOT_A_FLAG = '--no-such-flag-here';

/** What the CLI answers, stdout and stderr together, for `argv`. */
async function cli(argv: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const grab = (s: string | Uint8Array) => ((text += String(s)), true);
  process.stdout.write = grab as typeof process.stdout.write;
  process.stderr.write = grab as typeof process.stderr.write;
  try {
    return { code: await main(argv), text };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

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

describe('examples/github-actions.yml', () => {
  let wf: any;
  beforeAll(async () => {
    wf = parse(await readFile(`${EXAMPLES}github-actions.yml`, 'utf8'));
  });

  it('runs smoke on pull requests, the default depth nightly, a load compare on release branches', () => {
    expect(Object.keys(wf.on)).toEqual(expect.arrayContaining(['pull_request', 'schedule', 'push']));
    expect(wf.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(wf.on.push.branches).toContain('release/**');
    const { smoke, nightly, 'load-compare': compare } = wf.jobs;
    expect(smoke.if).toContain("github.event_name == 'pull_request'");
    expect(jobCommands(smoke)).toContainEqual(expect.stringMatching(/^run .*--depth smoke/));
    expect(nightly.if).toContain("'schedule'");
    expect(jobCommands(nightly)).toContainEqual(expect.stringMatching(/^run .*--depth default/));
    expect(compare.if).toContain('refs/heads/release/');
    expect(jobCommands(compare)).toContainEqual(expect.stringMatching(/^compare .*--base .*--head /));
  });

  it('uploads JUnit, writes the job summary from summary.md when GITHUB_STEP_SUMMARY is set, keeps the artifacts', () => {
    for (const name of ['smoke', 'nightly']) {
      const steps: any[] = wf.jobs[name].steps;
      const junit = steps.find((s) => String(s.uses).startsWith('mikepenz/action-junit-report@'));
      expect(junit?.with.report_paths, name).toBe('reports/latest/junit.xml');
      const summary = steps.find((s) => String(s.run).includes('GITHUB_STEP_SUMMARY'));
      expect(summary?.run, name).toMatch(/if \[ -n "\$\{GITHUB_STEP_SUMMARY:-\}" \][\s\S]*cat reports\/latest\/summary\.md >> "\$GITHUB_STEP_SUMMARY"/);
      const upload = steps.find((s) => String(s.uses).startsWith('actions/upload-artifact@'));
      expect(String(upload?.with.path), name).toMatch(/reports\/latest\/(bundle\.tgz|$)/m);
      // Reports are kept when the run fails too.
      for (const s of [junit, summary, upload]) expect(s.if, name).toBe('always()');
    }
    expect(wf.jobs['load-compare'].steps.some((s: any) => String(s.uses).startsWith('actions/upload-artifact@'))).toBe(true);
  });

  it('runs only real commands and flags of this kit', async () => {
    await expectRealCommands(commands(wf));
  });
});

describe('examples/gitlab-ci.yml', () => {
  let ci: any;
  beforeAll(async () => {
    ci = parse(await readFile(`${EXAMPLES}gitlab-ci.yml`, 'utf8'));
  });

  it('has the smoke, nightly and compare jobs with JUnit reports and artifacts', () => {
    expect(jobCommands(ci['conformance-smoke'])).toContainEqual(expect.stringMatching(/^run .*--depth smoke/));
    expect(ci['conformance-smoke'].rules[0].if).toContain('merge_request_event');
    expect(jobCommands(ci['conformance-nightly'])).toContainEqual(expect.stringMatching(/^run .*--depth default/));
    expect(ci['conformance-nightly'].rules[0].if).toContain('schedule');
    expect(jobCommands(ci['load-compare'])).toContainEqual(expect.stringMatching(/^compare /));
    expect(ci['load-compare'].rules[0].if).toContain('release');
    expect(ci['.conformance'].artifacts).toMatchObject({ when: 'always', reports: { junit: 'reports/latest/junit.xml' } });
    for (const job of ['conformance-smoke', 'conformance-nightly']) expect(ci[job].extends).toBe('.conformance');
  });

  it('runs only real commands and flags of this kit', async () => {
    await expectRealCommands(commands(ci));
  });
});
