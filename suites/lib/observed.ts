import type { ExchangeEvent } from '../../harness/ground/events.ts';
import type { CheckContext } from '../../harness/ground/check.ts';

/** Every exchange of the run so far with the target's API (`/v1/...`) that got an answer: what the run-end observers judge. */
export function apiAnswers(ctx: CheckContext): ExchangeEvent[] {
  const base = ctx.anonymous.baseUrl.replace(/\/$/, '');
  return ctx.observed().filter((ex) => ex.response !== undefined && ex.request.url.startsWith(`${base}/v1/`));
}
