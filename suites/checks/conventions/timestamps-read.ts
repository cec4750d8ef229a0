import type { Check } from '../../../harness/ground/check.ts';
import type { ApiResponse } from '../../../harness/ground/api-client.ts';
import { campaignBody } from '../../../fixtures/factories/index.ts';
import { faker } from '../../lib/recipes.ts';
import { expect2xx, expectThat, msg } from '../../lib/expect.ts';
import { NEEDS_OPEN_SCHEDULE, openSchedule } from '../sending/lib.ts';

// Part 2: "timestamps are ISO 8601 strings (some carry milliseconds)": both forms are timestamps,
// so a target that reads one (a campaign's schedule startDate and endDate) takes both, and reads
// the same instant from each, at create and in a PATCH (4.3 replaces the schedule; often a
// validator of its own). Whole seconds are sent, so no target need keep milliseconds.

const FORMS = [
  { startDate: '2031-01-10T09:30:15.000Z', endDate: '2031-02-10T17:00:00Z' },
  { startDate: '2031-01-10T09:30:15Z', endDate: '2031-02-10T17:00:00.000Z' },
] as const;

export const TIMESTAMP_READ_CHECKS: Check[] = [
  {
    id: 'RES-TS-MILLIS/schedule-dates',
    title: "MUST read a timestamp with or without milliseconds alike: a campaign's schedule startDate and endDate in either form (2), at create and in a PATCH",
    clauses: ['RES-TS-MILLIS'],
    level: 'MUST',
    features: [NEEDS_OPEN_SCHEDULE],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const sameInstants = (res: ApiResponse, got: Record<string, unknown>, dates: (typeof FORMS)[number], what: string) => {
        for (const k of ['startDate', 'endDate'] as const)
          expectThat(typeof got[k] === 'string' && Date.parse(got[k]) === Date.parse(dates[k]), msg`${what}: schedule.${k} must be the instant sent, ${dates[k]}, got ${JSON.stringify(got[k])}`, res);
      };
      let id = '';
      for (const dates of FORMS) {
        const what = `POST /v1/campaigns with schedule startDate ${dates.startDate} and endDate ${dates.endDate}`;
        const res = await ws.api.post('/v1/campaigns', { ...campaignBody(faker(ctx), ctx.prefix, { steps: 1 }), schedule: { ...openSchedule(ctx), ...dates } });
        expect2xx(res, what);
        sameInstants(res, res.body?.campaign?.schedule ?? {}, dates, what);
        id ||= res.body?.campaign?.id;
      }
      // The first campaign (made with the millisecond start) PATCHed to the other forms.
      const dates = FORMS[1];
      const what = `PATCH /v1/campaigns/{id} with schedule startDate ${dates.startDate} and endDate ${dates.endDate}`;
      const p = await ws.api.patch(`/v1/campaigns/${id}`, { schedule: { ...openSchedule(ctx), ...dates } });
      expect2xx(p, what);
      sameInstants(p, p.body?.schedule ?? {}, dates, what);
    },
  },
];
