import { describe, expect, it } from 'vitest';
import { detectionOf, ranDetection } from './detection.ts';
import type { KillMatrix } from './kill-matrix.ts';
import { loadProfile } from '../ground/profile.ts';

// Detection power as a run reports it: measured over the checks that ran to a verdict, never the
// plan's prediction over the checks it chose.

const check = (id: string) => ({ id, budget: 1, features: [] as string[] });
const ALL = ['A', 'B', 'C', 'D'].map(check);
const row = (killers: string[]) => ({ clauses: [], tried: killers.length, triedDigest: '', killers });
const MATRIX: KillMatrix = {
  source: 'test',
  failsClean: [],
  checks: ALL.map((c) => c.id),
  mutants: { m1: row(['A']), m2: row(['B']), m3: row(['B', 'C']), m4: row(['D']) },
};

describe('ranDetection', async () => {
  const profile = await loadProfile();
  const opts = { profile, depth: 'default' as const, all: ALL, kitVersion: '9.9.9', matrix: MATRIX };

  it("counts the kill matrix's mutants over the checks that passed or failed, and says what it rests on", () => {
    const d = ranDetection([{ checkId: 'A', verdict: 'pass' }, { checkId: 'C', verdict: 'fail' }], opts);
    expect(d.killed).toBe(2); // m1 by A, m3 by C
    expect(d.total).toBe(4);
    expect(d.missed.map((m) => m.mutant)).toEqual(['m2', 'm4']);
    expect(d.basis).toBe('the 2 checks that ran to a verdict (the kill matrix of kit 9.9.9; skips and errors kill nothing)');
  });

  it('a run whose chosen checks skipped or errored shows fewer kills than its plan predicted', () => {
    const chosen = ['A', 'B', 'C', 'D'];
    const predicted = detectionOf(ALL.filter((c) => chosen.includes(c.id)), opts);
    const ends = [
      { checkId: 'A', verdict: 'pass' },
      { checkId: 'B', verdict: 'skip' },
      { checkId: 'C', verdict: 'error' },
      { checkId: 'D', verdict: 'pass' },
    ];
    const measured = ranDetection(ends, opts);
    expect(predicted.killed).toBe(4);
    expect(measured.killed).toBe(2); // m2 and m3 need B or C, which ran to no verdict
  });

  it('a run that checked nothing kills nothing', () => {
    expect(ranDetection([{ checkId: 'A', verdict: 'skip' }], opts).killed).toBe(0);
  });
});
