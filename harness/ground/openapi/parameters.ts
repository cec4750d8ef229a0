import { ANALYTICS_BREAKDOWNS, ANALYTICS_INTERVALS, CAMPAIGN_STATUSES, OAUTH_PROVIDERS } from '../spec-model/schemas/index.ts';
import { marked, type Named, type Reading } from './reading.ts';

// Parameters of an operation: its path parameters, the query parameters of part 4 (under the
// vendor's names where the spec leaves them "not shown") and the Idempotency-Key header.

export type Parameter = Record<string, unknown>;

const PATH_DESCRIPTIONS: Record<string, string> = {
  id: 'resource id (uuid)',
  cid: 'campaign id (uuid)',
  leadId: 'lead id (uuid)',
  provider: 'google or microsoft',
  limitType: 'one of the six limit types of 2.9',
};

export function pathParameters(path: string): Parameter[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_DESCRIPTIONS[name!] ?? name,
    schema: name === 'provider' ? { type: 'string', enum: [...OAUTH_PROVIDERS] } : { type: 'string' },
  }));
}

function query(n: Named, description: string, schema: Record<string, unknown>, required = false): Parameter {
  return { name: n.name, in: 'query', required, description, schema, ...marked(n.declared) };
}

/** Cursor pagination of 4.1: every list endpoint. */
export function pageParameters(r: Reading): Parameter[] {
  return [
    query(r.names.cursor, 'the opaque meta.nextCursor of the previous page; omit it for the first page', { type: 'string' }),
    query(r.names.pageSize, 'page size', { type: 'integer', minimum: 1, maximum: 100, examples: [50] }),
  ];
}

function windowParameters(r: Reading): Parameter[] {
  return [
    query(r.names.start, 'window start (ISO 8601; from the start of its day in the workspace timezone)', { type: 'string' }),
    query(r.names.end, 'window end (ISO 8601; inclusive through the end of its day; defaults to now)', { type: 'string' }),
    query(r.names.excludeOutOfOffice, 'leave out-of-office auto-replies out of reply counts and the reply rate', { type: 'boolean' }),
  ];
}

const stated = (name: string, description: string, schema: Record<string, unknown>, extra: Record<string, unknown> = {}): Parameter => ({
  name, in: 'query', required: false, description, schema, ...extra,
});

/** Query parameters of the spec's endpoints beyond pagination (4.3, 4.4, 4.6), by endpoint id. */
const QUERY: Record<string, (r: Reading) => Parameter[]> = {
  'campaigns.list': (r) => [
    query(r.names.status, 'one campaign status', { type: 'string', enum: [...CAMPAIGN_STATUSES] }),
    query(r.names.tags, 'tag ids, comma-separated: campaigns with at least one of them', { type: 'string' }),
  ],
  'leads.search': (r) => [query(r.names.leadsSearch, 'an email or a fragment of one, case-insensitive', { type: 'string' }, true)],
  'analytics.campaign': (r) => [
    ...windowParameters(r),
    stated('breakdown', 'breakdowns to add (repeat the parameter or comma-separate)', { type: 'array', items: { type: 'string', enum: [...ANALYTICS_BREAKDOWNS] } }, { style: 'form', explode: true }),
  ],
  'analytics.timeseries': (r) => [...windowParameters(r), stated('interval', 'the interval asked for', { type: 'string', enum: [...ANALYTICS_INTERVALS] })],
  'analytics.overview': windowParameters,
  'accounts.oauthStatus': (r) => [query(r.names.oauthState, 'the `state` the init answer gave', { type: 'string' }, true)],
};

export function queryParameters(id: string, list: boolean, r: Reading): Parameter[] {
  return [...(list ? pageParameters(r) : []), ...(QUERY[id]?.(r) ?? [])];
}

export const IDEMPOTENCY_KEY: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'replays the first answer to a retried request (4.1)',
  schema: { type: 'string', maxLength: 255 },
};
