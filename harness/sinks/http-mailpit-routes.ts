// Mailpit's API v1, the read subset, under /api/v1 (list, search, get one incl. `latest`,
// headers, raw, parts, read flags, delete, info), its /view/ID.html|txt pages and its /livez and
// /readyz probes: a client
// written for Mailpit reads the sink. One entry per route; each handler takes the Mailpit state.
import { bindRoutes, HttpError, messageOr404, objectBody, send, type Ctx, type Route, type RouteTable } from './http-route.ts';
import { appInformation, fullMessage, headersObject, markRead, messagesSummary, parseQuery, partOf, searchMatches, SearchError, setRead } from './mailpit-compat.ts';
import type { StoredMessage } from './message.ts';
import type { SinkInternals } from './sink-types.ts';
import { KIT } from '../ground/kit.ts';

/** What the Mailpit routes share: the sink, and what Mailpit's info reports (start time, messages deleted). */
interface MailpitState {
  sink: SinkInternals;
  startedAt: number;
  deleted: number;
}

const TEXT = 'text/plain; charset=utf-8';

const MAILPIT_ROUTES: RouteTable<MailpitState> = [
  ['GET', /^\/api\/v1\/messages$/, listMessages],
  ['DELETE', /^\/api\/v1\/messages$/, deleteMessages],
  ['GET', /^\/api\/v1\/search$/, search],
  ['GET', /^\/api\/v1\/message\/([^/]+)$/, getMessage],
  ['GET', /^\/api\/v1\/message\/([^/]+)\/headers$/, getHeaders],
  ['GET', /^\/api\/v1\/message\/([^/]+)\/raw$/, getRaw],
  ['GET', /^\/api\/v1\/info$/, getInfo],
  ['PUT', /^\/api\/v1\/messages$/, setReadFlags],
  ['DELETE', /^\/api\/v1\/search$/, deleteSearch],
  ['GET', /^\/api\/v1\/message\/([^/]+)\/part\/([^/]+)$/, getPart],
  ['GET', /^\/view\/([^/]+)\.(html|txt)$/, view],
  ['GET', /^\/livez$/, probe],
  ['GET', /^\/readyz$/, probe],
];

/** Mailpit's liveness and readiness probes: 200 and no body. The routes exist only while the sink runs, so both hold. */
async function probe(_st: MailpitState, { res }: Ctx): Promise<void> {
  send(res, 200, '', TEXT);
}

/** The Mailpit-compatible routes over one sink (their deleted count starts at 0). */
export function mailpitRoutes(sink: SinkInternals): Route[] {
  return bindRoutes(MAILPIT_ROUTES, { sink, startedAt: Date.now(), deleted: 0 });
}

async function listMessages({ sink }: MailpitState, { res, url }: Ctx): Promise<void> {
  const { start, limit } = paging(url);
  const all = sink.messages();
  send(res, 200, await messagesSummary(all, all, start, limit));
}

/** Deletes the messages `IDs` names, or all of them. */
async function deleteMessages(st: MailpitState, ctx: Ctx): Promise<void> {
  const b = (await ctx.body()) as { IDs?: unknown };
  const ids = b && Array.isArray(b.IDs) && b.IDs.length > 0 ? b.IDs.map(String) : undefined;
  st.deleted += ids ? ids.filter((id) => st.sink.message(id)).length : st.sink.messages().length;
  st.sink.deleteMessages(ids);
  send(ctx.res, 200, 'ok', TEXT);
}

async function search({ sink }: MailpitState, { res, url }: Ctx): Promise<void> {
  const query = url.searchParams.get('query');
  if (!query) throw new HttpError(400, 'query is required');
  const { start, limit } = paging(url);
  send(res, 200, await messagesSummary(sink.messages(), await searched(sink, query), start, limit));
}

/** One message in full; reading it marks it read, as in Mailpit. */
async function getMessage({ sink }: MailpitState, { res, params }: Ctx): Promise<void> {
  const m = messageOr404(sink, params[0]!);
  markRead(m);
  send(res, 200, await fullMessage(m));
}

async function getHeaders({ sink }: MailpitState, { res, params }: Ctx): Promise<void> {
  send(res, 200, headersObject(messageOr404(sink, params[0]!)));
}

async function getRaw({ sink }: MailpitState, { res, params }: Ctx): Promise<void> {
  send(res, 200, messageOr404(sink, params[0]!).raw, TEXT);
}

async function getInfo({ sink, deleted, startedAt }: MailpitState, { res }: Ctx): Promise<void> {
  const attempts = sink.attempts();
  send(res, 200, appInformation({ version: `${KIT.name} sink ${KIT.version}`, messages: sink.messages(), accepted: attempts.filter((a) => a.outcome === 'accepted'), rejected: attempts.filter((a) => a.outcome === 'rejected').length, deleted, startedAt }));
}

/** Marks read or unread the messages `IDs` names, else those `Search` finds, else all of them. */
async function setReadFlags({ sink }: MailpitState, ctx: Ctx): Promise<void> {
  const b = await objectBody(ctx);
  if (b.Read !== undefined && typeof b.Read !== 'boolean') throw new HttpError(400, 'Read: expected a boolean');
  if (b.IDs !== undefined && !Array.isArray(b.IDs)) throw new HttpError(400, 'IDs: expected an array of message IDs');
  if (b.Search !== undefined && typeof b.Search !== 'string') throw new HttpError(400, 'Search: expected a search string');
  const ids = Array.isArray(b.IDs) && b.IDs.length ? b.IDs.map(String) : undefined;
  const targets = ids ? ids.map((id) => messageOr404(sink, id)) : b.Search ? await searched(sink, b.Search as string) : sink.messages();
  for (const m of targets) setRead(m, b.Read === true);
  send(ctx.res, 200, 'ok', TEXT);
}

/** Deletes the messages a search finds. */
async function deleteSearch(st: MailpitState, { res, url }: Ctx): Promise<void> {
  const query = url.searchParams.get('query');
  if (!query) throw new HttpError(400, 'query is required');
  const ids = (await searched(st.sink, query)).map((m) => m.id);
  if (ids.length) st.sink.deleteMessages(ids);
  st.deleted += ids.length;
  send(res, 200, 'ok', TEXT);
}

async function getPart({ sink }: MailpitState, { res, params }: Ctx): Promise<void> {
  const part = await partOf(messageOr404(sink, params[0]!), params[1]!);
  if (!part) throw new HttpError(404, `message ${params[0]} has no part ${params[1]}`);
  send(res, 200, part.content, part.contentType);
}

/** /view/ID.html or /view/ID.txt: the message's HTML or text body as a page. */
async function view({ sink }: MailpitState, { res, params }: Ctx): Promise<void> {
  const p = await messageOr404(sink, params[0]!).parsed();
  const body = params[1] === 'html' ? p.html : p.text;
  if (body === null) throw new HttpError(404, `message ${params[0]} has no ${params[1] === 'html' ? 'HTML' : 'text'} part`);
  send(res, 200, body, params[1] === 'html' ? 'text/html; charset=utf-8' : TEXT);
}

/** The messages a Mailpit search names (400 naming a filter the sink cannot answer). */
async function searched(sink: SinkInternals, query: string): Promise<StoredMessage[]> {
  let terms;
  try {
    terms = parseQuery(query);
  } catch (e) {
    if (e instanceof SearchError) throw new HttpError(400, e.message);
    throw e;
  }
  const all = sink.messages();
  const hits = await Promise.all(all.map((m) => searchMatches(m, terms)));
  return all.filter((_, i) => hits[i]);
}

function paging(url: URL): { start: number; limit: number } {
  const start = Number(url.searchParams.get('start') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 50);
  if (!Number.isInteger(start) || start < 0) throw new HttpError(400, 'start: expected a non-negative integer');
  if (!Number.isInteger(limit) || limit < 0) throw new HttpError(400, 'limit: expected a non-negative integer');
  return { start, limit: limit === 0 ? 50 : limit };
}
