import { readFileSync } from 'node:fs';
import type { Check, Depth } from '../ground/check.ts';

// What a check is expected to send to the target, measured (not guessed): per-check request
// counts of runs against the embedded reference at each depth, recorded in
// expected-requests.json by `npm run measure-requests -- <results.json>...`. A check's `budget`
// stays the upper bound; the planner announces the expectation.

export interface ExpectedRequests {
  /** How the numbers were made (the runs they come from). */
  source: string;
  /** depth -> check id -> mean requests sent to the target in the measured runs. */
  byDepth: Partial<Record<Depth, Record<string, number>>>;
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
