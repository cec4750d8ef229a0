// Lead Finder searches (spec 2.8, 3.4, 4.7). Fed by the control API (POST /lead-searches,
// POST /lead-searches/{id}/advance). Drafts (in-progress chat drafts) are not listed.
import { ok, type Ctx, type Handler } from '../request/context.ts';
import { isoOf } from '../domain/clock.ts';
import { notFound } from '../request/errors.ts';
import type { DB } from '../store/db.ts';

export interface LeadSearchRow {
  id: string; org_id: string; query: string; status: string; search_mode: string; max_results: number;
  discovery_finished: number; progress: string; error_message: string | null; completed_at: number | null;
  created_at: number; updated_at: number;
}

export const LEAD_SEARCH_STATUSES = ['draft', 'queued', 'discovering', 'processing', 'crawling', 'enriching', 'verifying', 'completed', 'stopped', 'failed'] as const;
export const TERMINAL_SEARCH_STATUSES = ['completed', 'stopped', 'failed'];

export function leadSearchView(r: LeadSearchRow) {
  return {
    id: r.id,
    query: r.query,
    status: r.status,
    searchMode: r.search_mode,
    maxResults: r.max_results,
    discoveryFinished: r.discovery_finished === 1,
    progress: JSON.parse(r.progress),
    createdAt: isoOf(r.created_at),
    updatedAt: isoOf(r.updated_at),
    errorMessage: r.error_message,
    completedAt: isoOf(r.completed_at),
  };
}

export const loadLeadSearch = (db: DB, id: string) =>
  db.prepare('SELECT * FROM lead_searches WHERE id = ?').get(id) as LeadSearchRow | undefined;

export const list: Handler = async (ctx) =>
  ok(
    ctx.page<LeadSearchRow>({
      list: 'lead-searches',
      from: 'lead_searches',
      where: `${ctx.mutant('tenant-lead-searches-list-leak') ? '? IS NOT NULL' : 'org_id = ?'}${ctx.mutant('lf-draft-listed') ? '' : " AND status <> 'draft'"}`,
      params: [ctx.workspace.id],
      map: (r) => ({ id: r.id, query: r.query, status: r.status, searchMode: r.search_mode, maxResults: r.max_results, createdAt: isoOf(r.created_at), completedAt: isoOf(r.completed_at) }),
    }),
  );

export const get: Handler = async (ctx) => {
  const r = loadLeadSearch(ctx.db, ctx.params.id!);
  if (!r || (r.org_id !== ctx.workspace.id && !ctx.mutant('tenant-lead-search-get-leak'))) throw notFound('No lead search with this id in the workspace.');
  return ok(shownSearch(ctx, leadSearchView(r)));
};

/** A lead search as GET answers it (where the mutants of 2.8's field types switch). */
function shownSearch(ctx: Ctx, view: ReturnType<typeof leadSearchView>): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...view };
  if (ctx.mutant('lf-progress-strings')) shown.progress = Object.fromEntries(Object.entries(view.progress as object).map(([k, n]) => [k, String(n)]));
  if (ctx.mutant('lf-searchmode-person')) shown.searchMode = view.searchMode === 'people' ? 'person' : 'company';
  if (ctx.mutant('lf-maxresults-string')) shown.maxResults = String(view.maxResults);
  if (ctx.mutant('lf-errormessage-empty') && view.errorMessage === null) shown.errorMessage = '';
  if (ctx.mutant('lf-stopped-errormessage') && view.status === 'stopped') shown.errorMessage = 'Stopped by user.';
  if (ctx.mutant('lf-timestamps-epoch')) [shown.createdAt, shown.updatedAt] = [Date.parse(view.createdAt!), Date.parse(view.updatedAt!)];
  if (ctx.mutant('lf-discoveryfinished-number')) shown.discoveryFinished = view.discoveryFinished ? 1 : 0;
  if (ctx.mutant('lf-status-uppercase')) shown.status = view.status.toUpperCase();
  if (ctx.mutant('lf-completedat-while-running') && view.completedAt === null) shown.completedAt = view.createdAt;
  return shown;
}
