import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerRecord, ProtocolError, ResponseParser } from './http1-parser.ts';

// The load generator's response reader: whatever way the bytes of a response are split across
// reads, it reads the same status, body and connection fate; malformed responses are refused.

type Framing = 'length' | 'chunked' | 'close';

interface Case {
  status: number;
  body: string;
  framing: Framing;
  /** sizes of the chunks a chunked body is cut into */
  cuts: number[];
  connectionClose: boolean;
  keepAliveSeconds: number | undefined;
  http10: boolean;
  continues: number;
}

function serialize(c: Case): Buffer {
  const body = Buffer.from(c.body, 'utf8');
  const lines = [`HTTP/1.${c.http10 ? 0 : 1} ${c.status} Whatever`, 'Content-Type: application/json', 'X-Twice: a', 'x-twice: b'];
  if (c.framing === 'length') lines.push(`Content-Length: ${body.length}`);
  if (c.framing === 'chunked') lines.push('Transfer-Encoding: chunked');
  if (c.connectionClose) lines.push('Connection: close');
  else if (c.http10) lines.push('Connection: keep-alive');
  if (c.keepAliveSeconds !== undefined) lines.push(`Keep-Alive: timeout=${c.keepAliveSeconds}, max=100`);
  const informational = '100 Continue\r\n\r\n'.repeat(c.continues).replace(/100/g, `HTTP/1.1 100`);
  let payload: Buffer = body;
  if (c.framing === 'chunked') {
    const parts: Buffer[] = [];
    let at = 0;
    for (const cut of c.cuts) {
      if (at >= body.length) break;
      const piece = body.subarray(at, at + cut);
      at += piece.length;
      parts.push(Buffer.from(`${piece.length.toString(16)}${cut % 3 === 0 ? ';ext=1' : ''}\r\n`), piece, Buffer.from('\r\n'));
    }
    if (at < body.length) parts.push(Buffer.from(`${(body.length - at).toString(16)}\r\n`), body.subarray(at), Buffer.from('\r\n'));
    parts.push(Buffer.from('0\r\nX-Trailer: t\r\n\r\n'));
    payload = Buffer.concat(parts);
  }
  return Buffer.concat([Buffer.from(informational + lines.join('\r\n') + '\r\n\r\n', 'latin1'), payload]);
}

/** Feeds `bytes` cut at `splits`, each read either kept or overwritten after the call (a shared read buffer). */
function parse(bytes: Buffer, splits: number[], transient: boolean, close: boolean): { parser: ResponseParser; done: boolean; text: string } {
  const parser = new ResponseParser();
  parser.reset(false);
  const points = [...new Set(splits.map((s) => s % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  let done = false;
  let text = '';
  const shared = Buffer.alloc(bytes.length);
  for (const to of [...points, bytes.length]) {
    if (to <= from) continue;
    const piece = transient ? shared.subarray(0, to - from) : Buffer.from(bytes.subarray(from, to));
    if (transient) bytes.copy(shared, 0, from, to);
    done = parser.feed(piece, transient);
    if (done) text = parser.text(); // read before the buffer is reused, as the contract says
    if (transient) shared.fill(0x23); // what a later read would leave in the buffer
    from = to;
    if (done) break;
  }
  if (!done && close && (done = parser.end())) text = parser.text();
  return { parser, done, text };
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  status: fc.constantFrom(200, 201, 400, 404, 422, 429, 500),
  body: fc.string({ unit: fc.constantFrom('a', '{', '"', 'é', '漢', '😀', '\r', '\n', '0'), maxLength: 300 }),
  framing: fc.constantFrom<Framing>('length', 'chunked', 'close'),
  cuts: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 8 }),
  connectionClose: fc.boolean(),
  keepAliveSeconds: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
  http10: fc.boolean(),
  continues: fc.integer({ min: 0, max: 2 }),
});

describe('ResponseParser', () => {
  it('reads the same response however its bytes are split, kept or overwritten after each read', () => {
    fc.assert(
      fc.property(caseArb, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (c, splits, transient) => {
        const { parser, done, text } = parse(serialize(c), splits, transient, true);
        expect(done).toBe(true);
        expect(parser.status).toBe(c.status);
        expect(text).toBe(c.body);
        expect(headerRecord(parser.head)['x-twice']).toBe('a, b');
        const keepAlive = c.framing !== 'close' && !c.connectionClose;
        expect(parser.keepAlive).toBe(keepAlive);
        expect(parser.keepAliveMs).toBe(c.keepAliveSeconds === undefined ? undefined : c.keepAliveSeconds * 1000);
        expect(parser.extra).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  it('needs the close to end a body with no length, and reports a body cut short as incomplete', () => {
    const c: Case = { status: 200, body: 'abc', framing: 'close', cuts: [], connectionClose: false, keepAliveSeconds: undefined, http10: false, continues: 0 };
    expect(parse(serialize(c), [], false, false).done).toBe(false);
    expect(parse(serialize(c), [], false, true).done).toBe(true);
    const cut = serialize({ ...c, framing: 'length' });
    expect(parse(cut.subarray(0, cut.length - 1), [], false, true).done).toBe(false);
    const chunked = serialize({ ...c, framing: 'chunked' });
    expect(parse(chunked.subarray(0, chunked.length - 3), [], false, true).done).toBe(false);
  });

  it('reads no body for a HEAD request, 204 and 304, whatever Content-Length says, and counts bytes after the end', () => {
    for (const [status, head] of [[200, true], [204, false], [304, false]] as const) {
      const p = new ResponseParser();
      p.reset(head);
      expect(p.feed(Buffer.from(`HTTP/1.1 ${status} X\r\nContent-Length: 10\r\n\r\n`))).toBe(true);
      expect(p.text()).toBe('');
    }
    const p = new ResponseParser();
    p.reset(false);
    expect(p.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1'))).toBe(true);
    expect(p.extra).toBe(8);
  });

  it('refuses what it cannot frame, naming the fault', () => {
    const refuse = (raw: string, fault: RegExp) => {
      const p = new ResponseParser();
      p.reset(false);
      expect(() => p.feed(Buffer.from(raw, 'latin1'))).toThrow(ProtocolError);
      p.reset(false);
      expect(() => p.feed(Buffer.from(raw, 'latin1'))).toThrow(fault);
    };
    refuse('SSH-2.0-OpenSSH\r\n\r\n', /status line/);
    refuse('HTTP/1.1 20 OK\r\n\r\n', /status line/);
    refuse('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', /two different Content-Length/);
    refuse('HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /Content-Length/);
    refuse('HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', /header line/);
    refuse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /chunk size/);
    refuse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n', /CRLF/);
    refuse('HTTP/1.1 101 Switching Protocols\r\n\r\n', /101/);
    refuse(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(20_000)}`, /longer than/);
  });

  it('reads a body that runs to the close when Transfer-Encoding does not end in chunked', () => {
    const { parser, done, text } = parse(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nraw'), [], false, true);
    expect([done, text, parser.keepAlive]).toEqual([true, 'raw', false]);
  });
});

describe('headerRecord', () => {
  it('lower-cases names, keeps values as sent, joins repeats in order, and unfolds folded lines', () => {
    const head = 'Content-Type: application/json\r\nSet-Cookie: a=1\r\nset-cookie:b=2\r\nX-Empty:\r\nX-Folded: one\r\n  two';
    expect(headerRecord(head)).toEqual({ 'content-type': 'application/json', 'set-cookie': 'a=1, b=2', 'x-empty': '', 'x-folded': 'one two' });
  });
});
