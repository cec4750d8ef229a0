import { randomUUID } from 'node:crypto';
import type { ApiRequest } from '../../harness/ground/api-client.ts';
import type { Profile } from '../../harness/ground/profile-schema.ts';
import type { Endpoint } from '../../harness/ground/spec-model/endpoints.ts';
import { fillPath } from '../../harness/ground/operations.ts';

/** A refusal that the placeholder itself provokes on a route the key may call (part 7 table). */
export interface Explained {
  status: number;
  code: string;
  /** Why the placeholder earns it, for failure messages. */
  why: string;
}

/** A placeholder request and the only refusals (besides 2xx) it can earn where the key is authorised. */
export interface PlaceholderRequest extends ApiRequest {
  explains: readonly Explained[];
}

const ABSENT: Explained = { status: 404, code: 'not_found', why: 'its placeholder id names nothing' };
const EMPTY_BODY: Explained = { status: 400, code: 'validation_failed', why: 'its placeholder body is empty' };
const UNKNOWN_STATE: Explained[] = [
  { status: 404, code: 'not_found', why: 'its placeholder OAuth state names no flow' },
  { status: 400, code: 'validation_failed', why: 'its placeholder OAuth state was never issued' },
];

/**
 * A request to any catalog endpoint with placeholder parameters: ids are fresh UUIDs (absent from
 * every workspace), a provider is "google", a limitType "monthly_emails", an OAuth state a fresh
 * UUID. Used where only the route matters (401 and 403 checks): no request built here can change
 * state. `explains` says what the placeholder provokes on an authorised call: 404 not_found when a
 * path id names nothing, 400 validation_failed when an empty body is sent; any other refusal (and
 * any 5xx) is the target's fault. Returns undefined for a referenced operation the profile does
 * not declare.
 */
export function placeholderRequest(ep: Endpoint, profile: Profile, params: Record<string, string> = {}): PlaceholderRequest | undefined {
  const op = ep.referenced ? profile.operations[ep.referenced] : undefined;
  const template = ep.path ?? op?.path;
  if (!template) return undefined;
  const method = (op?.method ?? ep.method) as ApiRequest['method'];
  const explains: Explained[] = [];
  const filled = fillPath(
    template,
    new Proxy(params, {
      get: (t, k: string) => {
        if (t[k] !== undefined) return t[k];
        const p = placeholder(k);
        if (p.absent && !explains.includes(ABSENT)) explains.push(ABSENT);
        return p.value;
      },
    }),
  );
  const req: PlaceholderRequest = { method, path: filled, explains };
  if (ep.id === 'leads.search') req.query = { [profile.names.leadsSearchParam]: 'nobody@example.invalid' };
  // 4.6 states a default for the window's end only: a target may require the start. Any recent day will do.
  if (ep.id.startsWith('analytics.')) req.query = { [profile.names.analytics.start]: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10) };
  if (ep.id === 'accounts.oauthStatus') {
    req.query = { [profile.names.oauthStatusStateParam ?? 'state']: randomUUID() };
    explains.push(...UNKNOWN_STATE.filter((e) => !explains.some((x) => x.status === e.status)));
  }
  // "Resuming a campaign when the workspace has no mailbox" is a workspace condition: a target
  // may refuse it (400, the profile's business-rule code) before it looks the campaign up.
  // Read for that endpoint alone: a failure message names the profile values read.
  const business = ep.id === 'campaigns.resume' ? profile.names.businessRuleErrorCode : undefined;
  if (business)
    explains.push({ status: 400, code: business, why: 'the workspace has no mailbox (a refusal the spec allows before the id is looked up)' });
  if (method !== 'GET' && method !== 'DELETE') {
    req.body = {};
    explains.push(EMPTY_BODY);
  }
  return req;
}

function placeholder(name: string): { value: string; absent: boolean } {
  if (name === 'provider') return { value: 'google', absent: false };
  if (name === 'limitType') return { value: 'monthly_emails', absent: false };
  return { value: randomUUID(), absent: true };
}

/** Is this answer one the placeholder explains (a listed status and code)? */
export function explainedBy(req: PlaceholderRequest, status: number, code: unknown): Explained | undefined {
  return req.explains.find((e) => e.status === status && e.code === code);
}

/** The path of an endpoint (spec path or the profile's path for a referenced operation). */
export function endpointPath(ep: Endpoint, profile: Profile, params: Record<string, string>): string | undefined {
  const template = ep.path ?? (ep.referenced ? profile.operations[ep.referenced]?.path : undefined);
  return template ? fillPath(template, params) : undefined;
}
