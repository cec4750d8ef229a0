import { readFileSync } from 'node:fs';
import type { Check, Depth } from '../ground/check.ts';
import type { Profile } from '../ground/profile-schema.ts';
import type { TargetWorkEvent } from '../ground/events.ts';

// What a check is expected to send to the target, measured (not guessed): per-check request
// counts of runs against the embedded reference at each depth, recorded in
// expected-requests.json by `npm run measure-requests -- <results.json>...`. A check's `budget`
// stays the upper bound; the planner announces the expectation.

export interface ExpectedRequests {
  /** How the numbers were made (the runs they come from). */
  source: string;
  /** depth -> check id -> mean requests sent to the target in the measured runs. */
  byDepth: Partial<Record<Depth, Record<string, number>>>;
  /** check id -> DELETEs the clean-up sends for what it leaves, on a target without the control API (absent: none), measured against the embedded reference. */
  cleanup?: Record<string, number>;
  /** The same measured against the reference served without the control API (checks take their other ways there, some create more): every check measured so, 0 included; where a check is here, this counts. */
  cleanupWithoutControl?: Record<string, number>;
  /** check id -> mean duration in ms against the embedded reference (the concurrent phase starts the longest first). */
  durationMs?: Record<string, number>;
  /** check id -> mean duration in ms against the reference served without the control API (real mail, real time). */
  durationMsWithoutControl?: Record<string, number>;
  /** The run's time outside its checks, in ms, by how the target keeps time: before the first check starts, after the last ends (clean-up). */
  overheadMs?: Partial<Record<ClockMode, Overhead>>;
  /** depth -> check id -> mean requests sent to the reference served without the control API (checks take their other ways there). */
  withoutControl?: Partial<Record<Depth, Record<string, number>>>;
  /** The reference's background work as the checks saw it without the control API (TargetWorkEvent): median ms by kind. */
  targetWorkMs?: Partial<Record<TargetWorkEvent['what'], number>>;
  /** check id -> mailboxes it waits to see verified against the reference served alone (mean; absent: none). */
  settlesWithoutControl?: Record<string, number>;
  /** The reference served alone's first look (FirstLookEvent): median ms to answer and to verify a mailbox. */
  firstLook?: { answerMs: number; settleMs: number };
  /** The embedded reference's first look with its control API (run --first-look): the least ms over the runs measured to answer, of a GET /clock, of an empty drain and of a drain with one verification due. */
  firstLookControl?: { answerMs: number; controlMs: number; drainMs: number; workDrainMs: number };
  /** check id -> drains (POST /work/drain) it sends against the embedded reference (mean; absent: none). */
  drains?: Record<string, number>;
  /** check id -> of its drains there, those that ran work (a verification, a sending round: `processed` over 0; mean; absent: none). */
  workDrains?: Record<string, number>;
  /** check id -> its other control API calls there (clock, workspaces, ...: mean; absent: none). */
  controlCalls?: Record<string, number>;
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

/**
 * Requests the clean-up after a run without the control API sends for what this check leaves
 * (measured): without the control API where the check was measured so, else on the embedded reference.
 */
export function expectedCleanup(check: Pick<Check, 'id'>, data: ExpectedRequests = expectedData()): number {
  return data.cleanupWithoutControl?.[check.id] ?? data.cleanup?.[check.id] ?? 0;
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

/** How the target keeps time: a control API's clock the kit moves, or real time (no control API). */
export type ClockMode = 'control' | 'real';

/** The clock of a run against this profile. */
export function clockOf(profile: Pick<Profile, 'embedded' | 'control'>): ClockMode {
  return profile.embedded || profile.control ? 'control' : 'real';
}

const medians = new WeakMap<Record<string, number>, number>();
function median(table: Record<string, number>): number {
  let m = medians.get(table);
  if (m === undefined) {
    const xs = Object.values(table).sort((a, b) => a - b);
    m = xs.length ? xs[Math.floor(xs.length / 2)]! : 0;
    medians.set(table, m);
  }
  return m;
}

/**
 * How long a check takes (measured): against a target without the control API where it was
 * measured so (it waits in real time there), else against the embedded reference; a check not
 * measured yet counts as the median one.
 */
export function expectedDurationMs(check: Pick<Check, 'id'>, clock: ClockMode, data: ExpectedRequests = expectedData()): number {
  const own = clock === 'real' ? data.durationMsWithoutControl : undefined;
  const table = data.durationMs ?? {};
  return own?.[check.id] ?? table[check.id] ?? median(own && Object.keys(own).length ? own : table);
}

export interface Overhead {
  /** From the run's start to its first check (the embedded target and sinks booting, workspaces made). */
  start: number;
  /** From its last check's end to the run's end (the clean-up). */
  finish: number;
  /** The finish by depth, where measured: a larger depth's clean-up may wait for room in the rate windows its checks filled. */
  finishByDepth?: Partial<Record<Depth, number>>;
}

/** The run's measured time outside its checks (the finish at this depth where it was measured so). */
export function expectedOverheadMs(clock: ClockMode, data: ExpectedRequests = expectedData(), depth?: Depth): Overhead {
  const o = data.overheadMs?.[clock] ?? { start: 0, finish: 0 };
  const finish = depth === undefined ? undefined : o.finishByDepth?.[depth];
  return finish === undefined ? o : { ...o, finish };
}

/**
 * The finish without waiting for room in the rate windows: the least one measured (a depth whose
 * clean-up found room at once), the final sweep and the reports alone.
 */
export function unhinderedFinishMs(clock: ClockMode, data: ExpectedRequests = expectedData()): number {
  const o = expectedOverheadMs(clock, data);
  return Math.min(o.finish, ...Object.values(o.finishByDepth ?? {}));
}

/** How long a mailbox took to settle on the reference served alone (its verification, seen by settle), where measured. */
export function expectedSettleMs(data: ExpectedRequests = expectedData()): number | undefined {
  return data.targetWorkMs?.['mailbox-settle'];
}

/** Mailboxes a check waits to see verified, against the reference served alone (measured; 0 where none). */
export function expectedSettles(check: Pick<Check, 'id'>, data: ExpectedRequests = expectedData()): number {
  return data.settlesWithoutControl?.[check.id] ?? 0;
}

/** What a check asks of the control API against the embedded reference (measured; 0 where none): its drains, those of them that ran work, its other calls. */
export function expectedControlUse(check: Pick<Check, 'id'>, data: ExpectedRequests = expectedData()): { drains: number; work: number; calls: number } {
  return { drains: data.drains?.[check.id] ?? 0, work: data.workDrains?.[check.id] ?? 0, calls: data.controlCalls?.[check.id] ?? 0 };
}
