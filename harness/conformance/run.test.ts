import { describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../cli/cli.test-helper.ts';

// The CLI as a user runs it: a child process, exit codes, files on disk.

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(join(e.parentPath, e.name));
  return out;
}

describe('outreach-conformance run', () => {
  it('exits 0 against the embedded reference, writes every report, and no secret reaches them', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-run-'));
    const otherSpec = join(out, 'other-spec.md');
    await writeFile(otherSpec, '# a spec the kit was not written from\n');
    const r = await cli(['run', '--depth', 'quick', '--out', out, '--quiet', '--spec', otherSpec, '--only', '^(AUTH-401-REVOKED|KEY-|WS-|IDEM-REPLAY/POST /v1/accounts$|ERR-BATCH|ERR-ENVELOPE|RATE-)']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/other-spec\.md DIFFERS from the spec this kit was written from/);
    expect(r.code).toBe(0);
    const latest = join(out, 'latest');
    const names = (await readdir(latest)).sort();
    expect(names).toEqual(['bundle.tgz', 'events.ndjson', 'junit.xml', 'report.html', 'results.json', 'summary.md', 'traffic.har']);
    const results = JSON.parse(await readFile(join(latest, 'results.json'), 'utf8'));
    expect(results.kit.name).toBe('outreach-conformance');
    // The spec's identity is a constant of the model: the same in any clone.
    expect(results.spec.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(results.spec.file).toMatchObject({ path: otherSpec, matches: false });
    // The recorded profile keeps field names: this `secret` is the path of the key in a response.
    expect(results.profile.operations['apikeys.create'].result.secret).toBe('key');
    expect(results.summary.fail).toBe(0);
    expect(results.summary.pass).toBeGreaterThan(5);
    // Detection power is measured: the kill matrix over the checks that ran to a verdict in this run.
    const ran = (results.checks as { id: string; verdict: string }[]).filter((c) => c.verdict === 'pass' || c.verdict === 'fail').map((c) => c.id);
    // At quick: a killer the matrix measured missing there kills nothing there.
    const matrix = JSON.parse(await readFile(fileURLToPath(new URL('../plan/kill-matrix.json', import.meta.url)), 'utf8')) as { mutants: Record<string, { killers: string[]; belowDefault?: { quick?: { missed: string[] } } }> };
    const killed = Object.values(matrix.mutants).filter((m) => m.killers.some((k) => ran.includes(k) && !m.belowDefault?.quick?.missed.includes(k))).length;
    expect(results.detection).toMatchObject({ killed, total: Object.keys(matrix.mutants).length });
    expect(results.detection.basis).toContain(`the ${ran.length} checks that ran to a verdict`);
    expect(results.clauses.length).toBeGreaterThan(500);
    // API keys of the reference look like ock_<32 chars>; mailbox passwords are sent in bodies.
    for (const f of await filesUnder(out)) {
      const text = await readFile(f, 'utf8');
      expect(text, f).not.toMatch(/ock_[A-Za-z0-9_-]{20,}/);
      expect(text, f).not.toMatch(/"(smtp|imap)Password":"(?!\[REDACTED\])/);
    }
  });

  it('exits 1 when a MUST check fails (a mutant of the reference)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-run-'));
    const r = await cli(['run', '--mutants', 'rate-per-key', '--only', '^RATE-', '--out', out, '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/RATE-LIMIT\/one-workspace-two-keys/);
    const summary = await readFile(join(out, 'latest', 'summary.md'), 'utf8');
    expect(summary).toMatch(/RATE-LIMIT/);
  });

  it('exits 2 with the field named for a bad profile', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oc-prof-'));
    const path = join(dir, 'bad.json');
    await writeFile(path, JSON.stringify({ name: 'x', baseUrl: 'http://127.0.0.1:9', workspaces: [{ apiKey: 'a' }, { apiKey: 'b' }], names: { list: { cursor: 'c' } } }));
    const r = await cli(['run', '--profile', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/names\.list\.pageSize/);
  });

  it('exits 2 when the target is unreachable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oc-prof-'));
    const path = join(dir, 'down.json');
    const reference = JSON.parse(await readFile(fileURLToPath(new URL('../../fixtures/profiles/reference.json', import.meta.url)), 'utf8'));
    await writeFile(path, JSON.stringify({ ...reference, embedded: false, baseUrl: 'http://127.0.0.1:9', workspaces: [{ apiKey: 'k1-aaaaaaaa' }, { apiKey: { env: 'OC_TEST_KEY' } }] }));
    const r = await cli(['run', '--profile', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unreachable|OC_TEST_KEY/);
  });

  it('exits 2 for an unknown command or flag, with usage', async () => {
    expect((await cli(['frobnicate'])).code).toBe(2);
    const r = await cli(['run', '--depht', 'full']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown argument "--depht"/);
  });

  it('init writes a starter profile whose placeholders are refused until the user confirms them, and that validates then', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oc-init-'));
    const path = join(dir, 'target.json');
    expect((await cli(['init', '--out', path])).code).toBe(0);
    const { parseProfile } = await import('../ground/profile.ts');
    const written = JSON.parse(await readFile(path, 'utf8'));
    // The reference's choices are placeholders, not the target's facts: refused, each named.
    expect(() => parseProfile(written)).toThrow(/\/names\/list\/cursor = "cursor"/);
    const refused = await cli(['plan', '--profile', path], { env: { OUTREACH_KEY_A: 'a', OUTREACH_KEY_B: 'b' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/\/declarations\/variantIdPath/);
    expect(refused.stderr).toMatch(/\/declarations\/warmupMail/);
    for (const k of Object.keys(written.observed.fields)) written.observed.fields[k] = 'declared';
    const p = parseProfile(written);
    expect(p.embedded).toBe(false);
    expect(JSON.stringify(p.workspaces)).toContain('OUTREACH_KEY_A');
    expect((await cli(['init', '--out', path])).code).toBe(2); // never overwrites by accident
  });

  it('openapi prints an OpenAPI 3.1 document', async () => {
    const r = await cli(['openapi']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).openapi).toBe('3.1.0');
  });
});
