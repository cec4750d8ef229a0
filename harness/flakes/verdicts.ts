// Pure: read vitest's JSON report into one verdict per test, and compare runs to find the tests
// whose verdict changed. No I/O here; main.ts feeds it the parsed reports.

export type Verdict = 'passed' | 'failed' | 'skipped' | 'missing';

/** The part of vitest's JSON report (`--reporter=json`) this module reads. */
export interface VitestJson {
  testResults: Array<{
    name: string; // absolute path of the test file
    message?: string; // the file's own error (failed to load, a failing beforeAll/afterAll), else ''
    assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }>;
  }>;
}

/** Test id -> verdict for one run. A test absent from the map was missing from that run. */
export type RunVerdicts = Map<string, Verdict>;

/** Every file also gets an entry of its own: failed when the file itself erred (load, hooks). */
export const FILE_ENTRY = '(file: load and hooks)';

export function testId(file: string, titles: string[]): string {
  return [file, ...titles].join(' > ');
}

/** vitest's statuses folded to three verdicts: todo, pending and disabled tests did not run. */
function verdictOf(status: string): Verdict {
  if (status === 'passed' || status === 'failed') return status;
  return 'skipped';
}

/** The run's verdicts; file paths are made relative to `root` with forward slashes. */
export function readVerdicts(report: VitestJson, root: string): RunVerdicts {
  const verdicts: RunVerdicts = new Map();
  const prefix = root.replace(/\\/g, '/').replace(/\/?$/, '/');
  for (const file of report.testResults) {
    const abs = file.name.replace(/\\/g, '/');
    const rel = abs.startsWith(prefix) ? abs.slice(prefix.length) : abs;
    verdicts.set(testId(rel, [FILE_ENTRY]), file.message ? 'failed' : 'passed');
    for (const t of file.assertionResults) {
      const id = testId(rel, [...t.ancestorTitles, t.title]);
      let unique = id;
      for (let n = 2; verdicts.has(unique); n++) unique = `${id} #${n}`; // two tests with one name
      verdicts.set(unique, verdictOf(t.status));
    }
  }
  return verdicts;
}

/** Merge the phases of one run (each phase ran other files, so their ids do not overlap). */
export function mergeVerdicts(phases: RunVerdicts[]): RunVerdicts {
  return new Map(phases.flatMap((p) => [...p]));
}

export interface Change {
  id: string;
  /** verdicts[i] is the verdict in run i + 1. */
  verdicts: Verdict[];
}

/** Every test (or file entry) whose verdict is not the same in all runs, sorted by id. */
export function compareRuns(runs: RunVerdicts[]): Change[] {
  const ids = [...new Set(runs.flatMap((r) => [...r.keys()]))].sort();
  return ids
    .map((id) => ({ id, verdicts: runs.map((r) => r.get(id) ?? 'missing') }))
    .filter((c) => new Set(c.verdicts).size > 1);
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  /** Files whose own entry failed: did not load, or a hook outside the tests threw. */
  fileErrors: number;
}

export function totals(run: RunVerdicts): Totals {
  const t: Totals = { passed: 0, failed: 0, skipped: 0, fileErrors: 0 };
  for (const [id, v] of run) {
    if (id.endsWith(` > ${FILE_ENTRY}`)) t.fileErrors += v === 'failed' ? 1 : 0;
    else if (v !== 'missing') t[v]++;
  }
  return t;
}

/** "a.test.ts > suite > name: passed 4/5, failed 1/5 (runs 3)": the commonest verdict first. */
export function formatChange(change: Change): string {
  const n = change.verdicts.length;
  const runsOf = new Map<Verdict, number[]>();
  change.verdicts.forEach((v, i) => runsOf.set(v, [...(runsOf.get(v) ?? []), i + 1]));
  const parts = [...runsOf]
    .sort((a, b) => b[1].length - a[1].length || a[1][0]! - b[1][0]!)
    .map(([v, runs], i) => `${v} ${runs.length}/${n}${i === 0 ? '' : ` (runs ${runs.join(', ')})`}`);
  return `${change.id}: ${parts.join(', ')}`;
}

export function formatTotals(t: Totals): string {
  const errors = t.fileErrors ? `, ${t.fileErrors} file(s) erred` : '';
  return `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped${errors}`;
}
