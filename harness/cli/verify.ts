// `outreach-conformance verify bundle.tgz`: exit 0 intact (prints the verdict it records),
// 1 tampered (names each file and what is wrong with it), 2 unreadable (says why).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { verifyBundle } from '../report/bundle.ts';

export const VERIFY_USAGE = 'usage: outreach-conformance verify BUNDLE.tgz   checks a certification bundle (reports/<run>/bundle.tgz)';

export interface VerifyIo {
  out?: (s: string) => void;
  err?: (s: string) => void;
}

export async function verifyCommand(argv: string[], io: VerifyIo = {}): Promise<number> {
  const out = io.out ?? ((s: string) => process.stdout.write(`${s}\n`));
  const err = io.err ?? ((s: string) => process.stderr.write(`${s}\n`));
  if (argv.length !== 1 || argv[0]!.startsWith('-')) {
    if (argv.length !== 1) err(`verify: expected one bundle file, got ${argv.length}`);
    else if (argv[0] !== '--help' && argv[0] !== '-h') err(`verify: unknown option "${argv[0]}"`);
    err(VERIFY_USAGE);
    return argv[0] === '--help' || argv[0] === '-h' ? 0 : 2;
  }
  const file = argv[0]!;
  let bytes: Buffer;
  try {
    bytes = await readFile(resolve(file));
  } catch (e) {
    err(`verify: ${file} is unreadable: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    return 2;
  }
  const r = await verifyBundle(bytes);
  if (r.status === 'unreadable') {
    err(`verify: ${file} is unreadable as a certification bundle: ${r.reason}`);
    return 2;
  }
  if (r.status === 'tampered') {
    err(`verify: ${file} has been TAMPERED WITH:`);
    for (const p of r.problems) err(`  ${p.file} ${p.problem}`);
    return 1;
  }
  out(`${file}: valid (${r.files.length} files, every sha256 matches MANIFEST.sha256)`);
  out(r.verdict);
  return 0;
}
