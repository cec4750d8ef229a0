import { readFileSync } from 'node:fs';
import type { Check, Depth } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';

// What a check is expected to send to the target, measured (not guessed): per-check request
// counts of runs against the embedded reference at each depth, recorded in
// expected-requests.json by `npm run measure-requests -- <results.json>...`. A check's `budget`
// stays the upper bound; the planner announces the expectation.

export interface ExpectedRequests {
  /** How the numbers were made (the runs they come from). */
  source: string;
  /** depth -> check id -> mean requests sent to the target in the measured runs. */
  byDepth: Partial<Record<Depth, Record<string, number>>>;
  /** check id -> DELETEs the clean-up sends for what it leaves, on a target without the control API (absent: none). */
  cleanup?: Record<string, number>;
  /** check id -> mean duration in ms against the embedded reference (the concurrent phase starts the longest first). */
  durationMs?: Record<string, number>;
  /** depth -> check id -> mean requests sent to the reference served without the control API (checks take their other ways there). */
  withoutControl?: Partial<Record<Depth, Record<string, number>>>;
}

const DATA_URL = new URL('./expected-requests.json', import.meta.url);

let cached: ExpectedRequests | undefined;
export function expectedData(): ExpectedRequests {
  cached ??= JSON.parse(readFileSync(DATA_URL, 'utf8')) as ExpectedRequests;
  return cached;
}

/**
 * Requests a check is expected to send at this depth: measured at this depth, else at the default
 * depth (property checks send more at full depth), else its budget (a new, unmeasured check).
 */
export function expectedRequests(check: Pick<Check, 'id' | 'budget'>, depth: Depth, data: ExpectedRequests = expectedData()): number {
  return data.byDepth[depth]?.[check.id] ?? data.byDepth.default?.[check.id] ?? check.budget;
}

/** Requests the clean-up after a run without the control API sends for what this check leaves (measured). */
export function expectedCleanup(check: Pick<Check, 'id'>, data: ExpectedRequests = expectedData()): number {
  return data.cleanup?.[check.id] ?? 0;
}

/** Whether the kit deletes what a run created itself: a target without the control API (no reset). */
export function cleansUp(profile: Pick<Profile, 'embedded' | 'control'>): boolean {
  return !profile.embedded && !profile.control;
}

/** What the target sees of a check: its requests, plus the clean-up of what it leaves where the kit deletes it. */
export function targetRequests(check: Pick<Check, 'id' | 'budget'>, depth: Depth, profile: Pick<Profile, 'embedded' | 'control'>, data: ExpectedRequests = expectedData()): number {
  if (!cleansUp(profile)) return expectedRequests(check, depth, data);
  // Without the control API, measured so where it was (at this depth, else at default).
  const own = data.withoutControl?.[depth]?.[check.id] ?? data.withoutControl?.default?.[check.id];
  return (own ?? expectedRequests(check, depth, data)) + expectedCleanup(check, data);
}

/** How long a check took against the embedded reference (measured; 0 when it was not). */
export function expectedDurationMs(check: Pick<Check, 'id'>, data: ExpectedRequests = expectedData()): number {
  return data.durationMs?.[check.id] ?? 0;
}
