// `npm run bench:sendpath`: the reference's sending engine under the send-path load
// (harness/load/sendpath/sendpath.ts): 2,000 leads over 100 mailboxes shared by two campaigns, at the kit's
// SMTP sink, in simulated time (the control clock in steps smaller than the gap). Prints wall
// time, emails per wall-second through the sink, the achieved send rate against the ideal one the
// caps and gaps allow, duplicates, losses and gap/cap violations. A benchmark, not a test.
// Sizes: BENCH_LEADS, BENCH_MAILBOXES, BENCH_GAP_MINUTES (default 1), BENCH_CAP (default 200).
import { startReference } from '../reference/index.ts';
import { startSinks } from '../sinks/index.ts';
import { loadProfile } from '../ground/profile.ts';
import { closeAllPools } from '../client/client.ts';
import { runSendpathLoad } from '../load/sendpath/sendpath.ts';
import { decode, percentile } from '../load/report/histogram.ts';

const LEADS = Number(process.env.BENCH_LEADS ?? 2000);
const MAILBOXES = Number(process.env.BENCH_MAILBOXES ?? 100);
const GAP_MINUTES = Number(process.env.BENCH_GAP_MINUTES ?? 1);
const PER_DAY = Number(process.env.BENCH_CAP ?? 200);
const MINUTE = 60_000;

const sink = await startSinks({ requireAuth: true, maxLifetimeMs: 30 * MINUTE });
const ref = await startReference({ log: () => {}, backgroundTimer: false });
try {
  const r = await runSendpathLoad({
    baseUrl: ref.baseUrl,
    profile: await loadProfile(),
    control: { baseUrl: ref.controlUrl, token: ref.controlToken },
    sink,
    mailboxes: MAILBOXES,
    leads: LEADS,
    gapMinutes: GAP_MINUTES,
    capPerDay: PER_DAY,
    maxWallMs: 20 * MINUTE,
  });
  const s = r.stats;
  const h = decode(s.fromAllowed);
  console.log(`send path: ${LEADS} leads over ${MAILBOXES} mailboxes in ${r.campaigns} campaigns (gap ${GAP_MINUTES} min, cap ${PER_DAY}/day), simulated time in steps of ${r.stepSeconds} s`);
  console.log(
    [
      `wall ${(r.wallMs / 1000).toFixed(1)} s (sending ${(r.sendingWallMs / 1000).toFixed(1)} s)`,
      `${s.emailsPerWallSecond.toFixed(0)} emails/s through the sink`,
      `simulated ${(r.targetMs / MINUTE).toFixed(0)} min, ideal ${(r.idealMs / MINUTE).toFixed(0)} min`,
      `achieved/ideal ${(s.achievedPerDay / s.idealPerDay).toFixed(3)}`,
      `from allowed p50 ${(percentile(h, 50) / 1000).toFixed(0)} ms p99 ${(percentile(h, 99) / 1000).toFixed(0)} ms`,
      `duplicates ${s.duplicates}`,
      `losses ${s.losses}`,
      `gap violations ${s.gapViolations}`,
      `cap violations ${s.capViolations}`,
      `stopped: ${r.stopped}`,
    ].join('  |  '),
  );
  for (const n of r.notes) console.log(`note: ${n}`);
} finally {
  await ref.stop();
  await sink.stop();
  await closeAllPools();
}
