// Workspaces (organizations), their plan state and API keys. Keys are stored hashed (sha256);
// the secret exists only in the answer that creates it.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DB } from './db.ts';
import { LIMIT_TYPES, type ApiKey, type LimitType, type Workspace } from '../domain/workspace.ts';

/** The plan every new workspace starts on (the control API changes it). */
export const DEFAULT_PLAN = 'growth';
export const DEFAULT_LIMITS: Record<LimitType, number | null> = {
  monthly_emails: 10000,
  active_contacts: 5000,
  ai_credits: 1000,
  email_validation: 2000,
  monthly_imports: 10000,
  lead_finder_credits: 500,
};

export const hashKey = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
export const newSecret = () => `ock_${randomBytes(24).toString('base64url')}`;

interface WorkspaceRow {
  id: string; name: string; timezone: string; plan: string; api_access: number;
  limits: string; used: string; created_at: number;
}
interface KeyRow {
  id: string; org_id: string; name: string; scopes: string; hash: string; prefix: string;
  created_at: number; last_used_at: number | null; revoked_at: number | null;
}

export function workspaceFromRow(r: WorkspaceRow): Workspace {
  const limits = { ...DEFAULT_LIMITS, ...(JSON.parse(r.limits) as Partial<Record<LimitType, number | null>>) };
  const usedRaw = JSON.parse(r.used) as Partial<Record<LimitType, number>>;
  const used = Object.fromEntries(LIMIT_TYPES.map((t) => [t, usedRaw[t] ?? 0])) as Record<LimitType, number>;
  return { id: r.id, name: r.name, timezone: r.timezone, plan: r.plan, apiAccess: r.api_access === 1, limits, used, createdAt: r.created_at };
}

export function keyFromRow(r: KeyRow): ApiKey {
  return {
    id: r.id, orgId: r.org_id, name: r.name, scopes: JSON.parse(r.scopes) as string[],
    createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at,
  };
}

export function loadWorkspace(db: DB, id: string): Workspace | null {
  const r = db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow | undefined;
  return r ? workspaceFromRow(r) : null;
}

export function insertWorkspace(db: DB, ws: { id?: string; name: string; timezone: string; createdAt: number }): Workspace {
  const id = ws.id ?? randomUUID();
  db.prepare(
    'INSERT INTO workspaces (id, name, timezone, plan, api_access, limits, used, created_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
  ).run(id, ws.name, ws.timezone, DEFAULT_PLAN, JSON.stringify(DEFAULT_LIMITS), JSON.stringify({}), ws.createdAt);
  return loadWorkspace(db, id)!;
}

export function saveWorkspacePlan(db: DB, ws: Workspace): void {
  db.prepare('UPDATE workspaces SET api_access = ?, limits = ?, used = ?, plan = ? WHERE id = ?').run(
    ws.apiAccess ? 1 : 0, JSON.stringify(ws.limits), JSON.stringify(ws.used), ws.plan, ws.id,
  );
}

export function insertKey(
  db: DB,
  k: { orgId: string; name: string; scopes: string[]; createdAt: number },
): { key: ApiKey; secret: string } {
  const id = randomUUID();
  const secret = newSecret();
  db.prepare(
    'INSERT INTO api_keys (id, org_id, name, scopes, hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(id, k.orgId, k.name, JSON.stringify(k.scopes), hashKey(secret), secret.slice(0, 8), k.createdAt);
  const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow;
  return { key: keyFromRow(row), secret };
}

export function findKeyBySecret(db: DB, secret: string): ApiKey | null {
  const r = db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(hashKey(secret)) as KeyRow | undefined;
  return r ? keyFromRow(r) : null;
}
