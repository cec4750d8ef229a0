#!/usr/bin/env node
// Entry point: registers tsx so the TypeScript sources run as they are (no build step),
// resolving tsx from this package rather than from the caller's working directory.
import { register } from 'tsx/esm/api';
register();
// A closed pipe (`... | head`) is not an error of the kit.
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });
const { main } = await import('../harness/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
