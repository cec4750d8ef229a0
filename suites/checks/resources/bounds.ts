import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { expectThat, is2xx, msg } from '../../lib/expect.ts';
import { faker } from '../../lib/recipes.ts';
import { ACCOUNT_INPUT_BOUNDS, AUTOMATION_LANGUAGES, type FieldBound } from '../../../harness/ground/spec-model/schemas/index.ts';
import { addressOfLength, expectAllCreated, expectElementRejected, fc, hostOfLength, mbx, property } from './lib.ts';

// Every bound of 2.2 and part 8 (field lengths, ranges, required fields, types), generated from
// ACCOUNT_INPUT_BOUNDS: min, max, min-1, max+1 for numbers; max and max+1 length for strings;
// fast-check for wrong types, numbers, enums and unicode (seeded with ctx.seed).

type Field = keyof typeof ACCOUNT_INPUT_BOUNDS;
const FIELDS = Object.keys(ACCOUNT_INPUT_BOUNDS) as Field[];

/** Clause key of a 2.2 field (clauses part2.ts: ACCT-IN-<KEY>-...). */
const KEY: Record<Field, string> = {
  emailAddress: 'EMAIL', firstName: 'FIRSTNAME', lastName: 'LASTNAME', displayName: 'DISPLAYNAME', smtpHost: 'SMTPHOST',
  smtpPort: 'SMTPPORT', smtpUsername: 'SMTPUSERNAME', smtpPassword: 'SMTPPASSWORD', imapHost: 'IMAPHOST', imapPort: 'IMAPPORT',
  imapUsername: 'IMAPUSERNAME', imapPassword: 'IMAPPASSWORD', imapAllowInvalidCert: 'IMAPALLOWINVALIDCERT',
  maxEmailsPerDay: 'MAXEMAILSPERDAY', sendingGapMinutes: 'SENDINGGAP', campaignSlowRamp: 'SLOWRAMP', signature: 'SIGNATURE',
  bcc: 'BCC', replyToAddress: 'REPLYTO', automationLanguage: 'AUTOLANG', tracking: 'TRACKING', warmup: 'WARMUP',
};

/** A valid string of exactly `n` characters for this field. */
function stringOfLength(ctx: CheckContext, field: Field, b: FieldBound, n: number): string {
  if (b.type === 'string' && b.format === 'email') return addressOfLength(ctx, n);
  if (field === 'smtpHost' || field === 'imapHost') return hostOfLength(n);
  const token = faker(ctx).string.alphanumeric({ length: n });
  return token;
}

/** Fields whose value the created mailbox reports back at the same place. */
function reported(m: any, field: Field): unknown {
  switch (field) {
    case 'smtpHost': return m.smtp?.host;
    case 'smtpPort': return m.smtp?.port;
    case 'smtpUsername': return m.smtp?.username;
    case 'imapHost': return m.imap?.host;
    case 'imapPort': return m.imap?.port;
    case 'imapUsername': return m.imap?.username;
    case 'smtpPassword':
    case 'imapPassword': return undefined; // never returned
    default: return m[field];
  }
}

/** The IMAP fields 2.2 requires: the create input has no "IMAP optional" form (imap null is for mailboxes connected otherwise). */
const IMAP_REQUIRED: readonly Field[] = ['imapHost', 'imapPort', 'imapUsername', 'imapPassword'];

function requiredCheck(field: Field): Check {
  const imap = IMAP_REQUIRED.includes(field);
  return {
    id: `ACCT-IN-REQUIRED/${field}`,
    title: `MUST reject a mailbox element without ${field} (required, 2.2)${imap ? ', also when no imap* field is sent at all' : ''}`,
    clauses: [`ACCT-IN-${KEY[field]}-REQUIRED`],
    level: 'MUST',
    features: [],
    budget: imap ? 2 : 1,
    async run(ctx) {
      const ws = await ctx.workspace();
      const el = mbx(ctx) as Record<string, unknown>;
      delete el[field];
      expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [el] }), ctx, `POST /v1/accounts with an element without ${field}`);
      if (!imap) return;
      // A reading of IMAP as optional as a whole group (imap null) still misses the required field.
      const none = mbx(ctx) as Record<string, unknown>;
      for (const k of Object.keys(none)) if (k.startsWith('imap')) delete none[k];
      expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [none] }), ctx, `POST /v1/accounts with an element without any imap* field`);
    },
  };
}

function rangeCheck(field: Field, b: Extract<FieldBound, { type: 'number' }>): Check {
  const min = b.min!;
  const max = b.max!;
  return {
    id: `ACCT-IN-RANGE/${field}`,
    title: `MUST accept ${field} ${min} and ${max} and reject ${min - 1} and ${max + 1}`,
    // Every element sends the field: whether it is required or optional is held by ACCT-IN-REQUIRED/* and ACCT-CREATE/defaults.
    clauses: [`ACCT-IN-${KEY[field]}-RANGE`],
    level: 'MUST',
    features: [],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const res = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { [field]: min }), mbx(ctx, { [field]: max })] });
      const created = expectAllCreated(res, 2, `POST /v1/accounts with ${field} ${min} and ${max}`);
      const got = created.map((m) => reported(m, field));
      expectThat(got[0] === min && got[1] === max, msg`${field} must be stored as given (${min}, ${max}), got ${JSON.stringify(got)}`, res);
      for (const v of [min - 1, max + 1]) {
        expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { [field]: v })] }), ctx, `POST /v1/accounts with ${field} ${v}`);
      }
    },
  };
}

/** Fields whose values may be any text (not a host or an address): their bound is also asked in a non-ASCII value. */
const FREE_TEXT: ReadonlySet<Field> = new Set(['firstName', 'lastName', 'displayName', 'smtpUsername', 'smtpPassword', 'imapUsername', 'imapPassword']);
/** One character, two UTF-8 bytes: a value of it tells characters from bytes. */
const WIDE = 'é';

/**
 * A free-text value at the bound written in WIDE, counted as the profile declares
 * (declarations.lengthUnit; the spec does not say what a character is): none when undeclared.
 */
function wideAtMax(ctx: CheckContext, field: Field, max: number): string | undefined {
  const unit = ctx.profile.declarations.lengthUnit;
  if (!unit || !FREE_TEXT.has(field)) return undefined;
  return WIDE.repeat(unit === 'bytes' ? Math.floor(max / Buffer.byteLength(WIDE)) : max);
}

function lengthCheck(field: Field, b: Extract<FieldBound, { type: 'string' }>): Check {
  const max = b.maxLength!;
  return {
    id: `ACCT-IN-MAXLEN/${field}`,
    title: `MUST accept ${field} of ${max} characters and reject ${max + 1} (a free-text field also at ${max} in a non-ASCII value, counted as the profile declares)`,
    clauses: [`ACCT-IN-${KEY[field]}-MAX${max}`],
    level: 'MUST',
    features: [],
    budget: 2,
    async run(ctx) {
      const ws = await ctx.workspace();
      const atMax = stringOfLength(ctx, field, b, max);
      const wide = wideAtMax(ctx, field, max);
      const values = wide === undefined ? [atMax] : [atMax, wide];
      const res = await ws.api.post('/v1/accounts', { accounts: values.map((v) => mbx(ctx, { [field]: v })) });
      const created = expectAllCreated(res, values.length, `POST /v1/accounts with ${field} of ${max} characters${wide ? ` (and ${wide.length} × "${WIDE}", ${ctx.profile.declarations.lengthUnit} declared)` : ''}`);
      for (const [i, m] of created.entries()) {
        const r = reported(m, field);
        if (r !== undefined) expectThat(typeof r === 'string' && r.toLowerCase() === values[i]!.toLowerCase(), msg`${field} of ${values[i]!.length} characters must be stored whole, got ${JSON.stringify(r).slice(0, 80)}... (${String(r).length} chars)`, res);
      }
      const over = stringOfLength(ctx, field, b, max + 1);
      expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { [field]: over })] }), ctx, `POST /v1/accounts with ${field} of ${max + 1} characters`);
    },
  };
}

/** A value of another type than the field's. */
function wrongTypeArb(b: FieldBound): fc.Arbitrary<unknown> {
  const num = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  const str = fc.string({ maxLength: 12 });
  const others = [fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 })];
  switch (b.type) {
    case 'string': return fc.oneof(num, ...others);
    case 'number': return fc.oneof(str.map((s) => `${s}x`), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }));
    case 'boolean': return fc.oneof(num, str, fc.constant(null), fc.array(fc.boolean(), { maxLength: 2 }), fc.constantFrom('true', 'false', 'yes'));
    case 'enum': return fc.oneof(num, fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }));
    case 'object': return fc.oneof(num, str, fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }));
  }
}

const typesCheck: Check = {
  id: 'ACCT-IN-TYPES/fast-check',
  title: 'MUST reject a mailbox element whose field has a value of another type (fast-check over every field of 2.2)',
  clauses: ['ACCT-IN-TYPES'],
  level: 'MUST',
  depth: 'default',
  features: [],
  budget: 40,
  async run(ctx) {
    const ws = await ctx.workspace();
    const arb = fc.constantFrom(...FIELDS).chain((field) => {
      const b = ACCOUNT_INPUT_BOUNDS[field] as FieldBound;
      // null for an optional field may mean "unset": only required fields get null.
      const wrong = wrongTypeArb(b).filter((v) => !(v === null && !b.required));
      return wrong.map((value) => ({ field, value }));
    });
    await property(ctx, arb, async ({ field, value }) => {
      const res = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { [field]: value })] });
      expectElementRejected(res, ctx, `POST /v1/accounts with ${field} = ${JSON.stringify(value)}`);
    }, { default: 8, full: 40 });
  },
};

const numbersFuzz: Check = {
  id: 'ACCT-IN-RANGE/fast-check',
  title: 'MUST accept every whole number within the ranges of 2.2 and reject every one outside (fast-check)',
  clauses: ['ACCT-IN-SMTPPORT-RANGE', 'ACCT-IN-IMAPPORT-RANGE', 'ACCT-IN-MAXEMAILSPERDAY-RANGE', 'ACCT-IN-SENDINGGAP-RANGE'],
  level: 'MUST',
  depth: 'default',
  features: [],
  budget: 40,
  async run(ctx) {
    const ws = await ctx.workspace();
    const numeric = FIELDS.filter((f) => ACCOUNT_INPUT_BOUNDS[f].type === 'number');
    const arb = fc.constantFrom(...numeric).chain((field) => {
      const b = ACCOUNT_INPUT_BOUNDS[field] as Extract<FieldBound, { type: 'number' }>;
      return fc.oneof(fc.integer({ min: b.min!, max: b.max! }), fc.integer({ min: -1_000_000, max: b.min! - 1 }), fc.integer({ min: b.max! + 1, max: 10_000_000 }))
        .map((value) => ({ field, value, ok: value >= b.min! && value <= b.max! }));
    });
    await property(ctx, arb, async ({ field, value, ok }) => {
      const res = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { [field]: value })] });
      if (ok) {
        const [m] = expectAllCreated(res, 1, `POST /v1/accounts with ${field} ${value} (within range)`);
        expectThat(reported(m, field) === value, msg`${field} ${value} was stored as ${JSON.stringify(reported(m, field))}`, res);
      } else expectElementRejected(res, ctx, `POST /v1/accounts with ${field} ${value} (out of range)`);
    }, { default: 8, full: 40 });
  },
};

const enumCheck: Check = {
  id: 'ACCT-IN-ENUM/automationLanguage',
  title: 'MUST accept each of the 30 automationLanguage values and reject any other value (fast-check)',
  clauses: ['ACCT-IN-AUTOLANG-ENUM', 'ACCT-AUTOLANG-ENUM'],
  level: 'MUST',
  depth: 'default',
  features: [],
  budget: 32,
  async run(ctx) {
    const ws = await ctx.workspace();
    const res = await ws.api.post('/v1/accounts', { accounts: AUTOMATION_LANGUAGES.map((l) => mbx(ctx, { automationLanguage: l })) });
    const created = expectAllCreated(res, AUTOMATION_LANGUAGES.length, 'POST /v1/accounts with one mailbox per automationLanguage value');
    const wrong = created.filter((m, i) => m.automationLanguage !== AUTOMATION_LANGUAGES[i]);
    expectThat(wrong.length === 0, msg`automationLanguage not stored as given: ${wrong.map((m) => m.automationLanguage).join(', ')}`, res);
    const values = new Set<string>(AUTOMATION_LANGUAGES);
    const arb = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom('EN', 'en-US', 'english', 'xx', 'jp', 'cn', ' en'))
      .filter((s) => !values.has(s));
    await property(ctx, arb, async (value) => {
      expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { automationLanguage: value })] }), ctx, `POST /v1/accounts with automationLanguage ${JSON.stringify(value)}`);
    }, { default: 4, full: 30 });
  },
};

/**
 * One value of another type than 2.2's table for each field, as a lenient parser takes it: a
 * number or boolean written as a string, a string field given a number, an object field a scalar.
 */
const TYPE_SLIPS: readonly (readonly [string, unknown])[] = [
  ['smtpPort', '587'], ['imapPort', '993'], ['maxEmailsPerDay', '50'], ['sendingGapMinutes', '10'],
  ['campaignSlowRamp', 'true'], ['imapAllowInvalidCert', 'true'],
  ['firstName', 42], ['lastName', 42], ['displayName', 42], ['smtpHost', 42], ['smtpUsername', 42], ['smtpPassword', 12345678],
  ['imapHost', 42], ['imapUsername', 42], ['imapPassword', 12345678], ['signature', 42], ['bcc', 42], ['replyToAddress', 42],
  ['automationLanguage', 1], ['tracking', 'x'], ['warmup', true],
];

// What a lenient parser takes, every time (the fast-checks above draw such values only by chance).
// Elements are validated independently (4.2), so one batch holds every field's slip: each element
// must be reported in errors and none created. A target refusing such a batch as a whole (400) is
// asked field by field instead, each element alone.
const typeStringsCheck: Check = {
  id: 'ACCT-IN-TYPES/strings',
  title: 'MUST reject a mailbox element with any field of another type than 2.2 gives ("587", "true", a name 42, warmup true)',
  clauses: ['ACCT-IN-TYPES'],
  level: 'MUST',
  features: [],
  budget: 1 + TYPE_SLIPS.length,
  async run(ctx) {
    const ws = await ctx.workspace();
    const what = ([field, value]: readonly [string, unknown]) => `${field} = ${JSON.stringify(value)}`;
    const elements = TYPE_SLIPS.map(([field, value]) => mbx(ctx, { [field]: value }));
    const res = await ws.api.post('/v1/accounts', { accounts: elements });
    if (res.status === 400) {
      for (const slip of TYPE_SLIPS) expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { [slip[0]]: slip[1] })] }), ctx, `POST /v1/accounts with ${what(slip)} (another type)`);
      return;
    }
    expectThat(is2xx(res), msg`POST /v1/accounts with ${TYPE_SLIPS.length} elements, each with one field of another type: expected 400 validation_failed or a success with every element in errors, got ${res.status}`, res);
    const b = res.body ?? {};
    const created = Array.isArray(b.accounts) ? b.accounts : [];
    const taken = TYPE_SLIPS.filter((_, i) => created.some((m: any) => m?.emailAddress === elements[i]!.emailAddress));
    expectThat(created.length === 0, msg`elements with a field of another type were created (${created.length}): ${taken.map(what).join(', ') || JSON.stringify(created.map((m: any) => m?.emailAddress))}`, res);
    expectThat(Array.isArray(b.errors) && b.errors.length === TYPE_SLIPS.length && b.summary?.failed === TYPE_SLIPS.length && b.summary?.created === 0,
      msg`each of the ${TYPE_SLIPS.length} elements must be reported in errors and counted as failed, got errors ${Array.isArray(b.errors) ? b.errors.length : JSON.stringify(b.errors)}, summary ${JSON.stringify(b.summary)}`, res);
  },
};

/**
 * Values off 2.1's list a validator of its own takes: another case, an ISO 639-1 code 2.1 does not
 * list (a validator of the whole standard), and Hebrew's withdrawn code (a library's older list).
 */
const OFF_LIST_LANGUAGES = ['EN', 'sw', 'iw'] as const;

// One batch (elements are validated independently, 4.2): each of the 30 values of 2.1 is created
// and each value off the list refused. A target refusing such a batch whole (400) is asked the 30
// in one batch and each value off the list alone.
const enumCaseCheck: Check = {
  id: 'ACCT-IN-ENUM/automationLanguage-case',
  title: 'MUST accept each of the 30 automationLanguage codes of 2.1 and reject a value off the list: another case ("EN"), an ISO 639-1 code 2.1 does not list ("sw"), a withdrawn code ("iw")',
  clauses: ['ACCT-IN-AUTOLANG-ENUM'],
  level: 'MUST',
  features: [],
  budget: 1 + 1 + OFF_LIST_LANGUAGES.length,
  async run(ctx) {
    const ws = await ctx.workspace();
    const valid = AUTOMATION_LANGUAGES.map((l) => mbx(ctx, { automationLanguage: l }));
    const off = OFF_LIST_LANGUAGES.map((l) => mbx(ctx, { automationLanguage: l }));
    const what = `POST /v1/accounts with one element per automationLanguage of 2.1 and one each with ${OFF_LIST_LANGUAGES.map((l) => JSON.stringify(l)).join(', ')}`;
    const res = await ws.api.post('/v1/accounts', { accounts: [...valid, ...off] });
    if (res.status === 400) {
      expectAllCreated(await ws.api.post('/v1/accounts', { accounts: valid }), valid.length, 'POST /v1/accounts with one mailbox per automationLanguage value of 2.1');
      for (const l of OFF_LIST_LANGUAGES) expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { automationLanguage: l })] }), ctx, `POST /v1/accounts with automationLanguage ${JSON.stringify(l)}`);
      return;
    }
    expectThat(is2xx(res), msg`${what}: expected 201 with the values off the list in errors (or 400), got ${res.status}`, res);
    const created = new Set<string>((Array.isArray(res.body?.accounts) ? res.body.accounts : []).map((m: any) => String(m?.emailAddress).toLowerCase()));
    const refused = AUTOMATION_LANGUAGES.filter((_, i) => !created.has(valid[i]!.emailAddress.toLowerCase()));
    const taken = OFF_LIST_LANGUAGES.filter((_, i) => created.has(off[i]!.emailAddress.toLowerCase()));
    expectThat(refused.length === 0, msg`${what}: every value of 2.1 must be accepted, these were refused: ${refused.join(', ')}; errors ${JSON.stringify(res.body?.errors)?.slice(0, 300)}`, res);
    expectThat(taken.length === 0, msg`${what}: values off the list of 2.1 must be refused, these were created: ${taken.map((l) => JSON.stringify(l)).join(', ')}`, res);
    expectThat(Array.isArray(res.body?.errors) && res.body.errors.length === off.length, msg`${what}: the ${off.length} values off the list must be reported in errors, got ${JSON.stringify(res.body?.errors)?.slice(0, 300)}`, res);
  },
};

const unicodeCheck: Check = {
  id: 'ACCT-IN-UNICODE/fast-check',
  title: 'SHOULD accept any unicode names within 128 characters and store them as given (fast-check)',
  clauses: ['ACCT-CREATE-ECHO'],
  level: 'SHOULD',
  depth: 'default',
  features: [],
  budget: 30,
  async run(ctx) {
    const ws = await ctx.workspace();
    // Within 128 as the profile counts (declarations.lengthUnit: UTF-8 bytes, else characters).
    const fits = (s: string) => (ctx.profile.declarations.lengthUnit === 'bytes' ? Buffer.byteLength(s, 'utf8') : s.length) <= 128;
    const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }).filter((s) => s.trim() === s && fits(s) && s.trim().length > 0);
    await property(ctx, fc.record({ firstName: name, lastName: name, displayName: name }), async (names) => {
      const res = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, names)] });
      const [m] = expectAllCreated(res, 1, `POST /v1/accounts with names ${JSON.stringify(names)}`);
      const diff = (Object.keys(names) as (keyof typeof names)[]).filter((k) => m[k] !== names[k]);
      expectThat(diff.length === 0, msg`names were not stored as given: ${diff.map((k) => `${k} ${JSON.stringify(names[k])} -> ${JSON.stringify(m[k])}`).join('; ')}`, res);
    }, { default: 5, full: 30 });
  },
};

const integerCheck: Check = {
  id: 'ACCT-IN-INTEGER',
  title: 'SHOULD reject fractional ports and counts (587.5, 10.5)',
  clauses: ['ACCT-IN-PORT-INTEGER', 'ACCT-IN-COUNTS-INTEGER'],
  level: 'SHOULD',
  features: [],
  budget: 4,
  async run(ctx) {
    const ws = await ctx.workspace();
    for (const [field, v] of [['smtpPort', 587.5], ['imapPort', 993.5], ['maxEmailsPerDay', 10.5], ['sendingGapMinutes', 2.5]] as const) {
      expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { [field]: v })] }), ctx, `POST /v1/accounts with ${field} ${v}`);
    }
  },
};

const formatCheck: Check = {
  id: 'ACCT-IN-FORMAT',
  title: 'SHOULD reject emailAddress, bcc and replyToAddress values that are not email addresses',
  clauses: ['ACCT-IN-EMAIL-FORMAT', 'ACCT-IN-BCC-FORMAT', 'ACCT-IN-REPLYTO-FORMAT'],
  level: 'SHOULD',
  features: [],
  budget: 16,
  async run(ctx) {
    const ws = await ctx.workspace();
    // No @, no domain, no local part, a space in the local part, two @: none is an email address.
    const values = [`${ctx.prefix}not-an-address`, `${ctx.prefix}a@`, `@${ctx.prefix}x.test`, `${ctx.prefix}a b@example.test`, `${ctx.prefix}a@@example.test`];
    const cases = ['emailAddress', 'bcc', 'replyToAddress'].flatMap((field) => values.map((value) => ({ field, value })));
    // 4.2: each element is validated independently, so one batch tells each value's fate; a target
    // that refuses a whole batch (400) is asked one element at a time instead.
    const batch = await ws.api.post('/v1/accounts', { accounts: cases.map(({ field, value }) => mbx(ctx, { [field]: value })) });
    if (batch.status !== 400) {
      const b = batch.body ?? {};
      const created = (Array.isArray(b.accounts) ? b.accounts : []).map((a: any) => JSON.stringify({ emailAddress: a.emailAddress, bcc: a.bcc, replyToAddress: a.replyToAddress }));
      expectThat(is2xx(batch) && created.length === 0 && b.summary?.failed === cases.length, msg`POST /v1/accounts with ${cases.length} elements, each with one value that is no email address (${values.map((v) => JSON.stringify(v)).join(', ')} in emailAddress, bcc or replyToAddress): each must be refused, got ${batch.status} with ${created.length} created: ${created.slice(0, 4).join('; ')}`, batch);
      return;
    }
    for (const { field, value } of cases) expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { [field]: value })] }), ctx, `POST /v1/accounts with ${field} ${JSON.stringify(value)}`);
  },
};

const trackingCheck: Check = {
  id: 'ACCT-IN-TRACKING',
  title: 'MUST reject a tracking object whose domainId is not a uuid',
  clauses: ['ACCT-IN-TRACKING-DOMAINID'],
  level: 'MUST',
  features: [],
  budget: 2,
  async run(ctx) {
    const ws = await ctx.workspace();
    for (const tracking of [{ domainId: 'not-a-uuid' }, { domainId: 42 }]) {
      expectElementRejected(await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { tracking })] }), ctx, `POST /v1/accounts with tracking ${JSON.stringify(tracking)}`);
    }
  },
};

export const BOUND_CHECKS: Check[] = [
  ...FIELDS.filter((f) => ACCOUNT_INPUT_BOUNDS[f].required).map(requiredCheck),
  ...FIELDS.filter((f) => ACCOUNT_INPUT_BOUNDS[f].type === 'number').map((f) => rangeCheck(f, ACCOUNT_INPUT_BOUNDS[f] as Extract<FieldBound, { type: 'number' }>)),
  ...FIELDS.filter((f) => ACCOUNT_INPUT_BOUNDS[f].type === 'string' && (ACCOUNT_INPUT_BOUNDS[f] as { maxLength?: number }).maxLength !== undefined)
    .map((f) => lengthCheck(f, ACCOUNT_INPUT_BOUNDS[f] as Extract<FieldBound, { type: 'string' }>)),
  typesCheck,
  typeStringsCheck,
  enumCaseCheck,
  numbersFuzz,
  enumCheck,
  unicodeCheck,
  integerCheck,
  formatCheck,
  trackingCheck,
];
