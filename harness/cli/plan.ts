import { resolve } from 'node:path';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { DEPTHS, type Depth } from '../ground/check.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../runner/profile.ts';
import { KitError } from '../ground/errors.ts';
import { chooseChecks, effectivePoolSize, formatPlan, plan } from '../runner/planner.ts';
import { DEPTH_BUDGETS, formatLeftOut, formatSelection } from '../runner/select-depth.ts';
import { formatDetection } from '../runner/detection.ts';
import { parseDuration } from '../load/generator/units.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { parseArgs } from '../ground/args.ts';
import { CLAUSES } from '../ground/spec-model/clauses/index.ts';
import { UNOBSERVABLE } from '../ground/spec-model/clauses/unobservable.ts';

// `outreach-conformance plan`: without --depth, the four depths side by side (checks, requests,
// clauses, minutes with 2 and 16 workspaces); with --depth or --time-budget, that run's plan and
// what it leaves out (--left-out lists it).

export function parseDepth(value: string | undefined, fallback: Depth = 'default'): Depth {
  const depth = (value ?? fallback) as Depth;
  if (!DEPTHS.includes(depth)) throw new KitError(`--depth must be ${DEPTHS.join(', ')}, not "${value}"`);
  return depth;
}

/** --time-budget 5m -> seconds (at least one second). */
export function parseTimeBudget(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value, '--time-budget');
  if (ms < 1000) throw new KitError(`--time-budget must be at least 1s, not "${value}"`);
  return Math.floor(ms / 1000);
}

/** The command listing what a run left out (a time budget depends on the workspaces too). */
export const leftOutHint = (depth: Depth, time?: string, workspaces?: number) =>
  `outreach-conformance plan --depth ${depth}${time ? ` --time-budget ${time} --workspaces ${workspaces}` : ''} --left-out lists them`;

export async function planCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, { profile: { type: 'string' }, depth: { type: 'string' }, workspaces: { type: 'number' }, 'time-budget': { type: 'string' }, 'left-out': { type: 'boolean' } });
  const profile = await loadProfile(resolve((flags.profile as string | undefined) ?? DEFAULT_PROFILE_PATH));
  const time = flags['time-budget'] as string | undefined;
  const timeBudgetSeconds = parseTimeBudget(time);
  if (flags.depth === undefined && time === undefined && !flags['left-out']) {
    process.stdout.write(`${depthTable(profile)}\n`);
    return 0;
  }
  const depth = parseDepth(flags.depth as string | undefined);
  const n = profile.control || profile.embedded ? effectivePoolSize(profile, depth, flags.workspaces as number | undefined) : profile.workspaces.length;
  const choice = chooseChecks(ALL_CHECKS, { depth, profile, workspaces: n, timeBudgetSeconds });
  if (flags['left-out']) {
    process.stdout.write(`${choice.selection ? formatLeftOut(choice.selection) : `depth ${depth} leaves nothing out; ${formatDetection(choice.detection)}`}\n`);
    return 0;
  }
  process.stdout.write(`${choice.why}\n`);
  if (choice.selection) process.stdout.write(`${formatSelection(choice.selection, leftOutHint(depth, time, n))}\n`);
  else process.stdout.write(`${formatDetection(choice.detection)}\n`);
  process.stdout.write(`${formatPlan(plan(choice.checks, profile, n, depth))}\n`);
  return 0;
}

/** The four depths: checks, expected requests, clauses proven, and minutes under the rate limit with 2 and 16 workspaces. */
export function depthTable(profile: Profile): string {
  const { requests, windowSeconds } = profile.rateLimit;
  const rows = DEPTHS.map((depth) => {
    const choice = chooseChecks(ALL_CHECKS, { depth, profile, workspaces: 2 });
    const p = (w: number) => plan(choice.checks, profile, w, depth);
    const covered = new Set(choice.checks.flatMap((c) => c.clauses)).size;
    const leftOut = choice.selection?.leftOut.length ?? 0;
    // A figure that rounds to nothing says so rather than 0.0.
    const minutes = (w: number) => (p(w).minSeconds < 6 ? '<0.1' : (p(w).minSeconds / 60).toFixed(1));
    const d = choice.detection;
    return [depth, `${choice.checks.length}`, `${leftOut}`, p(2).requests.toLocaleString('en-US'), `${covered}/${CLAUSES.length}`, `${d.killed}/${d.total}`, minutes(2), minutes(16)];
  });
  const head = ['depth', 'checks', 'left out', 'requests', 'clauses', 'mutants killed', 'min @2 ws', 'min @16 ws'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  return [
    `depths under the rate limit of ${profile.name} (${requests} requests per ${windowSeconds} s per workspace; minutes are the least the rate limit allows):`,
    line(head),
    ...rows.map(line),
    `clauses: those the depth's checks cover, of the ${CLAUSES.length} in the catalog; ${Object.keys(UNOBSERVABLE).length} of them no check can observe from outside (report.html gives each reason)`,
    'mutants killed: reference mutants the depth\'s own checks kill, from the kill matrix (`npm run mutation -- --depth D` measures it)',
    `request budgets: ${DEPTHS.map((d) => `${d} ${DEPTH_BUDGETS[d]?.toLocaleString('en-US') ?? 'unbounded'}`).join(', ')}; \`plan --depth D --left-out\` lists what a depth leaves out`,
  ].join('\n');
}
