// The certification bundle end to end: written from real reports (the fixture plants secrets),
// read back by the kit and by the system's tar and sha256sum, repacked by GNU tar (gnu and pax
// formats) and still valid through the bin, and every kind of damage caught.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from './index.ts';
import { makeInput, PLANTED } from './fixture.test-helper.ts';
import { BUNDLE_FILES, MANIFEST, verifyBundle, writeBundle } from './bundle.ts';
import { packTarGz, readTarGz, type TarEntry } from './bundle-tar.ts';
import { verifyCommand } from '../cli/verify.ts';
import { cli } from '../cli/cli.test-helper.ts';

let dir: string;
let bundle: Buffer;
let entries: TarEntry[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oc-bundle-'));
  await writeReports(dir, makeInput({ withRunEnd: true }));
  const { path, sha256 } = await writeBundle(dir);
  bundle = await readFile(path);
  expect(createHash('sha256').update(bundle).digest('hex')).toBe(sha256);
  entries = await readTarGz(bundle);
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
function rebuilt(change: (es: TarEntry[]) => TarEntry[]): Promise<Buffer> {
  return packTarGz(change(entries.map((e) => ({ ...e }))), new Date());
}

function withManifest(es: TarEntry[]): TarEntry[] {
  const files = es.filter((e) => e.name !== MANIFEST);
  const manifest = files.map((e) => `${createHash('sha256').update(e.data).digest('hex')}  ${e.name}\n`).join('');
  return [...files, { name: MANIFEST, data: Buffer.from(manifest) }];
}

describe('certification bundle', () => {
  it('holds the reports, the redacted profile and a manifest; verify prints the verdict it records', async () => {
    expect((await verify(bundle)).out).not.toContain('attestation'); // none lies beside it
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
    const guarded = (await readTarGz(await readFile(path))).map((e) => e.data.toString()).join('\n');
    expect(guarded).not.toContain('open sesame 42');
    expect((await verifyBundle(await readFile(path))).status).toBe('valid');
  });

  it('is a real tar.gz: the system tar lists it and sha256sum -c accepts its manifest', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-bundle-x-'));
    execFileSync('tar', ['xzf', join(dir, 'bundle.tgz'), '-C', out]);
    expect(execFileSync('tar', ['tzf', join(dir, 'bundle.tgz')], { encoding: 'utf8' }).trim().split('\n')).toEqual([...BUNDLE_FILES, MANIFEST]);
    expect(execFileSync('sha256sum', ['-c', MANIFEST], { cwd: out, encoding: 'utf8' })).toMatch(/results\.json: OK/);
  });

  it('names a changed file (exit 1)', async () => {
    const r = await verify(await rebuilt((es) => es.map((e) => (e.name === 'report.html' ? { ...e, data: Buffer.from(e.data.toString().replace('FAIL', 'PASS')) } : e))));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/TAMPERED/);
    expect(r.err).toMatch(/report\.html has been changed/);
    expect(r.err).not.toMatch(/results\.json/);
  });

  it('names a missing file, listed or not (exit 1)', async () => {
    const listed = await verify(await rebuilt((es) => es.filter((e) => e.name !== 'junit.xml')));
    expect(listed.code).toBe(1);
    expect(listed.err).toMatch(/junit\.xml is listed in MANIFEST\.sha256 but missing/);
    // Dropped together with its manifest line: still missing (the bundle's file set is fixed).
    const unlisted = await verify(await rebuilt((es) => withManifest(es.filter((e) => e.name !== 'profile.json'))));
    expect(unlisted.code).toBe(1);
    expect(unlisted.err).toMatch(/profile\.json is not listed/);
    const noManifest = await verify(await rebuilt((es) => es.filter((e) => e.name !== MANIFEST)));
    expect(noManifest.code).toBe(1);
    expect(noManifest.err).toMatch(/MANIFEST\.sha256 is missing/);
  });

  it('names an extra file (exit 1)', async () => {
    const r = await verify(await rebuilt((es) => [...es, { name: 'notes.txt', data: Buffer.from('added later') }]));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/notes\.txt is not listed in MANIFEST\.sha256 \(an extra file\)/);
  });

  it('refuses a results.json that is not what the kit writes, even with a matching manifest (exit 1)', async () => {
    const r = await verify(await rebuilt((es) => withManifest(es.map((e) => (e.name === 'results.json' ? { ...e, data: Buffer.from('{"verdict":"certified"}') } : e)))));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/results\.json is not well-formed: "verdict" is "certified"/);
  });

  it('says why garbage is unreadable (exit 2)', async () => {
    const noise = await verify(Buffer.from('this is not a bundle at all'));
    expect(noise.code).toBe(2);
    expect(noise.err).toMatch(/unreadable as a certification bundle: not a tar\.gz \(nor a tar\) archive/);
    const notTar = await verify(gzipSync(Buffer.alloc(1500, 0x41)));
    expect(notTar.code).toBe(2);
    expect(notTar.err).toMatch(/a tar header is damaged or the file is not a tar archive \(checksum failure\)/);
    const cut = await verify(gzipSync(execFileSync('gzip', ['-dc', join(dir, 'bundle.tgz')]).subarray(0, 1200)));
    expect(cut.code).toBe(2);
    expect(cut.err).toMatch(/cut short/);
    const absent = await verifyCommand([join(dir, 'nope.tgz')], { err: () => {} });
    expect(absent).toBe(2);
  });

  it('names the format it got when it is not a tar.gz: xz, zip, bzip2 (exit 2)', async () => {
    const tar = execFileSync('gzip', ['-dc', join(dir, 'bundle.tgz')]);
    const xz = execFileSync('xz', ['-c'], { input: tar });
    const bz2 = execFileSync('bzip2', ['-c'], { input: tar });
    await writeFile(join(dir, 'members.txt'), 'x');
    execFileSync('zip', ['-q', '-j', join(dir, 'bundle.zip'), join(dir, 'members.txt')]);
    const zip = await readFile(join(dir, 'bundle.zip'));
    for (const [bytes, name] of [[xz, 'an xz-compressed file'], [zip, 'a zip archive'], [bz2, 'a bzip2-compressed file'], [Buffer.alloc(0), 'an empty file']] as const) {
      const r = await verify(bytes);
      expect(r.code, name).toBe(2);
      expect(r.err).toContain(`unreadable as a certification bundle: ${name}, not a tar.gz`);
      expect(r.err).not.toMatch(/base256/);
    }
    // A plain tar (not gzipped) is still read: what is checked is the members.
    expect((await verify(tar)).code).toBe(0);
  });
});

describe('a bundle repacked by GNU tar, through the bin', () => {
  let work: string;
  const tar = (...args: string[]) => execFileSync('tar', args, { cwd: work });
  /** The tar header's magic (GNU: "ustar  ", POSIX/pax: "ustar\0") and type flag of the first member. */
  const firstHeader = (file: string) => {
    const raw = execFileSync('gzip', ['-dc', join(work, file)]);
    return { magic: raw.subarray(257, 263).toString('latin1'), type: String.fromCharCode(raw[156]!) };
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'oc-bundle-repack-'));
    await mkdir(join(work, 'b'));
    tar('xzf', join(dir, 'bundle.tgz'), '-C', 'b');
  });

  it('stays valid untouched: GNU format, pax format with ./ names, one enclosing folder', async () => {
    tar('-czf', 'gnu.tgz', '-C', 'b', ...BUNDLE_FILES, MANIFEST);
    tar('--format=pax', '-czf', 'pax.tgz', '-C', 'b', '.');
    tar('-czf', 'folder.tgz', 'b');
    expect(firstHeader('gnu.tgz').magic).toBe('ustar ');
    expect(firstHeader('pax.tgz').type).toBe('x'); // a pax extended header comes first
    for (const file of ['gnu.tgz', 'pax.tgz', 'folder.tgz']) {
      const r = await cli(['verify', join(work, file)]);
      expect(r.stderr, file).toBe('');
      expect(r.code, file).toBe(0);
      expect(r.stdout, file).toMatch(/: valid \(5 files, every sha256 matches MANIFEST\.sha256\)/);
      expect(r.stdout, file).toMatch(/^Core: [A-Z]+ /m);
    }
  });

  it('names the one member changed before repacking (exit 1)', async () => {
    await mkdir(join(work, 't'));
    tar('xzf', join(dir, 'bundle.tgz'), '-C', 't');
    const html = join(work, 't', 'report.html');
    await writeFile(html, (await readFile(html, 'utf8')).replace('FAIL', 'PASS'));
    tar('--format=pax', '-czf', 'tampered.tgz', '-C', 't', '.');
    const r = await cli(['verify', join(work, 'tampered.tgz')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TAMPERED WITH:\n {2}report\.html has been changed \(its sha256 is not the one in MANIFEST\.sha256\)\n(?!.)/);
  });

  it('names a member that is a link rather than a file (exit 1)', async () => {
    await mkdir(join(work, 'l'));
    tar('xzf', join(dir, 'bundle.tgz'), '-C', 'l');
    await rm(join(work, 'l', 'junit.xml'));
    await symlink('results.json', join(work, 'l', 'junit.xml'));
    tar('-czf', 'linked.tgz', '-C', 'l', ...BUNDLE_FILES, MANIFEST);
    const r = await verify(await readFile(join(work, 'linked.tgz')));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^ {2}junit\.xml is a SymbolicLink entry, not a regular file$/m);
  });

  it('refuses a truncated bundle and a garbage file with the reason (exit 2)', async () => {
    tar('-czf', 'whole.tgz', '-C', 'b', ...BUNDLE_FILES, MANIFEST);
    const whole = await readFile(join(work, 'whole.tgz'));
    await writeFile(join(work, 'cut.tgz'), whole.subarray(0, Math.floor(whole.length / 2)));
    await writeFile(join(work, 'garbage.tgz'), 'PK\x03\x04 not a tar at all');
    const cut = await cli(['verify', join(work, 'cut.tgz')]);
    expect(cut.code).toBe(2);
    expect(cut.stderr).toMatch(/cut\.tgz is unreadable as a certification bundle: the archive is cut short/);
    const garbage = await cli(['verify', join(work, 'garbage.tgz')]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/garbage\.tgz is unreadable as a certification bundle: a zip archive, not a tar\.gz/);
  });
});
