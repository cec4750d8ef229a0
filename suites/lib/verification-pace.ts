import type { MailSink } from '../../harness/sinks/index.ts';
import type { Attempt } from '../../harness/sinks/types.ts';

// How a check paces its polls while a target verifies a mailbox in its own time (no control API
// to run the verification at once). Polling at a steady rate would cost requests in proportion
// to how slow the target is, and those requests fill the run's rate windows and request budget.
// Where the mailbox logs in at the kit's sink, the sink says when: the verification logs in over
// SMTP, and its outcome is moments behind. So until the first login of the wait, each poll waits
// for it (up to FIRST_LOGIN_WAIT_MS); after a login, polls follow a schedule that starts over.
// A login wakes one poll at most (a warmup send's login costs one request, never a busy loop).

/** Until the mailbox's first login, the longest a poll waits for it (a target that never logs in is still polled this often). */
export const FIRST_LOGIN_WAIT_MS = 4_000;
/** After a login ends, the pause before the poll (its IMAP login and status write are moments behind). */
export const AFTER_LOGIN_MS = 100;

/**
 * The pause before the next poll on the plain schedule: the time waited plus 250 ms (at most 4 s),
 * so polls go at 0, 0.25, 0.75, 1.75, 3.75 s... A target three times slower costs a poll or two
 * more, not three times the polls.
 */
export function pollPauseMs(waitedMs: number): number {
  return Math.min(4_000, Math.max(0, waitedMs) + 250);
}

type LoginSource = Pick<MailSink, 'waitForAttempt'>;

export class VerificationPace {
  private readonly woke = new Set<string>();
  private readonly startedAt = Date.now();
  /** Where the plain schedule counts from: the wait's start, then each login. */
  private since = this.startedAt;

  constructor(
    /** The sink the mailbox logs in at (undefined: the plain schedule). */
    private readonly sink: LoginSource | undefined,
    private readonly o: { firstLoginWaitMs: number; afterLoginMs: number } = { firstLoginWaitMs: FIRST_LOGIN_WAIT_MS, afterLoginMs: AFTER_LOGIN_MS },
  ) {}

  /** Waits before the next poll of a mailbox whose SMTP login is `user` (its answer's smtp.username). */
  async pause(user: unknown): Promise<void> {
    const plain = pollPauseMs(Date.now() - this.since);
    if (!this.sink || typeof user !== 'string' || !user) return sleep(plain);
    const ms = this.woke.size ? plain : Math.max(plain, this.o.firstLoginWaitMs);
    const begun = Date.now();
    const login = await this.nextLogin(user, ms);
    if (!login) return sleep(Math.max(0, ms - (Date.now() - begun))); // a sink that failed early still paces the polls
    this.woke.add(login.id);
    this.since = Date.now();
    await sleep(this.o.afterLoginMs);
  }

  /** The next SMTP login of `user` that ended during this wait and woke no poll yet, within `ms`. */
  private async nextLogin(user: string, ms: number): Promise<Attempt | undefined> {
    const fresh = (a: Attempt) => a.kind === 'auth' && a.authUser === user && (a.endedAt ?? a.at) >= this.startedAt && !this.woke.has(a.id);
    try {
      return await this.sink!.waitForAttempt(fresh, { timeout: ms });
    } catch {
      return undefined; // timed out (or the sink is gone): the pause has passed
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
