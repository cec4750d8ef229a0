import { describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckEndEvent, CheckStartEvent, RunEvent } from '../ground/events.ts';
import { CheckEventTail, PROGRESS_PERIOD_ENV, RunProgressState, formatDuration, startRunProgress } from './run-progress.ts';
import { WINDOW_FILL } from '../plan/time-left.ts';
import type { ProgressStream } from '../ground/progress.ts';
import { cliOk } from '../cli/cli.test-helper.ts';

const start = (checkId: string, at: number): CheckStartEvent => ({ type: 'check-start', checkId, at: new Date(at).toISOString() });
const end = (checkId: string, verdict: CheckEndEvent['verdict'], clauses: string[], o: Partial<CheckEndEvent> = {}): CheckEndEvent => ({
  type: 'check-end',
  checkId,
  title: checkId,
  clauses,
  level: 'MUST',
  verdict,
  durationMs: 1000,
  requests: 1,
  ...o,
});
const line = (e: RunEvent) => `${JSON.stringify(e)}\n`;
const exchange: RunEvent = {
  type: 'exchange',
  id: 'x1',
  checkId: 'A',
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  // A body that looks like a check event is still an exchange.
  request: { method: 'POST', url: 'http://t/v1/x', headers: {}, body: '{"type":"check-end","checkId":"Z"}' },
  curl: 'curl',
};

describe('CheckEventTail', () => {
  it('reads only the check events appended since the last read, keeping a half-written line for later', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oc-tail-'));
    const path = join(dir, 'events.ndjson');
    const tail = new CheckEventTail(path);
    expect(tail.read()).toEqual([]); // not there yet
    writeFileSync(path, line({ type: 'run-start' } as RunEvent) + line(exchange) + line(start('A', 0)));
    expect(tail.read()).toEqual([start('A', 0)]);
    expect(tail.read()).toEqual([]);
    // An id with multi-byte characters, cut in the middle of one of them.
    const whole = Buffer.from(line(end('A/é€', 'pass', ['C1'])));
    appendFileSync(path, whole.subarray(0, 40));
    expect(tail.read()).toEqual([]);
    appendFileSync(path, Buffer.concat([whole.subarray(40), Buffer.from(line(exchange))]));
    expect(tail.read()).toEqual([end('A/é€', 'pass', ['C1'])]);
    tail.close();
  });
});

describe('RunProgressState', () => {
  const checks = [
    { id: 'S1', clauses: ['C1'], solo: true },
    { id: 'A', clauses: ['C1', 'C2'] },
    { id: 'B', clauses: ['C3'] },
    { id: 'C', clauses: ['C4'] },
    { id: 'D', clauses: ['C5'] },
    { id: 'L', clauses: ['C6'], last: true },
  ];

  it('counts checks done, clauses proven, failures by level, errors and skips, and says what runs', () => {
    const s = new RunProgressState(checks, { concurrency: 2, expectedMs: () => 1000 });
    // Measured durations give an estimate before anything ran: S1, then A..D two at a time, then L.
    expect(s.text(0)).toBe('checks 0/6  clauses 0/6  failed 0  ~4s left  preparing: workspaces, sinks');
    s.apply([start('S1', 0)]);
    expect(s.text(4000)).toMatch(/^checks 0\/6 {2}clauses 0\/6 {2}failed 0 {2}~\d+s left {2}running: S1 \(4s\)$/);
    s.apply([end('S1', 'pass', ['C1'], { durationMs: 4000 }), start('A', 4000), start('B', 5000), end('B', 'fail', ['C3'], { level: 'SHOULD' })]);
    s.apply([start('C', 5000), end('C', 'skip', ['C4']), start('D', 5000), end('D', 'error', ['C5'])]);
    // Skips and errors prove no clause; the oldest running check is named.
    expect(s.text(6000)).toMatch(/^checks 4\/6 {2}clauses 2\/6 {2}failed 1 \(1 SHOULD\) {2}errors 1 {2}skipped 1 {2}~\d+s left {2}running: A \(2s\)$/);
    s.apply([end('A', 'fail', ['C1', 'C2'])]);
    expect(s.text(7000)).toMatch(/failed 2 \(1 SHOULD\).*between checks$/);
    s.apply([start('L', 7000), end('L', 'pass', ['C6'])]);
    expect(s.text(8000)).toBe('checks 6/6  clauses 4/6  failed 2 (1 SHOULD)  errors 1  skipped 1  finishing: cleanup and reports');
  });

  it('estimates the time left by simulating the phases left with measured durations, scaled by the pace so far', () => {
    const many = [{ id: 'S1', clauses: ['C'], solo: true }, { id: 'S2', clauses: ['C'], solo: true }, ...Array.from({ length: 16 }, (_, i) => ({ id: `X${i}`, clauses: ['C'] }))];
    const expectedMs = (id: string) => (id.startsWith('S') ? 10_000 : 2000);
    const s = new RunProgressState(many, { concurrency: 8, expectedMs, finishMs: 500 });
    // Two solo checks one after another, then 16 at 8 at a time (two rounds), then the clean-up.
    expect(s.estimate(0)).toMatchObject({ ms: 20_000 + 4000 + 500, from: 'pace' });
    // S1 running for 4 s: 6 s of it left.
    s.apply([start('S1', 0)]);
    expect(s.estimate(4000)).toMatchObject({ ms: 6000 + 10_000 + 4000 + 500, from: 'pace' });
    // S1 took 40 s against 10 s measured: the rest (all of its kind, 2 s and more) scales by (40 + 20) / (10 + 20) (damped as two such checks at their measure).
    s.apply([end('S1', 'pass', ['C'], { durationMs: 40_000 })]);
    expect(s.estimate(40_000)!.ms).toBeCloseTo((10_000 + 4000) * (60 / 30) + 500);
    // Where the target's clock is real, no check runs alone: the two long ones overlap with the 16
    // short ones (on the 6 other slots, three rounds of 2 s).
    const real = new RunProgressState(many, { concurrency: 8, expectedMs, clock: 'real' });
    expect(real.estimate(0)).toMatchObject({ ms: 10_000, from: 'pace' });
    // The planner's lower bound (60 s from the first check) counts down and wins while it is larger.
    const limited = new RunProgressState(many, { rateBoundSeconds: 60, concurrency: 8, expectedMs: () => 100 });
    expect(limited.estimate(0)).toMatchObject({ ms: 60_000, from: 'rate limit' });
    limited.apply([start('S1', 0), end('S1', 'pass', ['C'], { durationMs: 100 })]);
    expect(limited.estimate(10_000)).toMatchObject({ ms: 50_000, from: 'rate limit' });
    expect(limited.text(10_000)).toContain('~50s left (rate limit)');
  });

  it('counts a running check that waits on real time down from its start at its own measure, whatever the short checks\' pace', () => {
    const ids = [{ id: 'SEND/gap', clauses: ['C'] }, ...Array.from({ length: 4 }, (_, i) => ({ id: `X${i}`, clauses: ['C'] }))];
    const s = new RunProgressState(ids, { concurrency: 8, clock: 'real', expectedMs: (id) => (id === 'SEND/gap' ? 60_000 : 1000), finishMs: 500 });
    // The short checks took five times their measure: the short pace is (15 + 2) / (3 + 2).
    s.apply([start('SEND/gap', 0), ...['X0', 'X1', 'X2'].flatMap((id) => [start(id, 0), end(id, 'pass', ['C'], { durationMs: 5000 })])]);
    const left = s.estimate(20_000)!;
    expect(left.scales).toEqual({ short: 17 / 5, works: 1, waiting: 1 });
    // The waiting check's 40 s left outlast the last short check (3.4 s); not 60 s x 17/5 - 20 s.
    expect(left).toMatchObject({ ms: 40_000 + 500, from: 'pace' });
  });

  it('against the control clock counts a check long past its expectation as taking as long again; against real time leaves that to the rate bound', () => {
    const ids = ['A', 'B'].map((id) => ({ id, clauses: ['C'] }));
    const o = { concurrency: 8, expectedMs: () => 1000, finishMs: 0 };
    const control = new RunProgressState(ids, { ...o, clock: 'control' });
    control.apply([start('A', 0), start('B', 0), end('B', 'pass', ['C'], { durationMs: 1000 })]);
    // A has run 60 s against its 1 s: about a minute left, not "~1 s".
    expect(control.estimate(60_000)!.ms).toBeGreaterThan(50_000);
    // Against real time a check that long past its expectation mostly waits for room in a rate window.
    const real = new RunProgressState(ids, { ...o, clock: 'real' });
    real.apply([start('A', 0), start('B', 0), end('B', 'pass', ['C'], { durationMs: 1000 })]);
    expect(real.estimate(60_000)!.ms).toBeLessThan(2000);
  });

  it('paces the checks run beside each other by those that finished beside each other, not by the ones run alone before them', () => {
    const ids = [{ id: 'S', clauses: ['C'], solo: true }, ...['A', 'B', 'D'].map((id) => ({ id, clauses: ['C'] }))];
    const s = new RunProgressState(ids, { concurrency: 8, clock: 'control', expectedMs: () => 1000, finishMs: 0 });
    // Alone, S took 0.3 of its measure; beside the others (a busy machine), A took four times its own.
    s.apply([start('S', 0), end('S', 'pass', ['C'], { durationMs: 300 }), start('A', 300), end('A', 'pass', ['C'], { durationMs: 4000 })]);
    // B and D: at A's pace drawn from S's (as the run's pace is drawn from the measure), not at the run's (S and A together: 6.3 / 4).
    const apart = (300 + 2000) / 3000;
    expect(s.estimate(4300)!.ms).toBeCloseTo((1000 * (4000 + apart * 2000)) / 3000, 0);
    expect(s.estimate(4300)!.scales.short).toBeCloseTo(6300 / 4000, 2);
  });

  it("learns the pace of the checks that wait seconds on the target's engine apart from the short ones", () => {
    const ids = ['A', 'B', 'E1', 'E2'].map((id) => ({ id, clauses: ['C'] }));
    const s = new RunProgressState(ids, { concurrency: 8, clock: 'real', expectedMs: (id) => (id.startsWith('E') ? 4000 : 1000), finishMs: 0 });
    // The short checks took 15 times their measure; no engine-bound check has finished: E1 and E2 keep their 4 s.
    s.apply(['A', 'B'].flatMap((id) => [start(id, 0), end(id, 'pass', ['C'], { durationMs: 15_000 })]));
    expect(s.estimate(15_000)).toMatchObject({ ms: 4000, scales: { short: 32 / 4, works: 1, waiting: 1 } });
    // E1 took three times its 4 s: E2 is now expected at (12 + 8) / (4 + 8) of its 4 s.
    s.apply([start('E1', 15_000), end('E1', 'pass', ['C'], { durationMs: 12_000 })]);
    expect(s.estimate(27_000)).toMatchObject({ ms: 4000 * (20 / 12), from: 'pace', scales: { works: 20 / 12 } });
  });

  it("expects the engine-bound checks to take as much longer as this run's mailboxes took to settle beyond the expectation", () => {
    const ids = ['S', 'E'].map((id) => ({ id, clauses: ['C'] }));
    const s = new RunProgressState(ids, { concurrency: 8, clock: 'real', expectedMs: (id) => (id === 'E' ? 4000 : 1000), settleMs: 500, finishMs: 0 });
    expect(s.estimate(0)).toMatchObject({ ms: 4000 });
    const settled = (ms: number) => ({ type: 'target-work' as const, checkId: 'X', what: 'mailbox-settle' as const, at: new Date(0).toISOString(), ms });
    // Mailboxes took 3.5 s to settle (median) where 0.5 s was expected: E is expected 3 s longer; S, a short check, is not.
    s.apply([settled(3400), settled(3500), settled(9000)]);
    expect(s.estimate(0)).toMatchObject({ ms: 7000, from: 'pace' });
    // Without a baseline (a control API settles at once), the events move nothing.
    const plain = new RunProgressState(ids, { concurrency: 8, clock: 'real', expectedMs: (id) => (id === 'E' ? 4000 : 1000), finishMs: 0 });
    plain.apply([settled(3500)]);
    expect(plain.estimate(0)).toMatchObject({ ms: 4000 });
  });


  it('takes the expectations a first look made again, and keeps its own where none was made', () => {
    const ids = ['S', 'E'].map((id) => ({ id, clauses: ['C'] }));
    const look = { type: 'first-look' as const, at: new Date(0).toISOString(), answerMs: 50, settleMs: 2300 };
    const seen: unknown[] = [];
    const remade = { concurrency: 8, clock: 'real' as const, expectedMs: (id: string) => (id === 'E' ? 9000 : 1500), finishMs: 500 };
    const s = new RunProgressState(ids, { concurrency: 8, clock: 'real', expectedMs: (id) => (id === 'E' ? 4000 : 1000), finishMs: 0, firstLook: (e) => (seen.push(e), remade) });
    expect(s.estimate(0)).toMatchObject({ ms: 4000 });
    expect(s.text(0)).toContain('preparing: workspaces, sinks, a first look at the target');
    s.apply([look]);
    expect(seen).toEqual([look]);
    expect(s.text(0)).toMatch(/preparing: workspaces, sinks$/);
    expect(s.estimate(0)).toMatchObject({ ms: 9500 });
    // The options it made take no other look.
    s.apply([look]);
    expect(seen).toHaveLength(1);
    const kept = new RunProgressState(ids, { concurrency: 8, clock: 'real', expectedMs: (id) => (id === 'E' ? 4000 : 1000), finishMs: 0, firstLook: () => undefined });
    kept.apply([look]);
    expect(kept.estimate(0)).toMatchObject({ ms: 4000 });
  });
  it('re-estimates the rate bound from the requests left, as the windows free what the checks sent', () => {
    const ids = Array.from({ length: 10 }, (_, i) => ({ id: `R${i}`, clauses: ['C'] }));
    // 10 checks measured at 20 requests each and 1 of clean-up; 2 workspaces of 100 per 60 s, of which a share fills.
    const rate = { requestsOf: () => 20, cleanup: 10, cleanupOf: () => 1, perWindow: 100, windowMs: 60_000, workspaces: 2 };
    const room = 200 * WINDOW_FILL;
    const s = new RunProgressState(ids, { concurrency: 8, expectedMs: () => 100, rate });
    // 210 requests: the room now, the rest once it frees a window later.
    expect(210 > room && 210 - room <= room).toBe(true);
    expect(s.estimate(0)).toMatchObject({ ms: 60_000, from: 'rate limit' });
    // R0 and R1 sent 25 each (measured 20) from 0 to 1 s, R2 from 5 to 6 s: half at each end, with
    // its clean-up at the end. The 7 checks left, at 20 scaled by (75 + 50) / (60 + 50), and their
    // 7 clean-ups go in the room now, then in what frees at 60, 61 and 65 s: the last at 65 s.
    const ran = (id: string, from: number) => [start(id, from), end(id, 'pass', ['C'], { durationMs: 1000, requests: 25 })];
    s.apply([...ran('R0', 0), ...ran('R1', 0), ...ran('R2', 5000)]);
    const left = 7 * 20 * (125 / 110) + 7;
    const free = room - 3 * 26;
    expect(left - free > 25 + 27 && left - free <= 25 + 27 + 12.5).toBe(true);
    expect(s.estimate(10_000)).toMatchObject({ ms: 55_000, from: 'rate limit' });
    // A window after R0 and R1, only R2's requests are held: the last of what is left waits for them.
    expect(left - (room - 26) > 0 && left - (room - 26) <= 12.5).toBe(true);
    expect(s.estimate(62_000)).toMatchObject({ ms: 3000, from: 'rate limit' });
  });

  it('counts half of a running check\'s requests gone at its start, the other half left', () => {
    const ids = [{ id: 'R0', clauses: ['C'] }];
    const rate = { requestsOf: () => 400, cleanup: 0, cleanupOf: () => 0, perWindow: 100, windowMs: 60_000, workspaces: 2 };
    const s = new RunProgressState(ids, { concurrency: 8, expectedMs: () => 100, rate });
    s.apply([start('R0', 0)]);
    // 200 went at 0, more than the room: the 200 left wait for them to free at 60 s.
    expect(400 / 2 > 200 * WINDOW_FILL).toBe(true);
    expect(s.estimate(1000)).toMatchObject({ ms: 59_000, from: 'rate limit' });
  });

  it('where the requests were seen going out (exchange lines), the windows hold them when they went, not half at a check\'s start', () => {
    const ids = [{ id: 'R0', clauses: ['C'] }];
    const rate = { requestsOf: () => 200, cleanup: 0, cleanupOf: () => 0, perWindow: 100, windowMs: 60_000, workspaces: 2 };
    const s = new RunProgressState(ids, { concurrency: 8, expectedMs: () => 100, rate });
    // R0 started at 0 and sent 150 of its 200 at 30 s (a wait in between): 50 left, more than the room.
    s.apply([start('R0', 0), ...Array.from({ length: 150 }, () => ({ type: 'sent' as const, at: 30_000, checkId: 'R0' }))]);
    expect(50 > 200 * WINDOW_FILL - 150).toBe(true);
    // The rest waits for what went at 30 s to free, at 90 s (half at its start would free at 60 s).
    expect(s.estimate(31_000)).toMatchObject({ ms: 59_000, from: 'rate limit' });
  });

  it('reads a request to a workspace from the head of its exchange line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oc-sent-'));
    const path = join(dir, 'events.ndjson');
    const tail = new CheckEventTail(path);
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    writeFileSync(path, line({ type: 'exchange', id: 'x1', checkId: 'A/"q"', workspace: 3, startedAt: '2026-01-01T00:00:01.000Z', request: {} }) + line({ type: 'exchange', id: 'x2', startedAt: '2026-01-01T00:00:02.000Z', request: {} }) + line({ type: 'exchange', id: 'x3', workspace: 0, startedAt: '2026-01-01T00:00:03.000Z', request: {} }));
    expect(tail.read()).toEqual([
      { type: 'sent', at: Date.parse('2026-01-01T00:00:01.000Z'), checkId: 'A/"q"' },
      { type: 'sent', at: Date.parse('2026-01-01T00:00:03.000Z') },
    ]);
    tail.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compares the first estimate with the time taken once every check is done', () => {
    const s = new RunProgressState([{ id: 'A', clauses: ['C'] }], { expectedMs: () => 1000, announced: { ms: 60_000, startedAt: 0 } });
    s.apply([start('A', 0), end('A', 'pass', ['C'], { durationMs: 1000 })]);
    expect(s.text(80_000)).toContain('announced ~1m00s, took 1m20s (-25 %)');
  });

  it('formats durations', () => {
    expect([formatDuration(400), formatDuration(42_000), formatDuration(185_000), formatDuration(3_725_000)]).toEqual(['0s', '42s', '3m05s', '1h02m']);
  });
});

describe('startRunProgress', () => {
  it('follows the events file on an interval, prints a plain line at the period and a last one at stop', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oc-prog-'));
    const eventsPath = join(dir, 'events.ndjson');
    writeFileSync(eventsPath, '');
    let text = '';
    const out: ProgressStream = { isTTY: false, write: (c: string | Uint8Array) => ((text += String(c)), true) };
    const p = startRunProgress({ eventsPath, checks: [{ id: 'A', clauses: ['C1'] }], plan: { minSeconds: 0, estimate: { ms: 0, checksMs: 0, rateFloorMs: 0, overheadMs: 0, finishMs: 0, from: 'durations' } }, concurrency: 8, clock: 'control', startedAt: Date.now(), out, plainEveryMs: 50 });
    // The first period's line, however late a busy machine wakes the interval (the deadline only bounds the wait).
    for (const deadline = Date.now() + 10_000; !text && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
    expect(text).toMatch(/^\d+s {2}checks 0\/1 .*preparing/);
    appendFileSync(eventsPath, line(start('A', Date.now())) + line(end('A', 'pass', ['C1'])));
    p.reporter.onTestModuleEnd(); // vitest: the checks are done
    const lines = text.trim().split('\n');
    // The last line keeps the first estimate (here 0 s) and its error against the time taken.
    expect(lines.at(-1)).toMatch(/^\d+s {2}checks 1\/1 {2}clauses 1\/1 {2}failed 0 {2}announced ~0s, took \d+s \(-?\d+ %\) {2}finishing/);
    p.stop();
    await new Promise((r) => setTimeout(r, 120));
    expect(text.trim().split('\n')).toHaveLength(lines.length); // stopped: nothing more
  });
});

// The CLI as a user runs it in CI: stdout and stderr are pipes, not a terminal.
// Checks that take seconds each (mail sinks, analytics): the run lasts several progress periods.
const SLOW = '^(VERIF-SINK/|ANLT/)';
const PROGRESS = /^(\d+)s {2}checks (\d+)\/(\d+) {2}clauses (\d+)\/(\d+) {2}failed (\d+)(.*)$/;

const cli = (args: string[]) => cliOk(args, { env: { [PROGRESS_PERIOD_ENV]: '1000' } });

describe('outreach-conformance run: progress', () => {
  it('prints a plain progress line on stderr every period with plausible counts', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-prog-run-'));
    const r = await cli(['run', '--depth', 'quick', '--out', out, '--check', SLOW]);
    const planned = Number(/plan: (\d+) checks/.exec(r.stdout)?.[1]);
    expect(planned).toBeGreaterThan(10);
    const lines = r.stderr.trim().split('\n');
    const parsed = lines.map((l) => {
      const m = PROGRESS.exec(l);
      expect(m, `a progress line: ${l}`).not.toBeNull();
      return { elapsed: Number(m![1]), done: Number(m![2]), total: Number(m![3]), proven: Number(m![4]), clauses: Number(m![5]), failed: Number(m![6]), rest: m![7]! };
    });
    expect(parsed.length).toBeGreaterThanOrEqual(4);
    for (const [i, p] of parsed.entries()) {
      expect(p.total).toBe(planned);
      expect(p.done).toBeLessThanOrEqual(p.total);
      expect(p.proven).toBeLessThanOrEqual(p.clauses);
      expect(p.failed).toBe(0);
      if (i > 0) {
        expect(p.done).toBeGreaterThanOrEqual(parsed[i - 1]!.done);
        expect(p.proven).toBeGreaterThanOrEqual(parsed[i - 1]!.proven);
        // Lines come in time order (how regularly is the interval's job, not asserted on a busy machine).
        expect(p.elapsed).toBeGreaterThanOrEqual(parsed[i - 1]!.elapsed);
      }
    }
    // Some line was printed while checks ran and said which; the last one has them all.
    expect(parsed.some((p) => p.done < p.total && /running: \S+ \(\d+s\)/.test(p.rest))).toBe(true);
    expect(parsed.some((p) => p.done > 0 && p.done < p.total && /~\S+ left/.test(p.rest))).toBe(true);
    expect(parsed.at(-1)!.done).toBe(planned);
    expect(parsed.at(-1)!.proven).toBeGreaterThan(0);
    // The summary still comes on stdout, after the run.
    expect(r.stdout).toMatch(/^reports: /m);
  });

  it('has none with --quiet', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-prog-run-'));
    const r = await cli(['run', '--depth', 'quick', '--out', out, '--check', SLOW, '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(/checks \d+\/\d+/);
    expect(r.stdout).toMatch(/^reports: /m);
  });
});
