import { describe, expect, it } from 'vitest';
import { globToRegExp, matchFiles } from './glob.ts';
import { FILE_ENTRY, compareRuns, formatChange, readVerdicts, totals, type VitestJson } from './verdicts.ts';

const ROOT = '/repo';

type Status = 'passed' | 'failed' | 'skipped' | 'todo';

/** A synthetic vitest JSON report: file -> test title -> status; a string in place of the tests is the file's own error. */
function report(files: Record<string, Record<string, Status> | string>): VitestJson {
  return {
    testResults: Object.entries(files).map(([file, tests]) => ({
      name: `${ROOT}/${file}`,
      message: typeof tests === 'string' ? tests : '',
      assertionResults:
        typeof tests === 'string' ? [] : Object.entries(tests).map(([title, status]) => ({ ancestorTitles: ['suite'], title, status })),
    })),
  };
}

const fileEntry = (file: string) => `${file} > ${FILE_ENTRY}`;

describe('readVerdicts', () => {
  it('keys tests by project-relative file, suites and title, with one entry for the file itself', () => {
    const run = readVerdicts(report({ 'a.test.ts': { one: 'passed', two: 'failed', three: 'todo' } }), ROOT);
    expect([...run]).toEqual([
      [fileEntry('a.test.ts'), 'passed'],
      ['a.test.ts > suite > one', 'passed'],
      ['a.test.ts > suite > two', 'failed'],
      ['a.test.ts > suite > three', 'skipped'],
    ]);
  });

  it('tells apart two tests with the same name', () => {
    const r = report({ 'a.test.ts': { one: 'passed' } });
    r.testResults[0]!.assertionResults.push({ ancestorTitles: ['suite'], title: 'one', status: 'failed' });
    expect(readVerdicts(r, ROOT).get('a.test.ts > suite > one #2')).toBe('failed');
  });

  it('counts a file that failed to load as a file error, not as a test', () => {
    const run = readVerdicts(report({ 'a.test.ts': { one: 'passed' }, 'b.test.ts': 'SyntaxError: boom' }), ROOT);
    expect(run.get(fileEntry('b.test.ts'))).toBe('failed');
    expect(totals(run)).toEqual({ passed: 1, failed: 0, skipped: 0, fileErrors: 1 });
  });
});

describe('compareRuns', () => {
  const runs = [
    report({ 'a.test.ts': { stable: 'passed', flaky: 'passed', gone: 'passed', off: 'skipped', broken: 'failed' }, 'b.test.ts': { t: 'passed' } }),
    report({ 'a.test.ts': { stable: 'passed', flaky: 'failed', off: 'skipped', broken: 'failed' }, 'b.test.ts': 'Error: failed to load' }),
    report({ 'a.test.ts': { stable: 'passed', flaky: 'passed', gone: 'passed', off: 'skipped', broken: 'failed' }, 'b.test.ts': { t: 'passed' } }),
  ].map((r) => readVerdicts(r, ROOT));
  const changes = compareRuns(runs);
  const ids = changes.map((c) => c.id);

  it('lists a test that passed in some runs and failed in others', () => {
    expect(changes.find((c) => c.id === 'a.test.ts > suite > flaky')?.verdicts).toEqual(['passed', 'failed', 'passed']);
  });

  it('lists a test missing from a run', () => {
    expect(changes.find((c) => c.id === 'a.test.ts > suite > gone')?.verdicts).toEqual(['passed', 'missing', 'passed']);
  });

  it('lists a file that failed to load in one run, and its tests as missing there', () => {
    expect(changes.find((c) => c.id === fileEntry('b.test.ts'))?.verdicts).toEqual(['passed', 'failed', 'passed']);
    expect(changes.find((c) => c.id === 'b.test.ts > suite > t')?.verdicts).toEqual(['passed', 'missing', 'passed']);
  });

  it('leaves out stable tests, tests skipped in every run and tests failing in every run', () => {
    expect(ids).not.toContain('a.test.ts > suite > stable');
    expect(ids).not.toContain('a.test.ts > suite > off');
    expect(ids).not.toContain('a.test.ts > suite > broken');
    expect(ids).toHaveLength(4);
  });

  it('finds nothing when every run agrees', () => {
    expect(compareRuns([runs[0]!, runs[0]!, runs[0]!])).toEqual([]);
  });
});

describe('formatChange', () => {
  it('puts the commonest verdict first and names the runs of the others', () => {
    const verdicts = ['passed', 'passed', 'failed', 'passed', 'missing'] as const;
    expect(formatChange({ id: 'x.test.ts > s > t', verdicts: [...verdicts] })).toBe('x.test.ts > s > t: passed 3/5, failed 1/5 (runs 3), missing 1/5 (runs 5)');
  });
});

describe('glob', () => {
  const files = ['harness/load/histogram.test.ts', 'harness/load/deep/x.test.ts', 'harness/cli/run.test.ts', 'suites/ids.test.ts'];

  it('matches ** across folders and * within one', () => {
    expect(matchFiles(files, 'harness/load/**')).toEqual(['harness/load/histogram.test.ts', 'harness/load/deep/x.test.ts']);
    expect(matchFiles(files, 'harness/*/*.test.ts')).toEqual(['harness/load/histogram.test.ts', 'harness/cli/run.test.ts']);
    expect(matchFiles(files, '**/ids.test.ts')).toEqual(['suites/ids.test.ts']);
    expect(matchFiles(files, './harness/{cli,load}/???.test.ts')).toEqual(['harness/cli/run.test.ts']);
  });

  it('takes dots literally and refuses an unclosed brace', () => {
    expect(globToRegExp('a.ts').test('abts')).toBe(false);
    expect(() => globToRegExp('{a,b')).toThrow(/does not close/);
  });
});
