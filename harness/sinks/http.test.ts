// The HTTP API over the wire: the sink's own operations through SinkClient, the Mailpit read
// subset checked against Mailpit's published description, and the `mailpit-api` client
// (MailpitReader and the raw MailpitClient) reading the sink as if it were Mailpit.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { MailpitClient } from 'mailpit-api';
import { connectSink, MailpitReader, startSinks, type MailSink, type SinkClient, type SinkCredentials } from './index.ts';
import { responseSchema, validate, type SwaggerDoc } from './swagger-check.ts';

// Mailpit's own API description is not part of the kit: MAILPIT_SWAGGER names it, else a copy beside the project is used when there is one.
const SWAGGER = [
  process.env.MAILPIT_SWAGGER,
  fileURLToPath(new URL('../../../shared/reference-data/mailpit-api-v1.swagger.json', import.meta.url)),
  '/work/shared/reference-data/mailpit-api-v1.swagger.json',
].find((p): p is string => !!p && existsSync(p));
if (!SWAGGER) console.warn('http.test.ts: Mailpit shape check skipped: ../shared/reference-data/mailpit-api-v1.swagger.json not found (set MAILPIT_SWAGGER)');
const doc = (SWAGGER ? JSON.parse(readFileSync(SWAGGER, 'utf8')) : null) as SwaggerDoc;

let sink: MailSink;
let client: SinkClient;
let box: SinkCredentials;
let base: string;

async function send(subject: string, extra: Record<string, unknown> = {}) {
  const t = nodemailer.createTransport({ host: '127.0.0.1', port: sink.smtp.port, secure: false, auth: { user: box.address, pass: box.password }, tls: { rejectUnauthorized: false }, logger: false });
  return t.sendMail({ from: `Box <${box.address}>`, to: 'Lead <lead@prospect.test>', subject, text: `body of ${subject}`, ...extra });
}

async function getJson(path: string): Promise<{ status: number; body: unknown }> {
  const r = await fetch(base + path);
  return { status: r.status, body: await r.json() };
}

beforeAll(async () => {
  sink = await startSinks({ imap: false, http: true, smtpsPort: null });
  base = sink.http!.url;
  client = await connectSink(base);
  box = await client.addUser('api@outreach.test', 'api-secret');
});
afterAll(() => sink?.stop());

describe('sink HTTP API', () => {
  it('info, users, messages, raw, parsed and attempts', async () => {
    const info = await client.info();
    expect(info.smtp.port).toBe(sink.smtp.port);
    expect(client.capabilities).toMatchObject({ attempts: true, faults: true, imap: false, reason: expect.stringMatching(/disabled/) });
    expect(info.http).toEqual({ url: base });
    expect(box).toMatchObject({ address: 'api@outreach.test', password: 'api-secret', smtp: { port: sink.smtp.port, username: 'api@outreach.test', secure: false } });
    expect(await client.users()).toEqual([{ address: 'api@outreach.test', imapRefusal: null }]);
    await send('over http', { bcc: 'secret-bcc@prospect.test', attachments: [{ filename: 'a.txt', content: 'aaa' }] });
    const [m] = await client.messages({ subject: 'over http' });
    expect(m!.envelope.rcptTo.sort()).toEqual(['lead@prospect.test', 'secret-bcc@prospect.test']);
    expect((await client.raw(m!.id)).toString()).toContain('Subject: over http');
    const p = await client.parsed(m!.id);
    expect(p.attachments[0]).toMatchObject({ filename: 'a.txt', size: 3 });
    const attempts = await client.attempts({ kind: 'mail', outcome: 'accepted' });
    expect(attempts.at(-1)!.messageId).toBe(m!.id);
  });

  it('waits for a message with a timeout (408 when nothing comes)', async () => {
    const waiting = client.waitForMessage({ to: 'later@prospect.test' }, { timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 50));
    await send('later', { to: 'later@prospect.test' });
    expect((await waiting).subject).toBe('later');
    await expect(client.waitForMessage({ to: 'never@prospect.test' }, { timeout: 100 })).rejects.toMatchObject({ status: 408 });
    const a = await client.waitForAttempt({ kind: 'auth', user: box.address }, { timeout: 30_000 });
    expect(a.outcome).toBe('accepted');
  });

  it('adds, lists and clears fault rules; a bad rule is a 400 with the reason', async () => {
    const rule = await client.addFault({ stage: 'RCPT', recipient: 'x@prospect.test', action: 'reply', code: 550, enhancedCode: '5.1.1', text: 'No such user' });
    expect(await client.faults()).toMatchObject([{ id: rule.id, remaining: null }]);
    await expect(send('faulted', { to: 'x@prospect.test' })).rejects.toMatchObject({ response: '550 5.1.1 No such user' });
    await client.removeFault(rule.id);
    await expect(client.addFault({ stage: 'MAIL', action: 'reply' } as never)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/code: required/) });
    await client.clearFaults();
    expect(await client.faults()).toEqual([]);
  });

  it('injects a reply over HTTP and refuses what it cannot do', async () => {
    await send('needs reply', { messageId: '<http.reply@outreach.test>' });
    const r = await client.reply('<http.reply@outreach.test>', { body: 'sure' });
    expect(r).toMatchObject({ kind: 'reply', mailbox: 'api@outreach.test', via: 'smtp' });
    const [injected] = await client.messages({ inReplyTo: 'http.reply@outreach.test' });
    expect(injected!.injected).toBe(true);
    await expect(client.reply('nope')).rejects.toMatchObject({ status: 404 });
    await expect(client.outOfOffice('<http.reply@outreach.test>', { via: 'maildir' })).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/IMAP sink/) });
  });

  it('answers garbage with 4xx, never 5xx', async () => {
    const post = (path: string, body: string) => fetch(base + path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect((await post('/sink/v1/faults', '{not json')).status).toBe(400);
    expect((await post('/sink/v1/users', '[]')).status).toBe(400);
    expect((await post('/sink/v1/users', '{"address":"bad address"}')).status).toBe(400);
    expect((await fetch(`${base}/sink/v1/users/ghost@x.test/imap-refusal`, { method: 'PUT', body: '{"refusal":"disabled"}' })).status).toBe(404);
    expect((await post('/sink/v1/wait', '{"timeoutMs":-1}')).status).toBe(400);
    expect((await fetch(`${base}/sink/v1/messages?since=yesterday`)).status).toBe(400);
    expect((await fetch(`${base}/sink/v1/nothing`)).status).toBe(404);
    expect((await fetch(`${base}/sink/v1/reset`)).status).toBe(405);
    expect((await fetch(`${base}/api/v1/message/%E0%A4%A`)).status).toBe(404);
  });
});

describe('Mailpit-compatible read subset', () => {
  it.skipIf(!SWAGGER)('answers in the shapes of Mailpit’s OpenAPI description', async () => {
    await send('mailpit shape', { cc: 'cc@prospect.test', bcc: 'b@prospect.test', replyTo: 'r@outreach.test', html: '<p>hi <img src="cid:logo"></p>', attachments: [{ filename: 'logo.png', cid: 'logo', content: Buffer.from('89504e47', 'hex') }, { filename: 'doc.txt', content: 'doc' }] });
    const checks: [string, string, number, string][] = [
      ['/api/v1/messages', '/api/v1/messages', 200, 'GET'],
      ['/api/v1/messages?start=1&limit=2', '/api/v1/messages', 200, 'GET'],
      ['/api/v1/search?query=subject:%22mailpit%20shape%22', '/api/v1/search', 200, 'GET'],
      ['/api/v1/message/latest', '/api/v1/message/{ID}', 200, 'GET'],
      ['/api/v1/message/latest/headers', '/api/v1/message/{ID}/headers', 200, 'GET'],
      ['/api/v1/info', '/api/v1/info', 200, 'GET'],
    ];
    for (const [url, path, status, method] of checks) {
      const { status: got, body } = await getJson(url);
      expect(got, url).toBe(status);
      expect(validate(doc, responseSchema(doc, path, method, status), body), url).toEqual([]);
    }
    const { body } = await getJson('/api/v1/message/latest');
    const msg = body as { Subject: string; Bcc: { Address: string }[]; Cc: { Address: string }[]; Attachments: { FileName: string }[]; Inline: { FileName: string }[]; ReplyTo: { Address: string }[] };
    expect(msg.Subject).toBe('mailpit shape');
    expect(msg.Bcc.map((a) => a.Address)).toEqual(['b@prospect.test']); // envelope-only recipient, as Mailpit shows it
    expect(msg.Cc.map((a) => a.Address)).toEqual(['cc@prospect.test']);
    expect(msg.ReplyTo.map((a) => a.Address)).toEqual(['r@outreach.test']);
    expect(msg.Attachments.map((a) => a.FileName)).toEqual(['doc.txt']);
    expect(msg.Inline.map((a) => a.FileName)).toEqual(['logo.png']);
    // the validator can fail: a wrong shape is reported
    expect(validate(doc, responseSchema(doc, '/api/v1/message/{ID}', 'GET', 200), { ...msg, Subject: 1, Extra: true })).toEqual(
      expect.arrayContaining(['$.Subject: expected string, got number', '$.Extra: not in the description']),
    );
    const miss = await fetch(`${base}/api/v1/message/nope`);
    expect(miss.status).toBe(404);
    expect(validate(doc, responseSchema(doc, '/api/v1/message/{ID}', 'GET', 404), await miss.text())).toEqual([]);
  });

  it("reads to: from: cc: bcc: in the headers as Mailpit does (never the envelope), and an inline part's name is no word", async () => {
    const mp = new MailpitClient(base);
    const tag = `hdr${Date.now()}`;
    await send(`${tag} cc-only`, { to: 'first@prospect.test', cc: 'copied@prospect.test' });
    await send(`${tag} envelope-only`, { to: 'named@prospect.test', envelope: { from: box.address, to: ['named@prospect.test', 'unnamed@prospect.test'] } });
    await send(`${tag} plain`, { to: 'plain@prospect.test', html: '<p>logo <img src="cid:pic"></p>', attachments: [{ filename: 'inlinepicture.png', cid: 'pic', content: Buffer.from('89504e47', 'hex') }] });
    const subjects = async (query: string) => (await mp.searchMessages({ query: `${query} subject:${tag}` })).messages.map((m) => m.Subject.slice(tag.length + 1)).sort();
    expect(await subjects('to:copied@prospect.test')).toEqual([]); // a Cc recipient is not a To
    expect(await subjects('cc:copied@prospect.test')).toEqual(['cc-only']);
    expect(await subjects('to:unnamed@prospect.test')).toEqual([]); // a recipient of the envelope alone is not a To
    expect(await subjects('bcc:unnamed@prospect.test')).toEqual(['envelope-only']); // Mailpit's SMTP server adds it to Bcc
    expect(await subjects('bcc:plain@prospect.test')).toEqual([]); // an empty Bcc matches nothing
    expect(await subjects('bcc:prospect.test')).toEqual(['envelope-only']);
    expect(await subjects('to:named')).toEqual(['envelope-only']);
    expect(await subjects('from:box')).toEqual(['cc-only', 'envelope-only', 'plain']); // the From header's name
    expect(await subjects('-to:plain@prospect.test')).toEqual(['cc-only', 'envelope-only']);
    expect(await subjects('inlinepicture.png')).toEqual([]); // an inline part's name is not indexed
    // MailpitReader's `to` is any recipient, as the sink's own filter: a Cc and an envelope-only one found.
    const reader = new MailpitReader(base);
    for (const [to, subject] of [['copied@prospect.test', 'cc-only'], ['unnamed@prospect.test', 'envelope-only'], ['first@prospect.test', 'cc-only']])
      expect((await reader.list({ to })).map((m) => m.subject), to).toEqual([`${tag} ${subject}`]);
  });

  it('is readable with the mailpit-api client: list, search, get, headers, raw, delete', async () => {
    await send('for mailpit-api', { messageId: '<mp.api@outreach.test>' });
    const mp = new MailpitClient(base);
    const list = await mp.listMessages();
    expect(list.total).toBe(sink.messages().length);
    expect(list.messages[0]!.Subject).toBe('for mailpit-api'); // newest first
    const found = await mp.searchMessages({ query: 'message-id:mp.api@outreach.test' });
    expect(found.messages.map((m) => m.Subject)).toEqual(['for mailpit-api']);
    const id = found.messages[0]!.ID;
    const full = await mp.getMessageSummary(id);
    expect(full.Text).toContain('body of for mailpit-api');
    expect((await mp.getMessageSummary()).ID).toBe(id); // "latest"
    const headers = await mp.getMessageHeaders(id);
    expect(headers['Message-Id']).toEqual(['<mp.api@outreach.test>']);
    expect(await mp.getMessageSource(id)).toBe(sink.message(id)!.raw.toString());
    expect((await mp.searchMessages({ query: '-subject:"for mailpit-api" subject:mailpit' })).messages.every((m) => m.Subject !== 'for mailpit-api')).toBe(true);

    // Every filter is answered truly or refused naming it: never quietly matched against nothing.
    await send('with a file', { replyTo: 'answers@outreach.test', attachments: [{ filename: 'doc.txt', content: 'doc' }] });
    const subjects = async (query: string) => (await mp.searchMessages({ query })).messages.map((m) => m.Subject);
    expect(await subjects('has:attachment')).toContain('with a file');
    expect(await subjects('has:attachment')).not.toContain('for mailpit-api');
    expect(await subjects('-has:attachment subject:"for mailpit-api"')).toEqual(['for mailpit-api']);
    expect(await subjects('reply-to:answers@outreach.test')).toEqual(['with a file']);
    expect((await subjects('after:2000-01-01')).length).toBe(sink.messages().length);
    expect(await subjects('before:2000-01-01')).toEqual([]);
    expect(await subjects('tag:urgent')).toEqual([]); // the sink keeps no tags
    expect((await subjects('-tag:urgent')).length).toBe(sink.messages().length);
    // A value that is no date leaves the term out, as Mailpit does.
    expect((await subjects('after:someday')).length).toBe(sink.messages().length);
    for (const [query, named] of [['foo:bar', '"foo:"'], ['is:starred', 'is:starred'], ['has:pictures', 'has:pictures']]) {
      const r = await fetch(`${base}/api/v1/search?query=${encodeURIComponent(query!)}`);
      expect(r.status, query).toBe(400);
      expect(await r.text()).toContain(named);
    }
    await expect(mp.searchMessages({ query: 'foo:bar' })).rejects.toThrow();

    // The calls test suites built on mailpit-api make: info, read status, a part, the views, delete by search.
    const withFile = sink.messages().find((m) => m.subject === 'with a file')!;
    const info = await mp.getInfo();
    expect(info).toMatchObject({ Messages: sink.messages().length, Tags: {} });
    expect(info.RuntimeStats.SMTPAccepted).toBeGreaterThanOrEqual(sink.messages().length);
    await mp.setReadStatus({ IDs: [withFile.id], Read: true });
    expect((await mp.searchMessages({ query: 'is:read subject:"with a file"' })).messages).toHaveLength(1);
    await mp.setReadStatus({ Search: 'subject:"with a file"', Read: false });
    expect((await mp.searchMessages({ query: 'is:unread subject:"with a file"' })).messages).toHaveLength(1);
    const partId = ((await mp.getMessageSummary(withFile.id)).Attachments as { PartID: string; FileName: string }[]).find((a) => a.FileName === 'doc.txt')!.PartID;
    const part = await mp.getMessageAttachment(withFile.id, partId);
    expect(Buffer.from(await (part as unknown as Blob).arrayBuffer()).toString()).toBe('doc');
    expect((await fetch(`${base}/api/v1/message/${withFile.id}/part/99`)).status).toBe(404);
    expect(await mp.renderMessageText(withFile.id)).toContain('body of with a file');
    expect((await fetch(`${base}/view/${withFile.id}.html`)).status).toBe(404); // it was sent as text alone
    await send('with html', { html: '<p>hi <b>there</b></p>' });
    expect(await mp.renderMessageHTML(sink.messages().find((m) => m.subject === 'with html')!.id)).toContain('<p>hi <b>there</b></p>');
    await mp.deleteMessagesBySearch({ query: 'subject:"with a file"' });
    expect(sink.message(withFile.id)).toBeUndefined();
    expect((await mp.getInfo()).RuntimeStats.MessagesDeleted).toBeGreaterThanOrEqual(1);

    const reader = new MailpitReader(base);
    expect(reader.capabilities).toMatchObject({ attempts: false, faults: false, imap: false });
    const [r] = await reader.list({ messageId: '<mp.api@outreach.test>' });
    expect(r).toMatchObject({ id, subject: 'for mailpit-api', messageIdHeader: 'mp.api@outreach.test' });
    expect((await reader.parsed(id)).subject).toBe('for mailpit-api');
    expect((await reader.waitFor({ subject: 'for mailpit-api' }, { timeout: 30_000 })).id).toBe(id);

    await mp.deleteMessages({ IDs: [id] });
    expect(sink.message(id)).toBeUndefined();
    await reader.clear();
    expect((await mp.listMessages()).total).toBe(0);
    expect(sink.attempts().length).toBeGreaterThan(0); // attempts are the sink's own record, not Mailpit's
  });
});

// A 1x1 PNG, for an image a message shows inline (Content-ID) rather than attaches.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe("Mailpit's search, as Mailpit reads it, through the mailpit-api client", () => {
  let mp: MailpitClient;
  /** Subjects the query finds among this block's messages (their subjects start with "parity"). */
  const found = async (query: string) => (await mp.searchMessages({ query: `subject:parity ${query}` })).messages.map((m) => m.Subject).sort();
  beforeAll(async () => {
    mp = new MailpitClient(base);
    await send('parity inline only', { html: '<p>logo <img src="cid:logo@parity"></p>', attachments: [{ filename: 'logo.png', content: PIXEL, cid: 'logo@parity' }] });
    await send('parity file', { attachments: [{ filename: 'terms.pdf', content: 'terms' }] });
    await send('parity markup', {
      messageId: '<parity.part.42@outreach.test>',
      cc: 'Carol Jones <carol@cc.test>',
      headers: { 'X-Campaign-Marker': 'hiddenheadertoken' },
      html: '<html><head><style>.promobanner { color: red }</style></head><body><p class="promobanner">Visible words &amp; more</p></body></html>',
    });
  });

  it('has:attachment counts attachments only, not an image shown inline; has:inline finds that one', async () => {
    expect(await found('has:attachment')).toEqual(['parity file']);
    expect(await found('has:inline')).toEqual(['parity inline only']);
    expect(await found('-has:attachment')).toEqual(['parity inline only', 'parity markup']);
    const inlineOnly = (await mp.searchMessages({ query: 'subject:"parity inline only"' })).messages[0]!;
    expect(inlineOnly.Attachments).toBe(0); // the list and the filter agree
  });

  it('message-id: matches a part of the Message-ID', async () => {
    expect(await found('message-id:part.42')).toEqual(['parity markup']);
    expect(await found('message-id:<parity.part.42@outreach.test>')).toEqual(['parity markup']);
    expect(await found('message-id:part.43')).toEqual([]);
  });

  it('plain words match what a reader sees (addresses, subject, body text, file names), not raw headers nor HTML markup', async () => {
    expect(await found('visible')).toEqual(['parity markup']);
    expect(await found('"words & more"')).toEqual(['parity markup']); // the entity decoded
    expect(await found('terms.pdf')).toEqual(['parity file']);
    expect(await found('carol')).toEqual(['parity markup']); // the Cc header is indexed
    expect(await found('promobanner')).toEqual([]); // a class name and a style rule
    expect(await found('hiddenheadertoken')).toEqual([]); // a header Mailpit does not index
    expect(await found('img')).toEqual([]);
  });

  it('addressed: looks in From, To, Cc, Bcc and Reply-To, names included', async () => {
    expect(await found('addressed:carol@cc.test')).toEqual(['parity markup']);
    expect(await found('addressed:"carol jones"')).toEqual(['parity markup']);
    expect(await found('addressed:lead@prospect.test')).toHaveLength(3); // the To of all three
    expect(await found('-addressed:carol')).toEqual(['parity file', 'parity inline only']);
  });

  it('larger: and smaller: compare the size strictly, in bytes, k or m; a value that is no size is a plain word', async () => {
    const size = sink.messages().find((m) => m.subject === 'parity file')!.size;
    const files = async (q: string) => (await found(`${q} "parity file"`)).length;
    expect(await files(`larger:${size - 1}`)).toBe(1);
    expect(await files(`larger:${size}`)).toBe(0);
    expect(await files(`smaller:${size + 1}`)).toBe(1);
    expect(await files(`smaller:${size}`)).toBe(0);
    expect(await files(`-larger:${size}`)).toBe(0); // as Mailpit: negated is strictly smaller
    expect(await files('smaller:1m')).toBe(1);
    expect(await files('larger:1.5k')).toBe(size > 1536 ? 1 : 0);
    expect(await found('larger:lots')).toEqual([]);
  });

  it('is:tagged finds nothing (the sink keeps no tags), -is:tagged everything', async () => {
    expect(await found('is:tagged')).toEqual([]);
    expect(await found('-is:tagged')).toHaveLength(3);
  });

  it('answers /livez and /readyz as Mailpit does: 200, no body', async () => {
    for (const path of ['/livez', '/readyz']) {
      const r = await fetch(base + path);
      expect(r.status, path).toBe(200);
      expect(await r.text()).toBe('');
    }
  });
});
