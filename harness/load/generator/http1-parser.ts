// Reads one HTTP/1.1 response at a time off a byte stream (RFC 9112): the status line and header
// block, then the body framed by Content-Length, chunked Transfer-Encoding, or the connection's
// close. Bytes may arrive split anywhere. The load generator's transport keeps one parser per
// connection; it is written for the common case (a whole small response in one read) to cost
// one indexOf, one header scan and one string decode.

const CRLF = Buffer.from('\r\n');
const CRLFCRLF = Buffer.from('\r\n\r\n');
/** The longest status line and header block accepted (Node's own default limit). */
export const MAX_HEAD_BYTES = 16 * 1024;
const MAX_LINE_BYTES = 4 * 1024;

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailer' | 'close' | 'done';

export class ResponseParser {
  status = 0;
  /** the header block as received (latin1), status line excluded */
  head = '';
  /** whether the connection may carry another request after this response */
  keepAlive = true;
  /** the server's Keep-Alive timeout hint, ms (undefined without one) */
  keepAliveMs: number | undefined;
  /** bytes received after the response ended (none is expected: requests are not pipelined) */
  extra = 0;
  /** whether any byte of the response has arrived */
  started = false;
  private state: State = 'head';
  private noBody = false;
  private remaining = 0;
  private carry: Buffer | undefined;
  private body: Buffer[] = [];
  /** body parts before this index are the parser's own copies */
  private owned = 0;

  /** Ready for the next response; `noBody` for a HEAD request's answer. */
  reset(noBody: boolean): void {
    this.status = 0;
    this.head = '';
    this.keepAlive = true;
    this.keepAliveMs = undefined;
    this.extra = 0;
    this.started = false;
    this.state = 'head';
    this.noBody = noBody;
    this.carry = undefined;
    this.body = [];
    this.owned = 0;
  }

  get done(): boolean {
    return this.state === 'done';
  }

  /** The body decoded as UTF-8 (once done). */
  text(): string {
    const b = this.body;
    return b.length === 0 ? '' : b.length === 1 ? b[0]!.toString('utf8') : Buffer.concat(b).toString('utf8');
  }

  /**
   * Takes the next bytes; true once the response is complete. Throws ProtocolError on a malformed
   * response. A `transient` chunk is overwritten after the call (a socket's shared read buffer):
   * what the parser keeps of it past an incomplete response is copied, and a complete one must be
   * read (text()) before the next read.
   */
  feed(chunk: Buffer, transient = false): boolean {
    const done = this.take(chunk);
    if (transient && !done) this.own();
    return done;
  }

  private own(): void {
    for (let i = this.owned; i < this.body.length; i++) this.body[i] = Buffer.from(this.body[i]!);
    this.owned = this.body.length;
    if (this.carry) this.carry = Buffer.from(this.carry);
  }

  private take(chunk: Buffer): boolean {
    this.started = true;
    let buf = chunk;
    if (this.carry) {
      buf = Buffer.concat([this.carry, chunk]);
      this.carry = undefined;
    }
    let pos = 0;
    while (pos < buf.length) {
      if (this.state === 'done') {
        this.extra += buf.length - pos;
        return true;
      }
      pos = this.steps[this.state](buf, pos);
    }
    return this.state === 'done';
  }

  /** The connection ended: completes a body read to the close, false otherwise (the answer was cut short). */
  end(): boolean {
    if (this.state === 'close') this.state = 'done';
    return this.state === 'done';
  }

  /** What each state reads from `pos` on; returns where it stopped. */
  private readonly steps: Record<Exclude<State, 'done'>, (buf: Buffer, pos: number) => number> = {
    head: (buf, pos) => this.readHead(buf, pos),
    length: (buf, pos) => this.readBody(buf, pos, 'done'),
    'chunk-size': (buf, pos) => this.readChunkSize(buf, pos),
    'chunk-data': (buf, pos) => this.readBody(buf, pos, 'chunk-end'),
    'chunk-end': (buf, pos) => this.readChunkEnd(buf, pos),
    trailer: (buf, pos) => this.readTrailer(buf, pos),
    close: (buf, pos) => {
      this.body.push(pos === 0 ? buf : buf.subarray(pos));
      return buf.length;
    },
  };

  /** Up to `remaining` body bytes; `then` once they are all in. */
  private readBody(buf: Buffer, pos: number, then: State): number {
    const take = Math.min(this.remaining, buf.length - pos);
    this.body.push(buf.subarray(pos, pos + take));
    if ((this.remaining -= take) === 0) this.state = then;
    return pos + take;
  }

  /** Keeps an incomplete line for the next read (bounded). */
  private keep(buf: Buffer, pos: number, limit: number, what: string): number {
    if (buf.length - pos > limit) throw new ProtocolError(`${what} longer than ${limit} bytes`);
    this.carry = buf.subarray(pos);
    return buf.length;
  }

  private readHead(buf: Buffer, pos: number): number {
    const end = buf.indexOf(CRLFCRLF, pos);
    if (end < 0) return this.keep(buf, pos, MAX_HEAD_BYTES, 'response head');
    if (end - pos > MAX_HEAD_BYTES) throw new ProtocolError(`response head longer than ${MAX_HEAD_BYTES} bytes`);
    const block = buf.toString('latin1', pos, end);
    const lineEnd = block.indexOf('\r\n');
    const statusLine = lineEnd < 0 ? block : block.slice(0, lineEnd);
    const m = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: |$)/.exec(statusLine);
    if (!m) throw new ProtocolError(`not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 80))}`);
    const status = Number(m[2]);
    const next = end + 4;
    // 1xx answers come before the real one and carry no body (101 would switch protocols: not asked for).
    if (status < 200) {
      if (status === 101) throw new ProtocolError('101 Switching Protocols was not asked for');
      return next;
    }
    this.status = status;
    this.head = lineEnd < 0 ? '' : block.slice(lineEnd + 2);
    this.frame(m[1] === '1');
    return next;
  }

  /** Decides how the body is delimited from the framing headers (RFC 9112 section 6.3). */
  private frame(http11: boolean): void {
    let length: string | undefined;
    let encoding: string | undefined;
    let connection = '';
    for (const line of this.head.split('\r\n')) {
      if (line[0] === ' ' || line[0] === '\t') continue; // obs-fold: a continuation, never a framing header
      const colon = line.indexOf(':');
      if (colon <= 0) {
        if (line === '') continue;
        // Not quoted: a server echoing the request would put its Authorization line here.
        throw new ProtocolError('malformed header line (no name and colon)');
      }
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (length !== undefined && length !== value) throw new ProtocolError('two different Content-Length headers');
        length = value;
      } else if (name === 'transfer-encoding') encoding = encoding === undefined ? value : `${encoding}, ${value}`;
      else if (name === 'connection') connection += `,${value.toLowerCase()}`;
      else if (name === 'keep-alive') {
        const t = /(?:^|[,;\s])timeout=(\d+)/i.exec(value);
        if (t) this.keepAliveMs = Number(t[1]) * 1000;
      }
    }
    this.keepAlive = http11 ? !/(?:^|,)\s*close\s*(?:,|$)/.test(connection) : /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(connection);
    if (this.noBody || this.status === 204 || this.status === 304) {
      this.state = 'done';
      return;
    }
    if (encoding !== undefined) {
      if (!/(?:^|,)\s*chunked\s*$/i.test(encoding)) {
        // Not ending in chunked: the body runs to the close (RFC 9112 6.3, item 4).
        this.keepAlive = false;
        this.state = 'close';
      } else this.state = 'chunk-size';
      return;
    }
    if (length !== undefined) {
      if (!/^\d{1,15}$/.test(length)) throw new ProtocolError(`bad Content-Length: ${JSON.stringify(length.slice(0, 40))}`);
      this.remaining = Number(length);
      this.state = this.remaining === 0 ? 'done' : 'length';
      return;
    }
    this.keepAlive = false;
    this.state = 'close';
  }

  private readChunkSize(buf: Buffer, pos: number): number {
    const eol = buf.indexOf(CRLF, pos);
    if (eol < 0) return this.keep(buf, pos, MAX_LINE_BYTES, 'chunk size line');
    const line = buf.toString('latin1', pos, eol);
    const semi = line.indexOf(';');
    const hex = (semi < 0 ? line : line.slice(0, semi)).trim();
    if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw new ProtocolError(`bad chunk size: ${JSON.stringify(line.slice(0, 40))}`);
    this.remaining = parseInt(hex, 16);
    this.state = this.remaining === 0 ? 'trailer' : 'chunk-data';
    return eol + 2;
  }

  private readChunkEnd(buf: Buffer, pos: number): number {
    if (buf.length - pos < 2) return this.keep(buf, pos, 2, 'chunk end');
    if (buf[pos] !== 13 || buf[pos + 1] !== 10) throw new ProtocolError('chunk data not followed by CRLF');
    this.state = 'chunk-size';
    return pos + 2;
  }

  /** Trailer fields after the last chunk, up to the empty line (ignored: nothing here reads them). */
  private readTrailer(buf: Buffer, pos: number): number {
    const eol = buf.indexOf(CRLF, pos);
    if (eol < 0) return this.keep(buf, pos, MAX_HEAD_BYTES, 'trailer line');
    if (eol === pos) this.state = 'done';
    return eol + 2;
  }
}

/** A header block (lines after the status line) as a record: names lower-cased, repeats joined with ", ". */
export function headerRecord(head: string): Record<string, string> {
  const out: Record<string, string> = {};
  let last = '';
  for (const line of head.split('\r\n')) {
    if ((line[0] === ' ' || line[0] === '\t') && last) {
      out[last] += ` ${line.trim()}`; // obs-fold: the previous value goes on
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = (last = line.slice(0, colon).trim().toLowerCase());
    const value = line.slice(colon + 1).trim();
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
  }
  return out;
}
