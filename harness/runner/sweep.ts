import type { Profile } from '../ground/profile-schema.ts';
import type { PooledWorkspace } from './pool.ts';
import { fillPath, getPath, operation, resultPath } from '../ground/operations.ts';

// Sweep (after ceph/s3-tests): on workspaces the run did not create itself, delete what carries
// the run prefix, keep going past errors, and say what could not be deleted.
// Campaigns cannot be deleted through the API (part 4 has no such endpoint): they are reported.

export async function sweep(workspaces: readonly PooledWorkspace[], profile: Profile, prefix: string, when: 'before' | 'after'): Promise<string[]> {
  const leftovers: string[] = [];
  for (const ws of workspaces) {
    const listOp = operation(profile, 'apikeys.list');
    if (listOp) {
      for (const item of await listAll(ws, listOp.path, profile).catch(() => [])) {
        const name = (item as { name?: unknown }).name;
        const id = (item as { id?: unknown }).id;
        if (typeof name === 'string' && name.startsWith(prefix) && typeof id === 'string' && id !== ws.apiKeyId) {
          const r = await ws.api.delete(`/v1/api-keys/${encodeURIComponent(id)}`).catch(() => undefined);
          if (!r || r.status >= 300) leftovers.push(`api key ${id} (${name})`);
        }
      }
    }
    const accountsOp = operation(profile, 'accounts.list');
    if (accountsOp) {
      for (const item of await listAll(ws, accountsOp.path, profile).catch(() => [])) {
        const email = (item as { emailAddress?: unknown }).emailAddress;
        const id = (item as { id?: unknown }).id;
        if (typeof email === 'string' && email.startsWith(prefix) && typeof id === 'string') {
          const r = await ws.api.delete(fillPath('/v1/accounts/{id}', { id })).catch(() => undefined);
          if (!r || r.status >= 300) leftovers.push(`mailbox ${id} (${email})`);
        }
      }
    }
    const page = await ws.api.get('/v1/campaigns', { [profile.names.list.pageSize]: 100 }).catch(() => undefined);
    const campaigns = (page?.body?.data ?? []) as { id?: string; name?: string }[];
    for (const c of campaigns) if (c.name?.startsWith(prefix)) leftovers.push(`campaign ${c.id} (${c.name}): no delete endpoint in the spec`);
  }
  if (leftovers.length) process.stderr.write(`sweep ${when} the run left ${leftovers.length} resource(s):\n  ${leftovers.join('\n  ')}\n`);
  return leftovers;
}

async function listAll(ws: PooledWorkspace, path: string, profile: Profile): Promise<unknown[]> {
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
