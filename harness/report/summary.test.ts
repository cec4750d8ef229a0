import { describe, expect, it } from 'vitest';
import { renderReports } from './index.ts';
import { buildResults } from './results.ts';
import { buildSummaryMarkdown, formatConsoleSummary, SUMMARY_MAX_BYTES } from './summary.ts';
import type { RunEvent } from '../ground/events.ts';
import { CHECKS, CLAUSES, makeInput, manyFailuresInput, ONE_CAUSE_ENDPOINTS } from './fixture.test-helper.ts';

describe('summary.md', () => {
  const { files } = renderReports(makeInput());
  const md = files['summary.md'];

  it('starts with the headline verdict and the run identity', () => {
    expect(md.split('\n')[0]).toBe('## ❌ Outreach API conformance: FAIL at depth default: 2 MUST/PROFILE checks failed or errored; 6 of 10 clauses checked (60 %; 2 not covered, 1 skipped, 1 errored: see below)');
    expect(md).toContain('`http://127.0.0.1:4010`');
    expect(md).toContain('**Spec:** 1.0.0 (sha256 `aaaaaaaaaaaa`)');
    expect(md).toContain('1 unplanned 429');
  });

  it('has the counts table for checks and clauses', () => {
    expect(md).toContain('| **Checks** | 6 | 2 | 1 | 2 | | | 11 |');
    expect(md).toContain('| **Clauses** | 4 | 2 | 1 | 1 | 2 | 0 | 10 |');
    expect(md).toContain('Blocking (MUST/PROFILE) failures: **2** · SHOULD warnings: **1**');
  });

  it('lists failed MUST checks with clause ids, message and one curl line', () => {
    const section = md.slice(md.indexOf('### Failed MUST/PROFILE checks (2)'), md.indexOf('### SHOULD warnings'));
    expect(section).toContain('#### ❌ `IDEM-REUSED/POST /v1/campaigns`');
    expect(section).toContain('**Clauses:** `IDEM-REUSED-422`, `ERR-REQUESTID`');
    expect(section).toContain('expected 422 idempotency\\_key\\_reused, got 201 &lt;b&gt;&amp;&lt;/b&gt;'.replace('&amp;', '&'));
    expect(section.match(/```sh\ncurl /g)).toHaveLength(2); // one per failed check (IDEM and ERR)
    expect(section).toContain('#### 💥 `ERR-ENVELOPE/GET /v1/nope`');
  });

  it('lists SHOULD warnings apart, skips grouped by reason, not-covered by section, the mutation score', () => {
    expect(md).toContain('### SHOULD warnings (1, non-blocking)');
    expect(md).toContain('| `RATE-REMAINING-COUNTDOWN` | `RATE-REMAINING` | X-RateLimit-Remaining stayed at 120 over 3 requests |');
    expect(md).toContain('Skipped checks by reason (2)');
    expect(md).toContain('| not run at this depth | 1 | `PAGE-LIMIT-FULL/GET /v1/campaigns` |');
    expect(md).toContain('| the profile declares no operation "apikeys.list" | 1 | `PAGE-LIMIT-101/GET /v1/api-keys` |');
    expect(md).toContain('Clauses not covered by any check (2 of 10)');
    expect(md).toContain('| 2.10 Analytics objects | 1 | 1 |');
    expect(md).toContain('| 9 Versioning | 1 | 1 |');
    expect(md).toContain('**Mutation score:** 75% (3/4 mutants killed: evidence the suite can fail). Survivors: `page-limit-200`');
  });

  it('neutralises table-breaking and markup characters', () => {
    const input = makeInput();
    const e = input.events.find((x) => x.type === 'check-end' && x.checkId === 'RATE-REMAINING-COUNTDOWN');
    if (e?.type !== 'check-end') throw new Error('fixture');
    e.message = 'a | b <img src=x> `c`\nsecond line';
    const out = buildSummaryMarkdown(buildResults(input));
    const row = out.split('\n').find((l) => l.startsWith('| `RATE-REMAINING-COUNTDOWN`'))!;
    expect(row).toBe('| `RATE-REMAINING-COUNTDOWN` | `RATE-REMAINING` | a \\| b &lt;img src=x&gt; \\`c\\` |');
    expect(out).not.toContain('<img');
  });

  it('stays under 60 KB with thousands of failures, saying how many were left out', () => {
    const input = makeInput();
    const many: RunEvent[] = [];
    const checks = [...CHECKS];
    for (let i = 0; i < 3000; i++) {
      const id = `SCOPE-MATRIX/key-${i}/POST /v1/campaigns/{id}/leads`;
      checks.push({ id, title: 'scope', clauses: ['KEY-SUBSET'], level: 'MUST' });
      many.push({ type: 'check-end', checkId: id, title: 'scope', clauses: ['KEY-SUBSET'], level: 'MUST', verdict: i % 2 ? 'fail' : 'skip', message: `${'long reason '.repeat(30)} ${i}`, durationMs: 1, requests: 1 });
    }
    input.events.splice(input.events.length - 1, 0, ...many);
    const out = buildSummaryMarkdown(buildResults({ ...input, checks }));
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(out).toMatch(/and 1462 more causes \(see report\.html/);
    expect(out).toContain('more reasons_');
    expect((out.match(/```/g) ?? []).length % 2).toBe(0);
  });

  it('a clean run is a PASS headline', () => {
    const r = buildResults({ events: makeInput().events.filter((e) => e.type !== 'check-end' || e.verdict === 'pass'), clauses: CLAUSES, checks: [] });
    expect(buildSummaryMarkdown(r).split('\n')[0]).toBe('## ✅ Outreach API conformance: PASS at depth default: 5 of 10 clauses checked (50 %; 5 not covered: see below)');
  });
});

describe('summary.md: coverage, Core and Extended, known failures', () => {
  it('has the Core and Extended verdicts and, for a FAIL, the clauses checked', () => {
    const md = buildSummaryMarkdown(buildResults(makeInput()));
    expect(md.split('\n')[0]).toContain('6 of 10 clauses checked (60 %; 2 not covered, 1 skipped, 1 errored: see below)');
    expect(md).toContain('| **Core**: MUST clauses checked without the control API | ❌ FAIL | 3 of 5 | 2 | 0 | 0 | 1 | 1 | 0 |');
    expect(md).toContain('| **Extended**: MUST clauses that need the control API | ✅ PASS | 2 of 2 | 0 | 0 | 0 | 0 | 0 | 0 |');
  });

  it('lists known failures with their reasons, stale entries as failures, an expired entry on its failure', () => {
    const md = buildSummaryMarkdown(
      buildResults(makeInput({ baseline: [{ check: 'IDEM-REUSED/POST /v1/campaigns', reason: 'fixed in 2.4' }, { check: 'USAGE-PERCENT/GET /v1/usage', reason: 'was slow' }] })),
    );
    expect(md.split('\n')[0]).toBe('## ❌ Outreach API conformance: FAIL at depth default: 1 MUST/PROFILE check failed or errored; 1 baseline entry is stale (the check passes now: remove it from the baseline); 6 of 10 clauses checked (60 %; 2 not covered, 1 skipped, 1 errored: see below)');
    expect(md).toContain('### Known failures (1, baseline `known.json`, non-blocking)');
    expect(md).toMatch(/\| `IDEM-REUSED\/POST \/v1\/campaigns` \| fixed in 2\.4 \| {2}\| expected 422/);
    expect(md).toContain('- `USAGE-PERCENT/GET /v1/usage` passes now: remove it from the baseline (known.json). It was listed because: was slow');
    expect(md).not.toContain('#### ❌ `IDEM-REUSED/POST /v1/campaigns`');
    const expired = buildSummaryMarkdown(buildResults(makeInput({ baseline: [{ check: 'IDEM-REUSED/POST /v1/campaigns', reason: 'r', expires: '2025-12-31' }] })));
    expect(expired).toContain('#### ❌ `IDEM-REUSED/POST /v1/campaigns`');
    expect(expired).toContain('- **Baseline entry expired** on 2025-12-31: it no longer hides this failure');
  });

  it('a PASS with a known failure says so', () => {
    const input = makeInput({ baseline: [{ check: 'IDEM-REUSED/POST /v1/campaigns', reason: 'r' }] });
    const gone = new Set(['ERR-ENVELOPE/GET /v1/nope', 'RATE-REMAINING-COUNTDOWN']);
    input.events = input.events.filter((e) => !((e.type === 'check-end' || e.type === 'check-start') && gone.has(e.checkId)));
    const r = buildResults(input);
    expect(buildSummaryMarkdown(r).split('\n')[0]).toBe('## ✅ Outreach API conformance: PASS at depth default: 6 of 10 clauses checked (60 %; 2 not covered, 2 skipped: see below), with 1 known failure');
    expect(formatConsoleSummary(r)).toContain('  ~ IDEM-REUSED/POST /v1/campaigns: known: r');
  });
});

describe('formatConsoleSummary', () => {
  it('is compact and names the failures', () => {
    const r = buildResults(makeInput());
    const text = formatConsoleSummary(r);
    const lines = text.split('\n');
    expect(lines[0]).toBe('FAIL at depth default: 2 MUST/PROFILE checks failed or errored; 6 of 10 clauses checked (60 %; 2 not covered, 1 skipped, 1 errored: see report.html)');
    expect(lines[1]).toBe('  Core: FAIL (3 of 5 MUST clauses checked; 2 failed, 1 skipped, 1 not covered)   Extended: PASS (2 of 2 MUST clauses checked)');
    expect(text).toContain('checks: 6 pass, 2 fail, 1 error, 1 skip of 10 chosen (1 not chosen; 11 in the kit)');
    expect(text).toContain('2 not covered, 0 not observable (of 10)');
    expect(text).toContain('mutation score 75% (3/4 killed)');
    expect(text).toContain('✗ IDEM-REUSED/POST /v1/campaigns  [IDEM-REUSED-422, ERR-REQUESTID]');
    expect(text).toContain('✗ [error] ERR-ENVELOPE/GET /v1/nope');
    expect(text).toContain('! RATE-REMAINING-COUNTDOWN: X-RateLimit-Remaining stayed at 120 over 3 requests');
    expect(lines.length).toBeLessThan(25);
    expect(formatConsoleSummary(r, { maxFailures: 1 })).toContain('… and 1 more');
  });

  it('warns when the target made the run pass its request budget, or keep within it by not starting checks', () => {
    const withStats = (stats: Record<string, number>) => {
      const input = makeInput();
      const end = input.events.find((e) => e.type === 'run-end') as Extract<RunEvent, { type: 'run-end' }>;
      Object.assign(end.stats, stats);
      return buildResults(input);
    };
    expect(formatConsoleSummary(withStats({ requests: 5, requestBudget: 640 }))).not.toContain('request budget');
    const over = formatConsoleSummary(withStats({ requests: 700, plannedRequests: 570, requestBudget: 640 }));
    expect(over).toContain('  warning: 700 requests (planned 570) passed the request budget of 640: this target made the checks send more requests than measured');
    const held = withStats({ requests: 630, requestBudget: 640, notStartedForBudget: 3 });
    expect(formatConsoleSummary(held)).toContain('  warning: 3 chosen checks were not started to keep within the request budget of 640 (skipped, with the reason)');
    expect(buildSummaryMarkdown(held)).toContain('⚠️ 3 chosen checks were not started');
  });
});

describe('detection power: measured from the checks that ran (run-end), the plan\'s prediction (run-start) beside it', () => {
  const input = makeInput();
  const start = input.events.find((e) => e.type === 'run-start')!;
  const end = input.events.find((e) => e.type === 'run-end')!;
  if (start.type === 'run-start') start.detection = { killed: 173, total: 175, missed: [] };
  if (end.type === 'run-end') {
    end.detection = { killed: 171, total: 175, basis: 'the 6 checks that ran to a verdict (the kill matrix of kit 0.1.0; skips and errors kill nothing)', missed: [
      { mutant: 'send-nothing', killers: [{ check: 'SEND/start-begins', requests: 9, depth: 'smoke' }] },
      { mutant: 'x-only-full', killers: [] },
    ] };
  }
  const { files } = renderReports(input);
  const results = JSON.parse(files['results.json']!);

  it('is in results.json, the console summary, summary.md and report.html, with what it rests on and what would kill each miss', () => {
    expect(results.detection).toMatchObject({ killed: 171, total: 175 });
    expect(results.predictedDetection).toMatchObject({ killed: 173, total: 175 });
    expect(results.detection.missed[0]).toEqual({ mutant: 'send-nothing', killers: [{ check: 'SEND/start-begins', requests: 9, depth: 'smoke' }] });
    expect(formatConsoleSummary(buildResults(input))).toMatch(
      /detection power: 171 of 175 reference mutants killed by the 6 checks that ran to a verdict \(the kill matrix of kit 0\.1\.0; skips and errors kill nothing\); the plan predicted 173 .*\(missed: send-nothing, x-only-full;/,
    );
    expect(files['summary.md']).toMatch(/\*\*Detection power:\*\* 171 of 175 reference mutants killed by the 6 checks that ran to a verdict.*; the plan predicted 173.*`send-nothing` \(killed by `SEND\/start-begins`\); `x-only-full` \(no killer runs on this profile\)/);
    expect(files['report.html']).toContain('Detection power: 171/175 reference mutants killed by the 6 checks that ran to a verdict');
    expect(files['report.html']).toContain('the plan predicted 173 killed');
    expect(files['report.html']).toContain('<code>SEND/start-begins</code> ~9 requests');
  });

  it('is absent when the run did not say', () => {
    const plain = JSON.parse(renderReports(makeInput()).files['results.json']!);
    expect(plain.detection).toBeUndefined();
  });
});

describe('many failures of one cause', () => {
  const r = buildResults(manyFailuresInput());
  const shown = ONE_CAUSE_ENDPOINTS.slice(0, -1);

  it('summary.md shows the cause once, with its count and endpoints', () => {
    const md = buildSummaryMarkdown(r);
    expect(md).toContain('### Failed MUST/PROFILE checks (7, 4 causes: a cause is shown once with its count and endpoints)');
    expect(md).toContain('#### ❌ `AUTH-401-MISSING/GET /v1/campaigns` · 4 checks on 4 endpoints');
    expect(md).toContain(`- **Endpoints (4):** ${shown.map((x) => `\`${x}\``).join(', ')}`);
    expect(md).not.toContain('#### ❌ `AUTH-401-MISSING/PATCH /v1/accounts/{id}`');
    expect(md).toContain('#### ❌ `AUTH-401-MISSING/POST /v1/campaigns/{id}/start`');
  });

  it('the console shows one entry per cause with its count and endpoints', () => {
    const text = formatConsoleSummary(r);
    expect(text).toContain('Failed (7, 4 causes):');
    expect(text).toContain('  ✗ AUTH-401-MISSING/GET /v1/campaigns (4 checks on 4 endpoints)  [AUTH-401-MISSING, ERR-REQUESTID]');
    expect(text).toContain(`      on ${shown.join(', ')}`);
    expect(text.match(/^ {2}✗ /gm)).toHaveLength(4);
  });
});
