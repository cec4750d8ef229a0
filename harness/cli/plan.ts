import { resolve } from 'node:path';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { DEFAULT_PROFILE_PATH, KitError, loadProfile } from '../runner/profile.ts';
import { selectChecks } from '../runner/runner.ts';
import { effectivePoolSize, formatPlan, plan } from '../runner/planner.ts';
import type { Depth } from '../../suites/lib/check.ts';
import { parseArgs } from './args.ts';

export async function planCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, { profile: { type: 'string' }, depth: { type: 'string' }, workspaces: { type: 'number' } });
  const profile = await loadProfile(resolve((flags.profile as string | undefined) ?? DEFAULT_PROFILE_PATH));
  const depth = ((flags.depth as string | undefined) ?? 'default') as Depth;
  if (!['quick', 'default', 'full'].includes(depth)) throw new KitError(`--depth must be quick, default or full`);
  const n = profile.control || profile.embedded ? effectivePoolSize(profile, depth, flags.workspaces as number | undefined) : profile.workspaces.length;
  process.stdout.write(`${formatPlan(plan(selectChecks(ALL_CHECKS, depth), profile, n, depth))}\n`);
  return 0;
}
