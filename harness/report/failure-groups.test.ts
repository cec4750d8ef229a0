import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { detailsOf, endpointOf, groupFailures, ownText, rootCauses, type FailureGroup } from './failure-groups.ts';
import { endpointNamer } from './endpoint-of.ts';
import type { TypedFailure } from '../ground/failure.ts';
import type { CheckResult } from './results.ts';
import { manyFailuresInput, ONE_CAUSE_ENDPOINTS } from './fixture.test-helper.ts';
import { buildResults } from './results.ts';

describe('failures grouped by cause', () => {
  const r = buildResults(manyFailuresInput());
  const failed = r.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error');
  const groups = groupFailures(failed);

  it('one cause on many endpoints is one group, with its count and its endpoints in order', () => {
    const auth = groups.find((g) => g.checks[0]!.id === `AUTH-401-MISSING/${ONE_CAUSE_ENDPOINTS[0]}`)!;
    expect(auth.checks.map((c) => c.id)).toEqual(ONE_CAUSE_ENDPOINTS.slice(0, -1).map((ep) => `AUTH-401-MISSING/${ep}`));
    expect(auth.endpoints).toEqual(ONE_CAUSE_ENDPOINTS.slice(0, -1));
  });

  it('never merges two clause sets, two verdicts or two messages that differ in more than ids', () => {
    // the same message on a check of other clauses is a cause of its own
    const last = groups.find((g) => g.checks.some((c) => c.id.endsWith(ONE_CAUSE_ENDPOINTS.at(-1)!)))!;
    expect(last.checks).toHaveLength(1);
    for (const g of groups) expect(new Set(g.checks.map((c) => JSON.stringify([c.verdict, [...c.clauses].sort()]))).size).toBe(1);
    // 4 of the 5 new checks are one cause; the fixture's own failures (a fail, an error, a SHOULD fail) stay apart
    expect(groups).toHaveLength(failed.length - 3);
  });

  it('groups a typed failure by its kind and fields, whatever its prose says, and never with a prose failure', () => {
    const base = { title: 't', level: 'MUST' as const, clauses: ['ERR-ENVELOPE'], area: 'ERR', verdict: 'fail' as const, blocking: true, ran: true, evidence: [], durationMs: 1, requests: 1, tier: 'core' as const };
    const typed = (id: string, message: string, got: number): CheckResult => ({ ...base, id, message, failure: { kind: 'status', fields: { expected: 404, got } } });
    const g = groupFailures([
      typed('A/1', 'the unknown campaign answer: expected HTTP 404, got 500 (trace 81f2)', 500),
      typed('A/2', 'a lead nobody made: expected HTTP 404, got 500 (boom at line 12)', 500),
      typed('A/3', 'the unknown campaign answer: expected HTTP 404, got 400 (trace 81f2)', 400),
      { ...base, id: 'A/4', message: 'the unknown campaign answer: expected HTTP 404, got 500 (trace 81f2)' },
    ]);
    expect(g.map((x) => x.checks.map((c) => c.id))).toEqual([['A/1', 'A/2'], ['A/3'], ['A/4']]);
  });

  it('keys a failure without a kind (a report of an older kit) by its own text, without what the runner appends', () => {
    expect(ownText('a page repeated an item; the profile declares names.list.cursor = "cursor" (check seed 1, run seed 2)')).toBe('a page repeated an item');
    expect(ownText('TypeError: x is undefined (check seed 3, run seed 2)')).toBe('TypeError: x is undefined');
  });

  it('names the endpoint from the check id, else from its evidence, never from its message', () => {
    const [idem] = r.checks.filter((c) => c.id === 'IDEM-REUSED/POST /v1/campaigns');
    expect(endpointOf(idem!)).toBe('POST /v1/campaigns');
    expect(endpointOf({ ...idem!, id: 'IDEM-REPLAY/POST <apikeys.create>' })).toBe('POST <apikeys.create>');
    expect(endpointOf({ ...idem!, id: 'SEC-TENANT-404/leads', endpoint: 'GET /v1/leads/{id}', message: 'GET /v1/leads/6f1c2d3e-0a1b-4c2d-8e3f-9a0b1c2d3e4f from another workspace' })).toBe('GET /v1/leads/{id}');
    expect(endpointOf({ ...idem!, id: 'KEY-REVOKE', endpoint: undefined, message: 'GET /v1/campaigns after revocation' })).toBeUndefined();
  });
});

describe('the endpoint of a recorded request', () => {
  const name = endpointNamer({ operations: { 'apikeys.create': { method: 'POST', path: '/v1/api-keys' } } });
  it("names the spec's template, the most literal first, under any prefix of the base URL", () => {
    expect(name('GET', 'http://127.0.0.1:1/v1/campaigns/6f1c2d3e-0a1b-4c2d-8e3f-9a0b1c2d3e4f/status?x=1')).toBe('GET /v1/campaigns/{id}/status');
    expect(name('GET', 'http://127.0.0.1:1/api/v1/campaigns/analytics/overview')).toBe('GET /v1/campaigns/analytics/overview');
  });
  it('names a referenced operation by its id where the profile places it, and nothing it does not know', () => {
    expect(name('post', 'http://h/v1/api-keys')).toBe('POST <apikeys.create>');
    expect(name('GET', 'http://h/v1/nothing-here')).toBeUndefined();
    expect(name('GET', 'not a url')).toBeUndefined();
  });
});

const failing = (id: string, clauses: string[], failure?: TypedFailure, message = 'm'): CheckResult => ({ ...buildResults(manyFailuresInput()).checks.find((c) => c.verdict === 'fail')!, id, clauses, message, ...(failure ? { failure } : {}) });
const envelope = (problems: string[]): TypedFailure => ({ kind: 'envelope', fields: { status: 403, problems } });

describe('failures joined by root cause', () => {
  it('joins failures of different clauses that name one finding, each in its own shape', () => {
    const groups = groupFailures([
      failing('A', ['X'], envelope(['error.requestId: must be a UUID string'])),
      failing('B', ['Y'], envelope(['error.type: Invalid option: expected one of "permission_denied"'])),
      failing('C', ['Z'], { kind: 'value', fields: { rule: '… of … error answers break the envelope: …' }, details: ['error.requestId: must be a UUID string'] }),
      failing('D', ['W'], { kind: 'status', fields: { expected: 200, got: 404 } }),
      failing('E', ['V'], { kind: 'status', fields: { expected: '2xx', got: 400, during: 'setup' } }),
      failing('F', ['U'], { kind: 'status', fields: { expected: '2xx', got: 400 } }),
    ]);
    const roots = rootCauses(groups);
    expect(roots.map((r) => r.groups.map((g) => g.checks[0]!.id))).toEqual([['A', 'C'], ['B'], ['D'], ['E'], ['F']]);
    expect(roots[0]!.cause).toBe('error.requestId: must be a UUID string');
  });

  it('reads a rule by its literal parts and the context before each colon, never by a value it left out', () => {
    const rule = (r: string) => failing('A', ['X'], { kind: 'value', fields: { rule: r } });
    expect([...detailsOf(rule('…: expected … mailbox(es) created, got …; errors …'))]).toEqual(['mailbox(es) created, got']);
    expect([...detailsOf(rule('setup: POST /v1/accounts created no mailbox: …'))]).toEqual(['setup: POST /v1/accounts created no mailbox', 'POST /v1/accounts created no mailbox']);
    expect([...detailsOf(failing('A', ['X'], { kind: 'kit', fields: { name: 'TypeError', message: "Cannot read properties of undefined (reading '0')" } }))]).toEqual(['TypeError: Cannot read properties of undefined', 'Cannot read properties of undefined']);
  });
});

/**
 * Recorded runs of the reference (harness/report/recorded/failure-groups.json): their failures as the
 * runner now writes them, and how they were grouped when the groups read the prose back.
 */
describe('recorded runs: the same groups as when causes were read from the prose', () => {
  const recorded = JSON.parse(readFileSync(new URL('./recorded/failure-groups.json', import.meta.url), 'utf8')) as Record<string, Recorded | string>;
  const run = (name: string) => {
    const rec = recorded[name] as Recorded;
    const base = buildResults(manyFailuresInput()).checks.find((c) => c.verdict === 'fail')!;
    const checks = rec.checks.map((c) => ({ ...base, evidence: [], ...c }) as CheckResult);
    // As report.html lists them: the blocking failures, then the warnings.
    const groups = groupFailures([...checks.filter((c) => c.blocking), ...checks.filter((c) => !c.blocking)]);
    return { rec, groups, roots: rootCauses(groups), first: (g: FailureGroup) => g.checks[0]!.id };
  };

  for (const name of ['fourMutants', 'envelopeUnwrapped']) {
    it(`${name}: every failure typed, the same groups with the same endpoints`, () => {
      const { rec, groups } = run(name);
      expect(rec.checks.every((c) => c.failure)).toBe(true);
      expect(groups.map((g) => (g.checks.length > 1 ? { checks: g.checks.map((c) => c.id), endpoints: g.endpoints } : { checks: g.checks.map((c) => c.id) }))).toEqual(rec.before.groups);
    });
  }

  it('fourMutants: no root cause split; where they joined, it is one broken rule that quoted values had kept apart', () => {
    const { rec, roots, first } = run('fourMutants');
    const rootOf = new Map(roots.flatMap((r, i) => r.groups.map((g) => [first(g), i] as const)));
    for (const before of rec.before.roots) expect(new Set(before.map((id) => rootOf.get(id))).size, before.join(', ')).toBe(1);
    // Today's roots each a part of one root now: the joined ones, named by what they share.
    const joined = roots.filter((r) => new Set(r.groups.map((g) => rec.before.roots.findIndex((b) => b.includes(first(g))))).size > 1).map((r) => r.cause);
    expect(joined).toEqual([
      // hasMore always true: each list's walk named its own cursor
      'answered the same page and the same nextCursor twice',
      // the create answer without mailboxes: each quoted its own body
      'setup: POST /v1/accounts did not create the sink mailbox',
      // a campaign id that is no uuid refuses the leads' setup: "create leads" was written apart from the endpoints
      'setup: expected HTTP 2xx, got 400',
    ]);
    expect(roots.length).toBe(rec.before.roots.length - 10);
  });

  it('envelopeUnwrapped: the 6 failures of 6 clause groups are one root cause, named by the problem', () => {
    const { roots } = run('envelopeUnwrapped');
    expect(roots).toHaveLength(1);
    expect(roots[0]!.cause).toBe('error: Invalid input: expected object, received undefined');
  });
});

interface Recorded {
  command: string;
  checks: (Pick<CheckResult, 'id' | 'clauses' | 'verdict' | 'level' | 'blocking' | 'message' | 'failure' | 'endpoint'>)[];
  before: { groups: { checks: string[]; endpoints?: string[] }[]; roots: string[][] };
}
