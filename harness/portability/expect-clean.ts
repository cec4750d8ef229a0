import { expect } from 'vitest';
import type { PortabilityResult } from './run.ts';

/** A correct implementation passes: no MUST/PROFILE failure, no error, every skip says why. */
export function expectClean(r: PortabilityResult): void {
  expect(r.problems, `choices ${r.choices}${r.control ? '' : ', without the control API'}, run seed ${r.seed}`).toEqual([]);
  expect(r.unexplainedSkips).toEqual([]);
  expect(r.results.filter((x) => x.verdict === 'pass').length).toBeGreaterThan(150);
}
