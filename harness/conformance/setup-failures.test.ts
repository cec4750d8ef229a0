import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../cli/cli.test-helper.ts';
import { DEFAULT_CHOICES, profileFor, startReference, type ReferenceHandle } from '../reference/index.ts';

// A run that cannot prepare is no verdict: each set-up failure exits 2 through the bin, with one
// message on stderr naming the profile field, the variable or the URL, and writes no report that
// reads PASS. A run whose every chosen check skipped exits 2 too.

let ref: ReferenceHandle;
let dir: string;
const keys: string[] = [];

async function controlWorkspaceKey(): Promise<string> {
  const r = await fetch(`${ref.controlUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${ref.controlToken}`, 'content-type': 'application/json' }, body: '{}' });
  return ((await r.json()) as { apiKey: string }).apiKey;
}

/** A profile of the served reference; `over` replaces top-level fields (no control API unless given). */
async function profile(name: string, over: Record<string, unknown>): Promise<string> {
  const base = profileFor(DEFAULT_CHOICES, { baseUrl: ref.baseUrl });
  const path = join(dir, `${name}.json`);
  await writeFile(path, JSON.stringify({ ...base, workspaces: [{ apiKey: { env: 'OC_SETUP_KEY_A' } }, { apiKey: { env: 'OC_SETUP_KEY_B' } }], ...over }));
  return path;
}

/** What a run wrote under `out`: no results.json there may read PASS. */
async function passingReports(out: string): Promise<string[]> {
  const found: string[] = [];
  for (const e of await readdir(out, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (e.isFile() && e.name === 'results.json') {
      const r = JSON.parse(await readFile(join(e.parentPath, e.name), 'utf8')) as { verdict: string };
      if (r.verdict === 'pass') found.push(join(e.parentPath, e.name));
    }
  }
  return found;
}

async function runExpecting2(args: string[], env: Record<string, string | undefined>, cause: RegExp): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), 'oc-setup-out-'));
  const r = await cli(['run', ...args, '--depth', 'smoke', '--out', out, '--quiet'], { env: { OC_SETUP_KEY_A: undefined, OC_SETUP_KEY_B: undefined, ...env } as NodeJS.ProcessEnv });
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr).toMatch(cause);
  // One plain message: the cause, not a stack.
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(await passingReports(out)).toEqual([]);
  return r.stderr;
}

beforeAll(async () => {
  ref = await startReference({ choices: DEFAULT_CHOICES });
  dir = await mkdtemp(join(tmpdir(), 'oc-setup-'));
  keys.push(await controlWorkspaceKey(), await controlWorkspaceKey());
});
afterAll(async () => {
  await ref?.stop();
});

describe('set-up failures exit 2 with their cause, before any verdict', () => {
  it('a workspace key read from an environment variable that is not set', async () => {
    const path = await profile('unset', {});
    const err = await runExpecting2(['--profile', path], { OC_SETUP_KEY_B: keys[1] }, /workspaces\.0\.apiKey reads environment variable OC_SETUP_KEY_A, which is not set/);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('a workspace key read from an empty environment variable', async () => {
    const path = await profile('empty', {});
    await runExpecting2(['--profile', path], { OC_SETUP_KEY_A: keys[0], OC_SETUP_KEY_B: '' }, /workspaces\.1\.apiKey reads environment variable OC_SETUP_KEY_B, which is empty/);
  });

  it('a control token the control API refuses', async () => {
    const path = await profile('bad-control', { control: { baseUrl: ref.controlUrl, token: { env: 'OC_SETUP_CONTROL' } } });
    const err = await runExpecting2(['--profile', path], { OC_SETUP_CONTROL: 'not-the-token' }, /control token \(profile field control\.token, from environment variable OC_SETUP_CONTROL\) was refused/);
    expect(err).not.toContain('not-the-token');
  });

  it('a key the target refuses, for the second workspace', async () => {
    const path = await profile('refused', {});
    const err = await runExpecting2(['--profile', path], { OC_SETUP_KEY_A: keys[0], OC_SETUP_KEY_B: 'ock_this_key_was_never_issued_000000' }, /workspaces\.1\.apiKey \(environment variable OC_SETUP_KEY_B\) was refused: GET \/v1\/workspace answered 401/);
    expect(err).not.toContain('ock_this_key_was_never_issued');
  });

  it('mail sinks that cannot start (an address of no interface here)', async () => {
    const path = await profile('bad-sinks', { sinks: { host: '192.0.2.1' } });
    await runExpecting2(['--profile', path], { OC_SETUP_KEY_A: keys[0], OC_SETUP_KEY_B: keys[1] }, /could not prepare, so no check ran: SMTP sink cannot listen on 192\.0\.2\.1/);
  });

  it('a base URL nothing answers on', async () => {
    const path = await profile('unreachable', { baseUrl: 'http://127.0.0.1:9' });
    await runExpecting2(['--profile', path], { OC_SETUP_KEY_A: keys[0], OC_SETUP_KEY_B: keys[1] }, /target http:\/\/127\.0\.0\.1:9 is unreachable \(profile field baseUrl\)/);
  });
});

describe('nothing checked is not a pass', () => {
  it('a run whose every chosen check skipped exits 2 and says why', async () => {
    const path = await profile('no-control', {});
    const out = await mkdtemp(join(tmpdir(), 'oc-setup-out-'));
    // Both checks need the control API, which this profile does not give.
    const r = await cli(['run', '--profile', path, '--check', '^(PLAN-NO-API-ACCESS-403|USAGE-COMPUTED)$', '--out', out, '--quiet'], { env: { OC_SETUP_KEY_A: keys[0], OC_SETUP_KEY_B: keys[1] } });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/NOTHING CHECKED at depth default: no MUST or PROFILE clause was checked.*0 of \d+ clauses checked/);
    expect(r.stderr).toMatch(/needs the conformance-control API/);
    const results = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8')) as { verdict: string; detection: { killed: number } };
    expect(results.verdict).toBe('nothing-checked');
    expect(results.detection.killed).toBe(0);
  });
});
