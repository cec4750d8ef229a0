import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A real Prometheus (Debian's `prometheus` package) for the metrics tests: on loopback, a port
// chosen free, a temporary storage directory, its remote-write receiver on (and native histograms,
// unless asked without). A shell watchdog holds
// a pipe from this process and `timeout` bounds its life, so it stops when the test stops it, when
// this process dies, or after `lifetimeS`, whichever comes first.

export const PROMETHEUS_INSTALL_HINT = 'apt-get install -y prometheus';

/** Why Prometheus cannot run here, or undefined. */
export function prometheusMissing(): string | undefined {
  const r = spawnSync('prometheus', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `prometheus is not installed (${PROMETHEUS_INSTALL_HINT})`;
}

export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

export interface RunningPrometheus {
  url: string;
  /** the remote-write receiver */
  writeUrl: string;
  /** an instant query through the HTTP API; rejects on an error answer */
  query(q: string): Promise<PromSample[]>;
  /** a range query over the last `seconds` (what a dashboard's time-series panel asks) */
  queryRange(q: string, seconds: number): Promise<{ metric: Record<string, string>; values: [number, string][] }[]>;
  /** polls `q` until `ok` holds for its answer (bounded), then returns that answer */
  waitFor(q: string, ok: (r: PromSample[]) => boolean, timeoutMs?: number): Promise<PromSample[]>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startPrometheus(o: { lifetimeS?: number; nativeHistograms?: boolean } = {}): Promise<RunningPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'outreach-prometheus-'));
  await writeFile(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1m\nscrape_configs: []\n');
  let lastError = '';
  // The port is free when chosen; another process may take it before Prometheus binds: try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const started = await spawnOn(dir, port, o.lifetimeS ?? 600, o.nativeHistograms ?? true).catch((e: Error) => ((lastError = e.message), undefined));
    if (started) return started;
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error(`Prometheus did not start: ${lastError}`);
}

async function spawnOn(dir: string, port: number, lifetimeS: number, native: boolean): Promise<RunningPrometheus> {
  const args = [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--web.enable-remote-write-receiver',
    '--storage.tsdb.retention.time=2h',
    '--log.level=warn',
    ...(native ? ['--enable-feature=native-histograms'] : []),
  ];
  const script = `exec 3<&0; timeout -s TERM ${lifetimeS} prometheus "$@" </dev/null & pid=$!; ( cat <&3 >/dev/null; kill -TERM $pid 2>/dev/null ) & exec 3<&-; wait $pid`;
  const child = spawn('/bin/sh', ['-c', script, 'test-prometheus', ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.stdin!.on('error', () => undefined);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let gone = false;
  void exited.then(() => (gone = true));
  live.add(child);
  void exited.then(() => live.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!gone) {
      child.stdin!.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    }
  };
  // Ready: its /-/ready answers 200 (bounded; a busy machine may take seconds).
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status === 200, () => false);
    if (ready) break;
    if (gone || Date.now() > deadline) {
      await stop();
      throw new Error(`not ready on ${url}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const api = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', body: new URLSearchParams(params), signal: AbortSignal.timeout(30_000) });
    const body = (await res.json()) as { status: string; error?: string; data: { result: unknown[] } };
    if (body.status !== 'success') throw new Error(`${params.query}: ${body.error}`);
    return body.data.result;
  };
  const query = async (q: string) => ((await api('/api/v1/query', { query: q })) as { metric: Record<string, string>; value: [number, string] }[]).map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  return {
    url,
    writeUrl: `${url}/api/v1/write`,
    query,
    queryRange: async (q, seconds) => {
      const end = Date.now() / 1000;
      return (await api('/api/v1/query_range', { query: q, start: String(end - seconds), end: String(end), step: '1' })) as { metric: Record<string, string>; values: [number, string][] }[];
    },
    async waitFor(q, ok, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const r = await query(q);
        if (ok(r) || Date.now() > until) return r;
        await new Promise((res) => setTimeout(res, 200));
      }
    },
    async stop() {
      await stop();
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

// Last resort when the process exits without stop(): the watchdog's pipe closes, and it stops Prometheus.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) {
    try {
      c.stdin?.destroy();
      c.kill('SIGTERM');
    } catch {
      /* gone */
    }
  }
});
