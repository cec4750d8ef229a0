// Canary secrets: a real conformance run, a load run and a compare run against a reference served
// behind a recording proxy. The proxy sees every secret the kit really used (the control token
// planted here, API keys given in the profile or created through control and the API, mailbox
// passwords the sending checks sent, OAuth states); none may appear in any file the runs wrote
// (members of a bundle.tgz included) nor on their stdout/stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/outreach-conformance.js', import.meta.url));
const MIN_SECRET = 6; // shorter values are never redacted (harness/client/redact.ts)

type Kind = 'control token' | 'API key' | 'mailbox password' | 'OAuth state';
const secrets = new Map<string, Kind>();
const plant = (value: unknown, kind: Kind) => {
  if (typeof value === 'string' && value.length >= MIN_SECRET && !secrets.has(value)) secrets.set(value, kind);
};

/** Walks a JSON value; `visit(key, value)` for every field. */
function walk(v: unknown, visit: (k: string, x: unknown) => void): void {
  if (Array.isArray(v)) for (const x of v) walk(x, visit);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      visit(k, x);
      walk(x, visit);
    }
}
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** What crossed the proxy: the secrets among it. */
function harvest(method: string, url: string, headers: http.IncomingHttpHeaders, reqBody: string, status: number, resBody: string): void {
  const bearer = /^Bearer +(\S+)$/i.exec(String(headers.authorization ?? ''))?.[1];
  if (bearer && status !== 401 && !secrets.has(bearer)) plant(bearer, 'API key'); // accepted: a real key
  walk(parse(reqBody), (k, x) => {
    if (/password$/i.test(k)) plant(x, 'mailbox password');
    if (k === 'state' && url.includes('/oauth/')) plant(x, 'OAuth state');
  });
  walk(parse(resBody), (k, x) => {
    if (k === 'apiKey' || (k === 'key' && typeof x === 'string' && x.length > 16)) plant(x, 'API key');
    if (k === 'state' && url.includes('/oauth/')) plant(x, 'OAuth state');
  });
  const state = new URL(url, 'http://x').searchParams.get('state');
  if (state && url.includes('/oauth/')) plant(state, 'OAuth state');
  void method;
}

/** A recording reverse proxy in front of `target`. */
function proxy(target: string): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const up = http.request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (ur) => {
        const out: Buffer[] = [];
        ur.on('data', (c: Buffer) => out.push(c));
        ur.on('end', () => {
          const resBody = Buffer.concat(out);
          harvest(req.method ?? 'GET', req.url ?? '/', req.headers, body.toString('utf8'), ur.statusCode ?? 0, resBody.toString('utf8'));
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          res.end(resBody);
        });
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => (server.close(), server.closeAllConnections()) })),
  );
}

interface Ran {
  code: number | null;
  out: string;
}
function cli(args: string[], timeoutMs = 280_000): Promise<Ran> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const t = setTimeout(() => c.kill('SIGKILL'), timeoutMs);
    c.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

/** Every file under `dir` as [name, text]; a .tgz is gunzipped and its tar members listed one by one. */
async function writtenFiles(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    const bytes = await readFile(path);
    if (!/\.(tgz|tar\.gz)$/.test(e.name)) {
      out.push([path, bytes.toString('utf8')]);
      continue;
    }
    const tar = gunzipSync(bytes);
    const before = out.length;
    for (let off = 0; off + 512 <= tar.length; ) {
      const name = tar.subarray(off, off + 100).toString('utf8').replace(/\0.*$/s, '');
      if (!name) break;
      const size = parseInt(tar.subarray(off + 124, off + 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
      out.push([`${path}:${name}`, tar.subarray(off + 512, off + 512 + size).toString('utf8')]);
      off += 512 + Math.ceil(size / 512) * 512;
    }
    if (out.length === before) throw new Error(`${path}: no member read from the archive`);
  }
  return out;
}

/** "<file>: <kind>" for every secret found in the texts. */
function leaks(texts: [string, string][]): string[] {
  const found: string[] = [];
  for (const [where, text] of texts)
    for (const [value, kind] of secrets) if (text.includes(value) || text.includes(encodeURIComponent(value))) found.push(`${where}: ${kind}`);
  return [...new Set(found)];
}

const CONTROL_TOKEN = `ctl-canary-${randomBytes(12).toString('hex')}`;
const stops: (() => void)[] = [];

/**
 * A reference child process (with the planted control token) behind two recording proxies, and
 * a profile for it whose two workspaces' keys were made through control.
 */
async function servedProfile(extra: string[], over: Record<string, unknown> = {}): Promise<{ path: string; baseUrl: string }> {
  const reference: ChildProcess = spawn(process.execPath, [BIN, 'reference', '--choices', 'default', '--control-token', CONTROL_TOKEN, '--stop-with-stdin', ...extra], { stdio: ['pipe', 'pipe', 'inherit'] });
  stops.push(() => reference.stdin?.end());
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    reference.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) resolve(buf.slice(0, buf.indexOf('\n')));
    });
    reference.on('exit', (code) => reject(new Error(`reference exited ${code}`)));
  });
  const served = JSON.parse(line) as { baseUrl: string; controlUrl: string; profile: Record<string, unknown> };
  const pub = await proxy(served.baseUrl);
  const ctl = await proxy(served.controlUrl);
  stops.push(pub.close, ctl.close);
  const keys: string[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await fetch(`${ctl.url}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${CONTROL_TOKEN}`, 'content-type': 'application/json' }, body: '{}' });
    keys.push(((await r.json()) as { apiKey: string }).apiKey);
  }
  const path = join(await mkdtemp(join(tmpdir(), 'oc-canary-')), 'canary.json');
  const profile = { ...served.profile, baseUrl: pub.url, control: { baseUrl: ctl.url, token: CONTROL_TOKEN }, workspaces: keys.map((apiKey) => ({ apiKey })), poolSize: 6, ...over };
  await writeFile(path, JSON.stringify(profile));
  return { path, baseUrl: pub.url };
}

let profilePath: string;
beforeAll(async () => {
  secrets.set(CONTROL_TOKEN, 'control token');
  profilePath = (await servedProfile([])).path;
});
afterAll(() => {
  for (const stop of stops) stop();
});

// Checks that handle each kind of secret: keys created and revoked, mailboxes with passwords at
// the sinks (verification, sending), the OAuth flow with its state.
const CHECKS = '^(KEY-CREATE-SUBSET|KEY-REVOKE|ACCT-CREATE/echo|ACCT-PATCH/creds-reverify|VERIF-SINK/active|SEND/mailbox-fields|ACCT-OAUTH/init|ACCT-OAUTH/status-consent-revoke)$';

describe('canary secrets never reach what a run writes', () => {
  it('conformance run: every report file and the console', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-canary-run-'));
    const r = await cli(['run', '--profile', profilePath, '--check', CHECKS, '--out', out]);
    expect(r.code, r.out).toBe(0);
    const kinds = new Set(secrets.values());
    // The run used each kind of secret (otherwise this test could not fail).
    expect([...kinds].sort(), [...secrets.values()].join(',')).toEqual(['API key', 'OAuth state', 'control token', 'mailbox password']);
    const files = await writtenFiles(out);
    const names = files.map(([f]) => f.slice(out.length + 1));
    for (const f of ['events.ndjson', 'results.json', 'junit.xml', 'report.html', 'traffic.har', 'summary.md']) expect(names, f).toContain(`latest/${f}`);
    console.log(`canary: ${secrets.size} secrets searched in ${files.length} files (bundle members: ${names.filter((n) => n.includes('.tgz:')).length})`);
    // Every chosen check ran (a skipped one would use no secret).
    const results = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8')) as { checks: { id: string; verdict: string }[] };
    const chosen = results.checks.filter((c) => new RegExp(CHECKS).test(c.id));
    expect(chosen.filter((c) => c.verdict !== 'pass').map((c) => `${c.id}: ${c.verdict}`)).toEqual([]);
    expect(chosen.length).toBe(8);
    expect(leaks([...files, ['stdout/stderr of run', r.out]])).toEqual([]);
  });

  it('load api run: load.json, load.html, requests.ndjson and the console', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-canary-load-'));
    const before = secrets.size;
    const r = await cli(['load', 'api', '--profile', profilePath, '--rate', '10/s', '--duration', '3s', '--out', out, '--quiet']);
    expect(r.code, r.out).toBe(0);
    expect(secrets.size, 'the load made workspaces of its own').toBeGreaterThan(before);
    const files = await writtenFiles(out);
    for (const f of ['load.json', 'load.html', 'requests.ndjson']) expect(files.some(([p]) => p.endsWith(f)), f).toBe(true);
    expect(leaks([...files, ['stdout/stderr of load api', r.out]])).toEqual([]);
  });

  it.skipIf(!existsSync(fileURLToPath(new URL('../load/compare/command.ts', import.meta.url))))('compare run: its reports and the console', async () => {
    // compare's closed loops need a raised rate limit, served and declared (outside the spec).
    const raised = await servedProfile(['--rate-limit', '1000000/1000ms'], { rateLimit: { requests: 1_000_000, windowSeconds: 1 } });
    const out = await mkdtemp(join(tmpdir(), 'oc-canary-compare-'));
    const r = await cli(['compare', '--base', raised.baseUrl, '--head', raised.baseUrl, '--profile', raised.path, '--pairs', '3', '--requests', '200', '--warmup', '100', '--out', out, '--quiet']);
    expect(r.code, r.out).toBe(2); // 3 pairs cannot reach alpha: INCONCLUSIVE, its reports written
    const files = await writtenFiles(out);
    expect(files.length).toBeGreaterThan(0);
    expect(leaks([...files, ['stdout/stderr of compare', r.out]])).toEqual([]);
  });
});
