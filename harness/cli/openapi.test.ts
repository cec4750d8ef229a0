// `outreach-conformance openapi [--profile FILE]` through the bin: the generic document and a
// vendor's concrete one lint clean under Redocly recommended-strict, two profiles give documents
// that differ exactly where the profiles do, and a bad profile is refused naming the field.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliOk } from './cli.test-helper.ts';
import { ALT_CHOICES, DEFAULT_CHOICES, profileFor } from '../reference/index.ts';
import { expectedProblems, lintStrict } from '../ground/openapi/lint.test-helper.ts';
import { KIT } from '../ground/kit.ts';

// Documents and profiles are read as plain JSON here.
type Json = Record<string, any>;

const CONTROL_TOKEN = 'control-token-never-printed';
const TARGET = { baseUrl: 'http://127.0.0.1:8080', control: { baseUrl: 'http://127.0.0.1:8081', token: CONTROL_TOKEN } };
const DEFAULT_PROFILE = profileFor(DEFAULT_CHOICES, TARGET) as Json;
const ALT_PROFILE = profileFor(ALT_CHOICES, TARGET) as Json;

let dir: string;
let n = 0;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'openapi-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Writes the profile to a file and runs `openapi --profile` on it. */
async function profileFile(profile: unknown): Promise<string> {
  const path = join(dir, `profile-${n++}.json`);
  await writeFile(path, JSON.stringify(profile));
  return path;
}
async function documentFor(profile?: unknown): Promise<{ doc: Json; text: string }> {
  const r = await cliOk(profile === undefined ? ['openapi'] : ['openapi', '--profile', await profileFile(profile)]);
  return { doc: JSON.parse(r.stdout) as Json, text: r.stdout };
}
/** The default profile changed by `edit`. */
function changed(edit: (p: Json) => void): Json {
  const p = structuredClone(DEFAULT_PROFILE);
  edit(p);
  return p;
}

/** Every leaf of a JSON value by its JSON pointer. */
function leaves(value: unknown, at = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) out.set(at, JSON.stringify(value));
    for (const [k, v] of entries) leaves(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  } else out.set(at, JSON.stringify(value));
  return out;
}
/** The pointers at which two documents differ. */
function differences(a: unknown, b: unknown): string[] {
  const [la, lb] = [leaves(a), leaves(b)];
  return [...new Set([...la.keys(), ...lb.keys()])].filter((k) => la.get(k) !== lb.get(k)).sort();
}
const paramNames = (op: Json) => (op.parameters as Json[]).filter((p) => p.in === 'query').map((p) => p.name);
/** Where a document marks the spec's generic reading (the marked objects' pointers). */
const MARK = '/x-outreach-conformance';
const markedPlaces = (doc: unknown) => [...leaves(doc)].filter(([k, v]) => k.endsWith(MARK) && v === '"not-declared"').map(([k]) => k.slice(0, -MARK.length));

describe('openapi', () => {
  it('--help prints its usage, naming --profile', async () => {
    const r = await cliOk(['openapi', '--help']);
    expect(r.stdout).toMatch(/usage:[\s\S]*openapi \[--profile FILE\]/);
  });

  it('without a profile: the generic reading, every open place marked, clean under recommended-strict', async () => {
    const { doc } = await documentFor();
    expect(await lintStrict(doc)).toEqual(expectedProblems(KIT.license));
    const marked = markedPlaces(doc);
    expect(marked).toEqual(expect.arrayContaining([
      '/paths/~1v1~1campaigns/get/parameters/0', // the cursor
      '/paths/~1v1~1campaigns/get/parameters/1', // the page size
      '/paths/~1v1~1campaigns~1{id}~1start/post/responses/2XX',
      '/components/schemas/LeadMutateBody/properties/operation',
      '/components/schemas/CampaignCreateBody',
      '/components/schemas/WarmupInput/properties/strategy',
      '/components/schemas/AccountCreateInput/properties/warmup',
      '/components/responses/ValidationFailed', // the business-rule refusals' code
      '/components/schemas/Schedule/properties/sendingDays/items', // the weekday numbering
    ]));
    expect(doc['x-referenced-operations']).toHaveLength(15);
    expect(doc.paths['/v1/api-keys']).toBeUndefined();
  });

  describe('with the reference default and alternative profiles', () => {
    let def: { doc: Json; text: string };
    let alt: { doc: Json; text: string };
    beforeAll(async () => void ([def, alt] = await Promise.all([documentFor(DEFAULT_PROFILE), documentFor(ALT_PROFILE)])));

    it('each lints clean under recommended-strict, marks only what it leaves open and prints no secret', async () => {
      // Both declare every name, operation and status; neither gives a default for these mailbox fields.
      const open = ['bcc', 'imapAllowInvalidCert', 'signature', 'tracking'].map((f) => `/components/schemas/AccountCreateInput/properties/${f}`);
      for (const { doc, text } of [def, alt]) {
        expect(await lintStrict(doc)).toEqual(expectedProblems(KIT.license));
        expect(markedPlaces(doc).sort()).toEqual(open);
        expect(doc['x-referenced-operations']).toBeUndefined();
        expect(text).not.toContain(CONTROL_TOKEN);
        expect(doc.servers).toEqual([{ url: TARGET.baseUrl, description: 'declared by the profile' }]);
      }
    });

    it("reads as each vendor's API: its parameter names, operation paths and methods, success statuses", () => {
      expect(paramNames(def.doc.paths['/v1/campaigns'].get)).toEqual(['cursor', 'limit', 'status', 'tags']);
      expect(paramNames(alt.doc.paths['/v1/campaigns'].get)).toEqual(['page_token', 'per_page', 'state', 'tag_ids']);
      expect(paramNames(alt.doc.paths['/v1/campaigns/analytics/overview'].get)).toEqual(['from', 'to', 'exclude_ooo']);
      expect(Object.keys(def.doc.paths['/v1/api-keys']).sort()).toEqual(['get', 'post']);
      expect(alt.doc.paths['/v1/api-keys']).toBeUndefined();
      expect(alt.doc.paths['/v1/keys'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('permissions');
      expect(alt.doc.paths['/v1/emails/{id}/read-state'].patch.operationId).toBe('emails.markRead');
      expect(def.doc.paths['/v1/emails/{id}/read'].post.operationId).toBe('emails.markRead');
      expect(paramNames(alt.doc.paths['/v1/inbox'].get)).toEqual(['page_token', 'per_page', 'campaign', 'lead']);
      expect(Object.keys(def.doc.paths['/v1/campaigns'].post.responses)[0]).toBe('201');
      expect(Object.keys(alt.doc.paths['/v1/campaigns'].post.responses)[0]).toBe('200');
      expect(alt.doc.components.schemas.LeadMutateBody.required).toContain('action');
      const [defSchemas, altSchemas] = [def.doc.components.schemas, alt.doc.components.schemas];
      expect([defSchemas.CampaignCreateBody.required, altSchemas.CampaignCreateBody.required]).toEqual([['name'], ['name', 'settings']]);
      expect([defSchemas.AccountCreateInput.properties.maxEmailsPerDay.default, altSchemas.AccountCreateInput.properties.maxEmailsPerDay.default]).toEqual([50, 30]);
      expect(altSchemas.AccountCreateInput.properties.warmup.default).toMatchObject({ enabled: true, strategy: 'gradual' });
      expect(altSchemas.WarmupInput.properties.maxPerDay).toMatchObject({ minimum: 5, maximum: 80 });
      expect([defSchemas.Schedule.properties.sendingDays.items, altSchemas.Schedule.properties.sendingDays.items]).toMatchObject([{ minimum: 0, maximum: 6 }, { minimum: 1, maximum: 7 }]);
    });
  });

  describe('differs exactly where the profiles do', () => {
    let base: Json;
    beforeAll(async () => void ({ doc: base } = await documentFor(DEFAULT_PROFILE)));

    it('a page-size name: only the page-size parameters of the list operations', async () => {
      const { doc } = await documentFor(changed((p) => (p.names.list.pageSize = 'per_page')));
      const expected = [...leaves(base)].filter(([k, v]) => k.endsWith('/name') && v === '"limit"').map(([k]) => k);
      expect(expected.length).toBe(6); // campaigns, lead searches, and the listings of keys, mailboxes, leads, emails
      expect(differences(base, doc)).toEqual(expected.sort());
    });

    it("a referenced operation's path: only that operation moves", async () => {
      const { doc } = await documentFor(changed((p) => (p.operations['campaigns.pause'].path = '/v1/campaigns/{id}/hold')));
      const moved = differences(base, doc).map((k) => k.split('/').slice(0, 3).join('/'));
      expect([...new Set(moved)]).toEqual(['/paths/~1v1~1campaigns~1{id}~1hold', '/paths/~1v1~1campaigns~1{id}~1pause']);
      const [was, now] = [base.paths['/v1/campaigns/{id}/pause'].post, doc.paths['/v1/campaigns/{id}/hold'].post];
      expect({ ...now, summary: was.summary }).toEqual(was);
    });

    it("an operation's success status: only that response", async () => {
      const { doc } = await documentFor(changed((p) => (p.declarations.successStatus['campaigns.create'] = 200)));
      const areas = new Set(differences(base, doc).map((k) => k.split('/').slice(0, 6).join('/')));
      expect([...areas].sort()).toEqual(['/paths/~1v1~1campaigns/post/responses/200', '/paths/~1v1~1campaigns/post/responses/201']);
    });

    it("a warmup field's bounds: only that field's minimum and maximum", async () => {
      const { doc } = await documentFor(changed((p) => (p.declarations.warmupBounds.maxPerDay = { min: 2, max: 150 })));
      const at = '/components/schemas/WarmupInput/properties/maxPerDay';
      expect(differences(base, doc)).toEqual([`${at}/maximum`, `${at}/minimum`]);
    });

    it('the business-rule error code: only the 400 answer', async () => {
      const { doc } = await documentFor(changed((p) => (p.names.businessRuleErrorCode = 'invalid_state')));
      expect(differences(base, doc)).toEqual(['/components/responses/ValidationFailed/description']);
    });

    it('what a profile leaves undeclared keeps the generic reading, marked, and still lints clean', async () => {
      const { doc } = await documentFor(
        changed((p) => {
          delete p.names.oauthStatusStateParam;
          delete p.operations['emails.list'];
          delete p.declarations.successStatus;
          delete p.declarations.mailboxDefaults;
        }),
      );
      expect(await lintStrict(doc)).toEqual(expectedProblems(KIT.license));
      const state = doc.paths['/v1/accounts/oauth/{provider}/status'].get.parameters.find((p: Json) => p.in === 'query');
      expect(state).toMatchObject({ name: 'state', 'x-outreach-conformance': 'not-declared' });
      expect(doc['x-referenced-operations']).toEqual([{ id: 'emails.list', shape: 'not shown', 'x-outreach-conformance': 'not-declared' }]);
      expect(doc.paths['/v1/emails']).toBeUndefined();
      expect(doc.paths['/v1/campaigns'].post.responses['2XX']['x-outreach-conformance']).toBe('not-declared');
      expect(Object.keys(doc.paths['/v1/accounts'].post.responses)).toContain('201'); // the spec states it
      expect(doc.components.schemas.AccountCreateInput.properties.maxEmailsPerDay).not.toHaveProperty('default');
      expect(markedPlaces(doc)).toContain('/components/schemas/AccountCreateInput/properties/maxEmailsPerDay');
    });
  });

  describe('refuses with exit 2, naming what is wrong', () => {
    it('a profile that cannot be read', async () => {
      const r = await cli(['openapi', '--profile', join(dir, 'absent.json')]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain('cannot read profile');
    });
    it('an invalid profile', async () => {
      const r = await cli(['openapi', '--profile', await profileFile(changed((p) => delete p.names.list.cursor))]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain('names.list.cursor');
    });
    it("a referenced operation declared on a spec endpoint's method and path", async () => {
      const r = await cli(['openapi', '--profile', await profileFile(changed((p) => (p.operations['accounts.get'] = { method: 'PATCH', path: '/v1/accounts/{accountId}' })))]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(/operations\.accounts\.get: PATCH \/v1\/accounts\/\{accountId\} is already accounts\.update/);
    });
    it('two referenced operations declared on one method and path', async () => {
      const r = await cli(['openapi', '--profile', await profileFile(changed((p) => (p.operations['leads.list'] = { method: 'GET', path: '/v1/accounts', list: true })))]);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain('operations.leads.list: GET /v1/accounts is already accounts.list');
    });
  });
});
