// Helpers shared by the resource modules: workspace-scoped loading, tags, tag filters.
import type { Ctx } from './context.ts';
import type { DB } from '../store/db.ts';
import { ApiError, notFound, validationFailed } from './errors.ts';
import { isUuid } from './validate.ts';

export interface Tag { id: string; name: string; color: string }

/**
 * Loads `table` row `id` of the caller's workspace or throws 404 not_found. Every by-id load of a
 * workspace resource goes through here (the tenant-isolation mutant is switched here).
 */
export function loadOwned<Row>(ctx: Ctx, table: string, id: string, what: string, extraWhere = '', extraParams: unknown[] = []): Row {
  // The other mutant: only the emails' store forgets the workspace (a message table keyed by id alone).
  const scoped = !ctx.mutant('tenant-isolation-broken') && !(table === 'emails' && ctx.mutant('email-other-workspace-found'));
  const sql = `SELECT * FROM ${table} WHERE id = ? ${scoped ? 'AND org_id = ?' : ''} ${extraWhere}`;
  const row = ctx.db.prepare(sql).get(...(scoped ? [id, ctx.workspace.id] : [id]), ...extraParams) as Row | undefined;
  // The mutant gives the lead and email handlers a not-found code of their own (mailboxes, campaigns, lead searches right).
  if (!row && (what === 'lead' || what === 'email') && ctx.mutant('err-404-resource-codes')) throw new ApiError(404, `${what}_not_found`, `No ${what} with id ${id}.`);
  if (!row && what === 'email' && ctx.mutant('email-404-own-code')) throw new ApiError(404, 'email_not_found', `No email with id ${id}.`);
  if (!row) throw notFound(`No ${what} with id ${id} in this workspace.`);
  return row;
}

/** Tags linked through `linkTable` (campaign_tags / account_tags). */
export function tagsOf(db: DB, linkTable: 'campaign_tags' | 'account_tags', ownerCol: 'campaign_id' | 'account_id', ownerId: string): Tag[] {
  return db
    .prepare(`SELECT t.id, t.name, t.color FROM ${linkTable} l JOIN tags t ON t.id = l.tag_id WHERE l.${ownerCol} = ? ORDER BY t.created_at, t.id`)
    .all(ownerId) as Tag[];
}

/** `tags` query filter: comma-separated tag ids (items with at least one of them). */
export function tagFilter(query: URLSearchParams): string[] | null {
  const raw = query.getAll('tags').flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  if (query.getAll('tags').length === 0) return null;
  const bad = raw.filter((t) => !isUuid(t));
  if (bad.length > 0) throw validationFailed([`tags: not tag ids: ${bad.join(', ')}`]);
  if (raw.length === 0) throw validationFailed(['tags: give at least one tag id']);
  return raw;
}

/** Very small HTML sanitizer for signatures: drops scripts, event handlers and javascript: URLs. */
export function sanitizeHtml(html: string): string {
  return html
    .replace(/<\s*(script|style|iframe|object|embed)[^>]*>[\s\S]*?<\s*\/\s*\1\s*>/gi, '')
    .replace(/<\s*(script|style|iframe|object|embed)[^>]*\/?>/gi, '')
    .replace(/\son[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
    .replace(/(href|src)\s*=\s*("|')\s*javascript:[^"']*\2/gi, '$1="#"');
}
