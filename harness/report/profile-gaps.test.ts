import { describe, expect, it } from 'vitest';
import { buildResults } from './results.ts';
import { buildSummaryMarkdown, formatConsoleSummary } from './summary.ts';
import { fieldsNamed, profileGaps } from './profile-gaps.ts';
import { makeInput } from './fixture.test-helper.ts';

// A correct target that leaves a field undeclared loses coverage: the report says how much, at the top.

describe('clauses skipped for want of a profile field', () => {
  it('reads the fields a skip reason names', () => {
    expect(fieldsNamed('needs the referenced operation "leads.create" declared in the profile (operations.leads.create)')).toEqual(['operations.leads.create']);
    expect(fieldsNamed('needs declarations.variantIdPath in the profile (where ...); also features.imap.')).toEqual(['declarations.variantIdPath', 'features.imap']);
    expect(fieldsNamed('needs the conformance-control API (profile "control")')).toEqual([]);
    expect(fieldsNamed(undefined)).toEqual([]);
  });

  it('counts a clause only when none of its checks ran, per field, most clauses first', () => {
    const skip = (id: string, message?: string) => ({ id, verdict: 'skip', message });
    const checks = [skip('A', 'needs declarations.x'), skip('B', 'needs declarations.x'), skip('C', 'needs operations.y.get'), { id: 'D', verdict: 'pass' }, skip('E', 'not run at this depth')];
    const clauses = [
      { id: 'K1', verdict: 'skip', checks: [checks[0]!, checks[4]!] },
      { id: 'K2', verdict: 'skip', checks: [checks[1]!, checks[2]!] },
      { id: 'K3', verdict: 'pass', checks: [checks[0]!, checks[3]!] }, // proven anyway
      { id: 'K4', verdict: 'skip', checks: [checks[4]!] }, // depth, not the profile
    ];
    expect(profileGaps(clauses, checks)).toEqual({
      clauses: 2,
      fields: [
        { field: 'declarations.x', clauses: 2, checks: 2 },
        { field: 'operations.y.get', clauses: 1, checks: 1 },
      ],
    });
  });

  it('results.json, summary.md and the console summary state the cost at the top', () => {
    const input = makeInput();
    input.events = input.events.map((e) =>
      e.type === 'check-end' && e.checkId === 'PAGE-LIMIT-101/GET /v1/api-keys' ? { ...e, message: 'needs the referenced operation "apikeys.list" declared in the profile (operations.apikeys.list)' } : e,
    );
    const r = buildResults(input);
    expect(r.profileGaps).toEqual({ clauses: 1, fields: [{ field: 'operations.apikeys.list', clauses: 1, checks: 1 }] });
    const md = buildSummaryMarkdown(r).split('\n\n');
    expect(md[1]).toContain('**Undeclared in the profile:** 1 clause skipped for want of a profile field: operations.apikeys.list (1 clause, 1 check)');
    expect(formatConsoleSummary(r).split('\n')[1]).toBe('  1 clause skipped for want of a profile field: operations.apikeys.list (1 clause, 1 check)');
  });

  it('says nothing when every skip has another cause', () => {
    const r = buildResults(makeInput());
    expect(r.profileGaps.clauses).toBe(0);
    expect(buildSummaryMarkdown(r)).not.toContain('Undeclared in the profile');
  });
});
