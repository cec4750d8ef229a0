import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { envelopeProblems, expectThat, is2xx } from '../../lib/expect.ts';

// Part 8: 120 requests per 60 s per workspace, shared by its keys; 429 with Retry-After and
// retryAfter; X-RateLimit-Remaining counts down; other workspaces unaffected; served again
// after Retry-After (the control clock moves on when there is one; otherwise a bounded wait).

export const PROBE = '/v1/workspace';

/** X-RateLimit-Remaining as a whole number; undefined when absent or not one. */
export function remaining(res: ApiResponse): number | undefined {
  const v = res.headers['x-ratelimit-remaining'];
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : undefined;
}

/**
 * Makes sure the workspace's window holds no traffic the check cannot count: one probe, whose
 * X-RateLimit-Remaining shows what the window holds besides it. Where that is exactly what this
 * run sent with the workspace (the kit's budget: `known`), recently enough that none of it leaves
 * the window during the burst, the check counts it instead of waiting. Otherwise it waits out a
 * whole window (another run's traffic, or the header missing). Resolves with the requests of the
 * window so far.
 */
async function emptyWindow(api: ApiClient, limit: number, windowSeconds: number, known?: () => { count: number; oldestAgeMs: number }): Promise<number> {
  const probe = await api.request({ method: 'GET', path: PROBE, rateLimitProbe: true });
  const left = is2xx(probe) ? remaining(probe) : undefined;
  if (left === limit - 1) return 1;
  const ours = known?.(); // the probe included
  if (left !== undefined && ours && left === limit - ours.count && ours.oldestAgeMs <= (windowSeconds * 1000) / 4) return ours.count;
  await new Promise((r) => setTimeout(r, windowSeconds * 1000 + 1000));
  return 0;
}

/**
 * Requests alternating between the keys until the first 429 (at most limit + 5 in one window).
 * The spec does not say whether the window slides or is fixed: on a fixed one the burst may
 * straddle its boundary, which X-RateLimit-Remaining shows by going up. Where real time runs (no
 * control clock holding it still), the count then starts again with the new window, once.
 * Returns the requests served in the window the burst ended in, and what that window held
 * before them: `leading` (the requests before the burst), 0 once a new window began.
 */
export async function burst(keys: ApiClient[], limit: number, leading: number, realTime: boolean): Promise<{ served: ApiResponse[]; limited?: ApiResponse; leading: number }> {
  let served: ApiResponse[] = [];
  let before = leading;
  let restarts = realTime ? 1 : 0;
  for (let i = 0; served.length < limit + 5; i++) {
    const res = await keys[i % 2]!.request({ method: 'GET', path: PROBE, rateLimitProbe: true });
    if (res.status === 429) return { served, limited: res, leading: before };
    if (!is2xx(res)) fail(msg`request ${served.length + before + 1} of the window answered ${res.status}`, res);
    const last = served[served.length - 1];
    const [prev, now] = [last && remaining(last), remaining(res)];
    if (restarts > 0 && prev !== undefined && now !== undefined && now > prev) {
      restarts--;
      served = [];
      before = 0;
    }
    served.push(res);
  }
  return { served, leading: before };
}

export const RATE_LIMIT_CHECKS: Check[] = [
  {
    id: 'RATE-LIMIT/one-workspace-two-keys',
    title: 'MUST serve 120 requests per 60 s per workspace across its keys, then answer 429 with Retry-After; other workspaces unaffected',
    clauses: ['RATE-120-PER-60S', 'RATE-SHARED-KEYS', 'RATE-PER-WORKSPACE', 'RATE-429', 'RATE-REMAINING-HEADER', 'ERR-TABLE-429', 'ERR-RETRYAFTER-429', 'RATE-RECOVERS'],
    level: 'MUST',
    features: ['exclusiveWorkspace', 'twoWorkspaces', 'op:apikeys.create'],
    budget: 130,
    // Alone where there is a control clock: other checks move it, which would slide the window
    // under it. Without one it holds its own workspace and overlaps with the others.
    solo: true,
    async run(ctx) {
      const { requests: limit, windowSeconds } = ctx.profile.rateLimit;
      if (!ctx.control && ctx.depth === 'quick') skip('without the control API the rate-limit check waits out Retry-After in real time: run at --depth default or full');
      const ws = await ctx.workspace({ exclusive: true });
      // The second workspace first: its lease may wait, and the window is counted just before the burst (a count taken
      // earlier would miss what leaves the window meanwhile, a sliding window's earlier traffic leaving mid-burst).
      const other = await ctx.workspace();
      // Without the control API a profile workspace may carry earlier traffic (this run's, counted; another run's, waited out).
      const before = ctx.control ? 0 : await emptyWindow(ws.api, limit, windowSeconds, ws.window?.bind(ws));
      const second = await ws.createKey(['usage:read']); // counts as one request of the window
      const keys = [ws.api, second.client];
      const { served, limited, leading } = await burst(keys, limit, 1 + before, !ctx.control);
      const used = served.length + leading; // + what the window held before the burst (key creation, probe)
      if (!limited) fail(msg`${used} requests within the window were all served; the limit is ${limit} per ${windowSeconds} s`, served[served.length - 1]);
      expectThat(used >= limit, msg`the workspace was limited after ${used} requests; the limit is ${limit} per ${windowSeconds} s`, limited);
      expectThat(used <= limit, msg`the workspace served ${used} requests before the first 429; the limit is ${limit}`, limited);
      // X-RateLimit-Remaining counts down by one per request, whichever key sent it.
      const counts = served.map(remaining);
      const missing = counts.findIndex((c) => c === undefined);
      if (missing >= 0) fail(msg`a served response carries no X-RateLimit-Remaining header`, served[missing]);
      for (let i = 1; i < counts.length; i++)
        if (counts[i] !== counts[i - 1]! - 1) fail(msg`X-RateLimit-Remaining went from ${counts[i - 1]} to ${counts[i]} between two requests of one workspace (keys alternate): it must count down across keys`, served[i - 1], served[i]);
      expectThat(counts[counts.length - 1] === 0, msg`the last served request says ${counts[counts.length - 1]} remaining, yet the next was limited`, served[served.length - 1]);
      // The 429: envelope, Retry-After header in seconds, retryAfter in the body.
      const problems = envelopeProblems(limited, ctx.profile);
      if (problems.length) fail(msg`the 429 breaks the error envelope: ${problems.join('; ')}`, limited);
      const header = limited.headers['retry-after'];
      if (!header || !/^\d+$/.test(header.trim()) || Number(header) < 1) fail(msg`the 429 has Retry-After ${JSON.stringify(header)}; it must be a whole number of seconds`, limited);
      const retryAfter = Number(header);
      expectThat(typeof limited.body.error.retryAfter === 'number', msg`the 429 envelope has no retryAfter`, limited);
      expectThat(retryAfter <= windowSeconds, msg`Retry-After ${retryAfter} s is longer than the ${windowSeconds} s window`, limited);
      // Both keys are limited: the budget is the workspace's.
      const other429 = await keys[served.length % 2 === 0 ? 1 : 0]!.request({ method: 'GET', path: PROBE, rateLimitProbe: true });
      expectThat(other429.status === 429, msg`the workspace's other key was served (${other429.status}) while the workspace was limited`, other429);
      // Another workspace is unaffected.
      const elsewhere = await other.api.request({ method: 'GET', path: PROBE, rateLimitProbe: true });
      expectThat(is2xx(elsewhere), msg`another workspace was refused (${elsewhere.status}) while this one was limited`, elsewhere);
      // Served again after Retry-After (repeated 429s back off exponentially, bounded).
      if (ctx.control) await ctx.control.advance(retryAfter);
      else await new Promise((r) => setTimeout(r, retryAfter * 1000));
      let again = await ws.api.request({ method: 'GET', path: PROBE, rateLimitProbe: true });
      for (let attempt = 0; again.status === 429 && attempt < 3; attempt++) {
        const wait = 2 ** attempt;
        if (ctx.control) await ctx.control.advance(wait);
        else await new Promise((r) => setTimeout(r, wait * 1000));
        again = await ws.api.request({ method: 'GET', path: PROBE, rateLimitProbe: true });
      }
      expectThat(is2xx(again), msg`after waiting Retry-After (${retryAfter} s) and backing off, the workspace is still refused (${again.status})`, limited, again);
    },
  },
];
