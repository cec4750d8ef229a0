import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN } from './cli.test-helper.ts';

// An install without install scripts (npm ci --ignore-scripts, pnpm) leaves better-sqlite3
// without its native binding: the `bindings` package then throws "Could not locate the bindings
// file". The same failure here, by a preload that answers `require('bindings')` with one that
// throws it as the real one does (in NODE_OPTIONS: the reference a load starts as a child has it too). The kit must say what to run, exit 2, and show no stack.

const PRELOAD = `
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'bindings' ? require('node:path').join(__dirname, 'bindings-unbuilt.cjs') : resolve.call(this, request, ...rest);
};
`;
const UNBUILT = `module.exports = () => { throw new Error('Could not locate the bindings file. Tried:\\n → /x/node_modules/better-sqlite3/build/better_sqlite3.node'); };\n`;

async function unbuilt(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'oc-unbuilt-'));
  await writeFile(join(dir, 'preload.cjs'), PRELOAD);
  await writeFile(join(dir, 'bindings-unbuilt.cjs'), UNBUILT);
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: dir, timeout: 110_000, env: { ...process.env, NODE_OPTIONS: `--require ${join(dir, 'preload.cjs')}` } });
    return { code: 0, ...r };
  } catch (e) {
    return e as { code: number; stdout: string; stderr: string };
  }
}

describe('a kit installed without install scripts', () => {
  for (const args of [['reference'], ['run', '--depth', 'smoke', '--quiet'], ['load', 'api', '--duration', '1s', '--quiet']]) {
    it(`${args[0]}: says to run npm rebuild better-sqlite3, exit 2, no stack trace`, async () => {
      const r = await unbuilt(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('npm rebuild better-sqlite3');
      expect(r.stderr).toContain('install scripts');
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }, 120_000);
  }
});
