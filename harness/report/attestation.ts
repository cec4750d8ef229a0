// A certificate a third party can check: what a run found, as an in-toto Statement v1 whose
// subject is the bundle's sha256, in a DSSE envelope signed with Ed25519. Standard formats, so
// `cosign verify-blob-attestation --key` (or any in-toto / DSSE tool) checks it without the kit.
// The manifest inside the bundle proves nothing about who produced it; this signature does.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Results, TierSummary } from './results.ts';

export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** The kit's own predicate: the run's verdicts (docs/CI.md describes its fields). */
export const PREDICATE_TYPE = 'https://outreach-conformance.dev/attestation/run/v2';
/** Beside `bundle.tgz`: one DSSE envelope on one line (the `.intoto.jsonl` convention). */
export const ATTESTATION_NAME = 'bundle.intoto.jsonl';

export interface RunPredicate {
  kit: { name: string; version: string };
  spec: { version: string; sha256: string };
  target: { name?: string; baseUrl: string; embedded: boolean };
  depth: string;
  runId: string;
  finishedAt: string | null;
  /** pass, fail, error or nothing-checked: read it with `clauses` and `depth`, which say what it speaks for. */
  verdict: string;
  /** The whole catalog by outcome: checked (passed or failed), failed, skipped, errored, not covered, not observable. */
  clauses: { total: number; checked: number; failed: number; skipped: number; errored: number; notCovered: number; unobservable: number };
  /** Per tier: its verdict and its MUST clauses by outcome (checked = `covered`, with `unobservable` apart). */
  core: TierSummary;
  extended: TierSummary;
  /** Measured by this run: the reference mutants its checks that ran to a verdict kill, read from the kit's kill matrix (`basis` says so). */
  detection: { killed: number; total: number; basis: string } | null;
}

export interface Statement {
  _type: string;
  subject: { name: string; digest: { sha256: string } }[];
  predicateType: string;
  predicate: RunPredicate;
}

export interface Envelope {
  payload: string;
  payloadType: string;
  signatures: { keyid: string; sig: string }[];
}

/** The statement a run's bundle is signed with; `results` is the bundle's own results.json. */
export function runStatement(r: Results, bundle: { name: string; sha256: string }): Statement {
  const d = r.detection;
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: bundle.name, digest: { sha256: bundle.sha256 } }],
    predicateType: PREDICATE_TYPE,
    predicate: {
      kit: { name: r.kit.name, version: r.kit.version },
      spec: { version: r.spec.version, sha256: r.spec.sha256 },
      target: r.target,
      depth: r.depth,
      runId: r.runId,
      finishedAt: r.finishedAt ?? null,
      verdict: r.verdict,
      clauses: clauseCounts(r),
      core: r.summary.core,
      extended: r.summary.extended,
      detection: d ? { killed: d.killed, total: d.total, basis: d.basis ?? 'the kill matrix over the checks that ran to a verdict' } : null,
    },
  };
}

function clauseCounts(r: Results): RunPredicate['clauses'] {
  const c = r.clauseSummary;
  return { total: c.total, checked: c.covered, failed: c.fail, skipped: c.skip, errored: c.error, notCovered: c.notCovered, unobservable: c.unobservable ?? 0 };
}

/** DSSE's pre-authentication encoding: what is signed, so the type cannot be swapped. */
export function pae(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${body.length} `), body]);
}

/** The key's id as ssh-keygen -l and go-securesystemslib print it: SHA256 of its SSH wire form. */
export function keyId(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const raw = Buffer.from(pub.export({ format: 'jwk' }).x!, 'base64url');
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const wire = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  return `SHA256:${createHash('sha256').update(wire).digest('base64').replace(/=+$/, '')}`;
}

export function signStatement(statement: Statement, privateKey: KeyObject): Envelope {
  const body = Buffer.from(JSON.stringify(statement));
  return {
    payload: body.toString('base64'),
    payloadType: PAYLOAD_TYPE,
    signatures: [{ keyid: keyId(privateKey), sig: sign(null, pae(PAYLOAD_TYPE, body), privateKey).toString('base64') }],
  };
}

/** Writes `<dir>/bundle.intoto.jsonl` for the bundle; returns its path and the signing key's id. */
export async function writeAttestation(dir: string, results: Results, bundle: { name: string; sha256: string }, privateKey: KeyObject): Promise<{ path: string; keyid: string }> {
  const path = join(dir, ATTESTATION_NAME);
  await writeFile(path, `${JSON.stringify(signStatement(runStatement(results, bundle), privateKey))}\n`);
  return { path, keyid: keyId(privateKey) };
}

export type AttestationCheck = { status: 'valid'; statement: Statement; keyid: string } | { status: 'invalid'; reason: string };

/** Checks an attestation file against a public key and the bundle's bytes' sha256. */
export function checkAttestation(text: string, publicKey: KeyObject, bundleSha256: string): AttestationCheck {
  const lines = text.split('\n').filter((l) => l.trim());
  if (!lines.length) return { status: 'invalid', reason: 'it is empty' };
  let first: AttestationCheck | undefined;
  for (const line of lines) {
    const r = checkEnvelope(line, publicKey, bundleSha256);
    if (r.status === 'valid') return r;
    first ??= r;
  }
  return first!;
}

function checkEnvelope(line: string, publicKey: KeyObject, bundleSha256: string): AttestationCheck {
  const invalid = (reason: string): AttestationCheck => ({ status: 'invalid', reason });
  let env: Envelope;
  try {
    env = JSON.parse(line) as Envelope;
  } catch {
    return invalid('it is not a JSON DSSE envelope');
  }
  if (!env || typeof env.payload !== 'string' || !Array.isArray(env.signatures)) return invalid('it is not a DSSE envelope (payload, payloadType, signatures)');
  if (env.payloadType !== PAYLOAD_TYPE) return invalid(`its payloadType is ${JSON.stringify(env.payloadType)}, not ${PAYLOAD_TYPE}`);
  const body = Buffer.from(env.payload, 'base64');
  const mine = keyId(publicKey);
  const signed = env.signatures.some((s) => typeof s?.sig === 'string' && verify(null, pae(env.payloadType, body), publicKey, Buffer.from(s.sig, 'base64')));
  if (!signed) {
    const ids = env.signatures.map((s) => s?.keyid).filter((k) => typeof k === 'string' && k && k !== mine);
    return invalid(`no signature in it verifies with the given key (${mine})${ids.length ? `; it names key ${ids.join(', ')}` : ': it was changed after signing, or signed with another key'}`);
  }
  let st: Statement;
  try {
    st = JSON.parse(body.toString('utf8')) as Statement;
  } catch {
    return invalid('its signed payload is not JSON');
  }
  if (st?._type !== STATEMENT_TYPE) return invalid(`its payload is not an in-toto Statement v1 (_type ${JSON.stringify(st?._type)})`);
  if (st.predicateType !== PREDICATE_TYPE) return invalid(`its predicateType is ${JSON.stringify(st.predicateType)}, not ${PREDICATE_TYPE}`);
  const digests = (Array.isArray(st.subject) ? st.subject : []).map((s) => s?.digest?.sha256);
  if (!digests.includes(bundleSha256)) return invalid(`it was signed for another bundle (subject sha256 ${digests.join(', ') || 'none'}; this bundle's is ${bundleSha256}): a bundle repacked or changed in any byte is not the one signed`);
  return { status: 'valid', statement: st, keyid: mine };
}
