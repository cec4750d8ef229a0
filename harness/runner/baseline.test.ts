import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBaseline } from './baseline.ts';
import { KitError } from '../ground/errors.ts';
import { cli } from '../cli/cli.test-helper.ts';

const KNOWN = ['RATE-LIMIT/one-workspace-two-keys', 'RATE-LIMIT/retry-after', 'WS-GET/shape'];

describe('parseBaseline', () => {
  it('takes entries with a check, a reason and an optional expiry day', () => {
    const b = parseBaseline({ entries: [{ check: KNOWN[0], reason: 'fix due', expires: '2027-01-31' }, { check: KNOWN[2], reason: 'known' }] }, KNOWN, 'known.json');
    expect(b).toEqual({ file: 'known.json', entries: [{ check: KNOWN[0], reason: 'fix due', expires: '2027-01-31' }, { check: KNOWN[2], reason: 'known' }] });
  });

  it('names every problem at once, by where it is', () => {
    const bad = () => parseBaseline({ entries: [{ check: KNOWN[0], reason: ' ' }, { check: KNOWN[1], reason: 'x', expires: '2027-02-30' }, { check: KNOWN[1], reason: 'x', extra: 1 }] }, KNOWN, 'known.json');
    expect(bad).toThrow(KitError);
    expect(bad).toThrow(/entries\.0\.reason: say why/);
    expect(bad).toThrow(/entries\.1\.expires: a day written YYYY-MM-DD/);
    expect(bad).toThrow(/entries\.2: Unrecognized key/);
  });

  it('refuses an unknown check (suggesting checks of its family) and a check listed twice', () => {
    const unknown = () => parseBaseline({ entries: [{ check: 'RATE-LIMIT/typo', reason: 'x' }] }, KNOWN);
    expect(unknown).toThrow(/entries\.0\.check: no check "RATE-LIMIT\/typo" in this kit \(checks of RATE-LIMIT: "RATE-LIMIT\/one-workspace-two-keys", "RATE-LIMIT\/retry-after"\)/);
    const twice = () => parseBaseline({ entries: [{ check: KNOWN[2], reason: 'x' }, { check: KNOWN[2], reason: 'y' }] }, KNOWN);
    expect(twice).toThrow(/entries\.1\.check: "WS-GET\/shape" is already listed at entries\.0/);
  });

  it('refuses a file without entries', () => {
    expect(() => parseBaseline([], KNOWN)).toThrow(/\(root\)/);
  });
});

// The CLI end to end: a mutant of the reference makes one check fail for real.
describe('run --baseline', () => {
  const FAILING = 'RATE-LIMIT/one-workspace-two-keys'; // fails against the rate-per-key mutant

  it('turns a listed failure into a known one (exit 0) and fails on a stale entry (exit 1)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-baseline-'));
    const file = join(out, 'known.json');
    await writeFile(file, JSON.stringify({ entries: [{ check: FAILING, reason: 'limits are per key until the next release' }] }));
    const known = await cli(['run', '--mutants', 'rate-per-key', '--only', '^RATE-LIMIT/one-workspace', '--baseline', file, '--out', join(out, 'a'), '--quiet']);
    expect(known.code).toBe(0); // vitest's own reporter still shows the failure on stderr
    expect(known.stdout).toMatch(/known failure/);
    const results = JSON.parse(await readFile(join(out, 'a', 'latest', 'results.json'), 'utf8'));
    const check = results.checks.find((c: { id: string }) => c.id === FAILING);
    expect(check).toMatchObject({ verdict: 'fail', blocking: false, known: { reason: 'limits are per key until the next release' } });
    expect(results.baseline.entries).toEqual([expect.objectContaining({ check: FAILING, status: 'known' })]);
    expect(await readFile(join(out, 'a', 'latest', 'summary.md'), 'utf8')).toMatch(/known failures \(baseline\): \*\*1\*\*/);

    // The same entry against the clean reference: the check passes, the entry is stale.
    const stale = await cli(['run', '--only', '^RATE-LIMIT/one-workspace', '--baseline', file, '--out', join(out, 'b'), '--quiet']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/stale/);
    const again = JSON.parse(await readFile(join(out, 'b', 'latest', 'results.json'), 'utf8'));
    expect(again.summary.stale).toBe(1);
    expect(again.verdict).toBe('fail');
  });

  it('refuses a bad baseline before the run starts (exit 2, the entry named)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-baseline-'));
    const file = join(out, 'known.json');
    await writeFile(file, JSON.stringify({ entries: [{ check: 'NO-SUCH/check', reason: 'x' }] }));
    const r = await cli(['run', '--baseline', file, '--out', out, '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid baseline .*known\.json:\n {2}- entries\.0\.check: no check "NO-SUCH\/check"/);
  });
});
