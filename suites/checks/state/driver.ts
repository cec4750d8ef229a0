import fc from 'fast-check';
import type { ApiResponse } from '../../../harness/ground/api-client.ts';
import type { CheckContext, Depth, Workspace } from '../../../harness/ground/check.ts';
import { CheckFailure, CheckSkipped } from '../../../harness/ground/check.ts';
import type { RuleLevel, Step, Violation } from '../../state-models/core.ts';

// The part every model-based check shares: fast-check drives command sequences against the
// target, each step is judged by a pure model (suites/state-models/), the first step that breaks a rule
// of the level the check is about throws a ModelViolation; fast-check shrinks to a minimal
// sequence, and the failure message carries the model's verdict, the minimal sequence, the
// fast-check seed and path, and how to replay it.
//
// Replay: the check's seed derives from the run seed (`--seed N` replays the whole run, shrinking
// included; fast-check's own seed and path are printed too, for `fc.check(..., { seed, path })` by
// hand).

export class ModelViolation extends Error {
  constructor(
    public readonly violations: Violation[],
    public readonly trace: readonly string[],
    public readonly evidence: readonly string[],
  ) {
    super(violations.map((v) => `[${v.level} ${v.clause}] ${v.message}`).join('; '));
    this.name = 'ModelViolation';
  }
}

/** One fast-check run's side of the world: the trace of commands and the exchanges they made. */
export class Trail {
  readonly trace: string[] = [];
  evidence: string[] = [];
  constructor(public readonly level: RuleLevel) {}

  /** Starts a step: its exchanges become the evidence if it fails. */
  begin(label: string): void {
    this.trace.push(label);
    this.evidence = [];
  }

  note(...res: (ApiResponse | undefined)[]): void {
    for (const r of res) if (r) this.evidence.push(r.exchangeId);
  }

  /** Judges a step: throws on the violations of this check's level, returns the next state. */
  judge<S>(step: Step<S>): S {
    const mine = step.violations.filter((v) => v.level === this.level);
    if (mine.length) throw new ModelViolation(mine, [...this.trace], [...this.evidence]);
    return step.next;
  }
}

export interface RunSize {
  numRuns: number;
  maxCommands: number;
  /** Wall-clock bound of the whole property (runs and shrinking); a found failure is kept. */
  timeLimitMs: number;
}

/**
 * Bounded: a few short runs by default, fewer and shorter at quick and smoke (the smaller budgets), more and longer at depth full. With the control API every
 * run gets a fresh workspace (its own rate budget), so runs are cheap; without it every run shares
 * one rate-limited workspace (120 requests a minute), so there are fewer.
 */
/** Where runSize gives fewer and shorter runs than at default: a model check declares it (Check.shallowerAt). */
export const SHALLOWER_AT = ['smoke', 'quick'] as const;

export function runSize(depth: Depth, control: boolean, rate?: { requests: number; windowSeconds: number }): RunSize {
  const base: RunSize =
    depth === 'full' ? { numRuns: control ? 60 : 8, maxCommands: 16, timeLimitMs: 120_000 }
    : depth === 'quick' || depth === 'smoke' ? { numRuns: control ? 6 : 2, maxCommands: 6, timeLimitMs: 20_000 }
    : { numRuns: control ? 8 : 3, maxCommands: control ? 10 : 6, timeLimitMs: 45_000 };
  if (control || !rate) return base;
  // One shared workspace in real time: give the planned runs the time the rate limit needs for
  // them (a run costs about 3 requests a command plus its setup), with room for the other checks
  // that share the workspace meanwhile, and never more than the run's own time out allows.
  const perRun = 4 + 3 * base.maxCommands;
  const seconds = (base.numRuns * perRun * rate.windowSeconds) / rate.requests;
  return { ...base, timeLimitMs: Math.min(MAX_MODEL_MS, Math.max(base.timeLimitMs, Math.ceil(seconds * SHARED_FACTOR * 1000))) };
}

/** Other checks use the shared workspace's budget meanwhile (up to this many at once). */
const SHARED_FACTOR = 3;
/** Below the conformance run's per-check time out (harness/worker/vitest.conformance.config.ts, 600 s). */
const MAX_MODEL_MS = 420_000;

/**
 * The workspace of one run: with the control API a fresh one per run (nothing else in it, its own
 * budget); without it, the one shared workspace leased for the whole check.
 */
export function workspaces(ctx: CheckContext): { next(): Promise<Workspace>; exclusive: boolean } {
  if (ctx.control) return { next: () => ctx.workspace({ exclusive: true }), exclusive: true };
  let shared: Promise<Workspace> | undefined;
  return { next: () => (shared ??= ctx.workspace()), exclusive: false };
}

/**
 * Runs `property` over `arb` with the check's seed; turns a failure into a CheckFailure that
 * names the minimal command sequence and how to replay it.
 */
export async function checkModel<T>(ctx: CheckContext, machine: string, arb: fc.Arbitrary<T>, property: (value: T) => Promise<void>, size: RunSize): Promise<void> {
  const result = await fc.check(fc.asyncProperty(arb, property), {
    seed: ctx.seed,
    numRuns: size.numRuns,
    interruptAfterTimeLimit: size.timeLimitMs,
    markInterruptAsFailure: false,
  });
  if (!result.failed) return;
  const err = result.errorInstance;
  if (result.interrupted && result.numRuns === 0 && err == null) {
    throw new CheckSkipped(`no ${machine} model run finished within ${Math.round(size.timeLimitMs / 1000)} s under the target's rate limit: the model needs more time than the rate budget leaves it (run it alone with --only, or give the control API)`);
  }
  const where = `fast-check seed ${result.seed}, path "${result.counterexamplePath}", after ${result.numRuns} run(s) and ${result.numShrinks} shrink(s)${result.interrupted ? ' (shrinking cut short by the time limit)' : ''}; replay: run again with the same run seed (--seed, printed below) and the same --depth, or fc.check with { seed: ${result.seed}, path: "${result.counterexamplePath}" }`;
  if (err instanceof ModelViolation) {
    // The cause: the model and the clauses its run broke (the sequence that shows it varies by seed).
    const typed = { kind: 'value' as const, fields: { rule: `${machine} model`, clauses: [...new Set(err.violations.map((v) => v.clause))].sort() } };
    throw new CheckFailure(`${machine} model: ${err.message}. Minimal sequence: ${err.trace.join(' -> ')}. ${where}`, [...err.evidence], typed);
  }
  if (err instanceof CheckSkipped) throw err;
  if (err instanceof CheckFailure) throw new CheckFailure(`${machine} model: ${err.message}. ${where}`, err.evidence, err.typed);
  const e = err instanceof Error ? err : new Error(String(err));
  e.message = `${machine} model run broke: ${e.message}. ${where}`;
  throw e;
}

/** Commands whose precondition and effect live in the model; fast-check's AsyncCommand. */
export type Cmd<M extends object, R> = fc.AsyncCommand<M, R>;
