import type { CheckContext, ControlClient } from '../../harness/ground/check.ts';
import type { FirstLookMeasure } from '../../harness/ground/events.ts';
import { expect2xx, expectThat, snippet, msg } from './expect.ts';
import { settle, sinkMailbox, verified } from '../checks/resources/lib.ts';
import { LONGEST_DRAIN_MS } from './drain.ts';

// A first look at a target the kit knows nothing of yet, taken before any check starts (the
// runner holds them: harness/runner/runner.ts firstLook): how long it takes to answer, and how
// long its engine takes to verify one mailbox at the kit's sinks in its own time; with the control
// API, how long a control round trip, a drain with nothing due and a drain with one verification
// due take (the checks wait on these where the control API runs the work: a drain per clock step).
// The run's estimate is made again from it (harness/plan/first-look-pace.ts): the reference's
// durations say nothing of a target whose network, engine or control API is slower. It proves no
// clause; its mailbox is deleted after it like any check's.

/** Requests without a key whose least answer time is taken (they count toward no workspace); as many GET /clock with the control API. */
export const ANSWER_PROBES = 5;
/** What it is admitted with: its mailbox's creation, verification polls and deletion. */
export const FIRST_LOOK_REQUESTS = 8;
/** Empty drains timed with the control API (the least taken). */
export const EMPTY_DRAINS = 3;
/**
 * Drains with one mailbox's verification due, each after its own mailbox (the least taken): one
 * sample on a busy machine was 67 ms in one run and 648 ms in the next against the same target,
 * and the estimate counts it for every drain with work a run makes (123 s announced for a 51-s run).
 */
export const WORK_DRAINS = 2;

// The least of a few: the look runs while the kit itself starts (its workers load), and on a busy
// machine a probe's time is mostly the wait for a CPU; the least is the target's own (a slowed
// target's pause is in every probe). The reference's look it is set against is the least too.
const leastOf = (xs: number[]) => Math.round(Math.min(...xs));

async function timed(n: number, call: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return leastOf(times);
}

export async function firstLook(ctx: CheckContext): Promise<FirstLookMeasure> {
  const answerMs = await timed(ANSWER_PROBES, () => ctx.anonymous.get('/v1/workspace'));
  if (ctx.control) return { answerMs, ...(await controlLook(ctx, ctx.control)) };
  const ws = await ctx.workspace();
  const id = await sinkMailboxCreated(ctx, ws.api);
  const t0 = Date.now();
  // Its wait is this event's, not a check's: no target-work event.
  const last = await settle({ ...ctx, targetWork: undefined }, ws.api, id);
  return verified(ctx)(last.body) ? { answerMs, settleMs: Date.now() - t0 } : { answerMs };
}

/**
 * With the control API: a GET /clock round trip (the least of ANSWER_PROBES), a drain of a fresh
 * workspace with nothing due (the least of EMPTY_DRAINS), and (with the kit's sinks) a drain with
 * one mailbox's verification due (the least of WORK_DRAINS, a mailbox each). Each bounded as a
 * check's longest: its time is what a check waits on it.
 */
async function controlLook(ctx: CheckContext, control: ControlClient): Promise<Omit<FirstLookMeasure, 'answerMs'>> {
  const controlMs = await timed(ANSWER_PROBES, () => control.now());
  const ws = await ctx.workspace();
  const drain = async () => {
    const t0 = performance.now();
    await control.drain(LONGEST_DRAIN_MS, ws.organizationId);
    return performance.now() - t0;
  };
  const drainMs = await timed(EMPTY_DRAINS, () => control.drain(LONGEST_DRAIN_MS, ws.organizationId));
  if (!ctx.sinks) return { controlMs, drainMs };
  const work: number[] = [];
  for (let i = 0; i < WORK_DRAINS; i++) {
    await sinkMailboxCreated(ctx, ws.api);
    work.push(await drain());
  }
  return { controlMs, drainMs, workDrainMs: leastOf(work) };
}

async function sinkMailboxCreated(ctx: CheckContext, api: Parameters<typeof settle>[1]): Promise<string> {
  const { input } = await sinkMailbox(ctx, false);
  const created = await api.post('/v1/accounts', { accounts: [input] });
  expect2xx(created, 'first look: POST /v1/accounts');
  const id = created.body?.accounts?.[0]?.id;
  expectThat(typeof id === 'string', msg`first look: POST /v1/accounts created no mailbox: ${snippet(created)}`, created);
  return id as string;
}
