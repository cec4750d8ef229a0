// Idempotency-Key (spec 4.1) storage. Scope: per workspace. Fingerprint: sha256 of
// method + path + canonical JSON body. Records expire 24 h after creation (on the clock).
// States: 'processing' (reserved, the first request still runs) and 'done' (response stored).
// Only 2xx responses are stored; an error releases the key (the request had no effect).
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DB } from '../store/db.ts';

export const IDEMPOTENCY_KEY_MAX = 255;
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * The first request of a key holds its reservation at least this long before its handler runs,
 * so that concurrent requests with the same key really observe the in-flight state (409).
 */
export const INFLIGHT_HOLD_MS = 10;

export interface IdemRecord {
  fingerprint: string;
  state: 'processing' | 'done';
  status: number | null;
  headers: Record<string, string>;
  body: string | null;
  createdAt: number;
}

export const fingerprint = (method: string, path: string, canonicalBody: string) =>
  createHash('sha256').update(`${method} ${path}\n${canonicalBody}`).digest('hex');

interface Row { fingerprint: string; state: string; status: number | null; headers: string | null; body: string | null; created_at: number }

export class IdempotencyStore {
  constructor(private readonly db: DB) {}

  find(scope: string, key: string, now: number): IdemRecord | null {
    const r = this.db.prepare('SELECT * FROM idempotency WHERE scope = ? AND key = ?').get(scope, key) as Row | undefined;
    if (!r) return null;
    if (r.created_at + IDEMPOTENCY_TTL_MS <= now) {
      this.db.prepare('DELETE FROM idempotency WHERE scope = ? AND key = ?').run(scope, key);
      return null;
    }
    return {
      fingerprint: r.fingerprint,
      state: r.state === 'done' ? 'done' : 'processing',
      status: r.status,
      headers: r.headers ? (JSON.parse(r.headers) as Record<string, string>) : {},
      body: r.body,
      createdAt: r.created_at,
    };
  }

  /** Waits (up to 30 s) until the key is no longer processing; false if it still is. */
  async settled(scope: string, key: string, now: () => number): Promise<boolean> {
    for (const end = Date.now() + 30_000; Date.now() < end; await sleep(25)) if (this.find(scope, key, now())?.state !== 'processing') return true;
    return false;
  }

  /** Reserve the key; false if someone holds it already. */
  reserve(scope: string, key: string, fp: string, now: number): boolean {
    const res = this.db
      .prepare("INSERT OR IGNORE INTO idempotency (scope, key, fingerprint, state, created_at) VALUES (?, ?, ?, 'processing', ?)")
      .run(scope, key, fp, now);
    return res.changes === 1;
  }

  complete(scope: string, key: string, fp: string, now: number, status: number, headers: Record<string, string>, body: string): void {
    this.db
      .prepare(
        `INSERT INTO idempotency (scope, key, fingerprint, state, status, headers, body, created_at)
         VALUES (?, ?, ?, 'done', ?, ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET state = 'done', status = excluded.status,
           headers = excluded.headers, body = excluded.body`,
      )
      .run(scope, key, fp, status, JSON.stringify(headers), body, now);
  }

  release(scope: string, key: string): void {
    this.db.prepare("DELETE FROM idempotency WHERE scope = ? AND key = ? AND state = 'processing'").run(scope, key);
  }
}
