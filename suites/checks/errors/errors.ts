import { randomUUID } from 'node:crypto';
import type { Check } from '../../../harness/ground/check.ts';
import { expectError, expectSchema, expectStatus, expectThat, msg } from '../../lib/expect.ts';
import { createCampaign, faker } from '../../lib/recipes.ts';
import { mailboxInput } from '../../../fixtures/factories/index.ts';

// Part 7: specific error answers the kit can provoke on purpose.

export const ERROR_CHECKS: Check[] = [
  {
    id: 'ERR-MALFORMED-JSON',
    title: 'MUST answer a body that is not JSON with 400 validation_failed in the envelope, never a 5xx',
    clauses: ['ERR-MALFORMED-JSON-400', 'ERR-TABLE-400', 'ERR-DETAILS-VALIDATION', 'CONV-JSON-BODIES'],
    level: 'MUST',
    features: [],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      for (const raw of ['{"name": "half', '{"name": }', 'name=x']) {
        const res = await ws.api.request({ method: 'POST', path: '/v1/campaigns', rawBody: raw });
        expectError(res, 400, ctx.profile, `POST /v1/campaigns with the body ${JSON.stringify(raw)}`, 'validation_failed');
      }
      const { id } = await createCampaign(ctx, ws.api);
      const res = await ws.api.request({ method: 'PATCH', path: `/v1/campaigns/${id}`, rawBody: '{"name": "x",' });
      expectError(res, 400, ctx.profile, 'PATCH /v1/campaigns/{id} with a truncated body', 'validation_failed');
    },
  },
  {
    id: 'ERR-VALIDATION-DETAILS',
    title: 'MUST answer invalid bodies with 400 validation_failed and details (array of strings)',
    clauses: ['ERR-DETAILS-VALIDATION', 'ERR-TABLE-400', 'LIMIT-ACCOUNTS-PER-CALL'],
    level: 'MUST',
    features: [],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const cases: [string, unknown][] = [
        ['POST /v1/campaigns with an empty name', { name: '' }],
        ['POST /v1/accounts with no accounts (1 to 50)', { accounts: [] }],
        ['POST /v1/accounts with 51 accounts (1 to 50)', { accounts: Array.from({ length: 51 }, () => mailboxInput(faker(ctx), ctx.prefix)) }],
      ];
      for (const [what, body] of cases) {
        const path = what.startsWith('POST /v1/campaigns') ? '/v1/campaigns' : '/v1/accounts';
        const res = await ws.api.post(path, body);
        expectError(res, 400, ctx.profile, what, 'validation_failed');
        const d = res.body.error.details;
        expectThat(Array.isArray(d) && d.length > 0 && d.every((x: unknown) => typeof x === 'string'), msg`${what}: error.details must be a non-empty array of strings, got ${JSON.stringify(d)}`, res);
      }
    },
  },
  {
    id: 'ERR-NOT-FOUND',
    title: 'MUST answer 404 not_found for a resource absent from the workspace (campaign, lead search, mailbox, email, and a lead of an existing campaign)',
    clauses: ['ERR-TABLE-404'],
    level: 'MUST',
    features: [],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      for (const path of [`/v1/campaigns/${randomUUID()}/status`, `/v1/lead-searches/${randomUUID()}`, `/v1/accounts/${randomUUID()}/verification`, `/v1/emails/${randomUUID()}`]) {
        expectError(await ws.api.get(path), 404, ctx.profile, `GET ${path}`, 'not_found');
      }
      // A lead's handler answers for itself only inside a campaign that exists.
      const { id } = await createCampaign(ctx, ws.api);
      expectError(await ws.api.patch(`/v1/campaigns/${id}/leads/${randomUUID()}`, { firstName: 'Nobody' }), 404, ctx.profile, 'PATCH /v1/campaigns/{cid}/leads/{leadId} of a lead absent from an existing campaign', 'not_found');
    },
  },
  {
    id: 'ERR-BATCH-PARTIAL',
    title: 'MUST create the valid part of a mailbox batch and report the invalid elements in errors',
    clauses: ['ERR-BATCH-PARTIAL'],
    level: 'MUST',
    features: [],
    budget: 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const f = faker(ctx);
      const good = mailboxInput(f, ctx.prefix);
      const bad = mailboxInput(f, ctx.prefix, undefined, { smtpPort: 70000 });
      const res = await ws.api.post('/v1/accounts', { accounts: [good, bad] });
      expectStatus(res, 201, 'POST /v1/accounts with one valid and one invalid element');
      expectSchema(res, 'AccountsCreateResponse', 'POST /v1/accounts');
      const { summary, accounts, errors } = res.body;
      expectThat(summary.submitted === 2 && summary.created === 1 && summary.failed === 1, msg`summary must be { submitted 2, created 1, failed 1 }, got ${JSON.stringify(summary)}`, res);
      expectThat(accounts.length === 1 && accounts[0].emailAddress === good.emailAddress, msg`accounts must hold exactly the valid mailbox`, res);
      expectThat(Array.isArray(errors) && errors.length === 1, msg`errors must hold the invalid element, got ${JSON.stringify(errors)}`, res);
    },
  },
];
