import type { Check } from '../../../harness/ground/check.ts';
import { fail, msg } from '../../../harness/ground/check.ts';
import { apiAnswers, sawSuccesses } from '../../lib/observed.ts';

// 4.1 "Request and response bodies are JSON", over the whole run: every answer of the API with a
// body says it is JSON (Content-Type application/json or a +json type) and parses as JSON. It runs
// last and reads one resource of its own when the run has shown none, so it never judges an empty run.

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
const TRUNCATED = /\n\.\.\.\[truncated: \d+ bytes/;

function problemOf(contentType: string | undefined, body: string): string | undefined {
  if (!contentType || !JSON_TYPE.test(contentType.trim())) return `Content-Type ${JSON.stringify(contentType ?? null)}`;
  if (TRUNCATED.test(body)) return undefined; // recorded in part only: the type is all that can be read
  try {
    JSON.parse(body);
    return undefined;
  } catch {
    return 'a body that is not JSON';
  }
}

export const CONVENTION_CHECKS: Check[] = [
  {
    id: 'CONV-JSON-BODIES/every-answer-seen',
    title: 'MUST answer in JSON: every answer of the API with a body the run saw is labelled application/json and parses as JSON',
    clauses: ['CONV-JSON-BODIES', 'SVC-REST-JSON'],
    level: 'MUST',
    features: [],
    budget: 1,
    last: true,
    async run(ctx) {
      if (!sawSuccesses(ctx, 1)) await (await ctx.workspace()).api.get('/v1/workspace');
      const answers = apiAnswers(ctx).filter((ex) => (ex.response!.body ?? '') !== '');
      const bad = answers
        .map((ex) => ({ ex, problem: problemOf(Object.entries(ex.response!.headers).find(([h]) => h.toLowerCase() === 'content-type')?.[1], ex.response!.body!) }))
        .filter((x) => x.problem !== undefined);
      if (bad.length) {
        const { ex, problem } = bad[0]!;
        fail(msg`${bad.length} of ${answers.length} answers with a body are not JSON, e.g. ${ex.request.method} ${new URL(ex.request.url).pathname} -> ${ex.response!.status} with ${problem}`, ...bad.slice(0, 10).map((x) => x.ex.id));
      }
    },
  },
];
