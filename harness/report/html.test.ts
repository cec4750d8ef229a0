import { describe, expect, it } from 'vitest';
import { renderReports } from './index.ts';
import { BODY_MAX_CHARS } from './html.ts';
import type { EstimateRecord } from '../ground/events.ts';
import { CLAUSES, makeInput, manyFailuresInput, ONE_CAUSE_ENDPOINTS } from './fixture.test-helper.ts';

/** The text of the element with this id attribute (up to its matching close tag of that name). */
function elementById(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  if (start < 0) throw new Error(`no element with id ${id}`);
  const open = html.lastIndexOf('<', start);
  const tag = /^<([a-z0-9]+)/.exec(html.slice(open))![1]!;
  let depth = 0;
  const re = new RegExp(`<(/?)${tag}\\b`, 'g');
  re.lastIndex = open;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return html.slice(open, html.indexOf('>', m.index) + 1);
  }
  throw new Error(`unclosed ${tag}`);
}

describe('report.html', () => {
  const { files } = renderReports(makeInput());
  const html = files['report.html'];

  it('is one self-contained document: no external asset of any kind', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/\ssrc=/i);
    expect(html).not.toMatch(/url\(\s*['"]?(https?:|\/\/)/i);
    expect(html).not.toMatch(/@import/i);
    expect(html.match(/<style>/g)).toHaveLength(1);
  });

  it('a response body holding <script> is escaped: the only script element is ours', () => {
    expect(html.match(/<script\b/gi)).toHaveLength(1);
    expect(html.match(/<\/script>/gi)).toHaveLength(1);
    expect(html).toContain('&lt;script&gt;alert(\\&quot;pwned\\&quot;)&lt;/script&gt;'); // JSON-escaped, then HTML-escaped
    expect(html).not.toContain('<b>&</b>');
    expect(html).toContain('got 201 &lt;b&gt;&amp;&lt;/b&gt;');
    // the inline script carries no run data
    const script = html.slice(html.indexOf('<script>'), html.indexOf('</script>'));
    expect(script).not.toContain('127.0.0.1');
    expect(script).not.toContain('IDEM');
  });

  it('a raw HTML body cannot break out of its <pre>', () => {
    const input = makeInput();
    const x = input.events.find((e) => e.type === 'exchange' && e.id === 'x000003');
    if (x?.type !== 'exchange' || !x.response) throw new Error('fixture');
    x.response = { status: 500, headers: { 'content-type': 'text/html' }, body: '</pre></div><script>window.pwned=1</script><img src=x onerror="alert(1)"><!--' };
    x.request.url += '?q="><script>alert(2)</script>';
    const out = renderReports(input).files['report.html'];
    expect(out.match(/<script\b/gi)).toHaveLength(1);
    expect(out).not.toMatch(/<img\b/i);
    expect(out).not.toMatch(/<!--/);
    expect(out).toContain('&lt;/pre&gt;&lt;/div&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;');
  });

  it('strips control characters (a JSON body keeps its \\u escapes)', () => {
    const input = makeInput();
    const end = input.events.find((e) => e.type === 'check-end' && e.checkId === 'ERR-ENVELOPE/GET /v1/nope');
    if (end?.type !== 'check-end') throw new Error('fixture');
    end.message = 'boom \u0000\u0007\u001b[31m red \uFFFF end';
    const out = renderReports(input).files['report.html'];
    expect(out).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFF]/);
    expect(out).toContain('boom [31m red  end');
    expect(html).toContain('&quot;note&quot;: &quot;a &amp; b ]]&gt; c \\u0001\\b end&quot;');
  });

  it('has the header: target, kit, spec version and sha256, run times, verdict', () => {
    const header = elementById(html, 'failures'); // sanity: ids exist
    expect(header).toContain('Failures and errors');
    const top = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(top).toContain('http://127.0.0.1:4010');
    expect(top).toContain('outreach-conformance 0.1.0');
    expect(top).toContain('1.0.0');
    expect(top).toContain('a'.repeat(64));
    expect(top).toContain('2026-01-02T03:04:05.000Z');
    expect(top).toContain('2026-01-02T03:04:10.000Z');
    expect(top).toContain('FAIL at depth default: 2 MUST/PROFILE checks failed or errored; 6 of 10 clauses checked (60 %');
  });

  it('says what the planned time rested on: the reference\'s durations, or this target\'s earlier runs', () => {
    const withEstimate = (pace?: NonNullable<EstimateRecord['basis']['pace']>) => {
      const input = makeInput();
      const end = input.events.find((e) => e.type === 'run-end')!;
      if (end.type !== 'run-end') throw new Error('no run-end');
      const basis = { durations: 'reference served alone' as const, rateLimit: { requests: 120, windowSeconds: 60 }, workspaces: 8, concurrency: 32, checksMs: 3000, rateFloorMs: 0, from: 'durations' as const, ...(pace ? { pace } : {}) };
      end.stats = { ...end.stats, estimate: { firstMs: 4000, basis, finalError: -0.2 } };
      const page = renderReports(input).files['report.html'];
      return page.slice(page.indexOf('<header'), page.indexOf('</header>'));
    };
    expect(withEstimate()).toContain("planned 4.0 s (from the reference's durations)");
    const pace = { short: 2, works: 3, waiting: 1, runs: ['r1', 'r2'], compared: { short: 30, works: 5, waiting: 0 }, own: {} };
    expect(withEstimate(pace)).toContain("planned 4.0 s (at this target's pace in 2 earlier runs)");
  });

  it('has summary tiles and the mutation score tile', () => {
    const tiles = html.slice(html.indexOf('<section class="tiles">'), html.indexOf('</section>', html.indexOf('<section class="tiles">')));
    expect(tiles).toMatch(/6<small>\/11<\/small><\/div><div class="t-label">Checks passed/);
    expect(tiles).toContain('Mutation score');
    expect(tiles).toContain('75%');
    expect(tiles).toContain('evidence the suite can fail');
    expect(tiles).toMatch(/6<small>\/10<\/small><\/div><div class="t-label">Clauses checked<\/div><div class="t-sub">2 not covered, 1 skipped, 1 errored/);
    const noMutation = renderReports(makeInput({ withMutation: false })).files['report.html'];
    expect(noMutation).not.toContain('Mutation score');
  });

  it('lists every clause, grouped by section in numeric order', () => {
    for (const c of CLAUSES) expect(html).toContain(`id="clause-${c.id}"`);
    const order = [...html.matchAll(/<section class="spec-section" id="sec-([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['2.9', '2.10', '4.1', '5', '7', '8', '9']);
    const s41 = elementById(html, 'sec-4.1');
    expect(s41).toContain('Conventions');
    expect(s41.indexOf('clause-IDEM-REUSED-422')).toBeLessThan(s41.indexOf('clause-PAGE-LIMIT-MAX'));
  });

  it('each clause shows its level badge, text and verdict', () => {
    const idem = elementById(html, 'clause-IDEM-REUSED-422');
    expect(idem).toContain('data-verdict="fail"');
    expect(idem).toContain('<span class="lvl lvl-MUST"');
    expect(idem).toContain('The same Idempotency-Key with another body gets 422 idempotency_key_reused.');
    expect(idem).toContain('<span class="pill v-fail">fail</span>');
    expect(elementById(html, 'clause-ERR-REQUESTID')).toContain('data-verdict="error"');
    expect(elementById(html, 'clause-ERR-REQUESTID')).toContain('uuid requestId &amp; &quot;status&quot; &lt;equal&gt;');
    expect(elementById(html, 'clause-VER-PREFIX')).toContain('data-verdict="not-covered"');
    expect(elementById(html, 'clause-VER-PREFIX')).toContain('no check proves this clause');
    expect(elementById(html, 'clause-ANLT-WINDOW')).toContain('lvl-PROFILE');
    const rate = elementById(html, 'clause-RATE-REMAINING');
    expect(rate).toContain('is-warn');
    expect(rate).toContain('fail · warning');
    const page = elementById(html, 'clause-PAGE-LIMIT-MAX');
    expect(page).toContain('not run at this depth');
    expect(page).toContain('the profile declares no operation &quot;apikeys.list&quot;');
  });

  it('a failed check shows its message, evidence request and response, and a copyable curl line', () => {
    const card = elementById(html, 'check-IDEM-REUSED_POST_v1_campaigns');
    expect(card).toContain('expected 422 idempotency_key_reused');
    expect(card).toContain('Evidence (2 exchanges)');
    expect(card).toContain('id="x-x000002"');
    expect(card).toContain('id="x-x000003"');
    // request line, headers and pretty-printed bodies
    expect(card).toContain('POST /v1/campaigns HTTP/1.1');
    expect(card).toContain('Idempotency-Key: idem-abc');
    expect(card).toContain('HTTP/1.1 201');
    expect(card).toContain('{\n  &quot;name&quot;: &quot;other&quot;,\n  &quot;password&quot;: &quot;[REDACTED]&quot;\n}');
    expect(card).toMatch(/<div class="curl"><pre><code>curl -sS -X POST &#39;http:\/\/127\.0\.0\.1:4010\/v1\/campaigns/);
    expect(card).toContain('class="copy"');
    // and the clause links to it
    expect(elementById(html, 'clause-IDEM-REUSED-422')).toContain('href="#check-IDEM-REUSED_POST_v1_campaigns"');
  });

  it('truncates a body over 8 KB', () => {
    const card = elementById(html, 'x-x000003');
    expect(card).not.toContain('y'.repeat(BODY_MAX_CHARS + 1));
    expect(card).toMatch(/… \(\d+ more characters truncated\)/);
  });

  it('shows the SHOULD failure as a warning and the error with the fallback exchange', () => {
    const warn = elementById(html, 'check-RATE-REMAINING-COUNTDOWN');
    expect(warn).toContain('nonblocking');
    expect(warn).toContain('No exchange recorded for this check.');
    const err = elementById(html, 'check-ERR-ENVELOPE_GET_v1_nope');
    expect(err).toContain('Last request of the check');
    expect(err).toContain('no response: ECONNRESET');
    // blocking failures come before warnings
    expect(html.indexOf('id="check-IDEM-REUSED_POST_v1_campaigns"')).toBeLessThan(html.indexOf('id="check-RATE-REMAINING-COUNTDOWN"'));
  });

  it('has the filters (failed / not covered / profile) and the search box', () => {
    for (const f of ['all', 'failed', 'not-covered', 'profile']) expect(html).toContain(`data-filter="${f}"`);
    expect(html).toContain('id="q"');
  });

  it('tells the reader which environment variables the curl lines use', () => {
    expect(html).not.toContain('class="env-note"');
    const input = makeInput();
    const x = input.events.find((e) => e.type === 'exchange' && e.id === 'x000002');
    if (x?.type !== 'exchange') throw new Error('fixture');
    x.curl = `curl -sS -i -X POST 'http://127.0.0.1:4010/v1/campaigns' -H 'authorization: Bearer '"$OUTREACH_API_KEY"`;
    const out = renderReports(input).files['report.html'];
    expect(out).toContain('set <code>OUTREACH_API_KEY</code> first');
    expect(out).toContain('Bearer &#39;&quot;$OUTREACH_API_KEY&quot;</code>');
    expect(renderReports(input).files['summary.md']).toContain('set `OUTREACH_API_KEY` first');
  });

  it('a passing run says so', () => {
    const input = makeInput();
    input.events = input.events.filter((e) => e.type !== 'check-end' || e.verdict === 'pass' || e.verdict === 'skip');
    input.checks = input.checks.filter((c) => input.events.some((e) => e.type === 'check-end' && e.checkId === c.id));
    const out = renderReports(input).files['report.html'];
    expect(out).toContain('No check failed');
    expect(out).toContain('PASS at depth default: 5 of 10 clauses checked (50 %; 4 not covered, 1 skipped: <a href="#coverage">see below</a>)');
    expect(out).toContain('header class="top v-pass"');
  });

  it('the header says what the verdict speaks for: clauses checked of the total, and the Core and Extended verdicts', () => {
    const top = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(elementById(top, 'verdict')).toContain('FAIL at depth default: 2 MUST/PROFILE checks failed or errored; 6 of 10 clauses checked (60 %');
    expect(elementById(top, 'verdict')).toContain('6 of 10 clauses checked (60 %; 2 not covered, 1 skipped, 1 errored: <a href="#coverage">see below</a>)');
    const core = elementById(top, 'tier-core');
    expect(core).toContain('class="tier tv-fail"');
    expect(core).toContain('Core</span> <span class="tier-text">FAIL (3 of 5 MUST clauses checked; 2 failed, 1 skipped, 1 not covered)');
    expect(core).toContain('MUST clauses checked without the control API');
    const ext = elementById(top, 'tier-extended');
    expect(ext).toContain('class="tier tv-pass"');
    expect(ext).toContain('Extended</span> <span class="tier-text">PASS (2 of 2 MUST clauses checked)');
    expect(ext).toContain('MUST clauses that need the control API');
  });

  it('a PASS says for how many clauses, and "see below" leads to the clauses it does not speak for, each with its reason', () => {
    const input = makeInput();
    input.events = input.events.filter((e) => e.type !== 'check-end' || e.verdict === 'pass' || e.verdict === 'skip');
    input.checks = input.checks.filter((c) => input.events.some((e) => e.type === 'check-end' && e.checkId === c.id));
    const out = renderReports(input).files['report.html'];
    expect(elementById(out, 'verdict')).toContain('PASS at depth default: 5 of 10 clauses checked (50 %; 4 not covered, 1 skipped: <a href="#coverage">see below</a>)');
    expect(out).not.toContain('class="coverage-line"'); // the PASS line already says it
    expect(elementById(out, 'tier-core')).toContain('INCOMPLETE (2 of 5 MUST clauses checked; 1 skipped, 2 not covered)');
    const cov = elementById(out, 'coverage');
    expect(cov).toContain('Not covered (4)');
    expect(cov).toContain('Skipped (1)');
    expect(cov).toMatch(/<code>VER-PREFIX<\/code><\/a><\/td><td><span class="lvl lvl-MUST"[^>]*>MUST<\/span><\/td><td>no check proves this clause yet/);
    expect(cov).toMatch(/<code>PAGE-LIMIT-MAX<\/code>.*the profile declares no operation &quot;apikeys.list&quot;/);
    expect(cov).not.toContain('AUTH-401-MISSING'); // checked: not listed
  });

  it('a known failure is shown as known with its reason, apart from the failures; a stale entry is a failure; an expired one says so', () => {
    const IDEM = 'IDEM-REUSED/POST /v1/campaigns';
    const out = renderReports(makeInput({ baseline: [{ check: IDEM, reason: 'fixed in <2.4>', expires: '2026-03-01' }, { check: 'USAGE-PERCENT/GET /v1/usage', reason: 'was slow' }] })).files['report.html'];
    const known = elementById(out, 'known');
    expect(known).toContain('baseline <code>known.json</code>: 2 entries');
    expect(known).toContain('<span class="pill v-known"');
    expect(known).toContain('<code>IDEM-REUSED/POST /v1/campaigns</code></a></td><td>fixed in &lt;2.4&gt;</td><td>2026-03-01</td>');
    const clause = elementById(out, 'clause-IDEM-REUSED-422');
    expect(clause).toContain('is-known');
    expect(clause).toContain('Known failure (baseline): fixed in &lt;2.4&gt; · until 2026-03-01');
    const failures = elementById(out, 'failures');
    expect(failures).not.toContain('id="check-IDEM-REUSED_POST_v1_campaigns"');
    expect(failures).toContain('stale baseline entry');
    expect(failures).toContain('USAGE-PERCENT/GET /v1/usage passes now: remove it from the baseline known.json. This fails the run.');
    expect(elementById(out, 'verdict')).toContain('1 baseline entry is stale (the check passes now: remove it from the baseline)');

    const expired = renderReports(makeInput({ baseline: [{ check: IDEM, reason: 'until the fix', expires: '2026-01-01' }] })).files['report.html'];
    const card = elementById(expired, 'check-IDEM-REUSED_POST_v1_campaigns');
    expect(card).toContain('The baseline entry for this check expired on 2026-01-01: it no longer hides this failure');
    expect(elementById(expired, 'known')).toContain('expired on 2026-01-01: its failure counts again');
    expect(elementById(expired, 'verdict')).toContain('FAIL at depth default: 2 MUST/PROFILE checks');
  });
});

describe('report.html with many failures of one cause', () => {
  const html = renderReports(manyFailuresInput()).files['report.html']!;
  const failures = elementById(html, 'failures');

  it('shows the cause once, with its count, its endpoints and the evidence of its first check', () => {
    // 8 failed checks: the 4 of the cause, the same message on another clause, and the fixture's 3
    expect(failures.match(/<article class="failure /g)).toHaveLength(5);
    expect(failures).toContain('8 failed checks, 4 root causes, 5 groups of clauses');
    const card = elementById(html, 'check-AUTH-401-MISSING_GET_v1_campaigns');
    expect(card).toContain('data-count="4"');
    expect(card).toContain('<span class="g-count">4 checks on 4 endpoints</span>');
    expect(card).toContain(`Endpoints (4): ${ONE_CAUSE_ENDPOINTS.slice(0, -1).map((x) => `<code>${x.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code>`).join(' ')}`);
    // the message of one real instance, ids and seed as they were
    expect(card).toContain(`${ONE_CAUSE_ENDPOINTS[0]} with no Authorization header: the 401 answer breaks the error envelope: error.requestId: must be a UUID string, got &quot;req_0a9f3c2e1d&quot;`);
    expect(card).toMatch(/<details class="evidence" open><summary>Evidence \(1 exchange\)/);
  });

  it('folds the rest of the cause, each check with its own message, evidence and anchor', () => {
    const card = elementById(html, 'check-AUTH-401-MISSING_GET_v1_campaigns');
    const rest = card.slice(card.indexOf('<details class="g-rest">'));
    expect(rest).toContain('The other 3 checks of this cause, each with its message and evidence');
    for (const ep of ONE_CAUSE_ENDPOINTS.slice(1, -1)) expect(rest).toContain(`<code class="check-id">AUTH-401-MISSING/${ep.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code>`);
    expect(rest.match(/<details class="evidence"><summary>/g)).toHaveLength(3);
    // every clause row links to an anchor the page has, folded or not
    for (const [, id] of html.matchAll(/class="ev-link" href="#([^"]+)"/g)) expect(html).toContain(`id="${id}"`);
  });

  it('keeps the same message on another clause as a cause of its own', () => {
    const other = elementById(html, 'check-AUTH-401-MISSING_POST_v1_campaigns_id_start');
    expect(other).toContain('data-count="1"');
    expect(other).not.toContain('g-rest');
  });

  it('shows the two groups of one message on different clauses under one root cause, each group kept with its clauses', () => {
    const roots = failures.match(/<section class="root-cause"[\s\S]*?<\/section>/g)!;
    expect(roots).toHaveLength(1);
    const root = roots[0]!;
    expect(root).toContain('data-checks="5" data-groups="2"');
    expect(root).toMatch(/<span class="rc-label">Root cause<\/span> <code class="rc-cause">[^<]*error\.requestId: must be a UUID string/);
    // both groups' cards inside, and a row per check with its clauses
    expect(root).toContain('id="check-AUTH-401-MISSING_GET_v1_campaigns"');
    expect(root).toContain('id="check-AUTH-401-MISSING_POST_v1_campaigns_id_start"');
    expect(root.match(/<tr><td><a href="#check-/g)).toHaveLength(5);
    // the evidence open in the first group only
    expect(root.match(/<details class="evidence" open>/g)).toHaveLength(1);
    // the fixture's other failures stay causes of their own, outside
    expect(failures.match(/<article class="failure /g)!.length - root.match(/<article class="failure /g)!.length).toBe(3);
  });
});
