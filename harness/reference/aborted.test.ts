import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startReference } from './index.ts';

// A client that goes away while its body is read (a slow or cut upload) leaves nobody to
// answer: the reference logs no internal error for it and keeps serving.
describe('a request cut mid-body', () => {
  it('is not an internal error', async () => {
    const logs: string[] = [];
    const ref = await startReference({ log: (l) => logs.push(l) });
    try {
      const port = Number(new URL(ref.baseUrl).port);
      await new Promise<void>((done) => {
        const s = net.connect(port, '127.0.0.1', () => s.write('POST /v1/campaigns HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"na'));
        setTimeout(() => (s.destroy(), done()), 200);
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(logs.filter((l) => l.includes('internal error'))).toEqual([]);
      expect((await fetch(`${ref.baseUrl}/v1/workspace`)).status).toBe(401);
    } finally {
      await ref.stop();
    }
  });
});
