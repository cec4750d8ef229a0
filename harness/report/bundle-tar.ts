// A small ustar writer and reader (POSIX.1-1988) for the certification bundle: regular files
// with plain names only, gzip from node:zlib. Any `tar xzf` reads what this writes; the reader
// takes what this writes and refuses anything it does not understand, saying why.
import { gunzipSync, gzipSync } from 'node:zlib';

const BLOCK = 512;

export interface TarEntry {
  name: string;
  data: Buffer;
}

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

function octal(n: number, width: number): string {
  // width - 1 digits, then NUL (the field's last byte)
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100 || name.includes('/') || !name) throw new TarFormatError(`tar: "${name}" is not a plain file name of at most 100 bytes`);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii'); // mode
  h.write(octal(0, 8), 108, 'ascii'); // uid
  h.write(octal(0, 8), 116, 'ascii'); // gid
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii'); // checksum counts as spaces while summed
  h.write('0', 156, 'ascii'); // regular file
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(octal(checksum(h), 7) + ' ', 148, 'ascii');
  return h;
}

function checksum(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  return sum;
}

/** A .tar.gz of `entries`, in the order given. */
export function writeTarGz(entries: readonly TarEntry[], mtime = Date.now()): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e.name, e.data.length, mtime), e.data);
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // end of archive
  return gzipSync(Buffer.concat(parts));
}

function field(h: Buffer, at: number, len: number): string {
  const raw = h.subarray(at, at + len);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? len : nul).toString('utf8');
}

function number(h: Buffer, at: number, len: number, what: string, name: string): number {
  const s = field(h, at, len).trim();
  if (!/^[0-7]+$/.test(s)) throw new TarFormatError(`tar: entry "${name}" has no valid ${what}`);
  return parseInt(s, 8);
}

/** The entries of a .tar.gz this module wrote (or any ustar archive of regular files). */
export function readTarGz(gz: Buffer): TarEntry[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz);
  } catch (e) {
    throw new TarFormatError(`not a gzip file (${(e as Error).message})`);
  }
  const entries: TarEntry[] = [];
  let at = 0;
  for (;;) {
    if (at + BLOCK > tar.length) throw new TarFormatError('tar: the archive ends without its end-of-archive blocks (cut short?)');
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) return entries;
    const name = field(h, 0, 100);
    if (field(h, 257, 6) !== 'ustar') throw new TarFormatError(`tar: block ${at / BLOCK} is not a ustar header`);
    if (number(h, 148, 8, 'checksum', name) !== checksum(h)) throw new TarFormatError(`tar: the header of "${name}" has a wrong checksum`);
    const type = String.fromCharCode(h[156]!);
    if (type !== '0' && type !== '\0') throw new TarFormatError(`tar: "${name}" is not a regular file (type ${JSON.stringify(type)})`);
    const size = number(h, 124, 12, 'size', name);
    const start = at + BLOCK;
    if (start + size > tar.length) throw new TarFormatError(`tar: "${name}" is cut short (${size} bytes announced)`);
    const prefix = field(h, 345, 155);
    entries.push({ name: prefix ? `${prefix}/${name}` : name, data: Buffer.from(tar.subarray(start, start + size)) });
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
}
