// Blocking HTTP calls for the remote mail sinks: the in-process MailSink reads (messages,
// attempts, faults.add...) are synchronous, and checks rely on that. A worker thread does the
// fetch; the caller sleeps on Atomics.wait and takes the answer with receiveMessageOnPort.
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';

// Plain JavaScript: an eval'd worker is not transformed, and Node 20 does not strip types.
const WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ flag, port, method, url, body, timeoutMs }) => {
  let out;
  try {
    const res = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    out = { status: res.status, type: res.headers.get('content-type') || '', date: res.headers.get('date'), body: new Uint8Array(await res.arrayBuffer()) };
  } catch (e) {
    out = { error: String((e && e.cause && e.cause.message) || (e && e.message) || e) };
  }
  port.postMessage(out);
  port.close();
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

export interface SyncResponse {
  status: number;
  type: string;
  /** the Date header (the remote's clock) */
  date: string | null;
  body: Buffer;
}

export class SyncHttp {
  private worker: Worker | null = null;

  constructor(private readonly timeoutMs = 30_000) {}

  request(method: string, url: string, body?: unknown): SyncResponse {
    if (!this.worker) {
      this.worker = new Worker(WORKER, { eval: true });
      this.worker.unref(); // never keeps a finished run alive
    }
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    this.worker.postMessage({ flag, port: port2, method, url, body, timeoutMs: this.timeoutMs }, [port2]);
    const waited = Atomics.wait(flag, 0, 0, this.timeoutMs + 5_000);
    const got = receiveMessageOnPort(port1)?.message as (Omit<SyncResponse, 'body'> & { body: Uint8Array }) | { error: string } | undefined;
    port1.close();
    if (waited === 'timed-out' || !got) throw new Error(`${method} ${url}: no answer within ${this.timeoutMs} ms`);
    if ('error' in got) throw new Error(`${method} ${url}: ${got.error}`);
    return { ...got, body: Buffer.from(got.body.buffer, got.body.byteOffset, got.body.byteLength) };
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
  }
}
