import { afterAll, beforeAll, describe, test } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { Runner } from '../runner/runner.ts';
import { runPhases } from '../plan/schedule.ts';
import { readRunContext } from '../runner/context.ts';
import { createNdjsonSink } from '../events/ndjson.ts';
import { closeAllPools } from '../client/client.ts';
import type { Check } from '../ground/check.ts';
import { FIRST_LOOK_REQUESTS, firstLook } from '../../suites/lib/first-look.ts';

// The vitest entry of a conformance run: one test per check, named by its id. The CLI resolved
// the run (profile, chosen checks); this worker runs exactly those, in the phases of runPhases.
// The verdicts go to the event stream; vitest shows progress.

/** A check still running this long after it started ends as an error (vitest's own timeout is off: admission waits are not the check's). */
const CHECK_TIMEOUT_MS = 600_000;

const context = readRunContext();
const BY_ID = new Map(ALL_CHECKS.map((c) => [c.id, c]));
const checks = context.checkIds.map((id) => BY_ID.get(id) ?? fail(`the run names check ${id}, which this kit does not have`));
const sink = createNdjsonSink(context.eventsPath, { append: true });
// vitest starts every test of a phase at once; the runner's admission starts `concurrency` of
// them at a time, each once its requests fit in a workspace's rate window (harness/runner/admission.ts).
const runner = new Runner({ profile: context.profile, baseUrl: context.baseUrl, control: context.control, depth: context.depth, sink, prefix: context.prefix, seed: context.seed, sinksUrl: context.sinksUrl, concurrency: context.concurrency, requestBudget: context.requestBudget, checkTimeoutMs: CHECK_TIMEOUT_MS });

function fail(message: string): never {
  throw new Error(message);
}

// A run that cannot prepare (a key or the control token refused, sinks that cannot start) says so
// in the stream: the CLI exits 2 with the message instead of reading the unrun checks as a verdict.
beforeAll(async () => {
  try {
    await runner.prepare(checks);
  } catch (e) {
    sink.emit({ type: 'setup-error', message: runner.redactor.text(e instanceof Error ? e.message : String(e)) });
    throw e;
  }
  // A first run against a target: the checks wait for a first look at it (the estimate is made again from it).
  if (context.firstLook) await runner.firstLook({ run: firstLook, requests: FIRST_LOOK_REQUESTS });
});
afterAll(async () => {
  await runner.finish();
  await closeAllPools();
  await sink.close();
});

function asTest(check: Check) {
  test(check.id, async (t) => {
    const r = await runner.runCheck(check);
    if (r.verdict === 'skip') t.skip(r.message);
    if (r.verdict === 'error') throw new Error(`harness error: ${r.message}`);
    // A SHOULD check that fails is a warning: shown in the reports, not a failed test.
    if (r.verdict === 'fail' && r.level !== 'SHOULD') throw new Error(r.message);
  });
}

// Checks run alone only where the control clock moves (a target's real clock never jumps); against
// real time the short ones go by what they send, most first (runPhases).
for (const phase of runPhases(checks, { clock: runner.clock, requests: (c) => runner.need(c) })) (phase.concurrent ? describe.concurrent : describe)(phase.name, () => phase.checks.forEach(asTest));
