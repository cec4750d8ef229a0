import { describe, expect, it } from 'vitest';
import { maxInFlight, runOpenModel, scheduleSize, type OpenModelOptions, type OpenModelResult, type Shot, type Timers } from './open-model.ts';
import { stallAnswerAt, type StallSchedule } from '../../bench/stall-server.ts';

// What the open-model generator does, asserted on a simulated clock: its timers fire exactly when
// due, and the simulated server answers each request exactly when a stall schedule says, so every
// figure below follows from the mechanism and is asserted exactly. How well it keeps its schedule
// on a real machine against a real server (percentiles, adherence, CPU) is a measurement:
// `npm run bench:load` prints it. The few tests on the real clock assert invariants, no durations.

/** Lets every pending promise callback run (a real macrotask comes after all microtasks). */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

interface SimTimer {
  at: number;
  fn: () => void;
}

/**
 * A simulated clock and its timers. Time moves only when a test advances it, or blocks it;
 * timers fire in time order, equal times in the order they were set, and after
 * each one every promise callback runs before the next, as between two turns of Node's loop.
 */
class SimClock implements Timers {
  private t: number;
  private seq = 0;
  private readonly timers = new Map<number, SimTimer>();

  constructor(start = 1_000) {
    this.t = start;
  }

  readonly now = () => this.t;

  /** Node makes delays below 1 ms 1 ms; so does this clock. */
  setTimeout(fn: () => void, ms: number): unknown {
    return this.add(fn, this.t + Math.max(1, ms));
  }
  setImmediate(fn: () => void): unknown {
    return this.add(fn, this.t);
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  clearImmediate(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers set and not yet fired or cleared. */
  pending(): number {
    return this.timers.size;
  }

  /** The event loop held for `ms`: time moves on and no timer fires; those due fire late, on the next advance. */
  block(ms: number): void {
    this.t += ms;
  }

  /** Fires every timer due within `ms` from now, and ends `ms` from now (or later, if a timer blocked the clock). */
  async advance(ms: number): Promise<void> {
    const until = this.t + ms;
    await flush();
    for (let next = this.earliest(until); next; next = this.earliest(until)) {
      this.timers.delete(next[0]);
      this.t = Math.max(this.t, next[1].at);
      next[1].fn();
      await flush();
    }
    this.t = Math.max(this.t, until);
  }

  /** Advances timer by timer until `run` settles; a run that waits on no timer and never settles is a bug. */
  async runOut<R>(run: Promise<R>): Promise<R> {
    let settled = false;
    run.then(
      () => (settled = true),
      () => (settled = true),
    );
    await flush();
    while (!settled) {
      const next = this.earliest(Infinity);
      if (!next) throw new Error('the run waits on nothing and has not settled');
      await this.advance(Math.max(0, next[1].at - this.t));
    }
    return run;
  }

  private add(fn: () => void, at: number): number {
    const id = ++this.seq;
    this.timers.set(id, { at, fn });
    return id;
  }

  private earliest(until: number): [number, SimTimer] | undefined {
    let best: [number, SimTimer] | undefined;
    // Map order is insertion order, so among equal times the first set wins.
    for (const entry of this.timers) if (entry[1].at <= until && (!best || entry[1].at < best[1].at)) best = entry;
    return best;
  }
}

/**
 * A simulated clock that can also block the thread for a fraction of a millisecond, as Node's
 * timers do (Atomics.wait), and keeps each sleep. Like a futex wait it never returns early: it
 * sleeps whole microseconds, rounded up (a schedule 1/1,800 s apart is not exact in binary).
 */
class SleepingClock extends SimClock {
  readonly sleeps: number[] = [];
  sleep(ms: number): void {
    this.sleeps.push(ms);
    this.block(Math.ceil(ms * 1000) / 1000);
  }
}

/** runOpenModel on the simulated clock. */
function simRun<T>(clock: SimClock, opts: Omit<OpenModelOptions<T>, 'now' | 'timers'>): Promise<OpenModelResult> {
  return runOpenModel({ ...opts, now: clock.now, timers: clock });
}

/** Whether a promise has settled (after letting pending callbacks run). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await flush();
  return done;
}

/** Nearest-rank percentile of unsorted values. */
function pct(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]!;
}

describe('runOpenModel against a simulated server that stalls 200 ms every 770 ms (200 req/s, 6 s)', () => {
  // Whole milliseconds everywhere (interval 5 ms, schedule on whole ms, simulated clock starts on
  // a whole ms): every send leaves exactly at its intended time and every answer arrives exactly
  // when the schedule says, so the generator's figures must equal the schedule's, to the bit.
  const RATE = 200;
  const DURATION_MS = 6_000;
  const PERIOD_MS = 770;
  const STALL_MS = 200;
  /** The first window opens this long after the run's start. */
  const FIRST_STALL_MS = 300;

  interface Run {
    result: OpenModelResult;
    shots: Shot[];
    schedule: StallSchedule;
    /** the simulated server's own log, by request index (simulated clock) */
    log: Map<number, { arrival: number; response: number }>;
  }

  async function stalledRun(): Promise<Run> {
    const clock = new SimClock();
    const schedule: StallSchedule = { start: clock.now() + FIRST_STALL_MS, periodMs: PERIOD_MS, stallMs: STALL_MS };
    const log = new Map<number, { arrival: number; response: number }>();
    const shots: Shot[] = [];
    const send = (index: number) => {
      const arrival = clock.now();
      const answer = stallAnswerAt(schedule, arrival);
      const respond = () => {
        log.set(index, { arrival, response: clock.now() });
        return { status: 200 };
      };
      if (answer === arrival) return Promise.resolve(respond());
      return new Promise<{ status: number }>((resolve) => clock.setTimeout(() => resolve(respond()), answer - arrival));
    };
    const result = await clock.runOut(simRun(clock, { rate: RATE, durationMs: DURATION_MS, send, onShot: (s) => shots.push(s) }));
    return { result, shots, schedule, log };
  }

  /** What the schedule says each shot's latency is: its answer time for an arrival at the intended time, minus that time. */
  const expected = (r: Run) =>
    r.shots.map((s) => {
      const at = r.result.origin + s.intended;
      return stallAnswerAt(r.schedule, at) - at;
    });

  /** Windows opening inside the run (at FIRST_STALL_MS + k x PERIOD_MS), each holding the sends of a whole stall: 8 here. */
  const windows = Math.ceil((DURATION_MS - FIRST_STALL_MS) / PERIOD_MS);
  const heldPerWindow = (RATE * STALL_MS) / 1000;

  it('sends and completes the whole schedule, each request exactly at its intended time', async () => {
    const { result, shots } = await stalledRun();
    expect(result).toMatchObject({ intended: scheduleSize(RATE, DURATION_MS), sent: 1_200, completed: 1_200, late: 0 });
    expect(shots.map((s) => s.index).sort((a, b) => a - b)).toEqual(Array.from({ length: 1_200 }, (_, i) => i));
    for (const s of shots) {
      expect(s.intended).toBe(s.index * (1000 / RATE));
      expect(s.sent).toBe(s.intended);
      expect(s.status).toBe(200);
    }
    // The last request (intended at 5,995 ms) falls between windows and is answered at once.
    expect(result.elapsedMs).toBe(5_995);
  });

  it('corrected latency equals the stall schedule for every request, so its percentiles do too', async () => {
    const run = await stalledRun();
    const corrected = run.shots.map((s) => s.done - s.intended);
    const reference = expected(run);
    expect(corrected).toEqual(reference);
    for (const p of [50, 90, 99]) expect(pct(corrected, p), `p${p}`).toBe(pct(reference, p));
    // p90 and p99 lie inside the stalls (a quarter of the sends), far from zero; p50 outside.
    expect(pct(reference, 50)).toBe(0);
    expect(pct(reference, 90)).toBeGreaterThan(50);
  });

  it("service time equals the server's own log for every request", async () => {
    const run = await stalledRun();
    expect(run.log.size).toBe(run.result.completed);
    for (const s of run.shots) {
      const own = run.log.get(s.index)!;
      expect(run.result.origin + s.sent).toBe(own.arrival);
      expect(s.done - s.sent).toBe(own.response - own.arrival);
    }
  });

  it('keeps sending through a stall: slow samples weigh what the stall lasts, not one per connection', async () => {
    // The coordinated-omission difference, as behaviour: a client that waits for its answers
    // would send next to nothing while the server stalls, so its slow samples would be a handful
    // per stall. Here every request intended inside a stall leaves on time and is counted.
    const run = await stalledRun();
    const reference = expected(run);
    const held = run.shots.filter((_, i) => reference[i]! > 0);
    expect(held).toHaveLength(windows * heldPerWindow);
    expect(run.shots.filter((s) => s.done - s.intended > 0)).toHaveLength(windows * heldPerWindow);
    // They left on schedule while the earlier ones of their stall were still unanswered:
    // at a stall's end all rate x stall = 40 were in flight at once.
    for (const s of held) expect(s.sent).toBe(s.intended);
    expect(maxInFlight(run.shots)).toBe(heldPerWindow);
  });
});

describe('runOpenModel when its event loop is starved', () => {
  // At 1,000 req/s (1 ms apart), each answered 2 ms after it left, the handler of request 300's
  // answer (at 302 ms) holds the loop 200 ms: the simulated clock moves from 302 to 502 ms with
  // no timer firing. The tick due at 302 ms was set after that answer's timer, so it fires after
  // it: the sends intended in [302, 502] all leave at 502 ms, those more than lateAfterMs behind
  // their time are late, and an answer due inside the block is read at its end. Nothing else moves.
  const SERVICE_MS = 2;
  const BLOCK_AT = 300;
  const BLOCK_START = BLOCK_AT + SERVICE_MS;
  const BLOCK_MS = 200;
  const BLOCK_END = BLOCK_START + BLOCK_MS;

  async function blockedRun(lateAfterMs: number | undefined) {
    const clock = new SimClock();
    const shots: Shot[] = [];
    const run = simRun(clock, {
      rate: 1000,
      durationMs: 1_000,
      ...(lateAfterMs === undefined ? {} : { lateAfterMs }),
      send: () => new Promise<{ status: number }>((resolve) => clock.setTimeout(() => resolve({ status: 200 }), SERVICE_MS)),
      onShot: (s) => {
        shots.push(s);
        if (s.index === BLOCK_AT) clock.block(BLOCK_MS);
      },
    });
    return { result: await clock.runOut(run), shots: shots.sort((a, b) => a.index - b.index) };
  }

  const heldByBlock = (s: Shot) => s.intended >= BLOCK_START && s.intended <= BLOCK_END;
  /** An answer due inside the block is read when it ends. */
  const doneAt = (s: Shot) => {
    const due = s.sent + SERVICE_MS;
    return due > BLOCK_START && due < BLOCK_END ? BLOCK_END : due;
  };

  it.each([
    [undefined, 1],
    [10, 10],
  ])('lateAfterMs %s: exactly the sends the block held more than %i ms are late; their latency holds the block; nothing is lost or re-timed', async (lateAfterMs, threshold) => {
    const { result, shots } = await blockedRun(lateAfterMs);

    // Nothing lost, nothing sent twice, every intended time on the schedule.
    expect(result).toMatchObject({ intended: 1_000, sent: 1_000, completed: 1_000 });
    expect(shots.map((s) => s.index)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    for (const s of shots) expect(s.intended).toBe(s.index);

    for (const s of shots) {
      // Held sends leave together when the block ends; all others exactly on time.
      expect(s.sent, `sent ${s.index}`).toBe(heldByBlock(s) ? BLOCK_END : s.intended);
      expect(s.done, `done ${s.index}`).toBe(doneAt(s));
    }
    // Corrected latency counts from the schedule, so a held send's holds the rest of the block.
    for (const s of shots.filter(heldByBlock)) expect(s.done - s.intended).toBe(BLOCK_END - s.intended + SERVICE_MS);
    const late = shots.filter((s) => s.late).map((s) => s.index);
    const lateWant = shots.filter((s) => heldByBlock(s) && BLOCK_END - s.intended > threshold).map((s) => s.index);
    expect(late).toEqual(lateWant);
    expect(lateWant).toHaveLength(BLOCK_MS - threshold);
    expect(result.late).toBe(lateWant.length);
  });

  it('flags exactly the sends that left more than lateAfterMs after their time (default 1 ms; real clock)', async () => {
    const shots: Shot[] = [];
    const result = await runOpenModel({ rate: 2000, durationMs: 500, send: async () => ({ status: 200 }), onShot: (s) => shots.push(s) });
    for (const s of shots) expect(s.late).toBe(s.sent - s.intended > 1);
    expect(shots.filter((s) => s.late).length).toBe(result.late);
  });
});

describe('runOpenModel: schedule size, limits, abort, failures', () => {
  const ok = async () => ({ status: 200 });
  /** A send answered `ms` later on the simulated clock. */
  const after = (clock: SimClock, ms: number) => () => new Promise<{ status: number }>((resolve) => clock.setTimeout(() => resolve({ status: 200 }), ms));

  it('scheduleSize is rate x duration, rounded down, capped by maxRequests', () => {
    expect(scheduleSize(1000, 2_500)).toBe(2500);
    expect(scheduleSize(333, 1_000)).toBe(333);
    expect(scheduleSize(10, 150)).toBe(1);
    expect(scheduleSize(10, 50)).toBe(0);
    expect(scheduleSize(1000, 2_500, 40)).toBe(40);
    expect(scheduleSize(10, 1_000, 40)).toBe(10);
  });

  it('refuses a rate that is not above zero', () => {
    expect(() => runOpenModel({ rate: 0, durationMs: 1_000, send: ok })).toThrow(/rate/);
    expect(() => runOpenModel({ rate: Number.NaN, durationMs: 1_000, send: ok })).toThrow(/rate/);
  });

  it('stops at maxRequests, at the schedule times of the first ones, without waiting out the duration', async () => {
    const clock = new SimClock();
    const shots: Shot[] = [];
    const r = await clock.runOut(simRun(clock, { rate: 1000, durationMs: 10_000, maxRequests: 50, send: ok, onShot: (s) => shots.push(s) }));
    expect(r).toMatchObject({ intended: 50, sent: 50, completed: 50, elapsedMs: 49 });
    expect(shots.map((s) => [s.index, s.intended, s.sent])).toEqual(Array.from({ length: 50 }, (_, i) => [i, i, i]));
    // Resolved when the 50th was answered, 49 ms in, with no timer left.
    expect(clock.now() - r.origin).toBe(49);
    expect(clock.pending()).toBe(0);
  });

  it('an empty schedule resolves at once', async () => {
    const clock = new SimClock();
    const run = simRun(clock, { rate: 10, durationMs: 50, send: ok });
    expect(await settled(run)).toBe(true);
    expect(await run).toMatchObject({ intended: 0, sent: 0, completed: 0, late: 0, elapsedMs: 0 });
    expect(clock.pending()).toBe(0);
  });

  it('abort stops dispatching, and the requests in flight are waited out', async () => {
    const clock = new SimClock();
    const ac = new AbortController();
    const shots: Shot[] = [];
    const run = simRun(clock, { rate: 1000, durationMs: 10_000, signal: ac.signal, send: after(clock, 50), onShot: (s) => shots.push(s) });
    await clock.advance(200); // sends 0..200 have left
    ac.abort();
    // Request 200, sent at 200 ms, is answered at 250 ms: the run waits for it and not a moment more.
    await clock.advance(49);
    expect(await settled(run)).toBe(false);
    await clock.advance(1);
    expect(await settled(run)).toBe(true);
    const r = await run;
    expect(r).toMatchObject({ intended: 10_000, sent: 201, completed: 201, elapsedMs: 250 });
    expect(shots).toHaveLength(201);
    expect(Math.max(...shots.map((s) => s.sent))).toBe(200);
    expect(clock.pending()).toBe(0);
  });

  it('abort takes effect at once, not at the next scheduled send (1 req/s)', async () => {
    const clock = new SimClock();
    const ac = new AbortController();
    const run = simRun(clock, { rate: 1, durationMs: 60_000, signal: ac.signal, send: ok });
    await clock.advance(50);
    ac.abort();
    // Resolved with the clock still at 50 ms: the send due at 1,000 ms was not waited for.
    expect(await settled(run)).toBe(true);
    expect(await run).toMatchObject({ intended: 60, sent: 1, completed: 1 });
    expect(clock.now() - (await run).origin).toBe(50);
    expect(clock.pending()).toBe(0);
  });

  it('an already aborted signal sends nothing', async () => {
    const clock = new SimClock();
    const run = simRun(clock, { rate: 1000, durationMs: 1_000, signal: AbortSignal.abort(), send: ok });
    expect(await settled(run)).toBe(true);
    expect(await run).toMatchObject({ sent: 0, completed: 0 });
    expect(clock.pending()).toBe(0);
  });

  it('a send that throws or rejects counts as a transport failure (status 0), and the run goes on', async () => {
    const clock = new SimClock();
    const shots: Shot[] = [];
    const send = (i: number) => {
      if (i === 3) throw new Error('thrown');
      if (i === 5) return Promise.reject(new Error('rejected'));
      return Promise.resolve({ status: 200 });
    };
    const r = await clock.runOut(simRun(clock, { rate: 1000, durationMs: 20, send, onShot: (s) => shots.push(s) }));
    expect(r).toMatchObject({ sent: 20, completed: 20, late: 0 });
    expect(shots.find((s) => s.index === 3)).toMatchObject({ status: 0, error: 'thrown', sent: 3, done: 3 });
    expect(shots.find((s) => s.index === 5)).toMatchObject({ status: 0, error: 'rejected', sent: 5, done: 5 });
    expect(shots.filter((s) => s.status === 200)).toHaveLength(18);
  });

  it('an onShot that throws stops the run, which rejects with that error once in-flight requests are done', async () => {
    // 500 req/s (2 ms apart), each answered 5 ms after it left: request 10 (sent at 20 ms)
    // completes at 25 ms, when 11 and 12 are in flight; they complete at 27 and 29 ms.
    const clock = new SimClock();
    const seen: number[] = [];
    const run = simRun(clock, {
      rate: 500,
      durationMs: 5_000,
      send: after(clock, 5),
      onShot: (s) => {
        seen.push(s.index);
        if (s.index === 10) throw new Error('consumer failed');
      },
    });
    run.catch(() => undefined);
    await clock.advance(28);
    expect(await settled(run)).toBe(false);
    await clock.advance(1);
    await expect(run).rejects.toThrow('consumer failed');
    expect(seen).toEqual(Array.from({ length: 13 }, (_, i) => i));
    expect(clock.pending()).toBe(0);
  });

  it.each(['timer', 'sleep-last-ms', 'spin-last-ms'] as const)('precision %s: never sends before the intended time (real clock)', async (precision) => {
    const shots: Shot[] = [];
    const r = await runOpenModel({ rate: 2000, durationMs: 300, precision, send: ok, onShot: (s) => shots.push(s) });
    expect(r.completed).toBe(600);
    for (const s of shots) {
      expect(s.intended).toBe(s.index * 0.5);
      expect(s.sent).toBeGreaterThanOrEqual(s.intended);
    }
  });
});

describe("runOpenModel's default precision: timers, and a sleep for the last fraction of a millisecond", () => {
  // 2,000 req/s: a send every 0.5 ms. A timer wakes on a whole millisecond from when it is set,
  // so timers alone send every other request 0.5 ms after its time; sleeping the fraction sends
  // each exactly on time, and no sleep holds the loop longer than 0.5 ms.
  const ok = async () => ({ status: 200 });

  it('with timers that can sleep, every send leaves exactly at its intended time, each sleep at most 0.5 ms', async () => {
    const clock = new SleepingClock();
    const shots: Shot[] = [];
    const r = await clock.runOut(runOpenModel({ rate: 2000, durationMs: 100, send: ok, onShot: (s) => shots.push(s), now: clock.now, timers: clock }));
    expect(r).toMatchObject({ intended: 200, sent: 200, completed: 200, late: 0 });
    for (const s of shots) expect(s.sent, `sent ${s.index}`).toBe(s.intended);
    expect(clock.sleeps.length).toBeGreaterThan(0);
    for (const ms of clock.sleeps) {
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThanOrEqual(0.5);
    }
  });

  it('when the next send is more than 0.5 ms away the timer waits, and no send leaves more than 0.5 ms late (1,800 req/s)', async () => {
    const clock = new SleepingClock();
    const shots: Shot[] = [];
    const r = await clock.runOut(runOpenModel({ rate: 1800, durationMs: 100, send: ok, onShot: (s) => shots.push(s), now: clock.now, timers: clock }));
    expect(r).toMatchObject({ intended: 180, sent: 180, completed: 180, late: 0 });
    for (const s of shots) {
      expect(s.sent).toBeGreaterThanOrEqual(s.intended);
      expect(s.sent - s.intended, `lag ${s.index}`).toBeLessThanOrEqual(0.501);
    }
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(0.5);
  });

  it('with timers alone, the requests between whole milliseconds leave 0.5 ms late (and count late only past lateAfterMs)', async () => {
    const clock = new SimClock();
    const shots: Shot[] = [];
    const r = await clock.runOut(simRun(clock, { rate: 2000, durationMs: 100, send: ok, onShot: (s) => shots.push(s) }));
    for (const s of shots) expect(s.sent - s.intended, `lag ${s.index}`).toBe(s.index % 2 === 1 ? 0.5 : 0);
    expect(r.late).toBe(0);
    const strict = await clock.runOut(simRun(clock, { rate: 2000, durationMs: 100, lateAfterMs: 0.25, send: ok }));
    expect(strict.late).toBe(100);
  });
});

