// `npm run depth-kills`: measures smoke's and quick's own selections against every mutant (what
// `outreach-conformance mutation --depth D` measures) and records the result in
// harness/mutation/depth-kills.json, which depth-kills.test.ts holds the plan's prediction to.
//   npm run depth-kills                          both depths (several minutes each on 2 cores)
//   npm run depth-kills -- --depth smoke         one depth
//   npm run depth-kills -- --from reports/mutation-smoke.json ...
//                                                records reports `mutation --depth D` already made,
//                                                each only if made with the depth's present selection
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { loadProfile } from '../ground/profile.ts';
import { parseArgs } from '../ground/args.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { chooseChecks } from '../plan/planner.ts';
import { runMutation } from './run.ts';
import { DEPTH_KILLS_URL, MEASURED_DEPTHS, measuredWhat, readDepthKills, type DepthKills, type MeasuredDepth } from './depth-kills.ts';

interface MutationReportFile {
  depth?: string;
  selection?: string;
  met?: string;
  mutants: { id: string; killed: boolean }[];
}

function recordOf(what: ReturnType<typeof measuredWhat>, mutants: readonly { id: string; killed: boolean }[]): DepthKills {
  const ids = (killed: boolean) => mutants.filter((m) => m.killed === killed).map((m) => m.id).sort();
  return { ...what, killed: ids(true), survived: ids(false) };
}

async function measure(profile: Profile, depth: MeasuredDepth): Promise<DepthKills> {
  const choice = chooseChecks(ALL_CHECKS, { depth, profile, workspaces: profile.poolSize });
  const at = { depth, chosen: new Set(choice.checks.map((c) => c.id)) };
  const started = Date.now();
  let n = 0;
  const report = await runMutation(profile, { at, firstKill: true }, (r) => {
    if (++n % 50 === 0) process.stdout.write(`  ${depth}: ${n} mutants, ${((Date.now() - started) / 60000).toFixed(1)} min\n`);
  });
  return recordOf(measuredWhat(choice.checks), report.mutants);
}

/** A report of `mutation --depth D`, recorded only when made with the depth's present selection. */
function fromReport(profile: Profile, path: string): [MeasuredDepth, DepthKills] {
  const file = JSON.parse(readFileSync(path, 'utf8')) as MutationReportFile;
  const depth = file.depth as MeasuredDepth;
  if (!MEASURED_DEPTHS.includes(depth)) throw new Error(`${path}: not a report of mutation --depth ${MEASURED_DEPTHS.join('|')} (depth ${file.depth ?? 'none'})`);
  const now = measuredWhat(chooseChecks(ALL_CHECKS, { depth, profile, workspaces: profile.poolSize }).checks);
  if (file.selection !== now.selection || file.met !== now.met) throw new Error(`${path}: made with another selection than depth ${depth}'s present one: run mutation --depth ${depth} again`);
  return [depth, recordOf(now, file.mutants)];
}

async function main(): Promise<void> {
  const flags = parseArgs(process.argv.slice(2), {
    depth: { type: 'string', value: 'smoke|quick', help: 'one depth only' },
    from: { type: 'string', value: 'FILE', help: 'record a report of mutation --depth D (several: comma-separated)' },
  });
  const profile = await loadProfile();
  const record = readDepthKills();
  const save = () => {
    const depths = Object.fromEntries(MEASURED_DEPTHS.filter((d) => record.depths[d]).map((d) => [d, record.depths[d]]));
    const out = { source: 'npm run depth-kills: outreach-conformance mutation --depth D for smoke and quick (each mutant against the chosen checks of its area, run at that depth, against the reference with that mutant on)', depths };
    writeFileSync(DEPTH_KILLS_URL, JSON.stringify(out, null, 1) + '\n');
  };
  if (flags.from) {
    for (const path of (flags.from as string).split(',')) {
      const [depth, kills] = fromReport(profile, path);
      record.depths[depth] = kills;
      process.stdout.write(`${depth}: ${kills.killed.length} of ${kills.killed.length + kills.survived.length} killed (from ${path})\n`);
    }
  } else {
    const depths = flags.depth ? [flags.depth as MeasuredDepth] : [...MEASURED_DEPTHS];
    for (const depth of depths) {
      if (!MEASURED_DEPTHS.includes(depth)) throw new Error(`--depth must be ${MEASURED_DEPTHS.join(' or ')}`);
      const kills = await measure(profile, depth);
      record.depths[depth] = kills;
      save(); // after each depth: an interrupted run keeps what it measured
      process.stdout.write(`${depth}: ${kills.killed.length} of ${kills.killed.length + kills.survived.length} killed by its ${kills.checks} checks\n`);
    }
  }
  save();
  process.stdout.write(`${fileURLToPath(DEPTH_KILLS_URL)}\n`);
}

await main();
