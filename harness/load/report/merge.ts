import { KitError } from '../../ground/errors.ts';
import { decode, encode, merge } from './histogram.ts';
import type { EndpointStats, LoadReport, SendpathStats, TimelinePoint } from './types.ts';

// `load merge`: shards of one load (`load api|sendpath --shard k/n`, run in the jobs of a CI matrix
// or the pods of an Indexed Job) made into one report without loss: histograms merged (HDR adds
// counts bucket by bucket), counts added, timelines added second by second from each shard's own
// start, violations kept, each shard's start against the shared instant listed. Shards of another
// run, schedule or kit version, and a shard given twice, are refused naming the file.

/** "2/4" -> { index: 2, of: 4 }; a bad value names the flag. */
export function parseShard(text: string): { index: number; of: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const of = Number(m?.[2]);
  if (!m || of < 1 || index < 1 || index > of) throw new KitError(`--shard takes k/n with 1 <= k <= n (e.g. 2/4), not "${text}"`);
  return { index, of };
}

const add = (a: Record<string, number>, b: Record<string, number> | undefined) => {
  for (const [k, v] of Object.entries(b ?? {})) a[k] = (a[k] ?? 0) + v;
  return a;
};
const mergeEncoded = (xs: string[]) => encode(merge(xs.map(decode)));
const shardIndex = (s: string) => Number(s.split('/')[0]);

/**
 * Send-path shards each had their own mailboxes, leads and sinks, so each held the gap and cap
 * rules on its own: the run's figures are their sums (rates side by side add up too).
 */
function mergeSendpath(ss: SendpathStats[]): SendpathStats {
  const sum = (f: (s: SendpathStats) => number) => ss.reduce((a, s) => a + f(s), 0);
  return {
    simulated: ss.every((s) => s.simulated),
    leads: sum((s) => s.leads),
    mailboxes: ss.flatMap((s) => s.mailboxes),
    fromAllowed: mergeEncoded(ss.map((s) => s.fromAllowed)),
    duplicates: sum((s) => s.duplicates),
    losses: sum((s) => s.losses),
    achievedPerDay: sum((s) => s.achievedPerDay),
    idealPerDay: sum((s) => s.idealPerDay),
    emailsPerWallSecond: sum((s) => s.emailsPerWallSecond),
    gapViolations: sum((s) => s.gapViolations),
    capViolations: sum((s) => s.capViolations),
  };
}

/** What must be equal across the shards of one run, each with the words that name it. */
const SAME: [what: string, of: (r: LoadReport) => unknown][] = [
  ['kind', (r) => r.kind],
  ['run', (r) => r.plan.run],
  ['schedule', (r) => r.plan.schedule],
  ['split', (r) => r.plan.shard?.split('/')[1]],
  ['kit version', (r) => r.environment.kit],
  ['profile', (r) => r.environment.profileHash],
];

/** Refuses, naming the file, a report of another run, schedule, split or kit, and a shard given twice. */
export function checkOneRun(parts: readonly LoadReport[], names: readonly string[]): void {
  const first = parts[0]!;
  for (const [i, p] of parts.entries()) {
    for (const [what, of] of SAME) {
      const [a, b] = [JSON.stringify(of(first)), JSON.stringify(of(p))];
      if (a !== b) throw new KitError(`${names[i]} is not a shard of the same run as ${names[0]}: its ${what} is ${b ?? 'not given'}, not ${a ?? 'not given'}`);
    }
    const twice = parts.findIndex((q, j) => j < i && q.plan.shard !== undefined && q.plan.shard === p.plan.shard);
    if (twice >= 0) throw new KitError(`shard ${p.plan.shard} is given twice: ${names[twice]} and ${names[i]}`);
  }
  if (first.kind !== 'api' && first.kind !== 'sendpath') throw new KitError(`load merge takes shards of api and sendpath loads; ${names[0]} is a ${first.kind} run, which is not split into shards`);
}

export function mergeLoadReports(parts: LoadReport[], runId: string, names: readonly string[] = parts.map((_, i) => `report ${i + 1}`)): Omit<LoadReport, 'thresholds' | 'ok'> {
  if (parts.length === 0) throw new KitError('load merge needs at least one load.json');
  checkOneRun(parts, names);
  const shards = parts.map((p) => p.plan.shard).filter((s): s is string => !!s);
  const of = new Set(shards.map((s) => s.split('/')[1]));
  const n = Number([...of][0] ?? 0);
  const missing = Array.from({ length: n }, (_, i) => `${i + 1}/${n}`).filter((s) => !shards.includes(s));

  const endpoints = new Map<string, { count: number; status: Record<string, number>; corrected: string[]; service: string[] }>();
  for (const ep of parts.flatMap((p) => p.endpoints)) {
    const e = endpoints.get(ep.label) ?? { count: 0, status: {}, corrected: [], service: [] };
    e.count += ep.count;
    add(e.status, ep.status);
    e.corrected.push(ep.corrected);
    e.service.push(ep.service);
    endpoints.set(ep.label, e);
  }
  const timeline: TimelinePoint[] = [];
  for (const p of parts)
    p.timeline.forEach((pt, i) => {
      const t = (timeline[i] ??= { t: pt.t, intended: 0, achieved: 0, p50: 0, p99: 0, s429: 0, s5xx: 0 });
      // Per-second percentiles cannot be merged exactly from two percentiles: keep the worst shard's.
      t.p50 = Math.max(t.p50, pt.p50);
      t.p99 = Math.max(t.p99, pt.p99);
      t.intended += pt.intended;
      t.achieved += pt.achieved;
      t.s429 += pt.s429;
      t.s5xx += pt.s5xx;
    });
  const flows: LoadReport['flows'] = {};
  for (const p of parts) for (const [f, v] of Object.entries(p.flows)) flows[f] = { count: (flows[f]?.count ?? 0) + v.count, errors: (flows[f]?.errors ?? 0) + v.errors };
  const sum = (f: (p: LoadReport) => number | undefined) => parts.reduce((a, p) => a + (f(p) ?? 0), 0);
  const started = parts.map((p) => p.startedAt).sort()[0]!;
  const finished = parts.map((p) => p.finishedAt).sort().reverse()[0]!;
  const first = parts[0]!;
  return {
    schemaVersion: first.schemaVersion,
    kind: first.kind,
    runId,
    startedAt: started,
    finishedAt: finished,
    environment: first.environment,
    plan: {
      ...(first.plan.rate !== undefined ? { rate: sum((p) => p.plan.rate) } : {}),
      durationMs: Math.max(...parts.map((p) => p.plan.durationMs)),
      intended: sum((p) => p.plan.intended),
      workspaces: sum((p) => p.plan.workspaces),
      mix: first.plan.mix,
      ...(first.plan.run ? { run: first.plan.run } : {}),
      ...(first.plan.schedule ? { schedule: first.plan.schedule } : {}),
    },
    ...(parts.some((p) => p.shardStarts) ? { shardStarts: parts.flatMap((p) => p.shardStarts ?? []).sort((a, b) => shardIndex(a.shard) - shardIndex(b.shard)) } : {}),
    ...(first.sendpath ? { sendpath: mergeSendpath(parts.map((p) => p.sendpath!)) } : {}),
    totals: {
      sent: sum((p) => p.totals.sent),
      completed: sum((p) => p.totals.completed),
      late: sum((p) => p.totals.late),
      errors: sum((p) => p.totals.errors),
      status: parts.reduce((a, p) => add(a, p.totals.status), {} as Record<string, number>),
      // Shards run side by side: their throughputs add up.
      throughput: Math.round(sum((p) => p.totals.throughput) * 10) / 10,
      corrected: mergeEncoded(parts.map((p) => p.totals.corrected)),
      service: mergeEncoded(parts.map((p) => p.totals.service)),
    },
    endpoints: [...endpoints.entries()]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([label, e]): EndpointStats => ({ label, count: e.count, status: e.status, corrected: mergeEncoded(e.corrected), service: mergeEncoded(e.service) })),
    flows,
    timeline,
    violations: parts.flatMap((p) => p.violations),
    violationCounts: parts.reduce((a, p) => add(a, p.violationCounts), {} as Record<string, number>),
    notes: [
      `merged from ${parts.length} report(s)${shards.length ? `: shards ${shards.join(', ')}` : ''}`,
      ...(missing.length ? [`shards not given: ${missing.join(', ')} (the figures cover part of the load)`] : []),
      ...parts.flatMap((p) => p.notes ?? []),
    ],
    ...(parts.some((p) => p.leftOut?.length) ? { leftOut: first.leftOut } : {}),
  };
}
