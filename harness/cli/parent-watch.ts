// `npx outreach-conformance sinks` runs as npm → sh → node. Stopping npm (SIGTERM or SIGINT to
// it, as a CI service step or `kill $!` does) ends npm and its shell but passes nothing on to
// node: the kit and its Dovecot kept running with parent 1. Launched by npm, the kit's process
// lives exactly as long as its parent does, so a parent gone is the stop it was not told of: the
// process sends itself SIGTERM, and each command stops as it does on SIGTERM (Dovecot with it).

/** How often the parent is looked at: a stop is seen within this (the timer keeps nothing alive). */
const EVERY_MS = 500;

/** Whether npm (npm exec, npx, npm run) started this process: it sets npm_command for what it runs. */
export const launchedByNpm = (env: NodeJS.ProcessEnv = process.env): boolean => !!env.npm_command;

/**
 * Once the parent process is gone (this process handed to another parent), SIGTERM to this one.
 * Returns the way to stop watching.
 */
export function stopWhenParentGoes(onGone: () => void = () => process.kill(process.pid, 'SIGTERM')): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
