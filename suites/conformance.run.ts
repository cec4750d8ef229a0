import { afterAll, beforeAll, describe, test } from 'vitest';
import { ALL_CHECKS } from './checks/index.ts';
import { loadProfile } from '../harness/runner/profile.ts';
import { Runner, isLast, isSolo, selectChecks } from '../harness/runner/runner.ts';
import { readRunContext } from '../harness/runner/context.ts';
import { createNdjsonSink } from '../harness/events/ndjson.ts';
import { closeAllPools } from '../harness/client/client.ts';
import type { Check } from './lib/check.ts';

// The vitest entry of a conformance run: one test per check, named by its id. The verdicts
// go to the event stream; vitest shows progress. Checks that observe the whole run go last.

const context = readRunContext();
const profile = { ...(await loadProfile(context.profilePath)), poolSize: context.poolSize };
const sink = createNdjsonSink(context.eventsPath, { append: true });
const runner = new Runner({ profile, baseUrl: context.baseUrl, control: context.control, depth: context.depth, sink, prefix: context.prefix, seed: context.seed, sinksUrl: context.sinksUrl });
const checks = selectChecks(ALL_CHECKS, context.depth, context.only ? new RegExp(context.only) : undefined);

beforeAll(() => runner.prepare(checks));
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

describe('checks that run alone', () => checks.filter(isSolo).forEach(asTest));
describe.concurrent('checks', () => checks.filter((c) => !isLast(c) && !isSolo(c)).forEach(asTest));
describe('observers of the whole run', () => checks.filter(isLast).forEach(asTest));
