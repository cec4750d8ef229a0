import { describe, expect, it } from 'vitest';
import { causeOf, detailsOf, endpointOf, groupFailures, rootCauses } from './failure-groups.ts';
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

  it('takes out endpoints, uuids, seeds, times, emails, generated names and typed ids, keeping what tells causes apart', () => {
    const a = causeOf('PATCH /v1/accounts/6f1c2d3e-0a1b-4c2d-8e3f-9a0b1c2d3e4f from another workspace: got req_9f8e7d6c for oc1a2b3c-lead-7@example.test at 2026-01-02T03:04:05.678Z (check seed 123, run seed 456)');
    const b = causeOf('GET <campaigns.get> from another workspace: got req_00aa11bb for oc9f9f9f-lead-8@example.test at 2026-03-04T05:06:07Z (check seed 789, run seed 456)');
    expect(a).toBe(b);
    expect(a).toBe('<endpoint> from another workspace: got <id> for <email> at <time>');
    // status codes, error codes and small counts are part of the cause
    expect(causeOf('the 401 answer breaks the envelope')).not.toBe(causeOf('the 403 answer breaks the envelope'));
    expect(causeOf('code rate_limited, expected validation_failed')).toBe('code rate_limited, expected validation_failed');
    expect(causeOf('3 of 4 pages')).not.toBe(causeOf('2 of 4 pages'));
    // The profile values a failure rested on (the runner's suffix) vary between instances of one cause.
    expect(causeOf('a page repeated an item; the profile declares names.list.cursor = "cursor" (check seed 1, run seed 2)')).toBe(causeOf('a page repeated an item; the profile declares names.list.pageSize = "limit" (check seed 3, run seed 2)'));
  });

  it('names the endpoint from the check id, else from the message without its ids and query', () => {
    const [idem] = r.checks.filter((c) => c.id === 'IDEM-REUSED/POST /v1/campaigns');
    expect(endpointOf(idem!)).toBe('POST /v1/campaigns');
    expect(endpointOf({ ...idem!, id: 'SEC-TENANT-404/leads', message: 'GET /v1/leads/6f1c2d3e-0a1b-4c2d-8e3f-9a0b1c2d3e4f?expand=x from another workspace' })).toBe('GET /v1/leads/{id}');
    expect(endpointOf({ ...idem!, id: 'KEY-REVOKE', message: 'the first request after revocation' })).toBeUndefined();
  });
});

/** The messages of a quick run against the reference with the mutant err-envelope-unwrapped (its 403s answer without the envelope), ids and seeds as they were. */
const UNWRAPPED: [id: string, clauses: string[], message: string][] = [
  ['SCOPE-MATRIX/accounts:all', ['SCOPE-REQUIRED', 'SCOPE-403-MISSING', 'SCOPE-WILDCARD-ACCOUNTS'], 'key with [accounts:all]: 12 wrong answer(s): POST /v1/campaigns (needs campaigns:write) answered 403 (error: Invalid input: expected object, received undefined), expected 403 permission_denied | GET /v1/campaigns (needs campaigns:read) answered 403 (error: Invalid input: expected object, received undefined), expected 403 permission_denied'],
  ['SCOPE-MATRIX/all:read', ['SCOPE-REQUIRED', 'SCOPE-403-MISSING', 'SCOPE-ALLREAD-NO-WRITE'], 'key with [all:read]: 7 wrong answer(s): POST /v1/accounts (needs accounts:write) answered 403 (error: Invalid input: expected object, received undefined), expected 403 permission_denied | POST /v1/campaigns (needs campaigns:write) answered 403 (error: Invalid input: expected object, received undefined), expected 403 permission_denied'],
  ['SCOPE-ALLALL/not-apikeys-manage', ['SCOPE-ALLALL'], 'DELETE /v1/api-keys/{id} with a key holding all:all (apikeys:manage is covered by no wildcard): the 403 answer breaks the error envelope: error: Invalid input: expected object, received undefined; the profile declares names.businessRuleErrorCode = "failed_precondition" (check seed 109609257, run seed 465303380)'],
  ['KEY-CREATE-NO-MANAGE-SCOPE', ['SCOPE-APIKEYS-DASHBOARD-ONLY', 'SCOPE-APIKEYS-SUBSET'], 'the refusal: the 403 answer breaks the error envelope: error: Invalid input: expected object, received undefined; the profile declares operations.apikeys.create.fields.name = "name", names.businessRuleErrorCode = "failed_precondition" (check seed 664473882, run seed 465303380)'],
  ['PLAN-NO-API-ACCESS-403', ['SCOPE-403-PLAN', 'ERR-TABLE-403'], 'GET /v1/workspace on a plan without API access: the 403 answer breaks the error envelope: error: Invalid input: expected object, received undefined; the profile declares names.businessRuleErrorCode = "failed_precondition" (check seed 3064793812, run seed 465303380)'],
  ['CAMP-CREATE/launch-scope', ['CAMP-CREATE-LAUNCH-SCOPE', 'ERR-TABLE-403'], 'POST /v1/campaigns launch: true with campaigns:write only: the 403 answer breaks the error envelope: error: Invalid input: expected object, received undefined; the profile declares names.businessRuleErrorCode = "failed_precondition" (check seed 3243764598, run seed 465303380)'],
  ['ERR-ENVELOPE/every-error-seen', ['ERR-ENVELOPE', 'ERR-STATUS-REPEATS-HTTP'], '26 of 140 error answers break the envelope: POST /v1/accounts -> 403: error: Invalid input: expected object, received undefined | POST /v1/campaigns -> 403: error: Invalid input: expected object, received undefined | and 18 more'],
];

const failing = (id: string, clauses: string[], message: string): CheckResult => ({ ...buildResults(manyFailuresInput()).checks.find((c) => c.verdict === 'fail')!, id, clauses, message });

describe('failures joined by root cause', () => {
  it('the 7 checks of different clauses that one unwrapped envelope fails are 7 groups and one root cause, named by the shared detail', () => {
    const groups = groupFailures(UNWRAPPED.map(([id, cl, m]) => failing(id, cl, m)));
    expect(groups).toHaveLength(7);
    const roots = rootCauses(groups);
    expect(roots).toHaveLength(1);
    expect(roots[0]!.cause).toBe('error: Invalid input: expected object, received undefined');
    expect(roots[0]!.groups).toEqual(groups);
  });

  it('keeps apart failures that share only the wording around different details', () => {
    const groups = groupFailures([
      failing('A', ['X'], 'GET /v1/workspace: the 403 answer breaks the error envelope: error.requestId: must be a UUID string'),
      failing('B', ['Y'], 'GET /v1/campaigns: the 403 answer breaks the error envelope: error.type: Invalid option: expected one of "permission_denied"'),
      failing('C', ['Z'], 'POST /v1/leads -> 401: error.requestId: must be a UUID string | and 2 more'),
      failing('D', ['W'], 'expected 200, got 404'),
    ]);
    const roots = rootCauses(groups);
    expect(roots.map((r) => r.groups.map((g) => g.checks[0]!.id))).toEqual([['A', 'C'], ['B'], ['D']]);
    expect(roots[0]!.cause).toBe('error.requestId: must be a UUID string');
    expect(roots[1]!.cause).toBe('<endpoint>: the 403 answer breaks the error envelope: error.type: Invalid option: expected one of "permission_denied"');
  });

  it('takes a message apart at the separators checks join findings with, and at each context before a colon', () => {
    expect([...detailsOf('GET /v1/x answered 403 (error: Invalid input: expected object), expected 403 permission_denied | and 3 more')]).toEqual([
      '<endpoint> answered 403',
      'error: Invalid input: expected object',
      'Invalid input: expected object',
      'expected 403 permission_denied',
    ]);
  });
});
