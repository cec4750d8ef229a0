import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { ExpectedRequests } from '../plan/expected.ts';
import type { ExchangeEvent, FirstLookEvent, RunEvent, TargetWorkStats } from '../ground/events.ts';
import { cleanupByCheck, createdResources } from '../runner/created.ts';
import { median, ownMs } from '../plan/target-pace.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import type { Depth } from '../ground/check.ts';

// Records what checks really send: reads the results.json of runs against the embedded reference
// (same depth) and writes their per-check mean to harness/plan/expected-requests.json; and,
// from the events.ndjson beside each, what each check leaves to clean up on a target without the
// control API (one DELETE per mailbox and API key it created and did not delete); with
// --no-control, what the kit's own clean-up deleted for each check there.
//   outreach-conformance run --check . --out DIR   (twice: an explicit selection runs every check of the depth, no budget)
//   npm run measure-requests -- reports/<run-a>/results.json reports/<run-b>/results.json

const OUT = fileURLToPath(new URL('../plan/expected-requests.json', import.meta.url));

interface Results {
  depth: Depth;
  target: { embedded: boolean; baseUrl: string };
  checks: { id: string; ran: boolean; requests: number; durationMs?: number; waitedMs?: number }[];
  stats?: { targetWork?: TargetWorkStats };
}

// --no-control: runs against the reference served alone with a profile without the control API
// (`npm run bench:staging -- --out DIR`): checks take their other ways there (real mail, real time),
// so what they send is recorded apart and planned for such targets.
const noControl = process.argv.includes('--no-control');
const paths = process.argv.slice(2).filter((a) => a !== '--no-control');
if (paths.length === 0) {
  process.stderr.write('usage: npm run measure-requests -- [--no-control] <results.json>...\n');
  process.exit(2);
}
const runs = paths.map((p) => JSON.parse(readFileSync(p, 'utf8')) as Results);
const depth = runs[0]!.depth;
if (runs.some((r) => r.depth !== depth || r.target.embedded === noControl)) {
  process.stderr.write(noControl ? 'every run must be against a target without the control API, at one depth\n' : 'every run must be against the embedded reference, at one depth\n');
  process.exit(2);
}
const sums = new Map<string, number[]>();
for (const r of runs) for (const c of r.checks) if (c.ran) sums.set(c.id, [...(sums.get(c.id) ?? []), c.requests]);
const measured = Object.fromEntries(
  [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([id, xs]) => [id, mean(xs)]),
);
const profile = await loadProfile(DEFAULT_PROFILE_PATH);
const cleanups = new Map<string, number[]>();
const eventsOf = paths.map((p) => readFileSync(join(dirname(p), 'events.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunEvent));
for (const [i, r] of runs.entries()) {
  const events = eventsOf[i]!;
  const exchanges = events.filter((e): e is ExchangeEvent => e.type === 'exchange');
  // The run prefix is not in the results: every created resource counts (the checks all prefix theirs).
  // The kit's own DELETEs (its clean-up, where a run had no control API) carry no check id: they delete what the checks left.
  const byCheck = cleanupByCheck(createdResources(exchanges.filter((e) => e.checkId !== undefined), profile, r.target.baseUrl.replace(/\/$/, ''), ''));
  for (const c of r.checks) if (c.ran) cleanups.set(c.id, [...(cleanups.get(c.id) ?? []), byCheck.get(c.id) ?? 0]);
}
// Against the embedded reference only what a check leaves is kept (absent: none); without control every check measured (0 included: absent means not measured so).
const cleanup = Object.fromEntries(
  [...cleanups].filter(([, xs]) => noControl || xs.some((x) => x > 0)).sort(([a], [b]) => a.localeCompare(b)).map(([id, xs]) => [id, mean(xs)]),
);
function mean(xs: readonly number[]): number {
  return Math.round(xs.reduce((n, x) => n + x, 0) / xs.length);
}

/** Milliseconds from the run's start to its first check, and from its last check's end to the run's end. */
function overheadOf(events: readonly RunEvent[]): { start: number; finish: number } {
  const at = (s: string) => Date.parse(s);
  let started = 0;
  let ended = 0;
  const starts = new Map<string, number>();
  let last = 0;
  for (const e of events) {
    if (e.type === 'run-start') started = at(e.startedAt);
    else if (e.type === 'run-end') ended = at(e.finishedAt);
    else if (e.type === 'check-start') starts.set(e.checkId, at(e.at));
    else if (e.type === 'check-end') last = Math.max(last, (starts.get(e.checkId) ?? 0) + e.durationMs);
  }
  const first = Math.min(...starts.values());
  return { start: Math.max(0, first - started), finish: Math.max(0, ended - last) };
}

let data: ExpectedRequests = { source: '', byDepth: {} };
try {
  data = JSON.parse(readFileSync(OUT, 'utf8')) as ExpectedRequests;
} catch {
  /* first measurement */
}
// Merged: a budgeted depth leaves checks out, and those keep their last measurement.
const merged = (old: Record<string, number> | undefined) => Object.fromEntries(Object.entries({ ...old, ...measured }).sort(([x], [y]) => x.localeCompare(y)));
const durations = new Map<string, number[]>();
// A check's time less what it waited on the kit (rate windows, leases): the estimate counts the windows apart.
for (const r of runs) for (const c of r.checks) if (c.ran && c.durationMs !== undefined) durations.set(c.id, [...(durations.get(c.id) ?? []), ownMs(c)]);
// Without the control API a check may wait mid-way for a full rate window (tens of seconds) in one
// run and not in another: the estimate counts those waits apart (its rate windows), so where the runs
// differ by that much the check's duration is its quickest run's; else their mean.
const STALL_MS = 10_000;
const durationOf = (xs: number[]) => (noControl && Math.max(...xs) - Math.min(...xs) >= STALL_MS ? Math.min(...xs) : mean(xs));
const measuredMs = Object.fromEntries([...durations].map(([id, xs]) => [id, durationOf(xs)]));
const mergedMs = (old: Record<string, number> | undefined) => Object.fromEntries(Object.entries({ ...old, ...measuredMs }).sort(([x], [y]) => x.localeCompare(y)));
// The run's time outside its checks: before the first starts, after the last ends (the clean-up).
const overheads = eventsOf.map(overheadOf);
// The finish is kept by depth too: a larger depth's clean-up may wait for room in the windows its checks filled.
const clockKey = noControl ? 'real' : 'control';
const finish = mean(overheads.map((o) => o.finish));
const finishByDepth = { ...data.overheadMs?.[clockKey]?.finishByDepth, [depth]: finish };
(data.overheadMs ??= {})[clockKey] = { start: mean(overheads.map((o) => o.start)), finish, finishByDepth };
// A table that holds only checks with something to count: checks measured now (`now`) that counted nothing lose an old entry; checks not run keep theirs.
const mergedSparse = (old: Record<string, number> | undefined, fresh: Record<string, number>, now: (id: string) => boolean) =>
  Object.fromEntries([...Object.entries(old ?? {}).filter(([id]) => !now(id)), ...Object.entries(fresh)].sort(([x], [y]) => x.localeCompare(y)));
const mergedCleanup = (old: Record<string, number> | undefined) => mergedSparse(old, cleanup, (id) => !!measured[id]);
// How long the reference's mailboxes took to settle in the checks' sight (the median of the runs' medians): the progress line's baseline.
const settles = runs.flatMap((r) => (r.stats?.targetWork?.['mailbox-settle'] ? [r.stats.targetWork['mailbox-settle'].medianMs] : []));
if (noControl && settles.length) data.targetWorkMs = { ...data.targetWorkMs, 'mailbox-settle': median(settles) };
// How many mailboxes each check waits to see verified (its target-work events), where any: a first look's slower verification counts once for each.
const settleCounts = new Map<string, number[]>();
for (const [i, r] of runs.entries()) {
  const counts = new Map<string, number>();
  for (const e of eventsOf[i]!) if (e.type === 'target-work' && e.what === 'mailbox-settle') counts.set(e.checkId, (counts.get(e.checkId) ?? 0) + 1);
  for (const c of r.checks) if (c.ran) settleCounts.set(c.id, [...(settleCounts.get(c.id) ?? []), counts.get(c.id) ?? 0]);
}
const settlesByCheck = Object.fromEntries([...settleCounts].filter(([, xs]) => mean(xs) > 0).map(([id, xs]) => [id, mean(xs)]));
if (noControl) data.settlesWithoutControl = mergedSparse(data.settlesWithoutControl, settlesByCheck, (id) => settleCounts.has(id));
// The reference's own first look (a first run's: FirstLookEvent), the baseline a target's is set against.
const looks = eventsOf.flatMap((events) => events.filter((e): e is FirstLookEvent => e.type === 'first-look' && e.answerMs !== undefined && e.settleMs !== undefined));
if (noControl && looks.length) data.firstLook = { answerMs: median(looks.map((l) => l.answerMs!)), settleMs: median(looks.map((l) => l.settleMs!)) };
// With the control API (the embedded reference): each check's drains, those that ran work and its other control calls; and the reference's own first look (run --first-look).
if (!noControl) {
  const use = controlUse(runs, eventsOf);
  data.drains = mergedSparse(data.drains, use.drains, (id) => !!measured[id]);
  data.workDrains = mergedSparse(data.workDrains, use.work, (id) => !!measured[id]);
  data.controlCalls = mergedSparse(data.controlCalls, use.calls, (id) => !!measured[id]);
  const controlLooks = eventsOf.flatMap((events) => events.filter((e): e is FirstLookEvent => e.type === 'first-look' && e.answerMs !== undefined && e.drainMs !== undefined && e.workDrainMs !== undefined));
  // The least of each over the runs: the reference's own time where the machine let it (a median
  // over runs on a busy machine measured the machine, and a target's look then showed no difference).
  const least = (f: (l: FirstLookEvent) => number) => Math.min(...controlLooks.map(f));
  if (controlLooks.length) data.firstLookControl = { answerMs: least((l) => l.answerMs!), controlMs: least((l) => l.controlMs!), drainMs: least((l) => l.drainMs!), workDrainMs: least((l) => l.workDrainMs!) };
}
if (noControl) {
  (data.withoutControl ??= {})[depth] = merged(data.withoutControl?.[depth]);
  data.durationMsWithoutControl = mergedMs(data.durationMsWithoutControl);
  data.cleanupWithoutControl = mergedCleanup(data.cleanupWithoutControl);
} else {
  data.byDepth[depth] = merged(data.byDepth[depth]);
  data.durationMs = mergedMs(data.durationMs);
  data.cleanup = mergedCleanup(data.cleanup);
}
if (!noControl) data.source = `mean of ${runs.length} run(s) at depth ${depth} against the embedded reference (run --check . takes every check of a depth)`;
writeFileSync(OUT, `${JSON.stringify(data, null, 2)}\n`);
process.stdout.write(`${Object.keys(measured).length} checks measured at depth ${depth} -> ${OUT}\n`);

/** Per check, the mean over the runs of its drains (POST .../work/drain), those that ran work (`processed` over 0) and its other control calls (the exchanges sent to no workspace on behalf of a check, to the control API). */
function controlUse(runs: readonly Results[], eventsOf: readonly RunEvent[][]): { drains: Record<string, number>; work: Record<string, number>; calls: Record<string, number> } {
  const per = { drains: new Map<string, number[]>(), work: new Map<string, number[]>(), calls: new Map<string, number[]>() };
  for (const [i, r] of runs.entries()) {
    const apiBase = r.target.baseUrl.replace(/\/$/, '');
    const counts = new Map<string, { drains: number; work: number; calls: number }>();
    for (const e of eventsOf[i]!) {
      if (e.type !== 'exchange' || e.checkId === undefined || e.workspace !== undefined || e.request.url.startsWith(apiBase)) continue;
      const c = counts.get(e.checkId) ?? { drains: 0, work: 0, calls: 0 };
      if (e.request.method === 'POST' && /\/work\/drain$/.test(new URL(e.request.url).pathname)) {
        c.drains++;
        if (processedOf(e) > 0) c.work++;
      } else c.calls++;
      counts.set(e.checkId, c);
    }
    for (const c of r.checks) {
      if (!c.ran) continue;
      const got = counts.get(c.id) ?? { drains: 0, work: 0, calls: 0 };
      for (const k of ['drains', 'work', 'calls'] as const) per[k].set(c.id, [...(per[k].get(c.id) ?? []), got[k]]);
    }
  }
  const table = (m: Map<string, number[]>) => Object.fromEntries([...m].filter(([, xs]) => mean(xs) > 0).map(([id, xs]) => [id, mean(xs)]));
  return { drains: table(per.drains), work: table(per.work), calls: table(per.calls) };
}

function processedOf(e: ExchangeEvent): number {
  try {
    const n = Number((JSON.parse(e.response?.body ?? '{}') as { processed?: unknown }).processed);
    return Number.isFinite(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}
