import type { ExchangeEvent } from '../../harness/ground/events.ts';
import type { CheckContext } from '../../harness/ground/check.ts';

/** Every exchange of the run so far with the target's API (`/v1/...`) that got an answer: what the run-end observers judge. */
export function apiAnswers(ctx: CheckContext): ExchangeEvent[] {
  const base = ctx.anonymous.baseUrl.replace(/\/$/, '');
  return ctx.observed().filter((ex) => ex.response !== undefined && ex.request.url.startsWith(`${base}/v1/`));
}

/**
 * Whether the run has already shown `n` success answers with a body: a run-end observer then
 * judges those and sends none of its own (it makes its own only to never judge an empty run).
 */
export function sawSuccesses(ctx: CheckContext, n = 3): boolean {
  return apiAnswers(ctx).filter((ex) => ex.response!.status >= 200 && ex.response!.status < 300 && (ex.response!.body ?? '') !== '').length >= n;
}
