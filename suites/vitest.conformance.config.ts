import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// A conformance run: one worker (the workspace budgets live in it), checks run concurrently
// inside it, bounded by maxConcurrency (the CLI sets it from --concurrency).
export default defineConfig({
  test: {
    include: ['suites/conformance.run.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
    maxConcurrency: 8,
    experimental: moduleCache(),
  },
});

/**
 * The checks' transformed modules are kept between runs (vitest keys them by content): a run
 * starts about 1.5 s sooner. In the user's temp directory (the kit's own folder may be
 * read-only), and only where it can be written: vitest waits for ever on a cache it cannot write.
 */
function moduleCache(): { fsModuleCache: boolean; fsModuleCachePath?: string } {
  const dir = process.env.OUTREACH_VITEST_CACHE ?? join(tmpdir(), `outreach-conformance-vitest-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return { fsModuleCache: true, fsModuleCachePath: dir };
  } catch {
    return { fsModuleCache: false };
  }
}
