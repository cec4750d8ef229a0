// The signed attestation's format, held to the standards other tools read: DSSE's PAE (the
// spec's own example), a plain Ed25519 signature that openssl verifies over that PAE, an in-toto
// Statement v1 whose subject is the bundle's sha256; and every change to it caught.
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeReports } from './index.ts';
import { makeInput } from './fixture.test-helper.ts';
import { BUNDLE_NAME, writeBundle } from './bundle.ts';
import { ATTESTATION_NAME, checkAttestation, pae, PAYLOAD_TYPE, PREDICATE_TYPE, runStatement, writeAttestation, type Envelope, type Statement } from './attestation.ts';
import { buildResults } from './results.ts';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
let dir: string;
let sha256: string;
let text: string;
let envelope: Envelope;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oc-attest-'));
  await writeReports(dir, makeInput({ withRunEnd: true }));
  const bundle = await writeBundle(dir);
  sha256 = bundle.sha256;
  const { path } = await writeAttestation(dir, bundle.results, { name: BUNDLE_NAME, sha256 }, privateKey);
  expect(path).toBe(join(dir, ATTESTATION_NAME));
  text = await readFile(path, 'utf8');
  envelope = JSON.parse(text);
});

const statementOf = (e: Envelope) => JSON.parse(Buffer.from(e.payload, 'base64').toString('utf8')) as Statement;

describe('the run attestation', () => {
  it("encodes PAE as the DSSE spec's example does", () => {
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
  });

  it('is one line: a DSSE envelope holding an in-toto Statement v1 about the bundle and the run', async () => {
    expect(text.endsWith('\n') && !text.slice(0, -1).includes('\n')).toBe(true);
    expect(Object.keys(envelope).sort()).toEqual(['payload', 'payloadType', 'signatures']);
    expect(envelope.payloadType).toBe(PAYLOAD_TYPE);
    expect(envelope.signatures).toEqual([{ keyid: expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/), sig: expect.any(String) }]);
    const st = statementOf(envelope);
    expect(Object.keys(st)).toEqual(['_type', 'subject', 'predicateType', 'predicate']);
    expect(st._type).toBe('https://in-toto.io/Statement/v1');
    expect(st.subject).toEqual([{ name: 'bundle.tgz', digest: { sha256: createHash('sha256').update(await readFile(join(dir, BUNDLE_NAME))).digest('hex') } }]);
    expect(st.predicateType).toBe(PREDICATE_TYPE);
    const results = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'));
    expect(st.predicate).toMatchObject({ kit: results.kit, spec: { version: results.spec.version, sha256: results.spec.sha256 }, target: results.target, depth: results.depth, verdict: results.verdict });
    expect(st.predicate.core).toEqual(results.summary.core);
    // What the verdict speaks for: the clauses checked, and the run's own detection figure (never a bare pass).
    expect(st.predicate.clauses).toEqual({
      total: results.clauseSummary.total,
      checked: results.clauseSummary.covered,
      failed: results.clauseSummary.fail,
      skipped: results.clauseSummary.skip,
      errored: results.clauseSummary.error,
      notCovered: results.clauseSummary.notCovered,
      unobservable: results.clauseSummary.unobservable,
    });
    expect(st.predicate.core).toHaveProperty('unobservable');
    expect(st.predicate.detection).toBeNull(); // the fixture's run measured none
    expect(st.predicate.extended).toEqual(results.summary.extended);
  });

  it("carries the run's measured detection figure, never the plan's prediction", () => {
    const input = makeInput({ withRunEnd: true });
    for (const e of input.events) {
      if (e.type === 'run-start') e.detection = { killed: 99, total: 100, missed: [] };
      if (e.type === 'run-end') e.detection = { killed: 40, total: 100, basis: 'the 3 checks that ran to a verdict', missed: [] };
    }
    const st = runStatement(buildResults(input), { name: BUNDLE_NAME, sha256: 'f'.repeat(64) });
    expect(st.predicate.detection).toEqual({ killed: 40, total: 100, basis: 'the 3 checks that ran to a verdict' });
  });

  it('carries a plain Ed25519 signature over the PAE, which openssl verifies without the kit', async () => {
    const body = Buffer.from(envelope.payload, 'base64');
    await writeFile(join(dir, 'pae.bin'), pae(envelope.payloadType, body));
    await writeFile(join(dir, 'sig.bin'), Buffer.from(envelope.signatures[0]!.sig, 'base64'));
    await writeFile(join(dir, 'pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const openssl = (data: string) => execFileSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', 'pub.pem', '-rawin', '-in', data, '-sigfile', 'sig.bin'], { cwd: dir, encoding: 'utf8' });
    expect(openssl('pae.bin')).toMatch(/Signature Verified Successfully/);
    await writeFile(join(dir, 'body.bin'), body); // the body alone is not what is signed
    expect(() => openssl('body.bin')).toThrow();
  });

  it('verifies with the public key and the bundle it names, and fails on any one byte changed', () => {
    expect(checkAttestation(text, publicKey, sha256)).toMatchObject({ status: 'valid', statement: { predicateType: PREDICATE_TYPE } });
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(checkAttestation(text, other, sha256)).toMatchObject({ status: 'invalid', reason: expect.stringMatching(/no signature in it verifies with the given key \(SHA256:.*\); it names key SHA256:/) });
    expect(checkAttestation(text, publicKey, sha256.replace(/^./, (c) => (c === '0' ? '1' : '0')))).toMatchObject({ status: 'invalid', reason: expect.stringMatching(/signed for another bundle/) });
    // One byte of the signed statement: `"depth":"` is followed by another letter.
    const st = Buffer.from(envelope.payload, 'base64');
    const at = st.indexOf('"depth":"') + 9;
    st[at] = st[at]! ^ 0x01;
    const forged = JSON.stringify({ ...envelope, payload: st.toString('base64') });
    expect(checkAttestation(forged, publicKey, sha256)).toMatchObject({ status: 'invalid', reason: expect.stringMatching(/no signature in it verifies/) });
    const retyped = JSON.stringify({ ...envelope, payloadType: 'application/json' });
    expect(checkAttestation(retyped, publicKey, sha256)).toMatchObject({ status: 'invalid', reason: expect.stringMatching(/payloadType is "application\/json"/) });
    expect(checkAttestation('{"not":"an envelope"}', publicKey, sha256)).toMatchObject({ status: 'invalid', reason: expect.stringMatching(/not a DSSE envelope/) });
  });
});
