import { describe, expect, it } from 'vitest';
import * as S from './lead-search.ts';

const T = '2026-11-21T01:00:00.000Z';
const view = (status: string, o: Partial<S.LeadSearchView> = {}): S.LeadSearchView => ({
  status,
  discoveryFinished: false,
  completedAt: null,
  errorMessage: null,
  progress: { companiesFound: 0, companiesProcessed: 0, emailsFound: 0 },
  ...o,
});
const clauses = (s: { violations: { clause: string }[] }) => s.violations.map((v) => v.clause);

describe('lead search model (3.4)', () => {
  it('a queued search: not discovered, no completedAt, no errorMessage', () => {
    expect(S.created(view('queued')).violations).toEqual([]);
    expect(clauses(S.created(view('queued', { discoveryFinished: true })))).toEqual(['STATE-LF-DISCOVERY-FINISHED']);
    expect(clauses(S.created(view('queued', { completedAt: T })))).toEqual(['LF-COMPLETEDAT-NULL-RUNNING']);
    expect(clauses(S.created(view('queued', { errorMessage: 'x' })))).toEqual(['LF-ERRORMESSAGE-NULL']);
    expect(clauses(S.created(view('paused')))).toEqual(['STATE-LF-STATES']);
  });
  it('terminal states carry completedAt; failed carries errorMessage; completed has finished discovery', () => {
    const q = S.created(view('queued')).next;
    expect(S.observed(q, view('completed', { completedAt: T, discoveryFinished: true })).violations).toEqual([]);
    expect(clauses(S.observed(q, view('completed', { completedAt: null, discoveryFinished: true })))).toEqual(['STATE-LF-COMPLETEDAT-TERMINAL']);
    expect(clauses(S.observed(q, view('completed', { completedAt: T })))).toEqual(['STATE-LF-DISCOVERY-FINISHED']);
    expect(S.observed(q, view('stopped', { completedAt: T })).violations).toEqual([]);
    expect(S.observed(q, view('failed', { completedAt: T, errorMessage: 'quota' })).violations).toEqual([]);
    expect(clauses(S.observed(q, view('failed', { completedAt: T })))).toEqual(['LF-ERRORMESSAGE-FAILED']);
  });
  it('middle phases: discoveryFinished may be either (not shown)', () => {
    const q = S.created(view('queued')).next;
    for (const st of ['processing', 'crawling', 'enriching', 'verifying'])
      for (const df of [true, false]) expect(S.observed(q, view(st, { discoveryFinished: df })).violations).toEqual([]);
  });
  it('readings: discoveryFinished monotonic, terminal stable, progress monotonic', () => {
    const crawling = S.observed(S.created(view('queued')).next, view('crawling', { discoveryFinished: true, progress: { companiesFound: 5, companiesProcessed: 2, emailsFound: 1 } })).next;
    expect(S.observed(crawling, view('enriching', { discoveryFinished: false, progress: { companiesFound: 5, companiesProcessed: 2, emailsFound: 1 } })).violations).toEqual([
      expect.objectContaining({ clause: 'STATE-LF-DISCOVERY-MONOTONIC', level: 'SHOULD' }),
    ]);
    expect(clauses(S.observed(crawling, view('enriching', { discoveryFinished: true, progress: { companiesFound: 4, companiesProcessed: 2, emailsFound: 1 } })))).toEqual(['STATE-LF-PROGRESS-MONOTONIC']);
    const done = S.observed(crawling, view('stopped', { discoveryFinished: true, completedAt: T, progress: { companiesFound: 5, companiesProcessed: 2, emailsFound: 1 } })).next;
    expect(clauses(S.observed(done, view('crawling', { discoveryFinished: true, progress: { companiesFound: 5, companiesProcessed: 2, emailsFound: 1 } })))).toEqual(['STATE-LF-TERMINAL-STABLE']);
    expect(clauses(S.observed(done, view('stopped', { discoveryFinished: true, completedAt: '2026-11-22T00:00:00.000Z', progress: { companiesFound: 5, companiesProcessed: 2, emailsFound: 1 } })))).toEqual([
      'STATE-LF-TERMINAL-STABLE',
    ]);
  });
  it('the driver only moves forward or into a terminal state', () => {
    expect(S.forwardTargets('queued')).toEqual(['queued', 'discovering', 'processing', 'crawling', 'enriching', 'verifying', 'completed', 'stopped', 'failed']);
    expect(S.forwardTargets('enriching')).toEqual(['enriching', 'verifying', 'completed', 'stopped', 'failed']);
    expect(S.forwardTargets('failed')).toEqual([]);
  });
});
