// The certification bundle's tar.gz, through the maintained `tar` package: whatever a user's
// tar writes (GNU, pax, ustar; `./` prefixes and directory entries; one enclosing folder) reads
// back as the same members, so a bundle repacked untouched still verifies.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, Parser, type ReadEntry } from 'tar';

export interface TarEntry {
  name: string;
  data: Buffer;
  /** tar's entry type when the member is not a regular file ("SymbolicLink", "Link", ...). */
  special?: string;
}

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

/** A .tar.gz of `entries`, in the order given: plain names, mode 0644, no owner, one mtime. */
export async function packTarGz(entries: readonly TarEntry[], mtime: Date): Promise<Buffer> {
  const stage = await mkdtemp(join(tmpdir(), 'oc-bundle-stage-'));
  try {
    for (const e of entries) {
      if (!e.name || e.name.includes('/')) throw new TarFormatError(`tar: "${e.name}" is not a plain file name`);
      await writeFile(join(stage, e.name), e.data);
      await chmod(join(stage, e.name), 0o644); // whatever the umask
    }
    const chunks: Buffer[] = [];
    for await (const chunk of create({ gzip: true, cwd: stage, portable: true, mtime }, entries.map((e) => e.name))) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

const REGULAR = new Set(['File', 'OldFile', 'ContiguousFile']);

/** What a failure of the tar package means for the user, its own words kept after. */
function plainReason(e: Error & { code?: string }): string {
  const text = e.message.replace(/^TAR_[A-Z_]+: /, '');
  if (/Unrecognized archive format/.test(text)) return 'not a tar.gz (nor a tar) archive';
  if (e.code === 'Z_BUF_ERROR' || /Truncated input/.test(text)) return `the archive is cut short (${text})`;
  if (e.code?.startsWith('Z_')) return `the gzip data is damaged (${text})`;
  if (/checksum/.test(text)) return `a tar header is damaged or the file is not a tar archive (${text})`;
  return text;
}

/** Archive and compression formats a tar reader does not take, by their first bytes (their magic numbers). */
const FOREIGN: readonly [name: string, magic: number[]][] = [
  ['an xz-compressed file', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['a zip archive', [0x50, 0x4b, 0x03, 0x04]],
  ['an empty zip archive', [0x50, 0x4b, 0x05, 0x06]],
  ['a bzip2-compressed file', [0x42, 0x5a, 0x68]],
  ['a 7-Zip archive', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['an lzip-compressed file', [0x4c, 0x5a, 0x49, 0x50]],
  ['an lz4-compressed file', [0x04, 0x22, 0x4d, 0x18]],
  ['a RAR archive', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
  ['a compress (.Z) file', [0x1f, 0x9d]],
];

/** What `bytes` are when they are a format no tar reader takes (undefined: try them as a tar, gzipped or not). */
export function foreignFormat(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return 'an empty file';
  return FOREIGN.find(([, magic]) => magic.every((b, i) => bytes[i] === b))?.[0];
}

/** Every member of a .tar.gz (or .tar), directories left out, names as the bundle knows them. */
export async function readTarGz(bytes: Buffer): Promise<TarEntry[]> {
  const foreign = foreignFormat(bytes);
  if (foreign) throw new TarFormatError(`${foreign}, not a tar.gz: a certification bundle is the gzip-compressed tar the run wrote (bundle.tgz); repacked, it must be a tar.gz again`);
  const raw = await new Promise<TarEntry[]>((resolve, reject) => {
    const found: TarEntry[] = [];
    const parser = new Parser({ strict: true });
    parser.on('entry', (entry: ReadEntry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => {
        if (entry.type === 'Directory') return;
        const data = Buffer.concat(chunks);
        if (REGULAR.has(entry.type) && data.length !== entry.size) return reject(new TarFormatError(`tar: "${entry.path}" is cut short (${entry.size} bytes announced, ${data.length} there)`));
        found.push({ name: entry.path, data, ...(REGULAR.has(entry.type) ? {} : { special: entry.type }) });
      });
    });
    parser.on('error', (e: Error) => reject(new TarFormatError(plainReason(e))));
    parser.on('end', () => resolve(found));
    parser.end(bytes);
  });
  return withBundleNames(raw);
}

/** `./a` is `a`; when every member sits in one folder (`tar czf b.tgz bundle/`), the folder goes. */
function withBundleNames(entries: TarEntry[]): TarEntry[] {
  const named = entries.map((e) => ({ ...e, name: e.name.replace(/^(\.\/)+/, '') }));
  const folders = new Set(named.map((e) => (e.name.includes('/') ? e.name.slice(0, e.name.indexOf('/') + 1) : '')));
  const [folder] = folders;
  if (folders.size !== 1 || !folder) return named;
  return named.map((e) => ({ ...e, name: e.name.slice(folder.length) }));
}
