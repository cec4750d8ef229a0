// Cheap header reading of raw RFC 5322 bytes: the header block only, unfolded, encoded words
// decoded. Used for filters and lists so that mailparser runs only when a full view is asked.

export type HeaderList = [name: string, value: string][];

/** Byte offset where the body starts (after the blank line), or the length when none. */
export function headerEnd(raw: Buffer): { end: number; bodyStart: number } {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { end: crlf, bodyStart: crlf + 4 };
  if (lf >= 0) return { end: lf, bodyStart: lf + 2 };
  return { end: raw.length, bodyStart: raw.length };
}

/** Header fields in order: [original name, unfolded value (encoded words decoded)]. */
export function readHeaders(raw: Buffer, limitBytes = 256 * 1024): HeaderList {
  const { end } = headerEnd(raw);
  const text = raw.subarray(0, Math.min(end, limitBytes)).toString('utf8');
  const out: HeaderList = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && out.length > 0) {
      const last = out[out.length - 1]!;
      last[1] += ' ' + line.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // not a header line (garbage is skipped, never thrown on)
    out.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  for (const h of out) h[1] = decodeEncodedWords(h[1]);
  return out;
}

/** The first value of a header (case-insensitive name), or null. */
export function headerValue(headers: HeaderList, name: string): string | null {
  const lower = name.toLowerCase();
  for (const [n, v] of headers) if (n.toLowerCase() === lower) return v;
  return null;
}

/** Strip one pair of angle brackets and spaces: "<a@b>" -> "a@b". */
export function bareId(id: string | null | undefined): string | null {
  if (!id) return null;
  const m = /<([^>]*)>/.exec(id);
  return (m ? m[1]! : id).trim() || null;
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

/** RFC 2047 encoded words (B and Q); unknown charsets fall back to UTF-8. */
export function decodeEncodedWords(value: string): string {
  if (!value.includes('=?')) return value;
  // whitespace between two adjacent encoded words is not part of the text
  const joined = value.replace(/(\?=)\s+(=\?)/g, '$1$2');
  return joined.replace(ENCODED_WORD, (_m, charset: string, enc: string, data: string) => {
    let bytes: Buffer;
    if (enc.toUpperCase() === 'B') bytes = Buffer.from(data, 'base64');
    else {
      const q = data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));
      bytes = Buffer.from(q, 'latin1');
    }
    try {
      return new TextDecoder(charset.split('*')[0]!.toLowerCase()).decode(bytes);
    } catch {
      return bytes.toString('utf8');
    }
  });
}
