import { randomUUID } from 'node:crypto';
import type { Check } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectPage, expectSchema, expectStatus, expectThat, is2xx, msg, snippet } from '../../lib/expect.ts';
import { drainAll } from '../../lib/drain.ts';
import { pollPauseMs } from '../../lib/verification-pace.ts';
import { createMailbox, faker, setupCampaignBody } from '../../lib/recipes.ts';
import { getPath, itemOf } from '../../../harness/ground/operations.ts';
import { AUTOMATION_LANGUAGES, MAILBOX_PROVIDERS, unstatedNulls, UUID_RE } from '../../../harness/ground/spec-model/schemas/index.ts';
import {
  NEEDS_VERIFICATION_STATUS, allLeads, control, createTag, expectAllCreated, expectBusiness400, expectValidation400, getMailbox, mbx, mustGetMailbox, op, opRequest, setTags, verificationStatus, walk,
} from './lib.ts';

// Part 4.2 (mailboxes) and the fields of 2.1 to 2.4, from the outside. Bounds of 2.2 are in
// bounds.ts; background verification against the sinks in verification.ts.

/** Keys (at any depth) that are not camelCase. */
export function nonCamelKeys(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const p = Array.isArray(value) ? path : path ? `${path}.${k}` : k;
    if (!Array.isArray(value) && !/^[a-z][a-zA-Z0-9]*$/.test(k)) out.push(p);
    out.push(...nonCamelKeys(v, p));
  }
  return out;
}

/** The same address with its domain in capitals (a domain is case-insensitive; the local part is kept as spelled). */
function domainInCapitals(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${address.slice(at + 1).toUpperCase()}`;
}

/** How far the control clock moves after a revoke: a day holds any retry backoff and a daily reconcile. */
const REVOKED_WAIT_S = 24 * 3600;

const MAILBOX_FIELD_CLAUSES = [
  'ACCT-ID-UUID', 'ACCT-EMAILADDRESS-STRING', 'ACCT-NAMES-STRING', 'ACCT-DISPLAYNAME-STRING', 'ACCT-PROVIDER-ENUM', 'ACCT-STATUS-ENUM',
  'ACCT-MAXEMAILSPERDAY-NUMBER', 'ACCT-SENDINGGAP-NUMBER', 'ACCT-SLOWRAMP-BOOLEAN', 'ACCT-REPLYTO-STRING', 'ACCT-SIGNATURE-STRING',
  'ACCT-BCC-STRING', 'ACCT-AUTOLANG-ENUM', 'ACCT-WARMUP-OBJECT', 'ACCT-STATUSMESSAGE-NULLABLE',
  'ACCT-TAGS-ARRAY', 'ACCT-HEALTHSCORE-RANGE', 'ACCT-SMTP-OBJECT', 'ACCT-PASSWORDS-NEVER-RETURNED',
  'ACCT-IMAP-NULLABLE', 'ACCT-VERIFICATION-OBJECT', 'ACCT-TIMESTAMPS', 'VERIF-MAILBOX-OVERALL', 'VERIF-MAILBOX-SMTP-IMAP',
  'VERIF-MAILBOX-DNS', 'WARMUP-WRITABLE-TYPES', 'WARMUP-READONLY-TYPES', 'RES-ID-UUID', 'RES-TS-ISO8601',
  'RES-CAMELCASE', 'RES-NULL-WHERE-STATED', 'STATE-ACCT-STATES',
];

/** Warmup values for a create, each away from its declared default where the profile declares one (profile: warmupDefaults, warmupBounds). */
function createdWarmup(ctx: Parameters<Check['run']>[0]): Record<string, unknown> {
  const defaults = (ctx.profile.declarations.warmupDefaults ?? {}) as Record<string, unknown>;
  const numbers = Object.entries(ctx.profile.declarations.warmupBounds ?? {}).map(([k, b]) => [k, defaults[k] === b.max ? b.min : b.max]);
  return { enabled: true, skipWeekends: defaults.skipWeekends !== true, timezone: defaults.timezone === 'Pacific/Chatham' ? 'America/St_Johns' : 'Pacific/Chatham', ...Object.fromEntries(numbers) };
}

function fullInput(ctx: Parameters<Check['run']>[0]) {
  const f = faker(ctx);
  return mbx(ctx, {
    displayName: `${f.person.firstName()} at ${f.company.name()}`.slice(0, 100),
    maxEmailsPerDay: 37,
    sendingGapMinutes: 12,
    campaignSlowRamp: true,
    signature: '<p>Best regards</p>',
    bcc: `${ctx.prefix}bcc@example.test`,
    replyToAddress: `${ctx.prefix}reply@example.test`,
    automationLanguage: 'de',
    imapAllowInvalidCert: true,
    warmup: { enabled: true, skipWeekends: true, timezone: 'Europe/Paris' },
  });
}

export const ACCOUNT_CHECKS: Check[] = [
  {
    id: 'ACCT-CREATE/shape',
    title: 'MUST answer POST /v1/accounts with 201 { summary, accounts, errors }, the mailbox in the shape of 2.1, inactive',
    clauses: [
      'ACCT-CREATE-201', 'ACCT-CREATE-BODY', 'ACCT-CREATE-SUMMARY', 'ACCT-CREATE-ACCOUNTS', 'ACCT-CREATE-START-INACTIVE', 'STATE-ACCT-CREATE-INACTIVE',
      'SVC-ACCT-NEW-INACTIVE', 'SVC-ACCT-CONNECT-SMTP', 'ACCT-IMAP-NULL-NONE', ...MAILBOX_FIELD_CLAUSES,
    ],
    level: 'MUST',
    features: [],
    budget: 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const input = fullInput(ctx);
      const res = await ws.api.post('/v1/accounts', { accounts: [input] });
      expectStatus(res, 201, 'POST /v1/accounts with one valid element');
      expectSchema(res, 'AccountsCreateResponse', 'POST /v1/accounts');
      const { summary, accounts, errors } = res.body;
      expectThat(summary.submitted === 1 && summary.created === 1 && summary.failed === 0, msg`summary must be { submitted 1, created 1, failed 0 }, got ${JSON.stringify(summary)}`, res);
      expectThat(accounts.length === 1 && errors.length === 0, msg`accounts must hold the mailbox and errors nothing, got ${accounts.length} and ${JSON.stringify(errors)}`, res);
      const m = accounts[0];
      expectThat(m.status === 'inactive', msg`a newly connected mailbox starts inactive, got ${m.status}`, res);
      expectThat(m.emailAddress.toLowerCase() === input.emailAddress.toLowerCase(), msg`emailAddress ${m.emailAddress} is not the address given (${input.emailAddress})`, res);
      expectThat(m.imap !== null, msg`imap must be an object when IMAP is configured (it is null only when no IMAP is configured)`, res);
      // The schema lets an optional field that was never set be absent or null; one that was given comes back a string.
      for (const k of ['replyToAddress', 'signature', 'bcc'] as const)
        expectThat(typeof m[k] === 'string', msg`${k} was given (${JSON.stringify((input as Record<string, unknown>)[k])}); 2.1 says it is a string, the mailbox answers ${JSON.stringify(m[k])}`, res);
      const camel = nonCamelKeys(m).filter((k) => !k.startsWith('customFields'));
      expectThat(camel.length === 0, msg`field names are camelCase; these are not: ${camel.join(', ')}`, res);
    },
  },
  {
    id: 'ACCT-CREATE/tracking',
    title: 'MUST show the tracking of a mailbox created with a tracking domain as an object with domainId (uuid)',
    clauses: ['ACCT-TRACKING-OBJECT'],
    level: 'MUST',
    features: [],
    budget: 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const domainId = faker(ctx).string.uuid();
      const res = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { tracking: { domainId } })] });
      // Whether the domain must exist in the workspace is not stated: a refusal leaves nothing to see.
      if (res.status !== 201 || res.body?.accounts?.length !== 1) skip(`the target refused a mailbox with tracking { domainId } of a domain it does not know (${res.status}): its tracking cannot be read`);
      const t = res.body.accounts[0].tracking;
      expectThat(typeof t === 'object' && t !== null && typeof t.domainId === 'string' && UUID_RE.test(t.domainId), msg`tracking must be an object with domainId (uuid) for a mailbox created with one, got ${JSON.stringify(t)}`, res);
    },
  },
  {
    id: 'ACCT-CREATE/echo',
    title: 'SHOULD reflect the input in the created mailbox (names, limits, servers, provider custom, verification pending)',
    clauses: ['ACCT-CREATE-ECHO', 'ACCT-PROVIDER-CUSTOM', 'VERIF-MAILBOX-NEW-PENDING'],
    level: 'SHOULD',
    features: [],
    budget: 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const input = fullInput(ctx);
      const res = await ws.api.post('/v1/accounts', { accounts: [input] });
      const [m] = expectAllCreated(res, 1, 'POST /v1/accounts');
      const diffs: string[] = [];
      const same = (what: string, got: unknown, want: unknown) => { if (got !== want) diffs.push(`${what}: ${JSON.stringify(got)} instead of ${JSON.stringify(want)}`); };
      for (const k of ['firstName', 'lastName', 'displayName', 'maxEmailsPerDay', 'sendingGapMinutes', 'campaignSlowRamp', 'bcc', 'replyToAddress', 'automationLanguage'] as const) same(k, m[k], (input as any)[k]);
      same('smtp.host', m.smtp?.host, input.smtpHost);
      same('smtp.port', m.smtp?.port, input.smtpPort);
      same('smtp.username', m.smtp?.username, input.smtpUsername);
      same('imap.host', m.imap?.host, input.imapHost);
      same('imap.port', m.imap?.port, input.imapPort);
      same('imap.username', m.imap?.username, input.imapUsername);
      same('warmup.skipWeekends', m.warmup?.skipWeekends, true);
      same('warmup.timezone', m.warmup?.timezone, 'Europe/Paris');
      same('provider', m.provider, 'custom');
      same('verification.overallStatus', m.verification?.overallStatus, 'pending');
      expectThat(diffs.length === 0, msg`the created mailbox does not reflect its input: ${diffs.join('; ')}`, res);
    },
  },
  {
    id: 'ACCT-CREATE/defaults',
    title: 'MUST default displayName to first plus last name and turn warmup ON when omitted; optional fields may be omitted (still of their types: campaignSlowRamp a boolean, displayName a string, automationLanguage one of 2.1)',
    clauses: [
      'ACCT-IN-DISPLAYNAME-DEFAULT', 'ACCT-IN-WARMUP-DEFAULT-ON', 'ACCT-IN-WARMUP-OPTIONAL', 'ACCT-IN-REPLYTO-OMIT-SELF', 'ACCT-IN-TRACKING-OPTIONAL',
      'ACCT-IN-DISPLAYNAME-OPTIONAL', 'ACCT-IN-MAXEMAILSPERDAY-OPTIONAL', 'ACCT-IN-SENDINGGAP-OPTIONAL', 'ACCT-IN-SLOWRAMP-OPTIONAL',
      'ACCT-IN-SIGNATURE-OPTIONAL', 'ACCT-IN-BCC-OPTIONAL', 'ACCT-IN-REPLYTO-OPTIONAL', 'ACCT-IN-AUTOLANG-OPTIONAL', 'ACCT-IN-IMAPALLOWINVALIDCERT-OPTIONAL',
      'ACCT-SLOWRAMP-BOOLEAN', 'ACCT-MAXEMAILSPERDAY-NUMBER', 'ACCT-SENDINGGAP-NUMBER', 'ACCT-AUTOLANG-ENUM', 'ACCT-DISPLAYNAME-STRING',
    ],
    level: 'MUST',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const input = mbx(ctx);
      const res = await ws.api.post('/v1/accounts', { accounts: [input] });
      const [m] = expectAllCreated(res, 1, 'POST /v1/accounts with the required fields only');
      expectSchema(res, 'AccountsCreateResponse', 'POST /v1/accounts');
      const want = `${input.firstName} ${input.lastName}`;
      // A field not given is still of its type (2.1): campaignSlowRamp a boolean, the cap and the gap numbers, whatever their defaults.
      expectThat(typeof m.campaignSlowRamp === 'boolean', msg`campaignSlowRamp is a boolean (2.1), also when not given at create; got ${JSON.stringify(m.campaignSlowRamp)}`, res);
      for (const k of ['maxEmailsPerDay', 'sendingGapMinutes'] as const)
        expectThat(typeof m[k] === 'number', msg`${k} is a number (2.1), also when not given at create; got ${JSON.stringify(m[k])}`, res);
      expectThat((AUTOMATION_LANGUAGES as readonly unknown[]).includes(m.automationLanguage), msg`automationLanguage is one of the values of 2.1, also when not given at create; got ${JSON.stringify(m.automationLanguage)}`, res);
      expectThat(typeof m.displayName === 'string' && m.displayName.replace(/\s+/g, ' ').trim() === want, msg`displayName defaults to first name plus last name ("${want}"), got ${JSON.stringify(m.displayName)}`, res);
      expectThat(m.warmup?.enabled === true, msg`warmup omitted means warmup is ON; warmup.enabled is ${JSON.stringify(m.warmup?.enabled)}`, res);
      const rt = m.replyToAddress;
      expectThat(rt === undefined || rt === null || rt === '' || String(rt).toLowerCase() === input.emailAddress.toLowerCase(), msg`replyToAddress omitted means replies go to the mailbox itself; got ${JSON.stringify(rt)}`, res);
      // The same holds when read back.
      if (ctx.profile.operations['accounts.get']) {
        const got = await mustGetMailbox(ctx, ws.api, m.id);
        expectThat(got.body.warmup?.enabled === true && got.body.displayName === m.displayName, msg`read back, the defaults differ: ${JSON.stringify({ displayName: got.body.displayName, warmup: got.body.warmup?.enabled })}`, got);
      }
    },
  },
  {
    id: 'ACCT-CREATE/duplicate',
    // 4.2's example is an address connected in another workspace; one already in this workspace
    // may be refused the same way or connected again (the spec says neither), never half of both.
    title: 'MUST report an address already connected in another workspace in errors and still create the rest of the batch (in the same workspace: refused the same way, or connected again); a batch of that address alone is still a success with it in errors',
    clauses: ['ACCT-CREATE-DUPLICATE', 'ACCT-CREATE-REST-CREATED', 'ACCT-CREATE-INDEPENDENT', 'ACCT-CREATE-ERRORS', 'ERR-BATCH-PARTIAL', 'ACCT-CREATE-SUMMARY', 'ACCT-CREATE-201'],
    level: 'MUST',
    features: ['twoWorkspaces'],
    budget: 4,
    async run(ctx) {
      const a = await ctx.workspace();
      const b = await ctx.workspace();
      const first = mbx(ctx);
      expectAllCreated(await a.api.post('/v1/accounts', { accounts: [first] }), 1, 'POST /v1/accounts');
      // In the other workspace the address comes back with its domain in capitals: a domain is case-insensitive
      // (RFC 5321), so it is the same address, connected already (the local part, which may not be, is kept).
      for (const [who, ws] of [['the same workspace', a], ['another workspace', b]] as const) {
        const fresh = mbx(ctx);
        const again = ws === a ? first.emailAddress : domainInCapitals(first.emailAddress);
        const dup = mbx(ctx, { emailAddress: again });
        const res = await ws.api.post('/v1/accounts', { accounts: [dup, fresh] });
        const what = `POST /v1/accounts in ${who} with an address already connected (as ${again}) and a new one`;
        expectStatus(res, 201, what);
        expectSchema(res, 'AccountsCreateResponse', what);
        const { summary, accounts, errors } = res.body;
        if (ws === a && errors.length === 0) {
          // Connected again in its own workspace: both elements created, and counted so.
          expectThat(accounts.length === 2 && summary.submitted === 2 && summary.created === 2 && summary.failed === 0, msg`${what}: with no error, both elements must be created and counted, got accounts ${JSON.stringify(accounts.map((x: any) => x.emailAddress))}, summary ${JSON.stringify(summary)}`, res);
          continue;
        }
        expectThat(accounts.length === 1 && accounts[0].emailAddress.toLowerCase() === fresh.emailAddress.toLowerCase(), msg`${what}: accounts must hold only the new mailbox, got ${JSON.stringify(accounts.map((x: any) => x.emailAddress))}`, res);
        expectThat(errors.length === 1, msg`${what}: errors must report the duplicate, got ${JSON.stringify(errors)}`, res);
        expectThat(summary.submitted === 2 && summary.created === 1 && summary.failed === 1, msg`${what}: summary must be { submitted 2, created 1, failed 1 }, got ${JSON.stringify(summary)}`, res);
      }
      // A batch whose every element fails is still the batch's answer (4.2: 201, each element in errors), not a
      // refusal of the request; that it connected nothing may change the 2xx (4.1 leaves the others open).
      const alone = await b.api.post('/v1/accounts', { accounts: [mbx(ctx, { emailAddress: first.emailAddress })] });
      const what = 'POST /v1/accounts in another workspace with only an address already connected';
      expectThat(is2xx(alone), msg`${what}: expected 201 (or another success) with the element in errors, got ${alone.status} ${snippet(alone)}`, alone);
      expectSchema(alone, 'AccountsCreateResponse', what);
      const { summary, accounts, errors } = alone.body;
      expectThat(accounts.length === 0 && errors.length === 1 && summary.created === 0 && summary.failed === 1, msg`${what}: nothing created, the element in errors, summary { submitted 1, created 0, failed 1 }; got accounts ${accounts.length}, errors ${JSON.stringify(errors)}, summary ${JSON.stringify(summary)}`, alone);
    },
  },
  {
    id: 'ACCT-CREATE/independent',
    title: 'MUST validate each element independently: invalid elements go to errors and the valid ones are still created (201)',
    clauses: ['ACCT-CREATE-INDEPENDENT', 'ACCT-CREATE-REST-CREATED', 'ACCT-CREATE-ERRORS', 'ERR-BATCH-PARTIAL', 'ACCT-CREATE-SUMMARY'],
    level: 'MUST',
    features: [],
    budget: 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const first = mbx(ctx);
      const last = mbx(ctx);
      const missing = mbx(ctx) as Record<string, unknown>;
      delete missing.imapHost;
      const batch = [first, mbx(ctx, { sendingGapMinutes: 0 }), missing, mbx(ctx, { smtpPort: 'twenty-five' }), mbx(ctx, { lastName: 'x'.repeat(129) }), last];
      const res = await ws.api.post('/v1/accounts', { accounts: batch });
      const what = 'POST /v1/accounts with 2 valid and 4 invalid elements (out of range, missing field, wrong type, too long)';
      expectStatus(res, 201, what);
      expectSchema(res, 'AccountsCreateResponse', what);
      const { summary, accounts, errors } = res.body;
      const created = accounts.map((a: any) => a.emailAddress.toLowerCase()).sort();
      expectThat(JSON.stringify(created) === JSON.stringify([first.emailAddress, last.emailAddress].map((e) => e.toLowerCase()).sort()), msg`${what}: exactly the 2 valid elements must be created, got ${JSON.stringify(created)}`, res);
      expectThat(errors.length === 4 && summary.submitted === 6 && summary.created === 2 && summary.failed === 4, msg`${what}: the 4 invalid elements must be in errors and summary { 6, 2, 4 }; got ${errors.length} errors, ${JSON.stringify(summary)}`, res);
    },
  },
  {
    id: 'ACCT-CREATE/batch-size',
    title: 'MUST accept 1 to 50 mailboxes per create call: [] and 51 are refused with 400, 50 are created',
    clauses: ['ACCT-CREATE-BATCH-MIN', 'ACCT-CREATE-BATCH-MAX', 'LIMIT-ACCOUNTS-PER-CALL', 'ERR-TABLE-400', 'ERR-DETAILS-VALIDATION'],
    level: 'MUST',
    features: [],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      expectValidation400(await ws.api.post('/v1/accounts', { accounts: [] }), ctx, 'POST /v1/accounts with an empty accounts array');
      expectValidation400(await ws.api.post('/v1/accounts', { accounts: Array.from({ length: 51 }, () => mbx(ctx)) }), ctx, 'POST /v1/accounts with 51 elements');
      const res = await ws.api.post('/v1/accounts', { accounts: Array.from({ length: 50 }, () => mbx(ctx)) });
      expectAllCreated(res, 50, 'POST /v1/accounts with 50 elements');
      expectThat(res.body.summary?.submitted === 50 && res.body.summary?.created === 50, msg`summary must count 50 submitted and created, got ${JSON.stringify(res.body.summary)}`, res);
    },
  },
  {
    id: 'ACCT-CREATE/body-invalid',
    title: 'SHOULD refuse a create body without an accounts array with 400 validation_failed',
    clauses: ['ACCT-CREATE-BODY-MISSING'],
    level: 'SHOULD',
    features: [],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      for (const body of [{}, { accounts: 'x' }, { accounts: mbx(ctx) }]) {
        expectValidation400(await ws.api.post('/v1/accounts', body), ctx, `POST /v1/accounts with ${JSON.stringify(body).slice(0, 60)}`);
      }
    },
  },
  {
    id: 'ACCT-CREATE/invalid-element',
    title: 'SHOULD report an element that breaks 2.2 (in errors, or 400 for the whole call) and create the valid ones when answering 201',
    clauses: ['ACCT-CREATE-INVALID-ELEMENT'],
    level: 'SHOULD',
    features: [],
    budget: 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const good = mbx(ctx);
      const missing = mbx(ctx) as Record<string, unknown>;
      delete missing.smtpHost;
      const big = mbx(ctx, { maxEmailsPerDay: 201 });
      const res = await ws.api.post('/v1/accounts', { accounts: [good, missing, big] });
      if (res.status === 400) return expectValidation400(res, ctx, 'POST /v1/accounts with two invalid elements');
      expectStatus(res, 201, 'POST /v1/accounts with one valid and two invalid elements');
      const { accounts, errors, summary } = res.body;
      expectThat(accounts?.length === 1 && accounts[0].emailAddress.toLowerCase() === good.emailAddress.toLowerCase(), msg`only the valid element may be created, got ${JSON.stringify(accounts?.map((a: any) => a.emailAddress))}`, res);
      expectThat(errors?.length === 2 && summary?.failed === 2 && summary?.submitted === 3, msg`both invalid elements must be in errors and counted as failed, got ${JSON.stringify({ errors, summary })}`, res);
    },
  },
  {
    id: 'ACCT-CREATE/summary-counts',
    title: 'SHOULD count submitted = created + failed, created = accounts.length, failed = errors.length',
    clauses: ['ACCT-CREATE-SUMMARY-COUNTS'],
    level: 'SHOULD',
    features: [],
    budget: 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const a = mbx(ctx);
      const res = await ws.api.post('/v1/accounts', { accounts: [a, mbx(ctx), mbx(ctx, { emailAddress: a.emailAddress })] });
      expectStatus(res, 201, 'POST /v1/accounts with a duplicate inside the batch');
      const { summary, accounts, errors } = res.body;
      expectThat(summary.submitted === 3 && summary.created === accounts.length && summary.failed === errors.length && summary.created + summary.failed === 3,
        msg`summary ${JSON.stringify(summary)} does not add up (accounts ${accounts.length}, errors ${errors.length})`, res);
    },
  },
  {
    id: 'ACCT-GET',
    title: 'the referenced GET /v1/accounts/{id} answers the mailbox in the shape of 2.1 (profile)',
    clauses: ['SVC-ACCT-MANAGE'],
    level: 'MUST',
    features: ['op:accounts.get'],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id, res: created } = await createMailbox(ctx, ws.api);
      const res = await mustGetMailbox(ctx, ws.api, id);
      expectSchema(res, 'Mailbox', 'GET mailbox');
      const c = created.body.accounts[0];
      expectThat(res.body.id === id && res.body.emailAddress === c.emailAddress && res.body.createdAt === c.createdAt, msg`the mailbox read differs from the one created`, res, created);
    },
  },
  {
    id: 'ACCT-LIST/tags-filter',
    title: "MUST filter the mailbox list by tag ids with the `tags` parameter; tags are tag objects; the list's page size is bounded as every list's (101 refused)",
    clauses: ['ACCT-LIST-TAG-FILTER', 'ACCT-LIST-TAGS-PARAM', 'ACCT-TAGS-ARRAY', 'RES-TAG-ID', 'RES-TAG-NAME', 'RES-TAG-COLOR', 'LIMIT-PAGE-SIZE', 'PAGE-SHAPE'],
    level: 'MUST',
    features: ['control', 'op:accounts.list', 'exclusiveWorkspace'],
    budget: 9,
    async run(ctx) {
      const ws = await ctx.workspace({ exclusive: true });
      const { id: tagged } = await createMailbox(ctx, ws.api);
      const { id: other } = await createMailbox(ctx, ws.api);
      const { id: third } = await createMailbox(ctx, ws.api);
      const t1 = await createTag(ctx, ws, 'acct-a');
      const t2 = await createTag(ctx, ws, 'acct-b');
      await setTags(ctx, 'accounts', tagged, [t1.id]);
      await setTags(ctx, 'accounts', third, [t2.id]);
      // The list's item shape is not shown (4.7): only the ids it holds are read. How several tag ids
      // combine is stated for campaigns only, so one tag id is asked.
      const o = op(ctx, 'accounts.list');
      const items = o.result.items ?? 'data';
      const res = await ws.api.get(o.path, { tags: t1.id, [ctx.profile.names.list.pageSize]: 100 });
      expect2xx(res, `GET ${o.path}?tags=<tag id>`);
      // A list of 4.1 whatever its items: a page, with meta (a list answered whole has none).
      expectPage(res, items, `GET ${o.path}?tags=<tag id>`);
      const listed = getPath(res.body, items);
      const ids = Array.isArray(listed) ? listed.map((m: any) => m?.id) : [];
      expectThat(ids.length === 1 && ids[0] === tagged, msg`the list filtered by tags=${t1.id} must hold only the tagged mailbox ${tagged}, got ${JSON.stringify(ids)}`, res);
      // The mailbox itself (2.1) carries the tag objects: a PATCH answers it (4.2).
      const m = await ws.api.patch(`/v1/accounts/${tagged}`, { firstName: 'Tagged' });
      expect2xx(m, 'PATCH /v1/accounts/{id}');
      expectSchema(m, 'Mailbox', 'PATCH /v1/accounts/{id} of a tagged mailbox');
      const tags = m.body.tags as any[];
      expectThat(tags.length === 1 && tags[0].id === t1.id && tags[0].name === t1.name && tags[0].color === t1.color, msg`the mailbox must carry its tag ${JSON.stringify(t1)}, got ${JSON.stringify(tags)}`, m);
      const all = (await walk(ctx.profile, ws.api, o.path, items)) as any[];
      expectThat(all.some((x) => x.id === other) && all.some((x) => x.id === third) && all.length === 3, msg`the unfiltered list must hold the 3 mailboxes, got ${all.length}`);
      // Part 8's page size holds for this list too (its handler may be another than the campaign list's).
      const size = ctx.profile.names.list.pageSize;
      expectError(await ws.api.get(o.path, { [size]: 101 }), 400, ctx.profile, `GET ${o.path} with ${size}=101`, 'validation_failed');
    },
  },
  {
    id: 'ACCT-TAGS-READONLY',
    title: 'MUST NOT change mailbox tags through PATCH (they are read-only here): neither [] nor a list naming another tag of the workspace',
    clauses: ['ACCT-TAGS-READONLY'],
    level: 'MUST',
    features: ['control', 'op:accounts.get'],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      const t = await createTag(ctx, ws, 'ro');
      const other = await createTag(ctx, ws, 'ro-other');
      await setTags(ctx, 'accounts', id, [t.id]);
      // Whether a PATCH naming tags is refused or its tags ignored is open; either way they stay.
      await ws.api.patch(`/v1/accounts/${id}`, { tags: [] });
      await ws.api.patch(`/v1/accounts/${id}`, { tags: [other.id] });
      const after = await mustGetMailbox(ctx, ws.api, id);
      const ids = Array.isArray(after.body.tags) ? after.body.tags.map((x: any) => x?.id) : [];
      expectThat(ids.length === 1 && ids[0] === t.id, msg`PATCHes with tags [] and then [another tag's id] must leave the mailbox's one tag ${t.id}, it has ${JSON.stringify(after.body.tags)}`, after);
    },
  },
  {
    id: 'ACCT-PATCH/partial',
    title: 'MUST change only the supplied fields with PATCH /v1/accounts/{id} and answer the updated mailbox',
    // Its mailbox has warmup off: the schema read of the answer is the kit's read of a switched-off warmup (2.1: an object).
    clauses: ['ACCT-PATCH-PARTIAL', 'ACCT-PATCH-RETURNS-MAILBOX', 'SVC-ACCT-MANAGE', 'ACCT-WARMUP-OBJECT'],
    level: 'MUST',
    features: [],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      // Every optional setting given, away from the create defaults (warmup off, a displayName of its own):
      // a PATCH that resets what it leaves out shows, and a displayName derived from the names is never at stake.
      const { id, res: created } = await createMailbox(ctx, ws.api, undefined, {
        displayName: `Partial ${ctx.prefix}`.slice(0, 100), maxEmailsPerDay: 30, sendingGapMinutes: 17, campaignSlowRamp: true,
        signature: '<p>Kind regards</p>', bcc: `${ctx.prefix}pbcc@example.test`, replyToAddress: `${ctx.prefix}preply@example.test`, automationLanguage: 'de',
        warmup: { enabled: false, skipWeekends: true, timezone: 'Europe/Paris' },
      });
      const before = created.body.accounts[0];
      const res = await ws.api.patch(`/v1/accounts/${id}`, { firstName: 'Patched' });
      expect2xx(res, 'PATCH /v1/accounts/{id} { firstName }');
      expectSchema(res, 'Mailbox', 'PATCH /v1/accounts/{id}');
      expectThat(res.body.id === id && res.body.firstName === 'Patched', msg`the answer must be the mailbox with firstName "Patched", got ${JSON.stringify({ id: res.body.id, firstName: res.body.firstName })}`, res);
      const kept = ['lastName', 'displayName', 'maxEmailsPerDay', 'sendingGapMinutes', 'emailAddress', 'automationLanguage', 'campaignSlowRamp', 'signature', 'bcc', 'replyToAddress'];
      const changed = kept.filter((k) => JSON.stringify(res.body[k]) !== JSON.stringify(before[k]));
      changed.push(...(['host', 'port', 'username'] as const).filter((k) => res.body.smtp?.[k] !== before.smtp?.[k]).map((k) => `smtp.${k}`));
      // The warmup settings given (its phase and dates move by themselves).
      changed.push(...(['enabled', 'skipWeekends', 'timezone'] as const).filter((k) => res.body.warmup?.[k] !== before.warmup?.[k]).map((k) => `warmup.${k}`));
      expectThat(changed.length === 0, msg`fields not supplied changed: ${changed.map((k) => `${k}: ${JSON.stringify(getPath(before, k))} -> ${JSON.stringify(getPath(res.body, k))}`).join(', ')}`, res, created);
    },
  },
  {
    id: 'ACCT-PATCH/fields',
    title: 'MUST accept every PATCH field of 4.2 and answer the mailbox reflecting them (warmup fields included; the warmup values its mailbox was created with reported back too)',
    // Its PATCH switches warmup off: the Mailbox schema then holds a switched-off warmup's object and field types.
    clauses: ['ACCT-PATCH-FIELDS', 'WARMUP-WRITABLE', 'ACCT-PATCH-RETURNS-MAILBOX', 'STATE-ACCT-PATCH-CREDS-ROTATE', 'ACCT-WARMUP-OBJECT', 'WARMUP-WRITABLE-TYPES'],
    level: 'MUST',
    features: [],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      // Created with warmup values away from the declared defaults (2.3: a value given at create is stored and reported back).
      const given = createdWarmup(ctx);
      const { id, res: made } = await createMailbox(ctx, ws.api, undefined, { warmup: given });
      const atCreate = Object.entries(given).filter(([k, v]) => made.body.accounts[0].warmup?.[k] !== v).map(([k, v]) => `warmup.${k}: ${JSON.stringify(made.body.accounts[0].warmup?.[k])} instead of ${JSON.stringify(v)}`);
      expectThat(atCreate.length === 0, msg`the mailbox created with warmup values does not report them back: ${atCreate.join('; ')}`, made);
      // The signature is sanitized on save: only its text, a token of its own, is held.
      const sigToken = `Sig${faker(ctx).string.alphanumeric(10)}`;
      // The warmup flags are turned from what the new mailbox has, so that each PATCHed value is a change;
      // a numeric field is set to the end of its declared bounds (profile: warmupBounds) it is not at.
      const was = made.body.accounts[0].warmup ?? {};
      const numbers = Object.fromEntries(Object.entries(ctx.profile.declarations.warmupBounds ?? {}).map(([k, b]) => [k, was[k] === b.min ? b.max : b.min]));
      const settings = {
        firstName: 'Ada', lastName: 'Lovelace', displayName: 'Ada L.', maxEmailsPerDay: 150, sendingGapMinutes: 45, campaignSlowRamp: false,
        signature: `<p>Ada ${sigToken}</p>`, bcc: `${ctx.prefix}pbcc@example.test`, replyToAddress: `${ctx.prefix}preply@example.test`, automationLanguage: 'fr',
        warmup: { enabled: false, skipWeekends: was.skipWeekends !== true, rampupEnabled: was.rampupEnabled !== true, trackingEnabled: was.trackingEnabled !== true, timezone: 'Asia/Tokyo', ...numbers },
      };
      const res = await ws.api.patch(`/v1/accounts/${id}`, settings);
      expect2xx(res, 'PATCH /v1/accounts/{id} with every settings field');
      expectSchema(res, 'Mailbox', 'PATCH /v1/accounts/{id}');
      const diffsIn = (mailbox: Record<string, any>) => [
        ...Object.entries(settings).filter(([k, v]) => k !== 'signature' && k !== 'warmup' && mailbox[k] !== v).map(([k, v]) => `${k}: ${JSON.stringify(mailbox[k])} instead of ${JSON.stringify(v)}`),
        ...Object.entries(settings.warmup).filter(([k, v]) => mailbox.warmup?.[k] !== v).map(([k, v]) => `warmup.${k}: ${JSON.stringify(mailbox.warmup?.[k])} instead of ${JSON.stringify(v)}`),
        ...(String(mailbox.signature ?? '').includes(sigToken) ? [] : [`signature: ${JSON.stringify(mailbox.signature)} without the text ${sigToken} of ${JSON.stringify(settings.signature)}`]),
      ];
      const diffs = diffsIn(res.body);
      expectThat(diffs.length === 0, msg`the patched mailbox does not reflect the PATCH: ${diffs.join('; ')}`, res);
      const creds = { smtpHost: '127.0.0.2', smtpPort: 2525, smtpUsername: `${ctx.prefix}u1`, smtpPassword: 'Rotated-Pass-1x', imapHost: '127.0.0.3', imapPort: 1143, imapUsername: `${ctx.prefix}u2`, imapPassword: 'Rotated-Pass-2y', imapAllowInvalidCert: true };
      const r2 = await ws.api.patch(`/v1/accounts/${id}`, creds);
      expect2xx(r2, 'PATCH /v1/accounts/{id} with every smtp*/imap* field');
      expectSchema(r2, 'Mailbox', 'PATCH /v1/accounts/{id}');
      const s = r2.body.smtp;
      const i = r2.body.imap;
      expectThat(s?.host === creds.smtpHost && s?.port === creds.smtpPort && s?.username === creds.smtpUsername, msg`smtp must be rotated to ${creds.smtpHost}:${creds.smtpPort} ${creds.smtpUsername}, got ${JSON.stringify(s)}`, r2);
      expectThat(i?.host === creds.imapHost && i?.port === creds.imapPort && i?.username === creds.imapUsername, msg`imap must be rotated to ${creds.imapHost}:${creds.imapPort} ${creds.imapUsername}, got ${JSON.stringify(i)}`, r2);
      // The second answer is the stored mailbox: the first PATCH's settings must be in it (an answer echoing a PATCH the store missed shows here).
      const lost = diffsIn(r2.body);
      expectThat(lost.length === 0, msg`the mailbox answered after a later PATCH lost what the first PATCH answered as applied: ${lost.join('; ')}`, res, r2);
      // tracking alone: whether its domain must exist in the workspace is not stated, so a refusal is left
      // open (as at create); a 2xx must show the domainId sent.
      const domainId = faker(ctx).string.uuid();
      const t = await ws.api.patch(`/v1/accounts/${id}`, { tracking: { domainId } });
      expectThat(t.status < 500, msg`PATCH /v1/accounts/{id} { tracking: { domainId } } answered ${t.status}`, t);
      if (is2xx(t)) expectThat(t.body?.tracking?.domainId === domainId, msg`PATCH { tracking: { domainId: ${domainId} } } was accepted, so the mailbox must show that tracking, got ${JSON.stringify(t.body?.tracking)}`, t);
    },
  },
  {
    id: 'ACCT-PATCH/email-immutable',
    title: 'MUST NOT change the email address of a mailbox through PATCH',
    clauses: ['ACCT-PATCH-EMAIL-IMMUTABLE', 'ACCT-EMAILADDRESS-IMMUTABLE'],
    level: 'MUST',
    features: ['op:accounts.get'],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id, res: created } = await createMailbox(ctx, ws.api);
      const original = created.body.accounts[0].emailAddress;
      const res = await ws.api.patch(`/v1/accounts/${id}`, { emailAddress: `${ctx.prefix}changed@example.test` });
      if (is2xx(res)) expectThat(res.body.emailAddress === original, msg`PATCH changed emailAddress to ${res.body.emailAddress}`, res);
      const after = await mustGetMailbox(ctx, ws.api, id);
      expectThat(after.body.emailAddress === original, msg`the email address changed from ${original} to ${after.body.emailAddress} after a PATCH`, after);
    },
  },
  {
    id: 'ACCT-PATCH/bounds',
    title: 'SHOULD refuse out-of-bounds values in PATCH with 400 and leave the mailbox unchanged',
    clauses: ['ACCT-PATCH-BOUNDS'],
    level: 'SHOULD',
    features: ['op:accounts.get'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id, res: created } = await createMailbox(ctx, ws.api);
      for (const body of [{ maxEmailsPerDay: 201 }, { sendingGapMinutes: 0 }, { smtpPort: 65536 }, { firstName: 'x'.repeat(129) }]) {
        expectValidation400(await ws.api.patch(`/v1/accounts/${id}`, body), ctx, `PATCH /v1/accounts/{id} ${JSON.stringify(body).slice(0, 50)}`);
      }
      const after = await mustGetMailbox(ctx, ws.api, id);
      const before = created.body.accounts[0];
      expectThat(after.body.maxEmailsPerDay === before.maxEmailsPerDay && after.body.firstName === before.firstName && after.body.smtp.port === before.smtp.port, msg`a refused PATCH changed the mailbox`, after);
    },
  },
  {
    id: 'ACCT-PATCH/warmup-readonly',
    title: 'MUST NOT let a client write the read-only warmup fields phase, startedAt, poolAccess (at create or by PATCH), and type them when a PATCH restarts the warmup',
    // The third writer of startedAt (after create and verification): a warmup switched off and on again by PATCH.
    clauses: ['WARMUP-READONLY', 'WARMUP-READONLY-TYPES'],
    level: 'MUST',
    features: ['op:accounts.get'],
    budget: 7,
    async run(ctx) {
      const ws = await ctx.workspace();
      const hacked = { phase: 'hacked_phase', startedAt: '2001-01-01T00:00:00.000Z', poolAccess: 'hacked_pool' };
      const keys = ['phase', 'startedAt', 'poolAccess'] as const;
      // At create: a target may ignore them or refuse the element; none takes the values sent.
      const res = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { warmup: { enabled: true, ...hacked } })] });
      const made = res.status === 201 && res.body?.accounts?.length === 1 ? res.body.accounts[0] : undefined;
      const same = (k: (typeof keys)[number], v: unknown) => v === hacked[k] || (k === 'startedAt' && typeof v === 'string' && Date.parse(v) === Date.parse(hacked.startedAt));
      const taken = keys.filter((k) => made?.warmup && same(k, made.warmup[k]));
      expectThat(taken.length === 0, msg`read-only warmup fields took the values a create sent: ${taken.map((k) => `${k} ${JSON.stringify(made.warmup[k])}`).join(', ')}`, res);
      const id = typeof made?.id === 'string' ? made.id : (await createMailbox(ctx, ws.api)).id;
      const before = (await mustGetMailbox(ctx, ws.api, id)).body.warmup;
      await ws.api.patch(`/v1/accounts/${id}`, { warmup: hacked });
      const after = await mustGetMailbox(ctx, ws.api, id);
      const w = after.body.warmup;
      const bad = keys.filter((k) => w?.[k] !== before?.[k]);
      expectThat(bad.length === 0, msg`read-only warmup fields changed after a client write: ${bad.map((k) => `${k} ${JSON.stringify(before?.[k])} -> ${JSON.stringify(w?.[k])}`).join(', ')}`, after);
      // Switched off, then on again: the restart writes phase and startedAt anew, typed as 2.3 gives them.
      expect2xx(await ws.api.patch(`/v1/accounts/${id}`, { warmup: { enabled: false } }), 'PATCH /v1/accounts/{id} { warmup: { enabled: false } }');
      const restarted = await ws.api.patch(`/v1/accounts/${id}`, { warmup: { enabled: true } });
      expect2xx(restarted, 'PATCH /v1/accounts/{id} { warmup: { enabled: true } } after switching it off');
      expectSchema(restarted, 'Mailbox', 'PATCH /v1/accounts/{id} { warmup: { enabled: true } } after switching it off');
    },
  },
  {
    id: 'ACCT-DELETE',
    title: 'MUST answer DELETE /v1/accounts/{id} with { id, deleted: true }; the mailbox is then absent (404)',
    clauses: ['ACCT-DELETE-ANSWER', 'STATE-ACCT-DELETE-REMOVED', 'ERR-TABLE-404', 'SVC-ACCT-MANAGE'],
    level: 'MUST',
    features: [],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      const res = await ws.api.delete(`/v1/accounts/${id}`);
      expect2xx(res, 'DELETE /v1/accounts/{id}');
      expectSchema(res, 'DeletedResponse', 'DELETE /v1/accounts/{id}');
      expectError(await ws.api.get(`/v1/accounts/${id}/verification`), 404, ctx.profile, 'GET verification of a deleted mailbox', 'not_found');
      expectError(await ws.api.delete(`/v1/accounts/${id}`), 404, ctx.profile, 'DELETE of a deleted mailbox', 'not_found');
      if (ctx.profile.operations['accounts.get']) expectError(await getMailbox(ctx, ws.api, id), 404, ctx.profile, 'GET of a deleted mailbox', 'not_found');
    },
  },
  {
    id: 'ACCT-DELETE/id',
    title: 'SHOULD answer the deleted mailbox id in the delete answer',
    clauses: ['ACCT-DELETE-ID'],
    level: 'SHOULD',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      const res = await ws.api.delete(`/v1/accounts/${id}`);
      expect2xx(res, 'DELETE /v1/accounts/{id}');
      expectThat(res.body?.id === id, msg`the delete answer's id is ${res.body?.id}, not the mailbox ${id}`, res);
    },
  },
  {
    id: 'ACCT-PAUSE/not-active',
    title: 'MUST refuse to pause a mailbox that is not active with 400 and leave its status unchanged',
    clauses: ['ACCT-PAUSE-400-NOT-ACTIVE', 'STATE-ACCT-PAUSE-ACTIVE-ONLY', 'ERR-BUSINESS-400', 'ERR-BUSINESS-CODE'],
    level: 'MUST',
    features: [],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id, res: created } = await createMailbox(ctx, ws.api);
      const status = created.body.accounts[0].status;
      expectThat(status !== 'active', msg`a new mailbox pointing at nothing is ${status}`, created);
      expectBusiness400(await ws.api.post(`/v1/accounts/${id}/pause`), ctx, `pausing a ${status} mailbox`);
      if (ctx.profile.operations['accounts.get']) {
        const after = await mustGetMailbox(ctx, ws.api, id);
        expectThat(after.body.status !== 'active', msg`a refused pause left the mailbox ${after.body.status}`, after);
      }
    },
  },
  {
    id: 'ACCT-VERIF/shape',
    title: 'MUST answer GET /v1/accounts/{id}/verification with { overallStatus, smtp { status, error }, imap { status, error }, dns, lastVerifiedAt }',
    clauses: ['ACCT-VERIF-ANSWER', 'VERIF-ENDPOINT-OVERALL', 'VERIF-ENDPOINT-SMTP', 'VERIF-ENDPOINT-IMAP', 'VERIF-ENDPOINT-DNS', 'VERIF-ENDPOINT-LASTVERIFIEDAT', 'SVC-ACCT-MANAGE'],
    level: 'MUST',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      const res = await ws.api.get(`/v1/accounts/${id}/verification`);
      expect2xx(res, 'GET /v1/accounts/{id}/verification');
      expectSchema(res, 'VerificationResult', 'GET /v1/accounts/{id}/verification');
      for (const k of ['overallStatus', 'smtp', 'imap', 'dns'] as const) expectThat(k in res.body, msg`the verification answer lacks ${k}`, res);
      expectThat('error' in (res.body.smtp ?? {}) && 'error' in (res.body.imap ?? {}), msg`smtp and imap must each carry status and error`, res);
    },
  },
  {
    id: 'ACCT-VERIF/consistent',
    title: "SHOULD agree with the mailbox's verification.overallStatus",
    clauses: ['VERIF-ENDPOINT-CONSISTENT'],
    level: 'SHOULD',
    features: ['op:accounts.get'],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      // Background verification may move on between two reads: the endpoint must agree with a
      // mailbox read just before or just after it.
      const before = await mustGetMailbox(ctx, ws.api, id);
      const v = await ws.api.get(`/v1/accounts/${id}/verification`);
      const after = await mustGetMailbox(ctx, ws.api, id);
      expect2xx(v, 'GET /v1/accounts/{id}/verification');
      const seen = [before.body.verification?.overallStatus, after.body.verification?.overallStatus];
      expectThat(seen.includes(v.body.overallStatus), msg`verification endpoint says ${v.body.overallStatus}, the mailbox says ${seen.join(' then ')}`, v, after);
    },
  },
  {
    id: 'ACCT-OAUTH/init',
    title: 'MUST answer POST /v1/accounts/oauth/{google|microsoft}/init without a body with { authorizationUrl, state, expiresInSeconds }',
    clauses: ['ACCT-OAUTH-PROVIDERS', 'ACCT-OAUTH-NO-BODY', 'ACCT-OAUTH-ANSWER', 'ACCT-OAUTH-URL', 'ACCT-OAUTH-STATE-OPAQUE', 'ACCT-OAUTH-STATE-VALIDITY', 'SVC-ACCT-CONNECT-OAUTH'],
    level: 'MUST',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      for (const p of ['google', 'microsoft']) {
        const res = await ws.api.post(`/v1/accounts/oauth/${p}/init`);
        expect2xx(res, `POST /v1/accounts/oauth/${p}/init`);
        expectSchema(res, 'OAuthInitResponse', `POST /v1/accounts/oauth/${p}/init`);
      }
    },
  },
  {
    id: 'ACCT-OAUTH/init-readings',
    title: 'SHOULD give a new state per init',
    clauses: ['ACCT-OAUTH-STATE-UNIQUE'],
    level: 'SHOULD',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const a = await ws.api.post('/v1/accounts/oauth/google/init');
      const b = await ws.api.post('/v1/accounts/oauth/google/init');
      expect2xx(a, 'POST /v1/accounts/oauth/google/init');
      expect2xx(b, 'POST /v1/accounts/oauth/google/init');
      expectThat(a.body.state !== b.body.state, msg`two init calls answered the same state`, a, b);
    },
  },
  {
    id: 'ACCT-OAUTH/unknown-provider',
    title: 'MUST refuse POST /v1/accounts/oauth/{provider}/init for a provider other than google and microsoft (400 or 404, never a 2xx)',
    clauses: ['ACCT-OAUTH-PROVIDER-UNKNOWN'],
    level: 'MUST',
    features: [],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      // `custom` is a mailbox provider (2.1), not an OAuth one; gmail and outlook are aliases the path does not list.
      for (const p of ['custom', 'yahoo', 'gmail', 'outlook']) {
        const r = await ws.api.post(`/v1/accounts/oauth/${p}/init`);
        expectThat(r.status === 400 || r.status === 404, msg`path provider is google or microsoft: an init for ${p} must be refused with 400 or 404, got ${r.status}`, r);
        expectError(r, r.status, ctx.profile, `POST /v1/accounts/oauth/${p}/init`);
      }
    },
  },
  {
    id: 'ACCT-OAUTH/status-consent-revoke',
    title: "the OAuth status poll takes the state init answered (the flow's handle) and answers after consent; the mailbox exists in the shape of 2.1 and is revoked when the grant is withdrawn (profile)",
    // The mailbox read is the only one without SMTP/IMAP input: its provider is an OAuth one, its
    // imap an object or null (whether OAuth configures IMAP is open, so null is not required), its
    // smtp an object all the same (2.1 gives smtp no null), and its names strings (2.1). Its status is read as active and then as revoked.
    clauses: [
      'ACCT-OAUTH-STATUS-POLL', 'ACCT-OAUTH-STATUS-PROFILE', 'STATE-ACCT-OAUTH-REVOKED', 'STATE-ACCT-REVOKED-RECONNECT', 'SVC-ACCT-CONNECT-OAUTH', 'ACCT-PROVIDER-ENUM', 'ACCT-IMAP-NULLABLE', 'ACCT-SMTP-OBJECT',
      'ACCT-OAUTH-STATE-OPAQUE', 'ACCT-NAMES-STRING', 'ACCT-STATUS-ENUM', 'STATE-ACCT-STATES', 'ACCT-OAUTH-ANSWER', 'ACCT-OAUTH-URL',
    ],
    level: 'MUST',
    features: ['control', 'op:accounts.oauthStatus', 'op:accounts.get'],
    budget: 8,
    // It moves the control clock a day: alone, so that no other check's windows move under it.
    solo: true,
    async run(ctx) {
      const ws = await ctx.workspace();
      const init = await ws.api.post('/v1/accounts/oauth/microsoft/init');
      expect2xx(init, 'POST /v1/accounts/oauth/microsoft/init');
      // The init answer it reads the state from is 4.2's { authorizationUrl (absolute), state, expiresInSeconds }.
      expectSchema(init, 'OAuthInitResponse', 'POST /v1/accounts/oauth/microsoft/init');
      const state = init.body.state;
      const o = op(ctx, 'accounts.oauthStatus');
      const param = ctx.profile.names.oauthStatusStateParam ?? 'state';
      const path = o.path.replace('{provider}', 'microsoft');
      // `state` is the flow's handle (4.2): the poll takes it as init answered it.
      const before = await ws.api.request({ method: o.method, path, query: { [param]: state } });
      expectThat(is2xx(before), msg`state is the handle of the OAuth flow: ${o.method} ${path} with the state init answered must be served, got ${before.status}: ${before.text.slice(0, 160)}`, init, before);
      const email = `${ctx.prefix}${randomUUID().slice(0, 8)}@oauth.example.test`;
      const consent = await control(ctx).request('POST', '/oauth/microsoft/consent', { state, emailAddress: email });
      const accountId = consent.body.accountId as string;
      const polled = await ws.api.request({ method: o.method, path, query: { [param]: state } });
      expect2xx(polled, `${o.method} ${path} after consent`);
      // The poll's shape is not given (4.2): the mailbox's id is held only where the profile declares it.
      const idAt = o.result.accountId;
      if (idAt) expectThat(getPath(polled.body, idAt) === accountId, msg`the status poll after consent must name the connected mailbox ${accountId} at the declared ${idAt}: ${polled.text.slice(0, 200)}`, polled);
      const m = await mustGetMailbox(ctx, ws.api, accountId);
      expectSchema(m, 'Mailbox', 'GET mailbox connected by OAuth');
      await control(ctx).request('POST', `/accounts/${accountId}/revoke-oauth`);
      const revoked = await mustGetMailbox(ctx, ws.api, accountId);
      expectThat(revoked.body.status === 'revoked', msg`a withdrawn OAuth grant must make the mailbox revoked, got ${revoked.body.status}`, revoked);
      await drainAll(ctx.control!, 2000, ws.api.organizationId);
      const later = await mustGetMailbox(ctx, ws.api, accountId);
      expectThat(later.body.status === 'revoked', msg`a revoked mailbox became ${later.body.status} by itself`, later);
      // Nor later: a grant retried with backoff, or a periodic reconcile, must not bring it back either.
      await control(ctx).advance(REVOKED_WAIT_S);
      await drainAll(ctx.control!, 2000, ws.api.organizationId);
      const next = await mustGetMailbox(ctx, ws.api, accountId);
      expectThat(next.body.status === 'revoked', msg`a revoked mailbox became ${next.body.status} by itself ${REVOKED_WAIT_S / 3600} h after the grant was withdrawn`, next);
    },
  },
  {
    id: 'ACCT-OAUTH/provider',
    title: 'SHOULD give a mailbox connected by OAuth its OAuth provider (google, microsoft), not custom',
    clauses: ['ACCT-PROVIDER-CUSTOM'],
    level: 'SHOULD',
    features: ['control', 'op:accounts.get'],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const init = await ws.api.post('/v1/accounts/oauth/google/init');
      expect2xx(init, 'POST /v1/accounts/oauth/google/init');
      const email = `${ctx.prefix}${randomUUID().slice(0, 8)}@oauth.example.test`;
      const consent = await control(ctx).request('POST', '/oauth/google/consent', { state: init.body.state, emailAddress: email });
      const m = await mustGetMailbox(ctx, ws.api, consent.body.accountId as string);
      expectThat(m.body.provider === 'google', msg`a mailbox connected by Google OAuth has provider ${m.body.provider}`, m);
    },
  },
  {
    id: 'ACCT-UPDATEDAT',
    title: 'SHOULD keep updatedAt at or after createdAt and advance it when the mailbox changes',
    clauses: ['ACCT-UPDATEDAT-ORDER'],
    level: 'SHOULD',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id, res } = await createMailbox(ctx, ws.api);
      const m = res.body.accounts[0];
      expectThat(Date.parse(m.updatedAt) >= Date.parse(m.createdAt), msg`updatedAt ${m.updatedAt} is before createdAt ${m.createdAt}`, res);
      await new Promise((r) => setTimeout(r, 20));
      const p = await ws.api.patch(`/v1/accounts/${id}`, { lastName: 'Changed' });
      expect2xx(p, 'PATCH /v1/accounts/{id}');
      expectThat(Date.parse(p.body.updatedAt) > Date.parse(m.updatedAt), msg`updatedAt must advance when the mailbox changes: ${m.updatedAt} -> ${p.body.updatedAt}`, p);
    },
  },
  {
    id: 'RES-NULLS/resources',
    title: 'SHOULD use null only where the spec states it (mailbox, campaign create answer, lead, lead search)',
    clauses: ['RES-NULL-ONLY-WHERE-STATED'],
    level: 'SHOULD',
    features: ['op:leads.list', 'control'],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { res: m } = await createMailbox(ctx, ws.api);
      const problems: string[] = [];
      const look = (resource: string, value: unknown, where: string) => {
        const n = unstatedNulls(resource, value);
        if (n.length) problems.push(`${where}: ${n.join(', ')}`);
      };
      look('Mailbox', m.body.accounts[0], 'POST /v1/accounts accounts[0]');
      const c = await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx)), name: `${ctx.prefix}nulls`, leads: [`${ctx.prefix}n@leads.example.test`] });
      expect2xx(c, 'POST /v1/campaigns');
      look('CampaignCreateResponse', c.body, 'POST /v1/campaigns');
      const leads = await allLeads(ctx, ws.api, c.body.campaign.id);
      look('Lead', leads[0], 'a listed lead');
      if (ws.organizationId) {
        const s = await control(ctx).request('POST', '/lead-searches', { organizationId: ws.organizationId, query: `${ctx.prefix}nulls`, searchMode: 'people', maxResults: 5 });
        const r = await ws.api.get(`/v1/lead-searches/${s.body.id}`);
        look('LeadSearch', r.body, 'GET /v1/lead-searches/{id}');
      }
      expectThat(problems.length === 0, msg`null where the spec does not state it (omit the field instead): ${problems.join('; ')}`, m);
    },
  },
  {
    id: 'ACCT-OAUTH/state-expiry',
    title: 'the OAuth state stays valid for expiresInSeconds (a consent near its end completes the flow) and no longer after; the Google mailbox it connects has a provider of 2.1 (control clock; profile: status poll)',
    clauses: ['ACCT-OAUTH-STATE-VALIDITY', 'ACCT-OAUTH-STATUS-POLL', 'ACCT-OAUTH-STATUS-PROFILE', 'ACCT-PROVIDER-ENUM'],
    level: 'MUST',
    features: ['control', 'op:accounts.oauthStatus'],
    budget: 6,
    solo: true,
    async run(ctx) {
      const ws = await ctx.workspace();
      const init = await ws.api.post('/v1/accounts/oauth/google/init');
      expect2xx(init, 'POST /v1/accounts/oauth/google/init');
      const ttl = Number(init.body.expiresInSeconds);
      // Up to 30 days: a lifetime given in milliseconds (600000 for 600 s) is then held to what it says.
      if (!(ttl > 2 && ttl <= 30 * 86_400)) skip(`expiresInSeconds ${ttl} is not a usable window`);
      const late = await ws.api.post('/v1/accounts/oauth/google/init');
      expect2xx(late, 'POST /v1/accounts/oauth/google/init');
      const o = op(ctx, 'accounts.oauthStatus');
      const param = ctx.profile.names.oauthStatusStateParam ?? 'state';
      const path = o.path.replace('{provider}', 'google');
      const poll = () => ws.api.request({ method: o.method, path, query: { [param]: init.body.state } });
      // Near the end of its life (a tenth of it left, at most a minute) a state still completes the flow.
      const margin = Math.max(1, Math.min(60, Math.floor(ttl / 10)));
      await control(ctx).advance(ttl - margin);
      const email = `${ctx.prefix}${randomUUID().slice(0, 8)}@oauth.example.test`;
      const consent = await control(ctx).request('POST', '/oauth/google/consent', { state: late.body.state, emailAddress: email }, { allowError: true });
      expectThat(is2xx(consent), msg`the state stays valid for expiresInSeconds (${ttl}): the owner's consent ${ttl - margin} s after init was refused (${consent.status}: ${consent.text.slice(0, 160)})`, late);
      // The one Google mailbox of a claiming check (status-consent-revoke connects a Microsoft one): its provider is of 2.1's enum.
      if (ctx.profile.operations['accounts.get']) {
        const m = await mustGetMailbox(ctx, ws.api, consent.body.accountId as string);
        expectThat((MAILBOX_PROVIDERS as readonly unknown[]).includes(m.body.provider), msg`provider is one of ${MAILBOX_PROVIDERS.join(', ')} (2.1): the mailbox connected by Google OAuth answers ${JSON.stringify(m.body.provider)}`, m);
      }
      const inside = await poll();
      expect2xx(inside, `${o.method} ${path} within expiresInSeconds`);
      await control(ctx).advance(margin + Math.ceil(ttl / 2));
      const outside = await poll();
      expectThat(!is2xx(outside) || JSON.stringify(outside.body) !== JSON.stringify(inside.body), msg`after expiresInSeconds the state must no longer be valid, but the poll answers as before: ${outside.text.slice(0, 200)}`, inside, outside);
    },
  },
  {
    id: 'ACCT-PATCH/creds-reverify',
    title: 'MUST re-run verification when a PATCH carries an smtp* field, and again when one carries only an imap* field, a password (a new verification result follows each), answering the mailbox in the shape of 2.1 in whatever state the rotation put it',
    // The PATCH answer is the mailbox (4.2) as the rotation left it (checking, where a target shows the re-run): its status one of 2.1's.
    clauses: ['ACCT-PATCH-CREDS-ROTATE', 'STATE-ACCT-PATCH-CREDS-REVERIFY', 'ACCT-STATUS-ENUM', 'STATE-ACCT-STATES', 'SVC-ACCT-MANAGE'],
    level: 'MUST',
    features: ['control', 'op:accounts.get'],
    budget: 55,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      const first = await verifiedOnce(ctx, ws.api, id);
      await new Promise((r) => setTimeout(r, 20));
      const p = await ws.api.patch(`/v1/accounts/${id}`, { smtpPort: 10 });
      expect2xx(p, 'PATCH /v1/accounts/{id} { smtpPort }');
      expectSchema(p, 'Mailbox', 'PATCH /v1/accounts/{id} { smtpPort }');
      const again = await verifiedAfter(ctx, ws.api, id, first);
      expectThat(again !== undefined, msg`no new verification after a PATCH of smtpPort: lastVerifiedAt stayed ${first} (status ${p.body.status})`, p);
      // The other half of "any smtp* or imap* field": an imap* field alone (a trigger list of smtp* fields misses it),
      // and that a password (a rotation that changes no server still re-runs verification).
      await new Promise((r) => setTimeout(r, 20));
      const q = await ws.api.patch(`/v1/accounts/${id}`, { imapPassword: 'Rotated-Imap-Pass-3z' });
      expect2xx(q, 'PATCH /v1/accounts/{id} { imapPassword }');
      const third = await verifiedAfter(ctx, ws.api, id, again);
      expectThat(third !== undefined, msg`no new verification after a PATCH of imapPassword alone: lastVerifiedAt stayed ${again} (status ${q.body.status})`, q);
    },
  },
  {
    id: 'ACCT-VERIFY/unreachable',
    title: 'a mailbox whose servers answer nothing is verified in the background and becomes failed with a verification error (profile: outcome mapping)',
    clauses: ['STATE-ACCT-VERIFY-MAPPING-PROFILE', 'STATE-ACCT-CREATE-VERIFY', 'SVC-ACCT-BACKGROUND-VERIFY', 'VERIF-ENDPOINT-SMTP'],
    level: 'MUST',
    features: ['control', 'op:accounts.get', NEEDS_VERIFICATION_STATUS],
    budget: 55,
    async run(ctx) {
      const failed = verificationStatus(ctx, 'failed');
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      await verifiedOnce(ctx, ws.api, id);
      const m = await mustGetMailbox(ctx, ws.api, id);
      expectSchema(m, 'Mailbox', 'GET mailbox after verification');
      expectThat(m.body.status === failed, msg`a mailbox whose SMTP and IMAP servers answer nothing must be ${failed} (profile) after verification, got ${m.body.status}`, m);
      const v = await ws.api.get(`/v1/accounts/${id}/verification`);
      expectThat(v.body?.smtp?.error !== null && v.body?.smtp?.error !== undefined, msg`verification smtp.error must say why, got ${JSON.stringify(v.body?.smtp)}`, v);
    },
  },
  {
    id: 'ACCT-RESUME/recheck',
    title: 'resume of an inactive or failed mailbox puts it in checking and re-runs verification (profile: referenced resume)',
    clauses: ['STATE-ACCT-RESUME-CHECKING', 'STATE-ACCT-RESUME-FAILED-RECHECK'],
    level: 'MUST',
    features: ['control', 'op:accounts.get', 'op:accounts.resume'],
    budget: 55,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createMailbox(ctx, ws.api);
      const first = await verifiedOnce(ctx, ws.api, id);
      const settled = await mustGetMailbox(ctx, ws.api, id);
      // 3.2 defines resume from inactive or failed; the status a failed verification gives is the target's.
      if (!['inactive', 'failed'].includes(settled.body.status)) skip(`a mailbox whose servers answer nothing is ${settled.body.status} after verification: resume is defined from inactive or failed only`);
      await expectResumeRechecks(ctx, ws.api, id, first, `a ${settled.body.status} mailbox`);
    },
  },
  {
    id: 'ACCT-RESUME/oauth',
    title: 'resume of a paused OAuth mailbox puts it in checking and re-runs verification, as for any mailbox (profile: referenced resume); paused again, a withdrawn grant makes it revoked',
    clauses: ['STATE-ACCT-RESUME-CHECKING', 'STATE-ACCT-OAUTH-REVOKED'],
    level: 'MUST',
    features: ['control', 'oauth', 'op:accounts.get', 'op:accounts.resume'],
    budget: 20,
    async run(ctx) {
      const ws = await ctx.workspace();
      const init = await ws.api.post('/v1/accounts/oauth/google/init');
      expect2xx(init, 'setup: POST /v1/accounts/oauth/google/init');
      const email = `${ctx.prefix}${randomUUID().slice(0, 8)}@oauth.example.test`;
      const consent = await control(ctx).request('POST', '/oauth/google/consent', { state: init.body?.state, emailAddress: email });
      const id = consent.body?.accountId;
      expectThat(typeof id === 'string', msg`setup: the control API's OAuth consent gave no accountId`, consent);
      const first = await verifiedOnce(ctx, ws.api, id);
      const settled = await mustGetMailbox(ctx, ws.api, id);
      // 3.2 defines resume from inactive or failed: a verified OAuth mailbox is paused first.
      if (settled.body.status === 'active') expect2xx(await ws.api.post(`/v1/accounts/${id}/pause`), 'setup: POST /v1/accounts/{id}/pause of the active OAuth mailbox');
      else if (!['inactive', 'failed'].includes(settled.body.status)) skip(`an OAuth mailbox is ${settled.body.status} after verification: resume is defined from inactive or failed only`);
      await expectResumeRechecks(ctx, ws.api, id, first, 'a paused OAuth mailbox');
      // "Any OAuth mailbox" (3.2): a paused one whose grant is withdrawn is revoked too, not only one in use.
      // Where the re-verified mailbox cannot be paused (not active), this half is not asked.
      if (!is2xx(await ws.api.post(`/v1/accounts/${id}/pause`))) return;
      await control(ctx).request('POST', `/accounts/${id}/revoke-oauth`);
      const revoked = await mustGetMailbox(ctx, ws.api, id);
      expectThat(revoked.body.status === 'revoked', msg`the grant of a paused OAuth mailbox was withdrawn: any OAuth mailbox becomes revoked (3.2), this one is ${revoked.body.status}`, revoked);
    },
  },
];

/**
 * Resumes the mailbox: it must pass through checking and be verified again after `first`.
 * Checking is seen in the resume's answer or the next read; a target whose re-verification is
 * over by then (an OAuth grant checks fast) shows it by a later lastVerifiedAt instead.
 */
async function expectResumeRechecks(ctx: Parameters<Check['run']>[0], api: import('../../../harness/ground/api-client.ts').ApiClient, id: string, first: string, what: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 20)); // a later lastVerifiedAt is then a new verification
  const r = await api.request(opRequest(ctx, 'accounts.resume', { id }));
  expect2xx(r, `resume of ${what}`);
  const answered = itemOf(op(ctx, 'accounts.resume'), r).body?.status;
  const right = await mustGetMailbox(ctx, api, id);
  const again = await verifiedAfter(ctx, api, id, first);
  const sawChecking = answered === 'checking' || right.body.status === 'checking';
  expectThat(sawChecking || again !== undefined, msg`resume of ${what} must move it to checking and re-verify; it answered ${answered}, then read ${right.body.status} (lastVerifiedAt ${first} -> unchanged)`, r, right);
  expectThat(again !== undefined, msg`resume of ${what} did not re-run verification: lastVerifiedAt stayed ${first} (status after the resume: ${right.body.status})`, r, right);
}

/** Waits (drain + poll, 10 s) for a first verification result; skips when none comes. */
async function verifiedOnce(ctx: Parameters<Check['run']>[0], api: import('../../../harness/ground/api-client.ts').ApiClient, id: string): Promise<string> {
  const t0 = Date.now();
  const until = t0 + 10_000;
  for (;;) {
    await drainAll(control(ctx), 2000, api.organizationId).catch(() => false);
    const v = await api.get(`/v1/accounts/${id}/verification`);
    if (typeof v.body?.lastVerifiedAt === 'string' && v.body.lastVerifiedAt) return v.body.lastVerifiedAt;
    if (Date.now() > until) skip('no verification result (lastVerifiedAt) appeared within 10 s for a new mailbox');
    // Growing pauses: a target still verifying is drained a few times in the wait, not every 200 ms.
    await new Promise((r) => setTimeout(r, pollPauseMs(Date.now() - t0)));
  }
}

/** The lastVerifiedAt of a verification later than `after`, or undefined after 10 s. */
async function verifiedAfter(ctx: Parameters<Check['run']>[0], api: import('../../../harness/ground/api-client.ts').ApiClient, id: string, after: string): Promise<string | undefined> {
  const t0 = Date.now();
  const until = t0 + 10_000;
  for (;;) {
    await drainAll(control(ctx), 2000, api.organizationId).catch(() => false);
    const v = await api.get(`/v1/accounts/${id}/verification`);
    const at = v.body?.lastVerifiedAt;
    if (typeof at === 'string' && Date.parse(at) > Date.parse(after)) return at;
    if (Date.now() > until) return undefined;
    await new Promise((r) => setTimeout(r, pollPauseMs(Date.now() - t0)));
  }
}
