import type { ExchangeEvent } from '../ground/events.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { fieldName, getPath, operation, resultPath } from '../ground/operations.ts';

// What a run created on the target and has not deleted, read from its own exchanges: the
// clean-up after a run without the control API deletes exactly that (one DELETE each, no
// listing), and the planner counts it in a depth's budget (what the target really sees).
// Only resources carrying the run prefix count: nothing else is the run's to delete.

export interface CreatedResource {
  kind: 'mailbox' | 'api key';
  id: string;
  /** The email address or name, for the report of what could not be deleted. */
  label: string;
  /** The check whose request created it (undefined: the kit's own, e.g. a pooled key). */
  checkId?: string;
  /** The exchange that created it. */
  exchangeId?: string;
}

export interface WorkspaceLeftovers {
  resources: CreatedResource[];
  /** A creation answer could not be read whole (truncated record): only a listing finds everything. */
  unreadable: boolean;
  /** Campaigns created (the spec has no way to delete one: they stay, and the report says so). */
  campaigns: number;
}

const MAILBOX_DELETE = /^\/v1\/accounts\/([^/?]+)$/;
const KEY_DELETE = /^\/v1\/api-keys\/([^/?]+)$/;

/** Per workspace (pool index): what the run's exchanges created and did not delete. */
export function createdResources(exchanges: readonly ExchangeEvent[], profile: Profile, baseUrl: string, prefix: string): Map<number, WorkspaceLeftovers> {
  const ledger = new CreatedLedger(profile, baseUrl, prefix);
  for (const e of exchanges) ledger.add(e);
  return ledger.byWorkspace;
}

/**
 * The same, kept as the exchanges come (the runner reads it while the run goes on: what the
 * final clean-up will owe each workspace).
 */
export class CreatedLedger {
  readonly byWorkspace = new Map<number, WorkspaceLeftovers>();
  private readonly keyOp: ReturnType<typeof operation>;
  constructor(
    profile: Profile,
    private readonly baseUrl: string,
    private readonly prefix: string,
  ) {
    this.keyOp = operation(profile, 'apikeys.create');
  }

  /** One more exchange of the run: what it created is added, what it deleted dropped. Whether it changed anything. */
  add(e: ExchangeEvent): boolean {
    const { baseUrl, prefix, keyOp } = this;
    if (e.workspace === undefined || !e.response || e.response.status < 200 || e.response.status > 299 || !e.request.url.startsWith(`${baseUrl}/`)) return false;
    const ws = this.byWorkspace.get(e.workspace) ?? { resources: [], unreadable: false, campaigns: 0 };
    this.byWorkspace.set(e.workspace, ws);
    const path = e.request.url.slice(baseUrl.length).split('?')[0]!;
    const method = e.request.method.toUpperCase();
    const body = () => parse(e.response!.body);
    const add = (kind: CreatedResource['kind'], id: unknown, label: unknown) => {
      if (typeof id === 'string' && typeof label === 'string' && label.startsWith(prefix)) ws.resources.push({ kind, id, label, exchangeId: e.id, ...(e.checkId ? { checkId: e.checkId } : {}) });
    };
    const drop = (kind: CreatedResource['kind'], id: string) => (ws.resources = ws.resources.filter((r) => r.kind !== kind || r.id !== decodeURIComponent(id)));
    if (method === 'POST' && path === '/v1/accounts') {
      const accounts = getPath(body(), 'accounts');
      if (!Array.isArray(accounts)) ws.unreadable = true;
      else for (const m of accounts) add('mailbox', getPath(m, 'id'), getPath(m, 'emailAddress'));
    } else if (keyOp && method === keyOp.method.toUpperCase() && path === keyOp.path) {
      const b = body();
      if (b === undefined) ws.unreadable = true;
      else add('api key', getPath(b, resultPath(keyOp, 'id')), getPath(parse(e.request.body), fieldName(keyOp, 'name')));
    } else if (method === 'POST' && path === '/v1/campaigns') ws.campaigns++;
    else if (method === 'DELETE' && MAILBOX_DELETE.test(path)) drop('mailbox', MAILBOX_DELETE.exec(path)![1]!);
    else if (method === 'DELETE' && KEY_DELETE.test(path)) drop('api key', KEY_DELETE.exec(path)![1]!);
    else return false;
    return true;
  }
}

/** Requests the clean-up will send for what each check created: one DELETE per mailbox and key. */
export function cleanupByCheck(leftovers: ReadonlyMap<number, WorkspaceLeftovers>): Map<string, number> {
  const out = new Map<string, number>();
  for (const ws of leftovers.values())
    for (const r of ws.resources) if (r.checkId) out.set(r.checkId, (out.get(r.checkId) ?? 0) + 1);
  return out;
}

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
