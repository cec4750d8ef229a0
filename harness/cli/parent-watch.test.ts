import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN } from './cli.test-helper.ts';
import { launchedByNpm } from './parent-watch.ts';

// `npx outreach-conformance sinks` runs as npm → sh → node; a stop given to npm ends npm and the
// shell and passes nothing on. The same chain here with a shell as the parent that is stopped:
// the kit's process must stop too, and its Dovecot with it.

const alive = (pid: number) => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
};
const refused = (port: number) =>
  new Promise<boolean>((done) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), done(false))).once('error', () => done(true));
  });

async function until(ok: () => boolean | Promise<boolean>, what: string, boundMs = 60_000): Promise<void> {
  for (const end = Date.now() + boundMs; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await ok()) return;
  throw new Error(`${what} did not happen within ${boundMs} ms`);
}

describe('the kit stops when the npm that started it is stopped', () => {
  it('npm_command marks a launch by npm (npm exec, npx, npm run)', () => {
    expect(launchedByNpm({ npm_command: 'exec' })).toBe(true);
    expect(launchedByNpm({})).toBe(false);
  });

  it('sinks under a stopped parent shell stop, Dovecot with them', async () => {
    const env = { ...process.env, npm_command: 'exec' };
    const sh = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" sinks --smtp-port 0 --smtps-port off --imap-port 0 --http-port 0 & echo $!; wait`], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: sh.stdout! })[Symbol.asyncIterator]();
    const kit = Number((await lines.next()).value);
    try {
      const said = JSON.parse((await lines.next()).value as string) as { http: { url: string }; imap: { port: number } | null };
      expect(alive(kit)).toBe(true);
      sh.kill('SIGTERM');
      await until(() => !alive(kit), 'the kit stopping');
      await until(() => refused(Number(new URL(said.http.url).port)), 'its HTTP API closing');
      if (said.imap) await until(() => refused(said.imap!.port), "Dovecot's IMAP closing");
    } finally {
      if (alive(kit)) process.kill(kit, 'SIGKILL');
    }
  }, 120_000);
});
