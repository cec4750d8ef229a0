// Verification of the run's mailboxes: a mailbox that never verifies never sends, and the run
// would then measure nothing but its own wait; so it waits for the declared success, bounded.
import type { Operation, Profile } from '../../ground/profile-schema.ts';
import type { ConformanceControlClient } from '../../client/control.ts';
import type { ApiClient } from '../../ground/api-client.ts';
import { fillPath, getPath, itemOf, operation, resultPath } from '../../ground/operations.ts';
import { is2xx, snip } from './run-context.ts';
import type { Box } from './types.ts';

interface VerifyInput {
  profile: Profile;
  api: ApiClient;
  control?: ConformanceControlClient;
  boxes: Box[];
  notes: string[];
  fail: (s: string) => never;
  wallLeft: () => number;
}

/**
 * Brings every mailbox to the declared verification success (declarations.verificationStatus):
 * with control by draining background work, without it by waiting; the status is read through
 * the referenced accounts.list (a page of 100 at a time) or else accounts.get per mailbox. A
 * mailbox that ends elsewhere is an error naming the status seen. Without the declaration or a
 * way to read a mailbox, the run goes on and says so.
 */
export async function verifyMailboxes(x: VerifyInput): Promise<void> {
  const { profile, control, boxes } = x;
  const ok = profile.declarations.verificationStatus?.succeeded;
  const failed = profile.declarations.verificationStatus?.failed;
  const listOp = operation(profile, 'accounts.list');
  const getOp = operation(profile, 'accounts.get');
  const bound = Math.min(control ? 30_000 : 120_000, Math.max(1000, x.wallLeft()));
  const until = Date.now() + bound;
  if (!ok || (!listOp && !getOp)) return waitUnconfirmed(x, bound, !ok);
  const pending = new Set(boxes.map((b) => b.id));
  let last = new Map<string, string>();
  for (;;) {
    if (control) await control.drain(Math.max(1000, Math.min(30_000, until - Date.now())));
    last = listOp ? await statusesByList(x, listOp, pending) : await statusesByGet(x, getOp!, pending);
    for (const [id, s] of last) if (s === ok) pending.delete(id);
    if (pending.size === 0) return;
    const settledElsewhere = [...pending].filter((id) => last.get(id) === failed);
    if (settledElsewhere.length > 0 || Date.now() >= until) break;
    await new Promise((r) => setTimeout(r, control ? 200 : 1000));
  }
  x.fail(
    `${pending.size} of ${boxes.length} mailboxes at the kit's sinks did not verify: status ${statusCounts(pending, last)} after ${Math.round(bound / 1000)} s, where the profile declares "${ok}" (declarations.verificationStatus.succeeded); are the sinks reachable from the target at the profile's sinks.host?`,
  );
}

/** Without a way to confirm, the mailboxes still get the time a verification takes. */
async function waitUnconfirmed(x: VerifyInput, bound: number, undeclared: boolean): Promise<void> {
  if (x.control) await x.control.drain(Math.min(30_000, bound));
  else await new Promise((r) => setTimeout(r, Math.min(10_000, bound)));
  x.notes.push(
    undeclared
      ? 'verification not confirmed: the profile does not declare declarations.verificationStatus (the mailbox status after a verification)'
      : 'verification not confirmed: the profile declares neither accounts.list nor accounts.get (a way to read a mailbox)',
  );
}

/** The status of each pending mailbox, read page by page through accounts.list. */
async function statusesByList(x: VerifyInput, listOp: Operation, pending: Set<string>): Promise<Map<string, string>> {
  const { profile, api, fail } = x;
  const out = new Map<string, string>();
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const r = await api.request({ method: listOp.method as 'GET', path: listOp.path, query: { [profile.names.list.pageSize]: 100, [profile.names.list.cursor]: cursor } });
    if (!is2xx(r)) fail(`${listOp.method} ${listOp.path} (accounts.list) answered ${r.status}: ${snip(r)}`);
    const items = getPath(r.body, resultPath(listOp, 'items'));
    if (!Array.isArray(items)) fail(`${listOp.method} ${listOp.path} (accounts.list): no array at "${resultPath(listOp, 'items')}"`);
    for (const m of items as any[]) if (typeof m?.id === 'string' && pending.has(m.id)) out.set(m.id, String(m.status));
    if (r.body?.meta?.hasMore !== true || typeof r.body?.meta?.nextCursor !== 'string') break;
    cursor = r.body.meta.nextCursor;
  }
  return out;
}

/** The status of each pending mailbox, read one by one through accounts.get. */
async function statusesByGet(x: VerifyInput, getOp: Operation, pending: Set<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of pending) {
    const r = itemOf(getOp, await x.api.request({ method: getOp.method as 'GET', path: fillPath(getOp.path, { id }) }));
    if (!is2xx(r)) x.fail(`${getOp.method} ${getOp.path} (accounts.get) answered ${r.status}: ${snip(r)}`);
    out.set(id, String((r.body as any)?.status));
  }
  return out;
}

/** "3 pending, 1 (not listed)": how many unverified mailboxes were last seen in each status. */
function statusCounts(pending: Set<string>, last: Map<string, string>): string {
  const seen = new Map<string, number>();
  for (const id of pending) {
    const s = last.get(id) ?? '(not listed)';
    seen.set(s, (seen.get(s) ?? 0) + 1);
  }
  return [...seen].map(([s, n]) => `${n} ${s}`).join(', ');
}
