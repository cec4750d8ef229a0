import type { Check, Depth } from '../../suites/lib/check.ts';
import { expectedRequests } from './expected.ts';
import type { Profile } from '../../fixtures/profiles/schema.ts';

// Before a run: how many requests it will spend and how long a rate-limited target makes it take.
export interface Plan {
  checks: number;
  /** Requests the checks are expected to send to the target (measured: harness/runner/expected.ts). */
  requests: number;
  /** The sum of the checks' budgets: what they may send at most. */
  atMost: number;
  workspaces: number;
  /** Requests the pool may send per second under the target's rate limit. */
  ratePerSecond: number;
  /** Lower bound of the run's duration from the rate limit alone (the first window is free). */
  minSeconds: number;
}

/**
 * Workspaces a run provisions: --workspaces, else the profile's poolSize; a full run on the
 * embedded target (workspaces are free) takes at least 64 so per-workspace budgets do not
 * stretch it to many minutes.
 */
export function effectivePoolSize(profile: Profile, depth: string, override?: number): number {
  if (override !== undefined) return override;
  return depth === 'full' && profile.embedded ? Math.max(profile.poolSize, 64) : profile.poolSize;
}

export function plan(checks: readonly Check[], profile: Profile, workspaces: number, depth: Depth = 'default'): Plan {
  const requests = checks.reduce((n, c) => n + expectedRequests(c, depth), 0);
  const atMost = checks.reduce((n, c) => n + c.budget, 0);
  const { requests: perWindow, windowSeconds } = profile.rateLimit;
  const ratePerSecond = (workspaces * perWindow) / windowSeconds;
  const beyondFirstWindow = Math.max(0, requests - workspaces * perWindow);
  return { checks: checks.length, requests, atMost, workspaces, ratePerSecond, minSeconds: Math.ceil(beyondFirstWindow / ratePerSecond) };
}

export function formatPlan(p: Plan): string {
  return (
    `plan: ${p.checks} checks, about ${p.requests} requests (at most ${p.atMost}) over ${p.workspaces} workspaces ` +
    `(${p.ratePerSecond.toFixed(1)} req/s under the rate limit): about ${p.minSeconds} s or more against a rate-limited target`
  );
}
