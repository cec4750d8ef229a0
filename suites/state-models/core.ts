// Shared vocabulary of the part-3 state machines (pure: no I/O, no clock, no randomness).
//
// A model is a value (the state the spec lets us predict) and a set of step functions
// `step(state, observation) -> { next, violations }`. The observation is what the target
// answered (HTTP status, the status it reported, the status read back through the API). The step
// function checks the answer against the rule of the spec that applies, names the clause it
// checks, and returns the next model state. Where the spec says "not shown" the step function
// asserts nothing about the outcome: it accepts any answer and adopts the state the target
// reports (that is written next to each such place).

export type RuleLevel = 'MUST' | 'SHOULD';

export interface Violation {
  clause: string;
  level: RuleLevel;
  message: string;
}

export interface Step<S> {
  next: S;
  violations: Violation[];
}

export const must = (clause: string, message: string): Violation => ({ clause, level: 'MUST', message });
export const should = (clause: string, message: string): Violation => ({ clause, level: 'SHOULD', message });

export const is2xx = (http: number): boolean => http >= 200 && http < 300;

/** "Rejected" (3.3) and business-rule refusals: a 4xx the error table of part 7 allows for it. */
export const isRejection = (http: number): boolean => http === 400 || http === 409;

export function isIsoTimestamp(v: unknown): v is string {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) && !Number.isNaN(Date.parse(v));
}

export const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));

/** "a draft", "an active". */
export const a = (w: unknown): string => (/^[aeiou]/i.test(String(w)) ? `an ${String(w)}` : `a ${String(w)}`);
