// A send-path load report for the tests of load.html and the report pages, its figures from the
// analysis itself (beside it, so the report room's own helper needs nothing of the send path).

import { encode, newHistogram } from '../report/histogram.ts';
import { emptyLoadReport } from '../report/load-report.test-helper.ts';
import type { LoadReport } from '../report/types.ts';
import { analyzeSendpath } from './analyze.ts';

const MINUTE = 60_000;

/**
 * A send-path run as `load sendpath` writes it, its figures from the analysis itself: 5 mailboxes
 * with a 5-minute gap and a cap of 200 a day sending 120 emails over two hours of simulated time,
 * every mailbox at its gap (so 24 sends each, far under the cap), nothing lost or sent twice.
 */
export function sendpathLoadReport(): LoadReport {
  const start = Date.UTC(2025, 0, 6, 9, 0, 0);
  const mailboxes = Array.from({ length: 5 }, (_, i) => ({ id: `mbx_${i}`, address: `sender${i}@outreach.example.test`, cap: 200, gapMinutes: 5 }));
  const arrivals = Array.from({ length: 120 }, (_, k) => {
    const at = start + Math.floor(k / 5) * 5 * MINUTE + 2_000;
    return { mailbox: k % 5, lead: k, step: 0, at, lo: at - MINUTE, hi: at + 5 };
  });
  const a = analyzeSendpath({
    simulated: true,
    start,
    end: start + 2 * 60 * MINUTE,
    timezone: 'UTC',
    mailboxes,
    leads: arrivals.map((_, i) => ({ address: `lead${i}@example.test`, campaign: 0 })),
    campaignStarts: [start],
    steps: 1,
    arrivals,
    messagesThroughSink: arrivals.length,
    sendingWallMs: 4_000,
    stepMs: MINUTE,
  });
  const none = encode(newHistogram());
  return {
    ...emptyLoadReport(),
    kind: 'sendpath',
    runId: '20250106-090000-load-sendpath',
    plan: { durationMs: 4_000, intended: 120, workspaces: 1, mix: {} },
    totals: { sent: 120, completed: a.delivered, late: 0, errors: 120 - a.delivered, status: {}, throughput: 30, corrected: none, service: none },
    violations: a.violations,
    sendpath: a.stats,
    notes: ['stopped: all arrived; 120 of 120 expected emails arrived; 1 campaign(s) sharing 5 mailboxes, gap 5 min, cap 200/day, 1 step(s), days in UTC'],
  };
}
