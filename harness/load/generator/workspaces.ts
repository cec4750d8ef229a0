import type { Profile } from '../../ground/profile-schema.ts';
import { createControlClient } from '../../client/control.ts';
import { Recorder } from '../../client/recorder.ts';
import type { Redactor } from '../../client/redact.ts';
import { resolveSecret } from '../../ground/profile.ts';
import { KitError } from '../../ground/errors.ts';
import { POOL_ZONES } from '../../ground/zones.ts';
import type { ControlEndpoint } from '../../ground/control-endpoint.ts';

// How many workspaces a load needs, and where they come from. The rate limit is per workspace
// (part 8: 120 requests per 60 s, shared by every key of it), so a load spreads its rate over
// enough workspaces that none of them goes past its budget: created through the control API, or
// given in the profile. A load never relies on 429s to pace itself.

/** Share of each workspace's budget a load plans to use: the rest absorbs timer jitter. */
export const HEADROOM = 0.9;

export interface WorkspacePlan {
  workspaces: number;
  /** requests per second each workspace receives */
  perWorkspaceRate: number;
  /** the most requests one workspace sees in any rate window, setup included */
  peakPerWindow: number;
  limit: { requests: number; windowSeconds: number };
}

/**
 * Workspaces for `rate` req/s over `durationMs`, each also spending `setupRequests` at the start:
 * in any window of the limit, a workspace sees rate/W x min(window, duration) + setup requests,
 * which must stay within HEADROOM of the limit.
 */
export function planWorkspaces(profile: Profile, rate: number, durationMs: number, setupRequests: number): WorkspacePlan {
  const limit = profile.rateLimit;
  const budget = Math.floor(limit.requests * HEADROOM) - setupRequests;
  if (budget < 1) throw new KitError(`the profile's rate limit (${limit.requests} per ${limit.windowSeconds} s) leaves no room for a load after ${setupRequests} setup requests per workspace`);
  const windowS = Math.min(limit.windowSeconds, durationMs / 1000);
  const workspaces = Math.max(1, Math.ceil((rate * windowS) / budget));
  const perWorkspaceRate = rate / workspaces;
  return { workspaces, perWorkspaceRate, peakPerWindow: Math.ceil(perWorkspaceRate * windowS) + setupRequests, limit };
}

export interface LoadWorkspace {
  index: number;
  apiKey: string;
  organizationId?: string;
}

/**
 * The workspaces of a load: fresh ones from the control API, or the profile's. Refuses, saying
 * what would do, when the profile cannot supply enough.
 */
export async function provideWorkspaces(
  profile: Profile,
  need: WorkspacePlan,
  opts: { control?: ControlEndpoint; redactor: Redactor; prefix: string; rate: number; shard?: { index: number; of: number } },
): Promise<LoadWorkspace[]> {
  if (opts.control) {
    const control = createControlClient({ baseUrl: opts.control.baseUrl, token: opts.control.token, recorder: new Recorder({ emit() {} }, opts.redactor) });
    const out: LoadWorkspace[] = [];
    // A few at a time: a control API need not take a burst of hundreds.
    for (let i = 0; i < need.workspaces; i += 16) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(16, need.workspaces - i) }, (_, j) =>
          control.createWorkspace({ name: `${opts.prefix}load-${i + j}`, timezone: POOL_ZONES[(i + j) % POOL_ZONES.length] }),
        ),
      );
      batch.forEach((w, j) => {
        opts.redactor.add(w.apiKey);
        out.push({ index: i + j, apiKey: w.apiKey, organizationId: w.organizationId });
      });
    }
    return out;
  }
  refuseShortProfile(profile, need, opts);
  const offset = opts.shard ? (opts.shard.index - 1) * profileSlice(profile, opts.shard) : 0;
  return profile.workspaces.slice(offset, offset + need.workspaces).map((w, i) => {
    const apiKey = resolveSecret(w.apiKey, `workspaces.${offset + i}.apiKey`);
    opts.redactor.add(apiKey);
    return { index: i, apiKey, organizationId: w.organizationId };
  });
}

/** A shard k of n takes the k-th slice of the profile's workspaces (shards run side by side): how many that is. */
const profileSlice = (profile: Profile, shard?: { index: number; of: number }) => (shard ? Math.floor(profile.workspaces.length / shard.of) : profile.workspaces.length);

/**
 * Without a control API, the profile's workspaces (a shard's slice of them) must carry the load:
 * refused otherwise, saying what would do. `load kubernetes` asks the same before it writes a manifest.
 */
export function refuseShortProfile(profile: Profile, need: WorkspacePlan, opts: { rate: number; shard?: { index: number; of: number } }): void {
  const given = profileSlice(profile, opts.shard);
  if (given >= need.workspaces) return;
  const perWs = (need.limit.requests * HEADROOM) / need.limit.windowSeconds;
  throw new KitError(
    `a load of ${opts.rate}/s needs ${need.workspaces} workspaces (each may take about ${perWs.toFixed(2)} requests/s under the rate limit of ${need.limit.requests} per ${need.limit.windowSeconds} s, setup included); ` +
      `the profile gives ${given}${opts.shard ? ` to shard ${opts.shard.index}/${opts.shard.of}` : ''} and no control API. Lower --rate to about ${Math.floor(given * perWs * 0.95 * 100) / 100}/s, add workspaces to the profile, or declare "control".`,
  );
}
