// The send-path load: many mailboxes at the kit's mail sinks, campaigns that share every one of
// them, a few thousand leads; the target sends, the sink measures. Nothing here trusts the API for
// what was sent: every figure comes from what arrived at the sink (through which SMTP login, to
// which lead, carrying which step's marker, when).
//
// The target is known only over the wire: its base URL, its profile (names and declarations the
// spec leaves "not shown": the numbering of sendingDays, the mailbox status after a verification,
// referenced operations such as accounts.get / accounts.list / leads.create) and, when it offers
// one, the conformance-control API.
//
// Time:
// - With the control API the run is simulated: the clock moves in steps smaller than the gap
//   (POST /clock/advance, then POST /work/drain) and every message seen after the drain of the
//   step that reached T is dated T. A step's arrivals left, in the target's time, between the
//   previous step's T and T plus the wall time of this step (a control clock may also run with
//   real time); a timing rule is reported broken only when those bounds leave no room for it.
// - Without it the run is real time (gap 1 minute by default, every mailbox in parallel), dated
//   by the sink: a message left between the start of its SMTP transaction and its arrival. The run
//   stops at maxWallMs and says what was not reached.
//
// Bounded: every wait has a limit (maxWallMs over the whole run, maxSimulatedDays of target time,
// a stall bound of one day plus two gaps without an arrival, bounded verification polling).
//
// The run in modules: options.ts and run-context.ts (what a run goes by), setup.ts and verify.ts
// (workspace, mailboxes, campaigns), drive.ts and arrivals.ts (the sending phase, reading the
// sink), analyze.ts with ideal.ts and calendar.ts (the figures); this file composes them.
import { analyzeSendpath, type Analysis } from './analyze.ts';
import { driveSending, noteHowSendingEnded, type SendingOutcome } from './drive.ts';
import { openRun, type SendpathRun } from './run-context.ts';
import { setUpSendpathRun, type SendpathSetup } from './setup.ts';
import type { SendpathLoadOptions, SendpathLoadResult } from './types.ts';

export async function runSendpathLoad(opts: SendpathLoadOptions): Promise<SendpathLoadResult> {
  const run = openRun(opts);
  const setup = await setUpSendpathRun(run);
  const sending = await driveSending(run, setup);
  noteHowSendingEnded(run, setup, sending);
  const analysis = analyze(run, setup, sending);
  if (analysis.clampedLatencies > 0) run.notes.push(`${analysis.clampedLatencies} sends arrived more than an hour after they were allowed (recorded as one hour in fromAllowed)`);
  return resultOf(run, setup, sending, analysis);
}

function analyze(run: SendpathRun, setup: SendpathSetup, sending: SendingOutcome): Analysis {
  const { settings } = run;
  return analyzeSendpath({
    simulated: !!setup.control,
    start: setup.start,
    end: sending.end,
    timezone: setup.timezone,
    mailboxes: setup.boxes.map((b) => ({ id: b.id, address: b.address, cap: settings.capPerDay, gapMinutes: settings.gapMinutes })),
    leads: setup.leads,
    campaignStarts: setup.campaignStarts,
    steps: settings.steps,
    arrivals: sending.log.arrivals,
    messagesThroughSink: sending.log.ours,
    sendingWallMs: sending.sendingWallMs,
    ...(sending.stepS !== undefined ? { stepMs: sending.stepS * 1000 } : {}),
    stalled: sending.stopped === 'stalled',
  });
}

function resultOf(run: SendpathRun, setup: SendpathSetup, sending: SendingOutcome, analysis: Analysis): SendpathLoadResult {
  const { settings } = run;
  return {
    stats: analysis.stats,
    violations: analysis.violations,
    wallMs: Date.now() - run.wall0,
    sendingWallMs: sending.sendingWallMs,
    setupRequests: setup.setupRequests,
    controlRequests: run.recorder.stats.controlRequests,
    stopped: sending.stopped,
    expected: sending.expected,
    delivered: analysis.delivered,
    targetMs: sending.end - setup.start,
    idealMs: analysis.idealMs,
    ...(sending.stepS !== undefined ? { stepSeconds: sending.stepS } : {}),
    timezone: setup.timezone,
    gapMinutes: settings.gapMinutes,
    capPerDay: settings.capPerDay,
    campaigns: settings.campaigns,
    steps: settings.steps,
    unexpected: sending.log.unexpected,
    clampedLatencies: analysis.clampedLatencies,
    // secrets may hide in any text the target sent back
    notes: [...run.notes, ...analysis.notes].map(run.safe),
  };
}
