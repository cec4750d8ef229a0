import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { z } from 'zod';
import type { ApiRequest } from '../../../harness/ground/api-client.ts';
import type { Profile } from '../../../harness/ground/profile-schema.ts';
import { ENDPOINTS, label, type Endpoint } from '../../../harness/ground/spec-model/endpoints.ts';
import { accountCreateInput, accountPatchBody, campaignCreateBody, campaignPatchBody, leadPatchBody, mutateBody, testEmailBody } from '../../../harness/ground/spec-model/schemas/index.ts';
import { fieldsOf, isScalar, type FieldInfo } from './fields.ts';

// Hostile requests for every endpoint of the catalog, as fast-check arbitraries: wrong types,
// missing and extra fields, huge strings, deep nesting, unicode edge cases, prototype keys,
// numbers out of range, non-integers, NaN-like values, invalid and traversing path ids, hostile
// query parameters. Each case says what the spec orders for it:
// - 'refuse': the body or a parameter is invalid (part 7: 400 validation_failed); any 4xx in the
//   envelope is accepted (a target may find the id absent first, or answer 413/415);
// - 'no-5xx': the input may be valid (an extra field, a rare but legal character): any answer
//   but a 5xx, and an error in the envelope;
// - 'element-refused': an invalid element of a mailbox batch (4.2: each element is validated
//   independently): a 4xx, or a 2xx that creates nothing and reports the element in `errors`.

export type Expectation = 'refuse' | 'no-5xx' | 'element-refused';

export interface HostileCase {
  /** Short, printable: never the hostile value itself when it is large. */
  what: string;
  expect: Expectation;
  req: ApiRequest;
}

/** One endpoint made ready for hostile input: its path parameters and a valid-looking body. */
export interface Target {
  ep: Endpoint;
  label: string;
  method: ApiRequest['method'];
  template: string;
  params: Record<string, string>;
  /** A body the endpoint would accept but for the hostile part (absent: the endpoint takes none). */
  base?: Record<string, unknown>;
  /** Where the schema's fields sit in the body (['accounts', '0'] for POST /v1/accounts). */
  at: string[];
  fields: FieldInfo[];
}

/** Fields the base body's request does not use: a bad value there may be ignored (set_status takes no tags). */
const UNUSED: Record<string, string[]> = { 'leads.mutate': ['tags'] };

export const ONE_MB = 1024 * 1024;
export const DEEP = 10_000;
const MARK = '\u0000hostile\u0000';

/** The body schema of each endpoint that takes one (the spec model's zod schemas). */
function bodySchema(ep: Endpoint, profile: Profile): { schema: z.ZodType; at: string[] } | undefined {
  switch (ep.id) {
    case 'accounts.create': return { schema: accountCreateInput, at: ['accounts', '0'] };
    case 'accounts.update': return { schema: accountPatchBody, at: [] };
    case 'campaigns.create': return { schema: campaignCreateBody, at: [] };
    case 'campaigns.update': return { schema: campaignPatchBody, at: [] };
    case 'campaigns.testEmail': return { schema: testEmailBody, at: [] };
    case 'leads.update': return { schema: leadPatchBody, at: [] };
    case 'leads.mutate': return { schema: mutateBody(profile.names.mutate), at: [] };
    default: return undefined;
  }
}

export interface Fixtures {
  campaignId: string;
  /** A lead of that campaign and a mailbox of the workspace, when the target lets the kit find them. */
  leadId?: string;
  mailboxId?: string;
  mailbox: () => Record<string, unknown>;
  campaign: () => Record<string, unknown>;
}

function baseBody(ep: Endpoint, profile: Profile, prefix: string, fx: Fixtures): Record<string, unknown> | undefined {
  const m = profile.names.mutate;
  switch (ep.id) {
    case 'accounts.create': return { accounts: [fx.mailbox()] };
    case 'accounts.update': return { firstName: 'Robust' };
    case 'campaigns.create': return fx.campaign();
    case 'campaigns.update': return { name: `${prefix}robust` };
    case 'campaigns.testEmail': return { variantId: randomUUID(), accountId: randomUUID(), recipient: 'robust@example.test', personalization: 'dummy' };
    case 'leads.update': return { firstName: 'Robust' };
    case 'leads.mutate': return { [m.operation]: 'set_status', ids: [randomUUID()], [m.status]: 'lead_lost' };
    default: {
      const op = ep.referenced ? profile.operations[ep.referenced] : undefined;
      const method = op?.method ?? ep.method;
      if (method === 'GET' || method === 'DELETE') return undefined;
      if (ep.id === 'apikeys.create' && op) return { [op.fields?.name ?? 'name']: `${prefix}robust`, [op.fields?.scopes ?? 'scopes']: ['campaigns:read'] };
      return {};
    }
  }
}

/** Real ids where the kit has them (hostile bodies must reach the validation of a real resource). */
function paramFor(name: string, template: string, fx: Fixtures): string {
  if (name === 'provider') return 'google';
  if (name === 'limitType') return 'monthly_emails';
  if (name === 'cid' || (name === 'id' && template.startsWith('/v1/campaigns/'))) return fx.campaignId;
  if (name === 'leadId' && fx.leadId) return fx.leadId;
  if (name === 'id' && template.startsWith('/v1/accounts/') && fx.mailboxId) return fx.mailboxId;
  return randomUUID();
}

/** The hostile targets of the catalog (referenced operations the profile does not declare are left out). */
export function targets(profile: Profile, prefix: string, fx: Fixtures): Target[] {
  const out: Target[] = [];
  for (const ep of ENDPOINTS) {
    const op = ep.referenced ? profile.operations[ep.referenced] : undefined;
    const template = ep.path ?? op?.path;
    if (!template) continue;
    const params: Record<string, string> = {};
    for (const [, name] of template.matchAll(/\{(\w+)\}/g)) {
      params[name!] = paramFor(name!, template, fx);
    }
    const s = bodySchema(ep, profile);
    out.push({
      ep, label: label(ep), method: (op?.method ?? ep.method) as ApiRequest['method'], template, params,
      base: baseBody(ep, profile, prefix, fx), at: s?.at ?? [], fields: s ? fieldsOf(s.schema) : [],
    });
  }
  return out;
}

function fill(template: string, params: Record<string, string>, raw?: [string, string]): string {
  return template.replace(/\{(\w+)\}/g, (_, n: string) => (raw && raw[0] === n ? raw[1] : encodeURIComponent(params[n]!)));
}

function setAt(body: Record<string, unknown>, path: string[], value: unknown, remove = false): Record<string, unknown> {
  const copy = structuredClone(body);
  let cur: any = copy;
  for (const k of path.slice(0, -1)) {
    if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = {};
    cur = cur[k];
  }
  const last = path[path.length - 1]!;
  if (remove) delete cur[last];
  else cur[last] = value;
  return copy;
}

/** The body as raw JSON with the value at `path` replaced by raw JSON text (deep nesting, NaN...). */
function rawWith(body: Record<string, unknown>, path: string[], rawValue: string): string {
  return JSON.stringify(setAt(body, path, MARK)).replace(JSON.stringify(MARK), rawValue);
}

const deepArrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObjects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

/** Strings that break naive handling: lone surrogates, bidi overrides, NUL, BOM, separators, combining marks. */
export const UNICODE_EDGES: readonly [string, string][] = [
  ['a lone high surrogate', '\ud800'], ['a lone low surrogate', '\udfff'], ['a right-to-left override', '\u202egnp.exe'],
  ['a right-to-left mark', 'abc\u200fdef'], ['NUL', 'a\u0000b'], ['a byte-order mark', '\ufeffbom'], ['line separators', 'a\u2028b\u2029c'],
  ['combining marks', `Z${'\u0336\u0337'.repeat(50)}`], ['astral characters', '\u{1d518}\u{1f600}'], ['CR/LF', 'a\r\nX-Injected: 1'],
];

const WRONG_TYPES: Record<string, [string, unknown][]> = {
  string: [['a number', 12345], ['a boolean', true], ['an array', ['x']], ['an object', { a: 1 }]],
  number: [['a numeric string', '12'], ['a boolean', true], ['an array', [1]], ['an object', { n: 1 }]],
  boolean: [['a string', 'true'], ['a number', 1], ['an array', [true]], ['an object', {}]],
  enum: [['a number', 42], ['an unknown value', 'zz-not-a-value'], ['an array', ['x']]],
  array: [['a string', 'x'], ['a number', 42], ['an object', { a: 1 }]],
  object: [['a string', 'x'], ['a number', 42], ['an array', [1]]],
  record: [['a string', 'x'], ['a number', 42], ['an array', [1]]],
};

interface ValueCase { what: string; expect: Expectation; raw?: string; value?: unknown; remove?: boolean }

function fieldValueCases(f: FieldInfo, prefix: string): ValueCase[] {
  const cases: ValueCase[] = [];
  for (const [what, value] of WRONG_TYPES[f.kind] ?? []) cases.push({ what: `${what} for a ${f.kind}`, expect: 'refuse', value });
  // Required at the top of the body only: whether a field inside an optional object may be left out is the kit's reading.
  if (f.required && f.path.length === 1) cases.push({ what: 'missing (required)', expect: 'refuse', remove: true });
  if (f.kind === 'string') {
    cases.push({ what: `a 1 MB string${f.maxLength ? ` (max ${f.maxLength})` : ''}`, expect: f.maxLength ? 'refuse' : 'no-5xx', value: prefix + 'x'.repeat(ONE_MB) });
    for (const [what, s] of UNICODE_EDGES) cases.push({ what: `a string with ${what}`, expect: 'no-5xx', value: `${prefix}${s}` });
  }
  cases.push({ what: `${DEEP} levels of nested arrays`, expect: isScalar(f) ? 'refuse' : 'no-5xx', raw: deepArrays(DEEP) });
  cases.push({ what: `${DEEP} levels of nested objects`, expect: isScalar(f) ? 'refuse' : 'no-5xx', raw: deepObjects(DEEP) });
  if (f.kind === 'number') {
    for (const [what, raw] of [['NaN', 'NaN'], ['Infinity', 'Infinity'], ['-Infinity', '-Infinity']]) cases.push({ what: `the bare token ${what} (not JSON)`, expect: 'refuse', raw });
    for (const s of ['NaN', 'Infinity', '1e309', '0x10', '']) cases.push({ what: `the string ${JSON.stringify(s)}`, expect: 'refuse', value: s });
    if (f.max !== undefined) cases.push({ what: `${f.max + 1} (max ${f.max})`, expect: 'refuse', value: f.max + 1 }, { what: '1e400 (Infinity once parsed)', expect: 'refuse', raw: '1e400' });
    if (f.min !== undefined) cases.push({ what: `${f.min - 1} (min ${f.min})`, expect: 'refuse', value: f.min - 1 }, { what: '-1e308', expect: 'refuse', value: -1e308 });
    if (f.integer) cases.push({ what: '1.5 (an integer is expected)', expect: 'refuse', value: 1.5 }, { what: `${Number.MAX_SAFE_INTEGER + 2} (past the safe integers)`, expect: f.max !== undefined ? 'refuse' : 'no-5xx', raw: '9007199254740993' });
  }
  if (f.kind === 'object' || f.kind === 'record') {
    cases.push({ what: 'an object with a __proto__ key', expect: 'no-5xx', raw: '{"__proto__":{"polluted":"yes"}}' });
    cases.push({ what: 'an object with constructor.prototype', expect: 'no-5xx', raw: '{"constructor":{"prototype":{"polluted":"yes"}}}' });
  }
  return cases;
}

const BAD_IDS: [string, string][] = [
  ['not a uuid', 'not-a-uuid'], ['a number', '12345'], ['SQL', "'%20OR%20'1'%3D'1"], ['a traversal', '..%2F..%2Fworkspace'],
  ['an encoded NUL', 'a%00b'], ['a 300-character id', 'a'.repeat(300)], ['a uuid with a bad digit', '00000000-0000-0000-0000-00000000000g'],
  ['a right-to-left override', '%E2%80%AEdi'], ['an encoded lone surrogate (not UTF-8)', '%ED%A0%80'], ['a malformed escape', '%E0%A4%A'], ['a uuid plus a suffix', `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}%2F..`],
];

const BAD_PAGE_SIZES: [string, Expectation][] = [['NaN', 'refuse'], ['-1', 'refuse'], ['0', 'refuse'], ['101', 'refuse'], ['1e309', 'refuse'], ['99999999999999999999', 'refuse'], ['50.5', 'no-5xx'], ['%00', 'refuse']];

/** Every hostile case of one target, as an arbitrary (fast-check picks and shrinks among them). */
export function caseArb(t: Target, profile: Profile, prefix: string): fc.Arbitrary<HostileCase> {
  const path = fill(t.template, t.params);
  const req = (extra: Partial<ApiRequest>): ApiRequest => ({ method: t.method, path, ...extra });
  const options: fc.Arbitrary<HostileCase>[] = [];
  const base = t.base;
  if (base && t.fields.length > 0) {
    options.push(
      fc.constantFrom(...t.fields).chain((f) => {
        const p = [...t.at, ...f.path];
        const unused = UNUSED[t.ep.id]?.includes(f.path.join('.'));
        return fc.constantFrom(...fieldValueCases(f, prefix)).map((v): HostileCase => ({
          what: `${t.label} with ${f.path.join('.')} = ${v.what}`,
          expect: unused ? 'no-5xx' : v.expect === 'refuse' && t.at.length > 0 ? 'element-refused' : v.expect,
          req: req({ rawBody: v.raw !== undefined ? rawWith(base, p, v.raw) : JSON.stringify(setAt(base, p, v.value, v.remove)) }),
        }));
      }),
    );
  }
  if (base) {
    const hasSchema = t.fields.length > 0;
    const whole: HostileCase[] = [
      { what: `${t.label} with an extra field`, expect: 'no-5xx', req: req({ body: { ...base, [`${prefix}extra`]: 'x' } }) },
      { what: `${t.label} with a __proto__ key`, expect: 'no-5xx', req: req({ rawBody: `{"__proto__":{"polluted":"yes"},${JSON.stringify(base).slice(1)}`.replace(',}', '}') }) },
      { what: `${t.label} with a constructor.prototype key`, expect: 'no-5xx', req: req({ rawBody: `{"constructor":{"prototype":{"polluted":"yes"}},${JSON.stringify(base).slice(1)}`.replace(',}', '}') }) },
      { what: `${t.label} with a body of ${DEEP} nested arrays`, expect: hasSchema ? 'refuse' : 'no-5xx', req: req({ rawBody: deepArrays(DEEP) }) },
      { what: `${t.label} with a body that is a JSON array`, expect: hasSchema ? 'refuse' : 'no-5xx', req: req({ rawBody: JSON.stringify([base]) }) },
      { what: `${t.label} with a body that is a JSON string`, expect: hasSchema ? 'refuse' : 'no-5xx', req: req({ rawBody: '"robust"' }) },
      { what: `${t.label} with a truncated JSON body`, expect: hasSchema ? 'refuse' : 'no-5xx', req: req({ rawBody: JSON.stringify(base).slice(0, -1) || '{' }) },
      { what: `${t.label} with duplicate keys`, expect: 'no-5xx', req: req({ rawBody: `{"a":1,"a":[2],${JSON.stringify(base).slice(1)}`.replace(',}', '}') }) },
    ];
    options.push(fc.constantFrom(...whole));
  }
  const names = Object.keys(t.params);
  if (names.length > 0) {
    options.push(
      fc.tuple(fc.constantFrom(...names), fc.constantFrom(...BAD_IDS)).map(([n, [what, v]]): HostileCase => ({
        what: `${t.label} with {${n}} = ${what}`,
        expect: 'refuse',
        req: { method: t.method, path: fill(t.template, t.params, [n, v]), ...(base ? { body: base } : {}) },
      })),
    );
  }
  if (t.method === 'GET') {
    const size = profile.names.list.pageSize;
    const q: HostileCase[] = [
      { what: `${t.label} with an unknown query parameter of 4 kB`, expect: 'no-5xx', req: req({ path: `${path}?${prefix}q=${'%F0%9F%98%80'.repeat(340)}` }) },
      { what: `${t.label} with an unknown query parameter holding an encoded NUL`, expect: 'no-5xx', req: req({ path: `${path}?${prefix}q=a%00b` }) },
      { what: `${t.label} with a malformed percent-encoding in the query`, expect: 'no-5xx', req: req({ path: `${path}?${prefix}q=%E0%A4%A` }) },
    ];
    if (t.ep.list) {
      q.push({ what: `${t.label} with the page size given twice (1 and 100)`, expect: 'no-5xx', req: req({ path: `${path}?${size}=1&${size}=100` }) });
      q.push({ what: `${t.label} with the cursor given twice`, expect: 'no-5xx', req: req({ path: `${path}?${profile.names.list.cursor}=x&${profile.names.list.cursor}=y` }) });
      for (const [v, expect] of BAD_PAGE_SIZES) q.push({ what: `${t.label} with page size ${v}`, expect, req: req({ path: `${path}?${size}=${v}` }) });
    }
    options.push(fc.constantFrom(...q));
  }
  return fc.oneof(...options);
}
