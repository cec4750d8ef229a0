// Cursor pagination (spec 4.1): `{ data, meta: { hasMore, nextCursor } }`, newest first.
//
// - Order: created_at DESC, then id DESC (created_at has ms and is unique per instance).
// - Keyset cursors, never offsets: the cursor holds the position (created_at, id) of the last item
//   of the page, so inserts and deletes during a walk neither repeat nor skip the items that
//   exist throughout it.
// - Cursors are opaque: base64url(JSON position) + "." + HMAC-SHA256 (truncated), bound to the
//   list they came from. Garbage, tampered or foreign cursors -> 400 validation_failed.
// - `limit`: integer 1..100, default 50; anything else -> 400 validation_failed.
// - nextCursor: a string when hasMore is true, null when hasMore is false (the spec types it as
//   a string and says it is taken from meta.nextCursor for the next page; there is no next page
//   to point at on the last one). An empty `cursor=` is treated as absent.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { validationFailed } from './errors.ts';
import type { MutantSwitch } from '../switches/mutants.ts';
import type { DB } from '../store/db.ts';
import type { Choices } from '../switches/choices.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface PageQuery<Row> {
  /** Names the list (e.g. "campaigns" or "leads:<campaignId>"); cursors are bound to it. */
  list: string;
  /** Table name; it must have `id` and `created_at` columns. */
  from: string;
  /** SQL condition with `?` placeholders (the keyset part is added), e.g. "org_id = ?". */
  where: string;
  params: unknown[];
  map: (row: Row) => unknown;
}

export interface Page {
  data: unknown[];
  meta: { hasMore: boolean; nextCursor?: string | null };
}

interface Position {
  l: string;
  c?: number;
  i?: string;
  o?: number;
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url').slice(0, 22);
}

export function encodeCursor(key: Buffer, pos: Position): string {
  const payload = Buffer.from(JSON.stringify(pos)).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** Decodes a cursor of `list`; null when it is not one of ours (garbage, tampered, foreign). */
export function decodeCursor(key: Buffer, cursor: string, list: string): Position | null {
  const dot = cursor.indexOf('.');
  if (dot <= 0) return null;
  const payload = cursor.slice(0, dot);
  const sig = Buffer.from(cursor.slice(dot + 1));
  const want = Buffer.from(sign(key, payload));
  if (sig.length !== want.length || !timingSafeEqual(sig, want)) return null;
  try {
    const pos = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Position;
    if (typeof pos !== 'object' || pos === null || pos.l !== list) return null;
    return pos;
  } catch {
    return null;
  }
}

export function parseLimit(query: URLSearchParams, mutant: MutantSwitch, defaultSize = DEFAULT_PAGE_SIZE): number {
  const raw = query.get('limit');
  if (raw === null) return defaultSize;
  if (!/^\d+$/.test(raw)) throw validationFailed(['limit: must be an integer from 1 to 100']);
  const n = Number(raw);
  if (n === 0 && mutant('page-size-0-accepted')) return 0;
  if (n > MAX_PAGE_SIZE && mutant('page-size-101-accepted')) return n;
  if (n === MAX_PAGE_SIZE && mutant('page-size-100-refused')) throw validationFailed(['limit: must be less than 100']); // an exclusive bound
  if (n < 1 || n > MAX_PAGE_SIZE) throw validationFailed(['limit: must be an integer from 1 to 100']);
  return n;
}

export function paginate<Row extends { id: string; created_at: number }>(
  db: DB,
  key: Buffer,
  query: URLSearchParams,
  mutant: MutantSwitch,
  q: PageQuery<Row>,
  choices?: Pick<Choices, 'defaultPageSize'>,
): Page {
  // The mutants answer one referenced list whole, every row and no meta: a handler that never paged it.
  const whole = (q.list === 'accounts' && mutant('page-accounts-list-whole')) || (q.list.startsWith('leads:') && mutant('page-leads-list-whole')) || (q.list === 'api-keys' && mutant('page-apikeys-list-whole'));
  if (whole) return { data: (db.prepare(`SELECT * FROM ${q.from} WHERE (${q.where}) ORDER BY created_at DESC, id DESC`).all(...q.params) as Row[]).map(q.map) } as Page;
  // The campaign-list mutant clamps a page size out of 1..100 instead of refusing it.
  const clamped = q.list === 'campaigns' && mutant('camp-list-pagesize-clamped') && /^\d+$/.test(query.get('limit') ?? '');
  // The campaign-list mutant reads its page size under another name (`per_page`): the declared one is ignored.
  const sizeRenamed = q.list === 'campaigns' && mutant('camp-list-pagesize-param-renamed');
  // The mutants give the mailbox list, or a campaign's lead list, a bound of its own (1000): a size past 100 is taken there.
  const asked = /^\d+$/.test(query.get('limit') ?? '') ? Number(query.get('limit')) : 0;
  const ownBound = asked > MAX_PAGE_SIZE && asked <= 1000 && ((q.list === 'accounts' && mutant('page-size-accounts-list-1000')) || (q.list.startsWith('leads:') && mutant('page-size-leads-list-1000')));
  let size = ownBound ? asked : clamped ? Math.min(MAX_PAGE_SIZE, Math.max(1, Number(query.get('limit')))) : parseLimit(sizeRenamed ? new URLSearchParams() : query, mutant, choices?.defaultPageSize);
  if (mutant('page-limit-ignored')) size = MAX_PAGE_SIZE;
  // The campaign-list mutant reads its cursor under another name (`after`): the declared one is ignored.
  const raw = query.get(q.list === 'campaigns' && mutant('camp-list-cursor-param-renamed') ? 'after' : 'cursor');
  // The campaign-list mutant forgets the page size once a cursor is given.
  if (q.list === 'campaigns' && raw && mutant('camp-list-page-size-first-only')) size = MAX_PAGE_SIZE;
  let pos: Position | null = null;
  if (raw !== null && raw !== '') {
    pos = decodeCursor(key, raw, q.list);
    if (pos === null) {
      if (!mutant('page-garbage-cursor-first-page')) throw validationFailed(['cursor: invalid or expired cursor']);
    }
  }
  // The second mutant pages the campaign list alone by offset (each list its own query).
  const offsetMode = mutant('page-offset-cursor') || (q.list === 'campaigns' && mutant('camp-list-offset-cursor'));
  const asc = mutant('page-oldest-first');
  const dir = asc ? 'ASC' : 'DESC';
  const cmp = asc ? '>' : '<';
  const params: unknown[] = [...q.params];
  let where = `(${q.where})`;
  let offset = 0;
  if (offsetMode) {
    offset = pos && typeof pos.o === 'number' ? pos.o : 0;
  } else if (pos && typeof pos.c === 'number' && typeof pos.i === 'string') {
    const idCmp = mutant('page-cursor-inclusive') ? `${cmp}=` : cmp;
    where += ` AND (created_at ${cmp} ? OR (created_at = ? AND id ${idCmp} ?))`;
    params.push(pos.c, pos.c, pos.i);
  }
  const sql = `SELECT * FROM ${q.from} WHERE ${where} ORDER BY created_at ${dir}, id ${dir} LIMIT ? OFFSET ?`;
  const rows = db.prepare(sql).all(...params, size + 1, offset) as Row[];
  let hasMore = rows.length > size;
  const pageRows = rows.slice(0, size);
  const last = pageRows[pageRows.length - 1];
  let nextCursor: string | null = null;
  const cursorAfter = (): string =>
    offsetMode
      ? encodeCursor(key, { l: q.list, o: offset + pageRows.length })
      : encodeCursor(key, last ? { l: q.list, c: last.created_at, i: last.id } : { l: q.list, c: asc ? 8.64e15 : 0, i: '' });
  if (mutant('page-hasmore-always-true')) hasMore = true;
  // Without a look-ahead row: a full page says there is more, even when it is the last.
  if (mutant('page-hasmore-by-full-page')) hasMore = pageRows.length === size;
  // The second mutant: the campaign list alone (its own query) has no look-ahead row.
  if (q.list === 'campaigns' && mutant('camp-list-hasmore-by-full-page')) hasMore = pageRows.length === size;
  if (hasMore && !mutant('page-nextcursor-null')) nextCursor = cursorAfter();
  // The last page has no nextCursor: part 2 uses null only where stated, and 4.1 types it a string.
  if (nextCursor === null && !mutant('page-last-cursor-null')) return { data: pageRows.map(q.map), meta: { hasMore } };
  return { data: pageRows.map(q.map), meta: { hasMore, nextCursor } };
}
