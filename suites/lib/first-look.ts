import type { CheckContext } from '../../harness/ground/check.ts';
import type { FirstLookMeasure } from '../../harness/ground/events.ts';
import { expect2xx, expectThat, snippet } from './expect.ts';
import { settle, sinkMailbox, verified } from '../checks/resources/lib.ts';

// A first look at a target the kit knows nothing of yet, taken before any check starts (the
// runner holds them: harness/runner/runner.ts firstLook): how long it takes to answer, and how
// long its engine takes to verify one mailbox at the kit's sinks in its own time. The run's
// estimate is made again from it (harness/runner/first-look-pace.ts): the reference's durations
// say nothing of a target whose network or engine is slower. It proves no clause; its mailbox is
// deleted after it like any check's.

/** Requests without a key whose median answer time is taken (they count toward no workspace). */
export const ANSWER_PROBES = 5;
/** What it is admitted with: its mailbox's creation, verification polls and deletion. */
export const FIRST_LOOK_REQUESTS = 8;

export async function firstLook(ctx: CheckContext): Promise<FirstLookMeasure> {
  const answers: number[] = [];
  for (let i = 0; i < ANSWER_PROBES; i++) {
    const t0 = performance.now();
    await ctx.anonymous.get('/v1/workspace');
    answers.push(performance.now() - t0);
  }
  const answerMs = Math.round(answers.sort((a, b) => a - b)[Math.floor(answers.length / 2)]!);
  const ws = await ctx.workspace();
  const { input } = await sinkMailbox(ctx, false);
  const created = await ws.api.post('/v1/accounts', { accounts: [input] });
  expect2xx(created, 'first look: POST /v1/accounts');
  const id = created.body?.accounts?.[0]?.id;
  expectThat(typeof id === 'string', `first look: POST /v1/accounts created no mailbox: ${snippet(created)}`, created);
  const t0 = Date.now();
  // Its wait is this event's, not a check's: no target-work event.
  const last = await settle({ ...ctx, targetWork: undefined }, ws.api, id);
  return verified(ctx)(last.body) ? { answerMs, settleMs: Date.now() - t0 } : { answerMs };
}
