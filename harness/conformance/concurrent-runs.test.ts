import { describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../cli/cli.test-helper.ts';

// Runs beside each other on one machine, by one user, into one --out and one module cache (as a
// CI runner with several jobs): four real embedded runs started at once, each with its verdict.
// A few checks, one of them with the IMAP sink (each run's own Dovecot, sinks and reference).

const RUNS = 4;
const CHECKS = '^(USAGE-COMPUTED|VERIF-SINK/active)$';

describe('four runs at once', () => {
  it('each ends with its own verdict and complete reports; latest is one of them, whole', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-concurrent-out-'));
    // A cold shared cache: every run writes its modules at once.
    const cache = await mkdtemp(join(tmpdir(), 'oc-concurrent-cache-'));
    // A neighbour install (another clone, another lockfile) using the same directory all along:
    // vitest empties a cache directory whose metadata names another lockfile, so while its runs
    // write theirs there, a run that wrote into that directory lost what it was writing.
    let neighbour = true;
    const neighbours = (async () => {
      while (neighbour) {
        for (const d of [cache, ...(await readdir(cache, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => join(cache, e.name))]) await writeFile(join(d, '_metadata.json'), '{"lockfileHash":"0ther000"}').catch(() => {});
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const env = { OUTREACH_VITEST_CACHE: cache };
    const results = await Promise.all(Array.from({ length: RUNS }, () => cli(['run', '--depth', 'smoke', '--check', CHECKS, '--out', out, '--quiet'], { env, timeoutMs: 500_000 })));
    neighbour = false;
    await neighbours;
    for (const r of results) expect(r.code, r.stdout + r.stderr).toBe(0);
    const dirs = results.map((r) => /^reports: (\S+)/m.exec(r.stdout)?.[1]);
    expect(new Set(dirs).size).toBe(RUNS);
    const runIds: string[] = [];
    for (const dir of dirs) {
      for (const f of ['events.ndjson', 'results.json', 'report.html', 'summary.md', 'bundle.tgz']) expect(existsSync(join(dir!, f)), `${dir}/${f}`).toBe(true);
      const r = JSON.parse(await readFile(join(dir!, 'results.json'), 'utf8')) as { runId: string; verdict: string; checks: { verdict: string }[] };
      expect(r.verdict).toBe('pass');
      expect(r.checks.filter((c) => c.verdict === 'pass')).toHaveLength(2);
      runIds.push(r.runId);
    }
    const latest = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8')) as { runId: string };
    expect(runIds).toContain(latest.runId);
    expect(await readFile(join(out, 'latest', 'results.json'), 'utf8')).toBe(await readFile(join(out, latest.runId, 'results.json'), 'utf8'));
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
    // Each run's own module cache is gone; what they compiled is in the shared one.
    const [install] = (await readdir(cache)).filter((n) => n !== '_metadata.json');
    expect(await readdir(join(cache, install!, 'runs'))).toEqual([]);
    expect((await readdir(join(cache, install!))).length).toBeGreaterThan(10);
  }, 600_000);
});
