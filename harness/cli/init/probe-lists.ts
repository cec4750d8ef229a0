import { randomUUID } from 'node:crypto';
import type { ApiResponse, Query } from '../../client/index.ts';
import type { Findings } from './findings.ts';
import type { Wire } from './wire.ts';

// List query parameter names, each tried from a list of common conventions and kept only when
// the answers prove it: a page size of 1 obeyed on a list of at least two, a cursor that moves
// to another item, a status filter and a tag filter that refuse a malformed value (400) where
// they take a well-formed one. A name the target ignores, or refuses as unknown, proves nothing.

/** The conventions tried, in order (README, "init"). */
export const LIST_PARAM_CANDIDATES = {
  pageSize: ['limit', 'pageSize', 'page_size', 'per_page', 'perPage', 'size', 'count', 'maxResults', 'max_results'],
  cursor: ['cursor', 'after', 'page_token', 'pageToken', 'next', 'nextCursor', 'next_cursor', 'starting_after', 'continuation', 'token'],
  status: ['status', 'state', 'filter_status', 'statuses', 'campaign_status'],
  tags: ['tags', 'tag_ids', 'tagIds', 'tag', 'tag_id'],
} as const;

const ok = (r: ApiResponse) => r.status >= 200 && r.status < 300;
const items = (r: ApiResponse): { id?: unknown; status?: unknown }[] | undefined => (Array.isArray(r.body?.data) ? r.body.data : undefined);

async function firstProven<T>(names: readonly string[], proves: (name: string) => Promise<T | undefined>): Promise<{ name: string; proof: T } | undefined> {
  for (const name of names) {
    const proof = await proves(name);
    if (proof !== undefined) return { name, proof };
  }
  return undefined;
}

/** Page size and cursor, on a list that holds at least two items (the API keys, one of them init's). */
export async function probePaging(wire: Wire, findings: Findings, listPath: string | undefined): Promise<void> {
  const whole = listPath ? await wire.get(listPath) : undefined;
  if (!whole || !ok(whole) || (items(whole)?.length ?? 0) < 2) {
    const why = listPath ? `the API keys list (${listPath}) did not show two keys to page through` : 'init found no API keys list to page through';
    for (const f of ['pageSize', 'cursor']) findings.notFound(`/names/list/${f}`, why);
    return;
  }
  const get = (q: Query) => wire.get(listPath!, q);
  const size = await firstProven(LIST_PARAM_CANDIDATES.pageSize, async (name) => {
    const r = await get({ [name]: 1 });
    const page = items(r);
    return ok(r) && page?.length === 1 && typeof r.body?.meta?.nextCursor === 'string' ? { first: page[0]!.id, next: r.body.meta.nextCursor as string } : undefined;
  });
  if (!size) {
    findings.notFound('/names/list/pageSize', `no name made a page of 1 (tried ${LIST_PARAM_CANDIDATES.pageSize.join(', ')})`);
    findings.notFound('/names/list/cursor', 'a cursor is proven on pages of 1, and no page size name was');
    return;
  }
  findings.observe('/names/list/pageSize', size.name);
  const cursor = await firstProven(LIST_PARAM_CANDIDATES.cursor, async (name) => {
    const r = await get({ [size.name]: 1, [name]: size.proof.next });
    const page = items(r);
    return ok(r) && page?.length === 1 && page[0]!.id !== size.proof.first ? true : undefined;
  });
  if (cursor) findings.observe('/names/list/cursor', cursor.name);
  else findings.notFound('/names/list/cursor', `no name moved to the next page (tried ${LIST_PARAM_CANDIDATES.cursor.join(', ')})`);
}

/** Status and tag filters of GET /v1/campaigns: a malformed value refused, a well-formed one taken. */
export async function probeFilters(wire: Wire, findings: Findings): Promise<void> {
  const filters = [
    { field: 'status', bad: 'not-a-status', good: 'draft', holds: (r: ApiResponse) => items(r)?.every((c) => c.status === 'draft') === true },
    { field: 'tags', bad: 'not-a-tag-id', good: randomUUID(), holds: (r: ApiResponse) => items(r)?.length === 0 },
  ] as const;
  for (const f of filters) {
    const found = await firstProven(LIST_PARAM_CANDIDATES[f.field], async (name) => {
      const refused = await wire.get('/v1/campaigns', { [name]: f.bad });
      if (refused.status !== 400) return undefined;
      const taken = await wire.get('/v1/campaigns', { [name]: f.good });
      return ok(taken) && f.holds(taken) ? true : undefined;
    });
    if (found) findings.observe(`/names/list/${f.field}`, found.name);
    else findings.notFound(`/names/list/${f.field}`, `no name of GET /v1/campaigns refused a malformed ${f.field} value and took a well-formed one (tried ${LIST_PARAM_CANDIDATES[f.field].join(', ')})`);
  }
}
