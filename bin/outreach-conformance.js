#!/usr/bin/env node
// Entry point: registers tsx so the TypeScript sources run as they are (no build step),
// resolving tsx from this package rather than from the caller's working directory.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../harness/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
