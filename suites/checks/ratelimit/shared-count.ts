import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check } from '../../../harness/ground/check.ts';
import { fail, msg } from '../../../harness/ground/check.ts';
import { is2xx } from '../../lib/expect.ts';
import { PROBE, remaining as remainingOf } from './ratelimit.ts';

// Part 8 "120 requests per 60 seconds, per workspace, shared by all keys of the workspace" and
// "header X-RateLimit-Remaining", read from the header alone, in a few requests: the cheap proof
// a small depth can afford, where the rate-limit check itself needs a whole window of requests.
//
// In a workspace nobody else uses meanwhile, its two keys take turns, and between two turns one
// request goes to another workspace. What remains of the workspace's window then falls by one
// per request of the workspace, whichever key sent it, and not at all for the other workspace's
// request. It may rise (the spec does not say whether the window slides or is fixed: earlier
// requests leave it, or a new window begins), so only a fall by more than one is a fault: a
// count per key (the other key's count is another number) or one shared with other workspaces.

const TURNS = 4;

function remaining(res: ApiResponse): number {
  return remainingOf(res) ?? fail(msg`an answer carries X-RateLimit-Remaining ${JSON.stringify(res.headers['x-ratelimit-remaining'])}; it must be a whole number`, res);
}

async function read(api: ApiClient): Promise<ApiResponse> {
  const res = await api.request({ method: 'GET', path: PROBE });
  if (!is2xx(res)) fail(msg`GET ${PROBE} answered ${res.status}`, res);
  return res;
}

export const RATE_SHARED_COUNT_CHECKS: Check[] = [
  {
    id: 'RATE-REMAINING/counts-the-workspace',
    title: "MUST count X-RateLimit-Remaining per workspace: one fewer per request of the workspace whichever of its keys sent it, none fewer for another workspace's",
    clauses: ['RATE-SHARED-KEYS', 'RATE-PER-WORKSPACE', 'RATE-REMAINING-HEADER'],
    level: 'MUST',
    features: ['exclusiveWorkspace', 'twoWorkspaces', 'op:apikeys.create'],
    budget: 10,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      const other = await ctx.workspace();
      const second = await ws.createKey(['usage:read']);
      const keys = [ws.api, second.client];
      let last: ApiResponse | undefined;
      for (let turn = 0; turn < TURNS; turn++) {
        if (last) await read(other.api);
        const res = await read(keys[turn % 2]!);
        if (last && remaining(res) < remaining(last) - 1) {
          fail(
            msg`X-RateLimit-Remaining fell from ${remaining(last)} to ${remaining(res)} over one request of this workspace (sent with its other key; one request to another workspace went between): it must count the workspace's requests, whichever key sent them, and no other workspace's`,
            last,
            res,
          );
        }
        last = res;
      }
    },
  },
];
