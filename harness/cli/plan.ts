import { resolve } from 'node:path';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { DEPTHS, type Depth } from '../ground/check.ts';
import { parseDepth, parseTimeBudget } from '../ground/units.ts';
import { DEFAULT_PROFILE_PATH, loadProfile, resolveSecret } from '../ground/profile.ts';
import { chooseChecks, effectivePoolSize, formatPlan, leftOutHint, plan } from '../plan/planner.ts';
import { machineLine } from '../conformance/machine.ts';
import { DEPTH_BUDGETS, formatLeftOut, formatSelection } from '../plan/select-depth.ts';
import { formatDetection } from '../plan/detection.ts';
import { killMatrix } from '../plan/kill-matrix.ts';
import { VIOLATIONS } from '../mutation/violations/index.ts';
import { formatViolationShare, violationShare } from '../mutation/violations/share.ts';
import { selectChecks } from '../plan/eligible.ts';
import { staticGap, type TargetKnown } from '../plan/static-gap.ts';
import { formatGapCosts, gapCosts } from '../plan/gap-cost.ts';
import { announcedExtensions } from '../client/control.ts';
import { clockOf } from '../plan/expected.ts';
import { historyOf } from '../plan/target-history.ts';
import { firstLookSaid, takesFirstLook } from '../conformance/first-look.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { parseArgs, type CommandHelp } from '../ground/args.ts';

export const PLAN_HELP: CommandHelp = {
  usage: ['outreach-conformance plan [--profile FILE] [--depth D] [--time-budget 5m] [--left-out] [--history DIR|none]'],
  summary: "the four depths (checks, requests, clauses, minutes), or one run's plan with --depth or --time-budget",
  flags: {
    profile: { type: 'string', value: 'FILE', help: "the target's profile (default: the embedded reference target)" },
    depth: { type: 'string', value: 'smoke|quick|default|full', help: 'the plan of a run at this depth' },
    'time-budget': { type: 'string', value: '5m', help: 'the plan of a run within this time' },
    workspaces: { type: 'number', help: 'workspaces the run would have' },
    'left-out': { type: 'boolean', help: 'list the checks the depth leaves out and what each alone would add' },
    history: { type: 'string', value: 'DIR|none', help: "earlier runs' reports the time estimate learns the target's pace from (default: reports)" },
  },
  exit: 'exit codes: 0 the plan printed, 2 a bad flag or profile',
};
import { CLAUSES } from '../ground/spec-model/clauses/index.ts';
import { UNOBSERVABLE } from '../ground/spec-model/clauses/unobservable.ts';

// `outreach-conformance plan`: without --depth, the four depths side by side (checks, requests,
// clauses, minutes with 2 and 16 workspaces); with --depth or --time-budget, that run's plan and
// what it leaves out (--left-out lists it). Both count only what can run on the profile, and list
// what each field, operation, feature or control extension it lacks costs. With a control API,
// its GET /capabilities is asked first (a short timeout): the extensions it does not announce
// are lacking too; unreachable, plan says so and assumes them available.

/** How long plan waits for the control API's GET /capabilities. */
export const CAPABILITIES_TIMEOUT_MS = 5000;

export async function planCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, PLAN_HELP.flags);
  const profile = await loadProfile(resolve((flags.profile as string | undefined) ?? DEFAULT_PROFILE_PATH));
  const time = flags['time-budget'] as string | undefined;
  const timeBudgetSeconds = parseTimeBudget(time);
  const { known, said } = await controlExtensions(profile);
  if (said) process.stdout.write(`${said}\n`);
  if (flags.depth === undefined && time === undefined && !flags['left-out']) {
    process.stdout.write(`${depthTable(profile, known)}\n`);
    return 0;
  }
  const depth = parseDepth(flags.depth as string | undefined);
  const n = profile.control || profile.embedded ? effectivePoolSize(profile, depth, flags.workspaces as number | undefined) : profile.workspaces.length;
  const choice = chooseChecks(ALL_CHECKS, { depth, profile, workspaces: n, timeBudgetSeconds, ...known });
  if (flags['left-out']) {
    process.stdout.write(`${choice.selection ? formatLeftOut(choice.selection) : `depth ${depth} leaves nothing out; ${formatDetection(choice.detection)}`}\n`);
    return 0;
  }
  process.stdout.write(`${choice.why}\n`);
  if (choice.selection) process.stdout.write(`${formatSelection(choice.selection, leftOutHint(depth, time, n))}\n`);
  else process.stdout.write(`${formatDetection(choice.detection)}\n`);
  process.stdout.write(`${formatViolationShare(violationShare(choice.checks, VIOLATIONS, killMatrix(), depth), false)} (npm run mutation lists the open ones)\n`);
  const history = await historyOf({ embedded: !!profile.embedded, baseUrl: profile.baseUrl, clock: clockOf(profile), depth, history: flags.history as string | undefined, defaultDir: 'reports' });
  if (history) process.stdout.write(`${history.said}\n`);
  // What this machine lacks (an IMAP server) that the chosen checks need, as `run` says it.
  const machine = await machineLine(profile, choice.checks, undefined);
  if (machine) process.stdout.write(`${machine}\n`);
  const planned = plan(choice.checks, profile, n, depth, undefined, { ...known, ...(history?.pace ? { pace: history.pace } : {}) });
  process.stdout.write(`${formatPlan(planned)}\n`);
  // What a run would do first: the plan line it then makes again is one plan cannot show.
  if (takesFirstLook({ embedded: !!profile.embedded, profile, checks: choice.checks, history: flags.history as string | undefined, learned: !!history?.pace, plan: planned })) process.stdout.write(`${firstLookSaid(profile)}\n`);
  process.stdout.write(`${formatGapCosts(gapCosts(selectChecks(ALL_CHECKS, depth), { profile, depth, ...known }), `depth ${depth}`)}\n`);
  return 0;
}

/**
 * The control extensions the profile's control API announces, asked with a short timeout; none
 * asked without a control API, or of the embedded reference (it offers them all). `said` is the
 * line plan prints about it (never the token).
 */
export async function controlExtensions(profile: Profile, timeoutMs = CAPABILITIES_TIMEOUT_MS): Promise<{ known: TargetKnown; said?: string }> {
  if (!profile.control || profile.embedded) return { known: {} };
  const unknown = (why: string) => ({ known: {}, said: `control API ${profile.control!.baseUrl}: ${why}; planned with its extensions unknown (each assumed available)` });
  let token: string;
  try {
    token = resolveSecret(profile.control.token, 'control.token');
  } catch (e) {
    return unknown(`not asked (${(e as Error).message})`);
  }
  const answer = await announcedExtensions({ baseUrl: profile.control.baseUrl, token }, timeoutMs);
  if ('unknown' in answer) return unknown(`GET /capabilities could not be read (${answer.unknown})`);
  return { known: { extensions: answer.extensions }, said: `control API ${profile.control.baseUrl}: GET /capabilities announces ${answer.extensions.join(', ') || 'no extension'}` };
}

/**
 * The four depths: checks, expected requests, clauses proven, and minutes under the rate limit
 * with 2 and 16 workspaces; then what the profile lacks costs (over every check). A check that
 * skips on this profile proves no clause and kills no mutant here.
 */
export function depthTable(profile: Profile, known: TargetKnown = {}): string {
  const { requests, windowSeconds } = profile.rateLimit;
  const rows = DEPTHS.map((depth) => {
    const choice = chooseChecks(ALL_CHECKS, { depth, profile, workspaces: 2, ...known });
    const p = (w: number) => plan(choice.checks, profile, w, depth, undefined, known);
    const covered = new Set(choice.checks.filter((c) => !staticGap(c, profile, known.extensions)).flatMap((c) => c.clauses)).size;
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
    `clauses: those the depth's checks that can run on this profile cover, of the ${CLAUSES.length} in the catalog; ${Object.keys(UNOBSERVABLE).length} of them no check can observe from outside (report.html gives each reason)`,
    'mutants killed: reference mutants the depth\'s own checks kill, from the kill matrix (`npm run mutation -- --depth D` measures it)',
    `request budgets: ${DEPTHS.map((d) => `${d} ${DEPTH_BUDGETS[d]?.toLocaleString('en-US') ?? 'unbounded'}`).join(', ')}; \`plan --depth D --left-out\` lists what a depth leaves out`,
    formatGapCosts(gapCosts(ALL_CHECKS, { profile, ...known }), 'every check'),
  ].join('\n');
}
