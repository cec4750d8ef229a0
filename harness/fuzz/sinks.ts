// Fuzz targets of the mail sinks: the SMTP side (plain port with STARTTLS, implicit-TLS port),
// the IMAPS proxy in front of Dovecot, and the sink's HTTP API (its routes read from its own
// route table). Each keeps what it acknowledged: a message taken with 250 during a fuzzed session
// is in the store right after, and a probe's message is found over SMTP, HTTP or IMAPS.
import fc from 'fast-check';
import nodemailer from 'nodemailer';
import { ImapFlow } from 'imapflow';
import { startSinks } from '../sinks/index.ts';
import { routes } from '../sinks/http.ts';
import type { SinkInternals } from '../sinks/sink-types.ts';
import { RawSmtp } from '../sinks/test-smtp-client.ts';
import { Finding, type FuzzTarget } from './core.ts';
import { httpInput, KNOWN_ID, playHttp, type HttpInput } from './http.ts';
import { exchange, type Ending } from './wire.ts';

const SMTP_COMMANDS = ['EHLO x', 'HELO y', 'MAIL FROM:<a@b.test>', 'MAIL FROM:<>', 'RCPT TO:<c@d.test>', 'RCPT TO:<broken', 'DATA', 'RSET', 'NOOP', 'QUIT', 'VRFY x', 'AUTH PLAIN', 'AUTH PLAIN AGJhZA==', 'AUTH LOGIN', 'STARTTLS', 'BDAT 10', '.', 'GET / HTTP/1.1', '\0\0\0', 'MAIL FROM:<a@b.test> SIZE=99999999999', 'RCPT TO:<"\\"@x>'];

/** One chunk of a hostile SMTP session: random bytes, commands, half lines, lines over the 16 KiB limit, the end of DATA. */
export const smtpChunk = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 2048 }).map((a) => Buffer.from(a)),
  fc.constantFrom(...SMTP_COMMANDS).map((c) => Buffer.from(c + '\r\n')),
  fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)), // half lines (no CRLF)
  fc.integer({ min: 17 * 1024, max: 80 * 1024 }).map((n) => Buffer.alloc(n, 0x41)),
  fc.constant(Buffer.from('\r\n.\r\n')),
);

export interface SmtpSession {
  /** plain port (cleartext + STARTTLS) or the implicit-TLS port */
  port: 'plain' | 'tls';
  /** wait for the 220 greeting first (otherwise an early talker) */
  greet: boolean;
  /** a complete, valid transaction first: its message must be recorded */
  withMail: boolean;
  chunks: Buffer[];
  ending: Ending;
}

const smtpSession: fc.Arbitrary<SmtpSession> = fc.record({
  port: fc.constantFrom<'plain' | 'tls'>('plain', 'plain', 'plain', 'tls'),
  greet: fc.constantFrom(true, true, true, false),
  withMail: fc.boolean(),
  chunks: fc.array(smtpChunk, { minLength: 1, maxLength: 25 }),
  ending: fc.constantFrom<Ending>('destroy', 'end', 'wait'),
});

async function expectCode(c: RawSmtp, line: string | null, code: number): Promise<void> {
  const r = line === null ? await c.next() : await c.cmd(line);
  if (r?.code !== code) throw new Finding(`${line ?? 'greeting'}: expected ${code}, got ${r ? `${r.code} ${r.text}` : 'a closed connection'}`);
}

let marks = 0;
async function smtpExec(sink: SinkInternals, s: SmtpSession): Promise<string> {
  if (s.port === 'tls') {
    const r = await exchange({ port: sink.smtp.securePort!, tls: true, parts: s.chunks.map((bytes) => ({ bytes })), ending: s.ending, timeoutMs: 150 });
    if (r.refused) throw new Finding('the implicit-TLS port refused a connection');
    return 'tls';
  }
  const c = await RawSmtp.connect(sink.smtp.port);
  try {
    const marker = `fuzz-${process.pid}-${++marks}`;
    if (s.greet) await expectCode(c, null, 220);
    if (s.greet && s.withMail) {
      await expectCode(c, 'EHLO fuzz.test', 250);
      await expectCode(c, 'MAIL FROM:<fuzz@load.test>', 250);
      await expectCode(c, 'RCPT TO:<lead@prospect.test>', 250);
      await expectCode(c, 'DATA', 354);
      await expectCode(c, `Subject: ${marker}\r\n\r\nbody\r\n.`, 250);
    }
    for (const ch of s.chunks) c.write(ch); // all at once: pipelining abuse
    if (s.ending === 'destroy') c.close();
    else if (s.ending === 'end') c.socket.end();
    await Promise.race([c.closedPromise, new Promise((r) => setTimeout(r, 120))]);
    if (s.greet && s.withMail && sink.messages({ subject: marker }).length !== 1) throw new Finding(`a message acknowledged with 250 is not recorded (${marker})`);
    return s.greet ? (s.withMail ? 'mail+garbage' : 'garbage') : 'early-talker';
  } finally {
    c.close();
  }
}

/** A message sent the ordinary way (nodemailer) and found in the store. */
async function sendProbe(sink: SinkInternals, subject: string, to = 'lead@prospect.test', auth?: { user: string; pass: string }): Promise<void> {
  const t = nodemailer.createTransport({ host: '127.0.0.1', port: sink.smtp.port, secure: false, auth, tls: { rejectUnauthorized: false }, logger: false });
  try {
    await t.sendMail({ from: 'probe@load.test', to, subject, text: 'probe' });
  } catch (e) {
    throw new Finding(`a valid message was refused: ${(e as Error).message}`);
  } finally {
    t.close();
  }
  if (sink.messages({ subject }).length !== 1) throw new Finding(`a valid message is not recorded (${subject})`);
}

export interface SinkFuzz<I> {
  target: FuzzTarget<I>;
  stop(): Promise<void>;
}

/** At most this many messages (and twice as many attempts) are kept: the store's own bound caps memory. */
const STORE_BOUND = 1000;
const heapBound = { mb: 64, why: `the store keeps at most ${STORE_BOUND} messages and ${2 * STORE_BOUND} attempts with their DATA bytes (32 KiB size limit)` };

export async function smtpTarget(): Promise<SinkFuzz<SmtpSession>> {
  const sink = await startSinks({ imap: false, smtpSizeLimit: 32 * 1024, maxStoredMessages: STORE_BOUND });
  return {
    target: { server: 'sink-smtp', arbitrary: smtpSession, exec: (s) => smtpExec(sink, s), probe: (tag) => sendProbe(sink, tag), heapBound },
    stop: () => sink.stop(),
  };
}

/** The HTTP API's routes, read from its route table (`([^/]+)` becomes `{id}`). */
function sinkRoutes(sink: SinkInternals): { method: string; path: string }[] {
  return routes(sink).map(([method, re]) => ({ method, path: re.source.replace(/^\^|\$$/g, '').replace(/\([^)]*\)/g, '{id}').replace(/\\\//g, '/') }));
}

const SINK_FIELDS = ['original', 'timeoutMs', 'filter', 'kind', 'stage', 'action', 'code', 'enhancedCode', 'text', 'user', 'sender', 'recipient', 'stallMs', 'times', 'address', 'password', 'refusal', 'IDs', 'subject', 'to', 'from', 'since', 'injected', 'outcome', 'via', 'body', 'messageId'];

export async function sinkHttpTarget(): Promise<SinkFuzz<HttpInput>> {
  const sink = await startSinks({ imap: false, http: true, smtpsPort: null, maxStoredMessages: STORE_BOUND });
  const port = Number(new URL(sink.http!.url).port);
  const base = sink.http!.url;
  const probe = async (tag: string) => {
    // Fault rules and resets are the API's own business: a probe starts from no rules.
    await fetch(`${base}/sink/v1/faults`, { method: 'DELETE' });
    await sendProbe(sink, tag);
    const listed = (await (await fetch(`${base}/sink/v1/messages?subject=${encodeURIComponent(tag)}`)).json()) as { messages: { id: string }[] };
    if (listed.messages?.length !== 1) throw new Finding(`GET /sink/v1/messages does not list the probe message ${tag}`);
    const one = await fetch(`${base}/api/v1/message/${listed.messages[0]!.id}`);
    if (one.status !== 200) throw new Finding(`GET /api/v1/message/{id} answered ${one.status} for a recorded message`);
    const address = `${tag}@probe.test`.toLowerCase();
    const added = await fetch(`${base}/sink/v1/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address }) });
    const users = (await (await fetch(`${base}/sink/v1/users`)).json()) as { users: { address: string }[] };
    if (added.status !== 201 || !users.users.some((u) => u.address === address)) throw new Finding(`a user added through the API is not listed (POST answered ${added.status})`);
  };
  return {
    target: {
      server: 'sink-http',
      arbitrary: httpInput({ routes: sinkRoutes(sink), fields: SINK_FIELDS, hugeBytes: 16 * 1024 * 1024 + 1 }),
      exec: (input) =>
        playHttp(input, {
          port: () => port,
          fill: (s) => s.split(KNOWN_ID).join(sink.store.latest()?.id ?? 'latest'),
          judge: () => null,
          // POST /sink/v1/wait is a long poll (up to its timeoutMs): no answer yet is its normal state.
          mayHang: (i) => /\/wait/i.test(i.path),
          timeoutMs: 5000,
        }),
      probe,
      heapBound,
    },
    stop: () => sink.stop(),
  };
}

export interface ImapsInput {
  /** a TLS handshake first, or raw bytes at the TLS port */
  tls: boolean;
  chunks: Buffer[];
  ending: Ending;
}

const IMAP_LINES = ['a1 CAPABILITY', 'a2 LOGIN x y', 'a3 LOGIN "a" {5}', 'a4 SELECT INBOX', 'a5 FETCH 1:* (BODY[])', 'a6 IDLE', 'DONE', 'a7 LOGOUT', 'a8 AUTHENTICATE PLAIN', '* BAD', 'a9 APPEND INBOX {999999}'];
const imapsInput: fc.Arbitrary<ImapsInput> = fc.record({
  tls: fc.constantFrom(true, true, true, false),
  chunks: fc.array(
    fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 2048 }).map((a) => Buffer.from(a)), fc.constantFrom(...IMAP_LINES).map((l) => Buffer.from(`${l}\r\n`)), fc.integer({ min: 17 * 1024, max: 70 * 1024 }).map((n) => Buffer.alloc(n, 0x42))),
    { minLength: 1, maxLength: 12 },
  ),
  ending: fc.constantFrom<Ending>('destroy', 'end', 'wait'),
});

/** The IMAPS proxy (Dovecot behind it); null with the reason when Dovecot is missing. */
export async function imapsTarget(): Promise<SinkFuzz<ImapsInput> | { unavailable: string }> {
  const sink = await startSinks({ smtpsPort: null, maxStoredMessages: STORE_BOUND });
  if (!sink.imap) {
    await sink.stop();
    return { unavailable: sink.imapUnavailableReason ?? 'the IMAP sink is unavailable' };
  }
  const box = await sink.addUser('fuzz-box@outreach.test');
  const subjects: string[] = [];
  const probe = async (tag: string) => {
    await sendProbe(sink, tag, box.address);
    subjects.push(tag);
    const c = new ImapFlow({ host: sink.imap!.host, port: sink.imap!.securePort, secure: true, tls: { rejectUnauthorized: false }, auth: { user: box.address, pass: box.password }, logger: false, emitLogs: false });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.mailboxOpen('INBOX');
      const seen = new Set<string>();
      for await (const m of c.fetch('1:*', { envelope: true })) if (m.envelope?.subject) seen.add(m.envelope.subject);
      const lost = subjects.filter((s) => !seen.has(s));
      if (lost.length) throw new Finding(`delivered messages not found over IMAPS: ${lost.join(', ')}`);
    } catch (e) {
      throw e instanceof Finding ? e : new Finding(`IMAPS login and fetch failed: ${(e as Error).message}`);
    } finally {
      await c.logout().catch(() => c.close());
    }
  };
  return {
    target: {
      server: 'sink-imaps-proxy',
      arbitrary: imapsInput,
      exec: async (i) => {
        const r = await exchange({ port: sink.imap!.securePort, tls: i.tls, parts: i.chunks.map((bytes) => ({ bytes })), ending: i.ending, timeoutMs: 150 });
        if (r.refused && i.tls) throw new Finding('no TLS session with the IMAPS port');
        return i.tls ? (r.data.length ? 'tls-answered' : 'tls-silent') : 'raw';
      },
      probe,
      heapBound: { mb: 32, why: 'the proxy holds only its open sockets' },
    },
    stop: () => sink.stop(),
  };
}
