// The certification bundle end to end: written from real reports (the fixture plants secrets),
// read back by the kit and by the system's tar and sha256sum, and every kind of damage caught.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from './index.ts';
import { makeInput, PLANTED } from './fixture.test-helper.ts';
import { BUNDLE_FILES, MANIFEST, verifyBundle, writeBundle } from './bundle.ts';
import { readTarGz, writeTarGz, type TarEntry } from './bundle-tar.ts';
import { verifyCommand } from '../cli/verify.ts';

let dir: string;
let bundle: Buffer;
let entries: TarEntry[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oc-bundle-'));
  await writeReports(dir, makeInput({ withRunEnd: true }));
  const { path, sha256 } = await writeBundle(dir);
  bundle = await readFile(path);
  expect(createHash('sha256').update(bundle).digest('hex')).toBe(sha256);
  entries = readTarGz(bundle);
});

async function verify(bytes: Buffer): Promise<{ code: number; out: string; err: string }> {
  const file = join(dir, `check-${Math.random().toString(36).slice(2)}.tgz`);
  await writeFile(file, bytes);
  let out = '';
  let err = '';
  const code = await verifyCommand([file], { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`) });
  return { code, out, err };
}

/** The bundle with its entries changed, the manifest left as it was unless `manifest` is given. */
function rebuilt(change: (es: TarEntry[]) => TarEntry[]): Buffer {
  return writeTarGz(change(entries.map((e) => ({ ...e }))));
}

function withManifest(es: TarEntry[]): TarEntry[] {
  const files = es.filter((e) => e.name !== MANIFEST);
  const manifest = files.map((e) => `${createHash('sha256').update(e.data).digest('hex')}  ${e.name}\n`).join('');
  return [...files, { name: MANIFEST, data: Buffer.from(manifest) }];
}

describe('certification bundle', () => {
  it('holds the reports, the redacted profile and a manifest; verify prints the verdict it records', async () => {
    expect(entries.map((e) => e.name)).toEqual([...BUNDLE_FILES, MANIFEST]);
    const results = JSON.parse(entries.find((e) => e.name === 'results.json')!.data.toString());
    const profile = JSON.parse(entries.find((e) => e.name === 'profile.json')!.data.toString());
    expect(profile).toEqual(results.profile);
    expect(profile.workspaces[0].apiKey).toBe('[REDACTED]');
    const r = await verify(bundle);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/valid \(5 files/);
    expect(r.out).toContain(`verdict: ${results.verdict.toUpperCase()}`);
    expect(r.out).toMatch(/^Core: [A-Z]+ \(\d+ of \d+ MUST clauses? checked/m);
    expect(r.out).toMatch(/^Extended: [A-Z]+ /m);
  });

  it('holds no secret: neither the planted ones nor one the run knows', async () => {
    const all = entries.map((e) => e.data.toString()).join('\n');
    for (const secret of Object.values(PLANTED)) expect(all).not.toContain(secret);
    // A secret only the run knows (not secret-shaped, in no secret-named field) is erased by the guard.
    const other = await mkdtemp(join(tmpdir(), 'oc-bundle-guard-'));
    await writeReports(other, makeInput({ withRunEnd: true }));
    const junit = join(other, 'junit.xml');
    await writeFile(junit, (await readFile(junit, 'utf8')).replace('</testsuites>', '<!-- open sesame 42 --></testsuites>'));
    const { path } = await writeBundle(other, { redact: (t) => t.replaceAll('open sesame 42', '[REDACTED]') });
    const guarded = readTarGz(await readFile(path)).map((e) => e.data.toString()).join('\n');
    expect(guarded).not.toContain('open sesame 42');
    expect(verifyBundle(await readFile(path)).status).toBe('valid');
  });

  it('is a real tar.gz: the system tar lists it and sha256sum -c accepts its manifest', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-bundle-x-'));
    execFileSync('tar', ['xzf', join(dir, 'bundle.tgz'), '-C', out]);
    expect(execFileSync('tar', ['tzf', join(dir, 'bundle.tgz')], { encoding: 'utf8' }).trim().split('\n')).toEqual([...BUNDLE_FILES, MANIFEST]);
    expect(execFileSync('sha256sum', ['-c', MANIFEST], { cwd: out, encoding: 'utf8' })).toMatch(/results\.json: OK/);
  });

  it('names a changed file (exit 1)', async () => {
    const r = await verify(rebuilt((es) => es.map((e) => (e.name === 'report.html' ? { ...e, data: Buffer.from(e.data.toString().replace('FAIL', 'PASS')) } : e))));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/TAMPERED/);
    expect(r.err).toMatch(/report\.html has been changed/);
    expect(r.err).not.toMatch(/results\.json/);
  });

  it('names a missing file, listed or not (exit 1)', async () => {
    const listed = await verify(rebuilt((es) => es.filter((e) => e.name !== 'junit.xml')));
    expect(listed.code).toBe(1);
    expect(listed.err).toMatch(/junit\.xml is listed in MANIFEST\.sha256 but missing/);
    // Dropped together with its manifest line: still missing (the bundle's file set is fixed).
    const unlisted = await verify(rebuilt((es) => withManifest(es.filter((e) => e.name !== 'profile.json'))));
    expect(unlisted.code).toBe(1);
    expect(unlisted.err).toMatch(/profile\.json is not listed/);
    const noManifest = await verify(rebuilt((es) => es.filter((e) => e.name !== MANIFEST)));
    expect(noManifest.code).toBe(1);
    expect(noManifest.err).toMatch(/MANIFEST\.sha256 is missing/);
  });

  it('names an extra file (exit 1)', async () => {
    const r = await verify(rebuilt((es) => [...es, { name: 'notes.txt', data: Buffer.from('added later') }]));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/notes\.txt is not listed in MANIFEST\.sha256 \(an extra file\)/);
  });

  it('refuses a results.json that is not what the kit writes, even with a matching manifest (exit 1)', async () => {
    const r = await verify(rebuilt((es) => withManifest(es.map((e) => (e.name === 'results.json' ? { ...e, data: Buffer.from('{"verdict":"certified"}') } : e)))));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/results\.json is not well-formed: "verdict" is "certified"/);
  });

  it('says why garbage is unreadable (exit 2)', async () => {
    const noise = await verify(Buffer.from('this is not a bundle at all'));
    expect(noise.code).toBe(2);
    expect(noise.err).toMatch(/unreadable as a certification bundle: not a gzip file/);
    const notTar = await verify(gzipSync(Buffer.alloc(1500, 0x41)));
    expect(notTar.code).toBe(2);
    expect(notTar.err).toMatch(/not a ustar header/);
    const cut = await verify(gzipSync(execFileSync('gzip', ['-dc', join(dir, 'bundle.tgz')]).subarray(0, 1200)));
    expect(cut.code).toBe(2);
    expect(cut.err).toMatch(/cut short/);
    const absent = await verifyCommand([join(dir, 'nope.tgz')], { err: () => {} });
    expect(absent).toBe(2);
  });
});
