import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport, type Transport } from './transport.ts';

// The transport's connections against raw loopback servers that answer byte for byte what each
// test needs: keep-alive and its end, a server closing a reused connection just as a request
// goes out, framing without a length, 1xx answers, a full pool, TLS.

type Answerer = (request: string, socket: net.Socket, nth: number) => void;

const servers: net.Server[] = [];
const transports: Transport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  for (const s of servers.splice(0)) s.close();
});

/** A server that hands each complete request head (and body, by Content-Length) to `answer`; counts connections. */
async function rawServer(answer: Answerer): Promise<{ url: string; connections: () => number; requests: string[] }> {
  let connections = 0;
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    connections++;
    let pending = '';
    socket.on('data', (d) => {
      pending += d.toString('latin1');
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const request = pending.slice(0, end + 4 + length);
        pending = pending.slice(end + 4 + length);
        requests.push(request);
        answer(request, socket, requests.length);
      }
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, requests };
}

function transport(url: string, opts?: Parameters<typeof createTransport>[1]): Transport {
  const t = createTransport(url, opts);
  transports.push(t);
  return t;
}

const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('the transport connections', () => {
  it('keeps one connection alive for requests one after another, and writes the request as given', async () => {
    const s = await rawServer((_, socket, n) => socket.write(ok(`answer ${n}`)));
    const t = transport(s.url);
    for (let i = 1; i <= 20; i++) expect((await t.send({ method: 'GET', path: `/r/${i}` })).text).toBe(`answer ${i}`);
    expect(s.connections()).toBe(1);
    await t.send({ method: 'POST', path: '/p', body: '{"a":"é"}', headers: { authorization: 'Bearer k' } });
    expect(s.requests.at(-1)).toBe(`POST /p HTTP/1.1\r\nhost: ${new URL(s.url).host}\r\nauthorization: Bearer k\r\naccept: application/json\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n{"a":"é"}`.replace('é', Buffer.from('é').toString('latin1')));
    await t.send({ method: 'POST', path: '/empty' });
    expect(s.requests.at(-1)).toMatch(/content-length: 0\r\n\r\n$/);
  });

  it('opens a new connection after "Connection: close", after a Keep-Alive timeout too short to use, and after bytes it did not ask for', async () => {
    const s = await rawServer((request, socket) => {
      if (request.startsWith('GET /close')) socket.end(ok('closing', 'connection: close\r\n'));
      else if (request.startsWith('GET /short')) socket.write(ok('short', 'keep-alive: timeout=1\r\n'));
      else if (request.startsWith('GET /extra')) socket.write(`${ok('extra')}HTTP/1.1 200 OK\r\n`);
      else socket.write(ok('fine'));
    });
    const t = transport(s.url);
    for (const path of ['/close', '/a', '/short', '/b', '/extra', '/c']) expect((await t.send({ method: 'GET', path })).status).toBe(200);
    expect(s.connections()).toBe(4);
  });

  it('sends an idempotent request once more when a reused connection closes before a byte of its answer, and fails a POST', async () => {
    // The server answers the first request on each connection and closes the connection when the
    // second arrives: the race a Keep-Alive timeout makes, made certain.
    const s = await rawServer((_, socket) => {
      const served = (socket as net.Socket & { served?: number }).served ?? 0;
      (socket as net.Socket & { served?: number }).served = served + 1;
      if (served === 0) socket.write(ok('first'));
      else socket.destroy();
    });
    const t = transport(s.url);
    await t.send({ method: 'GET', path: '/1' });
    expect((await t.send({ method: 'GET', path: '/2' })).text).toBe('first');
    expect(s.connections()).toBe(2);
    await expect(t.send({ method: 'POST', path: '/3', body: '{}' })).rejects.toThrow(/closed before the answer/);
  });

  it('reads a body that runs to the close, skips 100 Continue, reads no body for HEAD, and fails an answer cut short', async () => {
    const s = await rawServer((request, socket) => {
      if (request.startsWith('GET /eof')) socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nto the end');
      else if (request.startsWith('GET /continue')) socket.write(`HTTP/1.1 100 Continue\r\n\r\n${ok('after continue')}`);
      else if (request.startsWith('HEAD')) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 99\r\n\r\n');
      else socket.end('HTTP/1.1 200 OK\r\ncontent-length: 99\r\n\r\nshort');
    });
    const t = transport(s.url);
    expect((await t.send({ method: 'GET', path: '/eof' })).text).toBe('to the end');
    expect((await t.send({ method: 'GET', path: '/continue' })).text).toBe('after continue');
    const head = await t.send({ method: 'HEAD', path: '/h' });
    expect([head.status, head.text, head.headers['content-length']]).toEqual([200, '', '99']);
    await expect(t.send({ method: 'GET', path: '/cut' })).rejects.toThrow(/closed before the answer/);
  });

  it('fails a malformed answer with the reason, and the connection is not used again', async () => {
    const s = await rawServer((request, socket) => socket.write(request.includes('/bad') ? 'HTTP/1.1 200 OK\r\ncontent-length: x\r\n\r\n' : ok('fine')));
    const t = transport(s.url);
    await expect(t.send({ method: 'GET', path: '/bad' })).rejects.toThrow(/Content-Length/);
    expect((await t.send({ method: 'GET', path: '/good' })).text).toBe('fine');
    expect(s.connections()).toBe(2);
  });

  it('queues requests beyond its connections and serves every one of them', async () => {
    const s = await rawServer((request, socket) => setTimeout(() => socket.write(ok(request.split(' ')[1]!)), 20));
    const t = transport(s.url, { connections: 2 });
    const paths = Array.from({ length: 10 }, (_, i) => `/q/${i}`);
    const answers = paths.map((path) => t.send({ method: 'GET', path }));
    expect(t.queued()).toBe(8);
    expect((await Promise.all(answers)).map((a) => a.text)).toEqual(paths);
    expect(s.connections()).toBe(2);
    expect(t.queued()).toBe(0);
  });

  it('refuses what would break the request framing before anything is sent', async () => {
    const s = await rawServer((_, socket) => socket.write(ok('')));
    const t = transport(s.url);
    await expect(t.send({ method: 'GET', path: '/', headers: { 'x-evil': 'a\r\nx-injected: 1' } })).rejects.toThrow(/bad header/);
    await expect(t.send({ method: 'GET', path: '/', headers: { 'content-length': '5' } })).rejects.toThrow(/transport's to set/);
    await expect(t.send({ method: 'GET', path: '/a b' })).rejects.toThrow(/bad request path/);
    await expect(t.send({ method: 'GE T', path: '/' })).rejects.toThrow(/bad HTTP method/);
    expect(s.requests).toEqual([]);
    expect(() => createTransport('ftp://127.0.0.1/')).toThrow(/http and https/);
  });

  it('speaks HTTPS, checking the certificate against the CA it is given (and refusing one it does not trust)', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => res.end(`secure ${req.url}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const t = transport(url, { tls: { ca: pems.cert } });
      expect((await t.send({ method: 'GET', path: '/one' })).text).toBe('secure /one');
      expect((await t.send({ method: 'GET', path: '/two' })).text).toBe('secure /two');
      await expect(transport(url).send({ method: 'GET', path: '/' })).rejects.toThrow(/self[- ]signed|certificate/i);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
