import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// npm run test:busy with a stand-in for npm on the PATH: what it runs, what it prints and
// returns, and that its CPU-bound processes end whatever happens, even when it is killed outright.

const BUSY = fileURLToPath(new URL('./busy.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'test-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder holding a stand-in `npm` that says how it was called, then runs `body`. */
function fakeNpm(name: string, body: string): string {
  const bin = join(dir, name);
  mkdirSync(bin);
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "npm $* CI=$CI"\n${body}\n`);
  chmodSync(join(bin, 'npm'), 0o755);
  return bin;
}

interface Busy {
  child: ChildProcess;
  out: () => string;
  /** the spinners' pids, from its first line */
  pids: Promise<number[]>;
  exit: Promise<number | null>;
}

function startBusy(bin: string): Busy {
  const child = spawn(process.execPath, ['--import', 'tsx', BUSY], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const pids = new Promise<number[]>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /\(pids ([\d, ]+)\)/.exec(out);
      if (m) resolve(m[1]!.split(', ').map(Number));
    });
    child.once('exit', () => reject(new Error(`test:busy ended before naming its spinners: ${out}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, pids, exit };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits until none of `pids` runs; false if some still do after `ms` (a bound far above need). */
async function allGone(pids: number[], ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (!pids.some(alive)) return true;
  return !pids.some(alive);
}

describe('npm run test:busy', () => {
  it('runs `npm test` with CI=true beside two spinners, returns its exit code, says the outcome and stops the spinners', async () => {
    const b = startBusy(fakeNpm('fails', 'exit 3'));
    const pids = await b.pids;
    expect(pids).toHaveLength(2);
    expect(await b.exit).toBe(3);
    expect(b.out()).toContain('npm test CI=true');
    expect(b.out()).toMatch(/test:busy: FAILED \(npm test exit 3\) in \d+ s .*beside 2 spinner\(s\) that used \d+ CPU-s/);
    // Stopped before it printed its outcome: they are gone already.
    expect(pids.filter(alive)).toEqual([]);
  });

  it('says GREEN on a green run', async () => {
    const b = startBusy(fakeNpm('green', 'exit 0'));
    expect(await b.exit).toBe(0);
    expect(b.out()).toMatch(/test:busy: GREEN in \d+ s/);
  });

  it('leaves no spinner running when it is killed outright', async () => {
    // The stand-in npm waits on its stdin (the test's pipe), so it outlives the killed script.
    const b = startBusy(fakeNpm('killed', 'read line'));
    const pids = await b.pids;
    b.child.kill('SIGKILL');
    await b.exit;
    try {
      expect(await allGone(pids, 60_000), `spinners ${pids.filter(alive).join(', ')} still run`).toBe(true);
    } finally {
      b.child.stdin!.end(); // the stand-in npm reads its end and exits
    }
  });

  it('refuses a bad --spinners with exit 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', BUSY, '--spinners', '1.5'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((r) => child.once('exit', r))).toBe(2);
    expect(err).toMatch(/--spinners takes a whole number from 0 to 64, got 1\.5/);
  });
});
