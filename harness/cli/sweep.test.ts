import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildReference, type ChildTarget } from '../load/embedded-target.ts';
import { cli } from './cli.test-helper.ts';

// `sweep` as a user meets it after a run was killed: the reference served alone, two workspaces
// given in a profile without the control API, and what a stopped run would have left in them
// (API keys and mailboxes carrying run prefixes) next to things of the user's own.

let target: ChildTarget;
let profilePath: string;
let keys: string[];

async function workspace(): Promise<{ apiKey: string; organizationId: string }> {
  const res = await fetch(`${target.control.baseUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${target.control.token}`, 'content-type': 'application/json' }, body: '{}' });
  return (await res.json()) as { apiKey: string; organizationId: string };
}

async function api(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${target.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

const mailbox = (emailAddress: string) => ({ emailAddress, firstName: 'A', lastName: 'B', smtpHost: '127.0.0.1', smtpPort: 9, smtpUsername: emailAddress, smtpPassword: 'pw-123456789012', imapHost: '127.0.0.1', imapPort: 9, imapUsername: emailAddress, imapPassword: 'pw-123456789012' });

/** Names of the API keys and addresses of the mailboxes in a workspace. */
async function contents(key: string): Promise<string[]> {
  const k = await api(key, 'GET', '/v1/api-keys?limit=100');
  const m = await api(key, 'GET', '/v1/accounts?limit=100');
  return [...(k.body?.data ?? []).map((x: { name: string }) => x.name), ...(m.body?.data ?? []).map((x: { emailAddress: string }) => x.emailAddress)].sort();
}

beforeAll(async () => {
  target = await startChildReference({ choices: 'default', name: 'the reference (sweep)' });
  const made = [await workspace(), await workspace()];
  keys = made.map((w) => w.apiKey);
  const { control: _c, embedded: _e, ...rest } = target.profile as Record<string, unknown>;
  profilePath = join(await mkdtemp(join(tmpdir(), 'oc-sweep-')), 'staging.json');
  await writeFile(profilePath, JSON.stringify({ ...rest, name: 'staging-like', baseUrl: target.baseUrl, workspaces: made.map((w) => ({ apiKey: { env: `SWEEP_KEY_${made.indexOf(w)}` }, organizationId: w.organizationId })) }));
  // Left by two stopped runs (prefixes oca1b2c3- and ocd4e5f6-), beside the user's own.
  for (const [i, key] of keys.entries()) {
    for (const name of ['oca1b2c3-key-0', 'ocd4e5f6-key-0', 'my-own-key']) expect((await api(key, 'POST', '/v1/api-keys', { name, scopes: ['usage:read'] })).status).toBeLessThan(300);
    const boxes = [`oca1b2c3-box${i}@sink.example.test`, `my-own${i}@example.test`];
    expect((await api(key, 'POST', '/v1/accounts', { accounts: boxes.map(mailbox) })).status).toBeLessThan(300);
  }
});

afterAll(async () => {
  await target?.stop();
});

describe('sweep', () => {
  const env = () => ({ SWEEP_KEY_0: keys[0]!, SWEEP_KEY_1: keys[1]! });

  it('lists with --dry-run and deletes nothing', async () => {
    const before = await contents(keys[0]!);
    const r = await cli(['sweep', '--profile', profilePath, '--prefix', 'oca1b2c3-', '--dry-run'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/workspace 1: would delete 2:/);
    expect(r.stdout).toContain('(oca1b2c3-box0@sink.example.test)');
    expect(await contents(keys[0]!)).toEqual(before);
  });

  it("deletes one run's keys and mailboxes, then any run's, and never the user's own or the workspace key", async () => {
    const one = await cli(['sweep', '--profile', profilePath, '--prefix', 'oca1b2c3-'], { env: env() });
    expect(one.code, one.stdout + one.stderr).toBe(0);
    expect(one.stdout).toMatch(/workspace 2: deleted 2:/);
    for (const key of keys) expect((await contents(key)).filter((n) => n.startsWith('oca1b2c3-'))).toEqual([]);
    expect((await contents(keys[0]!)).some((n) => n.startsWith('ocd4e5f6-'))).toBe(true);
    const any = await cli(['sweep', '--profile', profilePath], { env: env() });
    expect(any.code, any.stdout + any.stderr).toBe(0);
    for (const [i, key] of keys.entries()) {
      const left = await contents(key);
      expect(left.filter((n) => /^oc[0-9a-f]{6}-/.test(n))).toEqual([]);
      expect(left).toEqual(expect.arrayContaining(['my-own-key', `my-own${i}@example.test`]));
      expect((await api(key, 'GET', '/v1/workspace')).status).toBe(200); // its own key still works
    }
    for (const key of keys) expect(one.stdout + any.stdout + one.stderr + any.stderr).not.toContain(key);
  });

  it('refuses a bad prefix, a missing profile and the embedded profile, naming why (exit 2)', async () => {
    const bad = await cli(['sweep', '--profile', profilePath, '--prefix', 'my-'], { env: env() });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--prefix must be a run prefix')]);
    expect((await cli(['sweep'])).stderr).toContain('--profile FILE is required');
    expect((await cli(['sweep', '--profile', 'fixtures/profiles/reference.json'])).stderr).toContain('nothing to sweep');
  });
});
