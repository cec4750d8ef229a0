import type { Check } from '../../lib/check.ts';

/** Model-based checks: the state machines of part 3 driven by fast-check command sequences. */
export const MODEL_CHECKS: Check[] = [];
