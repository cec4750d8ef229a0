// Where the request side of the choices is applied, once for every route (app.ts):
// - the route table with the chosen paths and methods of the referenced operations;
// - query parameters: the target's names -> the names handlers read (unknown ones ignored or refused);
// - body fields of referenced operations and of leads mutate: the target's names -> handler names.
import type { Choices, ReferencedOp } from '../switches/choices.ts';
import type { RouteDef } from './routes.ts';
import { validationFailed } from '../request/errors.ts';

export function chosenRoutes(routes: readonly RouteDef[], c: Choices): RouteDef[] {
  return routes.map((r) => {
    const op = c.operations[r.op as ReferencedOp];
    return op ? { ...r, method: op.method, path: op.path } : r;
  });
}

/** Per route: the query parameters its handler reads, handler name -> the target's name. */
function queryNames(op: string, c: Choices): Record<string, string> {
  const page = { cursor: c.listParams.cursor, limit: c.listParams.pageSize };
  const window = { startDate: c.analyticsParams.start, endDate: c.analyticsParams.end, excludeOutOfOffice: c.analyticsParams.excludeOutOfOffice };
  switch (op) {
    case 'accounts.list': // the mailbox tag filter is `tags` (spec 4.3)
      return { ...page, status: c.listParams.status, tags: 'tags' };
    case 'campaigns.list':
      return { ...page, status: c.listParams.status, tags: c.listParams.tags };
    case 'emails.list':
      return { ...page, campaignId: c.operations['emails.list'].fields?.campaignId ?? 'campaignId', leadId: c.operations['emails.list'].fields?.leadId ?? 'leadId' };
    case 'leads.list':
    case 'apikeys.list':
    case 'leadSearches.list':
      return page;
    case 'leads.search':
      return { email: c.leadsSearchParam };
    case 'analytics.campaign':
      return { ...window, breakdown: 'breakdown' };
    case 'analytics.timeseries':
      return { ...window, interval: 'interval' };
    case 'analytics.overview':
      return window;
    case 'accounts.oauthStatus':
      return { state: c.oauthStatusStateParam };
    default:
      return {};
  }
}

export function queryOf(op: string, query: URLSearchParams, c: Choices): URLSearchParams {
  const byTarget = new Map(Object.entries(queryNames(op, c)).map(([mine, theirs]) => [theirs, mine]));
  const out = new URLSearchParams();
  const unknown: string[] = [];
  for (const [k, v] of query) {
    const mine = byTarget.get(k);
    if (mine !== undefined) out.append(mine, v);
    else if (!unknown.includes(k)) unknown.push(k);
  }
  if (unknown.length > 0 && c.unknownQueryParams === 'refuse') throw validationFailed(unknown.map((k) => `${k}: unknown query parameter`));
  return out;
}

/** Per route: renamed top-level body fields, handler name -> the target's name. */
function bodyNames(op: string, c: Choices): Record<string, string> {
  if (op === 'leads.mutate') return { operation: c.mutateFields.operation, status: c.mutateFields.status };
  return c.operations[op as ReferencedOp]?.fields ?? {};
}

export function bodyOf(op: string, body: unknown, c: Choices): unknown {
  const names = Object.entries(bodyNames(op, c)).filter(([mine, theirs]) => mine !== theirs);
  if (names.length === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const src = body as Record<string, unknown>;
  const out: Record<string, unknown> = { ...src };
  for (const [mine] of names) delete out[mine]; // a handler name the target does not use is not read
  for (const [mine, theirs] of names) {
    delete out[theirs];
    if (theirs in src) out[mine] = src[theirs];
  }
  return out;
}
