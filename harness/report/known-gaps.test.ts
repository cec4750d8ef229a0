// A clause's known gaps in the run's report: the catalog's plausible violations no check of the
// run that claims the clause kills, a count in its row and the list folded (results.json,
// summary.md, report.html).
import { describe, expect, it } from 'vitest';
import { renderReports } from './index.ts';
import { buildResults } from './results.ts';
import { makeInput } from './fixture.test-helper.ts';

const violations = {
  'AUTH-401-MISSING': { listed: 3, open: [{ what: 'A request without `Authorization` answers 400.' }, { what: 'A revoked key <b>works</b>.', gap: 'no mutant | revokes keys' }] },
  // A clause no check of the run claims: not shown (the run proves nothing of it).
  'VER-PREFIX': { listed: 1, open: [{ what: 'Routes answer without /v1.' }] },
};

describe('known gaps in the report', () => {
  const input = { ...makeInput(), violations };

  it('results.json names the open violations of a clause the run checked, and nothing elsewhere', () => {
    const r = buildResults(input);
    const clause = (id: string) => r.clauses.find((c) => c.id === id)!;
    expect(clause('AUTH-401-MISSING').openViolations).toEqual(violations['AUTH-401-MISSING']);
    expect(clause('VER-PREFIX').openViolations).toBeUndefined();
    expect(clause('IDEM-REUSED-422').openViolations).toBeUndefined();
    expect(buildResults(makeInput()).clauses.some((c) => c.openViolations)).toBe(false);
  });

  it('summary.md has a folded table: the clause, its verdict, the count and each violation with its gap', () => {
    const md = renderReports(input).files['summary.md'];
    expect(md).toContain('<details><summary>Known gaps: 1 clause with plausible violations no check of this run kills</summary>');
    const row = md.split('\n').find((l) => l.startsWith('| `AUTH-401-MISSING` |'))!;
    expect(row).toContain('| pass | 2 of 3 |');
    expect(row).toContain('A request without `Authorization` answers 400.');
    expect(row).toContain('known gap: no mutant');
    expect(row.split(' | ').length).toBe(4); // the pipe inside the gap is escaped: the row keeps its columns
    expect(renderReports(makeInput()).files['summary.md']).not.toContain('Known gaps');
  });

  it('report.html shows the count in the clause row and the list in a details view, escaped, backticks as code', () => {
    const html = renderReports(input).files['report.html'];
    const block = html.slice(html.indexOf('<code class="clause-id">AUTH-401-MISSING</code>'));
    const article = block.slice(0, block.indexOf('</article>'));
    expect(article).toContain('<span class="cl-gaps">2 of 3 plausible violations open</span>');
    expect(article).toContain('<details class="gaps"><summary>Known gaps: 2 plausible violations no check of this run kills</summary>');
    expect(article).toContain('A revoked key &lt;b&gt;works&lt;/b&gt;. (known gap: no mutant | revokes keys)');
    expect(article).toContain('<li>A request without <code>Authorization</code> answers 400.</li>');
    expect(html.match(/class="gaps"/g)).toHaveLength(1);
  });
});
