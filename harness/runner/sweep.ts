import type { Profile } from '../ground/profile-schema.ts';
import type { PooledWorkspace } from './pool.ts';
import type { CreatedResource, WorkspaceLeftovers } from './created.ts';
import { fillPath, getPath, operation, resultPath } from '../ground/operations.ts';

// Clean-up after a run without the control API (after ceph/s3-tests: keep going past errors and
// say what could not be deleted). Each check's own leftovers go right after it ends (runner.ts);
// this final sweep takes the rest: fixtures several checks shared (pooled keys, suites/lib/shared.ts),
// what a check's clean-up could not delete, what a timed-out check created after it. Both delete
// exactly what the run's own exchanges show it created and left (created.ts): one DELETE per
// mailbox and API key, no listing, so the planner can count it in a depth's budget. Only where a creation answer could not be read whole does it
// list the workspace for what carries the run prefix. Campaigns cannot be deleted through the
// API (part 4 has no such endpoint): they are reported.

export async function cleanUp(workspaces: readonly PooledWorkspace[], profile: Profile, prefix: string, created: ReadonlyMap<number, WorkspaceLeftovers>): Promise<string[]> {
  // Workspaces at once: each has its own rate window, and one that must wait for room holds up no other.
  const swept = await Promise.all(
    workspaces.map(async (ws) => {
      const made = created.get(ws.index);
      if (!made) return { left: [] as string[], campaigns: 0 };
      return { left: made.unreadable ? await sweepListing(ws, profile, prefix) : await removeAll(ws, made.resources), campaigns: made.campaigns };
    }),
  );
  const leftovers = swept.flatMap((s) => s.left);
  const campaigns = swept.reduce((n, s) => n + s.campaigns, 0);
  if (campaigns) leftovers.push(`${campaigns} campaign(s) the run created: the spec has no way to delete a campaign`);
  if (leftovers.length) process.stderr.write(`after the run, ${leftovers.length} thing(s) are left on the target:\n  ${leftovers.join('\n  ')}\n`);
  return leftovers;
}

/**
 * DELETEs these resources of the workspace one by one (never its own key); what could not be
 * deleted (a 404 counts as gone). Also what a check's own clean-up sends right after it ends.
 */
export async function removeAll(ws: Pick<PooledWorkspace, 'api' | 'apiKeyId'>, resources: readonly CreatedResource[]): Promise<string[]> {
  const left: string[] = [];
  for (const r of resources) {
    if (r.kind === 'api key' && r.id === ws.apiKeyId) continue;
    const status = await remove(ws, r.kind, r.id);
    if (status === undefined || (status >= 300 && status !== 404)) left.push(`${r.kind} ${r.id} (${r.label})`);
  }
  return left;
}

/** The fallback: list the workspace and delete what carries the run prefix. */
async function sweepListing(ws: PooledWorkspace, profile: Profile, prefix: string): Promise<string[]> {
  return (await sweepWorkspace(ws, profile, (name) => name.startsWith(prefix))).left;
}

/** What a sweep of one workspace found carrying a run prefix, and what of it is still there. */
export interface Swept {
  found: string[];
  left: string[];
}

/**
 * Lists the workspace's API keys and mailboxes (the referenced list operations) and deletes those
 * whose name (a key's) or address (a mailbox's) `match`es; never the workspace's own key.
 * `dryRun`: finds, deletes nothing. A listing the profile declares no operation for is said.
 */
export async function sweepWorkspace(ws: Pick<PooledWorkspace, 'api' | 'apiKeyId'>, profile: Profile, match: (name: string) => boolean, o: { dryRun?: boolean } = {}): Promise<Swept> {
  const out: Swept = { found: [], left: [] };
  const kinds = [
    { kind: 'api key' as const, op: 'apikeys.list' as const, name: 'name' },
    { kind: 'mailbox' as const, op: 'accounts.list' as const, name: 'emailAddress' },
  ];
  for (const k of kinds) {
    const listOp = operation(profile, k.op);
    if (!listOp) {
      out.left.push(`every ${k.kind} (the profile declares no "${k.op}" operation to list them)`);
      continue;
    }
    for (const item of await listAll(ws, listOp.path, profile).catch(() => [])) {
      const name = (item as Record<string, unknown>)[k.name];
      const id = (item as { id?: unknown }).id;
      if (typeof name !== 'string' || !match(name) || typeof id !== 'string' || id === ws.apiKeyId) continue;
      const what = `${k.kind} ${id} (${name})`;
      out.found.push(what);
      if (o.dryRun) continue;
      const status = await remove(ws, k.kind, id);
      if (status === undefined || (status >= 300 && status !== 404)) out.left.push(what);
    }
  }
  return out;
}

/** DELETEs one mailbox or API key; its status, undefined when the request failed on the wire. */
async function remove(ws: Pick<PooledWorkspace, 'api'>, kind: 'mailbox' | 'api key', id: string): Promise<number | undefined> {
  const path = kind === 'mailbox' ? fillPath('/v1/accounts/{id}', { id }) : `/v1/api-keys/${encodeURIComponent(id)}`;
  return (await ws.api.delete(path).catch(() => undefined))?.status;
}

async function listAll(ws: Pick<PooledWorkspace, 'api'>, path: string, profile: Profile): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const res = await ws.api.get(path, { [profile.names.list.pageSize]: 100, [profile.names.list.cursor]: cursor });
    if (res.status !== 200) break;
    const data = getPath(res.body, resultPath({ method: 'GET', path, list: true, fields: {}, result: {} }, 'data'));
    if (Array.isArray(data)) items.push(...data);
    if (!res.body?.meta?.hasMore || typeof res.body.meta.nextCursor !== 'string') break;
    cursor = res.body.meta.nextCursor;
  }
  return items;
}
