// `run --sign` and `verify --key` as a user meets them, through the bin: keys made with the
// openssl commands docs/CI.md gives, one cheap real run against the embedded reference, the
// attestation checked, then one byte changed and the check failing; bad keys refused before
// anything starts, and the private key in no output and no file.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from './cli.test-helper.ts';

let work: string;
let latest: string;
let keyPem: string;
let run: Awaited<ReturnType<typeof cli>>;
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: work });

/** The base64 lines of a PEM: what must never leak. */
const pemBody = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'));

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) found.push(join(e.parentPath, e.name));
  return found;
}

/** A copy of the signed bundle and its attestation in a fresh folder, for tampering. */
async function copyOfSigned(): Promise<string> {
  const dir = await mkdtemp(join(work, 'copy-'));
  for (const f of ['bundle.tgz', 'bundle.intoto.jsonl']) await copyFile(join(latest, f), join(dir, f));
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'oc-sign-'));
  openssl('genpkey', '-algorithm', 'ed25519', '-out', 'signing.pem');
  openssl('pkey', '-in', 'signing.pem', '-pubout', '-out', 'signing.pub');
  keyPem = await readFile(join(work, 'signing.pem'), 'utf8');
  const out = join(work, 'reports');
  run = await cli(['run', '--depth', 'smoke', '--check', '^AUTH-401-MISSING', '--sign', 'env:OC_TEST_SIGNING_KEY', '--out', out, '--quiet'], { env: { OC_TEST_SIGNING_KEY: keyPem } });
  latest = join(out, 'latest');
});

describe('run --sign', () => {
  it('writes an attestation beside the bundle, signed with the key from the environment, which no output holds', async () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^attestation: .*bundle\.intoto\.jsonl \(in-toto, DSSE, signed by key SHA256:\S+; verify --key PUB\.pem checks it\)$/m);
    expect(existsSync(join(latest, 'bundle.intoto.jsonl'))).toBe(true);
    const secret = pemBody(keyPem);
    expect(secret.length).toBeGreaterThan(0);
    for (const line of secret) expect(run.stdout + run.stderr).not.toContain(line);
    for (const f of await filesUnder(join(work, 'reports'))) {
      const text = await readFile(f, 'latin1');
      for (const line of secret) expect(text, f).not.toContain(line);
    }
  });

  it('refuses a bad key with exit 2 before anything starts, naming what is wrong and never its text', async () => {
    await writeFile(join(work, 'notes.txt'), 'just some text\n');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await writeFile(join(work, 'rsa.pem'), rsa);
    openssl('genpkey', '-algorithm', 'ed25519', '-aes256', '-pass', 'pass:secret-pass', '-out', 'encrypted.pem');
    const cases: [ref: string, message: RegExp][] = [
      [join(work, 'absent.pem'), /--sign .*absent\.pem: no such file/],
      ['env:OC_TEST_UNSET_SIGNING_KEY', /--sign env:OC_TEST_UNSET_SIGNING_KEY: environment variable OC_TEST_UNSET_SIGNING_KEY is not set/],
      [join(work, 'notes.txt'), /notes\.txt: is not a PEM private key/],
      [join(work, 'signing.pub'), /signing\.pub: is not a PEM private key/],
      [join(work, 'rsa.pem'), /rsa\.pem: its key type is rsa; the kit signs with Ed25519/],
      [join(work, 'encrypted.pem'), /encrypted\.pem: is an encrypted key/],
    ];
    const out = join(work, 'refused');
    for (const [ref, message] of cases) {
      const r = await cli(['run', '--depth', 'smoke', '--sign', ref, '--out', out]);
      expect(r.code, ref).toBe(2);
      expect(r.stderr, ref).toMatch(message);
      expect(r.stdout, ref).toBe(''); // not even the run's first line: nothing started
      for (const line of pemBody(rsa)) expect(r.stderr).not.toContain(line);
    }
    expect(existsSync(out)).toBe(false);
  });
});

describe('verify --key', () => {
  it('without --key, names the attestation lying beside the bundle as not checked', async () => {
    const r = await cli(['verify', join(latest, 'bundle.tgz')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`attestation: ${join(latest, 'bundle.intoto.jsonl')} lies beside the bundle and was NOT checked; its signature holds only if verify --key PUB.pem says so`);
  });

  it("accepts the signed bundle and prints what the signature covers", async () => {
    const r = await cli(['verify', join(latest, 'bundle.tgz'), '--key', join(work, 'signing.pub')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const results = JSON.parse(await readFile(join(latest, 'results.json'), 'utf8'));
    expect(r.stdout).toMatch(/: valid \(5 files/);
    expect(r.stdout).toContain(`signature: valid (${join(latest, 'bundle.intoto.jsonl')}: signed by key SHA256:`);
    expect(r.stdout).toContain(`https://outreach-conformance.dev/attestation/run/v2: kit ${results.kit.version}, depth smoke, ${results.verdict.toUpperCase()} for ${results.clauseSummary.covered} of ${results.clauseSummary.total} clauses checked, Core ${results.summary.core.verdict.toUpperCase()}, Extended ${results.summary.extended.verdict.toUpperCase()})`);
  });

  it('fails when one byte of the bundle changes (exit 1)', async () => {
    const dir = await copyOfSigned();
    const bytes = await readFile(join(dir, 'bundle.tgz'));
    const at = Math.floor(bytes.length / 2);
    bytes[at] = bytes[at]! ^ 0x01;
    await writeFile(join(dir, 'bundle.tgz'), bytes);
    const r = await cli(['verify', join(dir, 'bundle.tgz'), '--key', join(work, 'signing.pub')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the SIGNATURE does not hold: .*bundle\.intoto\.jsonl: it was signed for another bundle \(subject sha256 [0-9a-f]{64}; this bundle's is [0-9a-f]{64}\)/);
  });

  it('fails when one byte of the attestation changes (exit 1)', async () => {
    const dir = await copyOfSigned();
    const text = await readFile(join(dir, 'bundle.intoto.jsonl'), 'utf8');
    const at = text.indexOf('"payload":"') + 11 + 200; // a character inside the signed statement
    const forged = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    await writeFile(join(dir, 'bundle.intoto.jsonl'), forged);
    const r = await cli(['verify', join(dir, 'bundle.tgz'), '--key', join(work, 'signing.pub')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the SIGNATURE does not hold: .*: no signature in it verifies with the given key/);
  });

  it('fails with another key, and for a repacked bundle that its manifest still accepts (exit 1)', async () => {
    openssl('genpkey', '-algorithm', 'ed25519', '-out', 'other.pem');
    openssl('pkey', '-in', 'other.pem', '-pubout', '-out', 'other.pub');
    const other = await cli(['verify', join(latest, 'bundle.tgz'), '--key', join(work, 'other.pub')]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/no signature in it verifies with the given key \(SHA256:\S+\); it names key SHA256:/);
    const dir = await copyOfSigned();
    await mkdir(join(dir, 'x'));
    execFileSync('tar', ['xzf', 'bundle.tgz', '-C', 'x'], { cwd: dir });
    execFileSync('tar', ['-czf', 'repacked.tgz', '-C', 'x', '.'], { cwd: dir });
    expect((await cli(['verify', join(dir, 'repacked.tgz')])).code).toBe(0);
    const signed = await cli(['verify', join(dir, 'repacked.tgz'), '--key', join(work, 'signing.pub'), '--attestation', join(dir, 'bundle.intoto.jsonl')]);
    expect(signed.code).toBe(1);
    expect(signed.stderr).toMatch(/signed for another bundle/);
  });

  it('refuses a private key, and says where the attestation is expected when it is missing (exit 2)', async () => {
    const priv = await cli(['verify', join(latest, 'bundle.tgz'), '--key', join(work, 'signing.pem')]);
    expect(priv.code).toBe(2);
    expect(priv.stderr).toMatch(/--key .*signing\.pem: is a private key; verify takes the public key/);
    for (const line of pemBody(keyPem)) expect(priv.stderr + priv.stdout).not.toContain(line);
    const dir = await mkdtemp(join(work, 'alone-'));
    await copyFile(join(latest, 'bundle.tgz'), join(dir, 'bundle.tgz'));
    const alone = await cli(['verify', join(dir, 'bundle.tgz'), '--key', join(work, 'signing.pub')]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/bundle\.intoto\.jsonl is unreadable: no such file\nverify: --key checks the attestation "run --sign" writes beside the bundle; give its path with --attestation FILE/);
  });
});
