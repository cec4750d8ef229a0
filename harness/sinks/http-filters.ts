// The kit API's filters as query parameters or JSON fields (GET /sink/v1/messages, /attempts,
// POST /sink/v1/wait): each value checked, 400 naming the parameter when it is not understood.
import { HttpError } from './http-route.ts';
import type { AttemptFilter, MessageFilter } from './types.ts';

const str = (v: string | null) => (v === null || v === '' ? undefined : v);

function sinceParam(v: string | null): number | undefined {
  if (!v) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(n)) throw new HttpError(400, `since: expected ms since epoch or an ISO date, got ${JSON.stringify(v)}`);
  return n;
}

function boolParam(v: string | null, name: string): boolean | undefined {
  if (v === null || v === '') return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new HttpError(400, `${name}: expected true or false`);
}

function clean<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A parameter's value as a string (null: absent), from a query string or a JSON object alike. */
function paramsOf(q: URLSearchParams | Record<string, unknown>): (k: string) => string | null {
  return (k) => (q instanceof URLSearchParams ? q.get(k) : q[k] === undefined || q[k] === null ? null : String(q[k]));
}

export function messageFilterFrom(q: URLSearchParams | Record<string, unknown>): MessageFilter {
  const get = paramsOf(q);
  return clean({
    id: str(get('id')),
    to: str(get('to')),
    from: str(get('from')),
    user: str(get('user')),
    subject: str(get('subject')),
    messageId: str(get('messageId')),
    inReplyTo: str(get('inReplyTo')),
    since: sinceParam(get('since')),
    injected: boolParam(get('injected'), 'injected'),
  });
}

export function attemptFilterFrom(q: URLSearchParams | Record<string, unknown>): AttemptFilter {
  const get = paramsOf(q);
  const kind = str(get('kind'));
  if (kind && kind !== 'auth' && kind !== 'mail') throw new HttpError(400, 'kind: expected auth or mail');
  const outcome = str(get('outcome'));
  if (outcome && !['accepted', 'rejected', 'dropped', 'aborted', 'open'].includes(outcome)) throw new HttpError(400, 'outcome: expected accepted, rejected, dropped, aborted or open');
  const stage = str(get('stage'));
  if (stage && !['AUTH', 'MAIL', 'RCPT', 'DATA'].includes(stage)) throw new HttpError(400, 'stage: expected AUTH, MAIL, RCPT or DATA');
  const code = str(get('code'));
  if (code && !/^\d{3}$/.test(code)) throw new HttpError(400, 'code: expected a 3-digit reply code');
  return clean({
    kind: kind as AttemptFilter['kind'],
    outcome: outcome as AttemptFilter['outcome'],
    stage: stage as AttemptFilter['stage'],
    user: str(get('user')),
    from: str(get('from')),
    to: str(get('to')),
    since: sinceParam(get('since')),
    code: code ? Number(code) : undefined,
  });
}
