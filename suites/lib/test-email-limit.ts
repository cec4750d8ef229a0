import type { ApiResponse } from '../../harness/ground/api-client.ts';
import type { CheckContext } from '../../harness/ground/check.ts';
import { TEST_EMAILS_PER_WORKSPACE_DAY } from '../../harness/ground/check.ts';

// Part 8 allows 12 test emails a day per workspace. The pool never lets one run pass that in a
// workspace (checks declare `testEmails`), and the control API gives fresh workspaces; but a
// profile's own workspace may have sent test emails earlier today (another run's), which only the
// target knows. A refusal there is no proof of a defect: the check skips, saying so.

/** Statuses a refusal of the day's 13th test email may take (part 8 gives the limit, not its answer). */
const DAILY_LIMIT_REFUSALS = [400, 403, 409, 429];

/** Why a refused test email proves nothing here (a profile workspace, no control API), or undefined. */
export function dailyLimitMayExplain(ctx: Pick<CheckContext, 'control'>, res: ApiResponse, what: string): string | undefined {
  if (ctx.control || !DAILY_LIMIT_REFUSALS.includes(res.status)) return undefined;
  return `${what}: refused (${res.status} ${res.body?.error?.code ?? ''}) in a workspace of the profile, which may have sent its ${TEST_EMAILS_PER_WORKSPACE_DAY} test emails of the day before this run (part 8); that cannot be told from outside. Run with fresh workspaces or the control API; if none was sent from it today, this refusal is a failure`;
}
