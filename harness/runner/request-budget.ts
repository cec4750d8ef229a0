// The run's request budget held while it runs. The depth (or --time-budget) chose checks whose
// measured requests fit a share of the budget; a target that makes checks send more than measured
// (slower answers mean more polls) could still carry the run past it. So a check starts only if
// what it is measured to send still fits: the requests already sent to the target, what the
// running checks were measured to send and have not yet, and the DELETEs the final clean-up
// owes. One that does not fit is not started, and says why: the budget is a limit users set
// their staging rate limits and quotas by, not a target to aim at.

/** The start of the message of a check the budget did not start (the reports count them by it). */
export const NOT_STARTED_FOR_BUDGET = 'not started, to keep the run within its request budget';

export class RequestBudget {
  private sentTotal = 0;
  /** Running checks: what each was measured to send, and what it has sent so far. */
  private readonly running = new Map<string, { need: number; sent: number }>();
  /** Finished checks: measured and actual requests (how this target compares). */
  private readonly finished = { measured: 0, actual: 0 };
  private notStartedCount = 0;

  /** `limit`: the budget in requests to the target (undefined: none, every check starts). */
  constructor(readonly limit: number | undefined) {}

  /** A request went to the target (a check's, or the run's own: set-up, clean-up). */
  sent(checkId?: string): void {
    this.sentTotal++;
    const r = checkId === undefined ? undefined : this.running.get(checkId);
    if (r) r.sent++;
  }

  /**
   * May a check measured to send `need` requests start now, with `owed` DELETEs still owed to the
   * final clean-up? Undefined when it may (it then counts as running), else why not.
   */
  begin(checkId: string, need: number, owed = 0): string | undefined {
    if (this.limit !== undefined) {
      const promised = [...this.running.values()].reduce((n, r) => n + Math.max(0, r.need - r.sent), 0);
      const left = this.limit - this.sentTotal - promised - owed;
      if (need > left) {
        this.notStartedCount++;
        return `${NOT_STARTED_FOR_BUDGET} of ${this.limit}: ${this.sentTotal} requests sent, ${promised} more owed to running checks and ${owed} to the final clean-up leave ${Math.max(0, left)}, fewer than the ${need} this check was measured to send${this.comparison()}`;
      }
    }
    this.running.set(checkId, { need, sent: 0 });
    return undefined;
  }

  /** A started check ended: what it was measured to send against what it sent. */
  end(checkId: string): void {
    const r = this.running.get(checkId);
    if (!r) return;
    this.running.delete(checkId);
    this.finished.measured += r.need;
    this.finished.actual += r.sent;
  }

  /** Checks the budget did not start. */
  get notStarted(): number {
    return this.notStartedCount;
  }

  /** How the finished checks' requests compared with their measured counts, when they sent more. */
  private comparison(): string {
    const { measured, actual } = this.finished;
    if (measured === 0 || actual <= measured) return '';
    return ` (on this target the finished checks sent ${actual} requests where ${measured} were measured, ${Math.round((actual / measured - 1) * 100)} % more)`;
  }
}
