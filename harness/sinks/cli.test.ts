// The standalone command as a user runs it: a separate process, endpoints as one JSON line,
// working SMTP/IMAP/HTTP, a clean stop on SIGTERM/SIGINT (Dovecot included), and no Dovecot
// left behind even when the process is killed outright.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { imapUnavailableReason } from './index.ts';
import { imapLoginProbe } from './dovecot.ts';
import { parseSinksArgs, sinksCommand } from './cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function spawnNode(script: string, args: string[]): { child: ChildProcess; firstLine: Promise<string>; exit: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, '--', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const i = out.indexOf('\n');
      if (i >= 0) resolve(out.slice(0, i));
    });
    child.on('exit', () => reject(new Error(`exited before printing a line: ${err}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, firstLine, exit, stderr: () => err };
}

const COMMAND = "import { sinksCommand } from './harness/sinks/cli.ts'; process.exitCode = await sinksCommand(process.argv.slice(1));";

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });
}

async function until(cond: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

function dovecotInstances(port: number): string[] {
  const ps = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(`outreach-sink-${port}`) && !l.trim().startsWith('Z'));
}

describe('outreach-conformance sinks (standalone)', () => {
  it('prints its endpoints as one JSON line, serves SMTP/IMAP/HTTP, and stops on SIGTERM', async () => {
    const p = spawnNode(COMMAND, ['--smtp-port', '0', '--imap-port', '0', '--http-port', '0', '--smtps-port', '0', '--user', 'cli@outreach.test:pa:ss:word']);
    const line = await p.firstLine;
    const ep = JSON.parse(line) as { smtp: { host: string; port: number; securePort: number }; imap: { port: number } | null; http: { url: string }; users: string[] };
    expect(line).not.toContain('pa:ss:word');
    expect(ep.users).toEqual(['cli@outreach.test']);
    expect(ep.smtp.port).toBeGreaterThan(0);
    expect(ep.smtp.securePort).toBeGreaterThan(0);
    const t = nodemailer.createTransport({ host: ep.smtp.host, port: ep.smtp.port, secure: false, auth: { user: 'cli@outreach.test', pass: 'pa:ss:word' }, tls: { rejectUnauthorized: false }, logger: false });
    await t.sendMail({ from: 'cli@outreach.test', to: 'lead@prospect.test', subject: 'standalone', text: 'x' });
    const list = (await (await fetch(`${ep.http.url}/sink/v1/messages?subject=standalone`)).json()) as { messages: unknown[] };
    expect(list.messages).toHaveLength(1);
    if (!imapUnavailableReason()) {
      expect(ep.imap!.port).toBeGreaterThan(0);
      expect(await imapLoginProbe('127.0.0.1', ep.imap!.port, 'cli@outreach.test', 'pa:ss:word')).toBe('ok');
      expect(dovecotInstances(ep.imap!.port).length).toBeGreaterThan(0);
    }
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    expect(await refused(ep.smtp.port)).toBe(true);
    expect(await refused(Number(new URL(ep.http.url).port))).toBe(true);
    if (ep.imap) {
      expect(await refused(ep.imap.port)).toBe(true);
      expect(dovecotInstances(ep.imap.port)).toEqual([]);
    }
    expect(p.stderr()).not.toContain('pa:ss:word');
  });

  it('stops on SIGINT too', async () => {
    const p = spawnNode(COMMAND, ['--smtp-port', '0', '--imap-port', '0', '--http-port', '0', '--no-imap']);
    const ep = JSON.parse(await p.firstLine) as { smtp: { port: number }; imap: null; imapUnavailableReason: string };
    expect(ep.imap).toBeNull();
    expect(ep.imapUnavailableReason).toMatch(/disabled/);
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(0);
    expect(await refused(ep.smtp.port)).toBe(true);
  });

  it.skipIf(!!imapUnavailableReason())('leaves no Dovecot running when its process is killed outright', async () => {
    const script = "import { startSinks } from './harness/sinks/index.ts'; const s = await startSinks(); console.log(JSON.stringify(s.imap)); setInterval(() => {}, 1000);";
    const p = spawnNode(script, []);
    const imap = JSON.parse(await p.firstLine) as { port: number };
    expect(await refused(imap.port)).toBe(false);
    p.child.kill('SIGKILL');
    await p.exit;
    expect(await until(() => refused(imap.port), 30_000)).toBe(true);
    expect(await until(async () => dovecotInstances(imap.port).length === 0, 30_000)).toBe(true);
  });

  it('answers bad arguments with the usage and exit code 2', async () => {
    const err: string[] = [];
    expect(await sinksCommand(['--smtp-port', 'abc'], { err: (l) => err.push(l) })).toBe(2);
    expect(err.join('\n')).toMatch(/--smtp-port: expected a port number/);
    expect(await sinksCommand(['--user', 'nopassword'], { err: () => undefined })).toBe(2);
    expect(await sinksCommand(['--frobnicate'], { err: () => undefined })).toBe(2);
    expect(parseSinksArgs([])).toMatchObject({ smtpPort: 2525, imapPort: 1143, httpPort: 8025 });
    expect(parseSinksArgs(['--smtps-port=off', '--user', 'a@b.test:x'])).toMatchObject({ smtpsPort: null, users: [{ address: 'a@b.test', password: 'x' }] });
  });

  it('runs in-process until told to stop', async () => {
    const lines: string[] = [];
    let stop!: () => void;
    const until = new Promise<void>((r) => (stop = r));
    const done = sinksCommand(['--smtp-port', '0', '--http-port', '0', '--no-imap', '--smtps-port', 'off'], { out: (l) => lines.push(l), err: () => undefined, until });
    await until_(() => lines.length > 0);
    const ep = JSON.parse(lines[0]!) as { smtp: { port: number; securePort: null } };
    expect(ep.smtp.securePort).toBeNull();
    stop();
    expect(await done).toBe(0);
    expect(await refused(ep.smtp.port)).toBe(true);
  });
});

async function until_(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}
