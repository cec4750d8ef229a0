import { describe, expect, it } from 'vitest';
import type { Outcome } from '../events/types.ts';
import { buildResults, checkArea, compareSections, mustFailures, NOT_RUN_MESSAGE, INTERRUPTED_MESSAGE, NO_RESULT_MESSAGE, worst } from './results.ts';
import { CHECKS, CLAUSES, makeInput } from './fixture.test-helper.ts';

describe('worst()', () => {
  it('orders error > fail > pass > skip > not-covered in any order of input', () => {
    const all: Outcome[] = ['skip', 'pass', 'fail', 'error', 'not-covered'];
    for (let i = 0; i < 20; i++) {
      const shuffled = [...all].sort(() => Math.random() - 0.5);
      expect(worst(shuffled)).toBe('error');
    }
    expect(worst(['pass', 'fail', 'skip'])).toBe('fail');
    expect(worst(['skip', 'pass'])).toBe('pass');
    expect(worst(['skip'])).toBe('skip');
    expect(worst([])).toBe('not-covered');
  });
});

describe('buildResults', () => {
  const r = buildResults(makeInput());
  const clause = (id: string) => r.clauses.find((c) => c.id === id)!;
  const check = (id: string) => r.checks.find((c) => c.id === id)!;

  it('carries kit, spec, target, times and run id from run-start/run-end', () => {
    expect(r.kit).toEqual({ name: 'outreach-conformance', version: '0.1.0' });
    expect(r.spec).toEqual({ version: '1.0.0', sha256: 'a'.repeat(64) });
    expect(r.target.baseUrl).toBe('http://127.0.0.1:4010');
    expect(r.startedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(r.finishedAt).toBe('2026-01-02T03:04:10.000Z');
    expect(r.runId).toBe('2026-01-02T03-04-05Z-abc123');
    expect(r.complete).toBe(true);
    expect(r.stats).toMatchObject({ requests: 5, unplanned429: 1, plannedMs: 4000, actualMs: 5000, exchanges: 5, transportErrors: 1 });
  });

  it('summary counts checks by verdict (not-run checks are skips) and notCovered clauses', () => {
    expect(r.summary).toEqual({ pass: 6, fail: 2, skip: 2, error: 1, notCovered: 2, total: CHECKS.length, warnings: 1, mustFailures: 2, notRun: 1 });
    expect(r.clauseSummary).toEqual({ pass: 4, fail: 2, skip: 1, error: 1, notCovered: 2, total: CLAUSES.length });
  });

  it('a clause takes the worst verdict of its checks', () => {
    expect(clause('AUTH-401-MISSING').verdict).toBe('pass'); // pass + pass
    expect(clause('IDEM-REUSED-422').verdict).toBe('fail'); // fail + pass
    expect(clause('ERR-REQUESTID').verdict).toBe('error'); // fail + error
    expect(clause('PAGE-LIMIT-MAX').verdict).toBe('skip'); // skip + not run
    expect(clause('VER-PREFIX').verdict).toBe('not-covered');
    expect(clause('VER-PREFIX').checks).toEqual([]);
    expect(clause('IDEM-REUSED-422').checks.map((c) => [c.id, c.verdict])).toEqual([
      ['IDEM-REUSED/POST /v1/campaigns', 'fail'],
      ['IDEM-REUSED/POST /v1/api-keys', 'pass'],
    ]);
    expect(clause('IDEM-REUSED-422').checks[0]!.message).toMatch(/expected 422/);
    expect(clause('IDEM-REUSED-422').checks[1]).not.toHaveProperty('message');
  });

  it('orders clauses by section number (2.9 < 2.10 < 4.1 < 5 < 9), catalog order within a section', () => {
    expect(r.clauses.map((c) => c.section)).toEqual(['2.9', '2.10', '4.1', '4.1', '4.1', '5', '5', '7', '8', '9']);
    expect(r.clauses.filter((c) => c.section === '4.1').map((c) => c.id)).toEqual(['IDEM-REUSED-422', 'PAGE-LIMIT-MAX', 'LIST-PARAM-CURSOR']);
  });

  it('a check with no check-end is a skip "not run at this depth"', () => {
    expect(check('PAGE-LIMIT-FULL/GET /v1/campaigns')).toMatchObject({ verdict: 'skip', ran: false, message: NOT_RUN_MESSAGE, blocking: false });
  });

  it('a SHOULD failure is a non-blocking warning; MUST failures and errors block', () => {
    expect(check('RATE-REMAINING-COUNTDOWN')).toMatchObject({ verdict: 'fail', blocking: false, level: 'SHOULD' });
    expect(check('IDEM-REUSED/POST /v1/campaigns')).toMatchObject({ verdict: 'fail', blocking: true });
    expect(check('ERR-ENVELOPE/GET /v1/nope')).toMatchObject({ verdict: 'error', blocking: true });
    expect(clause('RATE-REMAINING')).toMatchObject({ verdict: 'fail', blocking: false });
    expect(mustFailures(r)).toBe(2);
    expect(r.verdict).toBe('fail');
  });

  it('records evidence ids, duration and curl repro lines for failures', () => {
    const c = check('IDEM-REUSED/POST /v1/campaigns');
    expect(c.evidence).toEqual(['x000002', 'x000003']);
    expect(c.durationMs).toBe(40);
    expect(c.repro).toHaveLength(2);
    expect(c.repro![0]).toMatch(/^curl /);
    // no evidence named: the check's last exchange stands in
    expect(check('ERR-ENVELOPE/GET /v1/nope').repro).toEqual(["curl -sS 'http://127.0.0.1:4010/v1/workspace' -H 'Authorization: Bearer [REDACTED]'"]);
    expect(check('AUTH-401-MISSING/GET /v1/workspace').repro).toBeUndefined();
  });

  it('includes the mutation block with killed/total/survivors', () => {
    expect(r.mutation).toMatchObject({ score: 0.75, killed: 3, total: 4, survivors: ['page-limit-200'] });
  });

  it('takes the mutation block from the stream when not given', () => {
    const input = makeInput({ withMutation: false });
    expect(buildResults(input).mutation).toBeUndefined();
    input.events.push({ type: 'mutation', score: 1, mutants: [{ id: 'm', clauses: [], killed: true, killedBy: ['c'] }] });
    expect(buildResults(input).mutation).toMatchObject({ score: 1, killed: 1, total: 1 });
  });

  it('an interrupted run: no run-end, a started check without end is an error', () => {
    const input = makeInput({ withRunEnd: false });
    input.events.push({ type: 'check-start', checkId: 'USAGE-PERCENT/GET /v1/usage', at: '2026-01-02T03:04:06.000Z' });
    input.events = input.events.filter((e) => !(e.type === 'check-end' && e.checkId === 'USAGE-PERCENT/GET /v1/usage'));
    const x = buildResults(input);
    expect(x.complete).toBe(false);
    expect(x.checks.find((c) => c.id === 'USAGE-PERCENT/GET /v1/usage')).toMatchObject({ verdict: 'error', message: INTERRUPTED_MESSAGE, blocking: true });
    expect(x.warnings.join('\n')).toMatch(/no run-end/);
    expect(x.finishedAt >= x.startedAt).toBe(true);
  });

  it('a started check with no result in a finished run is a harness error', () => {
    const input = makeInput();
    input.events = input.events.filter((e) => !(e.type === 'check-end' && e.checkId === 'AUTH-401-MISSING/GET /v1/workspace'));
    const x = buildResults(input);
    expect(x.checks.find((c) => c.id === 'AUTH-401-MISSING/GET /v1/workspace')).toMatchObject({ verdict: 'error', message: NO_RESULT_MESSAGE, ran: false });
    expect(x.clauses.find((c) => c.id === 'AUTH-401-MISSING')!.verdict).toBe('error');
  });

  it('only SHOULD failures: verdict pass; only MUST errors: verdict error', () => {
    const input = makeInput();
    input.events = input.events.filter((e) => !(e.type === 'check-end' && (e.checkId.startsWith('IDEM-REUSED/POST /v1/campaigns') || e.checkId.startsWith('ERR-'))));
    input.checks = input.checks.filter((c) => c.id !== 'IDEM-REUSED/POST /v1/campaigns' && !c.id.startsWith('ERR-'));
    const x = buildResults(input);
    expect(x.verdict).toBe('pass');
    expect(x.summary.warnings).toBe(1);
    expect(mustFailures(x)).toBe(0);
    const y = buildResults({ ...makeInput(), checks: CHECKS.filter((c) => c.id !== 'IDEM-REUSED/POST /v1/campaigns') });
    // the campaigns check still reported: it is included (with a warning), so still a fail
    expect(y.verdict).toBe('fail');
    expect(y.warnings.join('\n')).toMatch(/not in the check list/);
  });

  it('warns about a check naming an unknown clause and counts it nowhere', () => {
    const input = makeInput();
    input.checks = [...input.checks, { id: 'GHOST-1', title: 'ghost', clauses: ['NOPE-1'], level: 'MUST' }];
    const x = buildResults(input);
    expect(x.warnings).toContain('check GHOST-1 names clause NOPE-1, which is not in the catalog');
    expect(x.clauses.find((c) => c.id === 'NOPE-1')).toBeUndefined();
  });

  it('survives an empty stream', () => {
    const x = buildResults({ events: [], clauses: CLAUSES, checks: CHECKS });
    expect(x.kit.version).toBe('unknown');
    expect(x.summary.skip).toBe(CHECKS.length);
    expect(x.complete).toBe(false);
  });
});

describe('helpers', () => {
  it('checkArea takes the id up to the first "-" or "/"', () => {
    expect(checkArea('AUTH-401-MISSING/GET /v1/workspace')).toBe('AUTH');
    expect(checkArea('SCOPE/matrix')).toBe('SCOPE');
    expect(checkArea('PLAIN')).toBe('PLAIN');
  });
  it('compareSections sorts numerically', () => {
    expect(['9', '2.10', '1', '2.2', '4.1', '2', 'x'].sort(compareSections)).toEqual(['1', '2', '2.2', '2.10', '4.1', '9', 'x']);
  });
});
