import { defineConfig } from 'vitest/config';

// The project's own tests: unit tests beside the code, and the mutation tests that prove the
// suite can fail. A conformance run uses suites/vitest.conformance.config.ts instead.
export default defineConfig({
  test: {
    include: ['harness/**/*.test.ts', 'suites/**/*.test.ts', 'fixtures/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'reports/project-tests.junit.xml' },
  },
});
