import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport } from './transport.ts';

// The load generator's transport against a loopback server that answers what it received:
// method, path, headers and body come back as the generator's caller reads them.

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/silent') return; // never answers: the transport's timeout ends it
      if (req.url === '/big') {
        // A chunked body (each write its own chunk, each handed over apart), with a two-byte
        // character split between every two chunks.
        const e = Buffer.from('é');
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        for (let i = 0; i < 64; i++) {
          res.write(Buffer.concat([Buffer.from('x'.repeat(1023)), e.subarray(0, 1)]));
          res.write(e.subarray(1));
        }
        return res.end();
      }
      const echo = JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(req.url?.startsWith('/missing') ? 404 : 201, [
        ['content-type', 'application/json'],
        ['x-twice', 'a'],
        ['X-Twice', 'b'],
      ]);
      res.end(echo);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setTimeout(() => server.close(), 60_000).unref();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('createTransport', () => {
  it('sends a GET with accept: application/json and returns status, body and headers', async () => {
    const t = createTransport(base);
    try {
      const res = await t.send({ method: 'GET', path: '/v1/campaigns?limit=50', headers: { authorization: 'Bearer k1' } });
      expect(res.status).toBe(201);
      const echo = JSON.parse(res.text);
      expect(echo).toMatchObject({ method: 'GET', url: '/v1/campaigns?limit=50', body: '' });
      expect(echo.headers).toMatchObject({ accept: 'application/json', authorization: 'Bearer k1' });
      expect(echo.headers['content-type']).toBeUndefined();
      // Names lower-cased, a repeated header joined as Node and undici's request() join them.
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['x-twice']).toBe('a, b');
    } finally {
      await t.close();
    }
  });

  it('sends a body as JSON, lets the caller override a default header, and reports non-2xx statuses as answers', async () => {
    const t = createTransport(base);
    try {
      const res = await t.send({ method: 'POST', path: '/missing', headers: { accept: 'text/plain' }, body: '{"name":"Zoë"}' });
      expect(res.status).toBe(404);
      const echo = JSON.parse(res.text);
      expect(echo).toMatchObject({ method: 'POST', body: '{"name":"Zoë"}' });
      expect(echo.headers).toMatchObject({ accept: 'text/plain', 'content-type': 'application/json' });
    } finally {
      await t.close();
    }
  });

  it("puts the base URL's path in front of every request path", async () => {
    const t = createTransport(`${base}/api/`);
    try {
      expect(JSON.parse((await t.send({ method: 'DELETE', path: '/v1/leads/7' })).text)).toMatchObject({ method: 'DELETE', url: '/api/v1/leads/7' });
    } finally {
      await t.close();
    }
  });

  it('reads a body that arrives in many chunks whole, characters split across chunks included', async () => {
    const t = createTransport(base);
    try {
      const res = await t.send({ method: 'GET', path: '/big' });
      expect(res.text).toBe(`${'x'.repeat(1023)}é`.repeat(64));
    } finally {
      await t.close();
    }
  });

  it('serves many requests at once, each with its own answer', async () => {
    const t = createTransport(base);
    try {
      const paths = Array.from({ length: 50 }, (_, i) => `/n/${i}`);
      const answers = await Promise.all(paths.map((path) => t.send({ method: 'GET', path })));
      expect(answers.map((a) => JSON.parse(a.text).url)).toEqual(paths);
      expect(t.queued()).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('rejects on a transport failure: nothing listening, or no answer within the timeout', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = createTransport(`http://127.0.0.1:${port}`);
    await expect(refused.send({ method: 'GET', path: '/' })).rejects.toThrow(/ECONNREFUSED|connect/);
    await refused.close();

    const slow = createTransport(base, { timeoutMs: 200 });
    await expect(slow.send({ method: 'GET', path: '/silent' })).rejects.toThrow(/timeout/i);
    await slow.close();
  });
});
