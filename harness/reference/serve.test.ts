// serve.ts as a process: one JSON line, mutants from argv and env, clean stop on SIGTERM.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Profile } from '../ground/profile-schema.ts';

const serve = fileURLToPath(new URL('./serve.ts', import.meta.url));

function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', serve, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const line = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, line, exit, stderr: () => err };
}

describe('serveReference', () => {
  it('prints { baseUrl, controlUrl, controlToken }, honours --mutants and OUTREACH_REFERENCE_MUTANTS, stops on SIGTERM', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'serve-test-'));
    const p = start(['--mutants', 'ver-v2-alias'], { OUTREACH_REFERENCE_MUTANTS: 'workspace-missing-timezone', TMPDIR: tmp });
    const info = JSON.parse(await p.line);
    expect(Object.keys(info).sort()).toEqual(['baseUrl', 'controlToken', 'controlUrl']);
    const ws = await (await fetch(`${info.controlUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${info.controlToken}` } })).json();
    const r = await fetch(`${info.baseUrl}/v2/workspace`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
    expect(r.status).toBe(200); // ver-v2-alias
    expect(await r.json()).not.toHaveProperty('timezone'); // workspace-missing-timezone
    const ours = () => readdirSync(tmp).filter((f) => f.startsWith('outreach-reference-'));
    expect(ours()).toHaveLength(1); // the database directory
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    expect(ours()).toEqual([]); // removed at stop
    rmSync(tmp, { recursive: true, force: true });
  });
  it('--choices alt serves the ALT set and prints its profile next to the URLs', async () => {
    const p = start(['--choices', 'alt']);
    const info = JSON.parse(await p.line);
    expect(Object.keys(info).sort()).toEqual(['baseUrl', 'choices', 'controlToken', 'controlUrl', 'profile']);
    expect(info.choices).toBe('alt');
    expect(Profile.safeParse(info.profile).success).toBe(true);
    expect(info.profile).toMatchObject({ baseUrl: info.baseUrl, control: { baseUrl: info.controlUrl, token: info.controlToken } });
    const ws = await (await fetch(`${info.controlUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${info.controlToken}` } })).json();
    const keys = info.profile.operations['apikeys.list'].path;
    expect(keys).not.toBe('/v1/api-keys');
    expect((await fetch(`${info.baseUrl}${keys}`, { headers: { authorization: `Bearer ${ws.apiKey}` } })).status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  });
  it('--choices random:SEED prints the same profile for the same seed; a bad set exits 2 with the accepted forms', async () => {
    const names = async () => {
      const p = start(['--choices=random:42']);
      const info = JSON.parse(await p.line);
      p.child.kill('SIGTERM');
      await p.exit;
      return { choices: info.choices, names: info.profile.names, declarations: info.profile.declarations };
    };
    const a = await names();
    expect(a.choices).toBe('random:42');
    expect(await names()).toEqual(a);
    await expect(start(['--choices', 'nope']).line).rejects.toThrow(/exited 2: .*give default, alt, serialized-drain or random:SEED/s);
  });
  it('exits 2 with the known ids on an unknown mutant', async () => {
    const p = start(['--mutants', 'no-such-mutant']);
    await expect(p.line).rejects.toThrow(/exited 2: .*unknown mutant id\(s\): no-such-mutant; known ids:/s);
  });
  it('--clock-start starts its clock at that instant: the control clock and the Date header of the public API read it; a start without a zone exits 2', async () => {
    const p = start(['--clock-start', '2028-02-28T23:59:30Z']);
    const info = JSON.parse(await p.line);
    const auth = { authorization: `Bearer ${info.controlToken}` };
    const clock = await (await fetch(`${info.controlUrl}/clock`, { headers: auth })).json();
    expect(Date.parse(clock.now) - Date.parse('2028-02-28T23:59:30Z')).toBeGreaterThanOrEqual(0);
    expect(Date.parse(clock.now) - Date.parse('2028-02-28T23:59:30Z')).toBeLessThan(10 * 60_000);
    const ws = await (await fetch(`${info.controlUrl}/workspaces`, { method: 'POST', headers: auth })).json();
    const r = await fetch(`${info.baseUrl}/v1/api-keys`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
    expect(r.headers.get('date')).toMatch(/ (28 Feb|29 Feb) 2028 /);
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    await expect(start(['--clock-start', '2028-02-28 23:59:30']).line).rejects.toThrow(/exited 2: .*--clock-start takes an ISO 8601 instant with its zone/s);
  });
});
