import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { BIN } from './cli.test-helper.ts';
import { dropWritesOnceClosed } from './closed-stream.ts';

/** A stream whose reader is gone: every write fails with EPIPE, as a pipe after `head` exits. */
function closedPipe(): { stream: Writable; attempts: string[] } {
  const attempts: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      attempts.push(String(chunk));
      cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  });
  return { stream, attempts };
}

describe('dropWritesOnceClosed', () => {
  it('swallows the EPIPE and drops later writes, calling back and never asking to wait for drain', async () => {
    const { stream, attempts } = closedPipe();
    dropWritesOnceClosed(stream);
    stream.write('first\n');
    await new Promise((r) => setImmediate(r)); // the 'error' is emitted a tick later
    let calledBack = false;
    const returned = stream.write('second\n', () => (calledBack = true));
    await new Promise((r) => setImmediate(r));
    expect(attempts).toEqual(['first\n']);
    expect(returned).toBe(true);
    expect(calledBack).toBe(true);
  });

  it('writes through while the reader is there', async () => {
    const seen: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, cb) => (seen.push(String(chunk)), cb()) });
    dropWritesOnceClosed(stream);
    await new Promise((r) => stream.write('a', 'utf8', r));
    await new Promise((r) => stream.write('b', r));
    expect(seen).toEqual(['a', 'b']);
  });
});

/** The bin with its stdout closed after the first line and its stderr closed at once. */
function runWithClosedPipes(args: string[]): Promise<{ code: number | null; signal: string | null; firstLine: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.destroy();
    let firstLine = '';
    child.stdout.on('data', (d: Buffer) => {
      firstLine += d.toString();
      if (firstLine.includes('\n')) child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, firstLine: firstLine.split('\n')[0] ?? '' }));
  });
}

describe('outreach-conformance with its output closed by the reader', () => {
  it('runs to its end, writes its reports and exits with the verdict (1: a MUST check fails)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-epipe-'));
    const r = await runWithClosedPipes(['run', '--mutants', 'auth-401-wrong-code', '--check', '^AUTH-401-REVOKED', '--depth', 'smoke', '--out', out]);
    expect(r.firstLine).toMatch(/^outreach-conformance .*embedded reference target/);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    const results = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8'));
    expect(results.complete).toBe(true);
    expect(results.verdict).toBe('fail');
    const events = (await readFile(join(out, 'latest', 'events.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(events.at(-1).type).toBe('run-end');
  });
});
