// A small router and the HTTP plumbing shared by the public API and the control API.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Matchable {
  method: string;
  path: string;
}

interface Compiled<R> {
  route: R;
  segments: string[];
  literals: number;
}

/**
 * Path templates use `{name}` segments. When several templates match, the one with more literal
 * segments wins (so /v1/campaigns/analytics/overview beats /v1/campaigns/{id}/analytics).
 */
export class Router<R extends Matchable> {
  private readonly compiled: Compiled<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes.map((route) => {
      const segments = route.path.split('/').slice(1);
      return { route, segments, literals: segments.filter((s) => !s.startsWith('{')).length };
    });
  }

  match(method: string, pathname: string): { route: R; params: Record<string, string> } | null {
    const parts = pathname.split('/').slice(1);
    let best: { route: R; params: Record<string, string>; literals: number } | null = null;
    for (const c of this.compiled) {
      if (c.route.method !== method || c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = c.segments[i]!;
        const part = parts[i]!;
        if (seg.startsWith('{')) {
          if (part === '') ok = false;
          else {
            try {
              params[seg.slice(1, -1)] = decodeURIComponent(part);
            } catch {
              ok = false;
            }
          }
        } else if (seg !== part) ok = false;
      }
      if (ok && (!best || c.literals > best.literals)) best = { route: c.route, params, literals: c.literals };
    }
    return best ? { route: best.route, params: best.params } : null;
  }
}

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Reads the whole body; `tooLarge` when it exceeds MAX_BODY_BYTES (the rest is drained). */
export function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', reject);
  });
}

export interface Outgoing {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function send(res: ServerResponse, out: Outgoing): void {
  if (res.headersSent || res.destroyed) return;
  const buf = Buffer.from(out.body, 'utf8');
  res.writeHead(out.status, { ...out.headers, 'content-length': String(buf.length) });
  res.end(buf);
}

/**
 * Canonical JSON: object keys sorted recursively (for idempotency fingerprints). Iterative, so a
 * body nested thousands of levels deep gets a fingerprint instead of overflowing the stack.
 */
export function canonicalJson(v: unknown): string {
  const out: string[] = [];
  // Work items: a value to encode, or text to emit as is (pushed in reverse: the stack is LIFO).
  const stack: ({ text: string } | { value: unknown })[] = [{ value: v }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const x = item.value;
    if (Array.isArray(x)) {
      stack.push({ text: ']' });
      for (let i = x.length - 1; i >= 0; i--) {
        stack.push({ value: x[i] });
        if (i > 0) stack.push({ text: ',' });
      }
      stack.push({ text: '[' });
    } else if (x !== null && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      const keys = Object.keys(o)
        .sort()
        .filter((k) => o[k] !== undefined);
      stack.push({ text: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: o[keys[i]!] });
        stack.push({ text: `${JSON.stringify(keys[i])}:` });
        if (i > 0) stack.push({ text: ',' });
      }
      stack.push({ text: '{' });
    } else out.push(JSON.stringify(x) ?? 'null');
  }
  return out.join('');
}
