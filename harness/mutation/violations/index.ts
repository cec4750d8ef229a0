import { VIOLATIONS_PART1_2 } from './part1-2.ts';
import { VIOLATIONS_PART2_4 } from './part2-4.ts';
import { VIOLATIONS_PART4_9 } from './part4-9.ts';
import type { ViolationCatalog } from './types.ts';

export type { Violation, ViolationCatalog } from './types.ts';

/** Every MUST and PROFILE clause's plausible violations (types.ts), one file per run of sections. */
export const VIOLATIONS: ViolationCatalog = { ...VIOLATIONS_PART1_2, ...VIOLATIONS_PART2_4, ...VIOLATIONS_PART4_9 };
