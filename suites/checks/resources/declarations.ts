import { isDeepStrictEqual } from 'node:util';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectStatus, expectThat, is2xx, msg } from '../../lib/expect.ts';
import { createMailbox, faker, setupCampaignBody } from '../../lib/recipes.ts';
import { mailboxInput } from '../../../fixtures/factories/index.ts';
import { expectAllCreated, expectElementRejected, expectValidation400, mbx, mustGetMailbox } from './lib.ts';

// Where the spec says "not shown", the target declares its own answer in the profile
// (`declarations`) and these checks hold it to that declaration. Nothing declared: skipped.

function declared<K extends keyof CheckContext['profile']['declarations']>(ctx: CheckContext, key: K): NonNullable<CheckContext['profile']['declarations'][K]> {
  const v = ctx.profile.declarations[key];
  if (v === undefined) skip(`the profile declares no declarations.${key}`);
  return v as NonNullable<CheckContext['profile']['declarations'][K]>;
}

function differences(actual: Record<string, unknown> | undefined, expected: Record<string, unknown>): string[] {
  return Object.entries(expected)
    .filter(([k, v]) => !isDeepStrictEqual(actual?.[k], v))
    .map(([k, v]) => `${k}: declared ${JSON.stringify(v)}, got ${JSON.stringify(actual?.[k])}`);
}

export const DECLARATION_CHECKS: Check[] = [
  {
    id: 'PROFILE-DECL/mailbox-defaults',
    title: 'the optional mailbox fields omitted at create take the defaults the profile declares (in the create answer, and read back)',
    clauses: ['ACCT-IN-DEFAULTS-PROFILE'],
    level: 'PROFILE',
    features: ['decl:declarations.mailboxDefaults'],
    budget: 2,
    async run(ctx) {
      const expected = declared(ctx, 'mailboxDefaults');
      const ws = await ctx.workspace();
      const { id, res } = await createMailbox(ctx, ws.api);
      const diff = differences(res.body.accounts[0], expected);
      expectThat(diff.length === 0, msg`a new mailbox does not carry the declared defaults: ${diff.join('; ')}`, res);
      // What was stored, not only what the create answer computed (where the referenced read is declared).
      if (!ctx.profile.operations['accounts.get']) return;
      const got = await mustGetMailbox(ctx, ws.api, id);
      const stored = differences(got.body, expected);
      expectThat(stored.length === 0, msg`read back, the mailbox does not carry the declared defaults: ${stored.join('; ')}`, got);
    },
  },
  {
    id: 'PROFILE-DECL/warmup-defaults-and-values',
    title: 'an omitted warmup takes the declared defaults, and strategy, phase and poolAccess stay within the declared values (warmup on, and switched off)',
    clauses: ['WARMUP-BOUNDS-PROFILE', 'WARMUP-VALUES-PROFILE'],
    level: 'PROFILE',
    features: ['decl:declarations.warmupDefaults|declarations.warmupValues'],
    budget: 1,
    async run(ctx) {
      const defaults = ctx.profile.declarations.warmupDefaults;
      const values = ctx.profile.declarations.warmupValues;
      if (!defaults && !values) skip('the profile declares neither declarations.warmupDefaults nor declarations.warmupValues');
      const ws = await ctx.workspace();
      // One batch: a mailbox with warmup omitted (the defaults), and one with warmup off (another phase).
      const res = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx), mbx(ctx, { warmup: { enabled: false } })] });
      const [on, off] = expectAllCreated(res, 2, 'POST /v1/accounts with warmup omitted and with warmup { enabled: false }');
      const diff = defaults ? differences(on.warmup, defaults) : [];
      for (const [which, m] of [['omitted', on], ['off', off]] as const) {
        const warmup = m.warmup as Record<string, unknown>;
        for (const [field, allowed] of Object.entries(values ?? {}))
          if (warmup?.[field] !== undefined && !allowed!.includes(warmup[field] as string)) diff.push(`warmup ${which}: ${field} ${JSON.stringify(warmup[field])} is not one of the declared ${allowed!.join(', ')}`);
      }
      expectThat(diff.length === 0, msg`the warmup of a new mailbox breaks the declaration: ${diff.join('; ')}`, res);
    },
  },
  {
    id: 'PROFILE-DECL/warmup-bounds',
    title: 'warmup numbers are accepted at their declared bounds and refused just beyond them (by PATCH, and one at create)',
    clauses: ['WARMUP-BOUNDS-PROFILE'],
    level: 'PROFILE',
    features: ['decl:declarations.warmupBounds'],
    budget: 21,
    async run(ctx) {
      const bounds = declared(ctx, 'warmupBounds');
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      for (const [field, { min, max }] of Object.entries(bounds)) {
        for (const value of [min, max]) expect2xx(await ws.api.patch(`/v1/accounts/${id}`, { warmup: { [field]: value } }), `warmup.${field} = ${value} (declared ${min} to ${max})`);
        for (const value of [min - 1, max + 1]) expectValidation400(await ws.api.patch(`/v1/accounts/${id}`, { warmup: { [field]: value } }), ctx, `warmup.${field} = ${value} (declared ${min} to ${max})`);
      }
      // Create has a validator of its own in many targets: the bounds hold there too.
      const [field, { max }] = Object.entries(bounds)[0] ?? skip('the profile declares no warmup bounds');
      const over = { warmup: { [field]: max + 1 } };
      expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, over)] }), ctx, `POST /v1/accounts with warmup.${field} = ${max + 1} (declared up to ${max})`);
    },
  },
  {
    id: 'PROFILE-DECL/campaign-required-fields',
    title: 'a campaign create body with just the declared required fields is accepted; without any one of them it is refused',
    clauses: ['CAMP-CREATE-REQUIRED-PROFILE'],
    level: 'PROFILE',
    features: ['decl:declarations.campaignRequiredFields'],
    budget: 6,
    async run(ctx) {
      const required = declared(ctx, 'campaignRequiredFields');
      const ws = await ctx.workspace();
      const full = await setupCampaignBody(ctx, { steps: 1, leads: 1 });
      const minimal = Object.fromEntries(required.map((f) => [f, full[f]]));
      const unknown = required.filter((f) => full[f] === undefined);
      if (unknown.length) skip(`the kit has no valid value for the declared required field(s) ${unknown.join(', ')}`);
      expectStatus(await ws.api.post('/v1/campaigns', minimal), '2xx', `POST /v1/campaigns with only ${required.join(', ')}`);
      for (const f of required) {
        const { [f]: _dropped, ...without } = full;
        const res = await ws.api.post('/v1/campaigns', without);
        expectThat(!is2xx(res), msg`POST /v1/campaigns without the declared required field ${f} was accepted (${res.status})`, res);
        expectValidation400(res, ctx, `POST /v1/campaigns without ${f}`);
      }
    },
  },
  {
    id: 'PROFILE-DECL/batch-error-shape',
    title: 'each element of the batch create errors array carries the fields the profile declares: an invalid element, and an address already connected in another workspace',
    clauses: ['ACCT-CREATE-ERRORS-SHAPE-PROFILE'],
    level: 'PROFILE',
    features: ['decl:declarations.batchErrorFields', 'twoWorkspaces'],
    budget: 2,
    async run(ctx) {
      const fields = declared(ctx, 'batchErrorFields');
      const ws = await ctx.workspace();
      const elsewhere = await ctx.workspace();
      const f = faker(ctx);
      // Both kinds of error 4.2 names: an element that fails validation, and the spec's own example,
      // an address already connected elsewhere (often refused by another path, at insert).
      const taken = mailboxInput(f, ctx.prefix);
      const first = await elsewhere.api.post('/v1/accounts', { accounts: [taken] });
      expectThat(is2xx(first) && first.body?.accounts?.length === 1, msg`setup: POST /v1/accounts in another workspace should connect the mailbox, got ${first.status}`, first);
      const dup = mailboxInput(f, ctx.prefix, undefined, { emailAddress: taken.emailAddress });
      const res = await ws.api.post('/v1/accounts', { accounts: [mailboxInput(f, ctx.prefix), mailboxInput(f, ctx.prefix, undefined, { smtpPort: 0 }), dup] });
      expectStatus(res, 201, 'POST /v1/accounts with one invalid element and one address connected in another workspace');
      const errors: unknown[] = Array.isArray(res.body.errors) ? res.body.errors : [];
      expectThat(errors.length === 2, msg`errors must report the invalid element and the address connected elsewhere, got ${JSON.stringify(errors)}`, res);
      for (const err of errors) {
        const missing = fields.filter((k) => !err || typeof err !== 'object' || !(k in err));
        expectThat(missing.length === 0, msg`the batch error element lacks the declared field(s) ${missing.join(', ')}: ${JSON.stringify(err)}`, res);
      }
    },
  },
];
