// `outreach-conformance verify BUNDLE.tgz [--key PUB.pem [--attestation FILE]]`: exit 0 intact
// (prints the verdict it records), 1 tampered (names each file and what is wrong with it) or,
// with --key, not signed by that key for these very bytes; 2 unreadable or a bad flag (says why).
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { createHash, type KeyObject } from 'node:crypto';
import { verifyBundle } from '../report/bundle.ts';
import { checkAttestation, PREDICATE_TYPE } from '../report/attestation.ts';
import { KitError } from '../ground/errors.ts';
import { helpText, parseArgs, type CommandHelp } from '../ground/args.ts';
import { verifyingKey } from '../conformance/keys.ts';

export const VERIFY_HELP: CommandHelp = {
  usage: ['outreach-conformance verify BUNDLE.tgz [--key PUB.pem [--attestation FILE]]'],
  summary: "checks a run's certification bundle (reports/<run>/bundle.tgz) and, with --key, its signed attestation",
  flags: {
    key: { type: 'string', value: 'PUB.pem', help: 'the public key the attestation must be signed with' },
    attestation: { type: 'string', value: 'FILE', help: 'the attestation (default: bundle.intoto.jsonl beside the bundle)' },
  },
  exit: 'exit codes: 0 intact (and signed by that key), 1 tampered or not signed by that key, 2 unreadable or a bad flag',
};

export interface VerifyIo {
  out?: (s: string) => void;
  err?: (s: string) => void;
}

interface VerifyArgs {
  file: string;
  key?: string;
  attestation?: string;
}

/** One bundle file and the optional --key / --attestation (as `--key X` or `--key=X`). */
function verifyArgs(argv: string[]): VerifyArgs {
  const { _: files = [], ...flags } = parseArgs(argv, VERIFY_HELP.flags, { positionals: true }) as { _?: string[]; key?: string; attestation?: string };
  if (files.length !== 1) throw new KitError(`verify: expected one bundle file, got ${files.length}`);
  if (flags.attestation !== undefined && flags.key === undefined) throw new KitError('verify: --attestation is checked against a public key: give --key PUB.pem too');
  return { file: files[0]!, ...flags };
}

/** Where `run --sign` puts the attestation of `bundle`: beside it, `bundle.tgz` -> `bundle.intoto.jsonl` (ATTESTATION_NAME). */
function attestationBeside(bundle: string): string {
  return join(dirname(bundle), `${basename(bundle).replace(/\.(tgz|tar\.gz)$/, '')}.intoto.jsonl`);
}

export async function verifyCommand(argv: string[], io: VerifyIo = {}): Promise<number> {
  const out = io.out ?? ((s: string) => process.stdout.write(`${s}\n`));
  const err = io.err ?? ((s: string) => process.stderr.write(`${s}\n`));
  if (argv.includes('--help') || argv.includes('-h')) return out(helpText(VERIFY_HELP)), 0;
  let args: VerifyArgs;
  let key: KeyObject | undefined;
  try {
    args = verifyArgs(argv);
  } catch (e) {
    if (!(e instanceof KitError)) throw e;
    return err(`verify: ${e.message}`), err(helpText(VERIFY_HELP)), 2;
  }
  try {
    key = args.key !== undefined ? await verifyingKey(args.key) : undefined;
  } catch (e) {
    if (!(e instanceof KitError)) throw e;
    return err(`verify: ${e.message}`), 2;
  }
  const { file } = args;
  const bytes = await readOrSay(file, err);
  if (!bytes) return 2;
  // The signature first: a bundle changed in any byte is not the one signed, whatever else holds.
  const signature = key ? await checkSignature(args.attestation ?? attestationBeside(file), key, bytes, err) : undefined;
  if (signature === 2) return 2;
  const r = await verifyBundle(bytes);
  if (r.status === 'unreadable') {
    err(`verify: ${file} is unreadable as a certification bundle: ${r.reason}`);
    return signature === 1 ? 1 : 2;
  }
  if (r.status === 'tampered') {
    err(`verify: ${file} has been TAMPERED WITH:`);
    for (const p of r.problems) err(`  ${p.file} ${p.problem}`);
    return 1;
  }
  if (signature === 1) return 1;
  out(`${file}: valid (${r.files.length} files, every sha256 matches MANIFEST.sha256)`);
  out(r.verdict);
  if (typeof signature === 'string') out(signature);
  else await sayUncheckedAttestation(file, out);
  return 0;
}

/** Without --key, an attestation lying beside the bundle is named, with how to check it: unchecked is not verified. */
async function sayUncheckedAttestation(file: string, out: (s: string) => void): Promise<void> {
  const beside = attestationBeside(file);
  const there = await stat(beside).then((s) => s.isFile(), () => false);
  if (there) out(`attestation: ${beside} lies beside the bundle and was NOT checked; its signature holds only if verify --key PUB.pem says so`);
}

async function readOrSay(file: string, err: (s: string) => void): Promise<Buffer | undefined> {
  try {
    return await readFile(resolve(file));
  } catch (e) {
    err(`verify: ${file} is unreadable: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    return undefined;
  }
}

/** The line to print when the attestation holds; 1 (said why) when it does not; 2 when it cannot be read. */
async function checkSignature(path: string, key: KeyObject, bundle: Buffer, err: (s: string) => void): Promise<string | 1 | 2> {
  const text = await readOrSay(path, err);
  if (!text) {
    err(`verify: --key checks the attestation "run --sign" writes beside the bundle; give its path with --attestation FILE`);
    return 2;
  }
  const sha256 = createHash('sha256').update(bundle).digest('hex');
  const r = checkAttestation(text.toString('utf8'), key, sha256);
  if (r.status === 'invalid') {
    err(`verify: the SIGNATURE does not hold: ${path}: ${r.reason}`);
    return 1;
  }
  const p = r.statement.predicate;
  return `signature: valid (${path}: signed by key ${r.keyid}, for this bundle's sha256 ${sha256}; ${PREDICATE_TYPE}: kit ${p.kit?.version}, depth ${p.depth}, ${String(p.verdict).toUpperCase()} for ${p.clauses?.checked} of ${p.clauses?.total} clauses checked, Core ${String(p.core?.verdict).toUpperCase()}, Extended ${String(p.extended?.verdict).toUpperCase()})`;
}
