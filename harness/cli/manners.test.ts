import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './cli.test-helper.ts';
import { COMMANDS } from './usage.ts';
import { KIT } from '../ground/kit.ts';

// The CLI as people expect a tool to behave: help on every command before anything starts, a
// version, output a pipe can take (no escape codes, no test-runner lines), bad flags refused first.

const ANSI = /\x1b\[/;

describe('CLI manners', () => {
  for (const command of Object.keys(COMMANDS)) {
    it(`${command} --help and -h print its usage and exit 0, starting nothing`, async () => {
      for (const flag of ['--help', '-h']) {
        const r = await cli([command, flag], { timeoutMs: 100_000 });
        expect(r.code, `${command} ${flag}: ${r.stderr}`).toBe(0);
        expect(r.stdout).toMatch(/usage:/i);
        expect(r.stdout).toContain(`outreach-conformance ${command}`);
      }
    });
  }

  it('--help among other flags still only prints the usage (mutation --help starts no mutation run)', async () => {
    const r = await cli(['mutation', '--only', 'rate-', '--help'], { timeoutMs: 100_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('outreach-conformance mutation');
    expect(r.stdout).not.toMatch(/killed|mutant \d/);
  });

  it('--version and help COMMAND', async () => {
    const v = await cli(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(`${KIT.name} ${KIT.version}`);
    const h = await cli(['help', 'plan']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('outreach-conformance plan');
  });

  it('a bad flag value is refused before the target boots', async () => {
    const r = await cli(['load', 'api', '--rate', 'fast'], { timeoutMs: 100_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--rate takes/);
    expect(r.stdout).not.toMatch(/embedded reference target/);
    expect((await cli(['load', 'capacity', '--connections', 'many'], { timeoutMs: 100_000 })).stderr).toMatch(/--connections takes/);
  });

  it('--concurrency below 1 or not whole is refused before the target boots (a run at 0 would wait for ever)', async () => {
    for (const n of ['0', '-1', '1.5']) {
      const r = await cli(['run', `--concurrency=${n}`], { timeoutMs: 20_000 });
      expect(r.code, `--concurrency ${n}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`--concurrency must be a whole number of at least 1, not ${Number(n)}`);
      expect(r.stdout + r.stderr).not.toMatch(/NaN|embedded reference target/);
    }
  });

  it('a run piped to a file has no escape codes and no test-runner lines, unless asked for them', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-manners-'));
    try {
      const args = ['run', '--check', '^AUTH-401-MISSING/GET /v1/workspace$', '--out', out];
      const plain = await cli(args, { env: { FORCE_COLOR: '', NO_COLOR: '1' } });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).not.toMatch(ANSI);
      expect(plain.stdout).not.toMatch(/Test Files|RUN\s+v\d|Duration\s/);
      expect(plain.stdout).toMatch(/^PASS at depth /m);
      const verbose = await cli([...args, '--vitest-output'], { env: { NO_COLOR: '1' } });
      expect(verbose.stdout).toMatch(/Test Files|Tests\s+\d/);
      expect(verbose.stdout).not.toMatch(ANSI);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
