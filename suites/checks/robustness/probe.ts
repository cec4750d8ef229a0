import fc from 'fast-check';
import type { ApiClient, ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Profile } from '../../../harness/ground/profile-schema.ts';
import { TransportError } from '../../../harness/client/index.ts';
import { envelopeProblems, problemCause, snippet } from '../../lib/expect.ts';
import { msg, naming, type RuleText } from '../../../harness/ground/failure.ts';
import type { Expectation, HostileCase } from './cases.ts';

// One hostile request and what the spec orders for it; a fast-check run over many of them whose
// failures shrink, with a request cap so shrinking never outspends the check's budget.

/** The bound this kit declares for an answer to hostile input (a hang past it fails the check). */
export const ANSWER_WITHIN_MS = 15_000;

/** What is wrong, written as a rule (msg`...`): its cause is data, whatever the case quotes. */
export interface Problem {
  message: RuleText;
  exchangeId?: string;
}

/** What is wrong with the answer to a hostile request (undefined: it is what the spec orders). */
export function judge(res: ApiResponse, what: string, expect: Expectation, profile: Profile): Problem | undefined {
  const at = { exchangeId: res.exchangeId };
  if (res.status >= 500) return { message: msg`${what}: answered ${res.status} ${snippet(res)}; invalid input is the caller's error (4xx), never a 5xx`, ...at };
  if (res.status >= 400) {
    const problems = envelopeProblems(res, profile);
    if (problems.length) return { message: naming(msg`${what}: the ${res.status} answer breaks the error envelope: ${problems.join('; ')}`, problems.map(problemCause)), ...at };
    return undefined;
  }
  if (expect === 'element-refused') {
    const b = res.body;
    const refused = b?.summary?.created === 0 && Array.isArray(b?.accounts) && b.accounts.length === 0 && Array.isArray(b?.errors) && b.errors.length > 0;
    return refused ? undefined : { message: msg`${what}: answered ${res.status} without refusing the invalid element (4.2: each element is validated; it belongs in errors, nothing created) ${snippet(res)}`, ...at };
  }
  if (expect === 'refuse') return { message: msg`${what}: answered ${res.status}; the spec refuses it (part 7: body or parameters invalid, 400 validation_failed)`, ...at };
  return undefined;
}

/** Sends one request; a timeout or a dropped connection is a problem, not a crash of the check. */
export async function send(api: ApiClient, req: ApiRequest, what: string): Promise<ApiResponse | Problem> {
  try {
    return await api.request({ ...req, timeoutMs: ANSWER_WITHIN_MS });
  } catch (e) {
    if (e instanceof TransportError) return { message: msg`${what}: no answer (${e.message}); the target must answer within ${ANSWER_WITHIN_MS / 1000} s`, exchangeId: e.exchangeId };
    throw e;
  }
}

export async function probe(api: ApiClient, c: HostileCase, profile: Profile): Promise<Problem | undefined> {
  const res = await send(api, c.req, c.what);
  return 'status' in res ? judge(res, c.what, c.expect, profile) : res;
}

export interface FuzzResult {
  problem?: Problem;
  requests: number;
}

/**
 * Runs `runs` cases drawn by fast-check from `seed`; a failure shrinks within `cap` requests in all.
 * The problem reported is the smallest failing case found, with the seed and path to replay it.
 */
export async function fuzz(api: ApiClient, arb: fc.Arbitrary<HostileCase>, o: { seed: number; runs: number; cap: number; profile: Profile }): Promise<FuzzResult> {
  let requests = 0;
  let last: Problem | undefined;
  const prop = fc.asyncProperty(arb, async (c) => {
    if (requests >= o.cap) return true; // out of budget: stop shrinking here
    requests++;
    const p = await probe(api, c, o.profile);
    last = p ?? last;
    return p === undefined;
  });
  const out = await fc.check(prop, { seed: o.seed | 0, numRuns: o.runs });
  if (!out.failed) return { requests };
  if (!last) throw out.errorInstance ?? new Error('the hostile-input property failed without a problem');
  const replay = msg` (fast-check seed ${out.seed}, path ${out.counterexamplePath ?? '-'}, ${out.numShrinks} shrink(s))`;
  return { requests, problem: { ...last, message: { ...last.message, text: last.message.text + replay.text, rule: last.message.rule + replay.rule } } };
}
