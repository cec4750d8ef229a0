import { KitError } from '../../ground/errors.ts';
import { decode, encode, merge } from './histogram.ts';
import type { EndpointStats, LoadReport, TimelinePoint } from './types.ts';

// `load merge`: shards of one load (`load api --shard k/n`, run in the jobs of a CI matrix) made
// into one report without loss: histograms merged (HDR adds counts bucket by bucket), counts
// added, timelines added second by second from each shard's own start, violations kept.

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

export function mergeLoadReports(parts: LoadReport[], runId: string): Omit<LoadReport, 'thresholds' | 'ok'> {
  if (parts.length === 0) throw new KitError('load merge needs at least one load.json');
  const kinds = new Set(parts.map((p) => p.kind));
  if (kinds.size > 1) throw new KitError(`load merge takes reports of one kind, got ${[...kinds].join(', ')}`);
  if (parts[0]!.kind !== 'api') throw new KitError(`load merge takes api loads (shards of \`load api --shard k/n\`); a ${parts[0]!.kind} run is not split into shards`);
  const shards = parts.map((p) => p.plan.shard).filter((s): s is string => !!s);
  const dup = shards.find((s, i) => shards.indexOf(s) !== i);
  if (dup) throw new KitError(`shard ${dup} is given twice`);
  const of = new Set(shards.map((s) => s.split('/')[1]));
  if (of.size > 1) throw new KitError(`the shards come from different splits (${shards.join(', ')})`);
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
      rate: sum((p) => p.plan.rate),
      durationMs: Math.max(...parts.map((p) => p.plan.durationMs)),
      intended: sum((p) => p.plan.intended),
      workspaces: sum((p) => p.plan.workspaces),
      mix: first.plan.mix,
    },
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
