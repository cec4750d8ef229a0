import type { ApiResponse } from '../../client/index.ts';
import type { Findings } from './findings.ts';
import type { Wire } from './wire.ts';
import { isObject, uniquePath } from './answer-paths.ts';

// Referenced operations that answer a plain GET with no id: tried at conventional paths, kept
// only where a path answers 200 with the shape the operation must have (an array of items; a
// subscription's plan and limits). Nothing is created; a 404 moves on to the next path.

/** Conventional paths per operation, in the order tried (README, "init"). */
export const GET_OPERATION_PATHS = {
  'apikeys.list': ['/v1/api-keys', '/v1/keys', '/v1/apikeys', '/v1/api_keys'],
  'accounts.list': ['/v1/accounts', '/v1/mailboxes'],
  'usage.all': ['/v1/usage'],
  'subscription.get': ['/v1/account/subscription', '/v1/subscription'],
  'emails.list': ['/v1/emails', '/v1/inbox', '/v1/messages'],
} as const;
type GetOperation = keyof typeof GET_OPERATION_PATHS;

/** The one top-level field of an answer that holds an array: where the items sit. */
function itemsPath(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const arrays = Object.entries(body).filter(([, v]) => Array.isArray(v));
  return arrays.length === 1 ? arrays[0]![0] : undefined;
}

/** What a 200 answer proves of the operation, or undefined when it is not the operation's shape. */
function shapeOf(id: GetOperation, res: ApiResponse): Record<string, string> | undefined {
  if (id === 'subscription.get') {
    const plan = uniquePath(res.body, 'plan', (v) => typeof v === 'string');
    const limits = uniquePath(res.body, 'limits', isObject);
    return plan && limits ? { plan, limits } : undefined;
  }
  const items = itemsPath(res.body);
  return items ? { items } : undefined;
}

/** Finds each GET operation; returns the paths found (apikeys.list is where init lists keys). */
export async function probeGetOperations(wire: Wire, findings: Findings): Promise<Partial<Record<GetOperation, string>>> {
  const found: Partial<Record<GetOperation, string>> = {};
  for (const [id, paths] of Object.entries(GET_OPERATION_PATHS) as [GetOperation, readonly string[]][]) {
    const at = `/operations/${id}`;
    let hit: { path: string; res: ApiResponse; result: Record<string, string> } | undefined;
    const answers: string[] = [];
    for (const path of paths) {
      const res = await wire.get(path);
      const result = res.status === 200 ? shapeOf(id, res) : undefined;
      if (result) {
        hit = { path, res, result };
        break;
      }
      answers.push(`${path} ${res.status}${res.status === 200 ? ' of another shape' : ''}`);
    }
    if (!hit) {
      findings.notFound(`${at}/path`, `no 200 answer of its shape (GET ${answers.join(', ')})`);
      continue;
    }
    found[id] = hit.path;
    findings.observe(`${at}/method`, 'GET');
    findings.observe(`${at}/path`, hit.path);
    // A paginated answer carries meta.hasMore (spec 4.1): that is what makes it a list.
    if (typeof hit.res.body?.meta?.hasMore === 'boolean') findings.observe(`${at}/list`, true);
    for (const [logical, path] of Object.entries(hit.result)) findings.observe(`${at}/result/${logical}`, path);
    if (id === 'emails.list') findings.notFound(`${at}/fields`, 'its filter parameter names need emails to filter: init sends none');
  }
  return found;
}
