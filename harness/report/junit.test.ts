import { describe, expect, it } from 'vitest';
import { renderReports } from './index.ts';
import { buildJunit, junitCounts } from './junit.ts';
import { buildResults } from './results.ts';
import { makeInput } from './fixture.test-helper.ts';
import { antJunitProblems, junit10Problems } from './junit-schema.test-helper.ts';
import { findAll, parseXml, type XmlElement } from './xml.test-helper.ts';

/** A count of a junit.xml: the root does not carry them (Ant's schema allows it no attribute), its testsuites do. */
const sumOf = (root: XmlElement, count: string) => String(findAll(root, 'testsuite').reduce((n, s) => n + Number(s.attrs[count] ?? 0), 0));
const skippedOf = (root: XmlElement) => sumOf(root, 'skipped');
const totals = (root: XmlElement) => ({ tests: sumOf(root, 'tests'), failures: sumOf(root, 'failures'), errors: sumOf(root, 'errors') });
/** Both schemas CI tools read junit.xml with. */
const schemaProblems = (root: XmlElement) => [...junit10Problems(root), ...antJunitProblems(root)];

describe('the test XML parser (so the junit tests can fail)', () => {
  it('accepts well-formed XML', () => {
    const root = parseXml('<?xml version="1.0"?>\n<a x="1 &amp; 2"><b/>t &lt; u<!-- c --><![CDATA[<raw>]]></a>');
    expect(root.attrs.x).toBe('1 & 2');
    expect(root.text).toBe('t < u<raw>');
  });
  it.each([
    ['<a><b></a></b>', /closes/],
    ['<a>x & y</a>', /bare "&"/],
    ['<a x="<"/>', /raw "<"/],
    ['<a>&nbsp;</a>', /unknown entity/],
    ['<a>\u0001</a>', /forbidden character/],
    ['<a></a><b/>', /after the root/],
    ['<a x="1" x="2"/>', /duplicate attribute/],
    ['<a>', /unclosed/],
    ['<a>]]></a>', /"\]\]>" in text/],
  ])('rejects %j', (xml, msg) => {
    expect(() => parseXml(xml)).toThrow(msg);
  });
});

describe('junit.xml', () => {
  const { files, results } = renderReports(makeInput());
  const xml = files['junit.xml'];
  const root = parseXml(xml);
  const cases = findAll(root, 'testcase');
  const tc = (name: string) => cases.find((c) => c.attrs.name === name)!;

  it('is well-formed with one testsuite per check area and one testcase per check', () => {
    expect(root.name).toBe('testsuites');
    expect(findAll(root, 'testsuite').map((s) => s.attrs.name)).toEqual(['AUTH', 'ERR', 'IDEM', 'KEY', 'LIST', 'PAGE', 'RATE', 'USAGE']);
    expect(cases).toHaveLength(results.checks.length);
    expect(tc('AUTH-401-MISSING/GET /v1/workspace').attrs.classname).toBe('AUTH');
    expect(root.attrs).toEqual({});
    expect(totals(root)).toMatchObject({ tests: '11', failures: '1', errors: '1' });
    expect(skippedOf(root)).toBe('2');
    const idem = findAll(root, 'testsuite').find((s) => s.attrs.name === 'IDEM')!;
    expect(idem.attrs).toMatchObject({ tests: '2', failures: '1', errors: '0', skipped: '0' });
  });

  it('a MUST failure carries the message, the clauses and the curl lines of the evidence', () => {
    const f = tc('IDEM-REUSED/POST /v1/campaigns').children.find((c) => c.name === 'failure')!;
    expect(f).toBeDefined();
    expect(f.attrs.message).toMatch(/^expected 422 idempotency_key_reused, got 201 <b>&<\/b>/);
    expect(f.attrs.type).toBe('MUST');
    expect(f.text).toContain('clauses: IDEM-REUSED-422, ERR-REQUESTID');
    expect(f.text).toContain("curl -sS -X POST 'http://127.0.0.1:4010/v1/campaigns");
    expect(f.text.match(/^ {2}curl /gm)).toHaveLength(2);
    expect(f.text).toContain('[x000003] POST http://127.0.0.1:4010/v1/campaigns -> 201');
  });

  it('skips carry their reason; an error is an <error>; a pass is empty', () => {
    expect(tc('PAGE-LIMIT-101/GET /v1/api-keys').children[0]).toMatchObject({ name: 'skipped', attrs: { message: 'the profile declares no operation "apikeys.list"' } });
    expect(tc('PAGE-LIMIT-FULL/GET /v1/campaigns').children[0]).toMatchObject({ name: 'skipped', attrs: { message: 'not run at this depth' } });
    const err = tc('ERR-ENVELOPE/GET /v1/nope').children[0]!;
    expect(err.name).toBe('error');
    expect(err.attrs.message).toBe('TypeError: Cannot read properties of undefined (reading "status")');
    expect(err.text).toContain('at check.ts:12');
    expect(err.text).toContain('last request of the check');
    expect(err.text).toContain('transport error: ECONNRESET');
    expect(tc('AUTH-401-MISSING/GET /v1/workspace').children).toEqual([]);
    expect(tc('IDEM-REUSED/POST /v1/campaigns').attrs.time).toBe('0.040');
  });

  it("a SHOULD failure is a warning, not a <failure>: a passing test case, the warning in its suite's <system-out>", () => {
    expect(tc('RATE-REMAINING-COUNTDOWN').children).toEqual([]);
    const suite = findAll(root, 'testsuite').find((s) => s.attrs.name === 'RATE')!;
    expect(suite.children.find((c) => c.name === 'system-out')!.text).toMatch(/^WARNING \(SHOULD-level, non-blocking\) RATE-REMAINING-COUNTDOWN\nX-RateLimit-Remaining stayed at 120/);
  });

  it("is valid against the Jenkins xUnit plugin's junit-10.xsd and Ant's JUnit schema", () => {
    expect(schemaProblems(root)).toEqual([]);
    expect(findAll(root, 'testsuite')[0]!.attrs).toMatchObject({ id: '0', package: 'AUTH', hostname: 'localhost' });
    expect(findAll(root, 'testsuite')[0]!.attrs.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it('the schema rules can fail: the old root counts, a per-case system-out, a zoned timestamp', () => {
    const old = parseXml('<testsuites tests="1"><testsuite name="A" tests="1" failures="0" errors="0" timestamp="2026-01-01T00:00:00.000Z"><testcase name="x" classname="A" time="0"><system-out>w</system-out></testcase></testsuite></testsuites>');
    expect(antJunitProblems(old).join('\n')).toMatch(/attribute tests is not allowed[\s\S]*lacks hostname[\s\S]*not YYYY-MM-DDThh:mm:ss[\s\S]*the schema wants properties[\s\S]*at most one of skipped/);
  });

  it('records run properties', () => {
    const props = Object.fromEntries(findAll(root, 'property').filter((p) => p.attrs.name?.includes('.') || ['kit', 'target', 'depth', 'runId'].includes(p.attrs.name!)).map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toMatchObject({ kit: 'outreach-conformance 0.1.0', 'spec.version': '1.0.0', 'spec.sha256': 'a'.repeat(64), target: 'http://127.0.0.1:4010' });
  });

  it('strips control characters and escapes markup in hostile messages and ids', () => {
    const input = makeInput();
    const end = input.events.find((e) => e.type === 'check-end' && e.checkId === 'IDEM-REUSED/POST /v1/campaigns');
    if (end?.type !== 'check-end') throw new Error('fixture');
    end.message = 'bad \u0000\u0007\u001b]]> <x a="1"> & \'q\' \uFFFF\uD800 done';
    input.checks.push({ id: 'WEIRD-<&>"\'/id', title: 't', clauses: [], level: 'MUST' });
    const out = buildJunit(buildResults(input), input.events);
    const parsed = parseXml(out);
    const f = findAll(parsed, 'failure')[0]!;
    expect(f.attrs.message).toBe('bad ]]> <x a="1"> & \'q\'  done');
    expect(findAll(parsed, 'testcase').some((c) => c.attrs.name === 'WEIRD-<&>"\'/id')).toBe(true);
  });

  it('the testsuites\' counts sum to junitCounts() of the results', () => {
    expect(totals(root)).toEqual({ tests: '11', failures: '1', errors: '1' });
    expect(junitCounts(results)).toEqual({ tests: 11, failures: 1, errors: 1, skipped: 2 });
  });
});

describe('junit.xml with a baseline', () => {
  const IDEM = 'IDEM-REUSED/POST /v1/campaigns';
  const render = (baseline: { check: string; reason: string; expires?: string }[]) => {
    const { files, results } = renderReports(makeInput({ baseline }));
    const root = parseXml(files['junit.xml']);
    return { root, results, tc: (name: string) => findAll(root, 'testcase').find((c) => c.attrs.name === name)! };
  };

  it('a known failure is a skipped test whose message gives the reason, the failure in its text', () => {
    const { root, results, tc } = render([{ check: IDEM, reason: 'fixed in 2.4', expires: '2026-03-01' }]);
    const known = tc(IDEM);
    expect(known.children.map((c) => c.name)).toEqual(['skipped']);
    expect(known.children[0]!.attrs.message).toBe('known failure: fixed in 2.4 (until 2026-03-01)');
    expect(known.children[0]!.text).toMatch(/^KNOWN FAILURE \(baseline known\.json, non-blocking\)\nknown because: fixed in 2\.4\nuntil: 2026-03-01\n\nexpected 422 idempotency_key_reused/);
    expect(totals(root)).toMatchObject({ tests: '11', failures: '0', errors: '1' });
    expect(skippedOf(root)).toBe('3');
    expect(schemaProblems(root)).toEqual([]);
    expect(junitCounts(results)).toEqual({ tests: 11, failures: 0, errors: 1, skipped: 3 });
    expect(findAll(root, 'testsuite').find((s) => s.attrs.name === 'IDEM')!.attrs).toMatchObject({ failures: '0', skipped: '1' });
  });

  it('a stale entry is a failing test of the BASELINE suite; an expired one leaves the failure, saying so', () => {
    const { root, tc } = render([{ check: 'USAGE-PERCENT/GET /v1/usage', reason: 'was slow' }]);
    const suite = findAll(root, 'testsuite').find((s) => s.attrs.name === 'BASELINE')!;
    expect(suite.attrs).toMatchObject({ tests: '1', failures: '1' });
    const f = tc('baseline: USAGE-PERCENT/GET /v1/usage').children[0]!;
    expect(f).toMatchObject({ name: 'failure', attrs: { type: 'stale-baseline', message: 'USAGE-PERCENT/GET /v1/usage passes now: remove it from the baseline known.json' } });
    expect(totals(root)).toMatchObject({ tests: '12', failures: '2' });
    expect(schemaProblems(root)).toEqual([]);
    expect(tc('USAGE-PERCENT/GET /v1/usage').children).toEqual([]); // the check itself passed

    const expired = render([{ check: IDEM, reason: 'until the fix', expires: '2025-12-31' }]);
    const failure = expired.tc(IDEM).children.find((c) => c.name === 'failure')!;
    expect(failure.text).toContain('baseline: the entry expired on 2025-12-31; it no longer hides this failure (known because: until the fix)');
    expect(totals(expired.root)).toMatchObject({ failures: '1' });
    expect(skippedOf(expired.root)).toBe('2');
  });
});
