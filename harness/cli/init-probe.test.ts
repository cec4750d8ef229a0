// `init --base-url URL --key-env VAR` through the bin, against the reference served alone with
// the alt choice set and two seeded random ones: every field it marks observed is that set's
// truth (the profile the reference prints for it), the count is printed, the file is refused until its
// placeholders are confirmed (then it loads), the key it created is revoked, and no secret reaches
// its output or file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './cli.test-helper.ts';
import { startChildReference, type ChildTarget } from '../load/embedded-target.ts';
import { Profile } from '../ground/profile-schema.ts';
import type { ReferencedOperationId } from '../ground/spec-model/referenced-operations.ts';
import { fieldName, resultPath } from '../ground/operations.ts';
import { getAt } from './init/findings.ts';
import { CONTROL_EXTENSIONS } from '../ground/check.ts';
import { loadProfile } from '../ground/profile.ts';
import { parseChoices } from '../reference/index.ts';

/** The names init proves; the other names it writes are the starter's placeholders. */
const PROBED_NAMES = ['/names/list/pageSize', '/names/list/cursor', '/names/list/status', '/names/list/tags', '/names/leadsSearchParam', '/names/oauthStatusStateParam'];
const NOT_PROBED = /^\/names\/(analytics|mutate|businessRuleErrorCode|sendingDays)/;

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'oc-init-probe-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** The truth at a pointer init wrote: logical field and result names default as the kit reads them. */
function truthAt(truth: Profile, pointer: string): unknown {
  const m = /^\/operations\/([^/]+)\/(fields|result)\/([^/]+)$/.exec(pointer);
  if (!m) return getAt(truth, pointer);
  const op = truth.operations[m[1] as ReferencedOperationId];
  if (!op) return undefined;
  return m[2] === 'fields' ? fieldName(op, m[3]!) : resultPath(op, m[3]!);
}

/**
 * A placeholder is not a declaration: the fields init marked "not found" but wrote a value for
 * (the unprobed names at least) are listed by init, refused by plan (exit 2, each named with its
 * value) and by the loader; marked "declared", they load.
 */
async function expectRefusedUntilConfirmed(out: string, written: any, stdout: string): Promise<Profile> {
  const fields = written.observed.fields as Record<string, string>;
  const held = Object.keys(fields).filter((p) => fields[p] === 'not found' && getAt(written, p) !== undefined);
  expect(held).toEqual(expect.arrayContaining(['/names/analytics/start', '/names/mutate/operation']));
  expect(stdout).toContain(`the profile will be refused (run, plan) until you confirm these ${held.length} fields`);
  for (const p of held) expect(stdout).toContain(`  ${p} = ${JSON.stringify(getAt(written, p))}\n`);
  const plan = await cli(['plan', '--profile', out]);
  expect(plan.code).toBe(2);
  for (const p of held) expect(plan.stderr).toContain(`  ${p} = ${JSON.stringify(getAt(written, p))}`);
  expect(plan.stderr).toMatch(/mark it "declared" in observed\.fields/);
  await expect(loadProfile(out)).rejects.toThrow(/holds values its own observed\.fields marks "not found"/);
  const confirmed = { ...written, observed: { ...written.observed, fields: { ...fields, ...Object.fromEntries(held.map((p) => [p, 'declared'])) } } };
  await writeFile(out, JSON.stringify(confirmed));
  const loaded = await loadProfile(out);
  expect(loaded.names).toEqual(Profile.parse(written).names);
  return loaded;
}

async function workspaceKey(target: ChildTarget): Promise<string> {
  const res = await fetch(`${target.control.baseUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${target.control.token}` } });
  return ((await res.json()) as { apiKey: string }).apiKey;
}

describe('init probes a running target', () => {
  for (const choices of ['alt', 'random:30', 'random:11']) {
    it(`marks observed only what the ${choices} choice set really is, prints the count, writes a profile refused until its placeholders are confirmed`, async () => {
      const target = await startChildReference({ choices, name: `the reference (${choices})` });
      try {
        const truth = Profile.parse(target.profile);
        const key = await workspaceKey(target);
        const out = join(dir, `${choices.replace(':', '-')}.json`);
        const env = { INIT_TEST_KEY: key, INIT_TEST_CONTROL: target.control.token };
        const r = await cli(['init', '--base-url', target.baseUrl, '--key-env', 'INIT_TEST_KEY', '--control-url', target.control.baseUrl, '--control-token-env', 'INIT_TEST_CONTROL', '--out', out], { env });
        expect(r.code, r.stderr).toBe(0);
        const text = await readFile(out, 'utf8');
        for (const secret of [key, target.control.token]) expect(r.stdout + r.stderr + text).not.toContain(secret);

        const written = JSON.parse(text);
        const fields = written.observed.fields as Record<string, string>;
        const observed = Object.keys(fields).filter((p) => fields[p] === 'observed');
        for (const p of observed) expect({ p, value: getAt(written, p) }).toEqual({ p, value: truthAt(truth, p) });
        const probed = Object.keys(fields).filter((p) => !NOT_PROBED.test(p));
        expect(r.stdout).toContain(`observed ${observed.length} of ${probed.length} probed fields`);
        const sent = Number(/: (\d+) API requests \(at most 90\)/.exec(r.stdout)?.[1]);
        expect(sent).toBeGreaterThan(10);
        expect(sent).toBeLessThanOrEqual(90);
        // A conforming target shows all init probes, bar the inbox filter names (no emails to
        // filter); the names it does not probe are placeholders, marked not found too.
        expect(probed.filter((p) => fields[p] === 'not found')).toEqual(['/operations/emails.list/fields']);
        expect(Object.keys(fields).filter((p) => NOT_PROBED.test(p)).every((p) => fields[p] === 'not found')).toBe(true);
        expect(observed).toEqual(expect.arrayContaining([...PROBED_NAMES, '/declarations/successStatus/apikeys.create', '/control/baseUrl']));
        // A serialized drain (the `drain` choice) offers no scoped-drain.
        const offered = CONTROL_EXTENSIONS.filter((x) => x !== 'scoped-drain' || parseChoices(choices).drain !== 'serialized');
        expect(written.observed.controlExtensions).toEqual([...offered].sort());
        expect(written.control.token).toEqual({ env: 'INIT_TEST_CONTROL' });

        const keys = await fetch(`${target.baseUrl}${truth.operations['apikeys.list']!.path}`, { headers: { authorization: `Bearer ${key}` } });
        expect(await keys.text()).not.toContain('oc-init-'); // the key init created is revoked
        await expectRefusedUntilConfirmed(out, written, r.stdout);
      } finally {
        await target.stop();
      }
    });
  }

  it('marks not found, and never writes as fact, what a read-only key cannot prove (no control API given)', async () => {
    const target = await startChildReference({ choices: 'alt', name: 'the reference (alt)' });
    try {
      const ws = (await (await fetch(`${target.control.baseUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${target.control.token}` } })).json()) as { organizationId: string };
      const readOnly = await fetch(`${target.control.baseUrl}/workspaces/${ws.organizationId}/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.control.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scopes: ['all:read'] }),
      });
      const key = ((await readOnly.json()) as { key: string }).key;
      const out = join(dir, 'read-only.json');
      const r = await cli(['init', '--base-url', target.baseUrl, '--key-env', 'INIT_TEST_KEY', '--out', out], { env: { INIT_TEST_KEY: key } });
      expect(r.code, r.stderr).toBe(0);
      const written = JSON.parse(await readFile(out, 'utf8'));
      const notFound = Object.entries(written.observed.fields as Record<string, string>).filter(([, v]) => v === 'not found').map(([p]) => p);
      expect(notFound).toEqual(expect.arrayContaining(['/control/baseUrl', '/operations/apikeys.list/path', '/operations/apikeys.create/path', '/names/list/pageSize', '/names/list/cursor']));
      expect(written.operations['apikeys.create']).toBeUndefined();
      expect(written.declarations).toBeUndefined();
      expect(written.control).toBeUndefined();
      expect(written.workspaces).toEqual([{ apiKey: { env: 'INIT_TEST_KEY' } }, { apiKey: { env: 'OUTREACH_KEY_B' } }]);
      expect(r.stdout).toMatch(/created nothing/);
      expect(r.stdout).toMatch(/not found \(\d+; [^\n]*fill in by hand:\n(  .*\n)*  \/names\/list\/pageSize: /);
      expect(r.stdout).toMatch(/export OUTREACH_KEY_B/);
      expect(r.stdout + r.stderr).not.toContain(key);
      expect((await expectRefusedUntilConfirmed(out, written, r.stdout)).workspaces).toHaveLength(2);
    } finally {
      await target.stop();
    }
  });

  it('refuses, exit 2 and before probing, a missing key variable or a target it cannot reach', async () => {
    const out = join(dir, 'refused.json');
    const missing = await cli(['init', '--base-url', 'http://127.0.0.1:9', '--key-env', 'INIT_TEST_UNSET', '--out', out], { env: { INIT_TEST_UNSET: '' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/environment variable INIT_TEST_UNSET is not set/);
    const secret = 'ock_init_test_never_printed_1234';
    const unreachable = await cli(['init', '--base-url', 'http://127.0.0.1:9', '--key-env', 'INIT_TEST_KEY', '--out', out], { env: { INIT_TEST_KEY: secret } });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(unreachable.stdout + unreachable.stderr).not.toContain(secret);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/); // nothing written
  });
});
