#!/usr/bin/env node
// Entry point: registers tsx so the TypeScript sources run as they are (no build step),
// resolving tsx from this package rather than from the caller's working directory.
import { register } from 'tsx/esm/api';
register();
// A closed pipe (`... | head`) is not an error of the kit.
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });
const { main, DONE_WHEN_RETURNED } = await import('../harness/cli/main.ts');
const argv = process.argv.slice(2);
process.exitCode = await main(argv);
if (DONE_WHEN_RETURNED.has(argv[0])) {
  // Everything written first (pipes and files are synchronous on Linux; the callbacks make sure).
  await new Promise((r) => process.stdout.write('', r));
  await new Promise((r) => process.stderr.write('', r));
  process.exit(process.exitCode);
}
