import { describe, expect, it } from 'vitest';
import { causeOf, endpointOf, groupFailures } from './failure-groups.ts';
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
