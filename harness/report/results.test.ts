import { describe, expect, it } from 'vitest';
import type { BaselineEntry, Outcome } from '../ground/events.ts';
import { buildResults, checkArea, compareSections, exitCodeOf, isExpired, mustFailures, NOT_RUN_MESSAGE, INTERRUPTED_MESSAGE, NO_RESULT_MESSAGE, worst } from './results.ts';
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
    expect(r.summary).toEqual({
      pass: 6,
      fail: 2,
      skip: 2,
      error: 1,
      notCovered: 2,
      total: CHECKS.length,
      warnings: 1,
      mustFailures: 2,
      notRun: 1,
      known: 0,
      stale: 0,
      expired: 0,
      // Core: VER-PREFIX (no check yet), AUTH-401-MISSING (pass), IDEM-REUSED-422 (fail), PAGE-LIMIT-MAX (skip), ERR-REQUESTID (fail + error)
      core: { verdict: 'fail', clauses: 5, covered: 3, pass: 1, fail: 2, known: 0, error: 0, skip: 1, notCovered: 1, unobservable: 0 },
      // Extended: USAGE-PERCENT, KEY-SUBSET (AUTH-401-MISSING has a Core check: it counts in Core alone)
      extended: { verdict: 'pass', clauses: 2, covered: 2, pass: 2, fail: 0, known: 0, error: 0, skip: 0, notCovered: 0, unobservable: 0 },
    });
    expect(r.clauseSummary).toEqual({ pass: 4, fail: 2, skip: 1, error: 1, notCovered: 2, unobservable: 0, total: CLAUSES.length, covered: 6, blockingCovered: 5 }); // RATE-REMAINING is a SHOULD
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

describe('Core and Extended verdicts', () => {
  const CATALOG = [...CLAUSES, { id: 'ACCT-IN-SMTPPASSWORD-ENCRYPTED', section: '2.2', level: 'MUST' as const, text: 'smtpPassword is stored encrypted.' }];
  const r = buildResults({ ...makeInput(), clauses: CATALOG });
  const clause = (id: string) => r.clauses.find((c) => c.id === id)!;

  it('a check needing the control API (control or control:<ext>) is Extended, any other Core', () => {
    const tier = (id: string) => r.checks.find((c) => c.id === id)!.tier;
    expect(tier('AUTH-401-MISSING/GET /v1/workspace')).toBe('core');
    expect(tier('AUTH-401-MISSING/GET /v1/usage')).toBe('extended');
    expect(tier('KEY-SUBSET/POST /v1/api-keys')).toBe('extended'); // control:workspace-keys
    expect(tier('USAGE-PERCENT/GET /v1/usage')).toBe('extended');
  });

  it('MUST clauses only; a clause a Core check can prove is Core alone; an unobservable one in neither, counted apart; a gap in Core', () => {
    expect(clause('AUTH-401-MISSING').tiers).toEqual(['core']);
    expect(clause('USAGE-PERCENT').tiers).toEqual(['extended']);
    expect(clause('IDEM-REUSED-422').tiers).toEqual(['core']);
    expect(clause('RATE-REMAINING').tiers).toEqual([]); // SHOULD
    expect(clause('LIST-PARAM-CURSOR').tiers).toEqual([]); // PROFILE
    expect(clause('ACCT-IN-SMTPPASSWORD-ENCRYPTED').tiers).toEqual([]); // not observable from outside, with its reason
    expect(clause('ACCT-IN-SMTPPASSWORD-ENCRYPTED').unobservable).toBeTruthy();
    expect(clause('VER-PREFIX').tiers).toEqual(['core']); // no check yet, no reason: a gap of the kit
    expect(r.summary.core.unobservable).toBe(1);
    expect(r.clauseSummary).toMatchObject({ notCovered: 2, unobservable: 1 }); // VER-PREFIX and ANLT-WINDOW are gaps of the kit
  });

  it('a correct target reads complete: every observable clause checked, the unobservable ones apart', () => {
    const catalog = CATALOG.filter((c) => ['AUTH-401-MISSING', 'USAGE-PERCENT', 'ACCT-IN-SMTPPASSWORD-ENCRYPTED'].includes(c.id));
    const x = buildResults({ ...makeInput(), clauses: catalog });
    expect(x.summary.core).toMatchObject({ verdict: 'pass', clauses: 1, covered: 1, unobservable: 1, skip: 0 });
    expect(x.summary.extended).toMatchObject({ verdict: 'pass', clauses: 1, covered: 1 });
  });

  it('a clause proven by a check of the other tier is proven: a Core clause whose Core check was not run reads checked', () => {
    const input = makeInput();
    // The run chose only the Extended check of AUTH-401-MISSING.
    input.events = input.events.filter((e) => !((e.type === 'check-end' || e.type === 'check-start') && e.checkId === 'AUTH-401-MISSING/GET /v1/workspace'));
    const x = buildResults({ ...input, clauses: CATALOG.filter((c) => c.id === 'AUTH-401-MISSING') });
    expect(x.summary.core).toMatchObject({ verdict: 'pass', clauses: 1, covered: 1, skip: 0 });
  });

  it('a clause is judged by every check that names it; a failure of an Extended-only clause fails Extended and leaves Core passing', () => {
    const input = makeInput();
    input.events = input.events.filter((e) => e.type !== 'check-end' || e.checkId.startsWith('AUTH-') || e.checkId.startsWith('USAGE-') || e.checkId.startsWith('KEY-'));
    const usage = input.events.find((e) => e.type === 'check-end' && e.checkId === 'AUTH-401-MISSING/GET /v1/usage');
    if (usage?.type !== 'check-end') throw new Error('fixture');
    usage.verdict = 'fail';
    const catalog = CLAUSES.filter((c) => ['AUTH-401-MISSING', 'USAGE-PERCENT', 'KEY-SUBSET'].includes(c.id));
    const checks = CHECKS.filter((c) => /^(AUTH|USAGE|KEY)-/.test(c.id));
    const x = buildResults({ ...input, clauses: catalog, checks });
    // AUTH-401-MISSING sits in Core and its Extended check failed: Core fails; USAGE-PERCENT and KEY-SUBSET pass.
    expect(x.summary.core).toMatchObject({ verdict: 'fail', clauses: 1, covered: 1, fail: 1 });
    expect(x.summary.extended).toMatchObject({ verdict: 'pass', clauses: 2, covered: 2, pass: 2 });
    const usagePercent = x.clauses.find((c) => c.id === 'USAGE-PERCENT')!;
    expect(usagePercent.tiers).toEqual(['extended']);
    expect(x.verdict).toBe('fail');
  });

  it('INCOMPLETE when a clause of the tier was skipped or not covered; PASS when every one was checked and passed', () => {
    const input = makeInput();
    const usage = input.events.find((e) => e.type === 'check-end' && e.checkId === 'USAGE-PERCENT/GET /v1/usage');
    if (usage?.type !== 'check-end') throw new Error('fixture');
    usage.verdict = 'skip';
    usage.message = 'needs the conformance-control API';
    expect(buildResults(input).summary.extended).toMatchObject({ verdict: 'incomplete', clauses: 2, covered: 1, skip: 1 });
    // Core with only passing checks but a clause no check proves: still INCOMPLETE
    const clean = buildResults({ ...makeInput(), clauses: CLAUSES.filter((c) => ['AUTH-401-MISSING', 'VER-PREFIX'].includes(c.id)) });
    expect(clean.summary.core).toMatchObject({ verdict: 'incomplete', clauses: 2, covered: 1, notCovered: 1 });
    const full = buildResults({ ...makeInput(), clauses: CLAUSES.filter((c) => c.id === 'AUTH-401-MISSING') });
    expect(full.summary.core).toMatchObject({ verdict: 'pass', clauses: 1, covered: 1, pass: 1 });
  });

  it('clauseSummary.covered counts clauses a check ran on and passed or failed; the parts add up', () => {
    const c = r.clauseSummary;
    expect(c.covered).toBe(c.pass + c.fail);
    expect(c.covered + c.skip + c.error + c.notCovered + c.unobservable).toBe(c.total);
  });
});

describe('known failures (baseline)', () => {
  const IDEM = 'IDEM-REUSED/POST /v1/campaigns';
  const build = (entries: BaselineEntry[]) => buildResults(makeInput({ baseline: entries }));

  it('a listed failing check is known: verdict fail kept, not blocking, not counted against the run', () => {
    const r = build([{ check: IDEM, reason: 'fixed in 2.4' }]);
    const c = r.checks.find((x) => x.id === IDEM)!;
    expect(c).toMatchObject({ verdict: 'fail', blocking: false, known: { reason: 'fixed in 2.4' } });
    expect(r.summary).toMatchObject({ known: 1, stale: 0, expired: 0, mustFailures: 1 }); // the error remains
    expect(mustFailures(r)).toBe(1);
    expect(r.verdict).toBe('error');
    expect(r.clauses.find((x) => x.id === 'IDEM-REUSED-422')).toMatchObject({ verdict: 'fail', blocking: false, known: true });
    expect(r.clauses.find((x) => x.id === 'ERR-REQUESTID')!.known).toBeUndefined(); // an error there too
    expect(r.summary.core).toMatchObject({ fail: 0, known: 1, error: 1, verdict: 'incomplete' });
    expect(r.baseline).toEqual({ file: 'known.json', entries: [{ check: IDEM, reason: 'fixed in 2.4', status: 'known' }] });
  });

  it('known failures of every blocking check give exit 0', () => {
    const r = build([
      { check: IDEM, reason: 'a' },
      { check: 'RATE-REMAINING-COUNTDOWN', reason: 'b' },
    ]);
    const input = makeInput({ baseline: [{ check: IDEM, reason: 'a' }] });
    input.events = input.events.filter((e) => !((e.type === 'check-end' || e.type === 'check-start') && e.checkId === 'ERR-ENVELOPE/GET /v1/nope'));
    const x = buildResults(input);
    expect(x.verdict).toBe('pass');
    expect(exitCodeOf(x)).toBe(0);
    expect(r.summary.warnings).toBe(0); // a listed SHOULD failure is known, not a warning
    expect(r.summary.known).toBe(2);
  });

  it('a listed check that passes is stale: the run fails', () => {
    const input = makeInput({ baseline: [{ check: 'AUTH-401-MISSING/GET /v1/workspace', reason: 'flaky' }] });
    const failing = new Set(['IDEM-REUSED/POST /v1/campaigns', 'ERR-ENVELOPE/GET /v1/nope', 'RATE-REMAINING-COUNTDOWN']);
    input.events = input.events.filter((e) => !((e.type === 'check-end' || e.type === 'check-start') && failing.has(e.checkId)));
    const r = buildResults(input);
    expect(r.baseline!.entries[0]!.status).toBe('stale');
    expect(r.summary.stale).toBe(1);
    expect(mustFailures(r)).toBe(0);
    expect(r.verdict).toBe('fail');
    expect(exitCodeOf(r)).toBe(1);
  });

  it('an entry past its day hides nothing; it holds through its day (UTC)', () => {
    // the fixture's run starts 2026-01-02T03:04:05Z
    const expired = build([{ check: IDEM, reason: 'until the fix', expires: '2026-01-01' }]);
    const c = expired.checks.find((x) => x.id === IDEM)!;
    expect(c).toMatchObject({ blocking: true, baselineExpired: { reason: 'until the fix', expires: '2026-01-01' } });
    expect(c.known).toBeUndefined();
    expect(expired.summary).toMatchObject({ known: 0, expired: 1, mustFailures: 2 });
    expect(expired.verdict).toBe('fail');
    const today = build([{ check: IDEM, reason: 'until the fix', expires: '2026-01-02' }]);
    expect(today.checks.find((x) => x.id === IDEM)!.known).toEqual({ reason: 'until the fix', expires: '2026-01-02' });
    expect(isExpired({ expires: '2026-01-01' }, '2026-01-02T00:00:00.000Z')).toBe(true);
    expect(isExpired({ expires: '2026-01-02' }, '2026-01-02T23:59:59.999Z')).toBe(false);
    expect(isExpired({}, '2099-01-01T00:00:00.000Z')).toBe(false);
  });

  it('an errored or skipped listed check: the error still counts, a skip says nothing', () => {
    const r = build([
      { check: 'ERR-ENVELOPE/GET /v1/nope', reason: 'x' },
      { check: 'PAGE-LIMIT-101/GET /v1/api-keys', reason: 'y' },
      { check: 'PAGE-LIMIT-FULL/GET /v1/campaigns', reason: 'z' },
    ]);
    expect(r.baseline!.entries.map((x) => x.status)).toEqual(['errored', 'skipped', 'skipped']);
    expect(r.checks.find((x) => x.id === 'ERR-ENVELOPE/GET /v1/nope')!.blocking).toBe(true);
    expect(r.summary).toMatchObject({ known: 0, stale: 0, mustFailures: 2 });
  });
});
