import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The project's own tests: unit tests beside the code, and the mutation tests that prove the
// suite can fail. A conformance run uses suites/vitest.conformance.config.ts instead.

/**
 * The longest files start first. The run without the control API spends minutes waiting out
 * real rate-limit windows and wall-clock caps: started last, it alone would set the run's length.
 */
const LONGEST_FIRST = [/portability-no-control\.test\.ts$/, /mutation\.test\.ts$/, /portability\.test\.ts$/, /compare-rule\.test\.ts$/];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((re) => re.test(f.moduleId));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
  }
}

/**
 * Tests that measure CPU time and need the machine to themselves: `npm test` runs them after the
 * rest, alone (OUTREACH_TESTS=alone). Beside another test file their trials lose their power.
 */
const ALONE = ['harness/load/compare-rule.test.ts'];
const alone = process.env.OUTREACH_TESTS === 'alone';

export default defineConfig({
  test: {
    include: alone ? ALONE : ['harness/**/*.test.ts', 'suites/**/*.test.ts', 'fixtures/**/*.test.ts'],
    exclude: alone ? [] : ALONE,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time on the two cores of a CI machine (vitest would take one: cores - 1):
    // many tests wait on real sockets, mail and clocks rather than on the CPU.
    maxWorkers: alone ? 1 : 2,
    sequence: { sequencer: LongestFirst },
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: alone ? 'reports/project-tests-alone.junit.xml' : 'reports/project-tests.junit.xml' },
  },
});
