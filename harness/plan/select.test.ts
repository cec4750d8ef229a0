import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { selection } from './select.ts';

const ids = (chosen: string[] | undefined) => chosen ?? ALL_CHECKS.map((c) => c.id);

describe('run selection', () => {
  it('takes every check without a selector', async () => {
    expect(await selection({}, ALL_CHECKS, tmpdir())).toBeUndefined();
  });
  it('--clause takes exactly the checks naming the clause', async () => {
    const got = ids(await selection({ clause: ['ACCT-SENDINGGAP-ENFORCED'] }, ALL_CHECKS, tmpdir()));
    expect(got).toEqual(ALL_CHECKS.filter((c) => c.clauses.includes('ACCT-SENDINGGAP-ENFORCED')).map((c) => c.id));
    expect(got.length).toBeGreaterThan(0);
  });
  it('--section takes the section and its subsections; selectors intersect', async () => {
    const all46 = ids(await selection({ section: ['4.6'] }, ALL_CHECKS, tmpdir()));
    expect(all46.length).toBeGreaterThan(0);
    const both = ids(await selection({ section: ['4.6'], check: 'timeseries' }, ALL_CHECKS, tmpdir()));
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((id) => all46.includes(id) && /timeseries/.test(id))).toBe(true);
  });
  it('--rerun-failed takes what failed or errored in latest/results.json', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-select-'));
    await mkdir(join(out, 'latest'));
    const [a, b, c] = ALL_CHECKS.map((x) => x.id);
    await writeFile(join(out, 'latest', 'results.json'), JSON.stringify({ checks: [{ id: a, verdict: 'fail' }, { id: b, verdict: 'pass' }, { id: c, verdict: 'error' }] }));
    expect(ids(await selection({ rerunFailed: true }, ALL_CHECKS, out))).toEqual([a, c]);
  });
  it('says what is wrong with a bad selector', async () => {
    await expect(selection({ clause: ['NO-SUCH-CLAUSE'] }, ALL_CHECKS, tmpdir())).rejects.toThrow(/NO-SUCH-CLAUSE/);
    await expect(selection({ section: ['42'] }, ALL_CHECKS, tmpdir())).rejects.toThrow(/section 42/);
    await expect(selection({ check: '(' }, ALL_CHECKS, tmpdir())).rejects.toThrow(/regular expression/);
    await expect(selection({ rerunFailed: true }, ALL_CHECKS, join(tmpdir(), 'nowhere-oc'))).rejects.toThrow(/cannot be read/);
  });
});
