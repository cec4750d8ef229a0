// `npm run bench:compare-rule`: the regression rule of `compare` measured on this machine, not
// assumed. Trials of compare's measuring and judging parts against real reference processes: a
// reference slowed by 20 % CPU per request should be flagged in at least 9 of 10 trials (power),
// an identical build in at most 1 of 20 (false alarms). A benchmark, not a test: it prints the
// figures beside their goals and exits 0 either way (the rule's arithmetic is tested on seeded
// samples in harness/load/compare/stats.test.ts and compare-metrics.test.ts).
//
// Which metric holds the rule: CPU per request of the target (its CPU time from /proc), the
// steady figure. Latency and throughput swing by tens of percent between identical runs on a
// shared 2-core machine; their verdicts are counted and printed beside it.
//
// The design: 1,000 reads per run (a run of a few hundred measures a few tens of ms of CPU, where
// a garbage collection or a JIT tier-up moves CPU per request by 15 % and more) and 13 pairs
// (with 5 pairs only the all-five-worse outcome is significant, so one disturbed pair loses a
// trial; single pairs swing 30 % either way on a shared machine). The three targets (base, an
// identical build, the slowed build) start once, warm with 5,000 reads each, and are shared by
// the trials (each takes fresh workspaces and its own warm-up run, as `compare` does). Trials of
// the two kinds alternate, so a noisy stretch of the machine falls on both.
// Sizes: BENCH_PAIRS (13), BENCH_REQUESTS (1000), BENCH_SLOWED_TRIALS (10; identical trials are twice as many).
import { Redactor } from '../client/redact.ts';
import { DEFAULT_PROFILE_PATH, loadProfile } from '../ground/profile.ts';
import { DEFAULT_ALPHA, judgeMetrics, type MetricResult } from '../load/compare/metrics.ts';
import { apiRunner, runPairs } from '../load/compare/session.ts';
import { parseSide, serveSide, type ServedSide } from '../load/compare/sides.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 13);
const SLOWED_TRIALS = Number(process.env.BENCH_SLOWED_TRIALS ?? 10);
const IDENTICAL_TRIALS = 2 * SLOWED_TRIALS;
const SLOWDOWN = 0.2;
/** The goals, as shares of trials: the rule's power and its false-alarm rate. */
const GOAL = { power: 0.9, falseAlarms: 0.05 };

type Kind = 'slowed' | 'identical';

async function serveAll(): Promise<Record<'base' | Kind, ServedSide>> {
  const ref = await loadProfile(DEFAULT_PROFILE_PATH);
  const spec = await parseSide('.', 'base');
  const serve = (flag: 'base' | 'head', slowdown?: number) => serveSide(spec, { flag, profile: ref, referenceProfile: ref, redactor: new Redactor(), slowdown });
  const [base, identical, slowed] = await Promise.all([serve('base'), serve('head'), serve('head', SLOWDOWN)]);
  for (const side of [base, identical, slowed]) {
    const warm = await apiRunner(side, { requests: 5000, warmupRequests: 5000, connections: 4, reads: 'reads', maxRunMs: 60_000, seed: 1 });
    await warm.run();
    await warm.close();
  }
  return { base, identical, slowed };
}

async function trial(base: ServedSide, head: ServedSide, seed: number): Promise<MetricResult[]> {
  const o = { requests: REQUESTS, warmupRequests: REQUESTS, connections: 4, reads: 'reads' as const, maxRunMs: 30_000, seed };
  const [a, b] = [await apiRunner(base, o), await apiRunner(head, o)];
  try {
    const { runs } = await runPairs(a, b, { pairs: PAIRS });
    return judgeMetrics('api', runs, { thresholds: {}, alpha: DEFAULT_ALPHA, seed });
  } finally {
    await a.close();
    await b.close();
  }
}

const line = (kind: Kind, m: MetricResult) =>
  `${kind.padEnd(9)} ${m.verdict.padEnd(10)} median ${m.medianRatio?.toFixed(3) ?? '–'} p ${m.pValue?.toFixed(4) ?? '–'} ratios ${m.ratios.map((r) => r.toFixed(2)).join(' ')}`;

const started = Date.now();
const sides = await serveAll();
try {
  const flagged: Record<Kind, Map<string, number>> = { slowed: new Map(), identical: new Map() };
  const kinds = Array.from({ length: SLOWED_TRIALS }, () => ['identical', 'identical', 'slowed'] as const).flat();
  console.log(`compare rule: ${SLOWED_TRIALS} trials of a build slowed by ${SLOWDOWN * 100} % CPU per request, ${IDENTICAL_TRIALS} of an identical one; ${PAIRS} pairs of ${REQUESTS} reads each\n`);
  let seed = 0;
  for (const kind of kinds) {
    const metrics = await trial(sides.base, sides[kind], ++seed);
    for (const m of metrics) if (m.verdict === 'fail') flagged[kind].set(m.id, (flagged[kind].get(m.id) ?? 0) + 1);
    console.log(line(kind, metrics.find((m) => m.id === 'cpu')!));
  }
  const count = (kind: Kind, id: string) => flagged[kind].get(id) ?? 0;
  const power = count('slowed', 'cpu') / SLOWED_TRIALS;
  const falseAlarms = count('identical', 'cpu') / IDENTICAL_TRIALS;
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    [
      '',
      `CPU per request (the rule's metric): slowed flagged ${count('slowed', 'cpu')}/${SLOWED_TRIALS} (goal >= ${GOAL.power * 100} %: ${met(power >= GOAL.power)}), identical flagged ${count('identical', 'cpu')}/${IDENTICAL_TRIALS} (goal <= ${GOAL.falseAlarms * 100} %: ${met(falseAlarms <= GOAL.falseAlarms)})`,
      `reported only: ${['p50', 'p99', 'throughput'].map((id) => `${id} slowed ${count('slowed', id)}/${SLOWED_TRIALS}, identical ${count('identical', id)}/${IDENTICAL_TRIALS}`).join('; ')}`,
      `wall ${((Date.now() - started) / 1000).toFixed(0)} s`,
    ].join('\n'),
  );
} finally {
  await Promise.all(Object.values(sides).map((s) => s.stop()));
}
