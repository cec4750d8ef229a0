import { afterAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { cli as runCli } from '../cli/cli.test-helper.ts';
import { startReference, type ReferenceHandle } from '../reference/index.ts';
import { DEFAULT_PROFILE_PATH } from '../ground/profile.ts';

// `outreach-conformance load` as a user runs it: a child process, exit codes, files on disk.
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['load', ...args], { env, timeoutMs: 280_000 });

async function runDir(out: string): Promise<string> {
  const [dir] = await readdir(out);
  return join(out, dir!);
}

const refs: ReferenceHandle[] = [];
afterAll(async () => {
  await Promise.all(refs.map((r) => r.stop()));
});

describe('outreach-conformance load', () => {
  it('api: a broken threshold fails the run (exit 1) and is named; load.json and load.html hold the run without a secret', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-load-'));
    const r = await cli(['api', '--rate', '30/s', '--duration', '3s', '--threshold', 'p50<0.001ms', '--threshold', 'errors<1%', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL: 90 requests/m);
    expect(r.stdout).toMatch(/threshold p50<0\.001ms broke: [\d.]+ ms/);
    expect(r.stdout).not.toMatch(/threshold errors<1% broke/);
    const dir = await runDir(out);
    expect((await readdir(dir)).sort()).toEqual(['load.html', 'load.json', 'requests.ndjson']);
    const report = JSON.parse(await readFile(join(dir, 'load.json'), 'utf8'));
    expect(report).toMatchObject({ kind: 'api', ok: false, totals: { sent: 90, completed: 90, errors: 0 } });
    expect(report.thresholds.map((t: { ok: boolean }) => t.ok)).toEqual([false, true]);
    expect(report.environment.profileHash).toMatch(/^[0-9a-f]{64}$/);
    const lines = (await readFile(join(dir, 'requests.ndjson'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(90);
    for (const f of await readdir(dir)) {
      const text = await readFile(join(dir, f), 'utf8');
      expect(text, f).not.toMatch(/ock_[A-Za-z0-9_-]{20,}/); // the reference's API keys
      expect(text, f).not.toMatch(/[Bb]earer [A-Za-z0-9_-]{16,}/);
    }
    expect(await readFile(join(dir, 'load.html'), 'utf8')).toMatch(/<svg/);
  });

  it('sendpath: a target that sends a step twice fails the run with the duplicates named', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-load-'));
    const r = await cli(['sendpath', '--mailboxes', '4', '--leads', '24', '--cap', '10', '--mutants', 'send-step-twice', '--max-wall', '60s', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL: .* emails arrived at the sink/m);
    expect(r.stdout).toMatch(/duplicates [1-9]/);
    const report = JSON.parse(await readFile(join(await runDir(out), 'load.json'), 'utf8'));
    expect(report.kind).toBe('sendpath');
    expect(report.sendpath.duplicates).toBeGreaterThan(0);
  });

  it('api --shard k/n runs a slice; load merge joins the shards into one report', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-load-'));
    const shards = await Promise.all([1, 2].map((k) => cli(['api', '--rate', '20/s', '--duration', '2s', '--shard', `${k}/2`, '--out', join(out, `s${k}`), '--quiet'])));
    for (const s of shards) expect(s.code, s.stderr).toBe(0);
    const files = await Promise.all([1, 2].map(async (k) => join(await runDir(join(out, `s${k}`)), 'load.json')));
    const m = await cli(['merge', ...files, '--out', join(out, 'merged')]);
    expect(m.code, m.stderr).toBe(0);
    const merged = JSON.parse(await readFile(join(await runDir(join(out, 'merged')), 'load.json'), 'utf8'));
    expect(merged.totals.sent).toBe(40);
    expect(merged.plan.rate).toBe(20);
    expect(merged.notes[0]).toMatch(/shards 1\/2, 2\/2/);
  });

  it('api --shard k/n --start-at: shards started apart meet at the instant in one --out; merge --from waits, joins and lists each start', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-load-'));
    // Room for two children to boot the kit and an embedded target each, on a loaded machine.
    const at = new Date(Math.ceil((Date.now() + 40_000) / 1000) * 1000).toISOString();
    const shard = (k: number) => cli(['api', '--rate', '20/s', '--duration', '2s', '--shard', `${k}/2`, '--start-at', at, '--start-tolerance', '1s', '--run', 'e2e', '--out', out, '--quiet']);
    const first = shard(1);
    await new Promise((r) => setTimeout(r, 1500));
    const shards = await Promise.all([first, shard(2)]);
    for (const s of shards) expect(s.code, s.stdout + s.stderr).toBe(0);
    await cp(join(out, 'e2e', 'shard-1-of-2'), join(out, 'partial', 'shard-1-of-2'), { recursive: true });
    const missing = await cli(['merge', '--from', out, '--run', 'partial', '--shards', '2', '--wait', '1s']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/shard\(s\) 2\/2 of run partial did not write/);
    const m = await cli(['merge', '--from', out, '--run', 'e2e', '--shards', '2', '--wait', '5s', '--out', out]);
    expect(m.code, m.stdout + m.stderr).toBe(0);
    expect(m.stdout).toMatch(/^shard 1\/2: ready \d+ ms before .*first request [\d.-]+ ms after its time/m);
    const merged = JSON.parse(await readFile(join(out, 'e2e', 'merged', 'load.json'), 'utf8'));
    expect(merged.totals.sent).toBe(40);
    expect(merged.shardStarts.map((s: { shard: string; startAt: string }) => [s.shard, s.startAt])).toEqual([['1/2', at], ['2/2', at]]);
    const late = await cli(['api', '--rate', '20/s', '--duration', '2s', '--shard', '1/2', '--start-at', new Date(Date.now() - 1000).toISOString(), '--out', out, '--quiet']);
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/shard 1\/2 was ready at .*, \d+ ms after the start instant .*skew \+\d+ ms/);
  });

  it('--out s3://bucket/prefix: a shard writes its reports to an S3-compatible server (s3rver on loopback), merge --from reads them there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oc-s3-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'loads', configs: [] }] });
    const { port } = await server.run();
    try {
      const env = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}` };
      const shard = await cli(['api', '--rate', '20/s', '--duration', '2s', '--shard', '1/1', '--run', 's3run', '--out', 's3://loads/ci', '--quiet'], env);
      expect(shard.code, shard.stderr).toBe(0);
      expect(shard.stdout).toMatch(/reports: s3:\/\/loads\/ci\/s3run\/shard-1-of-1/);
      const m = await cli(['merge', '--from', 's3://loads/ci', '--run', 's3run', '--shards', '1', '--wait', '5s', '--out', 's3://loads/ci'], env);
      expect(m.code, m.stderr).toBe(0);
      expect(m.stdout).toMatch(/reports: s3:\/\/loads\/ci\/s3run\/merged/);
      const bad = await cli(['api', '--rate', '20/s', '--duration', '2s', '--out', 's3://no-such-bucket/x', '--quiet'], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--out s3:\/\/no-such-bucket\/x cannot be written .*NoSuchBucket.*before its start instant/);
    } finally {
      await server.close();
    }
    // What the server stored, read from its own directory: the merged report, whole.
    const stored = await readdir(join(dir, 'loads'), { recursive: true });
    expect(stored.some((f) => String(f).includes('s3run/merged/load.json'))).toBe(true);
  });

  it('sendpath --shard k/n: each shard its own mailboxes and leads; merge sums duplicates, losses and violations', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-load-'));
    const shards = await Promise.all([1, 2].map((k) => cli(['sendpath', '--mailboxes', '4', '--leads', '24', '--cap', '10', '--mutants', 'send-step-twice', '--max-wall', '60s', '--shard', `${k}/2`, '--run', 'sp', '--out', out, '--quiet'])));
    const parts = await Promise.all([1, 2].map(async (k) => JSON.parse(await readFile(join(out, 'sp', `shard-${k}-of-2`, 'load.json'), 'utf8'))));
    for (const [i, p] of parts.entries()) {
      expect(shards[i]!.code, shards[i]!.stderr).toBe(1);
      expect(p.sendpath.mailboxes).toHaveLength(2);
      expect(p.sendpath.leads).toBe(12);
    }
    const m = await cli(['merge', '--from', out, '--run', 'sp', '--shards', '2', '--wait', '5s', '--out', out]);
    expect(m.code).toBe(1);
    const merged = JSON.parse(await readFile(join(out, 'sp', 'merged', 'load.json'), 'utf8'));
    const sum = (f: (p: any) => number) => parts.reduce((a, p) => a + f(p), 0);
    expect(merged.sendpath).toMatchObject({ leads: 24, duplicates: sum((p) => p.sendpath.duplicates), losses: sum((p) => p.sendpath.losses), gapViolations: sum((p) => p.sendpath.gapViolations), capViolations: sum((p) => p.sendpath.capViolations) });
    expect(merged.sendpath.duplicates).toBeGreaterThan(0);
    expect(merged.sendpath.mailboxes).toHaveLength(4);
  });

  it('refuses a rate the profile\'s workspaces cannot carry without a control API, saying what would do (exit 2)', async () => {
    const ref = await startReference({ log: () => {} });
    refs.push(ref);
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${ref.controlUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${ref.controlToken}`, 'content-type': 'application/json' }, body: '{}' });
      keys.push(((await res.json()) as { apiKey: string }).apiKey);
    }
    const base = JSON.parse(await readFile(DEFAULT_PROFILE_PATH, 'utf8'));
    const profile = { ...base, embedded: false, baseUrl: ref.baseUrl, control: undefined, workspaces: [{ apiKey: { env: 'OC_LOAD_KEY_0' } }, { apiKey: { env: 'OC_LOAD_KEY_1' } }] };
    const dir = await mkdtemp(join(tmpdir(), 'oc-load-'));
    const file = join(dir, 'staging.json');
    await writeFile(file, JSON.stringify(profile));
    const r = await cli(['api', '--profile', file, '--rate', '100/s', '--duration', '1m', '--out', dir], { OC_LOAD_KEY_0: keys[0], OC_LOAD_KEY_1: keys[1] });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a load of 100\/s needs \d+ workspaces .* the profile gives 2 and no control API\. Lower --rate to about [\d.]+\/s/);
    expect(r.stderr + r.stdout).not.toContain(keys[0]);
    // Refused: nothing written, no empty run folder left.
    expect(await readdir(dir)).toEqual(['staging.json']);
  });

  it('names what is wrong with a flag or a mode (exit 2)', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'oc-load-'));
    const bad = await cli(['api', '--rate', 'fast', '--out', empty]);
    expect(bad.code).toBe(2);
    expect(await readdir(empty)).toEqual([]);
    expect(bad.stderr).toMatch(/--rate takes requests per second such as 200\/s/);
    const mode = await cli(['burst']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/unknown load mode "burst"; known: api, capacity, sendpath/);
    const thr = await cli(['api', '--threshold', 'p99<300']);
    expect(thr.code).toBe(2);
    expect(thr.stderr).toMatch(/threshold "p99<300": a latency needs a unit/);
  });
});
