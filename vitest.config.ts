import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The project's own tests: unit tests beside the code, and the mutation tests that prove the
// suite can fail. A conformance run uses harness/worker/vitest.conformance.config.ts instead.

/**
 * The longest files start first. The run without the control API spends minutes waiting out
 * real rate-limit windows and wall-clock caps: started last, it alone would set the run's length.
 */
const LONGEST_FIRST = [/portability-no-control\.test\.ts$/, /mutation\.test\.ts$/, /portability\.test\.ts$/, /portability-clock-edges\.test\.ts$/, /profile-needs\.test\.ts$/];

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

export default defineConfig({
  test: {
    include: ['harness/**/*.test.ts', 'suites/**/*.test.ts', 'fixtures/**/*.test.ts'],
    // Safety nets that end a hung test, far above need: on two cores shared with other test runs
    // (load average near 20), the slowest test under the default took 105 s (a default
    // conformance run through the CLI); longer ones set their own (portability, compare). No
    // test's verdict depends on finishing sooner (docs/TESTING.md).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two files at a time on the two cores of a CI machine (vitest would take one: cores - 1):
    // many tests wait on real sockets, mail and clocks rather than on the CPU.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // GitHub's workflow parser imports its schemas as bare JSON modules (written for a bundler),
    // which Node refuses without an import attribute: vite transforms it instead.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'reports/project-tests.junit.xml' },
  },
});
