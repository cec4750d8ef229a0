import type { Check } from '../../../harness/ground/check.ts';
import { fail, msg } from '../../../harness/ground/check.ts';
import { randomUUID } from 'node:crypto';
import { sawSuccesses } from '../../lib/observed.ts';

// Part 8 "Rate-limit signals: header X-RateLimit-Remaining", over the whole run: every answer to
// an authenticated request carries it, a whole number. It runs last and sends a request of its
// own only when the run has shown no success, and one refused with 404 only when it has shown no
// refusal (the header on errors too is the other half a framework's error path forgets), so it
// never judges an empty run and costs at most two requests: the cheap proof a small depth takes,
// where the rate-limit check itself (a whole window of requests) does not fit.

const HEADER = 'x-ratelimit-remaining';

export const RATE_HEADER_CHECKS: Check[] = [
  {
    id: 'RATE-REMAINING-HEADER/every-answer-seen',
    title: 'MUST carry X-RateLimit-Remaining (a whole number) on every answer to an authenticated request',
    clauses: ['RATE-REMAINING-HEADER'],
    level: 'MUST',
    features: [],
    budget: 2,
    last: true,
    async run(ctx) {
      if (!sawSuccesses(ctx, 1)) await (await ctx.workspace()).api.get('/v1/workspace');
      const base = ctx.anonymous.baseUrl.replace(/\/$/, '');
      const refused = (s: number) => s >= 400 && s < 500 && s !== 401 && s !== 429;
      if (!ctx.observed().some((ex) => ex.request.url.startsWith(`${base}/`) && ex.response && refused(ex.response.status))) {
        await (await ctx.workspace()).api.get(`/v1/campaigns/${randomUUID()}/status`); // an id naming nothing: 404
      }
      // A 401 names no workspace whose window could be counted; a transport failure has no answer.
      const answers = ctx
        .observed()
        .filter((ex) => ex.request.url.startsWith(`${base}/`) && ex.response && ex.response.status !== 401 && Object.keys(ex.request.headers).some((h) => h.toLowerCase() === 'authorization'));
      const bad = answers.filter((ex) => {
        const value = Object.entries(ex.response!.headers).find(([h]) => h.toLowerCase() === HEADER)?.[1];
        return value === undefined || !/^\d+$/.test(value.trim());
      });
      if (bad.length) {
        const first = bad[0]!;
        fail(
          msg`${bad.length} of ${answers.length} answers to authenticated requests carry no whole-number X-RateLimit-Remaining, e.g. ${first.request.method} ${new URL(first.request.url).pathname} -> ${first.response!.status}`,
          ...bad.slice(0, 10).map((ex) => ex.id),
        );
      }
    },
  },
];
