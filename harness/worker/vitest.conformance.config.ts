import { defineConfig } from 'vitest/config';

// A conformance run: one worker (the workspace budgets live in it), checks run concurrently
// inside it, bounded by maxConcurrency (the CLI sets it from --concurrency). The module cache
// is the run's own: the CLI gives its directory (harness/conformance/module-cache.ts).
export default defineConfig({
  test: {
    include: ['harness/worker/conformance.run.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
    maxConcurrency: 8,
  },
});
