#!/usr/bin/env node
// Entry point: registers tsx so the TypeScript sources run as they are (no build step),
// resolving tsx from this package rather than from the caller's working directory.
import { register } from 'tsx/esm/api';
register();
// A closed pipe (`... | head`) ends what is said there, not the command: its later writes are
// dropped, the command goes on to its end and its own exit code (harness/cli/closed-stream.ts).
const { dropWritesOnceClosed } = await import('../harness/cli/closed-stream.ts');
dropWritesOnceClosed(process.stdout);
dropWritesOnceClosed(process.stderr);
// Under npx/npm exec a stop given to npm never reaches this process: its parent going is the stop
// (harness/cli/parent-watch.ts).
const { launchedByNpm, stopWhenParentGoes } = await import('../harness/cli/parent-watch.ts');
if (launchedByNpm()) stopWhenParentGoes();
const { main, DONE_WHEN_RETURNED } = await import('../harness/cli/main.ts');
const argv = process.argv.slice(2);
process.exitCode = await main(argv);
if (DONE_WHEN_RETURNED.has(argv[0])) {
  // Everything written first (pipes and files are synchronous on Linux; the callbacks make sure).
  await new Promise((r) => process.stdout.write('', r));
  await new Promise((r) => process.stderr.write('', r));
  process.exit(process.exitCode);
}
