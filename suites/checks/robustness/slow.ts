import http from 'node:http';
import https from 'node:https';

// Requests the wire client cannot send: a slow body (slowloris) whose pieces trickle in for a
// bounded time, and a body without any Content-Type. They go through node:http directly and are
// not recorded as exchanges, so they never carry the workspace's own key (a narrow key or none).

export interface SlowOutcome {
  /** The answer's status, when one came. */
  status?: number;
  text: string;
  /** The target closed the connection without answering (it may drop a slow client). */
  closed: boolean;
  /** No answer and no close within the bound after the last byte. */
  hung: boolean;
  ms: number;
}

export interface RawRequest {
  method?: string;
  /** Sent as given (no Content-Type unless named here). */
  headers?: Record<string, string>;
  chunks: string[];
  intervalMs: number;
  answerWithinMs: number;
}

export function slowBody(baseUrl: string, path: string, o: RawRequest): Promise<SlowOutcome> {
  const url = new URL(baseUrl);
  const full = `${url.pathname.replace(/\/+$/, '')}${path}`;
  const lib = url.protocol === 'https:' ? https : http;
  const t0 = Date.now();
  return new Promise((resolve) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (r: Omit<SlowOutcome, 'ms'>) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      req.destroy();
      resolve({ ...r, ms: Date.now() - t0 });
    };
    const req = lib.request(
      { host: url.hostname, port: url.port, path: full, method: o.method ?? 'POST', agent: false, headers: { 'transfer-encoding': 'chunked', 'user-agent': 'outreach-conformance/raw', ...o.headers }, rejectUnauthorized: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c.slice(0, 4096 - text.length)));
        res.on('end', () => finish({ status: res.statusCode, text, closed: false, hung: false }));
        res.on('error', () => finish({ status: res.statusCode, text, closed: true, hung: false }));
      },
    );
    req.on('error', () => finish({ text: '', closed: true, hung: false }));
    let i = 0;
    const next = () => {
      if (done) return;
      if (i < o.chunks.length) {
        req.write(o.chunks[i++]!);
        timer = setTimeout(next, o.intervalMs);
      } else {
        req.end();
        timer = setTimeout(() => finish({ text: '', closed: false, hung: true }), o.answerWithinMs);
      }
    };
    next();
  });
}
